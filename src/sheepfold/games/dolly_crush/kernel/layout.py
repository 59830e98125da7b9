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

from sheepfold.games.dolly_crush.cards import COLS, NUM_CELLS, ROWS, SWAPS, Board, Line

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
#: the ``geo`` every kernel of :mod:`.grid` takes (few entries: the hot loops pass it on),
#: one part of the rule language each: 0 the combination windows int64[W, 2 + longest], a row
#: (length, colour shift, cells... -1 padded; shift 0: one colour too, 1: one type); 1 the bonus
#: windows int64[B, 3 + longest] (length, colour shift, times, cells...); 2 and 3 the swaps'
#: cells int64[S] (the allowed adjacency); 4 the points of each card id int64[kinds]; 5 the
#: columns' cells for gravity int64[columns, rows] (-1 padded; no row when refilled in place)
Geometry = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _padded(rows: list[tuple[int, ...]], width: int) -> np.ndarray:
    out = np.full((len(rows), max(1, width)), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def windows(board: Board) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every window of the board's combinations, with its colour shift: a line part's every run
    of ``length`` consecutive cells along its directions (the union of the windows whose cards
    are one type, and one colour, is the union of the maximal runs of ``length`` or more:
    Dolly Crush ruling 5), a pattern part's every placement. A flock's combination is the union of
    the windows whose cards all match."""
    wins: list[tuple[int, ...]] = []
    shifts: list[int] = []
    for part, segs, places in zip(board.parts, board.segments, board.placements, strict=True):
        shift = 0 if part.colour else 1
        if isinstance(part, Line):
            L = part.length
            found = [s[i : i + L] for s in segs for i in range(len(s) - L + 1)]
        else:
            found = list(places)
        wins += found
        shifts += [shift] * len(found)
    return wins, shifts


def bonus_windows(board: Board) -> tuple[list[tuple[int, ...]], list[tuple[int, int, int]]]:
    """Every window of a bonus by length: for each bonus and each line part, the runs of
    ``max(bonus length, line length)`` cells along the part's directions, with (length, colour
    shift, times): a taken card in a matching one scores ``times`` its points (the largest)."""
    wins: list[tuple[int, ...]] = []
    info: list[tuple[int, int, int]] = []
    for bonus in board.bonuses:
        for part, segs in board.line_parts:
            L = max(bonus.length, part.length)
            found = [s[i : i + L] for s in segs for i in range(len(s) - L + 1)]
            wins += found
            info += [(L, 0 if part.colour else 1, bonus.times)] * len(found)
    return wins, info


@lru_cache(maxsize=64)
def geometry(board: Board, points: tuple[int, ...]) -> Geometry:
    """The ``geo`` of the :mod:`.grid` kernels for ``board`` and card ``points`` (by card id)."""
    wins, shifts = windows(board)
    bwins, binfo = bonus_windows(board)
    width = max([len(w) for w in wins + bwins], default=1)
    cols = list(board.columns) if board.gravity else []
    geo = (
        _padded([(len(w), s, *w) for w, s in zip(wins, shifts, strict=True)], 2 + width),
        _padded([(*i, *w) for w, i in zip(bwins, binfo, strict=True)], 3 + width),
        np.array([a for a, _ in board.swaps], dtype=np.int64),
        np.array([b for _, b in board.swaps], dtype=np.int64),
        np.array(points, dtype=np.int64),
        _padded(cols, board.rows),
    )
    for a in geo:
        a.flags.writeable = False
    return geo


def packable(board: Board) -> bool:
    """Whether the packed uint64 flock and its row tables play ``board``: the rulebook's
    geometry (3 x 5 without holes, orthogonal swaps, lines of 3 along rows and columns, colour
    ignored, no bonus, refilled in place) with at most 7 types (a nibble holds ``card + 1``).
    Every other board plays on :mod:`.grid`; :func:`packed_refusal` says why, in words."""
    return board.rulebook_geometry and board.types <= 7
