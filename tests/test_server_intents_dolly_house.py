"""Issue 13, the server's intents and events under Dolly Crush house rules: moves on any flock
size parse and validate through the game's own board (cells like ``h8``, "stop" under up-to
swaps, dog cards beyond 3), with bounded work; nothing here needs a live server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheepfold.core.drivers import table_driver
from sheepfold.core.play import resolve_chance
from sheepfold.games import make
from sheepfold.server.events import EventLog
from sheepfold.server.intents import Intents


class FakeConn:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[dict[str, Any]] = []

    def push(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def error(self, message: str, **extra: Any) -> None:
        self.sent.append({"type": "error", "message": message, **extra})


class FakeSeating:
    def who(self, seat: int | None) -> str:
        return f"seat {seat}"


class FakeTable:
    """What Intents and EventLog read of a table: the game, its state, accept()."""

    def __init__(self, rules: dict[str, Any], breeds: list[str]) -> None:
        self.game = make("dolly-crush", players=2, rules=rules, breeds=breeds)
        self.state = self.game.new_initial_state(seed=3)
        resolve_chance(self.state)
        self.driver = table_driver("dolly-crush")  # what the server asks the game's driver
        self.config: dict[str, Any] = {}
        self.show_scores = True
        self.seating = FakeSeating()
        self.log = EventLog(self)  # type: ignore[arg-type]
        self.accepted: list[Any] = []

    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_of_token(self, token: Any) -> int | None:
        return None

    def accept(self, trial: Any) -> None:
        new = trial.history[len(self.state.history) :]
        self.log.describe(new)
        self.accepted.append(trial)
        self.state = trial
        resolve_chance(self.state)


def send(table: FakeTable, conn: FakeConn, **msg: Any) -> dict[str, Any] | None:
    before = len(conn.sent)
    Intents(table).handle(conn, json.dumps(msg))  # type: ignore[arg-type]
    return conn.sent[before] if len(conn.sent) > before else None


BIG = {"rows": 8, "cols": 8, "swaps": "up-to", "dogs_per_player": 6, "types": 8}


def test_a_turn_on_an_8x8_flock_stops_early_under_up_to() -> None:
    t = FakeTable(BIG, ["australian-shepherd", "bobtail"])
    c = FakeConn(0)
    assert send(t, c, type="turn", dog=5, swaps=[["h7", "h8"], ["g8", "h8"]]) is None
    assert len(t.accepted) == 1
    trial = t.accepted[0]
    g = t.game
    played = [a for who, a in trial.history if who == 0]
    assert played == [5, g.swap_action("h7", "h8"), g.swap_action("g8", "h8"), g.stop]
    assert trial.turns == 1 and 5 not in trial.dogs_left(0)
    texts = [e["text"] for e in t.log.events]
    assert "played dog card 6 (4 swaps)" in texts and "swapped h7 and h8" in texts
    assert "stopped swapping" in texts


def test_an_empty_turn_under_up_to_is_a_dog_card_and_stop() -> None:
    t = FakeTable(BIG, ["australian-shepherd", "bobtail"])
    assert send(t, FakeConn(0), type="turn", dog=0, swaps=[]) is None
    assert t.state.turns == 1


@pytest.mark.parametrize(
    "rules,msg,words",
    [
        (BIG, {"dog": 6, "swaps": []}, "0..5"),
        (BIG, {"dog": 0, "swaps": [["h8", "h9"]]}, "not a cell"),
        (BIG, {"dog": 0, "swaps": [["a1", "a3"]]}, "not adjacent"),
        (BIG, {"dog": 0, "swaps": [["a1", "a2"]] * 5}, "at most 4"),
        (BIG, {"dog": 0, "swaps": [["a1", "a" * 5000]]}, "pair of cell names"),
        (BIG, {"dog": 0, "swaps": [["a1", "a2"]] * 41}, "list of cell pairs"),
        ({}, {"dog": 0, "swaps": [["a1", "a2"]]}, "exactly 4"),  # exact swaps: Dolly Crush ruling 7
        ({}, {"dog": 0, "swaps": [["c5", "d5"]] * 4}, "not a cell"),
        ({"rows": 4, "cols": 7}, {"dog": 4, "swaps": []}, "0..3"),
    ],
)
def test_bad_turns_get_a_reason_and_change_nothing(rules: dict, msg: dict, words: str) -> None:
    t = FakeTable(rules, ["australian-shepherd", "bobtail"])
    before = t.state.clone()
    err = send(t, FakeConn(0), type="turn", **msg)
    assert err is not None and err["type"] == "error" and words in err["message"], err
    assert not t.accepted and t.state.history == before.history


def test_preview_and_act_on_a_large_flock() -> None:
    t = FakeTable({"rows": 6, "cols": 7, "diagonals": True}, ["bobtail", "border-collie"])
    c = FakeConn(0)
    got = send(t, c, type="preview", dog=0, swaps=[["f6", "f7"]])
    assert got is not None and got["type"] == "preview", got
    assert got["swaps_left"] == 0 and isinstance(got["points"], int)
    assert all(t.game.board.parse_cell(x) >= 0 for x in got["cells"])
    assert not t.accepted
    assert send(t, c, type="act", action="dog 2") is None
    assert send(t, c, type="act", action="swap e7-f7") is None
    assert t.state.turns == 1 and t.log.events[0]["text"] == "played dog card 3 (1 swap)"
