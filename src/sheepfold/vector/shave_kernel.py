"""The compiled hot loop of :class:`sheepfold.vector.shave.ShaveBatch`: many Shave a Sheep games
stepped at once, one call per batch step.

The rules are the kernel's (:mod:`sheepfold.games.shave_a_sheep.kernel.step`), the in-game
policies its random and greedy ones (:func:`~sheepfold.games.shave_a_sheep.kernel.play.decide`),
the random numbers its counter-based draws with the streams of
:func:`~sheepfold.games.shave_a_sheep.kernel.play.turn`: the roll of turn ``t`` is
``draw(key, 0, t)``, its grab ``draw(key, 1, t)``, the roll after reroll ``r``
``draw(key, 3, 4t + r)``; a seat played inside (random, greedy) decides with the same draws as
in the lab's fast games. This module only adds what a turn needs to stop at each decision: the
phase of every env.

Per env (row ``i`` of each array):

* ``st[i]``: the kernel's state vector (:mod:`~sheepfold.games.shave_a_sheep.kernel.layout`);
* ``ph[i]`` = (phase, face, grabber, last decider, learner seat): the engine's phase numbers
  (``CHOOSE``, ``HOWL_TARGET``, ``HOWL_GROW``, ``OVER``: a batch always stands at a decision or
  at the end), the face rolled and the seat that grabbed the wolf (-1: none), the seat that
  decided last (-1: none yet) and the seat the observations are for (-1: the seat to move);
* ``keys[i]`` (uint64) the game's random key, ``games[i]`` how many games the env started;
* ``codes[i, s]``: who plays seat ``s``: :data:`EXTERNAL` (the caller, through ``actions``) or
  a policy code of :mod:`~sheepfold.games.shave_a_sheep.kernel.play` (``RANDOM``, ``GREEDY``).

The observation is :class:`~sheepfold.games.shave_a_sheep.observation.ShaveEncoder`'s, written
from the state vector (its offsets and constants are passed in ``lay`` and ``fl``, taken from
the encoder object itself; ``tests/test_vector_shave.py`` checks the two agree value for value).
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.shave_a_sheep.kernel.index import decode, layer_of
from sheepfold.games.shave_a_sheep.kernel.layout import (
    MIDDLE,
    OVER,
    P_COL,
    P_FACES,
    P_GRAB,
    P_N,
    P_RACE,
    P_SKIP,
    PILE,
    REROLL,
    REROLLED,
    SHEEP,
    STATE_LEN,
    TRUNCATED,
    TURN,
    TURNS,
    WOLF,
    WOLF0,
    WOLF1,
)
from sheepfold.games.shave_a_sheep.kernel.play import _mix, decide, draw, game_key, uniform
from sheepfold.games.shave_a_sheep.kernel.step import (
    bare,
    choices,
    finish,
    grab,
    howl_choices,
    howl_targets,
    inline,
    jit,
    new_game,
    race_take,
    reroll,
    roll,
    share,
)
from sheepfold.vector.batch_kernel import note, sample_actions  # noqa: F401 (the batch calls it)

#: a seat played by the caller (its actions come in ``step``'s array)
EXTERNAL = -1
# the engine's phases (games/shave_a_sheep/game.py): a batch env is at one of these four
CHOOSE, HOWL_TARGET, HOWL_GROW, PH_OVER = 1, 3, 4, 5
# ph columns
PH, FACE, GRABBER, LAST, LEARNER = range(5)
PH_LEN = 5
# lay: the observation's piece offsets (ShaveEncoder's order), then its size
O_SEAT, O_PHASE, O_TURN, O_MOVE, O_MIDDLE, O_SHEEP, O_PILES, O_WOLF = range(8)
O_ROLL, O_VERBS, O_GRABBER, O_PROGRESS, O_SIZE, O_WOLF2 = range(8, 14)
# fl: the encoder's float constants
F_INV_WOOL, F_INV_MAX, F_INV_TURNS = range(3)
# cfg: the batch's switches
C_AUTORESET, C_RANDOM_SEAT, C_RECORD = range(3)
# the error codes of check_actions
ERR_OVER, ERR_ILLEGAL = 1, 2


@bare
def env_key(seed, env, game):  # type: ignore[no-untyped-def]
    """The random key of game ``game`` of env ``env`` in a batch reset with ``seed``."""
    k = game_key(seed) ^ (np.uint64(env) * np.uint64(0xD6E8FEB86659FD93))
    return _mix(k + np.uint64(game) * np.uint64(0x9E3779B97F4A7C15))


@inline
def to_move(st, ph):  # type: ignore[no-untyped-def]
    """The seat that decides now (-1 once the game is over)."""
    p = ph[PH]
    if p == HOWL_TARGET:
        return ph[GRABBER]
    if p == PH_OVER:
        return -1
    return st[TURN]


@inline
def legal(st, ph, prm, out):  # type: ignore[no-untyped-def]
    """The legal actions of the decision ``env`` stands at, ascending, into ``out``; how many."""
    p = ph[PH]
    if p == CHOOSE:
        return choices(st, ph[FACE], prm, out)
    if p == HOWL_TARGET:
        return howl_targets(ph[GRABBER], prm, out)
    if p == HOWL_GROW:
        return howl_choices(st, prm, out)
    return 0


@inline
def _face(st, ph, face, key, prm, trace, tlen, i):  # type: ignore[no-untyped-def]
    """The die shows ``face``: the roller chooses, or Howling Wolf's race is run (chance)."""
    note(trace, tlen, i, face)
    ph[FACE] = face
    if prm[P_RACE + face]:
        g = grab(draw(key, 1, st[TURNS]), prm)
        note(trace, tlen, i, g)
        ph[GRABBER] = g
        ph[PH] = HOWL_TARGET
    else:
        ph[PH] = CHOOSE


@inline
def _next_turn(st, ph, key, prm, trace, tlen, i):  # type: ignore[no-untyped-def]
    """After a turn's end: the game is over, or the next turn's roll."""
    ph[FACE] = -1
    ph[GRABBER] = -1
    if st[OVER]:
        ph[PH] = PH_OVER
        return
    _face(st, ph, roll(draw(key, 0, st[TURNS]), prm), key, prm, trace, tlen, i)


@inline
def apply(st, ph, a, key, prm, trace, tlen, i):  # type: ignore[no-untyped-def]
    """Decision ``a`` (legal, checked before) of the seat to move, and the chance after it."""
    note(trace, tlen, i, a)
    ph[LAST] = to_move(st, ph)
    p = ph[PH]
    if p == HOWL_TARGET:
        race_take(st, a - WOLF0, prm)
        ph[PH] = HOWL_GROW
        return
    if p == CHOOSE and a == REROLL:
        r = st[REROLLED]
        reroll(st)
        face = roll(draw(key, 3, 4 * st[TURNS] + r), prm)
        _face(st, ph, face, key, prm, trace, tlen, i)
        return
    finish(st, a, prm)
    _next_turn(st, ph, key, prm, trace, tlen, i)


@inline
def _inside(st, ph, key, seats, kit, trace, tlen, i):  # type: ignore[no-untyped-def]
    """The seats played inside the batch (``seats[0][s] != EXTERNAL``) decide until an
    external seat must or the game is over; with the draws of play.turn."""
    prm, buf = kit[0], kit[1]  # kit = (prm, legal buffer, trial state, lay, fl, verbs)
    codes = seats[0]
    while True:
        me = to_move(st, ph)
        if me < 0 or codes[me] == EXTERNAL:
            return
        c = legal(st, ph, prm, buf)
        t = st[TURNS]
        p = ph[PH]
        if p == HOWL_TARGET:
            u = uniform(key, 2, 4 * t + 1)
        elif p == HOWL_GROW:
            u = uniform(key, 2, 4 * t + 2)
        elif st[REROLLED] == 0:
            u = uniform(key, 2, 4 * t)
        else:
            u = uniform(key, 4, 4 * t + st[REROLLED])
        where = (-1, ph[FACE], 0)
        a = decide(st, me, c, u, where, p == HOWL_TARGET, seats, (prm, buf, kit[2]))
        apply(st, ph, a, key, prm, trace, tlen, i)


@inline
def _start(st, ph, key, prm, trace, tlen, i):  # type: ignore[no-untyped-def]
    """A new game in env ``i``: the set-up and the first roll."""
    new_game(st, prm)
    tlen[i] = 0
    ph[PH] = CHOOSE
    ph[LAST] = -1
    ph[FACE] = -1
    ph[GRABBER] = -1
    _face(st, ph, roll(draw(key, 0, 0), prm), key, prm, trace, tlen, i)


@inline
def _seat_codes(codes, learner, opp, n):  # type: ignore[no-untyped-def]
    """Seat codes with the learner at ``learner`` and ``opp`` on the other seats in order."""
    j = 0
    for s in range(n):
        if s == learner:
            codes[s] = EXTERNAL
        else:
            codes[s] = opp[j]
            j += 1


@inline
def reset_env(i, seed, env, games, keys, state, kit, cfg):  # type: ignore[no-untyped-def]
    """Start env ``i``'s next game (its number ``games[i]``) and play the inside seats."""
    st_all, ph_all, codes, opp, tab, trace, tlen = state
    prm = kit[0]
    key = env_key(seed, env, games[i])
    games[i] += 1
    keys[i] = key
    st = st_all[i]
    ph = ph_all[i]
    if cfg[C_RANDOM_SEAT]:
        ph[LEARNER] = draw(key, 5, 0) % prm[P_N]
        _seat_codes(codes[i], ph[LEARNER], opp, prm[P_N])
    _start(st, ph, key, prm, trace, tlen, i)
    _inside(st, ph, key, (codes[i], tab), kit, trace, tlen, i)


@bare
def reset_many(which, seed, games, keys, state, kit, cfg):  # type: ignore[no-untyped-def]
    """Start a new game in every env ``i`` with ``which[i]``."""
    for i in range(which.shape[0]):
        if which[i]:
            reset_env(i, seed, i, games, keys, state, kit, cfg)


@bare
def check_actions(actions, skip, state, kit):  # type: ignore[no-untyped-def]
    """The first env whose action cannot be played, and why (``ERR_OVER``, ``ERR_ILLEGAL``);
    (-1, 0) when every env not in ``skip`` can play its action."""
    st_all, ph_all = state[0], state[1]
    prm, buf = kit[0], kit[1]
    for i in range(actions.shape[0]):
        if skip[i]:
            continue
        if ph_all[i, PH] == PH_OVER:
            return i, ERR_OVER
        c = legal(st_all[i], ph_all[i], prm, buf)
        ok = False
        for j in range(c):
            if buf[j] == actions[i]:
                ok = True
        if not ok:
            return i, ERR_ILLEGAL
    return -1, 0


@bare
def step_many(actions, resets, seed, games, keys, state, kit, cfg, out):  # type: ignore[no-untyped-def]
    """One batch step: env ``i`` plays ``actions[i]`` (checked by :func:`check_actions`), or
    starts a new game if ``resets[i]``; then the inside seats play. A game that ends here
    writes its rewards, ``terminated``/``truncated`` and, with autoreset, its last
    observation into ``final`` and starts the next game. Then every env's observation and
    legal mask."""
    st_all, ph_all, codes, opp, tab, trace, tlen = state
    obs, mask, rew, term, trunc, final, ended = out
    prm = kit[0]
    n = prm[P_N]
    for i in range(actions.shape[0]):
        st = st_all[i]
        ph = ph_all[i]
        for s in range(n):
            rew[i, s] = 0.0
        term[i] = False
        trunc[i] = False
        ended[i] = False
        if resets[i]:
            reset_env(i, seed, i, games, keys, state, kit, cfg)
        else:
            key = keys[i]
            apply(st, ph, actions[i], key, prm, trace, tlen, i)
            _inside(st, ph, key, (codes[i], tab), kit, trace, tlen, i)
            if ph[PH] == PH_OVER:
                ended[i] = True
                _rewards(st, prm, rew[i])
                trunc[i] = st[TRUNCATED] == 1
                term[i] = not trunc[i]
                if cfg[C_AUTORESET]:
                    observe(st, ph, _observer(st, ph), kit, final[i])
                    reset_env(i, seed, i, games, keys, state, kit, cfg)
        observe(st, ph, _observer(st, ph), kit, obs[i])
        legal_mask(st, ph, kit, mask[i])


@inline
def _rewards(st, prm, out):  # type: ignore[no-untyped-def]
    """Every seat's win share (the engine's ``Outcome.shares``: 1/n each if truncated)."""
    n = prm[P_N]
    for s in range(n):
        out[s] = 1.0 / n if st[TRUNCATED] else share(st, s, prm)


@inline
def _observer(st, ph):  # type: ignore[no-untyped-def]
    """The seat an env's observation is for: its learner, else the seat to move, else (the
    game over) the seat that decided last (seat 0 if none did)."""
    if ph[LEARNER] >= 0:
        return ph[LEARNER]
    p = to_move(st, ph)
    if p >= 0:
        return p
    return ph[LAST] if ph[LAST] >= 0 else 0


@bare
def observe_all(seats, state, kit, obs):  # type: ignore[no-untyped-def]
    """Every env's observation from ``seats[i]`` (-1: the env's own observer)."""
    st_all, ph_all = state[0], state[1]
    for i in range(seats.shape[0]):
        s = seats[i] if seats[i] >= 0 else _observer(st_all[i], ph_all[i])
        observe(st_all[i], ph_all[i], s, kit, obs[i])


@bare
def masks_all(state, kit, mask):  # type: ignore[no-untyped-def]
    """Every env's legal-action mask."""
    st_all, ph_all = state[0], state[1]
    for i in range(mask.shape[0]):
        legal_mask(st_all[i], ph_all[i], kit, mask[i])


@inline
def legal_mask(st, ph, kit, row):  # type: ignore[no-untyped-def]
    prm, buf = kit[0], kit[1]
    for j in range(row.shape[0]):
        row[j] = False
    for j in range(legal(st, ph, prm, buf)):
        row[buf[j]] = True


@inline
def _rel(seat, other, n):  # type: ignore[no-untyped-def]
    return (other - seat + n) % n


@inline
def observe(st, ph, seat, kit, out):  # type: ignore[no-untyped-def]
    """ShaveEncoder's observation of the position (``st``, ``ph``) seen from ``seat``."""
    prm, lay, fl, verbs = kit[0], kit[3], kit[4], kit[5]
    n = prm[P_N]
    for j in range(out.shape[0]):
        out[j] = 0.0
    out[lay[O_SEAT] + seat] = 1.0
    out[lay[O_PHASE] + ph[PH]] = 1.0
    out[lay[O_TURN] + _rel(seat, st[TURN], n)] = 1.0
    p = to_move(st, ph)
    if p >= 0:
        out[lay[O_MOVE] + _rel(seat, p, n)] = 1.0
    out[lay[O_MIDDLE]] = min(1.0, st[MIDDLE] * fl[F_INV_WOOL])
    for q in range(n):
        r = _rel(seat, q, n)
        out[lay[O_SHEEP] + r] = st[SHEEP + q] * fl[F_INV_MAX]
        out[lay[O_PILES] + r] = min(1.0, st[PILE + q] * fl[F_INV_WOOL])
    w = st[WOLF]
    out[lay[O_WOLF] + (n if w == 0 else _rel(seat, w - 1, n))] = 1.0
    f = ph[FACE]
    if f >= 0:
        out[lay[O_ROLL] + f] = 1.0
        for v in range(verbs.shape[1]):
            if verbs[f, v]:
                out[lay[O_VERBS] + v] = 1.0
    if ph[GRABBER] >= 0:
        out[lay[O_GRABBER] + _rel(seat, ph[GRABBER], n)] = 1.0
    out[lay[O_PROGRESS]] = min(1.0, st[TURNS] * fl[F_INV_TURNS])
    if lay[O_WOLF2] >= 0:  # a second wolf piece (-1: none in the rules)
        w2 = st[WOLF1]
        out[lay[O_WOLF2] + (n if w2 == 0 else _rel(seat, w2 - 1, n))] = 1.0


# -- the solver's decision points, observed (sheepfold.analysis) --------------------------------
@inline
def _cell(j, out, x, col, seat, target, st, ph, kit):  # type: ignore[no-untyped-def]
    """Row ``j`` of ``out`` = (cells, obs, masks): the decision of ``seat`` at (``st``, ``ph``),
    table cell (``x``, ``col``), ``target``: Howling Wolf's grabber picks a seat."""
    cells, obs, masks = out
    if j < cells.shape[0]:
        cells[j, 0] = x
        cells[j, 1] = col
        cells[j, 2] = seat
        cells[j, 3] = target
        observe(st, ph, seat, kit, obs[j])
        legal_mask(st, ph, kit, masks[j])
    return j + 1


@jit
def decisions(x0, x1, ix, kit, out):  # type: ignore[no-untyped-def]
    """Every decision of the solver's table (kernel.layout.columns) at positions ``x0 .. x1``
    of the position index ``ix`` (turn starts, turn counter 0), for every seat: its cell, the
    seat, its observation and legal mask into ``out`` (while it has rows; ``out`` with no rows
    counts them). Returns how many there are."""
    prm = kit[0]
    n = prm[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st2 = np.zeros(STATE_LEN, dtype=np.int64)
    ph = np.full(PH_LEN, -1, dtype=np.int64)
    j = 0
    for x in range(x0, x1):
        decode(x, layer_of(x, ix), prm, ix, st)
        t = st[TURN]
        if (
            st[SHEEP + t] >= prm[P_SKIP]
        ):  # not a turn start: its turn-start trigger (the auto-shear) came first
            continue
        for f in range(prm[P_FACES]):
            col = prm[P_COL + f]
            ph[FACE] = f
            if not prm[P_RACE + f]:
                ph[PH] = CHOOSE
                ph[GRABBER] = -1
                j = _cell(j, out, x, col, t, 0, st, ph, kit)
                continue
            for g in range(n):
                if prm[P_GRAB + g] < 0:  # never grabs
                    continue
                ph[PH] = HOWL_TARGET
                ph[GRABBER] = g
                j = _cell(j, out, x, col + 1 + g, g, 1, st, ph, kit)
                ph[PH] = HOWL_GROW
                for k in range(n):
                    if k == g:
                        continue
                    for i in range(STATE_LEN):
                        st2[i] = st[i]
                    race_take(st2, k, prm)
                    j = _cell(j, out, x, col + 1 + n + g * n + k, t, 0, st2, ph, kit)
    return j
