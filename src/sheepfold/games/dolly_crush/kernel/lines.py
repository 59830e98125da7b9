"""The combination of a packed flock (Dolly Crush ruling 5), compiled: its cells and its points.

Every compiled kernel of the package takes the flock as a ``uint64`` (:mod:`.layout`) and the
rule set's tables as ``tabs`` (:func:`.layout.tables`).
"""

from __future__ import annotations

from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from sheepfold.games.dolly_crush.kernel.layout import SWAP_A, SWAP_B  # noqa: E402

#: the decorator of every kernel of the package (cached on disk, see sheepfold.numba_cache)
jit: Any = njit(cache=True, nogil=True)

_SA = SWAP_A
_SB = SWAP_B


@jit
def swap(x, a, b):  # type: ignore[no-untyped-def]
    """The packed flock ``x`` with the nibbles at bit offsets ``a`` and ``b`` exchanged."""
    d = ((x >> a) ^ (x >> b)) & np.uint64(15)
    return x ^ (d << a) ^ (d << b)


@jit
def apply_swap(x, i):  # type: ignore[no-untyped-def]
    """The packed flock ``x`` after swap ``i`` (an index into SWAPS)."""
    return swap(x, _SA[i], _SB[i])


@jit
def is_legal(x, i):  # type: ignore[no-untyped-def]
    """Whether swap ``i`` moves two cards (an empty cell never moves)."""
    f = np.uint64(15)
    return ((x >> _SA[i]) & f) != 0 and ((x >> _SB[i]) & f) != 0


@jit
def column(x, c):  # type: ignore[no-untyped-def]
    """The 12-bit index of column ``c`` of the packed flock ``x`` (top nibble lowest)."""
    lo = (x >> np.uint64(4 * c)) & np.uint64(15)
    mid = (x >> np.uint64(4 * (c + 5) - 4)) & np.uint64(0xF0)
    hi = (x >> np.uint64(4 * (c + 10) - 8)) & np.uint64(0xF00)
    return np.int64(lo | mid | hi)


@jit
def points(x, tabs):  # type: ignore[no-untyped-def]
    """The points of the combination of ``x``: a card in two lines counts once."""
    row_pts, col_pts, nib_pts, hit, colline = tabs
    m20 = np.uint64(0xFFFFF)
    r0 = np.int64((x >> np.uint64(0)) & m20)
    r1 = np.int64((x >> np.uint64(20)) & m20)
    r2 = np.int64((x >> np.uint64(40)) & m20)
    total = np.int64(row_pts[r0]) + np.int64(row_pts[r1]) + np.int64(row_pts[r2])
    vmask = 0
    for c in range(5):
        ci = column(x, c)
        total += col_pts[ci]
        if colline[ci]:
            vmask |= 1 << c
    if vmask:  # cells in a row line and a column line were counted twice: take one off
        for r in range(3):
            rv = (r0, r1, r2)[r]
            ov = np.int64(hit[rv]) & vmask
            if ov:
                for c in range(5):
                    if (ov >> c) & 1:
                        total -= nib_pts[(rv >> (4 * c)) & 15]
    return total


@jit
def taken(x, tabs):  # type: ignore[no-untyped-def]
    """The 15-bit mask of the cells of the combination of ``x`` (bit ``c``: cell ``c``)."""
    hit = tabs[3]
    colline = tabs[4]
    mask = np.int64(0)
    for r in range(3):
        mask |= np.int64(hit[np.int64((x >> np.uint64(20 * r)) & np.uint64(0xFFFFF))]) << (5 * r)
    for c in range(5):
        if colline[column(x, c)]:
            mask |= (1 << c) | (1 << (c + 5)) | (1 << (c + 10))
    return mask


@jit
def remove(x, mask):  # type: ignore[no-untyped-def]
    """``x`` with the cells of ``mask`` emptied."""
    f = np.uint64(15)
    for c in range(15):
        if (mask >> c) & 1:
            x &= ~(f << np.uint64(4 * c))
    return x
