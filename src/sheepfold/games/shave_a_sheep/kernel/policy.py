"""Shave a Sheep's greedy policy, compiled: :mod:`sheepfold.games.shave_a_sheep.policy` over the
state vector (the same value function, constants and tie-break: the first best in the legal
order, the same score of a reroll). ``tests/test_shave_kernel.py`` checks the two agree at
every decision of small games.
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.shave_a_sheep import policy as _policy
from sheepfold.games.shave_a_sheep.kernel.layout import (
    OVER,
    P_COUNT,
    P_DIE,
    P_FACES,
    P_N,
    P_RACE,
    P_SHEAR_AT,
    PILE,
    REROLL,
    SHEEP,
    STATE_LEN,
    TRUNCATED,
    WOLF0,
)
from sheepfold.games.shave_a_sheep.kernel.step import (
    _finish,
    bare,
    choices,
    copy,
    finish,
    inline,
    jit,
    race_take,
    reroll,
    typed_inline,
)

SHEEP_WOOL_VALUE = float(_policy.SHEEP_WOOL_VALUE)
FULL_SHEEP_VALUE = float(_policy.FULL_SHEEP_VALUE)
WIN_VALUE = float(_policy.WIN_VALUE)


@typed_inline
def worth(st, seat, prm):  # type: ignore[no-untyped-def]
    """A seat's safe pile plus the discounted wool on its sheep."""
    wool = st[SHEEP + seat]
    rate = FULL_SHEEP_VALUE if wool >= prm[P_SHEAR_AT] else SHEEP_WOOL_VALUE
    return st[PILE + seat] + rate * wool


@typed_inline
def value(st, me, prm):  # type: ignore[no-untyped-def]
    """policy.shave_value: how good the position is for ``me``. Inlined by numba (with
    :func:`worth`: :data:`.step.typed_inline`) into :func:`_greedy` and :func:`reroll_value`,
    like the C loop's: as calls, the greedy games were slower, and inlined by LLVM
    (``forceinline``) 0.6-0.7x as fast (docs/engine.md, "The greedy simulator"). The best of
    the others is a ``max`` (a select, as the C compiler makes the C loop's ``if``): as an
    ``if``, a branch on random values that the 4-player greedy games mispredicted (0.8-0.9x as
    fast)."""
    n = prm[P_N]
    if st[OVER]:
        if st[TRUNCATED]:
            return 0.0
        best = st[PILE]
        for s in range(1, n):
            if st[PILE + s] > best:
                best = st[PILE + s]
        k = 0
        for s in range(n):
            if st[PILE + s] == best:
                k += 1
        if st[PILE + me] == best:
            return WIN_VALUE * (1.0 / k)
        return WIN_VALUE * 0.0 - WIN_VALUE / 2
    others = -np.inf
    for k in range(n):
        if k != me:
            others = max(others, worth(st, k, prm))
    return worth(st, me, prm) - others


@jit
def reroll_value(st, me, prm):  # type: ignore[no-untyped-def]
    """policy.reroll_value: each face's best action (not a further reroll), weighted by the
    face's chance (its printed count over the die's); a race face scores the position as it is."""
    base = st.copy()
    reroll(base)
    here = value(base, me, prm)
    acts = np.zeros(32, dtype=np.int64)  # layout.MAX_LEGAL
    trial = np.zeros(STATE_LEN, dtype=np.int64)
    total = 0.0
    for f in range(prm[P_FACES]):
        p = prm[P_COUNT + f] / prm[P_DIE]
        if prm[P_RACE + f]:
            total += p * here
            continue
        best = -np.inf
        for j in range(choices(base, f, prm, acts)):
            if acts[j] == REROLL:
                continue
            copy(trial, base)
            finish(trial, acts[j], prm)
            v = value(trial, me, prm)
            if v > best:
                best = v
        total += p * best
    return total


@inline
def _greedy(st, me, legal, cnt, target, prm, trial):  # type: ignore[no-untyped-def]
    """policy.greedy_action for ``me`` among ``legal[:cnt]``: each action tried on ``trial`` (a
    scratch state vector), the first best kept. ``target``: the choices are Howling Wolf's
    targets (``WOLF0 + k``), else the roller's actions (which end the turn). Inlined into the
    greedy games' loop (:func:`.play.turn_plain`); :func:`greedy` is the call the other
    kernels make."""
    best_a = legal[0]
    best_v = -np.inf
    for j in range(cnt):
        a = legal[j]
        if a == REROLL:
            v = reroll_value(st, me, prm)
        else:
            copy(trial, st)
            if target:
                race_take(trial, a - WOLF0, prm)
            else:
                _finish(trial, a, prm)
            v = value(trial, me, prm)
        if v > best_v + 1e-9:
            best_a = a
            best_v = v
    return best_a


@bare
def greedy(st, me, legal, cnt, target, prm, trial):  # type: ignore[no-untyped-def]
    """:func:`_greedy`, called."""
    return _greedy(st, me, legal, cnt, target, prm, trial)
