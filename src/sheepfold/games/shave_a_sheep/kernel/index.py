"""The position index of :mod:`.layout`, compiled: a turn-start state vector to its index and
back, and a position turned round the table (the solver's symmetry between seats)."""

from __future__ import annotations

from sheepfold.games.shave_a_sheep.kernel.layout import (
    MIDDLE,
    P_N,
    P_WOOL,
    PILE,
    REROLLED,
    SHEEP,
    TURN,
    WOLF,
    WOLF1,
)
from sheepfold.games.shave_a_sheep.kernel.step import inline, jit


@inline
def encode(st, prm, ix):  # type: ignore[no-untyped-def]
    """The index of the turn-start position ``st`` (in a seat-0 index, seat 0 must roll); a
    roll after rerolls (house rule) has its own. The wolf code is ``w0 + (n + 1) * w1`` (the
    second piece's code 0 unless the program has two)."""
    pw_s, pw_p = ix.pw_s, ix.pw_p
    n = prm[P_N]
    nt, nw, nr = ix.shape[0], ix.shape[1], ix.shape[2]
    B = 0
    cs = 0
    cp = 0
    for i in range(n):
        B += st[PILE + i]
        cs += st[SHEEP + i] * pw_s[i]
        cp += st[PILE + i] * pw_p[i]
    ns = ix.cnt_le[prm[P_WOOL] - B - 1]
    code = (st[WOLF] + (n + 1) * st[WOLF1]) * nr + st[REROLLED]
    return ix.off[B] + ((ix.pile_rank[cp] * ns + ix.sv_rank[cs]) * nt + st[TURN]) * nw + code


@jit
def layer_of(x, ix):  # type: ignore[no-untyped-def]
    """The layer (wool banked) of index ``x``."""
    off = ix.off
    lo = 0
    hi = off.shape[0] - 1
    while hi - lo > 1:  # off[lo] <= x < off[hi]
        mid = (lo + hi) // 2
        if off[mid] <= x:
            lo = mid
        else:
            hi = mid
    return lo


@inline
def decode(x, B, prm, ix, st):  # type: ignore[no-untyped-def]
    """Write the turn-start position of index ``x`` of layer ``B`` into ``st`` (turns 0)."""
    off, cnt_le, sv_arr, pv_all, block_start = ix.off, ix.cnt_le, ix.sv_arr, ix.pv, ix.block_start
    n = prm[P_N]
    nt, nw, nr = ix.shape[0], ix.shape[1], ix.shape[2]
    ns = cnt_le[prm[P_WOOL] - B - 1]
    rest = x - off[B]
    st[:] = 0
    wc = rest % nw // nr
    st[WOLF] = wc % (n + 1)
    st[WOLF1] = wc // (n + 1)
    st[REROLLED] = rest % nr
    rest //= nw
    st[TURN] = rest % nt
    rest //= nt
    sr = rest % ns
    pr = block_start[B] + rest // ns
    m = prm[P_WOOL]
    for i in range(n):
        st[SHEEP + i] = sv_arr[sr, i]
        st[PILE + i] = pv_all[pr, i]
        m -= sv_arr[sr, i] + pv_all[pr, i]
    st[MIDDLE] = m


@inline
def turn_round(st, r, prm):  # type: ignore[no-untyped-def]
    """Turn the table ``r`` seats: seat ``i + r`` becomes seat ``i`` (the wolves and the turn
    too)."""
    n = prm[P_N]
    for _ in range(r):
        a = st[SHEEP]
        b = st[PILE]
        for i in range(n - 1):
            st[SHEEP + i] = st[SHEEP + i + 1]
            st[PILE + i] = st[PILE + i + 1]
        st[SHEEP + n - 1] = a
        st[PILE + n - 1] = b
    st[TURN] = (st[TURN] - r + n) % n
    if st[WOLF] > 0:
        st[WOLF] = (st[WOLF] - 1 - r + n) % n + 1
    if st[WOLF1] > 0:
        st[WOLF1] = (st[WOLF1] - 1 - r + n) % n + 1
