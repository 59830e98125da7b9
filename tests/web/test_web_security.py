"""Security: no message a client receives holds the deck order or a seed; tokens are checked."""

from __future__ import annotations

import json
import random
from typing import Any

from test_web_api import play_dolly

from sheepfold.games.dolly_crush.cards import card_code

SEED = 987_654_321_987


def walk(obj: Any, path: str = ""):
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def assert_no_secrets(text: str, deck_top: list[str] | None = None) -> None:
    assert str(SEED) not in text
    data = json.loads(text)
    for path, value in walk(data):
        last = path.rsplit(".", 1)[-1]
        assert last not in ("seed", "deck", "initial_deck", "returning", "token", "token_hash"), (
            path
        )
        if deck_top and isinstance(value, list) and len(value) >= len(deck_top):
            for i in range(len(value) - len(deck_top) + 1):
                assert value[i : i + len(deck_top)] != deck_top, f"deck order leaked at {path}"


def test_no_deck_order_or_seed_reaches_any_client(live_server, ws_client):
    t = live_server.create(
        game="dolly-crush", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED
    )
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    url = f"{live_server.ws_url}/ws/{t['id']}"
    ca, cb, spec = ws_client(url, a["token"]), ws_client(url, b["token"]), ws_client(url)
    table = live_server.manager.get(t["id"])
    tops: list[list[str]] = []  # the deck's next 5 cards at every step (nobody may see them)
    orig_broadcast = table.broadcast

    def spy() -> None:
        tops.append([card_code(c) for c in table.state.deck[::-1][:5]])
        orig_broadcast()

    table.broadcast = spy
    ca.send({"type": "turn", "dog": 0, "swaps": [["a1", "c5"]]})  # an error message too
    ca.wait(lambda m: m["type"] == "error")
    play_dolly([ca, cb], random.Random(9))
    spec.drain()
    texts = ca.received + cb.received + spec.received
    texts += [
        live_server.http.get(p).text
        for p in (
            "/api/tables",
            f"/api/tables/{t['id']}",
            f"/api/tables/{t['id']}/replay",
            "/api/games",
        )
    ]
    assert len(texts) > 30 and tops
    for text in texts:
        assert_no_secrets(text)
        for top in tops:
            if len(top) == 5:
                assert_no_secrets(text, top)


def test_shave_messages_hold_no_seed(live_server, ws_client):
    t = live_server.create(
        game="shave-a-sheep",
        rules={"wool": 6},
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        seed=SEED,
    )
    a = live_server.join(t["id"], "Ann")
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    rng = random.Random(2)
    while not c.last_state["view"]["finished"]:
        v = c.last_state["view"]
        seq = c.last_state["seq"]
        if v["phase"] == "roll" and v["turn"] == 0:
            c.send({"type": "roll"})
        elif v["to_move"] == 0:
            c.send({"type": "act", "action": rng.choice(v["legal_actions"])})
        c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
    for text in c.received + [live_server.http.get(f"/api/tables/{t['id']}/replay").text]:
        assert_no_secrets(text)


def test_acting_without_the_seat_token_is_refused(live_server, ws_client):
    t = live_server.create(
        game="shave-a-sheep", seats=[{"kind": "human"}, {"kind": "human"}], seed=4
    )
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    url = f"{live_server.ws_url}/ws/{t['id']}"
    anon = ws_client(url)
    bad = ws_client(url)
    bad.send({"type": "hello", "token": "guess-" + a["token"][6:]})
    assert "not valid" in bad.wait(lambda m: m["type"] == "error")["message"]
    cb = ws_client(url, b["token"])
    for c in (anon, bad, cb):
        c.drain()
    seq = live_server.manager.get(t["id"]).stored
    anon.send({"type": "roll"})  # no token: a spectator
    assert "watching" in anon.wait(lambda m: m["type"] == "error")["message"]
    bad.send({"type": "roll", "token": a["token"]})  # a token in the message does not seat you
    assert "watching" in bad.wait(lambda m: m["type"] == "error")["message"]
    cb.send({"type": "roll"})  # Bob holds seat 1; seat 0 rolls first
    assert "turn" in cb.wait(lambda m: m["type"] == "error")["message"]
    cb.send({"type": "roll", "token": a["token"]})  # another seat's token
    assert "does not hold your seat" in cb.wait(lambda m: m["type"] == "error")["message"]
    assert live_server.manager.get(t["id"]).stored == seq
    # the stored hash is not the token
    table = live_server.manager.get(t["id"])
    assert all(s.token_hash != a["token"] for s in table.seats)
