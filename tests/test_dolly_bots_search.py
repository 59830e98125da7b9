"""The fast swap search against the plain reference (search.reference_best_swaps)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sheepfold.games.dolly_crush import fastsearch, search
from sheepfold.games.dolly_crush.cards import EMPTY, SWAPS, Board, find_lines
from sheepfold.games.dolly_crush.fastsearch import (
    best_after,
    fast_best_swaps,
    pack,
    reachable,
    unpack,
)
from sheepfold.games.dolly_crush.game import DollyGame
from sheepfold.games.dolly_crush.search import apply_swaps, combination_points, reference_best_swaps

POINTS = DollyGame().points


def game_flock(rng: random.Random) -> list[int]:
    """A settled flock as the game deals it (no line), drawn from the rulebook deck."""
    deck = DollyGame().standard_deck()
    while True:
        f = rng.sample(deck, 15)
        if not find_lines(f):
            return f


def odd_flock(rng: random.Random) -> list[int]:
    """Anything the hot path may meet: few kinds, lines already there, empty cells."""
    kinds = rng.choice([2, 3, 4, 10])
    empty = rng.random() < 0.3
    return [EMPTY if empty and rng.random() < 0.2 else rng.randrange(kinds) for _ in range(15)]


@pytest.mark.parametrize(
    ("n", "count"),
    [
        (1, 3000),
        (2, 1500),
        # the plain reference takes seconds on these (make test runs them; test-fast does not)
        pytest.param(3, 300, marks=pytest.mark.slow),
        pytest.param(4, 60, marks=pytest.mark.slow),
    ],
)
def test_fast_search_matches_reference_on_dealt_flocks(n: int, count: int) -> None:
    rng = random.Random(1000 + n)
    for _ in range(count):
        f = game_flock(rng)
        ref = reference_best_swaps(f, n, POINTS)
        got = fast_best_swaps(f, n, POINTS)
        assert got == ref, (f, n)  # same points and the same (lexicographically first) sequence
        assert len(got[1]) == n
        assert combination_points(apply_swaps(f, got[1]), POINTS) == got[0]


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_fast_search_matches_reference_on_odd_flocks(n: int) -> None:
    rng = random.Random(77 + n)
    tables = [list(POINTS), [1] * 10, [0, 3, 1, 0, 2, 5, 1, 1, 4, 0]]
    for _ in range(300):
        f = odd_flock(rng)
        pts = rng.choice(tables)
        try:
            ref: object = reference_best_swaps(f, n, pts)
        except ValueError:
            ref = "no swap"
        try:
            got: object = fast_best_swaps(f, n, pts)
        except ValueError:
            got = "no swap"
        assert got == ref, (f, n, pts)


def test_pack_round_trip_and_scores_of_every_reachable_flock() -> None:
    rng = random.Random(5)
    for _ in range(50):
        f = odd_flock(rng)
        assert unpack(pack(f)) == f
        if all(a < 0 or b < 0 for a, b in [(f[x], f[y]) for x, y in SWAPS]):
            continue
        flocks, pts, r = best_after(f, 2, POINTS)
        assert len(set(flocks.tolist())) == len(flocks)  # deduplicated
        for k in range(0, len(flocks), 7):
            g = unpack(int(flocks[k]))
            assert pts[k] == combination_points(g, POINTS)
            assert apply_swaps(f, r.sequence(k)) == g


def test_reachable_counts_are_those_of_brute_force() -> None:
    rng = random.Random(9)
    f = game_flock(rng)
    level = {tuple(f)}
    for n in range(1, 4):
        level = {tuple(apply_swaps(list(g), (i,))) for g in level for i in range(len(SWAPS))}
        assert len(reachable(f, n).flocks) == len(level)


def test_a_typical_flock_reaches_about_fifteen_thousand_flocks_in_four_swaps() -> None:
    rng = random.Random(3)
    sizes = [len(reachable(game_flock(rng), 4).flocks) for _ in range(5)]
    assert all(8_000 < s < 25_000 for s in sizes), sizes


def test_best_swaps_is_the_fast_search_or_the_reference() -> None:
    # the packed search on the rulebook's geometry, the grid kernel on any other board
    assert search.best_swaps is search.fast_or_grid_best_swaps
    f = game_flock(random.Random(4))
    assert search.best_swaps(f, 2, POINTS) == reference_best_swaps(f, 2, POINTS)
    assert search.best_swaps(f, 2, POINTS) == fastsearch.fast_best_swaps(f, 2, POINTS)
    diag = Board(diagonals=True)
    assert search.best_swaps(f, 2, POINTS, diag) == reference_best_swaps(f, 2, POINTS, diag)
    up = search.best_swaps(f, 3, POINTS, up_to=True)
    assert up == reference_best_swaps(f, 3, POINTS, up_to=True)


def test_score_packed_counts_crossing_lines_once() -> None:
    # a row of three rams crossed by a column of three rams at b2: 5 cards, the centre once
    ram_w, ram_b, bell = 8, 9, 0
    f = [bell, 2, 4, 6, bell, ram_w, ram_b, ram_w, 2, 4, 6, ram_w, bell, 2, 4]
    f[1] = ram_w
    assert find_lines(f) == [1, 5, 6, 7, 11]
    got = fastsearch.score_packed(np.array([pack(f)], dtype=np.uint64), POINTS)
    assert int(got[0]) == combination_points(f, POINTS) == 6
