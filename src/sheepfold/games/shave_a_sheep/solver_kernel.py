"""The solver's hot loops (numba; plain Python when numba is missing: correct, only slow).

Everything here works on one *canonical* position: the start of a turn, after the auto-shear,
before the roll, with wool left in the middle. It is written as plain integers and arrays:

    t        the seat to roll          s[i]   wool on seat i's sheep    p[i]  seat i's safe pile
    wc       the wolf: 0 = in the middle, 1 + k = next to seat k (My friend Mr. Wolf only)
    m        the middle (= wool - sum s - sum p, always >= 1)

A position's index (see :func:`encode`) groups positions by their *layer* B = sum of the piles
and, inside a layer, by *block* (the pile vector itself). Piles never go down, and nothing a turn
does can lower B, so a turn leads to the same block or to a higher layer: the solver fills the
layers from the top down, and iterates each block on its own until it stops changing.

Values are ``V[index, j]``: with ``nv == 1`` the win share of one seat (``focal``), with
``nv == n`` every seat's share. Who decides a decision node is a seat, and ``kinds[seat]`` says how
that seat chooses: MAX or MIN (of column 0), RANDOM (uniform over the legal actions), TABLE (the
action stored in ``tab``) or GREEDY (:func:`greedy_choose`, a mirror of ``games/shave_a_sheep/policy.py``).

``tab[index, face, slot]``: slot 0 = the roller's action on a normal face; on a Howling Wolf race,
slot 1 + g = the target seat chosen by grabber g, slot 1 + n + g*n + k = the roller's GROW or PASS
after grabber g took a piece of seat k's sheep.
"""

from __future__ import annotations

import os
from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

try:  # pragma: no cover - the import decides which branch runs
    if os.environ.get("SHEEPFOLD_NO_NUMBA"):
        raise ImportError
    ensure_numba_cache_dir()  # before numba reads it (or tells numba if imported earlier)
    from numba import njit as _njit
    from numba import prange

    HAVE_NUMBA = True

    def njit(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cache", True)
        kwargs.setdefault("nogil", True)
        return _njit(*args, **kwargs)

except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

    prange = range  # type: ignore[misc]

import numpy as np

# seat kinds
MAX, MIN, RANDOM, TABLE, GREEDY = 0, 1, 2, 3, 4
# action ids (the engine's)
GROW, DOUBLE, SHEAR, SWAP0, WOLF0, RAID, PASS = 0, 1, 2, 3, 7, 11, 12
# face masks
M_GROW, M_DOUBLE, M_SHEAR, M_SWAP, M_WOLF = 1, 2, 4, 8, 16

# cfg: the integer parameters, one array
C_N, C_W, C_CAP, C_CC, C_MR, C_NW, C_F, C_D, C_NV, C_FOCAL, C_ROT, C_RECMAX = range(12)
CFG_LEN = 12


@njit(inline="always")
def encode(t, s, p, wc, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off):  # type: ignore[no-untyped-def]
    n = cfg[C_N]
    B = 0
    cs = 0
    cp = 0
    for i in range(n):
        B += p[i]
        cs += s[i] * pw_s[i]
        cp += p[i] * pw_p[i]
    ns = cnt_le[cfg[C_W] - B - 1]
    return off[B] + ((pile_rank[cp] * ns + sv_rank[cs]) * n + t) * cfg[C_NW] + wc


@njit
def advance(t, s2, p2, m2, cfg):  # type: ignore[no-untyped-def]
    """Finish a turn whose action left (s2, p2, m2): the final shear when the middle is empty
    (in seat order; cutting costs' payment does not restart the game), else the next seat's
    auto-shear. s2 and p2 are changed in place. Returns (ended, next seat, middle)."""
    n = cfg[C_N]
    cap = cfg[C_CAP]
    cc = cfg[C_CC]
    if m2 == 0:
        for i in range(n):
            w = s2[i]
            if cc and w > 0:
                w -= 1
            p2[i] += w
            s2[i] = 0
        return True, t, 0
    t2 = t + 1
    if t2 == n:
        t2 = 0
    if s2[t2] >= cap:  # auto-shear
        w = s2[t2]
        if cc and w > 0:
            w -= 1
            m2 += 1
        p2[t2] += w
        s2[t2] = 0
    return False, t2, m2


@njit
def close_turn(t, s2, p2, m2, played, max_turns, cfg):  # type: ignore[no-untyped-def]
    """:func:`advance` for turn number ``played`` (1, 2, ...) of a game limited to ``max_turns``
    turns (docs/engine.md, "Truncated games"): a turn that reaches the limit and leaves wool in
    the middle ends the game truncated. No next turn begins, so there is no auto-shear: returns
    (False, t, m2) with s2 and p2 as the turn left them. The value iteration has no turn limit
    and calls :func:`advance` directly."""
    if m2 > 0 and played >= max_turns:
        return False, t, m2
    return advance(t, s2, p2, m2, cfg)


@njit
def end_turn(  # type: ignore[no-untyped-def]
    t, s2, p2, wc2, m2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off, V, focal, nv, out
):
    """Finish a turn (see advance) and write the successor's value vector into out. Returns the
    successor's index, or -1 when the game ended (then out holds the win shares)."""
    n = cfg[C_N]
    ended, t2, m2 = advance(t, s2, p2, m2, cfg)
    if ended:
        best = -1
        for i in range(n):
            if p2[i] > best:
                best = p2[i]
        k = 0
        for i in range(n):
            if p2[i] == best:
                k += 1
        if nv == 1:
            out[0] = 1.0 / k if p2[focal] == best else 0.0
        else:
            for i in range(nv):
                out[i] = 1.0 / k if p2[i] == best else 0.0
        return -1
    if cfg[C_ROT]:
        # turn the table so that the next roller sits at seat 0; in that frame our focal seat
        # is focal - t2 (the values of turn-0 positions hold every seat's column)
        for _ in range(t2):
            a0 = s2[0]
            b0 = p2[0]
            for i in range(n - 1):
                s2[i] = s2[i + 1]
                p2[i] = p2[i + 1]
            s2[n - 1] = a0
            p2[n - 1] = b0
        if wc2 > 0:
            wc2 = (wc2 - 1 - t2 + n) % n + 1
        idx = encode(0, s2, p2, wc2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off)
        out[0] = V[idx, (focal - t2 + n) % n]
        return idx
    idx = encode(t2, s2, p2, wc2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off)
    for j in range(nv):
        out[j] = V[idx, j]
    return idx


@njit
def apply_choose(a, t, s, p, wc, m, cfg, s2, p2):  # type: ignore[no-untyped-def]
    """Carry out a normal-face action on copies; return (wc2, m2)."""
    n = cfg[C_N]
    cap = cfg[C_CAP]
    for i in range(n):
        s2[i] = s[i]
        p2[i] = p[i]
    wc2 = wc
    m2 = m
    if a == GROW or a == DOUBLE:
        put = 1 if a == GROW else 2
        if cap - s2[t] < put:
            put = cap - s2[t]
        if m2 < put:
            put = m2
        s2[t] += put
        m2 -= put
    elif a == SHEAR:
        w = s2[t]
        if cfg[C_CC] and w > 0:
            w -= 1
            m2 += 1
        p2[t] += w
        s2[t] = 0
    elif a < WOLF0:
        k = a - SWAP0
        x = s2[t]
        s2[t] = s2[k]
        s2[k] = x
    elif a < RAID:
        k = a - WOLF0
        if cfg[C_MR]:
            wc2 = k + 1
            if s2[k] > 0:
                s2[k] -= 1
                p2[t] += 1
        else:
            m2 += s2[k]
            s2[k] = 0
    elif a == RAID:
        k = wc2 - 1
        take = s2[k] if s2[k] < 2 else 2
        s2[k] -= take
        p2[t] += take
        wc2 = 0
    return wc2, m2


@njit
def legal_choose(t, s, wc, m, fm, cfg, acts):  # type: ignore[no-untyped-def]
    """The roller's legal actions on a normal face (mask fm), ascending; returns their count."""
    n = cfg[C_N]
    room = cfg[C_CAP] - s[t]
    if m < room:
        room = m
    c = 0
    if fm & M_GROW and room > 0:
        acts[c] = GROW
        c += 1
    if fm & M_DOUBLE and room > 0:
        acts[c] = DOUBLE
        c += 1
    if fm & M_SHEAR:
        acts[c] = SHEAR
        c += 1
    if fm & M_SWAP:
        for k in range(n):
            if k != t:
                acts[c] = SWAP0 + k
                c += 1
    if fm & M_WOLF:
        for k in range(n):
            if k != t:
                acts[c] = WOLF0 + k
                c += 1
        if cfg[C_MR] and wc > 0 and wc - 1 != t:
            acts[c] = RAID
            c += 1
    if c == 0:
        acts[c] = PASS
        c += 1
    return c


@njit
def greedy_score(me, s, p, ended, cfg, gpar):  # type: ignore[no-untyped-def]
    """games/shave_a_sheep/policy.py's shave_value(state, me); gpar = (SHEEP_WOOL_VALUE, FULL_SHEEP_VALUE, WIN_VALUE)."""
    n = cfg[C_N]
    if ended:
        best = -1
        for i in range(n):
            if p[i] > best:
                best = p[i]
        k = 0
        for i in range(n):
            if p[i] == best:
                k += 1
        if p[me] == best:
            return gpar[2] * (1.0 / k) - 0.0
        return gpar[2] * 0.0 - gpar[2] / 2
    cap = cfg[C_CAP]
    rate = gpar[1] if s[me] >= cap else gpar[0]
    mine = p[me] + rate * s[me]
    others = -np.inf
    for k in range(n):
        if k != me:
            rate = gpar[1] if s[k] >= cap else gpar[0]
            v = p[k] + rate * s[k]
            if v > others:
                others = v
    return mine - others


@njit
def greedy_choose(t, s, p, wc, m, cfg, acts, na, gpar, s2, p2):  # type: ignore[no-untyped-def]
    """games/shave_a_sheep/policy.py's choice among the roller's actions acts[:na] (kept identical by a test)."""
    best_a = -1
    best_v = -np.inf
    for ai in range(na):
        a = acts[ai]
        wc2, m2 = apply_choose(a, t, s, p, wc, m, cfg, s2, p2)
        ended, t2, m2 = advance(t, s2, p2, m2, cfg)
        v = greedy_score(t, s2, p2, ended, cfg, gpar)
        if v > best_v + 1e-9:
            best_a = a
            best_v = v
    return best_a


@njit
def greedy_target(g, s, p, cfg, gpar):  # type: ignore[no-untyped-def]
    """games/shave_a_sheep/policy.py's Howling Wolf target for grabber g: score the position after the piece
    goes back to the middle (the roller's grow still to come)."""
    n = cfg[C_N]
    best_k = -1
    best_v = -np.inf
    s3 = s.copy()
    for k in range(n):
        if k == g:
            continue
        for i in range(n):
            s3[i] = s[i]
        if s3[k] > 0:
            s3[k] -= 1
        v = greedy_score(g, s3, p, False, cfg, gpar)
        if v > best_v + 1e-9:
            best_k = k
            best_v = v
    return best_k


@njit
def greedy_grow(t, s3, p, wc, m3, room, cfg, gpar, s2, p2):  # type: ignore[no-untyped-def]
    """games/shave_a_sheep/policy.py's GROW or PASS for the roller after Howling Wolf's grab."""
    best_a = -1
    best_v = -np.inf
    for oi in range(2 if room > 0 else 1):
        a = GROW if (oi == 0 and room > 0) else PASS
        wc2, m2 = apply_choose(a, t, s3, p, wc, m3, cfg, s2, p2)
        ended, t2, m2 = advance(t, s2, p2, m2, cfg)
        v = greedy_score(t, s2, p2, ended, cfg, gpar)
        if v > best_v + 1e-9:
            best_a = a
            best_v = v
    return best_a


@njit(inline="always")
def _take(kind, best, a, v, acc, n_opts, nv):  # type: ignore[no-untyped-def]
    """Fold option ``a`` (values ``v``) into ``acc`` as the deciding seat's kind does: RANDOM
    averages over ``n_opts`` options, MAX / MIN keep the best for seat 0's value, a fixed choice
    (TABLE, GREEDY: the only option not skipped) is copied. Returns the best option so far."""
    if kind == RANDOM:
        for j in range(nv):
            acc[j] += v[j] / n_opts
    elif kind == MAX:
        if best < 0 or v[0] > acc[0]:
            best = a
            acc[0] = v[0]
    elif kind == MIN:
        if best < 0 or v[0] < acc[0]:
            best = a
            acc[0] = v[0]
    else:
        for j in range(nv):
            acc[j] = v[j]
    return best


@njit
def state_value(  # type: ignore[no-untyped-def]
    x,
    t,
    s,
    p,
    wc,
    m,
    cfg,
    face_prob,
    face_mask,
    race,
    grab_prob,
    kinds,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    V,
    tab,
    record,
    out,
    buf,
    s2,
    p2,
    s3,
    acts,
    gpar,
):
    """The value vector of canonical position x (one Bellman backup) into out.

    buf rows: 0 leaf, 1 best/acc at the choose level, 2 target level, 3 grow level, 4 grabber
    sum. With record, MAX/MIN seats' choices are written into tab."""
    n = cfg[C_N]
    nv = cfg[C_NV]
    focal = cfg[C_FOCAL]
    cap = cfg[C_CAP]
    F = cfg[C_F]
    for j in range(nv):
        out[j] = 0.0
    for f in range(F):
        pf = face_prob[f]
        fm = face_mask[f]
        if race[f]:
            # Howling Wolf: chance picks the grabber g, g picks a target k != g (one piece of
            # k's sheep back to the middle), then the roller t may grow one piece or pass.
            for j in range(nv):
                buf[4, j] = 0.0
            for g in range(n):
                q = grab_prob[g]
                if q == 0.0:
                    continue
                kg = kinds[g]
                ntg = n - 1
                chosen_k = -1
                if kg == TABLE:
                    chosen_k = tab[x, f, 1 + g]
                elif kg == GREEDY:
                    chosen_k = greedy_target(g, s, p, cfg, gpar)
                bestk = -1
                for j in range(nv):
                    buf[2, j] = 0.0
                for k in range(n):
                    if k == g:
                        continue
                    if chosen_k >= 0 and k != chosen_k:
                        continue
                    # the target loses a piece
                    for i in range(n):
                        s3[i] = s[i]
                    m3 = m
                    if s3[k] > 0:
                        s3[k] -= 1
                        m3 += 1
                    room = cap - s3[t]
                    if m3 < room:
                        room = m3
                    kt = kinds[t]
                    gslot = 1 + n + g * n + k
                    chosen_a = -1
                    if kt == TABLE:
                        chosen_a = tab[x, f, gslot]
                    elif kt == GREEDY:
                        chosen_a = greedy_grow(t, s3, p, wc, m3, room, cfg, gpar, s2, p2)
                    nopt = 2 if room > 0 else 1
                    besta = -1
                    for j in range(nv):
                        buf[3, j] = 0.0
                    for oi in range(nopt):
                        a = GROW if (oi == 0 and room > 0) else PASS
                        if chosen_a >= 0 and a != chosen_a:
                            continue
                        wc2, m2 = apply_choose(a, t, s3, p, wc, m3, cfg, s2, p2)
                        end_turn(
                            t,
                            s2,
                            p2,
                            wc2,
                            m2,
                            cfg,
                            pw_s,
                            pw_p,
                            sv_rank,
                            pile_rank,
                            cnt_le,
                            off,
                            V,
                            focal,
                            nv,
                            buf[0],
                        )
                        besta = _take(kt, besta, a, buf[0], buf[3], nopt, nv)
                    if record and (kt == MAX or (kt == MIN and cfg[C_RECMAX] == 0)):
                        tab[x, f, gslot] = besta
                    # combine at the target level (decided by g)
                    bestk = _take(kg, bestk, k, buf[3], buf[2], ntg, nv)
                if record and (kg == MAX or (kg == MIN and cfg[C_RECMAX] == 0)):
                    tab[x, f, 1 + g] = bestk
                for j in range(nv):
                    buf[4, j] += q * buf[2, j]
            for j in range(nv):
                out[j] += pf * buf[4, j]
            continue
        # a normal face: the roller picks one legal action
        kt = kinds[t]
        na = legal_choose(t, s, wc, m, fm, cfg, acts)
        chosen_a = -1
        if kt == TABLE:
            chosen_a = tab[x, f, 0]
        elif kt == GREEDY:
            chosen_a = greedy_choose(t, s, p, wc, m, cfg, acts, na, gpar, s2, p2)
        besta = -1
        for j in range(nv):
            buf[1, j] = 0.0
        for ai in range(na):
            a = acts[ai]
            if chosen_a >= 0 and a != chosen_a:
                continue
            wc2, m2 = apply_choose(a, t, s, p, wc, m, cfg, s2, p2)
            end_turn(
                t,
                s2,
                p2,
                wc2,
                m2,
                cfg,
                pw_s,
                pw_p,
                sv_rank,
                pile_rank,
                cnt_le,
                off,
                V,
                focal,
                nv,
                buf[0],
            )
            besta = _take(kt, besta, a, buf[0], buf[1], na, nv)
        if record and (kt == MAX or (kt == MIN and cfg[C_RECMAX] == 0)):
            tab[x, f, 0] = besta
        for j in range(nv):
            out[j] += pf * buf[1, j]


@njit
def sweep_block(  # type: ignore[no-untyped-def]
    B,
    bi,
    cfg,
    face_prob,
    face_mask,
    race,
    grab_prob,
    kinds,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    sv_arr,
    pv_all,
    block_start,
    V,
    tab,
    rec,
    out,
    buf,
    s2,
    p2,
    s3,
    acts,
    gpar,
):
    """One Gauss-Seidel sweep over block bi of layer B (fullest sheep first); the largest change."""
    n = cfg[C_N]
    W = cfg[C_W]
    cap = cfg[C_CAP]
    NW = cfg[C_NW]
    nv = cfg[C_NV]
    ns = cnt_le[W - B - 1]
    p = pv_all[block_start[B] + bi]
    base = off[B] + bi * ns * n * NW
    delta = 0.0
    for sr in range(ns - 1, -1, -1):
        s = sv_arr[sr]
        S = 0
        for i in range(n):
            S += s[i]
        m = W - B - S
        for t in range(n):
            if s[t] >= cap:
                continue  # never a canonical position: the auto-shear came first
            for wc in range(NW):
                x = base + (sr * n + t) * NW + wc
                state_value(
                    x,
                    t,
                    s,
                    p,
                    wc,
                    m,
                    cfg,
                    face_prob,
                    face_mask,
                    race,
                    grab_prob,
                    kinds,
                    pw_s,
                    pw_p,
                    sv_rank,
                    pile_rank,
                    cnt_le,
                    off,
                    V,
                    tab,
                    rec,
                    out,
                    buf,
                    s2,
                    p2,
                    s3,
                    acts,
                    gpar,
                )
                for j in range(nv):
                    d = abs(out[j] - V[x, j])
                    if d > delta:
                        delta = d
                    V[x, j] = out[j]
    return delta


OP_MEAN, OP_MAX, OP_MIN = 0, 1, 2


@njit(inline="always")
def _op_of(kind):  # type: ignore[no-untyped-def]
    if kind == MAX:
        return OP_MAX
    if kind == MIN:
        return OP_MIN
    return OP_MEAN


@njit(inline="always")
def _init(op, row, nv):  # type: ignore[no-untyped-def]
    if op == OP_MAX:
        row[0] = -np.inf
    elif op == OP_MIN:
        row[0] = np.inf
    else:
        for j in range(nv):
            row[j] = 0.0


@njit(inline="always")
def _fold(op, row, v, nv):  # type: ignore[no-untyped-def]
    if op == OP_MAX:
        if v[0] > row[0]:
            row[0] = v[0]
    elif op == OP_MIN:
        if v[0] < row[0]:
            row[0] = v[0]
    else:
        for j in range(nv):
            row[j] += v[j]


@njit
def compile_positions(  # type: ignore[no-untyped-def]
    B,
    xs,
    nxs,
    cfg,
    face_prob,
    face_mask,
    race,
    grab_prob,
    kinds,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    sv_arr,
    pv_all,
    block_start,
    V,
    tab,
    gpar,
    out,
    buf,
    s2,
    p2,
    s3,
    acts,
    st_i,
    st_f,
    g1_i,
    g1_f,
    g2_i,
    g2_f,
    refs,
):
    """Write positions xs[:nxs] of layer B (a block, or the blocks of an orbit when rotating) as
    a small program for :func:`sweep_compiled`: every successor outside the layer (a higher
    layer, or the end of the game) is already final, so it is folded into constants; only
    successors inside the layer (the same block, or the orbit) stay as references. The same
    decision tree as :func:`state_value` (which stays the reference and records policies).

    st_i[i] = (position, first group, end group); st_f[i] = constant part of the value.
    g1 (a decision weighted by its chance): g1_i = (op, ref start, ref end, child start, child
    end), g1_f = (weight, 1/options, constant...). g2 (Howling Wolf's grow decision inside a
    target decision): g2_i = (op, ref start, ref end), g2_f = (1/options, constant...).
    Returns the number of positions written."""
    n = cfg[C_N]
    W = cfg[C_W]
    cap = cfg[C_CAP]
    NW = cfg[C_NW]
    nv = cfg[C_NV]
    focal = cfg[C_FOCAL]
    F = cfg[C_F]
    ns = cnt_le[W - B - 1]
    lo = off[B]
    hi = off[B + 1]
    nst = 0
    ng1 = 0
    ng2 = 0
    nr = 0
    for xi in range(nxs):
        x = xs[xi]
        rest = x - lo
        wc = rest % NW
        rest //= NW
        t = rest % n
        rest //= n
        sr = rest % ns
        s = sv_arr[sr]
        p = pv_all[block_start[B] + rest // ns]
        S = 0
        for i in range(n):
            S += s[i]
        m = W - B - S
        if True:
            if True:
                st_i[nst, 0] = x
                st_i[nst, 1] = ng1
                for j in range(nv):
                    st_f[nst, j] = 0.0
                for f in range(F):
                    pf = face_prob[f]
                    if race[f]:
                        for g in range(n):
                            q = grab_prob[g]
                            if q == 0.0:
                                continue
                            kg = kinds[g]
                            op1 = _op_of(kg)
                            chosen_k = -1
                            if kg == TABLE:
                                chosen_k = tab[x, f, 1 + g]
                            elif kg == GREEDY:
                                chosen_k = greedy_target(g, s, p, cfg, gpar)
                            j1 = ng1
                            ng1 += 1
                            g1_i[j1, 0] = op1
                            g1_i[j1, 1] = nr
                            g1_i[j1, 2] = nr
                            g1_i[j1, 3] = ng2
                            g1_i[j1, 4] = ng2
                            g1_f[j1, 0] = pf * q
                            g1_f[j1, 1] = 1.0 / (n - 1) if kg == RANDOM else 1.0
                            _init(op1, g1_f[j1, 2:], nv)
                            for k in range(n):
                                if k == g or (chosen_k >= 0 and k != chosen_k):
                                    continue
                                for i in range(n):
                                    s3[i] = s[i]
                                m3 = m
                                if s3[k] > 0:
                                    s3[k] -= 1
                                    m3 += 1
                                room = cap - s3[t]
                                if m3 < room:
                                    room = m3
                                kt = kinds[t]
                                op2 = _op_of(kt)
                                chosen_a = -1
                                if kt == TABLE:
                                    chosen_a = tab[x, f, 1 + n + g * n + k]
                                elif kt == GREEDY:
                                    chosen_a = greedy_grow(
                                        t, s3, p, wc, m3, room, cfg, gpar, s2, p2
                                    )
                                nopt = 2 if room > 0 else 1
                                j2 = ng2
                                ng2 += 1
                                g2_i[j2, 0] = op2
                                g2_i[j2, 1] = nr
                                g2_f[j2, 0] = 1.0 / nopt if kt == RANDOM else 1.0
                                _init(op2, g2_f[j2, 1:], nv)
                                for oi in range(nopt):
                                    a = GROW if (oi == 0 and room > 0) else PASS
                                    if chosen_a >= 0 and a != chosen_a:
                                        continue
                                    wc2, m2 = apply_choose(a, t, s3, p, wc, m3, cfg, s2, p2)
                                    idx = end_turn(
                                        t,
                                        s2,
                                        p2,
                                        wc2,
                                        m2,
                                        cfg,
                                        pw_s,
                                        pw_p,
                                        sv_rank,
                                        pile_rank,
                                        cnt_le,
                                        off,
                                        V,
                                        focal,
                                        nv,
                                        buf[0],
                                    )
                                    if idx >= lo and idx < hi:
                                        refs[nr] = idx
                                        nr += 1
                                    else:
                                        _fold(op2, g2_f[j2, 1:], buf[0], nv)
                                g2_i[j2, 2] = nr
                                if (
                                    g2_i[j2, 2] == g2_i[j2, 1]
                                ):  # all constant: fold into the target level
                                    ng2 -= 1
                                    if op2 == OP_MEAN:
                                        for j in range(nv):
                                            buf[1, j] = g2_f[j2, 1 + j] * g2_f[j2, 0]
                                    else:
                                        buf[1, 0] = g2_f[j2, 1]
                                    _fold(op1, g1_f[j1, 2:], buf[1], nv)
                                g1_i[j1, 4] = ng2
                            if g1_i[j1, 4] == g1_i[j1, 3]:  # all constant: fold into the position
                                ng1 -= 1
                                if op1 == OP_MEAN:
                                    for j in range(nv):
                                        st_f[nst, j] += pf * q * g1_f[j1, 2 + j] * g1_f[j1, 1]
                                else:
                                    st_f[nst, 0] += pf * q * g1_f[j1, 2]
                        continue
                    kt = kinds[t]
                    op1 = _op_of(kt)
                    na = legal_choose(t, s, wc, m, face_mask[f], cfg, acts)
                    chosen_a = -1
                    if kt == TABLE:
                        chosen_a = tab[x, f, 0]
                    elif kt == GREEDY:
                        chosen_a = greedy_choose(t, s, p, wc, m, cfg, acts, na, gpar, s2, p2)
                    j1 = ng1
                    ng1 += 1
                    g1_i[j1, 0] = op1
                    g1_i[j1, 1] = nr
                    g1_i[j1, 3] = ng2
                    g1_i[j1, 4] = ng2
                    g1_f[j1, 0] = pf
                    g1_f[j1, 1] = 1.0 / na if kt == RANDOM else 1.0
                    _init(op1, g1_f[j1, 2:], nv)
                    for ai in range(na):
                        a = acts[ai]
                        if chosen_a >= 0 and a != chosen_a:
                            continue
                        wc2, m2 = apply_choose(a, t, s, p, wc, m, cfg, s2, p2)
                        idx = end_turn(
                            t,
                            s2,
                            p2,
                            wc2,
                            m2,
                            cfg,
                            pw_s,
                            pw_p,
                            sv_rank,
                            pile_rank,
                            cnt_le,
                            off,
                            V,
                            focal,
                            nv,
                            buf[0],
                        )
                        if idx >= lo and idx < hi:
                            refs[nr] = idx
                            nr += 1
                        else:
                            _fold(op1, g1_f[j1, 2:], buf[0], nv)
                    g1_i[j1, 2] = nr
                    if g1_i[j1, 2] == g1_i[j1, 1]:
                        ng1 -= 1
                        if op1 == OP_MEAN:
                            for j in range(nv):
                                st_f[nst, j] += pf * g1_f[j1, 2 + j] * g1_f[j1, 1]
                        else:
                            st_f[nst, 0] += pf * g1_f[j1, 2]
                st_i[nst, 2] = ng1
                nst += 1
    return nst


@njit
def sweep_compiled(  # type: ignore[no-untyped-def]
    nst, nv, c_out, c_in, V, st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs, out, acc, acc2
):
    """One Gauss-Seidel sweep of a compiled program; the largest change. Values are read from
    columns c_in.. of the references and written to columns c_out.. (both 0 unless rotating)."""
    delta = 0.0
    for i in range(nst):
        for j in range(nv):
            out[j] = st_f[i, j]
        for g in range(st_i[i, 1], st_i[i, 2]):
            op = g1_i[g, 0]
            if op == OP_MEAN:
                for j in range(nv):
                    acc[j] = g1_f[g, 2 + j]
                for r in range(g1_i[g, 1], g1_i[g, 2]):
                    y = refs[r]
                    for j in range(nv):
                        acc[j] += V[y, c_in + j]
            else:
                a0 = g1_f[g, 2]
                for r in range(g1_i[g, 1], g1_i[g, 2]):
                    v = V[refs[r], c_in]
                    if (op == OP_MAX and v > a0) or (op == OP_MIN and v < a0):
                        a0 = v
                acc[0] = a0
            for h in range(g1_i[g, 3], g1_i[g, 4]):
                op2 = g2_i[h, 0]
                if op2 == OP_MEAN:
                    for j in range(nv):
                        acc2[j] = g2_f[h, 1 + j]
                    for r in range(g2_i[h, 1], g2_i[h, 2]):
                        y = refs[r]
                        for j in range(nv):
                            acc2[j] += V[y, c_in + j]
                    for j in range(nv):
                        acc2[j] *= g2_f[h, 0]
                else:
                    b0 = g2_f[h, 1]
                    for r in range(g2_i[h, 1], g2_i[h, 2]):
                        v = V[refs[r], c_in]
                        if (op2 == OP_MAX and v > b0) or (op2 == OP_MIN and v < b0):
                            b0 = v
                    acc2[0] = b0
                if op == OP_MEAN:
                    for j in range(nv):
                        acc[j] += acc2[j]
                elif (op == OP_MAX and acc2[0] > acc[0]) or (op == OP_MIN and acc2[0] < acc[0]):
                    acc[0] = acc2[0]
            w = g1_f[g, 0]
            if op == OP_MEAN:
                w *= g1_f[g, 1]
            for j in range(nv):
                out[j] += w * acc[j]
        x = st_i[i, 0]
        for j in range(nv):
            d = abs(out[j] - V[x, c_out + j])
            if d > delta:
                delta = d
            V[x, c_out + j] = out[j]
    return delta


@njit
def _decode(x, B, cfg, cnt_le, off, sv_arr, pv_all, block_start):  # type: ignore[no-untyped-def]
    """(turn, sheep, piles, wolf code, middle) of position x of layer B."""
    n = cfg[C_N]
    NW = cfg[C_NW]
    W = cfg[C_W]
    ns = cnt_le[W - B - 1]
    rest = x - off[B]
    wc = rest % NW
    rest //= NW
    t = rest % n
    rest //= n
    s = sv_arr[rest % ns]
    p = pv_all[block_start[B] + rest // ns]
    S = 0
    for i in range(n):
        S += s[i]
    return t, s, p, wc, W - B - S


@njit(parallel=True)
def solve_layer(  # type: ignore[no-untyped-def]
    B,
    cfg,
    face_prob,
    face_mask,
    race,
    grab_prob,
    kinds,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    sv_arr,
    pv_all,
    block_start,
    n_piles,
    V,
    tab,
    record,
    tol,
    max_sweeps,
    sweeps_out,
    delta_out,
    gpar,
    scratch_f,
    scratch_i,
    xs_buf,
    st_i,
    st_f,
    g1_i,
    g1_f,
    g2_i,
    g2_f,
    refs,
    compiled,
):
    """Solve every block of layer B (Gauss-Seidel until the largest change < tol); the layers
    above must be solved already. With record, one more sweep writes MAX/MIN choices into tab.
    sweeps_out[block] = sweeps used (max_sweeps + 1: did not converge), delta_out the last change.
    With compiled, sweeps run on :func:`compile_positions`'s program (the same numbers, faster)."""
    n = cfg[C_N]
    nv = cfg[C_NV]
    W = cfg[C_W]
    NW = cfg[C_NW]
    cap = cfg[C_CAP]
    nb = n_piles[B]
    ns = cnt_le[W - B - 1]
    bsize = ns * n * NW
    nch = scratch_f.shape[0]
    if nch > nb:
        nch = nb
    # one chunk of blocks per worker, each with its own scratch rows (allocating inside a
    # prange body is not safe: numba may hoist the allocation and share it)
    for c in prange(nch):
        out = scratch_f[c, 0]
        buf = scratch_f[c, 1:6]
        s2 = scratch_i[c, 0]
        p2 = scratch_i[c, 1]
        s3 = scratch_i[c, 2]
        acts = scratch_i[c, 3]
        xs = xs_buf[c]
        for bi in range(c, nb, nch):
            used = max_sweeps + 1
            delta = 0.0
            nst = 0
            if compiled:
                base = off[B] + bi * bsize
                nx = 0
                for sr in range(ns - 1, -1, -1):  # fullest sheep first
                    for t in range(n):
                        if sv_arr[sr, t] >= cap:
                            continue
                        for wc in range(NW):
                            xs[nx] = base + (sr * n + t) * NW + wc
                            nx += 1
                nst = compile_positions(
                    B,
                    xs,
                    nx,
                    cfg,
                    face_prob,
                    face_mask,
                    race,
                    grab_prob,
                    kinds,
                    pw_s,
                    pw_p,
                    sv_rank,
                    pile_rank,
                    cnt_le,
                    off,
                    sv_arr,
                    pv_all,
                    block_start,
                    V,
                    tab,
                    gpar,
                    out,
                    buf,
                    s2,
                    p2,
                    s3,
                    acts,
                    st_i[c, 0],
                    st_f[c, 0],
                    g1_i[c, 0],
                    g1_f[c, 0],
                    g2_i[c, 0],
                    g2_f[c, 0],
                    refs[c, 0],
                )
            for sweep in range(max_sweeps):
                if compiled:
                    delta = sweep_compiled(
                        nst,
                        nv,
                        0,
                        0,
                        V,
                        st_i[c, 0],
                        st_f[c, 0],
                        g1_i[c, 0],
                        g1_f[c, 0],
                        g2_i[c, 0],
                        g2_f[c, 0],
                        refs[c, 0],
                        out,
                        buf[1],
                        buf[2],
                    )
                else:
                    delta = sweep_block(
                        B,
                        bi,
                        cfg,
                        face_prob,
                        face_mask,
                        race,
                        grab_prob,
                        kinds,
                        pw_s,
                        pw_p,
                        sv_rank,
                        pile_rank,
                        cnt_le,
                        off,
                        sv_arr,
                        pv_all,
                        block_start,
                        V,
                        tab,
                        False,
                        out,
                        buf,
                        s2,
                        p2,
                        s3,
                        acts,
                        gpar,
                    )
                if delta < tol:
                    used = sweep + 1
                    break
            if record:
                sweep_block(
                    B,
                    bi,
                    cfg,
                    face_prob,
                    face_mask,
                    race,
                    grab_prob,
                    kinds,
                    pw_s,
                    pw_p,
                    sv_rank,
                    pile_rank,
                    cnt_le,
                    off,
                    sv_arr,
                    pv_all,
                    block_start,
                    V,
                    tab,
                    True,
                    out,
                    buf,
                    s2,
                    p2,
                    s3,
                    acts,
                    gpar,
                )
            sweeps_out[bi] = used
            delta_out[bi] = delta


@njit(parallel=True)
def solve_layer_rot(  # type: ignore[no-untyped-def]
    B,
    cfgs,
    kinds_all,
    face_prob,
    face_mask,
    race,
    grab_prob,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    sv_arr,
    pv_all,
    block_start,
    orb_ptr,
    orb_mem,
    V,
    tab,
    record,
    tol,
    max_sweeps,
    sweeps_out,
    delta_out,
    gpar,
    scratch_f,
    scratch_i,
    xs_buf,
    st_i,
    st_f,
    g1_i,
    g1_f,
    g2_i,
    g2_f,
    refs,
):
    """Every seat's guaranteed share at once, on the positions where seat 0 rolls (rotation:
    with equal reaction weights, seat f's value where seat t rolls is seat f - t's value in the
    position turned t seats round). V[x, j] = seat j's guaranteed share at turn-0 position x.
    A turn leads to a position where seat 1 rolls, turned one seat round: its pile vector is a
    rotation of ours, so the blocks of an orbit (a pile vector and its rotations) are iterated
    together. cfgs[j] / kinds_all[j]: seat j's view (it maximises, the others minimise)."""
    n = cfgs[0, C_N]
    W = cfgs[0, C_W]
    NW = cfgs[0, C_NW]
    cap = cfgs[0, C_CAP]
    ns = cnt_le[W - B - 1]
    bsize = ns * n * NW
    norb = orb_ptr.shape[0] - 1
    nch = scratch_f.shape[0]
    if nch > norb:
        nch = norb
    for c in prange(nch):
        out = scratch_f[c, 0]
        buf = scratch_f[c, 1:6]
        s2 = scratch_i[c, 0]
        p2 = scratch_i[c, 1]
        s3 = scratch_i[c, 2]
        acts = scratch_i[c, 3]
        xs = xs_buf[c]
        for oi in range(c, norb, nch):
            nx = 0
            for sr in range(ns - 1, -1, -1):
                if sv_arr[sr, 0] >= cap:
                    continue
                for mi in range(orb_ptr[oi], orb_ptr[oi + 1]):
                    bi = orb_mem[mi]
                    for wc in range(NW):
                        xs[nx] = off[B] + bi * bsize + sr * n * NW + wc
                        nx += 1
            nst = 0
            for j in range(n):
                nst = compile_positions(
                    B,
                    xs,
                    nx,
                    cfgs[j],
                    face_prob,
                    face_mask,
                    race,
                    grab_prob,
                    kinds_all[j],
                    pw_s,
                    pw_p,
                    sv_rank,
                    pile_rank,
                    cnt_le,
                    off,
                    sv_arr,
                    pv_all,
                    block_start,
                    V,
                    tab,
                    gpar,
                    out,
                    buf,
                    s2,
                    p2,
                    s3,
                    acts,
                    st_i[c, j],
                    st_f[c, j],
                    g1_i[c, j],
                    g1_f[c, j],
                    g2_i[c, j],
                    g2_f[c, j],
                    refs[c, j],
                )
            used = max_sweeps + 1
            delta = 0.0
            for sweep in range(max_sweeps):
                delta = 0.0
                for j in range(n):
                    d = sweep_compiled(
                        nst,
                        1,
                        j,
                        (j - 1 + n) % n,
                        V,
                        st_i[c, j],
                        st_f[c, j],
                        g1_i[c, j],
                        g1_f[c, j],
                        g2_i[c, j],
                        g2_f[c, j],
                        refs[c, j],
                        out,
                        buf[1],
                        buf[2],
                    )
                    if d > delta:
                        delta = d
                if delta < tol:
                    used = sweep + 1
                    break
            if record:
                for j in range(n):
                    for xi in range(nx):
                        x = xs[xi]
                        t, s, p, wc, m = _decode(
                            x, B, cfgs[j], cnt_le, off, sv_arr, pv_all, block_start
                        )
                        state_value(
                            x,
                            t,
                            s,
                            p,
                            wc,
                            m,
                            cfgs[j],
                            face_prob,
                            face_mask,
                            race,
                            grab_prob,
                            kinds_all[j],
                            pw_s,
                            pw_p,
                            sv_rank,
                            pile_rank,
                            cnt_le,
                            off,
                            V,
                            tab,
                            True,
                            out,
                            buf,
                            s2,
                            p2,
                            s3,
                            acts,
                            gpar,
                        )
                        V[x, j] = out[0]
            sweeps_out[oi] = used
            delta_out[oi] = delta


@njit
def rotation_index(  # type: ignore[no-untyped-def]
    cfg, cnt_le, off, sv_arr, pv_all, block_start, pw_s, pw_p, sv_rank, pile_rank, W, out_idx, out_t
):
    """For every position: the index of the same position turned so that the roller sits at
    seat 0, and the roller's seat."""
    n = cfg[C_N]
    s2 = np.zeros(n, np.int64)
    p2 = np.zeros(n, np.int64)
    for B in range(W):
        for x in range(off[B], off[B + 1]):
            t, s, p, wc, m = _decode(x, B, cfg, cnt_le, off, sv_arr, pv_all, block_start)
            for i in range(n):
                s2[i] = s[(i + t) % n]
                p2[i] = p[(i + t) % n]
            wc2 = wc
            if wc > 0:
                wc2 = (wc - 1 - t + n) % n + 1
            out_idx[x] = encode(0, s2, p2, wc2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off)
            out_t[x] = t


@njit
def successors(  # type: ignore[no-untyped-def]
    x,
    t,
    s,
    p,
    wc,
    m,
    f,
    cfg,
    face_mask,
    race,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    out_act,
    out_idx,
    out_piles,
):
    """For tests: every decision path of face f from position x, with its successor index (-1:
    the game ended, the final piles in out_piles). out_act rows: (action) or (grabber, target,
    GROW|PASS) for a race. Returns the number of rows."""
    n = cfg[C_N]
    cap = cfg[C_CAP]
    s2 = np.zeros(n, np.int64)
    p2 = np.zeros(n, np.int64)
    s3 = np.zeros(n, np.int64)
    acts = np.zeros(16, np.int64)
    r = 0
    if race[f]:
        for g in range(n):
            for k in range(n):
                if k == g:
                    continue
                for i in range(n):
                    s3[i] = s[i]
                m3 = m
                if s3[k] > 0:
                    s3[k] -= 1
                    m3 += 1
                room = cap - s3[t]
                if m3 < room:
                    room = m3
                for a in (GROW, PASS):
                    if a == GROW and room <= 0:
                        continue
                    wc2, m2 = apply_choose(a, t, s3, p, wc, m3, cfg, s2, p2)
                    idx = _end_idx(
                        t, s2, p2, wc2, m2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off
                    )
                    out_act[r, 0] = g
                    out_act[r, 1] = k
                    out_act[r, 2] = a
                    out_idx[r] = idx
                    for i in range(n):
                        out_piles[r, i] = p2[i]
                    r += 1
        return r
    na = legal_choose(t, s, wc, m, face_mask[f], cfg, acts)
    for ai in range(na):
        a = acts[ai]
        wc2, m2 = apply_choose(a, t, s, p, wc, m, cfg, s2, p2)
        idx = _end_idx(t, s2, p2, wc2, m2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off)
        out_act[r, 0] = a
        out_idx[r] = idx
        for i in range(n):
            out_piles[r, i] = p2[i]
        r += 1
    return r


@njit
def _end_idx(t, s2, p2, wc2, m2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off):  # type: ignore[no-untyped-def]
    V = np.zeros((1, 1))
    one = np.zeros(1)
    return end_turn(
        t, s2, p2, wc2, m2, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off, V, 0, 0, one
    )


@njit
def _pick(cum, u):  # type: ignore[no-untyped-def]
    for i in range(cum.shape[0]):
        if u < cum[i]:
            return i
    return cum.shape[0] - 1


@njit
def simulate(  # type: ignore[no-untyped-def]
    ngames,
    seed,
    cfg,
    face_cum,
    face_mask,
    race,
    grab_cum,
    kinds,
    tab,
    pw_s,
    pw_p,
    sv_rank,
    pile_rank,
    cnt_le,
    off,
    gpar,
    max_turns,
    shares,
    turns,
):
    """Play ngames games with the kernel's rules (random, table or greedy seats); shares[g] =
    each seat's win share (NaN: truncated at max_turns, see close_turn), turns[g] = turns
    played. For the statistical tests and the strength numbers: fast, seeded, independent of
    value iteration."""
    np.random.seed(seed)
    n = cfg[C_N]
    W = cfg[C_W]
    cap = cfg[C_CAP]
    s = np.zeros(n, np.int64)
    p = np.zeros(n, np.int64)
    s2 = np.zeros(n, np.int64)
    p2 = np.zeros(n, np.int64)
    s3 = np.zeros(n, np.int64)
    acts = np.zeros(16, np.int64)
    for gi in range(ngames):
        for i in range(n):
            s[i] = 0
            p[i] = 0
        t = 0
        wc = 0
        m = W
        ended = False
        played = 0
        while played < max_turns and not ended:
            played += 1
            x = encode(t, s, p, wc, cfg, pw_s, pw_p, sv_rank, pile_rank, cnt_le, off)
            f = _pick(face_cum, np.random.random())
            if race[f]:
                g = _pick(grab_cum, np.random.random())
                kg = kinds[g]
                if kg == TABLE:
                    k = tab[x, f, 1 + g]
                elif kg == GREEDY:
                    k = greedy_target(g, s, p, cfg, gpar)
                else:
                    k = np.random.randint(n - 1)
                    if k >= g:
                        k += 1
                for i in range(n):
                    s3[i] = s[i]
                m3 = m
                if s3[k] > 0:
                    s3[k] -= 1
                    m3 += 1
                room = cap - s3[t]
                if m3 < room:
                    room = m3
                kt = kinds[t]
                if kt == TABLE:
                    a = tab[x, f, 1 + n + g * n + k]
                elif kt == GREEDY:
                    a = greedy_grow(t, s3, p, wc, m3, room, cfg, gpar, s2, p2)
                elif room > 0:
                    a = GROW if np.random.randint(2) == 0 else PASS
                else:
                    a = PASS
                wc2, m2 = apply_choose(a, t, s3, p, wc, m3, cfg, s2, p2)
            else:
                na = legal_choose(t, s, wc, m, face_mask[f], cfg, acts)
                kt = kinds[t]
                if kt == TABLE:
                    a = tab[x, f, 0]
                elif kt == GREEDY:
                    a = greedy_choose(t, s, p, wc, m, cfg, acts, na, gpar, s2, p2)
                else:
                    a = acts[np.random.randint(na)]
                wc2, m2 = apply_choose(a, t, s, p, wc, m, cfg, s2, p2)
            ended, t2, m2 = close_turn(t, s2, p2, m2, played, max_turns, cfg)
            for i in range(n):
                s[i] = s2[i]
                p[i] = p2[i]
            t = t2
            wc = wc2
            m = m2
        turns[gi] = played
        if not ended:
            for i in range(n):
                shares[gi, i] = np.nan
            continue
        best = -1
        for i in range(n):
            if p[i] > best:
                best = p[i]
        k = 0
        for i in range(n):
            if p[i] == best:
                k += 1
        for i in range(n):
            shares[gi, i] = 1.0 / k if p[i] == best else 0.0
