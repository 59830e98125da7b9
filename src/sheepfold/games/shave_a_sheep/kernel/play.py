"""Whole turns and games, compiled: the kernels' rules (:mod:`.step`) played by per-seat
policies, with counter-based random numbers. Used by the lab's fast simulator, the solver's
simulations and the benchmark.

Policies (one code per seat): ``RANDOM`` (uniform over the legal actions), ``GREEDY``
(:func:`.policy.greedy`) and ``TABLE`` (the decision a solved policy table names: ``tab`` is
``int8 (tables, positions, columns)``, one table for every seat or one per seat; the columns
are :func:`.layout.columns`': slot 0 of a normal face is the roller's action, on Howling Wolf's
race slot ``1 + g`` the seat grabber ``g`` sends the wolf to and slot ``1 + n + g * n + k`` the
roller's GROW or PASS after ``g`` took a piece of seat ``k``'s sheep).

Randomness is counter-based (splitmix64 of the game's key, a stream and a counter), so the die of
turn ``t`` of game ``seed`` is the same whatever the rules or the policies: two rule sets
compared on the same seeds roll the same dice (common random numbers). Streams: 0 the roll of
turn ``t``, 1 its grab, 2 the decisions (counters ``4t``, ``4t + 1``, ``4t + 2``); with the house
rule rerolls, 3 the roll after the turn's reroll ``r`` (counter ``4t + r``) and 4 the decision on
that roll (counter ``4t + r + 1``).
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.shave_a_sheep.kernel.index import encode
from sheepfold.games.shave_a_sheep.kernel.layout import (
    MAX_LEGAL,
    OVER,
    P_COL,
    P_N,
    P_RACE,
    REROLL,
    REROLLED,
    STATE_LEN,
    TURN,
    TURNS,
    WOLF0,
)
from sheepfold.games.shave_a_sheep.kernel.policy import _greedy, greedy
from sheepfold.games.shave_a_sheep.kernel.step import (
    _choices,
    _finish,
    _howl_choices,
    _race_take,
    bare,
    grab,
    howl_choices,
    howl_targets,
    inline,
    jit,
    new_game,
    race_take,
    reroll,
    roll,
)

RANDOM, GREEDY, TABLE = 0, 1, 2
#: the trace entries of a turn at most: the roll, the grab, the target, the roller's action,
#: and per reroll (3 at most) the REROLL and the new roll
TRACE_PER_TURN = 4 + 2 * 3


@inline
def _mix(x):  # type: ignore[no-untyped-def]
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@bare
def game_key(seed):  # type: ignore[no-untyped-def]
    """The random key of game ``seed``."""
    return _mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019))


@inline
def draw(key, stream, counter):  # type: ignore[no-untyped-def]
    """53 random bits (an int in [0, 2**53)) for (game key, stream, counter)."""
    x = _mix(key + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03) + np.uint64(counter))
    return np.int64(x >> np.uint64(11))


@inline
def uniform(key, stream, counter):  # type: ignore[no-untyped-def]
    """A uniform double in [0, 1) for (game key, stream, counter)."""
    return np.float64(draw(key, stream, counter)) * (1.0 / 9007199254740992.0)


@inline
def pick(u, legal, cnt):  # type: ignore[no-untyped-def]
    """The random policy's choice: the legal action a uniform draw ``u`` lands on."""
    i = int(u * cnt)
    return legal[i if i < cnt else cnt - 1]


@inline
def decide(st, me, cnt, u, where, target, seats, kit):  # type: ignore[no-untyped-def]
    """The action seat ``me`` plays among ``legal[:cnt]``: its policy's (``seats`` = (policy
    codes, tables)). ``u``: its random draw; ``where`` = (position index, face, table slot);
    ``target``: the choices are Howling Wolf's targets (a table names the seat); ``kit`` =
    (prm, legal actions, trial state vector)."""
    prm, legal, trial = kit
    pols, tab = seats
    if cnt == 1:
        return legal[0]
    if pols[me] == RANDOM:
        return pick(u, legal, cnt)
    if pols[me] == TABLE:
        x, face, slot = where
        a = np.int64(tab[0 if tab.shape[0] == 1 else me, x, prm[P_COL + face] + slot])
        return WOLF0 + a if target else a
    return greedy(st, me, legal, cnt, target, prm, trial)


@bare
def turn(st, key, seats, prm, x, scratch, trace, tlen):  # type: ignore[no-untyped-def]
    """Play the turn of ``st`` (a turn start; ``x`` its position index when a seat plays a
    table, else -1) to its end. ``seats`` = (policy codes, tables); ``scratch`` = (legal
    actions, trial state vector). The engine's actions (chance outcomes and decisions) are
    appended to ``trace`` from ``tlen`` while it has room; returns the new trace length."""
    legal = scratch[0]
    kit = (prm, legal, scratch[1])
    n = prm[P_N]
    t = st[TURNS]
    face = roll(draw(key, 0, t), prm)
    me = st[TURN]
    while True:  # a roll, and each reroll's (house rule rerolls)
        tlen = _note(trace, tlen, face)
        if prm[P_RACE + face]:
            g = grab(draw(key, 1, t), prm)
            tlen = _note(trace, tlen, g)
            c = howl_targets(g, prm, legal)
            u = uniform(key, 2, 4 * t + 1)
            k = decide(st, g, c, u, (x, face, 1 + g), True, seats, kit) - WOLF0
            tlen = _note(trace, tlen, WOLF0 + k)
            race_take(st, k, prm)
            c = howl_choices(st, prm, legal)
            where = (x, face, 1 + n + g * n + k)
            a = decide(st, me, c, uniform(key, 2, 4 * t + 2), where, False, seats, kit)
            break
        c = _choices(st, face, prm, legal)
        r = st[REROLLED]
        u = uniform(key, 2, 4 * t) if r == 0 else uniform(key, 4, 4 * t + r)
        a = decide(st, me, c, u, (x, face, 0), False, seats, kit)
        if a != REROLL:
            break
        tlen = _note(trace, tlen, a)
        reroll(st)
        face = roll(draw(key, 3, 4 * t + r), prm)
    tlen = _note(trace, tlen, a)
    _finish(st, a, prm)
    return tlen


@inline
def _note(trace, tlen, a):  # type: ignore[no-untyped-def]
    if tlen < trace.shape[0]:
        trace[tlen] = a
        return tlen + 1
    return tlen


@jit
def play(seed, st, seats, prm, ix, scratch):  # type: ignore[no-untyped-def]
    """Play game ``seed`` from the set-up to its end in ``st`` (see :func:`turn`; ``ix``: the
    position index, read when a seat plays a table); returns the turns started."""
    new_game(st, prm)
    key = game_key(seed)
    notrace = np.zeros(0, dtype=np.int64)
    started = 0
    tables = seats[1].shape[0] > 0
    while st[OVER] == 0:
        started += 1
        x = encode(st, prm, ix) if tables else -1
        turn(st, key, seats, prm, x, scratch, notrace, 0)
    return started


@inline
def choose(st, me, u, cnt, target, prm, legal, trial, policy):  # type: ignore[no-untyped-def]
    """:func:`decide` for one policy on every seat (``policy``: RANDOM or GREEDY, a constant
    where :func:`turn_plain` is inlined, so the other policy's code is folded away)."""
    if cnt == 1:
        return legal[0]
    if policy == RANDOM:
        return pick(u, legal, cnt)
    return _greedy(st, me, legal, cnt, target, prm, trial)


@inline
def turn_plain(st, key, prm, legal, trial, policy):  # type: ignore[no-untyped-def]
    """:func:`turn` with one policy on every seat (the same draws, the same turn: ``policy``
    RANDOM or GREEDY, ``trial`` the greedy policy's scratch state), with no tables, records or
    tuples: the random and greedy baselines' hot loop (numba counts references to the arrays
    a record holds, which costs more than the rules, and a call of :func:`turn` passes every
    array of it: as calls, the greedy games spent a sixth of their time passing them). The
    rules' bodies are inlined here (elsewhere :func:`.step.choices` and the others are calls)
    and this loop into its callers: calls from here made the random games 1.6x slower
    (docs/engine.md, "Compile time")."""
    t = st[TURNS]
    face = roll(draw(key, 0, t), prm)
    me = st[TURN]
    while True:  # a roll, and each reroll's (house rule rerolls)
        if prm[P_RACE + face]:
            g = grab(draw(key, 1, t), prm)
            c = howl_targets(g, prm, legal)
            k = choose(st, g, uniform(key, 2, 4 * t + 1), c, True, prm, legal, trial, policy)
            _race_take(st, k - WOLF0, prm)
            c = _howl_choices(st, prm, legal)
            u = uniform(key, 2, 4 * t + 2)
            a = choose(st, me, u, c, False, prm, legal, trial, policy)
            break
        c = _choices(st, face, prm, legal)
        r = st[REROLLED]
        u = uniform(key, 2, 4 * t) if r == 0 else uniform(key, 4, 4 * t + r)
        a = choose(st, me, u, c, False, prm, legal, trial, policy)
        if a != REROLL:
            break
        reroll(st)
        face = roll(draw(key, 3, 4 * t + r), prm)
    _finish(st, a, prm)


@inline
def _game_plain(seed, st, prm, legal, trial, policy):  # type: ignore[no-untyped-def]
    """Game ``seed`` from the set-up to its end, :func:`turn_plain` by turn (``policy`` a
    constant of each caller below); returns the turns started."""
    new_game(st, prm)
    key = game_key(seed)
    started = 0
    while st[OVER] == 0:
        started += 1
        turn_plain(st, key, prm, legal, trial, policy)
    return started


@bare
def play_random(seed, st, prm, legal):  # type: ignore[no-untyped-def]
    """:func:`play` with a random policy on every seat (:func:`turn_plain`; no trial state:
    random tries no action); returns the turns started."""
    return _game_plain(seed, st, prm, legal, legal, RANDOM)


@bare
def play_greedy(seed, st, prm, legal, trial):  # type: ignore[no-untyped-def]
    """:func:`play` with the greedy policy on every seat (:func:`turn_plain`; ``trial``: its
    scratch state); returns the turns started."""
    return _game_plain(seed, st, prm, legal, trial, GREEDY)


@bare
def all_play(pols, n, policy):  # type: ignore[no-untyped-def]
    """Whether every one of the ``n`` seats plays ``policy``."""
    for s in range(n):
        if pols[s] != policy:
            return False
    return True


@jit
def scratch():  # type: ignore[no-untyped-def]
    """Fresh scratch buffers for :func:`turn` and :func:`play`: (legal actions, trial state)."""
    return np.zeros(MAX_LEGAL, dtype=np.int64), np.zeros(STATE_LEN, dtype=np.int64)
