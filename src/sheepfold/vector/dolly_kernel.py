"""The compiled hot loop of :class:`sheepfold.vector.dolly.DollyBatch`: many Dolly Crush games
stepped at once, one call per batch step.

The rules are the grid kernel's (:mod:`sheepfold.games.dolly_crush.kernel.grid`: any board, every
part of the rule language): a turn's end is its ``take`` and ``settle_noted`` (the refill with
Dolly Crush ruling 6's clean-up, or cascades; gravity), the greedy seat its ``greedy_turn`` (the
``greedy`` = ``medium`` bot's turn: with exact swaps on the rulebook's lines and swaps the
packed kernel's, :func:`sheepfold.games.dolly_crush.kernel.policy.greedy_turn`, about 3x faster,
the grid kernel's else; :func:`sheepfold.vector.dolly.packed_search` says which). This module only adds what
a game needs around them to stop at each decision: the phase, the dog cards, the turn order and
the end of the game (Dolly Crush ruling 8 and the house rules ``rounds`` and ``end_points``), as
:mod:`sheepfold.games.dolly_crush.game` has them.

Per env (row ``i`` of each array of the ``state`` tuple):

* ``st[i]``: phase (the engine's numbers: ``DOG``, ``SWAP``, ``OVER``; a batch never stands at a
  draw), seat to play, turns played, dog card in play (-1), swaps left, cards in the deck, the
  learner's seat (-1: the caller plays every seat), the seat that decided last, whether the
  clean-up gave up;
* ``fl[i]`` the flock (int8 card ids, -1 empty), ``dk[i, :st[DECK]]`` the deck (top card last),
  ``rng[i]`` its splitmix64 state (the deck's shuffles and the random seat's choices);
* ``dogs[i, s]`` the dog cards seat ``s`` has spent (bit ``d``), ``coll[i, s, k]`` its collected
  cards of kind ``k``, ``score[i, s]`` its points (the cards' and the bonuses by length);
* ``codes[i, s]``: who plays seat ``s``: :data:`EXTERNAL` (the caller) or :data:`RANDOM` /
  :data:`GREEDY` (played inside);
* ``trace[i, :tlen[i]]`` (``record=True``): the engine's actions of the game, chance outcomes
  (the card drawn) and decisions, in the engine's order.

The observation is :class:`~sheepfold.games.dolly_crush.observation.DollyEncoder`'s, written from
these arrays (its offsets and constants are taken from the encoder object itself, in ``lay``,
``cell_at``, ``hole_at``, ``inv`` and ``flt``; ``tests/test_vector_dolly.py`` checks the two
agree value for value).
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.dolly_crush.kernel.grid import SEARCH_WORK, greedy_turn, settle_noted, take
from sheepfold.games.dolly_crush.kernel.lines import jit
from sheepfold.games.dolly_crush.kernel.policy import greedy_turn as packed_greedy_turn
from sheepfold.games.dolly_crush.kernel.refill import next_random, shuffle
from sheepfold.vector.batch_kernel import note, sample_actions  # noqa: F401 (the batch calls it)

#: a seat played by the caller; the policies played inside
EXTERNAL, RANDOM, GREEDY = -1, 0, 1
# the engine's phases (games/dolly_crush/game.py)
DOG, SWAP, OVER = 1, 2, 3
# st columns
PH, TURN, TURNS, DOG_IN_PLAY, LEFT, DECK, LEARNER, LAST, ABORTED = range(9)
ST_LEN = 9
# prm: the rule set's numbers
P_N, P_DOGS, P_SWAP0, P_STOP, P_MAXT, P_TARGET, P_CLEANUP, P_CASCADES = range(8)
P_CELLS, P_KINDS, P_TOTAL, P_MAXSW, P_PACKED = range(8, 13)
PRM_LEN = 13
# lay: the observation's piece offsets (DollyEncoder's order; rounds -1 when absent), its size
O_SEAT, O_PHASE, O_TURN, O_FLOCK, O_DECK, O_RETURNING, O_COLLECTED = range(7)
O_DOGS_LEFT, O_DOG_SWAPS, O_DOG, O_SWAPS_LEFT, O_SCORES, O_ROUNDS, O_SIZE = range(7, 14)
# flt: the encoder's float constants
F_INV_POINTS, F_INV_TURNS, F_MAX_SWAPS = range(3)
# cfg: the batch's switches
C_AUTORESET, C_RANDOM_SEAT, C_SEAT = range(3)
# the error codes of check_actions
ERR_OVER, ERR_ILLEGAL = 1, 2
#: a new game that ends before the caller's first decision (at its deal: a deck too small, a
#: clean-up that gives up) is dealt again, at most this often
DEALS = 16


@jit
def env_key(seed, env, game):  # type: ignore[no-untyped-def]
    """The random state of game ``game`` of env ``env`` in a batch reset with ``seed``."""
    r = np.empty(1, dtype=np.uint64)
    r[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(env) * np.uint64(
        0xD6E8FEB86659FD93
    )
    next_random(r)
    r[0] ^= np.uint64(game) * np.uint64(0xBF58476D1CE4E5B9)
    return next_random(r)


@jit
def to_move(st, i):  # type: ignore[no-untyped-def]
    """The seat that decides in env ``i`` (-1 once its game is over)."""
    return -1 if st[i, PH] == OVER else st[i, TURN]


@jit
def legal(i, state, kit, out):  # type: ignore[no-untyped-def]
    """The legal actions of env ``i``'s decision, ascending, into ``out``; how many."""
    st, fl, dogs = state[0], state[1], state[4]
    prm, geo = kit[0], kit[1]
    p = st[i, PH]
    m = 0
    if p == DOG:
        played = dogs[i, st[i, TURN]]
        for d in range(prm[P_DOGS]):
            if not (played >> d) & 1:
                out[m] = d
                m += 1
    elif p == SWAP:
        sa, sb = geo[2], geo[3]
        f = fl[i]
        for j in range(sa.shape[0]):
            if f[sa[j]] >= 0 and f[sb[j]] >= 0:
                out[m] = prm[P_SWAP0] + j
                m += 1
        if prm[P_STOP] >= 0:
            out[m] = prm[P_STOP]
            m += 1
    return m


@jit
def _counts(i, state, kit, out):  # type: ignore[no-untyped-def]
    """The cards of each kind in env ``i``'s flock and deck, into ``out``."""
    st, fl, dk = state[0], state[1], state[2]
    out[:] = 0
    for c in range(fl.shape[1]):
        if fl[i, c] >= 0:
            out[fl[i, c]] += 1
    for j in range(st[i, DECK]):
        out[dk[i, j]] += 1


@jit
def _end_turn(i, state, kit):  # type: ignore[no-untyped-def]
    """After the last swap: the take (Dolly Crush ruling 5), the refill (Dolly Crush ruling 6: clean-up, or
    the house rule's cascades), then the end of the game (Dolly Crush ruling 8, rounds, end points) or the
    next seat's turn (its dog cards back when the game is played in rounds)."""
    st, fl, dk, rng, dogs, coll, score = state[:7]
    trace, tlen = state[8], state[9]
    prm, geo = kit[0], kit[1]
    me = st[i, TURN]
    kinds = prm[P_KINDS]
    before = np.empty(kinds, dtype=np.int64)
    after = np.empty(kinds, dtype=np.int64)
    _counts(i, state, kit, before)
    hit = np.zeros(fl.shape[1], dtype=np.bool_)
    f = fl[i]
    v = take(f, geo, hit)
    n, aborted, gained, at = settle_noted(
        f,
        dk[i],
        st[i, DECK],
        prm[P_CLEANUP],
        rng[i : i + 1],
        prm[P_CASCADES] != 0,
        geo,
        hit,
        trace[i],
        tlen[i],
    )
    if trace.shape[1] > 0:
        tlen[i] = at
    st[i, DECK] = n
    _counts(i, state, kit, after)
    for k in range(kinds):
        coll[i, me, k] += before[k] - after[k]  # the take and the cascades: all the player's
    score[i, me] += v + gained
    if aborted:
        st[i, ABORTED] = 1
        st[i, PH] = OVER
        return
    st[i, TURNS] += 1
    N = prm[P_N]
    every = (1 << prm[P_DOGS]) - 1
    over = n == 0
    if prm[P_MAXT] == 0:
        spent = True
        for s in range(N):
            if dogs[i, s] != every:
                spent = False
        over = over or spent
    elif st[i, TURNS] >= prm[P_MAXT]:
        over = True
    if prm[P_TARGET] >= 0:
        for s in range(N):
            if score[i, s] >= prm[P_TARGET]:
                over = True
    if over:
        st[i, PH] = OVER
        return
    t = (me + 1) % N
    st[i, TURN] = t
    st[i, DOG_IN_PLAY] = -1
    st[i, PH] = DOG
    if prm[P_MAXT] > 0 and dogs[i, t] == every:
        dogs[i, t] = 0  # rounds: the dog cards come back


@jit
def play(i, a, state, kit):  # type: ignore[no-untyped-def]
    """Env ``i``'s seat to move plays action ``a`` (legal: checked by the caller)."""
    st, fl, dogs = state[0], state[1], state[4]
    trace, tlen = state[8], state[9]
    prm, geo, dog_swaps = kit[0], kit[1], kit[2]
    note(trace, tlen, i, a)
    me = st[i, TURN]
    st[i, LAST] = me
    if st[i, PH] == DOG:
        st[i, DOG_IN_PLAY] = a
        dogs[i, me] |= 1 << a
        st[i, LEFT] = dog_swaps[me, a]
        st[i, PH] = SWAP
        if st[i, LEFT] == 0:
            _end_turn(i, state, kit)
    elif a == prm[P_STOP]:
        _end_turn(i, state, kit)
    else:
        j = a - prm[P_SWAP0]
        f = fl[i]
        ca, cb = geo[2][j], geo[3][j]
        t = f[ca]
        f[ca] = f[cb]
        f[cb] = t
        st[i, LEFT] -= 1
        if st[i, LEFT] == 0:
            _end_turn(i, state, kit)


@jit
def packed(f):  # type: ignore[no-untyped-def]
    """The flock ``f`` (int8 card ids, -1 empty, the rulebook's 15 cells) as the packed
    kernel's uint64 (:func:`sheepfold.games.dolly_crush.kernel.layout.pack`)."""
    x = np.uint64(0)
    for c in range(f.shape[0]):
        x |= np.uint64(f[c] + 1) << np.uint64(4 * c)
    return x


@jit
def _greedy(i, state, kit):  # type: ignore[no-untyped-def]
    """The greedy seat's whole turn (at its dog decision): the card of the most points (ties:
    fewer swaps, then the lowest card), the first best sequence, ``stop`` under up-to swaps
    when it makes fewer swaps than the card allows (the lab's fast path, ``medium``). The
    search is the packed kernel's where the rule set allows it (``P_PACKED``: exact swaps on the
    rulebook's lines and swaps; its tables in ``kit[9]``), the grid kernel's else."""
    st, fl, dogs = state[0], state[1], state[4]
    prm, geo, dog_swaps = kit[0], kit[1], kit[2]
    me = st[i, TURN]
    played = dogs[i, me]
    hand = np.zeros(prm[P_MAXSW] + 1, dtype=np.int64)
    for d in range(prm[P_DOGS]):
        if not (played >> d) & 1:
            hand[dog_swaps[me, d]] += 1
    seq = np.zeros(max(1, prm[P_MAXSW]), dtype=np.int64)
    if prm[P_PACKED]:
        _, _, n = packed_greedy_turn(packed(fl[i]), hand, seq, kit[9])
        k = n
    else:
        f = fl[i].copy()
        _, n, k = greedy_turn(f, hand, prm[P_STOP] >= 0, SEARCH_WORK, seq, f.copy(), geo)
    dog = 0
    for d in range(prm[P_DOGS] - 1, -1, -1):
        if not (played >> d) & 1 and dog_swaps[me, d] == n:
            dog = d
    play(i, dog, state, kit)
    for s in range(k):
        play(i, prm[P_SWAP0] + seq[s], state, kit)
    if prm[P_STOP] >= 0 and 0 < n and k < n:
        play(i, prm[P_STOP], state, kit)


@jit
def advance(i, state, kit):  # type: ignore[no-untyped-def]
    """The seats played inside play until the caller's seat decides or the game is over."""
    st, rng, codes = state[0], state[3], state[7]
    buf = np.empty(kit[0][P_SWAP0] + kit[1][2].shape[0] + 1, dtype=np.int64)
    while st[i, PH] != OVER:
        code = codes[i, st[i, TURN]]
        if code == EXTERNAL:
            return
        if code == GREEDY and st[i, PH] == DOG:
            _greedy(i, state, kit)
        else:
            m = legal(i, state, kit, buf)
            j = np.int64(next_random(rng[i : i + 1]) % np.uint64(m))
            play(i, buf[j], state, kit)


@jit
def new_game(i, key, state, kit, cfg, opp):  # type: ignore[no-untyped-def]
    """Env ``i`` starts a game: the deck shuffled from ``key``, the flock dealt
    (Dolly Crush ruling 1, with Dolly Crush ruling 6's clean-up), the learner's seat drawn when it is random, the seats
    played inside play up to the caller's decision."""
    st, fl, dk, rng, dogs, coll, score, codes, trace, tlen = state
    prm, geo, comp = kit[0], kit[1], kit[3]
    N = prm[P_N]
    rng[i] = key
    st[i, :] = 0
    st[i, DOG_IN_PLAY] = -1
    st[i, LAST] = -1
    dogs[i, :] = 0
    coll[i, :, :] = 0
    score[i, :] = 0
    if trace.shape[1] > 0:
        tlen[i] = 0
    learner = -1
    if opp.shape[0] > 0:
        if cfg[C_RANDOM_SEAT]:
            learner = np.int64(next_random(rng[i : i + 1]) % np.uint64(N))
        else:
            learner = cfg[C_SEAT]
        q = 0
        for s in range(N):
            if s == learner:
                codes[i, s] = EXTERNAL
            else:
                codes[i, s] = opp[q]
                q += 1
    st[i, LEARNER] = learner
    n = 0
    for k in range(comp.shape[0]):
        for _ in range(comp[k]):
            dk[i, n] = k
            n += 1
    shuffle(dk[i], n, rng[i : i + 1])
    fl[i, :] = -1
    hit = np.zeros(fl.shape[1], dtype=np.bool_)
    n, aborted, _, at = settle_noted(
        fl[i], dk[i], n, prm[P_CLEANUP], rng[i : i + 1], False, geo, hit, trace[i], 0
    )
    if trace.shape[1] > 0:
        tlen[i] = at
    st[i, DECK] = n
    st[i, TURN] = 0
    if aborted:
        st[i, ABORTED] = 1
        st[i, PH] = OVER
        return
    for c in range(fl.shape[1]):
        if fl[i, c] < 0:
            st[i, PH] = OVER  # a flock the deck cannot fill is never played (Dolly Crush ruling 8)
            return
    st[i, PH] = DOG
    advance(i, state, kit)


@jit
def _start(i, seed, games, state, kit, cfg, opp):  # type: ignore[no-untyped-def]
    """Env ``i``'s next game (dealt again while it ends at its deal, :data:`DEALS` times)."""
    for _ in range(DEALS):
        new_game(i, env_key(seed, i, games[i]), state, kit, cfg, opp)
        games[i] += 1
        if state[0][i, PH] != OVER:
            return


@jit
def reset_many(which, seed, games, state, kit, cfg, opp):  # type: ignore[no-untyped-def]
    for i in range(which.shape[0]):
        if which[i]:
            _start(i, seed, games, state, kit, cfg, opp)


@jit
def observer(st, i):  # type: ignore[no-untyped-def]
    """The seat env ``i``'s observation is for: the learner's, else the seat to move (once the
    game is over, the seat that decided last)."""
    if st[i, LEARNER] >= 0:
        return st[i, LEARNER]
    if st[i, PH] == OVER:
        return max(st[i, LAST], 0)
    return st[i, TURN]


@jit
def encode(i, seat, state, kit, out):  # type: ignore[no-untyped-def]
    """Env ``i`` seen from ``seat``: DollyEncoder's values, into the float32 row ``out`` (the
    counts summed one card at a time in float64, as the encoder does, so both agree bit for bit)."""
    st, fl, dk, _, dogs, coll, score = state[:7]
    prm, dog_swaps = kit[0], kit[2]
    lay, cell_at, hole_at, inv, flt = kit[4], kit[5], kit[6], kit[7], kit[8]
    N, D, K = prm[P_N], prm[P_DOGS], prm[P_KINDS]
    out[:] = 0.0
    out[lay[O_SEAT] + seat] = 1.0
    out[lay[O_PHASE] + st[i, PH]] = 1.0
    out[lay[O_TURN] + (st[i, TURN] - seat) % N] = 1.0
    base = lay[O_FLOCK]
    for c in range(fl.shape[1]):
        v = fl[i, c]
        if v >= 0:
            out[base + cell_at[c] + v] = 1.0
    for h in range(hole_at.shape[0]):
        out[base + hole_at[h]] = 1.0
    cnt = np.zeros(K, dtype=np.int64)
    for j in range(st[i, DECK]):
        cnt[dk[i, j]] += 1
    for k in range(K):
        acc = 0.0
        for _ in range(cnt[k]):
            acc += inv[k]
        out[lay[O_DECK] + k] = acc
    # returning: the clean-up's cards are always shuffled back before a decision (zeros)
    mx = flt[F_MAX_SWAPS]
    for p in range(N):
        r = (p - seat) % N
        for k in range(K):
            acc = 0.0
            for _ in range(coll[i, p, k]):
                acc += inv[k]
            out[lay[O_COLLECTED] + r * K + k] = acc
        out[lay[O_SCORES] + r] = min(score[i, p] * flt[F_INV_POINTS], 1.0)
        played = dogs[i, p]
        for d in range(D):
            if not (played >> d) & 1:
                out[lay[O_DOGS_LEFT] + r * D + d] = 1.0
            out[lay[O_DOG_SWAPS] + r * D + d] = min(dog_swaps[p, d], mx) / mx
    if st[i, DOG_IN_PLAY] >= 0:
        out[lay[O_DOG] + st[i, DOG_IN_PLAY]] = 1.0
    out[lay[O_SWAPS_LEFT]] = min(st[i, LEFT], mx) / mx
    if lay[O_ROUNDS] >= 0:
        out[lay[O_ROUNDS]] = min(st[i, TURNS] * flt[F_INV_TURNS], 1.0)


@jit
def observe_all(seats, state, kit, out):  # type: ignore[no-untyped-def]
    """Every env's observation from ``seats[i]`` (-1: :func:`observer`'s seat)."""
    st = state[0]
    for i in range(out.shape[0]):
        s = seats[i] if seats[i] >= 0 else observer(st, i)
        encode(i, s, state, kit, out[i])


@jit
def mask_row(i, state, kit, buf, row):  # type: ignore[no-untyped-def]
    row[:] = False
    m = legal(i, state, kit, buf)
    for j in range(m):
        row[buf[j]] = True


@jit
def masks_all(state, kit, out):  # type: ignore[no-untyped-def]
    buf = np.empty(out.shape[1], dtype=np.int64)
    for i in range(out.shape[0]):
        mask_row(i, state, kit, buf, out[i])


@jit
def check_actions(acts, skip, state, kit):  # type: ignore[no-untyped-def]
    """(the first env whose action is not legal, why: ERR_OVER or ERR_ILLEGAL); (-1, 0): all
    legal. Envs in ``skip`` are not checked."""
    st = state[0]
    buf = np.empty(kit[0][P_SWAP0] + kit[1][2].shape[0] + 1, dtype=np.int64)
    for i in range(acts.shape[0]):
        if skip[i]:
            continue
        if st[i, PH] == OVER:
            return i, ERR_OVER
        m = legal(i, state, kit, buf)
        ok = False
        for j in range(m):
            if buf[j] == acts[i]:
                ok = True
                break
        if not ok:
            return i, ERR_ILLEGAL
    return -1, 0


@jit
def shares(i, state, kit, rew):  # type: ignore[no-untyped-def]
    """Every seat's win share of env ``i``'s ended game (1/k for each of k tied best scores)."""
    score = state[6]
    N = kit[0][P_N]
    best = score[i, 0]
    for s in range(N):
        best = max(best, score[i, s])
    k = 0
    for s in range(N):
        if score[i, s] == best:
            k += 1
    for s in range(N):
        rew[i, s] = 1.0 / k if score[i, s] == best else 0.0


@jit
def step_many(acts, skip, seed, games, state, kit, cfg, opp, out):  # type: ignore[no-untyped-def]
    """Every env plays its action (checked legal) or, in ``skip``, starts its next game; the
    seats played inside follow. ``out`` = (obs, mask, rewards, terminated, final obs, ended):
    a game that ends gives its shares; with autoreset its last observation goes to ``final``
    and the next game starts."""
    obs, mask, rew, term, final, ended = out
    st = state[0]
    buf = np.empty(mask.shape[1], dtype=np.int64)
    for i in range(acts.shape[0]):
        if skip[i]:
            _start(i, seed, games, state, kit, cfg, opp)
        else:
            play(i, acts[i], state, kit)
            advance(i, state, kit)
            if st[i, PH] == OVER:
                term[i] = True
                shares(i, state, kit, rew)
                if cfg[C_AUTORESET]:
                    ended[i] = True
                    encode(i, observer(st, i), state, kit, final[i])
                    _start(i, seed, games, state, kit, cfg, opp)
        encode(i, observer(st, i), state, kit, obs[i])
        mask_row(i, state, kit, buf, mask[i])
