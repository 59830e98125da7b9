"""The packed flock and its lookup tables (plain Python and numpy: no numba needed).

A flock is packed into one 64-bit int: cell ``c`` (0..14, ``a1``..``c5``) holds ``card + 1`` in
bits ``4c .. 4c+3`` (0 = empty), card ids as in :mod:`~sheepfold.games.dolly_crush.cards`
(``type * 2 + colour``). A swap of cells ``a`` and ``b`` exchanges the nibbles at bit offsets
``SWAP_A[i] = 4a`` and ``SWAP_B[i] = 4b`` (``i`` indexes :data:`~sheepfold.games.dolly_crush.cards.SWAPS`).

Lines are found with lookup tables: a row of 5 cells is 20 bits (a table of 2**20 entries gives
its horizontal hit mask and the points of those cells), a column of 3 cells is 12 bits (a table
of 4096 entries says whether it is a line, and its points). :func:`tables` gives the tuple every
compiled kernel of :mod:`sheepfold.games.dolly_crush.kernel` takes as ``tabs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from sheepfold.games.dolly_crush.cards import COLS, NUM_CELLS, ROWS, SWAPS, Board

__all__ = [
    "Geometry",
    "geometry",
    "packable",
    "windows",
    "SWAP_A",
    "SWAP_B",
    "Tables",
    "legal_swaps",
    "pack",
    "point_tables",
    "tables",
    "unpack",
]

#: bit offset of the first / second cell of each swap of SWAPS (uint64, for shifts)
SWAP_A = np.array([4 * a for a, _ in SWAPS], dtype=np.uint64)
SWAP_B = np.array([4 * b for _, b in SWAPS], dtype=np.uint64)
SWAP_A.flags.writeable = False
SWAP_B.flags.writeable = False

#: (row points int16[2**20], column points int32[4096], nibble points int32[16],
#: row hit masks uint8[2**20], column lines uint8[4096])
Tables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def pack(flock: Sequence[int]) -> int:
    """A flock (15 card ids, -1 empty) as one int: nibble ``c`` = ``card + 1``."""
    x = 0
    for c in range(NUM_CELLS):
        x |= (flock[c] + 1) << (4 * c)
    return x


def unpack(x: int) -> list[int]:
    """The flock packed in ``x`` (inverse of :func:`pack`)."""
    x = int(x)
    return [((x >> (4 * c)) & 15) - 1 for c in range(NUM_CELLS)]


def legal_swaps(x: int) -> np.ndarray:
    """Indexes of the swaps whose two cells both hold a card (empty cells never move)."""
    return np.array(
        [i for i, (a, b) in enumerate(SWAPS) if (x >> (4 * a)) & 15 and (x >> (4 * b)) & 15],
        dtype=np.intp,
    )


@lru_cache(maxsize=1)
def row_hit_table() -> np.ndarray:
    """For each 20-bit row (5 nibbles of card+1): the 5-bit mask of cells in a horizontal line."""
    idx = np.arange(1 << 20, dtype=np.uint32)
    nib = [((idx >> (4 * c)) & 15).astype(np.int8) for c in range(COLS)]
    # type + 1 (0 for empty; values above 10 never occur but stay harmless)
    typ = [(v + 1) >> 1 for v in nib]
    mask = np.zeros(1 << 20, dtype=np.uint8)
    for s in range(COLS - 2):
        eq = (typ[s] != 0) & (typ[s] == typ[s + 1]) & (typ[s + 1] == typ[s + 2])
        mask |= eq.astype(np.uint8) * np.uint8(7 << s)
    return mask


@lru_cache(maxsize=1)
def col_line_table() -> np.ndarray:
    """For each 12-bit column (3 nibbles, top first): 1 if the three cards make a line."""
    idx = np.arange(1 << 12, dtype=np.uint32)
    t = [(((idx >> (4 * r)) & 15).astype(np.int8) + 1) >> 1 for r in range(ROWS)]
    return np.asarray((t[0] != 0) & (t[0] == t[1]) & (t[1] == t[2]), dtype=np.uint8)


@lru_cache(maxsize=64)
def point_tables(points: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points of the horizontal-line cells of a 20-bit row, points of a 12-bit column line if it
    is one, points of a nibble), int32."""
    nib_pts = np.zeros(16, dtype=np.int32)
    nib_pts[1 : len(points) + 1] = points
    hit = row_hit_table()
    idx = np.arange(1 << 20, dtype=np.uint32)
    row_pts = np.zeros(1 << 20, dtype=np.int32)
    for c in range(COLS):
        row_pts += ((hit >> c) & 1).astype(np.int32) * nib_pts[(idx >> (4 * c)) & 15]
    cidx = np.arange(1 << 12, dtype=np.uint32)
    col_pts = sum(nib_pts[(cidx >> (4 * r)) & 15] for r in range(ROWS)) * col_line_table()
    return row_pts, col_pts.astype(np.int32), nib_pts


@lru_cache(maxsize=16)
def tables(points: tuple[int, ...]) -> Tables:
    """The ``tabs`` of the compiled kernels for these card points (10 ints, by card id); small
    dtypes, so the row tables (2**20 entries) stay in the CPU caches."""
    row_pts, col_pts, nib_pts = point_tables(tuple(points))
    return (
        row_pts.astype(np.int16),
        col_pts.astype(np.int32),
        nib_pts.astype(np.int32),
        row_hit_table().astype(np.uint8),
        col_line_table().astype(np.uint8),
    )


# -- any board: the flock as an int8 array ------------------------------------------------------
#: (windows int64[W, min_line], colour shift int64, swap cells int64[S] and int64[S], points
#: int64[kinds]): the ``geo`` every kernel of :mod:`.grid` takes
Geometry = tuple[np.ndarray, np.int64, np.ndarray, np.ndarray, np.ndarray]


def windows(board: Board) -> np.ndarray:
    """Every run of ``min_line`` consecutive cells along a row, a column or (with diagonal lines)
    a diagonal of ``board``: a flock's combination is the union of the windows whose cards are
    all of one type (and one colour, when lines match in colour). The union of the maximal runs
    of ``min_line`` or more (Dolly Crush ruling 5) is exactly that union."""
    L = board.min_line
    out = [seg[i : i + L] for seg in board.directions for i in range(len(seg) - L + 1)]
    return np.array(out, dtype=np.int64).reshape(len(out), L)


@lru_cache(maxsize=64)
def geometry(board: Board, points: tuple[int, ...]) -> Geometry:
    """The ``geo`` of the :mod:`.grid` kernels for ``board`` and card ``points`` (by card id)."""
    geo = (
        windows(board),
        np.int64(0 if board.match_colour else 1),
        np.array([a for a, _ in board.swaps], dtype=np.int64),
        np.array([b for _, b in board.swaps], dtype=np.int64),
        np.array(points, dtype=np.int64),
    )
    for a in geo:
        if isinstance(a, np.ndarray):
            a.flags.writeable = False
    return geo


def packable(board: Board) -> bool:
    """Whether the packed uint64 flock and its row tables play ``board``: the rulebook's
    geometry (3 x 5, lines of 3 along rows and columns, colour ignored) with at most 7 types (a
    nibble holds ``card + 1``)."""
    return board.rulebook_geometry and board.types <= 7
