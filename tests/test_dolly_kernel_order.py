"""The searches' orders (kernel/order.py) give what numba's sorts gave: the same indexes, ties
broken the same way, over many inputs; and the searches built on them still agree with numpy's.

The old kernels' lines are written here in numpy (``np.argsort(kind="stable")`` is the
``kind="mergesort"`` they called: a stable order is unique)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from sheepfold.games.dolly_crush.cards import Board  # noqa: E402
from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps  # noqa: E402
from sheepfold.games.dolly_crush.kernel import grid, order, search  # noqa: E402
from sheepfold.games.dolly_crush.kernel.layout import geometry  # noqa: E402

SIZES = (0, 1, 2, 15, 16, 17, 31, 33, 64, 100, 257, 1000, 4000)


def _old_first_distinct(flat: np.ndarray) -> np.ndarray:
    """search_swaps' old lines: a stable argsort, the first of each run of equals, sorted."""
    perm = np.argsort(flat, kind="stable")
    keep = [perm[i] for i in range(flat.size) if i == 0 or flat[perm[i]] != flat[perm[i - 1]]]
    return np.sort(np.array(keep, dtype=np.int64))


def _inputs(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Values with many ties, few ties, extremes (0 and the top of uint64)."""
    top = np.iinfo(np.uint64).max
    return [
        rng.integers(0, 3, n).astype(np.uint64),
        rng.integers(0, max(1, n // 4), n).astype(np.uint64),
        rng.integers(0, top, n, dtype=np.uint64, endpoint=True),
        np.where(rng.random(n) < 0.5, np.uint64(0), np.uint64(top)).astype(np.uint64),
    ]


@pytest.mark.parametrize("n", SIZES)
def test_first_distinct_is_the_old_stable_sort_and_run_scan(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(5):
        for keys in _inputs(rng, n):
            assert order.first_distinct(keys).tolist() == _old_first_distinct(keys).tolist()


@pytest.mark.parametrize("n", SIZES)
def test_first_distinct_rows_keeps_the_first_of_each_flock_even_when_hashes_collide(
    n: int,
) -> None:
    rng = np.random.default_rng(100 + n)
    for cards in (2, 3, 10):
        rows = rng.integers(-1, cards, (n, 6)).astype(np.int8)
        _, first = np.unique(rows, axis=0, return_index=True) if n else (None, np.zeros(0))
        want = np.sort(first).tolist()
        h = grid._hash_rows(rows)
        assert order.first_distinct_rows(rows, h).tolist() == want
        # every row of one hash (or a few): told apart cell by cell
        for bad in (np.zeros(n, dtype=np.uint64), (h % np.uint64(3)).astype(np.uint64)):
            assert order.first_distinct_rows(rows, bad).tolist() == want
        assert grid.dedupe(rows).tolist() == want


@pytest.mark.parametrize("n", SIZES)
def test_argsort_stable_is_numpys_stable_argsort(n: int) -> None:
    rng = np.random.default_rng(200 + n)
    for span in (1, 3, 40, 1 << 40):
        keys = rng.integers(-span, span, n).astype(np.int64)
        assert order.argsort_stable(keys).tolist() == np.argsort(keys, kind="stable").tolist()
    ordered = np.arange(n, dtype=np.int64)
    assert order.argsort_stable(ordered).tolist() == ordered.tolist()
    assert order.argsort_stable(ordered[::-1].copy()).tolist() == ordered[::-1].tolist()


def test_sort_distinct_is_numpys_sort() -> None:
    rng = np.random.default_rng(7)
    for n in SIZES:
        bound = 2 * n + 1
        idx = rng.permutation(bound)[:n].astype(np.int64)
        assert order.sort_distinct(idx, bound).tolist() == np.sort(idx).tolist()


def test_the_capped_level_keeps_the_old_flocks() -> None:
    """_capped's old line: np.sort(first[np.argsort(-points, kind="mergesort")[:cap]])."""
    rng = np.random.default_rng(11)
    board = Board(4, 4, diagonals=True)
    geo = geometry(board, (1, 2) * 5)
    hit = np.zeros(board.cells, dtype=np.bool_)
    for _ in range(40):
        flat = rng.integers(0, 10, (300, board.cells)).astype(np.int8)
        first = grid.dedupe(flat)
        v = np.array([-grid.points(flat[i], geo, hit) for i in first], dtype=np.int64)
        for cap in (1, 7, 50, 299):
            want = (
                first if first.size <= cap else np.sort(first[np.argsort(v, kind="stable")[:cap]])
            )
            assert grid._capped(flat, first, cap, geo, hit).tolist() == want.tolist()


def test_the_searches_answer_as_before_over_many_flocks() -> None:
    """The packed search against numpy's (the same rank-order dedupe, fastsearch), and the grid
    search on the rulebook's board against the packed one: points and the first best swaps."""
    rng = np.random.default_rng(5)
    pts = (1, 2) * 5
    board = Board()
    for _ in range(150):
        flock = [int(c) for c in rng.integers(0, 10, 15)]
        for n in (1, 2, 3):
            packed = search.best_swaps(flock, n, pts)
            assert packed == fast_best_swaps(flock, n, pts)
            assert grid.best_swaps(flock, n, pts, board) == packed
