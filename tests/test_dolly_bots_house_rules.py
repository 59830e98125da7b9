"""Every Dolly Crush bot level plays house rules (odd boards, up-to swaps, cascades, a points
target, rounds) to the end, and the searching levels beat ``random`` on a board that is not the
rulebook's. Cheap and deterministic: small boards, one-swap breeds, no clocks (``time=0``)."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.bots import make_bot
from sheepfold.core.protocol import CHANCE
from sheepfold.games import make

pytest.importorskip("numba")

ODD_RULES: list[dict[str, Any]] = [
    {"rows": 4, "cols": 4, "diagonals": True, "types": 4, "swaps": "up-to"},
    {"rows": 2, "cols": 6, "min_line": 2, "types": 6, "cascades": True, "end_points": 30},
    {"rows": 5, "cols": 3, "match_colour": True, "types": 3, "dogs_per_player": 2, "rounds": 3},
]
LEVELS = ["easy", "medium", "hard:iterations=8,time=0", "expert:iterations=120,time=0"]
ONE_SWAP = ["pastore-maremmano", "bobtail"]


def play(rules: dict[str, Any], bots: list[str], seed: int, breeds: list[str]) -> list[float]:
    game = make("dolly-crush", 2, breeds=breeds, **rules)
    players = [make_bot(b, game, s, seed=seed + s) for s, b in enumerate(bots)]
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(players[p].act(state.observe(p)))  # apply checks legality
    return state.scores()


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_house_rules_to_the_end(level: str) -> None:
    for i, rules in enumerate(ODD_RULES):
        breeds = ["australian-shepherd", "bobtail"] if i == 0 else ONE_SWAP
        scores = play(rules, [level, "random"], seed=i, breeds=breeds)
        assert len(scores) == 2


#: the rule language's parts (docs/spec/rule-language.md): holes, diagonal swaps, a pattern,
#: points by type, bonuses, gravity with cascades
LANGUAGE_RULES: list[dict[str, Any]] = [
    {
        "shape": ["XXXX", "X.XX", "XXXX"],
        "types": 3,
        "adjacent": ["orthogonal", "diagonal"],
        "combinations": [
            {"kind": "line", "length": 3},
            {"kind": "pattern", "cells": ["XX", "XX"], "colour": True},
        ],
        "points": {"lamb": {"white": 3}},
        "bonuses": [{"length": 4, "times": 2}],
        "refill": "gravity",
        "cascades": True,
    },
    {"rows": 3, "cols": 5, "types": 4, "refill": "gravity", "bonuses": [{"length": 4, "times": 3}]},
]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_the_rule_language_to_the_end(level: str) -> None:
    for i, rules in enumerate(LANGUAGE_RULES):
        scores = play(rules, [level, "random"], seed=i, breeds=ONE_SWAP)
        assert len(scores) == 2


@pytest.mark.parametrize("level", ["hard:iterations=16,time=0", "expert:iterations=300,time=0"])
def test_searching_levels_beat_random_off_the_rulebook_board(level: str) -> None:
    rules = {"rows": 4, "cols": 4, "diagonals": True, "types": 4}
    mine = theirs = wins = 0.0
    for seed in range(4):
        seats = [level, "random"] if seed % 2 == 0 else ["random", level]
        me = seats.index(level)
        scores = play(rules, seats, seed, ONE_SWAP)
        mine += scores[me]
        theirs += scores[1 - me]
        wins += scores[me] > scores[1 - me]
    assert wins >= 3 and mine > 1.5 * theirs, (wins, mine, theirs)
