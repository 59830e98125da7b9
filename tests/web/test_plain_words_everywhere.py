"""Plain words wherever a player reads a move (issue 51): the log and the replay name the
player who moved and the players a move touches (the page writes each ``{player K}`` mark as
that seat's name), in the words of the rules in play, never "you" or a seat's number for a move
another player made; in English and in Italian."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import httpx

from sheepfold.core.drivers import table_driver
from sheepfold.core.protocol import CHANCE
from sheepfold.games import make
from sheepfold.server.replay import replay_frames

NAMES = ["Ann", "Ben", "Cleo"]
SEATS = [{"kind": "bot", "bot": "random", "name": n} for n in NAMES]
MARK = re.compile(r"\{player (\d)\}")
#: a second person, or a seat by its number: the words of a rule, not of a move
RULE_WORDS = re.compile(r"\b(you|your|seat \d)\b", re.IGNORECASE)


def named(text: str) -> str:
    """A log line as the page shows it (static/table.js: ``named``)."""
    return MARK.sub(lambda m: NAMES[int(m[1])], text)


def log_of(c: Any) -> list[dict[str, Any]]:
    c.send({"type": "log", "since": 0, "ref": "log"})
    return c.wait(lambda m: m["type"] == "log")["events"]


def finished_log(live_server: Any, ws_client: Any, lang: str, **spec: Any) -> tuple[str, list]:
    t = live_server.create(game="shave-a-sheep", seats=SEATS, **spec)
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang={lang}")
    c.wait_state(lambda s: s["view"]["finished"])
    return t["id"], log_of(c)


def test_the_log_names_the_player_who_moved(live_server: Any, ws_client: Any) -> None:
    table, events = finished_log(live_server, ws_client, "en", seed=5)
    moves = [e for e in events if e.get("move") and e["seat"] is not None]
    assert moves
    for e in moves:
        text = named(e["text"])
        assert text.startswith(f"{NAMES[e['seat']]} "), text
        assert not RULE_WORDS.search(text), text
    wolves = [e for e in moves if e["move"].startswith("wolf")]
    assert wolves, [e["move"] for e in moves]
    for e in wolves:
        k = int(e["move"].split()[-1])
        assert named(e["text"]) == (
            f"{NAMES[e['seat']]} plays wolf: take all the wool from {NAMES[k]}'s sheep back "
            "to the middle"
        )
    grows = [named(e["text"]) for e in moves if e["move"] == "grow"]
    assert grows and all(g.endswith(f"{g.split()[0]}'s sheep") for g in grows), grows
    # the replay says each move in the log's words
    frames = httpx.get(f"{live_server.url}/api/tables/{table}/replay").json()["frames"]
    said = [named(line) for f in frames for line in f["said"]]
    assert said and not [s for s in said if RULE_WORDS.search(s)]


def test_the_log_names_players_in_italian(live_server: Any, ws_client: Any) -> None:
    _, events = finished_log(live_server, ws_client, "it", seed=5)
    wolves = [e for e in events if e.get("move", "").startswith("wolf")]
    assert wolves
    for e in wolves:
        k = int(e["move"].split()[-1])
        text = named(e["text"])
        assert text.startswith(f"{NAMES[e['seat']]} gioca «lupo»: "), text
        assert f"pecora di {NAMES[k]}" in text, text


def test_a_howling_wolf_replay_names_the_grabber() -> None:
    """A race's winner is a frame of its own: "Ben grabbed the wolf" (was "won the race")."""
    game = make("shave-a-sheep", 3, {"variants": ["howling-wolf"]})
    state, rng = game.new_initial_state(seed=2), random.Random(2)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_unchecked(state.sample_chance(None))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))
    table = SimpleNamespace(
        driver=table_driver("shave-a-sheep"),
        manager=SimpleNamespace(new_state=lambda g, seed: g.new_initial_state(seed=seed)),
        game=game,
        seed=2,
        state=state,
        config={},
        seating=SimpleNamespace(who=lambda k: NAMES[k]),
    )
    frames = replay_frames(table)  # type: ignore[arg-type]
    grabs = [f for f in frames if f["said"] and "grabbed the wolf" in f["said"][0]]
    assert grabs
    for f in grabs:
        assert [named(s) for s in f["said"]] == [f"{f['who']} grabbed the wolf"]
    said = [named(line) for f in frames for line in f["said"]]
    assert not [s for s in said if RULE_WORDS.search(s)]
