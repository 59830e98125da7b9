"""A finished game's record says why it ended (``ended_by``, an optional field the records
contract allows: docs/spec/records.md), and replays as before; a game still going on has none."""

from __future__ import annotations

import json
import random

import pytest

from sheepfold.core.records import TURN_LIMIT, end_reason, replay, summary, to_record
from sheepfold.games import make


def played(game: str, rules: dict | None = None, moves: int | None = None, seed: int = 1):
    g = make(game, 2, rules or {})
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal() and (moves is None or n < moves):
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
            n += 1
    return s


@pytest.mark.parametrize(
    "game, rules, reason",
    [
        ("shave-a-sheep", {"wool": 8}, "middle"),
        ("dolly-crush", {}, "dogs"),
        ("shave-a-sheep", {"wool": 30, "max_turns": 3}, TURN_LIMIT),
    ],
)
def test_a_finished_games_record_says_why_it_ended(game, rules, reason) -> None:
    s = played(game, rules)
    rec = json.loads(json.dumps(to_record(s)))
    assert end_reason(s) == reason and rec["ended_by"] == reason
    again = replay(json.dumps(rec))  # the field is read back as an extension: replays the same
    assert again.state.is_terminal() and end_reason(again.state) == reason
    assert "ended_by" not in summary(again.state, again.moves_applied)  # the contract's fields


def test_a_game_still_going_on_has_no_end_reason() -> None:
    s = played("shave-a-sheep", {"wool": 30}, moves=2)
    assert not s.is_terminal()
    assert end_reason(s) is None and "ended_by" not in to_record(s)
