"""The exhaustive swap search of Dolly Crush, compiled (Dolly Crush ruling 7).

Same question and same answers as
:func:`~sheepfold.games.dolly_crush.search.reference_best_swaps`: the most points one turn of
EXACTLY ``n`` legal swaps can take, and the lexicographically first swap sequence (indexes into
:data:`~sheepfold.games.dolly_crush.cards.SWAPS`) among those that take the most. The algorithm
is :mod:`~sheepfold.games.dolly_crush.fastsearch`'s: levels ``1..n-1`` deduplicated and kept in
rank order, the last level scored without deduplication.

* :func:`best_one` ``(x, tabs) -> (points, swap)``: one swap, the packed flock as a plain int:
  the call from Python costs about a microsecond (no array made per call);
* :func:`search_swaps` ``(x, n, seq, tabs) -> points``: ``n`` swaps, the sequence written to
  ``seq`` (an int64 array of at least ``n``); compiled callers use it directly;
* :func:`best_swaps` ``(flock, n, points) -> (points, swaps)``: the drop-in for
  ``search.best_swaps`` (a flock as 15 card ids).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sheepfold.games.dolly_crush.kernel.layout import SWAP_A, SWAP_B, pack, tables
from sheepfold.games.dolly_crush.kernel.lines import is_legal, jit, points, swap
from sheepfold.games.dolly_crush.kernel.order import first_distinct

_SA = SWAP_A
_SB = SWAP_B


@jit
def legal(x):  # type: ignore[no-untyped-def]
    """The indexes of the legal swaps of ``x`` (int64 array)."""
    out = np.empty(22, dtype=np.int64)
    m = 0
    for i in range(22):
        if is_legal(x, i):
            out[m] = i
            m += 1
    return out[:m]


@jit
def best_one(x, tabs):  # type: ignore[no-untyped-def]
    """(most points one legal swap takes from ``x``, the first swap that takes them); (-1, -1)
    if no swap is legal. ``x``: the packed flock (an int or a uint64)."""
    y0 = np.uint64(x)
    best = -1
    bj = -1
    for j in range(22):
        if is_legal(y0, j):
            v = points(swap(y0, _SA[j], _SB[j]), tabs)
            if v > best:
                best = v
                bj = j
    return best, bj


@jit
def search_swaps(x0, n, seq, tabs):  # type: ignore[no-untyped-def]
    """The most points with exactly ``n >= 1`` swaps from ``x0``; the first best sequence is
    written to ``seq[:n]``. -1 if no swap is legal."""
    leg = legal(x0)
    m = leg.shape[0]
    if m == 0:
        return -1
    # levels 1..n-1, deduplicated, stored flat with their parents and swaps
    size = 1
    level = np.empty(1, dtype=np.uint64)
    level[0] = x0
    par_all = np.empty(0, dtype=np.int64)
    swp_all = np.empty(0, dtype=np.int64)
    starts = np.zeros(n + 1, dtype=np.int64)
    for lvl in range(n - 1):
        flat = np.empty(size * m, dtype=np.uint64)
        for k in range(size):
            x = level[k]
            for j in range(m):
                flat[k * m + j] = swap(x, _SA[leg[j]], _SB[leg[j]])
        first = first_distinct(flat)
        c = first.shape[0]
        level = flat[first]
        size = c
        starts[lvl + 1] = par_all.shape[0]
        par_all = np.concatenate((par_all, first // m))
        swp_all = np.concatenate((swp_all, leg[first % m]))
    best = -1
    bk = -1
    bj = -1
    for k in range(size):
        x = level[k]
        for j in range(m):
            v = points(swap(x, _SA[leg[j]], _SB[leg[j]]), tabs)
            if v > best:
                best = v
                bk = k
                bj = j
    seq[n - 1] = leg[bj]
    k = bk
    for lvl in range(n - 2, -1, -1):
        base = starts[lvl + 1]
        seq[lvl] = swp_all[base + k]
        k = par_all[base + k]
    return best


def best_swaps(flock: Sequence[int], n: int, pts: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Drop-in for :func:`~sheepfold.games.dolly_crush.search.reference_best_swaps` (the most
    points with exactly ``n`` swaps, the lexicographically first sequence that takes them)."""
    if n < 0:
        raise ValueError(f"a number of swaps is 0 or more, not {n}")
    tabs = tables(tuple(pts))
    x0 = np.uint64(pack(flock))
    if n == 0:
        return int(points(x0, tabs)), ()
    seq = np.zeros(n, dtype=np.int64)
    best = search_swaps(x0, n, seq, tabs)
    if best < 0:
        raise ValueError("no swap can be made: every adjacent pair has an empty cell")
    return int(best), tuple(int(s) for s in seq)
