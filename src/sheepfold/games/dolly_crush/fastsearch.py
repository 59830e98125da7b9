"""The fast exhaustive swap search of Dolly Crush (a hot path; numpy only).

Same question and same answers as :func:`~sheepfold.games.dolly_crush.search.reference_best_swaps`:
the most points one turn of EXACTLY ``n`` adjacent swaps can take, and the lexicographically
first swap sequence (indexes into :data:`~sheepfold.games.dolly_crush.cards.SWAPS`) among those
that take the most.

How it is fast:

* a flock is packed into one ``uint64`` (:mod:`~sheepfold.games.dolly_crush.kernel.layout`: cell
  ``c`` holds ``card + 1``, 0 = empty, in bits ``4c .. 4c+3``); a swap of cells ``a`` and ``b`` is three shifts and three xors, done for every
  flock of a level and every swap at once (a ``(flocks, 22)`` numpy array);
* every level of the breadth-first search is deduplicated (about 15,000 distinct flocks at
  ``n = 4`` instead of 22**4 = 234,256 sequences). A level is kept in *rank order*: flock ``k``
  is the one whose lexicographically first sequence is the ``k``-th smallest. Children are
  generated parent by parent, swap by swap, so the first occurrence of a child in that order is
  reached by its lexicographically first sequence, and the rank order of the next level is the
  order of first occurrences: exactly the reference's tie-break, with no sequence stored;
* lines are found with the kernel's lookup tables (:func:`~sheepfold.games.dolly_crush.kernel.layout.tables`): a row of 5 cells is 20 bits (a table of 2**20 entries gives
  the horizontal hit mask and its points), a column of 3 cells is 12 bits (a table of 4096
  entries says whether it is a line). Cells in both a row line and a column line (rare) are
  corrected on the few flocks that have one.

This is the numpy path (no numba needed): the greedy bots' search and the hard bot's vectorized
evaluation of every end flock. The compiled search is
:mod:`sheepfold.games.dolly_crush.kernel.search` (same answers). The hot path trusts its inputs (a flock of 15 card ids or -1, a points table of 10 ints).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sheepfold.games.dolly_crush.cards import COLS, ROWS
from sheepfold.games.dolly_crush.kernel.layout import (  # noqa: F401 (re-exported)
    SWAP_A,
    SWAP_B,
    col_line_table,
    legal_swaps,
    pack,
    packable,
    point_tables,
    row_hit_table,
    unpack,
)

__all__ = [
    "PackedFlocks",
    "flock_ops",
    "plain_rules",
    "Reachable",
    "fast_best_swaps",
    "pack",
    "unpack",
    "reachable",
    "score_packed",
    "best_after",
]

_U64 = np.uint64
_F = _U64(15)


def _columns(x: np.ndarray) -> list[np.ndarray]:
    """The 12-bit index of each column (top nibble lowest)."""
    out = []
    for c in range(COLS):
        lo = (x >> _U64(4 * c)) & _F
        mid = (x >> _U64(4 * (c + COLS) - 4)) & _U64(0xF0)
        hi = (x >> _U64(4 * (c + 2 * COLS) - 8)) & _U64(0xF00)
        out.append((lo | mid | hi).astype(np.intp))
    return out


def score_packed(x: np.ndarray, points: Sequence[int]) -> np.ndarray:
    """Points of the combination (Dolly Crush ruling 5) of every packed flock in ``x`` (int64
    array)."""
    row_pts, col_pts, nib_pts = point_tables(tuple(points))
    hit = row_hit_table()
    colline = col_line_table()
    rows = [((x >> _U64(20 * r)) & _U64(0xFFFFF)).astype(np.intp) for r in range(ROWS)]
    cols = _columns(x)
    total: np.ndarray = row_pts[rows[0]] + row_pts[rows[1]] + row_pts[rows[2]]
    vmask = np.zeros(x.shape, dtype=np.uint8)
    for c in range(COLS):
        total += col_pts[cols[c]]
        vmask |= colline[cols[c]] << np.uint8(c)
    # cells in both a horizontal and a vertical line were counted twice: take one off
    any_v = np.flatnonzero(vmask)
    if any_v.size:
        for r in range(ROWS):
            ov = hit[rows[r][any_v]] & vmask[any_v]
            sel = np.flatnonzero(ov)
            if sel.size == 0:
                continue
            where = any_v[sel]
            ovs = ov[sel]
            rv = rows[r][where]
            for c in range(COLS):
                bit = (ovs >> c) & 1
                if bit.any():
                    total[where] -= bit.astype(np.int32) * nib_pts[(rv >> (4 * c)) & 15]
    return total


# -- the search ---------------------------------------------------------------------------------
def children(level: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Every (flock, legal swap) child, shape (len(level), len(legal)), in rank order when
    flattened."""
    sa, sb = SWAP_A[legal], SWAP_B[legal]
    x: np.ndarray = level[:, None]
    d = ((x >> sa) ^ (x >> sb)) & _F
    out: np.ndarray = x ^ (d << sa) ^ (d << sb)
    return out


def _dedupe(flat: np.ndarray) -> np.ndarray:
    """Indexes of the first occurrence of each distinct value, in increasing order."""
    perm = np.argsort(flat, kind="stable")
    s = flat[perm]
    keep = np.empty(s.size, dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return np.sort(perm[keep])


@dataclass(frozen=True)
class Reachable:
    """Every distinct flock reachable by exactly ``n`` swaps, in rank order (flock ``k`` is
    reached by the ``k``-th smallest first-sequence), with a way back to its sequence."""

    flocks: np.ndarray  # uint64, packed
    parents: tuple[np.ndarray, ...]  # per level: index of the parent in the previous level
    swaps: tuple[np.ndarray, ...]  # per level: the swap index (into SWAPS) from the parent

    def sequence(self, k: int) -> tuple[int, ...]:
        """The lexicographically first swap sequence reaching flock ``k``."""
        seq = []
        for lvl in range(len(self.parents) - 1, -1, -1):
            seq.append(int(self.swaps[lvl][k]))
            k = int(self.parents[lvl][k])
        return tuple(reversed(seq))

    def flock(self, k: int) -> list[int]:
        return unpack(int(self.flocks[k]))


def reachable(flock: Sequence[int] | int, n: int) -> Reachable:
    """Every distinct flock reachable by exactly ``n`` legal swaps (deduplicated per level).

    ``ValueError`` if no legal swap exists and ``n > 0`` (like the reference)."""
    if n < 0:
        raise ValueError(f"a number of swaps is 0 or more, not {n}")
    x0 = flock if isinstance(flock, int) else pack(flock)
    level = np.array([x0], dtype=np.uint64)
    if n == 0:
        return Reachable(level, (), ())
    legal = legal_swaps(x0)
    if legal.size == 0:
        raise ValueError("no swap can be made: every adjacent pair has an empty cell")
    parents, swaps = [], []
    m = legal.size
    for _ in range(n):
        flat = children(level, legal).ravel()
        first = _dedupe(flat)
        level = flat[first]
        parents.append(first // m)
        swaps.append(legal[first % m])
    return Reachable(level, tuple(parents), tuple(swaps))


def fast_best_swaps(
    flock: Sequence[int], n: int, points: Sequence[int]
) -> tuple[int, tuple[int, ...]]:
    """Drop-in for :func:`~sheepfold.games.dolly_crush.search.reference_best_swaps`: the most
    points with exactly ``n`` swaps, and the lexicographically first sequence that takes them."""
    if n < 0:
        raise ValueError(f"a number of swaps is 0 or more, not {n}")
    x0 = pack(flock)
    if n == 0:
        return int(score_packed(np.array([x0], dtype=np.uint64), points)[0]), ()
    # Levels 1..n-1 are deduplicated; the last level is scored without deduplication (scoring
    # is cheaper than sorting) and its flattened order is already the lexicographic order.
    r = reachable(x0, n - 1)
    legal = legal_swaps(x0)
    if legal.size == 0:
        raise ValueError("no swap can be made: every adjacent pair has an empty cell")
    flat = children(r.flocks, legal).ravel()
    scores = score_packed(flat, points)
    k = int(np.argmax(scores))
    m = legal.size
    seq = r.sequence(k // m) + (int(legal[k % m]),)
    return int(scores[k]), seq


def best_after(
    flock: Sequence[int] | int, n: int, points: Sequence[int]
) -> tuple[np.ndarray, np.ndarray, Reachable]:
    """All distinct flocks after exactly ``n`` swaps with the points each would take:
    ``(packed flocks, points, Reachable)`` in rank order."""
    r = reachable(flock, n)
    return r.flocks, score_packed(r.flocks, points), r


class PackedFlocks:
    """The flock operations of the lookahead bots on the rulebook's geometry (flocks packed in
    uint64s); :class:`~sheepfold.games.dolly_crush.kernel.grid.GridFlocks` is the same on any
    board. :func:`flock_ops` picks one."""

    def __init__(self, points: Sequence[int]) -> None:
        self.points = tuple(points)

    def pack(self, flock: Sequence[int]) -> int:
        return pack(flock)

    def unpack(self, key: object) -> list[int]:
        return unpack(int(key))  # type: ignore[call-overload]

    def stack(self, keys: Sequence[int]) -> np.ndarray:
        return np.array(keys, dtype=np.uint64)

    def after(self, flock: Sequence[int], n: int) -> tuple[np.ndarray, np.ndarray, Reachable]:
        return best_after(flock, n, self.points)

    def reply(self, flocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        legal = np.arange(len(SWAP_A), dtype=np.intp)
        ch = children(flocks, legal)
        sc = score_packed(ch.ravel(), self.points).reshape(ch.shape)
        best = sc.argmax(axis=1)
        rows = np.arange(flocks.size)
        return sc[rows, best], ch[rows, best]

    def best_n(self, key: object, n: int) -> float:
        x = int(key)  # type: ignore[call-overload]
        if n == 0:
            return float(score_packed(np.array([x], dtype=np.uint64), self.points)[0])
        if legal_swaps(x).size == 0:
            return 0.0
        return float(fast_best_swaps(unpack(x), n, self.points)[0])


def plain_rules(game: Any) -> bool:
    """Whether ``game`` plays the packed fast path: the rulebook's geometry (at most 7 types),
    exactly the card's swaps, no cascades, no points target, no rounds."""
    r = game.rules
    return (
        packable(game.board)
        and r.swaps == "exact"
        and not r.cascades
        and r.end_points is None
        and r.rounds is None
    )


def flock_ops(game: Any) -> Any:
    """The flock operations for ``game``'s rules: packed on plain rules, the grid kernel else."""
    if plain_rules(game):
        return PackedFlocks(game.points)
    from sheepfold.games.dolly_crush.kernel.grid import GridFlocks

    return GridFlocks(game.board, game.points, game.stop is not None)
