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

The kernels take their inputs in a few records:

* ``ctx``, a :class:`Context` (named fields: the rules, the probabilities, the position index,
  the seats' kinds, the decision table, the solve's config and the values);
* ``work = (out, buf, st, st2, st3, acts, acts2, trial)``: one worker's scratch (``out``: a
  successor's values; ``buf``: two rows of sums);
* ``prog = (st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs)``: a compiled program (see
  :func:`walk`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from sheepfold.games.shave_a_sheep.kernel.index import (  # noqa: E402
    decode,
    encode,
    layer_of,
    turn_round,
)
from sheepfold.games.shave_a_sheep.kernel.layout import (  # noqa: E402
    OVER,
    P_COL,
    P_FACES,
    P_N,
    P_RACE,
    P_SKIP,
    P_WOOL,
    PROB_GRAB,
    REROLL,
    STATE_LEN,
    SWAP0,
    TRUNCATED,
    TURN,
    WOLF0,
    Index,
)
from sheepfold.games.shave_a_sheep.kernel.play import play, scratch  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.policy import greedy  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.step import (  # noqa: E402
    bare,
    choices,
    copy,
    finish,
    howl_choices,
    howl_targets,
    jit,
    race_take,
    reroll,
    share,
)

#: small helpers, inlined into their callers
inline: Any = njit(cache=True, nogil=True, forceinline=True)

# seat kinds
MAX, MIN, RANDOM, TABLE, GREEDY = 0, 1, 2, 3, 4
# cfg slots
C_NV, C_FOCAL, C_ROT, C_RECMAX, C_ENDED = range(5)
CFG_LEN = 5
# program folds
OP_MEAN, OP_MAX, OP_MIN = 0, 1, 2


class Context(NamedTuple):
    """What a solve's kernels read and write (numba compiles the fields by name)."""

    #: the kernel's rules (:func:`.kernel.layout.rules_record`)
    prm: np.ndarray
    #: the die's and the grab's probabilities (:func:`.kernel.layout.probabilities`)
    probs: np.ndarray
    #: the position index (:class:`.kernel.layout.Index`)
    ix: Index
    #: how each seat chooses (MAX, MIN, RANDOM, TABLE, GREEDY); a rotating solve: one row a seat
    kinds: np.ndarray
    #: the decision table: read for TABLE seats, written for the recorded ones
    tab: np.ndarray
    #: the solve's config: ``cfg[C_NV]`` value columns, ``cfg[C_FOCAL]``, ``cfg[C_ROT]``
    #: (positions turned so that the roller sits at seat 0), ``cfg[C_RECMAX]`` (record only the
    #: MAX seat's decisions), ``cfg[C_ENDED]`` (a finished game is worth 1 to everyone: values
    #: are the chance that the game ends); a rotating solve: one row a seat
    cfg: np.ndarray
    #: the values ``V[index, j]``
    V: np.ndarray  # noqa: N815


# -- one turn's tree -----------------------------------------------------------------------------
# walk modes
COMPILE, SWEEP, RECORD = 0, 1, 2


@inline
def _records(kind, cfg):  # type: ignore[no-untyped-def]
    """A seat of ``kind`` has its decisions recorded (MAX; MIN too unless ``cfg[C_RECMAX]``)."""
    return kind == MAX or (kind == MIN and cfg[C_RECMAX] == 0)


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
    """Fold the option of values ``v`` into ``row``; True when it is the best so far (MAX,
    MIN: the first best is kept)."""
    if op == OP_MAX:
        if v[0] > row[0]:
            row[0] = v[0]
            return True
    elif op == OP_MIN:
        if v[0] < row[0]:
            row[0] = v[0]
            return True
    else:
        for j in range(nv):
            row[j] += v[j]
    return False


@inline
def _to_constant(op, w, row, nv, dest):  # type: ignore[no-untyped-def]
    """Add a decision without references (its folded value ``row``, weight ``w``) to ``dest``."""
    if op == OP_MEAN:
        for j in range(nv):
            dest[j] += w * row[j]
    else:
        dest[0] += w * row[0]


@inline
def _store(val, V, x, c0, nv):  # type: ignore[no-untyped-def]
    """``V[x, c0:c0 + nv] = val``; the largest change."""
    d = 0.0
    for j in range(nv):
        d = max(d, abs(val[j] - V[x, c0 + j]))
        V[x, c0 + j] = val[j]
    return d


@bare
def walk(B, xs, ctx, work, prog, mode):  # type: ignore[no-untyped-def]
    """Walk one turn's tree from each position of ``xs`` (of layer ``B``: a block, or the blocks
    of an orbit when rotating), in order. Returns (positions written, the largest change).

    * COMPILE: write the positions as a program for :func:`sweep_compiled`. Every successor
      outside the layer (a higher layer, or the end of the game) is final already, so it is
      folded into constants; only the successors inside the layer stay as references.
      ``st_i[i]`` = (position, first g1 row, end g1 row), ``st_f[i]`` = its constant part; a
      g1 row (a decision weighted by its chance: the roller's on a normal face, a grabber's
      target on a Howling Wolf race) ``g1_i`` = (op, ref start, ref end, first g2, end g2),
      ``g1_f`` = (weight, 1/options, constant...); a g2 row (the roller's grow-or-pass after
      the grab) ``g2_i`` = (op, ref start, ref end), ``g2_f`` = (1/options, constant...). A
      decision left without references is folded into its parent's constant.
    * SWEEP: one Gauss-Seidel sweep with every transition recomputed (the reference): every
      successor is read from ``V`` and each position's value is written to ``V`` at once.
    * RECORD: the same, and the MAX (and MIN, unless C_RECMAX) seats' choices go into ``tab``.

    One function on purpose: numba counts references to every array handed to a helper, and
    with the tree split into helpers the programs were written 5x slower. Compiled ``bare``
    (no reference counting at all: it allocates nothing)."""
    prm, probs, ix, kinds, tab, cfg, V = ctx
    out, buf, st, st2, st3, acts, acts2, trial = work
    st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs = prog
    n, nv, focal, rot, ended = prm[P_N], cfg[C_NV], cfg[C_FOCAL], cfg[C_ROT], cfg[C_ENDED]
    lo, hi = (ix.off[B], ix.off[B + 1]) if mode == COMPILE else (-1, -1)
    record = mode == RECORD
    nst = ng1 = ng2 = nr = 0
    delta = 0.0
    for x in xs:
        decode(x, B, prm, ix, st)
        kt = kinds[st[TURN]]
        st_i[nst, 0], st_i[nst, 1] = x, ng1
        for j in range(nv):
            st_f[nst, j] = 0.0
        for f in range(prm[P_FACES]):
            race, col = prm[P_RACE + f], prm[P_COL + f]
            for g in range(n if race else 1):  # a g1 row: grabber g's target, or the roller's
                if race and probs[PROB_GRAB + g] == 0.0:
                    continue
                w = probs[f] * probs[PROB_GRAB + g] if race else probs[f]
                kd = kinds[g] if race else kt
                op1 = _op_of(kd)
                chosen_k = -1
                if race and kd == TABLE:
                    chosen_k = int(tab[x, col + 1 + g])
                elif race and kd == GREEDY:
                    c = howl_targets(g, prm, acts2)
                    chosen_k = greedy(st, g, acts2, c, True, prm, trial) - WOLF0
                j1, ng1, best_k = ng1, ng1 + 1, -1
                g1_i[j1, 0], g1_i[j1, 1], g1_i[j1, 3] = op1, nr, ng2
                g1_f[j1, 0] = w
                g1_f[j1, 1] = 1.0 / (n - 1) if kd == RANDOM else 1.0
                _init(op1, g1_f[j1, 2:], nv)
                for k in range(n if race else 1):  # the roller decides (after a grab from k)
                    s, slot = st, 0
                    if race:
                        if k == g or (chosen_k >= 0 and k != chosen_k):
                            continue
                        copy(st3, st)
                        race_take(st3, k, prm)
                        s, slot = st3, 1 + n + g * n + k
                        c = howl_choices(st3, prm, acts)
                    else:
                        c = choices(st, f, prm, acts)
                        g1_f[j1, 1] = 1.0 / c if kd == RANDOM else 1.0
                    chosen = -1
                    if kt == TABLE:
                        chosen = int(tab[x, col + slot])
                    elif kt == GREEDY:
                        chosen = greedy(s, s[TURN], acts, c, False, prm, trial)
                    op, row, best = op1, g1_f[j1, 2:], -1
                    if race:
                        op, row = _op_of(kt), g2_f[ng2, 1:]
                        g2_i[ng2, 0], g2_i[ng2, 1] = op, nr
                        g2_f[ng2, 0] = 1.0 / c if kt == RANDOM else 1.0
                        _init(op, row, nv)
                    for i in range(c):  # the successors
                        a = acts[i]
                        if chosen >= 0 and a != chosen:
                            continue
                        copy(st2, s)
                        if a == REROLL:  # the same turn, rolled again (house rule rerolls)
                            reroll(st2)
                        else:
                            finish(st2, a, prm)
                        idx = -1
                        if st2[OVER]:
                            for j in range(nv):
                                out[j] = 1.0 if ended else share(st2, focal if nv == 1 else j, prm)
                        elif rot:  # the next roller to seat 0: our focal seat is focal - t2
                            t2 = st2[TURN]
                            turn_round(st2, t2, prm)
                            idx = encode(st2, prm, ix)
                            out[0] = V[idx, (focal - t2 + n) % n]
                        else:
                            idx = encode(st2, prm, ix)
                            for j in range(nv):
                                out[j] = V[idx, j]
                        if lo <= idx < hi:  # a reroll's (the same roller) is marked: -1 - idx
                            refs[nr] = -1 - idx if a == REROLL else idx
                            nr += 1
                        elif _fold(op, row, out, nv):
                            best = a
                    if record and _records(kt, cfg):
                        tab[x, col + slot] = best
                    if race:
                        g2_i[ng2, 2] = nr
                        if nr > g2_i[ng2, 1]:
                            ng2 += 1
                        else:  # no references: a constant of the grabber's decision
                            for j in range(nv):
                                buf[0, j] = 0.0
                            _to_constant(op, g2_f[ng2, 0], row, nv, buf[0])
                            if _fold(op1, g1_f[j1, 2:], buf[0], nv):
                                best_k = k
                if record and race and _records(kd, cfg):
                    tab[x, col + 1 + g] = best_k
                g1_i[j1, 2] = g1_i[j1, 1] if race else nr
                g1_i[j1, 4] = ng2
                if g1_i[j1, 2] == g1_i[j1, 1] and ng2 == g1_i[j1, 3]:  # a constant
                    ng1 -= 1
                    _to_constant(op1, w * g1_f[j1, 1], g1_f[j1, 2:], nv, st_f[nst])
        st_i[nst, 2] = ng1
        if mode == COMPILE:
            nst += 1
        else:
            delta = max(delta, _store(st_f[0], V, x, focal if rot else 0, nv))
    return nst, delta


@jit
def block_positions(B, bi, prm, ix):  # type: ignore[no-untyped-def]
    """The canonical positions of block ``bi`` of layer ``B``, fullest sheep first (a turn
    start where the roller's sheep is at the auto-shear threshold is never reached: the
    auto-shear came first)."""
    nt, nw = ix.shape[0], ix.shape[1]
    ns = ix.cnt_le[prm[P_WOOL] - B - 1]
    base = ix.off[B] + bi * ns * nt * nw
    out = np.empty(ns * nt * nw, dtype=np.int64)
    c = 0
    for sr in range(ns - 1, -1, -1):
        for t in range(nt):
            if ix.sv_arr[sr, t] >= prm[P_SKIP]:
                continue
            for wc in range(nw):
                out[c] = base + (sr * nt + t) * nw + wc
                c += 1
    return out[:c]


@inline
def _ref(y, c_out, c_in):  # type: ignore[no-untyped-def]
    """(row, first column) a reference reads: a turn's successor is read from columns c_in..
    (rotating: the next seat rolls, turned one seat round), a reroll's (marked ``-1 - row``:
    the same seat rolls again, house rule rerolls) from the columns written, c_out.."""
    if y < 0:
        return -1 - y, c_out
    return y, c_in


@bare
def sweep_compiled(prog, nst, cols, V, work):  # type: ignore[no-untyped-def]
    """One Gauss-Seidel sweep of a compiled program of ``nst`` positions; the largest change.
    ``cols`` = (value columns, first column written, first column read): values are read from
    columns c_in.. of the references and written to columns c_out.. (both 0 unless rotating;
    a reroll's reference reads c_out.., see :func:`_ref`)."""
    st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs = prog
    nv, c_out, c_in = cols
    out, acc, acc2 = work[0], work[1][0], work[1][1]
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
                    y, c = _ref(refs[r], c_out, c_in)
                    for j in range(nv):
                        acc[j] += V[y, c + j]
            else:
                a0 = g1_f[g, 2]
                for r in range(g1_i[g, 1], g1_i[g, 2]):
                    y, c = _ref(refs[r], c_out, c_in)
                    v = V[y, c]
                    if (op == OP_MAX and v > a0) or (op == OP_MIN and v < a0):
                        a0 = v
                acc[0] = a0
            for h in range(g1_i[g, 3], g1_i[g, 4]):
                op2 = g2_i[h, 0]
                if op2 == OP_MEAN:
                    for j in range(nv):
                        acc2[j] = g2_f[h, 1 + j]
                    for r in range(g2_i[h, 1], g2_i[h, 2]):
                        y, c = _ref(refs[r], c_out, c_in)
                        for j in range(nv):
                            acc2[j] += V[y, c + j]
                    for j in range(nv):
                        acc2[j] *= g2_f[h, 0]
                else:
                    b0 = g2_f[h, 1]
                    for r in range(g2_i[h, 1], g2_i[h, 2]):
                        y, c = _ref(refs[r], c_out, c_in)
                        v = V[y, c]
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
    xs = block_positions(B, bi, ctx.prm, ctx.ix)
    nst = walk(B, xs, ctx, work, prog, COMPILE)[0] if compiled else 0
    delta = 0.0
    used = max_sweeps + 1
    for sweep in range(max_sweeps):
        if compiled:
            delta = sweep_compiled(prog, nst, (ctx.cfg[C_NV], 0, 0), ctx.V, work)
        else:
            delta = walk(B, xs, ctx, work, prog, SWEEP)[1]
        if delta < tol:
            used = sweep + 1
            break
    if record:
        walk(B, xs, ctx, work, prog, RECORD)
    return used, delta


@jit
def solve_chunk(B, chunk, ctx, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """Solve the blocks ``c, c + m, c + 2m ...`` of layer ``B`` (``chunk`` = (c, m)), each until
    its largest change < tol; the layers above must be solved already. The chunks of a layer
    are independent: :func:`solve_layer` runs them on parallel threads, worker ``c`` with its
    own rows of ``bufs`` = (scratch floats, scratch ints) and ``progs`` (the program buffers). ``opts`` = (record: one more sweep writes the MAX / MIN choices into
    tab, tol, max_sweeps, compiled: sweep the program :func:`walk` compiled, the same numbers
    faster; else every sweep recomputes every transition); ``stats`` = (sweeps used per block, the last change per block). :func:`solve_layer`
    runs the chunks in parallel."""
    c, m = chunk
    block_start = ctx.ix.block_start
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
    nw = ix.shape[1]
    ns = ix.cnt_le[prm[P_WOOL] - B - 1]
    out = np.empty(ns * (ptr[oi + 1] - ptr[oi]) * nw, dtype=np.int64)
    c = 0
    for sr in range(ns - 1, -1, -1):
        if ix.sv_arr[sr, 0] >= prm[P_SKIP]:
            continue
        for mi in range(ptr[oi], ptr[oi + 1]):
            for wc in range(nw):
                out[c] = ix.off[B] + (mem[mi] * ns + sr) * nw + wc
                c += 1
    return out[:c]


@inline
def _seat_ctx(ctx, j):  # type: ignore[no-untyped-def]
    """Seat ``j``'s view of a rotating solve (it maximises, the others minimise)."""
    return Context(ctx.prm, ctx.probs, ctx.ix, ctx.kinds[j], ctx.tab, ctx.cfg[j], ctx.V)


@jit
def _solve_orbit(B, xs, ctx, work, progs, c, opts):  # type: ignore[no-untyped-def]
    """Every seat's program (worker ``c``'s) over the positions ``xs`` of an orbit, swept
    together until the largest change < tol; returns (sweeps used, the last change)."""
    record, tol, max_sweeps, compiled = opts
    n = ctx.prm[P_N]
    nst = 0
    for j in range(n):
        nst = walk(B, xs, _seat_ctx(ctx, j), work, _prog(progs, c, j), COMPILE)[0]
    used = max_sweeps + 1
    delta = 0.0
    for sweep in range(max_sweeps):
        delta = 0.0
        for j in range(n):
            d = sweep_compiled(_prog(progs, c, j), nst, (1, j, (j - 1 + n) % n), ctx.V, work)
            if d > delta:
                delta = d
        if delta < tol:
            used = sweep + 1
            break
    if record:
        for j in range(n):
            walk(B, xs, _seat_ctx(ctx, j), work, _prog(progs, c, j), RECORD)
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
        xs = _orbit_positions(B, orbits, oi, ctx.prm, ctx.ix)
        used, delta = _solve_orbit(B, xs, ctx, work, progs, c, opts)
        stats[0][oi] = used
        stats[1][oi] = delta


@jit
def _unrotate_range(lo, hi, prm, f, src, dst):  # type: ignore[no-untyped-def]
    """:func:`unrotate` for positions ``lo`` to ``hi`` of ``ix``; ``src`` = (ix0, R, tab0),
    ``dst`` = (ix, V, tab)."""
    ix0, R, tab0 = src
    ix, V, tab = dst
    n = prm[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    B = layer_of(lo, ix) if lo < hi else 0
    for x in range(lo, hi):
        while x >= ix.off[B + 1]:
            B += 1
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


@njit(parallel=True, cache=True, nogil=True)
def unrotate(prm, ix, ix0, R, tab0, f, V, tab):  # type: ignore[no-untyped-def]
    """Seat ``f``'s values ``V`` and decisions ``tab`` at every position of ``ix``, from a
    rotating solve's ``R`` and ``tab0`` over the seat-0 index ``ix0``: a position where seat t
    rolls is the seat-0 position turned t seats round, where seat f is seat f - t. The
    positions are independent: chunks of them run on numba's threads."""
    i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 = ix
    j0, j1, j2, j3, j4, j5, j6, j7, j8, j9 = ix0
    size = V.shape[0]
    nch = 64
    for c in prange(nch):
        _unrotate_range(
            size * c // nch,
            size * (c + 1) // nch,
            prm,
            f,
            (Index(j0, j1, j2, j3, j4, j5, j6, j7, j8, j9), R, tab0),
            (Index(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9), V, tab),
        )


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
# before the loop and put together again inside it (the same NamedTuples, field by field).
@njit(parallel=True, cache=True, nogil=True)
def solve_layer(B, ctx, bufs, progs, opts, stats):  # type: ignore[no-untyped-def]
    """:func:`solve_chunk` for every chunk of layer ``B``, on numba's threads."""
    prm, probs, ix, kinds, tab, cfg, V = ctx
    i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 = ix
    sf, si = bufs
    p0, p1, p2, p3, p4, p5, p6 = progs
    record, tol, max_sweeps, compiled = opts
    sweeps, deltas = stats
    nch = min(sf.shape[0], i8[B + 1] - i8[B])
    for c in prange(nch):
        ix_c = Index(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9)
        ctx_c = Context(prm, probs, ix_c, kinds, tab, cfg, V)
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
        ix_c = Index(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9)
        ctx_c = Context(prm, probs, ix_c, kinds, tab, cfg, V)
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
