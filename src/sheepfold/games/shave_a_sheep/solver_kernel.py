"""The solver's value iteration, compiled (numba). The rules are the kernel's
(:mod:`sheepfold.games.shave_a_sheep.kernel`); this module only walks a turn's decision tree and
folds values.

A *canonical* position is the start of a turn (after the auto-shear, before the roll, wool left in
the middle), numbered by the kernel's position index (:mod:`.kernel.layout`). Values are
``V[index, j]``: with ``nv == 1`` the win share of one seat (``focal``), with ``nv == n`` every
seat's share. Who decides is a seat, and ``kinds[seat]`` says how that seat chooses: MAX or MIN
(of column 0), RANDOM (uniform over the legal actions), TABLE (the decision stored in ``tab``) or
GREEDY (the kernel's greedy policy).

``tab[index, prm[P_COL + face] + slot]`` (:func:`.kernel.layout.columns`): slot 0 = the roller's
action on a normal face; on a Howling Wolf race, slot ``1 + g`` = the seat grabber ``g`` sends
the wolf to, slot ``1 + n + g * n + k`` = the roller's GROW or PASS after grabber ``g`` took a
piece of seat ``k``'s sheep.

The kernels take their inputs in a few records (tuples):

* ``ctx = (prm, probs, ix, kinds, tab, cfg, V)``: the kernel's rules and probabilities
  (:mod:`.kernel.layout`), the position index, the
  seats' kinds, the decision table, the solve's config (``cfg[C_NV]`` value columns,
  ``cfg[C_FOCAL]``, ``cfg[C_ROT]``: positions turned so that the roller sits at seat 0,
  ``cfg[C_RECMAX]``: record only the MAX seat's decisions) and the values;
* ``work = (out, buf, st, st2, st3, acts, acts2, trial, pc)``: one worker's scratch (``buf``
  rows: 0 a successor's values, 1 the roller's decision, 2 the grabber's, 3 the grab's chance;
  ``pc``: the program counters of :func:`compile_positions`);
* ``prog = (st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs)``: a compiled program (see
  :func:`compile_positions`).
"""

from __future__ import annotations

from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from sheepfold.games.shave_a_sheep.kernel.index import decode, encode, turn_round  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.layout import (  # noqa: E402
    OVER,
    P_CAP,
    P_COL,
    P_FACES,
    P_N,
    P_RACE,
    P_WOOL,
    PROB_GRAB,
    STATE_LEN,
    SWAP0,
    TRUNCATED,
    TURN,
    WOLF0,
)
from sheepfold.games.shave_a_sheep.kernel.play import play, scratch  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.policy import greedy  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.step import (  # noqa: E402
    choices,
    copy,
    finish,
    howl_choices,
    howl_take,
    howl_targets,
    jit,
    share,
)

#: small helpers, inlined into their callers
inline: Any = njit(cache=True, nogil=True, inline="always")

# seat kinds
MAX, MIN, RANDOM, TABLE, GREEDY = 0, 1, 2, 3, 4
# cfg slots
C_NV, C_FOCAL, C_ROT, C_RECMAX = range(4)
CFG_LEN = 4
# program folds
OP_MEAN, OP_MAX, OP_MIN = 0, 1, 2
# pc slots: positions, g1 rows, g2 rows, references written; the layer's index range
PC_ST, PC_G1, PC_G2, PC_REF, PC_LO, PC_HI = range(6)


# -- one turn's tree -----------------------------------------------------------------------------
@inline
def successor(st2, ctx, out):  # type: ignore[no-untyped-def]
    """The values of the position a finished turn left in ``st2`` into ``out``; returns its
    index, or -1 when the game ended (then ``out`` holds the win shares)."""
    prm, ix, cfg, V = ctx[0], ctx[2], ctx[5], ctx[6]
    n = prm[P_N]
    nv = cfg[C_NV]
    focal = cfg[C_FOCAL]
    if st2[OVER]:
        if nv == 1:
            out[0] = share(st2, focal, prm)
        else:
            for j in range(nv):
                out[j] = share(st2, j, prm)
        return -1
    if cfg[C_ROT]:  # the next roller to seat 0; our focal seat is then focal - t2
        t2 = st2[TURN]
        turn_round(st2, t2, prm)
        idx = encode(st2, prm, ix)
        out[0] = V[idx, (focal - t2 + n) % n]
        return idx
    idx = encode(st2, prm, ix)
    for j in range(nv):
        out[j] = V[idx, j]
    return idx


@inline
def roller_choice(x, f, slot, s, c, ctx, work):  # type: ignore[no-untyped-def]
    """The decision the roller of ``s`` is fixed to among ``acts[:c]`` (TABLE: slot ``slot`` of
    position ``x`` and face ``f``; GREEDY), or -1 when it chooses (MAX, MIN, RANDOM)."""
    prm, kinds, tab = ctx[0], ctx[3], ctx[4]
    acts, trial = work[5], work[7]
    t = s[TURN]
    if kinds[t] == TABLE:
        return np.int64(tab[x, prm[P_COL + f] + slot])
    if kinds[t] == GREEDY:
        return greedy(s, t, acts, c, False, prm, trial)
    return -1


@inline
def target_choice(x, f, g, s, ctx, work):  # type: ignore[no-untyped-def]
    """The seat grabber ``g`` is fixed to send the wolf to (TABLE, GREEDY), or -1."""
    prm, kinds, tab = ctx[0], ctx[3], ctx[4]
    acts2, trial = work[6], work[7]
    if kinds[g] == TABLE:
        return np.int64(tab[x, prm[P_COL + f] + 1 + g])
    if kinds[g] == GREEDY:
        c = howl_targets(g, prm, acts2)
        return greedy(s, g, acts2, c, True, prm, trial) - WOLF0
    return -1


@inline
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


@inline
def _records(kind, cfg):  # type: ignore[no-untyped-def]
    return kind == MAX or (kind == MIN and cfg[C_RECMAX] == 0)


# -- the Bellman backup (the reference, and the recording sweep) ---------------------------------
@inline
def _backup_roller(s, c, chosen, ctx, work):  # type: ignore[no-untyped-def]
    """The roller of ``s`` decides among ``acts[:c]`` (``chosen``: a fixed choice, else -1): the
    value into ``buf[1]``; returns the best action (MAX, MIN)."""
    prm, kinds, cfg = ctx[0], ctx[3], ctx[5]
    nv = cfg[C_NV]
    buf, st2, acts = work[1], work[3], work[5]
    kt = kinds[s[TURN]]
    best = -1
    for j in range(nv):
        buf[1, j] = 0.0
    for i in range(c):
        a = acts[i]
        if chosen >= 0 and a != chosen:
            continue
        copy(st2, s)
        finish(st2, a, prm)
        successor(st2, ctx, buf[0])
        best = _take(kt, best, a, buf[0], buf[1], c, nv)
    return best


@inline
def _backup_race(x, f, s, ctx, work, record):  # type: ignore[no-untyped-def]
    """Howling Wolf's race on face ``f`` at position ``x`` (decoded in ``s``): chance picks the
    grabber g, g picks a target k != g, the roller grows or passes. The value into ``buf[3]``."""
    prm, probs, kinds, tab, cfg = ctx[0], ctx[1], ctx[3], ctx[4], ctx[5]
    buf, st3, acts = work[1], work[4], work[5]
    n = prm[P_N]
    nv = cfg[C_NV]
    for j in range(nv):
        buf[3, j] = 0.0
    for g in range(n):
        q = probs[PROB_GRAB + g]
        if q == 0.0:
            continue
        kg = kinds[g]
        chosen_k = target_choice(x, f, g, s, ctx, work)
        bestk = -1
        for j in range(nv):
            buf[2, j] = 0.0
        for k in range(n):
            if k == g or (chosen_k >= 0 and k != chosen_k):
                continue
            copy(st3, s)
            howl_take(st3, k)
            c = howl_choices(st3, prm, acts)
            slot = 1 + n + g * n + k
            besta = _backup_roller(st3, c, roller_choice(x, f, slot, st3, c, ctx, work), ctx, work)
            if record and _records(kinds[s[TURN]], cfg):
                tab[x, prm[P_COL + f] + slot] = besta
            bestk = _take(kg, bestk, k, buf[1], buf[2], n - 1, nv)
        if record and _records(kg, cfg):
            tab[x, prm[P_COL + f] + 1 + g] = bestk
        for j in range(nv):
            buf[3, j] += q * buf[2, j]


@inline
def backup(x, s, ctx, work, record):  # type: ignore[no-untyped-def]
    """The value vector of canonical position ``x`` (decoded in ``s``) into ``out``: one Bellman
    backup. With ``record``, the MAX (and MIN, unless RECMAX) seats' choices go into ``tab``."""
    prm, probs, kinds, tab, cfg = ctx[0], ctx[1], ctx[3], ctx[4], ctx[5]
    out, buf, acts = work[0], work[1], work[5]
    nv = cfg[C_NV]
    for j in range(nv):
        out[j] = 0.0
    for f in range(prm[P_FACES]):
        if prm[P_RACE + f]:
            _backup_race(x, f, s, ctx, work, record)
            row = 3
        else:
            c = choices(s, f, prm, acts)
            best = _backup_roller(s, c, roller_choice(x, f, 0, s, c, ctx, work), ctx, work)
            if record and _records(kinds[s[TURN]], cfg):
                tab[x, prm[P_COL + f]] = best
            row = 1
        for j in range(nv):
            out[j] += probs[f] * buf[row, j]


@jit
def sweep_block(B, bi, ctx, work, record):  # type: ignore[no-untyped-def]
    """One Gauss-Seidel sweep over block ``bi`` of layer ``B`` (fullest sheep first) with
    :func:`backup`; the largest change."""
    prm, ix, cfg, V = ctx[0], ctx[2], ctx[5], ctx[6]
    out, st = work[0], work[2]
    nv = cfg[C_NV]
    delta = 0.0
    for x in block_positions(B, bi, prm, ix):
        decode(x, B, prm, ix, st)
        backup(x, st, ctx, work, record)
        for j in range(nv):
            d = abs(out[j] - V[x, j])
            if d > delta:
                delta = d
            V[x, j] = out[j]
    return delta


@jit
def block_positions(B, bi, prm, ix):  # type: ignore[no-untyped-def]
    """The canonical positions of block ``bi`` of layer ``B``, fullest sheep first (a turn
    start where the roller's sheep is full is never reached: the auto-shear came first)."""
    nt, nw = ix[9][0], ix[9][1]
    cnt_le, sv_arr = ix[1], ix[6]
    ns = cnt_le[prm[P_WOOL] - B - 1]
    base = ix[0][B] + bi * ns * nt * nw
    out = np.empty(ns * nt * nw, dtype=np.int64)
    c = 0
    for sr in range(ns - 1, -1, -1):
        for t in range(nt):
            if sv_arr[sr, t] >= prm[P_CAP]:
                continue
            for wc in range(nw):
                out[c] = base + (sr * nt + t) * nw + wc
                c += 1
    return out[:c]


# -- compiled programs: the same tree, with the layer's finished successors folded in -----------
@inline
def _op_of(kind):  # type: ignore[no-untyped-def]
    if kind == MAX:
        return OP_MAX
    if kind == MIN:
        return OP_MIN
    return OP_MEAN


@inline
def _init(op, row, nv):  # type: ignore[no-untyped-def]
    if op == OP_MAX:
        row[0] = -np.inf
    elif op == OP_MIN:
        row[0] = np.inf
    else:
        for j in range(nv):
            row[j] = 0.0


@inline
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


@inline
def _refs(s, c, chosen, op, row, ctx, work, prog):  # type: ignore[no-untyped-def]
    """The roller of ``s`` decides among ``acts[:c]``: successors inside the layer become
    references, the others (final already) are folded into ``row`` with ``op``."""
    prm, cfg = ctx[0], ctx[5]
    nv = cfg[C_NV]
    buf, st2, acts, pc = work[1], work[3], work[5], work[8]
    refs = prog[6]
    for i in range(c):
        a = acts[i]
        if chosen >= 0 and a != chosen:
            continue
        copy(st2, s)
        finish(st2, a, prm)
        idx = successor(st2, ctx, buf[0])
        if idx >= pc[PC_LO] and idx < pc[PC_HI]:
            refs[pc[PC_REF]] = idx
            pc[PC_REF] += 1
        else:
            _fold(op, row, buf[0], nv)


@inline
def _compile_roller(s, c, chosen, w, ctx, work, prog):  # type: ignore[no-untyped-def]
    """A normal face (chance ``w``): the roller of ``s`` decides among ``acts[:c]``. A g1 row
    with the references, or a constant of the position when there are none."""
    kt = ctx[3][s[TURN]]
    j1 = _open_group(_op_of(kt), w, 1.0 / c if kt == RANDOM else 1.0, ctx, work, prog)
    _refs(s, c, chosen, _op_of(kt), prog[3][j1, 2:], ctx, work, prog)
    prog[2][j1, 2] = work[8][PC_REF]  # its own references
    _close_group(j1, ctx, work, prog)


@inline
def _open_group(op, w, mean_w, ctx, work, prog):  # type: ignore[no-untyped-def]
    """Open the next g1 row: a decision of kind ``op`` of chance ``w`` (``mean_w``: the weight
    of each option when it averages), with no references or g2 rows yet. Returns its row."""
    g1_i, g1_f, pc = prog[2], prog[3], work[8]
    j1 = pc[PC_G1]
    g1_i[j1, 0] = op
    g1_i[j1, 1] = pc[PC_REF]
    g1_i[j1, 2] = pc[PC_REF]
    g1_i[j1, 3] = pc[PC_G2]
    g1_i[j1, 4] = pc[PC_G2]
    g1_f[j1, 0] = w
    g1_f[j1, 1] = mean_w
    _init(op, g1_f[j1, 2:], ctx[5][C_NV])
    return j1


@inline
def _close_group(j1, ctx, work, prog):  # type: ignore[no-untyped-def]
    """Keep g1 row ``j1`` if it has references or g2 rows; else fold it into the position's
    constant (the row is written over by the next one)."""
    g1_i, g1_f, pc = prog[2], prog[3], work[8]
    if g1_i[j1, 2] > g1_i[j1, 1] or g1_i[j1, 4] > g1_i[j1, 3]:
        pc[PC_G1] += 1
        return
    w = g1_f[j1, 0] * g1_f[j1, 1]
    _to_constant(g1_i[j1, 0], w, g1_f[j1, 2:], ctx[5][C_NV], prog[1][pc[PC_ST]])


@inline
def _to_constant(op, w, row, nv, dest):  # type: ignore[no-untyped-def]
    """Add a decision without references (its folded value ``row``, weight ``w``) to ``dest``."""
    if op == OP_MEAN:
        for j in range(nv):
            dest[j] += w * row[j]
    else:
        dest[0] += w * row[0]


@inline
def _compile_grow(s, c, chosen, op1, row1, ctx, work, prog):  # type: ignore[no-untyped-def]
    """Howling Wolf, after the grab: the roller of ``s`` grows or passes. A g2 row with the
    references, or a constant folded into its grabber's decision (``row1``, ``op1``)."""
    kinds, cfg = ctx[3], ctx[5]
    g2_i, g2_f = prog[4], prog[5]
    buf, pc = work[1], work[8]
    nv = cfg[C_NV]
    kt = kinds[s[TURN]]
    op2 = _op_of(kt)
    j2 = pc[PC_G2]
    g2_i[j2, 0] = op2
    g2_i[j2, 1] = pc[PC_REF]
    g2_f[j2, 0] = 1.0 / c if kt == RANDOM else 1.0
    _init(op2, g2_f[j2, 1:], nv)
    _refs(s, c, chosen, op2, g2_f[j2, 1:], ctx, work, prog)
    g2_i[j2, 2] = pc[PC_REF]
    if g2_i[j2, 2] > g2_i[j2, 1]:
        pc[PC_G2] += 1
        return
    for j in range(nv):
        buf[1, j] = 0.0
    _to_constant(op2, g2_f[j2, 0], g2_f[j2, 1:], nv, buf[1])
    _fold(op1, row1, buf[1], nv)


@inline
def _compile_grab(x, f, g, s, w, ctx, work, prog):  # type: ignore[no-untyped-def]
    """Howling Wolf's race on face ``f``, grabber ``g`` (chance ``w``): ``g`` picks a target,
    then the roller grows or passes. A g1 row whose children are g2 rows, or a constant."""
    prm, kinds = ctx[0], ctx[3]
    st3, acts = work[4], work[5]
    n = prm[P_N]
    op1 = _op_of(kinds[g])
    chosen_k = target_choice(x, f, g, s, ctx, work)
    j1 = _open_group(op1, w, 1.0 / (n - 1) if kinds[g] == RANDOM else 1.0, ctx, work, prog)
    for k in range(n):
        if k == g or (chosen_k >= 0 and k != chosen_k):
            continue
        copy(st3, s)
        howl_take(st3, k)
        c = howl_choices(st3, prm, acts)
        chosen = roller_choice(x, f, 1 + n + g * n + k, st3, c, ctx, work)
        _compile_grow(st3, c, chosen, op1, prog[3][j1, 2:], ctx, work, prog)
    prog[2][j1, 4] = work[8][PC_G2]  # its g2 rows
    _close_group(j1, ctx, work, prog)


@jit
def compile_positions(B, xs, ctx, work, prog):  # type: ignore[no-untyped-def]
    """Write positions ``xs`` of layer ``B`` (a block, or the blocks of an orbit when rotating)
    as a small program for :func:`sweep_compiled`: every successor outside the layer (a higher
    layer, or the end of the game) is final already, so it is folded into constants; only the
    successors inside the layer stay as references. The same tree as :func:`backup` (which
    stays the reference and records policies).

    ``st_i[i]`` = (position, first g1 row, end g1 row), ``st_f[i]`` = its constant part; a g1
    row (a decision weighted by its chance) ``g1_i`` = (op, ref start, ref end, first g2, end
    g2), ``g1_f`` = (weight, 1/options, constant...); a g2 row (Howling Wolf's grow decision
    inside a target decision) ``g2_i`` = (op, ref start, ref end), ``g2_f`` = (1/options,
    constant...). Returns the number of positions written."""
    prm, probs, ix = ctx[0], ctx[1], ctx[2]
    st_i, st_f = prog[0], prog[1]
    st, acts, pc = work[2], work[5], work[8]
    pc[:] = 0
    pc[PC_LO] = ix[0][B]
    pc[PC_HI] = ix[0][B + 1]
    for x in xs:
        decode(x, B, prm, ix, st)
        i = pc[PC_ST]
        st_i[i, 0] = x
        st_i[i, 1] = pc[PC_G1]
        st_f[i, :] = 0.0
        for f in range(prm[P_FACES]):
            if prm[P_RACE + f]:
                for g in range(prm[P_N]):
                    q = probs[PROB_GRAB + g]
                    if q > 0.0:
                        _compile_grab(x, f, g, st, probs[f] * q, ctx, work, prog)
            else:
                c = choices(st, f, prm, acts)
                chosen = roller_choice(x, f, 0, st, c, ctx, work)
                _compile_roller(st, c, chosen, probs[f], ctx, work, prog)
        st_i[i, 2] = pc[PC_G1]
        pc[PC_ST] += 1
    return pc[PC_ST]


@jit
def sweep_compiled(prog, nst, cols, V, work):  # type: ignore[no-untyped-def]
    """One Gauss-Seidel sweep of a compiled program of ``nst`` positions; the largest change.
    ``cols`` = (value columns, first column written, first column read): values are read from
    columns c_in.. of the references and written to columns c_out.. (both 0 unless rotating)."""
    st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs = prog
    nv, c_out, c_in = cols
    out, acc, acc2 = work[0], work[1][1], work[1][2]
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


# -- the layers ----------------------------------------------------------------------------------
@inline
def _work(bufs, c):  # type: ignore[no-untyped-def]
    """Worker ``c``'s scratch record (see the module's docstring) from the shared buffers."""
    scratch_f, scratch_i = bufs[0], bufs[1]
    return (
        scratch_f[c, 0],
        scratch_f[c, 1:],
        scratch_i[c, 0],
        scratch_i[c, 1],
        scratch_i[c, 2],
        scratch_i[c, 3],
        scratch_i[c, 4],
        scratch_i[c, 5],
        scratch_i[c, 6],
    )


@inline
def _prog(progs, c, j):  # type: ignore[no-untyped-def]
    """Program ``j`` of worker ``c`` from the shared program buffers."""
    return (
        progs[0][c, j],
        progs[1][c, j],
        progs[2][c, j],
        progs[3][c, j],
        progs[4][c, j],
        progs[5][c, j],
        progs[6][c, j],
    )


@jit
def _solve_block(B, bi, ctx, work, prog, opts):  # type: ignore[no-untyped-def]
    """Iterate block ``bi`` of layer ``B`` until the largest change < tol; returns (sweeps
    used, or max_sweeps + 1 when it did not converge; the last change)."""
    record, tol, max_sweeps, compiled = opts
    cfg = ctx[5]
    nst = 0
    if compiled:
        nst = compile_positions(B, block_positions(B, bi, ctx[0], ctx[2]), ctx, work, prog)
    delta = 0.0
    used = max_sweeps + 1
    for sweep in range(max_sweeps):
        if compiled:
            delta = sweep_compiled(prog, nst, (cfg[C_NV], 0, 0), ctx[6], work)
        else:
            delta = sweep_block(B, bi, ctx, work, False)
        if delta < tol:
            used = sweep + 1
            break
    if record:
        sweep_block(B, bi, ctx, work, True)
    return used, delta


@jit
def solve_chunk(B, chunk, ctx, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """Solve the blocks ``c, c + m, c + 2m ...`` of layer ``B`` (``chunk`` = (c, m)), each until
    its largest change < tol; the layers above must be solved already. The chunks of a layer
    are independent: :func:`solve_layer` runs them on parallel threads, worker ``c`` with its own rows of ``bufs`` = (scratch floats, scratch ints) and ``progs``
    (the program buffers). ``opts`` = (record: one more sweep writes the MAX / MIN choices into
    tab, tol, max_sweeps, compiled: sweep :func:`compile_positions`'s program, the same numbers
    faster); ``stats`` = (sweeps used per block, the last change per block). :func:`solve_layer`
    runs the chunks in parallel."""
    c, m = chunk
    block_start = ctx[2][8]
    work = _work(bufs, c)
    prog = _prog(progs, c, 0)
    for bi in range(c, block_start[B + 1] - block_start[B], m):
        used, delta = _solve_block(B, bi, ctx, work, prog, opts)
        stats[0][bi] = used
        stats[1][bi] = delta


@jit
def _orbit_positions(B, orbits, oi, prm, ix):  # type: ignore[no-untyped-def]
    """The positions of orbit ``oi`` of layer ``B`` (a seat-0 index: seat 0 rolls), fullest
    sheep first."""
    ptr, mem = orbits
    nw = ix[9][1]
    cnt_le, sv_arr = ix[1], ix[6]
    ns = cnt_le[prm[P_WOOL] - B - 1]
    out = np.empty(ns * (ptr[oi + 1] - ptr[oi]) * nw, dtype=np.int64)
    c = 0
    for sr in range(ns - 1, -1, -1):
        if sv_arr[sr, 0] >= prm[P_CAP]:
            continue
        for mi in range(ptr[oi], ptr[oi + 1]):
            for wc in range(nw):
                out[c] = ix[0][B] + (mem[mi] * ns + sr) * nw + wc
                c += 1
    return out[:c]


@inline
def _seat_ctx(ctx, j):  # type: ignore[no-untyped-def]
    """Seat ``j``'s view of a rotating solve (it maximises, the others minimise)."""
    prm, probs, ix, kinds_all, tab, cfgs, V = ctx
    return (prm, probs, ix, kinds_all[j], tab, cfgs[j], V)


@jit
def _solve_orbit(B, xs, ctx, work, progs, c, opts):  # type: ignore[no-untyped-def]
    """Every seat's program (worker ``c``'s) over the positions ``xs`` of an orbit, swept
    together until the largest change < tol; returns (sweeps used, the last change)."""
    record, tol, max_sweeps, compiled = opts
    n = ctx[0][P_N]
    nst = 0
    for j in range(n):
        nst = compile_positions(B, xs, _seat_ctx(ctx, j), work, _prog(progs, c, j))
    used = max_sweeps + 1
    delta = 0.0
    for sweep in range(max_sweeps):
        delta = 0.0
        for j in range(n):
            d = sweep_compiled(_prog(progs, c, j), nst, (1, j, (j - 1 + n) % n), ctx[6], work)
            if d > delta:
                delta = d
        if delta < tol:
            used = sweep + 1
            break
    if record:
        st = work[2]
        for j in range(n):
            cj = _seat_ctx(ctx, j)
            for x in xs:
                decode(x, B, ctx[0], ctx[2], st)
                backup(x, st, cj, work, True)
                ctx[6][x, j] = work[0][0]
    return used, delta


@jit
def solve_chunk_rot(B, chunk, ctx, orbits, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """Every seat's guaranteed share at once, on the positions where seat 0 rolls (rotation:
    with equal reaction weights, seat f's value where seat t rolls is seat f - t's value in the
    position turned t seats round). V[x, j] = seat j's guaranteed share at turn-0 position x.
    A turn leads to a position where seat 1 rolls, turned one seat round: its pile vector is a
    rotation of ours, so the blocks of an orbit (``orbits`` = (pointers, members): a pile
    vector and its rotations) are iterated together. ``ctx`` holds every seat's kinds and cfg
    (rows j: seat j's view); ``chunk``: the orbits ``c, c + m ...``; the rest as
    :func:`solve_chunk`."""
    c, m = chunk
    work = _work(bufs, c)
    for oi in range(c, orbits[0].shape[0] - 1, m):
        xs = _orbit_positions(B, orbits, oi, ctx[0], ctx[2])
        used, delta = _solve_orbit(B, xs, ctx, work, progs, c, opts)
        stats[0][oi] = used
        stats[1][oi] = delta


@jit
def unrotate(prm, ix, ix0, R, tab0, f, V, tab):  # type: ignore[no-untyped-def]
    """Seat ``f``'s values ``V`` and decisions ``tab`` at every position of ``ix``, from a
    rotating solve's ``R`` and ``tab0`` over the seat-0 index ``ix0``: a position where seat t
    rolls is the seat-0 position turned t seats round, where seat f is seat f - t."""
    n = prm[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    for B in range(prm[P_WOOL]):
        for x in range(ix[0][B], ix[0][B + 1]):
            decode(x, B, prm, ix, st)
            t = st[TURN]
            turn_round(st, t, prm)
            rx = encode(st, prm, ix0)
            V[x, 0] = R[rx, (f - t + n) % n]
            for face in range(prm[P_FACES]):
                b = prm[P_COL + face]
                if t == f:  # the roller's actions, back to real seats
                    tab[x, b] = _turned_action(tab0[rx, b], t, n)
                if prm[P_RACE + face]:  # seat f's grabs, and the roller's grow-or-pass
                    tab[x, b + 1 + f] = (tab0[rx, b + 1 + (f - t + n) % n] + t) % n
                    if t == f:
                        for g in range(n):
                            for k in range(n):
                                y = b + 1 + n + ((g - t + n) % n) * n + (k - t + n) % n
                                tab[x, b + 1 + n + g * n + k] = tab0[rx, y]


@inline
def _turned_action(a, t, n):  # type: ignore[no-untyped-def]
    """Action ``a`` of the table turned ``t`` seats round, in real seats (swap, wolf)."""
    if SWAP0 <= a < SWAP0 + n:
        return SWAP0 + (a - SWAP0 + t) % n
    if WOLF0 <= a < WOLF0 + n:
        return WOLF0 + (a - WOLF0 + t) % n
    return a


@jit
def simulate(seeds, seats, prm, ix, shares, turns):  # type: ignore[no-untyped-def]
    """Play one game per seed with the kernel's rules and policies (:mod:`.kernel.play`):
    ``shares[g]`` = each seat's win share (NaN: truncated at the rules' turn limit),
    ``turns[g]`` = turns played. For the statistical tests and the strength numbers."""
    n = prm[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    kit = scratch()
    for g in range(seeds.shape[0]):
        turns[g] = play(seeds[g], st, seats, prm, ix, kit)
        for i in range(n):
            shares[g, i] = np.nan if st[TRUNCATED] else share(st, i, prm)


# -- the layers, in parallel ---------------------------------------------------------------------
# numba's parallel loops take arrays and scalars, not records: the records are taken apart
# before the loop and put together again inside it.
@njit(parallel=True, cache=True, nogil=True)
def solve_layer(B, ctx, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """:func:`solve_chunk` for every chunk of layer ``B``, on numba's threads."""
    prm, probs, ix, kinds, tab, cfg, V = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6]
    i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 = ix
    sf, si = bufs
    p0, p1, p2, p3, p4, p5, p6 = progs
    record, tol, max_sweeps, compiled = opts
    sweeps, deltas = stats
    nch = min(sf.shape[0], i8[B + 1] - i8[B])
    for c in prange(nch):
        ctx_c = (prm, probs, (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9), kinds, tab, cfg, V)
        solve_chunk(
            B,
            (c, nch),
            ctx_c,
            (sf, si),
            (p0, p1, p2, p3, p4, p5, p6),
            (record, tol, max_sweeps, compiled),
            (sweeps, deltas),
        )


@njit(parallel=True, cache=True, nogil=True)
def solve_layer_rot(B, ctx, orbits, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """:func:`solve_chunk_rot` for every chunk of layer ``B``'s orbits, on numba's threads."""
    prm, probs, ix, kinds, tab, cfg, V = ctx
    i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 = ix
    ptr, mem = orbits
    sf, si = bufs
    p0, p1, p2, p3, p4, p5, p6 = progs
    record, tol, max_sweeps, compiled = opts
    sweeps, deltas = stats
    nch = min(sf.shape[0], ptr.shape[0] - 1)
    for c in prange(nch):
        ctx_c = (prm, probs, (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9), kinds, tab, cfg, V)
        solve_chunk_rot(
            B,
            (c, nch),
            ctx_c,
            (ptr, mem),
            (sf, si),
            (p0, p1, p2, p3, p4, p5, p6),
            (record, tol, max_sweeps, compiled),
            (sweeps, deltas),
        )
