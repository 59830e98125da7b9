"""Exact numbers of a *stochastic* Shave a Sheep policy (a probability per legal action at each
decision), for :func:`sheepfold.analysis.exploitability`.

The solver's kernel folds a decision by max, min, a uniform mean or one stored choice; a policy
that mixes needs each successor weighted by its own probability. So here the solver's position
space is unrolled once into its transitions (every turn start, face, grab, target and action of
the solver's tree, with the kernel's own rules: :func:`transitions`), and the values come from
value iteration over those arrays, layer by layer as in the solver (banked wool never goes
down, so a layer only reads itself and the layers above). Every seat plays a probability per
transition (a stochastic table, ``random``, ``greedy``, or a deterministic table such as
``perfect``'s); a best response maximizes at its own decisions.

Memory: about 60 bytes a transition, and the policy's probabilities (float32 per action and
decision); a run that would pass the solver's memory limit (``SHEEPFOLD_SOLVER_MAX_GB``) is
refused before it starts, with the figure.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

import numpy as np  # noqa: E402

from sheepfold.core.protocol import SheepfoldError  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.index import decode, encode, layer_of  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.layout import (  # noqa: E402
    MAX_LEGAL,
    OVER,
    P_COL,
    P_FACES,
    P_N,
    P_RACE,
    P_SKIP,
    PROB_GRAB,
    REROLL,
    SHEEP,
    STATE_LEN,
    TURN,
    WOLF0,
)
from sheepfold.games.shave_a_sheep.kernel.policy import greedy  # noqa: E402
from sheepfold.games.shave_a_sheep.kernel.step import (  # noqa: E402
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

#: bytes a transition takes (the arrays of :class:`Transitions`, with the shares of 4 seats)
BYTES_PER_TRANSITION = 60
#: sweeps of one layer before giving up
MAX_SWEEPS = 100_000

# the int columns of a transition
T_X, T_W1, T_C1, T_A1, T_S1, T_G1, T_N1, T_C2, T_A2, T_S2, T_G2, T_N2, T_Y = range(13)
T_LEN = 13


@jit
def transitions(prm, probs, ix, size, out_i, out_f):  # type: ignore[no-untyped-def]
    """Every transition of the solver's turn tree at every turn start of the index ``ix``:
    ``out_i[j]`` = (position, outer group, first decision's column, its action, its seat, its
    greedy choice, its option count, the roller's column after a grab or -1, that action,
    seat, greedy choice and option count, successor index or -1 at the end of the game),
    ``out_f[j]`` = (the chance weight of the outer group, then each seat's share where the game
    ended). The first decision is the roller's on a normal face (its action id) or a Howling
    Wolf grabber's (the target seat k); the second, the roller's after the grab. ``out_i``
    with no rows counts them. Returns (transitions, outer groups)."""
    n = prm[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st2 = np.zeros(STATE_LEN, dtype=np.int64)
    st3 = np.zeros(STATE_LEN, dtype=np.int64)
    trial = np.zeros(STATE_LEN, dtype=np.int64)
    acts = np.zeros(MAX_LEGAL, dtype=np.int64)
    acts2 = np.zeros(MAX_LEGAL, dtype=np.int64)
    cap = out_i.shape[0]
    j = 0
    grp = 0
    for x in range(size):
        decode(x, layer_of(x, ix), prm, ix, st)
        t = st[TURN]
        if (
            st[SHEEP + t] >= prm[P_SKIP]
        ):  # not a turn start: its turn-start trigger (the auto-shear) came first
            continue
        for f in range(prm[P_FACES]):
            col = prm[P_COL + f]
            race = prm[P_RACE + f]
            for g in range(n if race else 1):
                if race and probs[PROB_GRAB + g] == 0.0:
                    continue
                w = probs[f] * probs[PROB_GRAB + g] if race else probs[f]
                gk = -1
                if race:
                    c = howl_targets(g, prm, acts2)
                    gk = greedy(st, g, acts2, c, True, prm, trial) - WOLF0
                for k in range(n if race else 1):
                    if race and k == g:
                        continue
                    s = st
                    if race:
                        copy(st3, st)
                        race_take(st3, k, prm)
                        s = st3
                        c = howl_choices(st3, prm, acts)
                    else:
                        c = choices(st, f, prm, acts)
                    ga = greedy(s, t, acts, c, False, prm, trial)
                    for i in range(c):
                        a = acts[i]
                        copy(st2, s)
                        if a == REROLL:
                            reroll(st2)
                        else:
                            finish(st2, a, prm)
                        if j < cap:
                            r = out_i[j]
                            r[T_X], r[T_W1] = x, grp
                            if race:
                                r[T_C1], r[T_A1], r[T_S1], r[T_G1], r[T_N1] = (
                                    col + 1 + g,
                                    k,
                                    g,
                                    gk,
                                    n - 1,
                                )
                                r[T_C2], r[T_A2], r[T_S2] = col + 1 + n + g * n + k, a, t
                                r[T_G2], r[T_N2] = ga, c
                            else:
                                r[T_C1], r[T_A1], r[T_S1], r[T_G1], r[T_N1] = col, a, t, ga, c
                                r[T_C2], r[T_A2], r[T_S2], r[T_G2], r[T_N2] = -1, -1, -1, -1, 1
                            out_f[j, 0] = w
                            if st2[OVER]:
                                r[T_Y] = -1
                                for q in range(n):
                                    out_f[j, 1 + q] = share(st2, q, prm)
                            else:
                                r[T_Y] = encode(st2, prm, ix)
                        j += 1
                grp += 1
    return j, grp


class Transitions(NamedTuple):
    """The solver's space unrolled (:func:`transitions`): int columns ``T_*``, float columns
    (the outer weight, each seat's share at the end), and the number of outer groups."""

    ints: np.ndarray
    floats: np.ndarray
    groups: int


def unroll(space: Any, max_bytes: float = float("inf")) -> Transitions:
    """The transitions of a solver ``Space`` (counted first: more than ``max_bytes`` of them is
    refused with a SheepfoldError)."""
    n = space.n
    empty = np.zeros((0, T_LEN), np.int64)
    count, groups = transitions(space.prm, space.probs, space.ix, space.size, empty, empty * 0.0)
    need = count * BYTES_PER_TRANSITION
    if need > max_bytes:
        raise SheepfoldError(
            f"a stochastic policy's exact numbers need about {need / 2**30:.1f} GB here "
            f"({count:,} transitions; allowed {max_bytes / 2**30:.1f} GB, SHEEPFOLD_SOLVER_MAX_GB)"
        )
    ints = np.zeros((count, T_LEN), np.int64)
    floats = np.zeros((count, 1 + n), np.float64)
    transitions(space.prm, space.probs, space.ix, space.size, ints, floats)
    return Transitions(ints, floats, groups)


def choice_probs(
    tr: Transitions, space: Any, policies: list[Any], lookup: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Each transition's probability at its first and its second decision, from every seat's
    policy: ``("probs", rows)`` (a stochastic table: ``lookup(rows, x, col, action)``), or a
    solver Policy (random, greedy, or a table of choices)."""
    t = tr.ints
    p1 = _probs(t, space, policies, lookup, T_C1, T_A1, T_S1, T_G1, T_N1, True)
    p2 = np.ones(len(t))
    race = t[:, T_C2] >= 0
    p2[race] = _probs(t[race], space, policies, lookup, T_C2, T_A2, T_S2, T_G2, T_N2, False)
    return p1, p2


def _probs(
    t: np.ndarray,
    space: Any,
    policies: list[Any],
    lookup: Any,
    c: int,
    a: int,
    s: int,
    g: int,
    nopt: int,
    first: bool,
) -> np.ndarray:
    out = np.zeros(len(t))
    grab = first & (t[:, T_C2] >= 0) if len(t) else np.zeros(0, bool)
    for seat, pol in enumerate(policies):
        mine = t[:, s] == seat
        if not mine.any():
            continue
        rows = t[mine]
        if isinstance(pol, tuple):  # a stochastic table: its probabilities by cell
            act = np.where(grab[mine], WOLF0 + rows[:, a], rows[:, a])
            out[mine] = lookup(pol[1], rows[:, T_X], rows[:, c], act)
        elif pol.kind == "random":
            out[mine] = 1.0 / rows[:, nopt]
        elif pol.kind == "greedy":
            out[mine] = rows[:, a] == rows[:, g]
        else:  # a table of choices (a grabber's: the target seat)
            out[mine] = pol.tab[rows[:, T_X], rows[:, c]] == rows[:, a]
    return out


def values(
    tr: Transitions,
    space: Any,
    p1: np.ndarray,
    p2: np.ndarray,
    focal: int | None,
    tol: float,
) -> np.ndarray:
    """Every seat's win share at every position (``V[x, seat]``) when the seats play with
    these probabilities, or with ``focal`` a best response (the max at its decisions; then
    only its column is meaningful)."""
    t, fl = tr.ints, tr.floats
    n = space.n
    V = np.zeros((space.size, n))
    order_x = t[:, T_X]
    # inner groups: the roller's decision after one grab (or the single decision of a face)
    race = t[:, T_C2] >= 0
    key = np.where(race, t[:, T_C2], -1)
    inner_start = np.flatnonzero(np.r_[True, (t[1:, T_W1] != t[:-1, T_W1]) | (key[1:] != key[:-1])])
    outer_start = np.flatnonzero(np.r_[True, t[1:, T_W1] != t[:-1, T_W1]])
    inner_outer = np.searchsorted(outer_start, inner_start, side="right") - 1
    max_in = (
        (np.where(race, t[:, T_S2], t[:, T_S1]) == focal)[inner_start]
        if focal is not None
        else np.zeros(len(inner_start), bool)
    )
    max_out = (
        (race & (t[:, T_S1] == focal))[outer_start[inner_outer]]
        if focal is not None
        else np.zeros(len(inner_start), bool)
    )
    p_in = np.where(race, p2, p1)
    p_out = np.where(race, p1, 1.0)[inner_start]
    w_outer = fl[outer_start, 0]
    x_outer = order_x[outer_start]
    ended = t[:, T_Y] < 0
    y = np.where(ended, 0, t[:, T_Y])
    layer_t = np.searchsorted(space.off, order_x, side="right") - 1
    for B in range(space.W - 1, -1, -1):
        lo, hi = _span(layer_t, B)
        if lo == hi:
            continue
        sel = slice(lo, hi)
        i_lo, i_hi = np.searchsorted(inner_start, [lo, hi])
        o_lo, o_hi = np.searchsorted(outer_start, [lo, hi])
        xo = x_outer[o_lo:o_hi]
        x_starts = np.flatnonzero(np.r_[True, xo[1:] != xo[:-1]])
        xs = xo[x_starts]
        o_idx = inner_outer[i_lo:i_hi] - o_lo
        for _ in range(MAX_SWEEPS):
            succ = np.where(ended[sel, None], fl[sel, 1:], V[y[sel]])
            inner = _fold(succ, p_in[sel], inner_start[i_lo:i_hi] - lo, max_in[i_lo:i_hi])
            outer = _fold_groups(inner, p_out[i_lo:i_hi], o_idx, o_hi - o_lo, max_out[i_lo:i_hi])
            new = np.add.reduceat(w_outer[o_lo:o_hi, None] * outer, x_starts, axis=0)
            delta = float(np.abs(new - V[xs]).max())
            V[xs] = new
            if delta <= tol:
                break
        else:
            raise SheepfoldError(f"value iteration did not converge in layer {B}")
    return V


def _span(sorted_layers: np.ndarray, B: int) -> tuple[int, int]:
    """The transitions of positions in layer ``B`` (the transitions are in position order and
    the layers are consecutive index ranges)."""
    lo = int(np.searchsorted(sorted_layers, B, side="left"))
    hi = int(np.searchsorted(sorted_layers, B, side="right"))
    return lo, hi


def _fold(v: np.ndarray, p: np.ndarray, starts: np.ndarray, take_max: np.ndarray) -> np.ndarray:
    """Per group of consecutive rows (from ``starts``): the max of ``v`` where ``take_max``,
    else the ``p``-weighted sum."""
    summed = np.add.reduceat(v * p[:, None], starts, axis=0)
    if take_max.any():
        maxed = np.maximum.reduceat(v, starts, axis=0)
        summed[take_max] = maxed[take_max]
    return summed


def _fold_groups(
    v: np.ndarray, p: np.ndarray, group: np.ndarray, groups: int, take_max: np.ndarray
) -> np.ndarray:
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    assert len(starts) == groups
    return _fold(v, p, starts, take_max[starts])


__all__ = ["BYTES_PER_TRANSITION", "Transitions", "choice_probs", "unroll", "values"]
