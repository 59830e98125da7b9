"""The web API end to end over real HTTP and WebSockets: tables, seats, whole games, bad input."""

from __future__ import annotations

import json
import random
from typing import Any

from polling import wait_until
from sheepfold.games.dolly_crush.cards import SWAPS, cell_name


def dolly_turn(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    dog = rng.choice(view["dogs_left"][seat])
    n = view["dog_swaps"][seat][dog]
    swaps = []
    for _ in range(n):
        a, b = rng.choice(SWAPS)
        swaps.append([cell_name(a), cell_name(b)])
    return {"type": "turn", "dog": dog, "swaps": swaps}


def play_dolly(clients: list[Any], rng: random.Random, limit: int = 200) -> dict[str, Any]:
    """Both clients play random whole turns until the game ends; the final view."""
    for _ in range(limit):
        st = clients[0].last_state
        view = st["view"]
        if view["finished"]:
            return view
        seat = view["to_move"]
        c = clients[seat]
        seq = st["seq"]
        if c.last_state["seq"] < seq:  # the mover plays from the newest state, not a stale one
            c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] >= seq)
        c.send(dolly_turn(c.last_state["view"], seat, rng))
        c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
        if seat != 0:
            clients[0].wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
        for other in clients:
            other.drain(0.02)
    raise AssertionError("the game did not end")


def test_create_join_and_play_dolly_to_the_end(live_server, ws_client):
    t = live_server.create(
        game="dolly-crush", seats=[{"kind": "human"}, {"kind": "human"}], seed=11
    )
    assert t["invite"] == f"/t/{t['id']}"
    assert [s["free"] for s in t["seats"]] == [True, True]
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    assert (a["seat"], b["seat"]) == (0, 1)
    r = live_server.http.post(f"/api/tables/{t['id']}/join", json={"name": "Cid"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    ca = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{live_server.ws_url}/ws/{t['id']}", b["token"])
    assert ca.last_state["you"] == 0 and cb.last_state["you"] == 1
    final = play_dolly([ca, cb], random.Random(3))
    assert final["finished"] and final["winners"]
    info = live_server.http.get(f"/api/tables/{t['id']}").json()
    assert info["finished"] is True
    rep = live_server.http.get(f"/api/tables/{t['id']}/replay").json()
    frames = rep["frames"]
    assert frames[0]["event"] == "start" and frames[-1]["view"]["finished"]
    assert frames[-1]["view"]["scores"] == final["scores"]
    assert all(None not in row for row in frames[0]["view"]["flock"])  # dealt


def test_shave_against_bots_to_the_end(live_server, ws_client):
    t = live_server.create(
        game="shave-a-sheep",
        rules={"wool": 8},
        seats=[
            {"kind": "human"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        seed=5,
    )
    me = live_server.join(t["id"], "Zoe")
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])
    rng = random.Random(1)
    for _ in range(400):
        view = c.last_state["view"]
        if view["finished"]:
            break
        if view["phase"] == "roll" and view["turn"] == 0:
            c.send({"type": "roll"})
        elif view["to_move"] == 0 and view["legal_actions"]:
            c.send({"type": "act", "action": rng.choice(view["legal_actions"])})
        seq = c.last_state["seq"]
        msg = c.wait(
            lambda m, seq=seq: m["type"] == "state" and m["seq"] != seq or m["type"] == "error"
        )
        assert msg["type"] == "state", msg
    view = c.last_state["view"]
    assert view["finished"] and sum(view["piles"]) + view["middle"] + sum(view["sheep"]) == 8


def test_bad_input_gets_an_error_and_changes_nothing(live_server, ws_client):
    # the printed dog cards (seat 0's cards all swap once): the turns below are sized for them
    t = live_server.create(
        game="dolly-crush",
        ruleset="dolly-rulebook",
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=2,
    )
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    ca = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{live_server.ws_url}/ws/{t['id']}", b["token"])
    spectator = ws_client(f"{live_server.ws_url}/ws/{t['id']}")
    for c in (ca, cb, spectator):
        c.drain()
    before = ca.last_state
    bad = [
        (ca, "not json"),
        (ca, json.dumps([1, 2])),
        (ca, json.dumps({"type": "fly"})),
        (ca, json.dumps({"type": "turn", "dog": 0, "swaps": [["a1", "c5"]]})),  # not adjacent
        (ca, json.dumps({"type": "turn", "dog": 9, "swaps": []})),
        (
            ca,
            json.dumps({"type": "turn", "dog": 1, "swaps": [["a1", "a2"], ["a2", "a3"]]}),
        ),  # 1 swap
        (ca, json.dumps({"type": "turn", "dog": "x", "swaps": "y"})),
        (ca, json.dumps({"type": "act", "action": {"x": 1}})),
        (ca, json.dumps({"type": "roll"})),
        (ca, "x" * 40_000),  # oversized
        (ca, b"\x00\x01binary"),
        (cb, json.dumps({"type": "turn", "dog": 0, "swaps": [["a1", "a2"]]})),  # out of turn
        (spectator, json.dumps({"type": "turn", "dog": 0, "swaps": [["a1", "a2"]]})),
        (cb, json.dumps({"type": "turn", "dog": 0, "swaps": [["a1", "a2"]], "token": a["token"]})),
    ]
    for client, text in bad:
        client.send(text)
        msg = client.wait(lambda m: True)
        assert msg["type"] == "error", (text[:60], msg)
        assert msg["message"]
    for c in (ca, cb, spectator):  # nobody was told anything else
        try:
            extra = c.recv(timeout=0.2)
        except TimeoutError:
            continue
        raise AssertionError(f"unexpected message {extra}")
    # still connected, nothing changed, and nobody else was told anything
    ca.send({"type": "state"})
    after = ca.wait(lambda m: m["type"] == "state")
    assert after["seq"] == before["seq"] and after["view"] == before["view"]
    assert live_server.manager.get(t["id"]).stored == before["seq"]
    # the legal turn still works on the same connection
    ca.send({"type": "turn", "dog": 0, "swaps": [["a1", "a2"]]})
    msg = ca.wait(lambda m: m["type"] == "state" and m["seq"] > before["seq"])
    assert msg["view"]["turn"] == 1 or msg["view"]["finished"]


def test_reconnect_same_seat_and_leave_replaced_by_bot(live_server, ws_client):
    t = live_server.create(
        game="shave-a-sheep",
        seats=[{"kind": "human"}, {"kind": "human"}],
        replace_leavers=True,
        replacement_bot="random",
        seed=9,
    )
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    ca = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    ca.send({"type": "roll"})
    ca.wait(lambda m: m["type"] == "state" and m["view"]["phase"] != "roll")
    seen = ca.last_state
    ca.close()
    again = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    assert again.last_state["you"] == 0
    assert again.last_state["view"] == seen["view"]
    cb = ws_client(f"{live_server.ws_url}/ws/{t['id']}", b["token"])
    cb.send({"type": "leave"})
    msg = cb.wait(lambda m: m["type"] == "state" and m["table"]["seats"][1]["kind"] == "bot")
    assert msg["you"] is None
    # Bob's old token no longer acts
    cb.send({"type": "hello", "token": b["token"]})
    assert cb.wait(lambda m: m["type"] == "error")["message"]


def test_lobby_api(live_server):
    g = live_server.http.get("/api/games").json()
    assert "random" in g["dolly-crush"]["bots"] and "random" in g["shave-a-sheep"]["bots"]
    assert any(r["name"] == "howling-wolf" for r in g["shave-a-sheep"]["rulesets"])
    r = live_server.http.post(
        "/api/tables", json={"game": "shave-a-sheep", "seats": [{"kind": "bot", "bot": "nope"}, {}]}
    )
    assert r.status_code == 400 and "nope" in r.json()["detail"]
    r = live_server.http.post(
        "/api/tables", json={"game": "shave-a-sheep", "rules": {"wool": -3}, "seats": [{}, {}]}
    )
    assert r.status_code == 400 and "wool" in r.json()["detail"]
    r = live_server.http.post("/api/tables", json={"game": "chess", "seats": [{}, {}]})
    assert r.status_code == 422
    for path in ("/", "/t/abc", "/static/app.css", "/static/table.js", "/static/lobby.js"):
        assert live_server.http.get(path).status_code == 200, path


def test_an_away_player_gets_a_stand_in_and_takes_the_seat_back(make_server, ws_client):
    srv = make_server(leave_grace=0.3)
    kept = srv.create(
        game="shave-a-sheep",
        seats=[{"kind": "human"}, {"kind": "human"}],
        replace_leavers=True,
        replacement_bot="random",
        seed=1,
    )
    freed = srv.create(
        game="shave-a-sheep",
        seats=[{"kind": "human"}, {"kind": "human"}],
        replace_leavers=False,
        seed=1,
    )

    def seat0(t: dict[str, Any]) -> dict[str, Any]:
        return srv.http.get(f"/api/tables/{t['id']}").json()["seats"][0]

    # Ann leaves the table without bots first, then the other: when the grace of the second
    # has run out (a bot stands in), the grace of the first has run out too, on the same
    # event loop; so the first seat is checked after its grace without timing anything.
    tokens = {}
    for t in (freed, kept):
        a = srv.join(t["id"], "Ann")
        tokens[t["id"]] = a["token"]
        c = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
        c.close()
        wait_until(lambda t=t: not seat0(t)["online"], what="the server to see Ann leave")
    away = wait_until(lambda: seat0(kept)["stand_in"] and seat0(kept), what="a stand-in for Ann")
    # the seat is still Ann's: a bot plays for her (her roll), her token still holds it
    assert (away["kind"], away["name"], away["stand_in"]) == ("human", "Ann", "random")
    watcher = ws_client(f"{srv.ws_url}/ws/{kept['id']}")
    watcher.wait_state(lambda m: m["seq"] > 0)  # the stand-in rolled for her
    back = ws_client(f"{srv.ws_url}/ws/{kept['id']}", tokens[kept["id"]])
    assert back.last_state["you"] == 0
    assert seat0(kept)["stand_in"] is None and seat0(kept)["online"]
    assert any("is back" in e["text"] for e in srv.manager.get(kept["id"]).events)
    # the table said no bots: nobody stands in, the seat waits for Ann
    seat = seat0(freed)
    assert seat["kind"] == "human" and not seat["free"] and seat["stand_in"] is None
    # after an explicit leave the seat is free for someone else
    a2 = srv.join(freed["id"], "Bob")  # the other seat
    c = ws_client(f"{srv.ws_url}/ws/{freed['id']}", a2["token"])
    c.send({"type": "leave"})
    c.wait(lambda m: m["type"] == "state" and m["table"]["seats"][a2["seat"]]["free"])
    assert srv.join(freed["id"], "Cid", seat=a2["seat"])["seat"] == a2["seat"]


def test_a_normal_server_refuses_a_given_seed(make_server):
    srv = make_server(allow_seed=False)
    r = srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}], "seed": 5})
    assert r.status_code == 400 and "seed" in r.json()["detail"]
    assert (
        srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}]}).status_code
        == 201
    )


def test_a_broken_bot_does_not_stall_the_table(live_server, ws_client, monkeypatch):
    from sheepfold.bots.random_bot import RandomBot

    def boom(self, view):
        raise RuntimeError("bug")

    monkeypatch.setattr(RandomBot, "act", boom)
    t = live_server.create(
        game="shave-a-sheep",
        rules={"wool": 5},
        seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        seed=3,
    )
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}")
    msg = c.wait_state(lambda m: m["view"]["finished"], timeout=30)
    assert msg["view"]["finished"]  # every bot move failed, yet the game went on to the end
    assert any("trouble" in e["text"] for e in live_server.manager.get(t["id"]).events)


def _roll_until_race(c, seats_of_client):
    """Roll and play the first legal action until a gray face starts the race."""
    for _ in range(200):
        v, seq = c.last_state["view"], c.last_state["seq"]
        if v["phase"] == "grab":
            return v
        if v["phase"] == "roll" and v["turn"] in seats_of_client:
            c.send({"type": "roll"})
        elif v["to_move"] in seats_of_client:
            c.send({"type": "act", "action": v["legal_actions"][0]})
        c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
    raise AssertionError("no race")


def test_howling_wolf_timeout_and_bot_grabs(make_server, ws_client):
    srv = make_server(race_timeout=0.4, react_min=5.0, react_max=5.0)  # bots too slow: timeout
    t = srv.create(
        game="shave-a-sheep", ruleset="howling-wolf", seats=[{}, {"kind": "bot"}], seed=6
    )
    a = srv.join(t["id"], "Ann")
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    _roll_until_race(c, {0})
    msg = c.wait(lambda m: m["type"] == "state" and m["view"]["phase"] != "grab")
    assert msg["view"]["grabber"] is not None
    assert any("nobody howled in time" in e["text"] for e in msg["events"])

    srv2 = make_server(race_timeout=30, react_min=0.05, react_max=0.1)  # a quick bot wins
    t = srv2.create(
        game="shave-a-sheep", ruleset="howling-wolf", seats=[{}, {"kind": "bot"}], seed=6
    )
    a = srv2.join(t["id"], "Ann")
    c = ws_client(f"{srv2.ws_url}/ws/{t['id']}", a["token"])
    _roll_until_race(c, {0})
    msg = c.wait(lambda m: m["type"] == "state" and m["view"]["phase"] != "grab", timeout=25)
    assert msg["view"]["grabber"] == 1
    assert any(e["seat"] == 1 and "grabbed the wolf first" in e["text"] for e in msg["events"])


def test_a_failed_commit_changes_nothing_and_tells_only_the_sender(live_server, ws_client):
    t = live_server.create(game="shave-a-sheep", seats=[{}, {}], seed=7)
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    url = f"{live_server.ws_url}/ws/{t['id']}"
    ca, cb = ws_client(url, a["token"]), ws_client(url, b["token"])
    for c in (ca, cb):
        c.drain()
    before = ca.last_state
    seen_by_bob = len(cb.received)
    storage = live_server.manager.storage
    real = storage.append_many

    def broken(batch):
        raise OSError("disk full")

    storage.append_many = broken
    try:
        ca.send({"type": "roll"})
        err = ca.wait(lambda m: m["type"] == "error")
        assert "could not be saved" in err["message"]
    finally:
        storage.append_many = real
    ca.send({"type": "state"})
    now = ca.wait(lambda m: m["type"] == "state")
    assert now["seq"] == before["seq"] and now["view"] == before["view"]
    table = live_server.manager.get(t["id"])
    assert table.state.snapshot()["history"] == tuple(table.state.history[: table.stored])
    cb.drain()  # Bob never saw the roll that was not saved, nor the error
    for text in cb.received[seen_by_bob:]:
        m = json.loads(text)
        assert m["type"] == "state" and m["view"]["roll"] is None and m["seq"] == before["seq"]
    ca.send({"type": "roll"})  # the same intent works once the database does
    assert ca.wait(lambda m: m["type"] == "state" and m["seq"] > before["seq"])["view"]["roll"]


def _swaps_that_take(state: Any, seat: int) -> tuple[int, list[list[str]]]:
    """A dog card and swaps (found with the engine on a clone) whose turn takes some sheep."""
    rng = random.Random(1)
    for _ in range(5000):
        dog = rng.choice(state.observe(seat)["dogs_left"][seat])
        trial = state.clone()
        trial.apply(dog)
        swaps = []
        while trial.current_player() == seat:
            a, b = rng.choice(SWAPS)
            swaps.append([cell_name(a), cell_name(b)])
            trial.apply(trial.string_to_action(f"swap {swaps[-1][0]}-{swaps[-1][1]}"))
        if trial.last_taken:
            return dog, swaps
    raise AssertionError("no turn that takes sheep")


def test_preview_shows_what_the_engine_takes(live_server, ws_client):
    t = live_server.create(
        game="dolly-crush", seats=[{"kind": "human"}, {"kind": "human"}], seed=17
    )
    a = live_server.join(t["id"], "Ann")
    b = live_server.join(t["id"], "Bob")
    url = f"{live_server.ws_url}/ws/{t['id']}"
    ca, cb, spec = ws_client(url, a["token"]), ws_client(url, b["token"]), ws_client(url)
    table = live_server.manager.get(t["id"])
    seq = table.stored
    dog, swaps = _swaps_that_take(table.state, 0)
    ca.send({"type": "preview", "dog": dog, "swaps": swaps, "ref": 7})
    got = ca.wait(lambda m: m["type"] == "preview")
    assert got["ref"] == 7 and got["swaps_left"] == 0 and got["cells"] and got["points"] > 0
    # fewer swaps than the card's: the lines the flock shows so far, swaps still left
    ca.send({"type": "preview", "dog": dog, "swaps": swaps[:-1], "ref": 8})
    part = ca.wait(lambda m: m["type"] == "preview")
    assert part["ref"] == 8 and part["swaps_left"] == 1
    # refused like a turn: each answer is an error to the sender alone
    bad = [
        (ca, {"type": "preview", "dog": dog, "swaps": [["a1", "c5"]]}, "adjacent"),
        (ca, {"type": "preview", "dog": dog, "swaps": swaps + swaps * 3}, "exactly"),
        (ca, {"type": "preview", "dog": "x", "swaps": []}, "dog"),
        (cb, {"type": "preview", "dog": dog, "swaps": swaps}, "not your turn"),
        (spec, {"type": "preview", "dog": dog, "swaps": swaps}, "watching"),
    ]
    for client, msg, words in bad:
        client.send(msg)
        err = client.wait(lambda m: m["type"] in ("error", "preview"))
        assert err["type"] == "error" and words in err["message"], (msg, err)
    for client in (cb, spec):  # nothing was broadcast, nothing stored
        client.drain(0.1)
        assert not any('"preview"' in m for m in client.received)
        assert client.last_state["seq"] == seq
    assert table.stored == seq and table.applied == seq
    # the turn itself takes exactly those cards, for exactly those points
    before = ca.last_state["view"]["scores"][0]
    ca.send({"type": "turn", "dog": dog, "swaps": swaps})
    after = ca.wait(lambda m: m["type"] == "state" and m["seq"] > seq)["view"]
    assert after["last_taken"] == got["cells"]
    assert after["scores"][0] - before == got["points"]
    # a turn started decision by decision: the preview covers the swaps still left
    view = cb.wait_state(lambda m: m["seq"] > seq)["view"]
    d = next(d for d in view["dogs_left"][1] if view["dog_swaps"][1][d] > 0)
    cb.send({"type": "act", "action": f"dog {d}"})
    cb.wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "swap")
    cb.send({"type": "preview", "swaps": []})
    live = cb.wait(lambda m: m["type"] in ("error", "preview"))
    assert live["type"] == "preview" and live["swaps_left"] == view["dog_swaps"][1][d]


def test_preview_is_a_dolly_crush_message(live_server, ws_client):
    t = live_server.create(game="shave-a-sheep", seats=[{"kind": "human"}, {"kind": "human"}])
    a = live_server.join(t["id"], "Ann")
    ca = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    ca.send({"type": "preview", "dog": 0, "swaps": []})
    err = ca.wait(lambda m: m["type"] == "error")
    assert "Dolly Crush" in err["message"]
