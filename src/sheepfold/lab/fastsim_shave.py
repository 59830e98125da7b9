"""A fast simulator for Shave a Sheep: many games at once, compiled with numba.

Same rules as the engine (``games/shave_a_sheep/game.py``: every variant, custom dice, the cap,
truncation), rewritten over a small int vector so that a whole game runs in compiled code. The
policies are

- ``random``: a uniformly random legal action, from the engine's sorted legal-action list;
- ``greedy``: exactly ``games/shave_a_sheep/policy.py``'s Shave a Sheep heuristic (every legal action tried
  on a copy, the same value function, the same tie-break: the first best in sorted order);
- ``perfect``: the action the exact solver's policy table names (when the solver is installed).

Randomness is counter-based (splitmix64 of the game's seed, a stream and a counter), so the die
of turn ``t`` of the game seeded ``s`` is the same whatever the rules or the policies: two rule
sets compared on the same seeds roll the same dice (common random numbers). The fast simulator
does not share the engine's random streams, so its game ``s`` is not the engine's game ``s``;
:func:`trace` gives the engine actions of any of its games, :func:`engine_state` plays them
through the engine (that is how a row becomes a record, and how the tests check the rules).

State vector (int64): 0 middle, 1 turn (seat), 2 turns done, 3 wolf seat (-1: middle),
4 over, 5 truncated, 6..9 wool on each sheep, 10..13 safe piles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

import sheepfold.lab  # noqa: F401  (NUMBA_CACHE_DIR)

# engine action ids (games/shave_a_sheep/game.py)
GROW, DOUBLE, SHEAR, SWAP0, WOLF0, RAID, PASS = 0, 1, 2, 3, 7, 11, 12
# face bits
B_GROW, B_DOUBLE, B_SWAP, B_WOLF, B_SHEAR = 1, 2, 4, 8, 16
_BITS = {"grow": B_GROW, "double": B_DOUBLE, "swap": B_SWAP, "wolf": B_WOLF, "shear": B_SHEAR}
# policies
RANDOM, GREEDY, PERFECT = 0, 1, 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "perfect": PERFECT}
# param vector
P_N, P_WOOL, P_MAXW, P_CUT, P_MODE, P_MAXT, P_NFACES = range(7)
MODE_STD, MODE_HOWL, MODE_MRWOLF = 0, 1, 2
# greedy constants: the heuristic's own (games/shave_a_sheep/policy.py), so the two never drift apart
from sheepfold.games.shave_a_sheep import policy as _greedy  # noqa: E402

SHEEP_WOOL_VALUE = float(_greedy.SHEEP_WOOL_VALUE)
FULL_SHEEP_VALUE = float(_greedy.FULL_SHEEP_VALUE)
WIN_VALUE = float(_greedy.WIN_VALUE)

S_MID, S_TURN, S_TURNS, S_WOLF, S_OVER, S_TRUNC, S_SHEEP, S_PILE = 0, 1, 2, 3, 4, 5, 6, 10
STATE_LEN = 14

_jit: Any = njit(cache=True, nogil=True)  # one decorator for every compiled function
_jit_inline: Any = njit(cache=True, nogil=True, inline="always")  # small hot helpers


@dataclass(frozen=True)
class Params:
    """A rule set compiled to arrays for the simulator."""

    p: np.ndarray  # int64 params
    face_mask: np.ndarray  # int64 per distinct face
    face_cum: np.ndarray  # float64 cumulative face probabilities
    face_race: np.ndarray  # int64: Howling Wolf race on this face
    grab_cum: np.ndarray  # float64 cumulative grab probabilities (per seat)


def params_for(game: Any) -> Params:
    """Arrays for an engine :class:`ShaveGame` (its rules and player count)."""
    r = game.rules
    n = game.num_players
    mode = MODE_HOWL if r.howling_wolf else (MODE_MRWOLF if r.mr_wolf else MODE_STD)
    p = np.array(
        [n, r.wool, r.max_wool, int(r.cutting_costs), mode, r.max_turns or 0, len(game.faces)],
        dtype=np.int64,
    )
    mask = np.array([sum(_BITS[a] for a in acts) for acts in game.face_actions], dtype=np.int64)
    # the engine accumulates probabilities one by one: do exactly the same
    cum = np.zeros(len(game.faces))
    acc = 0.0
    for i, pr in enumerate(game.face_probs):
        acc += pr
        cum[i] = acc
    race = np.array([int(x) for x in game.face_races], dtype=np.int64)
    gcum = np.zeros(n)
    acc = 0.0
    for s, w in enumerate(game.grab_probs):
        if w > 0:
            acc += w
        gcum[s] = acc if w > 0 else -1.0  # a seat with weight 0 never grabs
    return Params(p, mask, cum, race, gcum)


# -- random numbers ------------------------------------------------------------------------------
@_jit_inline
def _mix(x):  # type: ignore[no-untyped-def]
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@_jit_inline
def _u(key, stream, counter):  # type: ignore[no-untyped-def]
    """A uniform double in [0, 1) for (game key, stream, counter)."""
    x = _mix(key + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03) + np.uint64(counter))
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@_jit
def _key(seed):  # type: ignore[no-untyped-def]
    return _mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019))


# -- the rules -------------------------------------------------------------------------------------
@_jit_inline
def _shear(st, seat, cut):  # type: ignore[no-untyped-def]
    wool = st[S_SHEEP + seat]
    if wool > 0 and cut:
        wool -= 1
        st[S_MID] += 1
    st[S_PILE + seat] += wool
    st[S_SHEEP + seat] = 0


@_jit_inline
def _grow(st, seat, pieces, maxw):  # type: ignore[no-untyped-def]
    put = pieces
    room = maxw - st[S_SHEEP + seat]
    if room < put:
        put = room
    if st[S_MID] < put:
        put = st[S_MID]
    st[S_SHEEP + seat] += put
    st[S_MID] -= put


@_jit_inline
def _end_turn(st, p):  # type: ignore[no-untyped-def]
    n = p[P_N]
    if st[S_MID] == 0:
        for s in range(n):
            _shear(st, s, p[P_CUT])
        st[S_OVER] = 1
        return
    st[S_TURNS] += 1
    if p[P_MAXT] > 0 and st[S_TURNS] >= p[P_MAXT]:  # no next turn: no auto-shear (docs/engine.md)
        st[S_TRUNC] = 1
        st[S_OVER] = 1
        return
    t = (st[S_TURN] + 1) % n
    st[S_TURN] = t
    if st[S_SHEEP + t] >= p[P_MAXW]:
        _shear(st, t, p[P_CUT])


@_jit_inline
def _apply_choice(st, a, p):  # type: ignore[no-untyped-def]
    """A CHOOSE or HOWL_GROW decision of the roller, then the end of the turn."""
    me = st[S_TURN]
    if a == GROW:
        _grow(st, me, 1, p[P_MAXW])
    elif a == DOUBLE:
        _grow(st, me, 2, p[P_MAXW])
    elif a == SHEAR:
        _shear(st, me, p[P_CUT])
    elif a < WOLF0:
        k = a - SWAP0
        x = st[S_SHEEP + me]
        st[S_SHEEP + me] = st[S_SHEEP + k]
        st[S_SHEEP + k] = x
    elif a < RAID:
        k = a - WOLF0
        if p[P_MODE] == MODE_MRWOLF:
            st[S_WOLF] = k
            if st[S_SHEEP + k] > 0:
                st[S_SHEEP + k] -= 1
                st[S_PILE + me] += 1
        else:
            st[S_MID] += st[S_SHEEP + k]
            st[S_SHEEP + k] = 0
    elif a == RAID:
        k = st[S_WOLF]
        take = st[S_SHEEP + k]
        if take > 2:
            take = 2
        st[S_SHEEP + k] -= take
        st[S_PILE + me] += take
        st[S_WOLF] = -1
    # PASS: nothing
    _end_turn(st, p)


@_jit_inline
def _howl_target(st, target):  # type: ignore[no-untyped-def]
    if st[S_SHEEP + target] > 0:
        st[S_SHEEP + target] -= 1
        st[S_MID] += 1


@_jit_inline
def _room(st, seat, p):  # type: ignore[no-untyped-def]
    r = p[P_MAXW] - st[S_SHEEP + seat]
    if st[S_MID] < r:
        r = st[S_MID]
    return r


@_jit_inline
def _legal_choose(st, mask, p, out):  # type: ignore[no-untyped-def]
    """The engine's sorted legal actions at CHOOSE, written to ``out``; returns how many."""
    n = p[P_N]
    me = st[S_TURN]
    c = 0
    room = _room(st, me, p)
    if mask & B_GROW and room > 0:
        out[c] = GROW
        c += 1
    if mask & B_DOUBLE and room > 0:
        out[c] = DOUBLE
        c += 1
    if mask & B_SHEAR:
        out[c] = SHEAR
        c += 1
    if mask & B_SWAP:
        for k in range(n):
            if k != me:
                out[c] = SWAP0 + k
                c += 1
    if mask & B_WOLF:
        for k in range(n):
            if k != me:
                out[c] = WOLF0 + k
                c += 1
        if p[P_MODE] == MODE_MRWOLF and st[S_WOLF] >= 0 and st[S_WOLF] != me:
            out[c] = RAID
            c += 1
    if c == 0:
        out[0] = PASS
        c = 1
    return c


# -- greedy (games/shave_a_sheep/policy.py, exactly) -----------------------------------------------------------
@_jit
def _worth(st, seat, maxw, wv, fv):  # type: ignore[no-untyped-def]
    wool = st[S_SHEEP + seat]
    rate = fv if wool >= maxw else wv
    return st[S_PILE + seat] + rate * wool


@_jit
def _value(st, me, p, wv, fv, win):  # type: ignore[no-untyped-def]
    n = p[P_N]
    if st[S_OVER]:
        if st[S_TRUNC]:
            return 0.0
        best = st[S_PILE]
        for s in range(1, n):
            if st[S_PILE + s] > best:
                best = st[S_PILE + s]
        k = 0
        for s in range(n):
            if st[S_PILE + s] == best:
                k += 1
        if st[S_PILE + me] == best:
            return win * (1.0 / k)
        return win * 0.0 - win / 2
    mine = _worth(st, me, p[P_MAXW], wv, fv)
    others = -1e300
    first = True
    for k in range(n):
        if k != me:
            w = _worth(st, k, p[P_MAXW], wv, fv)
            if first or w > others:
                others = w
                first = False
    return mine - others


# -- one game -------------------------------------------------------------------------------------
@_jit
def _decide(policy, st, legal, cnt, u, me, kind, p, wv, fv, win, tab, x, face, g, k):  # type: ignore[no-untyped-def]
    """The action of ``policy`` among ``legal[:cnt]``. kind: 0 choose, 1 howl target (by
    grabber g), 2 howl grow (after g took a piece of seat k's sheep). ``x``: the solver's index
    of the turn's start position (perfect policy)."""
    if cnt == 1:
        return legal[0]
    if policy == RANDOM:
        i = int(u * cnt)
        if i >= cnt:
            i = cnt - 1
        return legal[i]
    if policy == PERFECT and x >= 0:
        t = 0 if tab.shape[0] == 1 else me
        n = p[P_N]
        if kind == 0:
            return np.int64(tab[t, x, face, 0])
        if kind == 1:
            return WOLF0 + np.int64(tab[t, x, face, 1 + g])
        return np.int64(tab[t, x, face, 1 + n + g * n + k])
    # greedy
    trial = np.empty(STATE_LEN, dtype=np.int64)
    best_a = legal[0]
    best_v = -np.inf
    for j in range(cnt):
        a = legal[j]
        trial[:] = st
        if kind == 1:
            _howl_target(trial, a - WOLF0)
        else:
            _apply_choice(trial, a, p)
        v = _value(trial, me, p, wv, fv, win)
        if v > best_v + 1e-9:
            best_a = a
            best_v = v
    return best_a


@_jit
def _index(st, p, sp):  # type: ignore[no-untyped-def]
    """The solver's index (solver.Space.index) of the turn-start position in ``st``."""
    off, cnt_le, pile_rank, sv_rank, pw_s, pw_p = sp
    n = p[P_N]
    B = 0
    pk = 0
    sk = 0
    for i in range(n):
        B += st[S_PILE + i]
        pk += st[S_PILE + i] * pw_p[i]
        sk += st[S_SHEEP + i] * pw_s[i]
    ns = cnt_le[p[P_WOOL] - B - 1]
    NW = n + 1 if p[P_MODE] == MODE_MRWOLF else 1
    wc = st[S_WOLF] + 1 if p[P_MODE] == MODE_MRWOLF else 0
    return off[B] + ((pile_rank[pk] * ns + sv_rank[sk]) * n + st[S_TURN]) * NW + wc


@_jit
def _uncertainty(V, x, n):  # type: ignore[no-untyped-def]
    """Normalised entropy of the exact win shares at index x (1: wide open, 0: decided)."""
    h = 0.0
    if V.shape[1] == 1:  # minimax: seat 0's share, seat 1 has the rest (2 players)
        q = V[x, 0]
        if q > 1e-12:
            h -= q * np.log(q)
        r = 1.0 - q
        if r > 1e-12:
            h -= r * np.log(r)
    else:
        tot = 0.0
        for i in range(n):
            tot += V[x, i]
        for i in range(n):
            v = V[x, i] / tot if tot > 0 else 1.0 / n
            if v > 1e-12:
                h -= v * np.log(v)
    return h / np.log(n)


@_jit
def _play(  # type: ignore[no-untyped-def]
    seed,
    p,
    mask,
    cum,
    race,
    gcum,
    pol,
    st,
    legal,
    tab,
    sp,
    V,
    ubuf,
    trace,
    stand,
    stand_base,
    wv,
    fv,
    win,
):
    """Play one game into ``st``; returns (turns started, trace length, standings written).

    ``trace`` (length 0: off) receives the engine's action history; ``stand`` (rows 0: off)
    receives the piles after each turn, from row ``stand_base``. ``V`` (rows 0: off): exact
    win shares; ``ubuf`` receives the outcome uncertainty at each turn start.
    """
    n = p[P_N]
    st[:] = 0
    st[S_MID] = p[P_WOOL]
    st[S_WOLF] = -1
    key = _key(seed)
    nf = p[P_NFACES]
    tlen = 0
    rows = 0
    started = 0
    do_trace = trace.shape[0] > 0
    do_stand = stand.shape[0] > 0
    need_x = tab.shape[0] > 0 or V.shape[0] > 0
    x = -1
    while st[S_OVER] == 0:
        if started > 0 and do_stand:
            r = stand_base + rows
            if r < stand.shape[0]:
                for s in range(n):
                    stand[r, s] = st[S_PILE + s]
            rows += 1
        if need_x:
            x = _index(st, p, sp)
            if V.shape[0] > 0 and started < ubuf.shape[0]:
                ubuf[started] = _uncertainty(V, x, n)
        started += 1
        t = st[S_TURNS]
        # the roll
        roll = _u(key, 0, t)
        face = nf - 1
        for f in range(nf):
            if roll < cum[f]:
                face = f
                break
        if do_trace:
            trace[tlen] = face
            tlen += 1
        me = st[S_TURN]
        if race[face]:
            # who grabs the wolf
            y = _u(key, 1, t)
            grabber = -1
            last = -1
            for s in range(n):
                if gcum[s] >= 0.0:
                    last = s
                    if y < gcum[s]:
                        grabber = s
                        break
            if grabber < 0:
                grabber = last
            if do_trace:
                trace[tlen] = grabber
                tlen += 1
            c = 0
            for k in range(n):
                if k != grabber:
                    legal[c] = WOLF0 + k
                    c += 1
            a = _decide(
                pol[grabber],
                st,
                legal,
                c,
                _u(key, 2, 4 * t + 1),
                grabber,
                1,
                p,
                wv,
                fv,
                win,
                tab,
                x,
                face,
                grabber,
                -1,
            )
            if do_trace:
                trace[tlen] = a
                tlen += 1
            target = a - WOLF0
            _howl_target(st, target)
            if _room(st, me, p) > 0:
                legal[0] = GROW
                legal[1] = PASS
                c = 2
            else:
                legal[0] = PASS
                c = 1
            a = _decide(
                pol[me],
                st,
                legal,
                c,
                _u(key, 2, 4 * t + 2),
                me,
                2,
                p,
                wv,
                fv,
                win,
                tab,
                x,
                face,
                grabber,
                target,
            )
        else:
            c = _legal_choose(st, mask[face], p, legal)
            if c == 1:
                a = legal[0]
            elif pol[me] == RANDOM:  # the hot path of random play, inline
                i = int(_u(key, 2, 4 * t) * c)
                a = legal[i if i < c else c - 1]
            else:
                a = _decide(
                    pol[me],
                    st,
                    legal,
                    c,
                    _u(key, 2, 4 * t),
                    me,
                    0,
                    p,
                    wv,
                    fv,
                    win,
                    tab,
                    x,
                    face,
                    -1,
                    -1,
                )
        if do_trace:
            trace[tlen] = a
            tlen += 1
        _apply_choice(st, a, p)
    if do_stand:
        r = stand_base + rows
        if r < stand.shape[0]:
            for s in range(n):
                stand[r, s] = st[S_PILE + s]
        rows += 1
    return started, tlen, rows


@_jit
def _batch(  # type: ignore[no-untyped-def]
    seeds,
    p,
    mask,
    cum,
    race,
    gcum,
    pols,
    tab,
    sp,
    V,
    want_stand,
    scores,
    length,
    trunc,
    offsets,
    unc,
    curve,
    wv,
    fv,
    win,
):
    """Play ``len(seeds)`` games; returns the standings (rows = ``offsets[-1]``).

    With ``V``: ``unc[g]`` = mean outcome uncertainty over game g's turn starts, ``curve[g, b]``
    = its mean over the b-th tenth of the game."""
    n = p[P_N]
    G = seeds.shape[0]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    notrace = np.zeros(0, dtype=np.int64)
    ubuf = np.zeros(p[P_MAXT] + 2 if p[P_MAXT] > 0 else 100_000, dtype=np.float64)
    cap = G * 96 if want_stand else 0
    stand = np.zeros((cap, n), dtype=np.int64)
    nb = curve.shape[1]
    cnt = np.zeros(nb, dtype=np.float64)
    offsets[0] = 0
    for g in range(G):
        base = offsets[g]
        started, _, rows = _play(
            seeds[g],
            p,
            mask,
            cum,
            race,
            gcum,
            pols[g],
            st,
            legal,
            tab,
            sp,
            V,
            ubuf,
            notrace,
            stand,
            base,
            wv,
            fv,
            win,
        )
        if want_stand and base + rows > stand.shape[0]:
            # grow and play the game again (deterministic) into the bigger array
            bigger = np.zeros((max(2 * stand.shape[0], base + rows + G * 8), n), dtype=np.int64)
            bigger[:base] = stand[:base]
            stand = bigger
            started, _, rows = _play(
                seeds[g],
                p,
                mask,
                cum,
                race,
                gcum,
                pols[g],
                st,
                legal,
                tab,
                sp,
                V,
                ubuf,
                notrace,
                stand,
                base,
                wv,
                fv,
                win,
            )
        for s in range(n):
            scores[g, s] = st[S_PILE + s]
        length[g] = started
        trunc[g] = st[S_TRUNC]
        offsets[g + 1] = base + (rows if want_stand else 0)
        if V.shape[0] > 0:
            m = started if started < ubuf.shape[0] else ubuf.shape[0]
            tot = 0.0
            for b in range(nb):
                curve[g, b] = 0.0
                cnt[b] = 0.0
            for i in range(m):
                tot += ubuf[i]
                b = (i * nb) // m
                curve[g, b] += ubuf[i]
                cnt[b] += 1.0
            unc[g] = tot / m if m > 0 else np.nan
            for b in range(nb):
                curve[g, b] = curve[g, b] / cnt[b] if cnt[b] > 0 else np.nan
    return stand[: offsets[G]]


@_jit
def _bench(seed0, count, p, mask, cum, race, gcum, pol, tab, sp, wv, fv, win):  # type: ignore[no-untyped-def]
    """Play ``count`` games seeded seed0.. with no output but a checksum (win counts of seat 0)."""
    n = p[P_N]
    st = np.zeros(STATE_LEN, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    notrace = np.zeros(0, dtype=np.int64)
    nostand = np.zeros((0, n), dtype=np.int64)
    noV = np.zeros((0, 1), dtype=np.float64)
    ubuf = np.zeros(1, dtype=np.float64)
    wins = 0
    turns = 0
    for g in range(count):
        started, _, _ = _play(
            seed0 + g,
            p,
            mask,
            cum,
            race,
            gcum,
            pol,
            st,
            legal,
            tab,
            sp,
            noV,
            ubuf,
            notrace,
            nostand,
            0,
            wv,
            fv,
            win,
        )
        turns += started
        if st[S_PILE] > st[S_PILE + 1]:
            wins += 1
    return wins, turns


# -- Python API ------------------------------------------------------------------------------------
@dataclass
class Exact:
    """What the solver gives the simulator: the perfect policy's table, the index arrays and
    the exact win shares (for outcome uncertainty). Empty arrays switch each part off."""

    tab: np.ndarray  # int8 (tables, positions, faces, slots): one table, or one per seat
    sp: tuple[
        np.ndarray, ...
    ]  # solver.Space index arrays (off, cnt_le, pile_rank, sv_rank, pw_s, pw_p)
    V: np.ndarray  # float64 (positions, values)


def no_exact() -> Exact:
    z = np.zeros(1, dtype=np.int64)
    return Exact(np.zeros((0, 1, 1, 1), dtype=np.int8), (z, z, z, z, z, z), np.zeros((0, 1)))


def exact_for(game: Any, specs: Sequence[str], uncertainty: bool = False) -> Exact:
    """The solver's tables this job needs (none when no seat plays perfect and no uncertainty)."""
    names = [x.partition(":")[0] for x in specs]
    if "perfect" not in names and not uncertainty:
        return no_exact()
    from sheepfold.lab import perfect

    space = perfect.space(game)
    sp = perfect.index_arrays(space)
    tab = (
        perfect.policy_tables(game) if "perfect" in names else np.zeros((0, 1, 1, 1), dtype=np.int8)
    )
    V = perfect.win_shares(game, names) if uncertainty else np.zeros((0, 1))
    return Exact(tab, sp, V)


def unsupported(job: Any) -> str | None:
    """None if this simulator plays ``job``; else the reason."""
    for spec in job.bots:
        name, _, arg = spec.partition(":")
        if name not in POLICIES or arg:
            return f"no fast policy for the bot {spec!r} (fast policies: {', '.join(POLICIES)})"
    if "perfect" in [b.partition(":")[0] for b in job.bots] or getattr(job, "exact", False):
        from sheepfold.lab import perfect

        return perfect.unsupported(job.make_game(0))
    return None


def _consts() -> tuple[float, float, float]:
    return SHEEP_WOOL_VALUE, FULL_SHEEP_VALUE, WIN_VALUE


CURVE_BINS = 10


def simulate(
    game: Any,
    seeds: np.ndarray,
    seat_policies: np.ndarray,
    standings: bool = True,
    exact: Exact | None = None,
) -> dict[str, np.ndarray]:
    """Play one game per seed. ``seat_policies``: ``(games, players)`` policy codes.

    Returns scores ``(G, n)``, length, truncated, offsets ``(G+1,)``, standings ``(T, n)`` and,
    with exact win shares, ``uncertainty`` ``(G,)`` and ``uncertainty_curve`` ``(G, 10)``.
    """
    pr = params_for(game)
    G = len(seeds)
    n = game.num_players
    ex = exact or no_exact()
    scores = np.zeros((G, n), dtype=np.int64)
    length = np.zeros(G, dtype=np.int64)
    trunc = np.zeros(G, dtype=np.int64)
    offsets = np.zeros(G + 1, dtype=np.int64)
    unc = np.full(G, np.nan)
    curve = np.full((G, CURVE_BINS), np.nan)
    stand = _batch(
        np.asarray(seeds, dtype=np.int64),
        pr.p,
        pr.face_mask,
        pr.face_cum,
        pr.face_race,
        pr.grab_cum,
        np.ascontiguousarray(seat_policies, dtype=np.int64),
        ex.tab,
        ex.sp,
        ex.V,
        standings,
        scores,
        length,
        trunc,
        offsets,
        unc,
        curve,
        *_consts(),
    )
    out = {
        "scores": scores,
        "length": length,
        "truncated": trunc.astype(bool),
        "offsets": offsets,
        "standings": stand,
    }
    if ex.V.shape[0]:
        out["uncertainty"] = unc
        out["uncertainty_curve"] = curve
    return out


def winners_of(scores: np.ndarray, truncated: np.ndarray) -> np.ndarray:
    top = scores.max(axis=1, keepdims=True)
    w = scores == top
    w[truncated] = False
    return w


def _policies(job: Any, indices: Any) -> np.ndarray:
    out = np.zeros((len(indices), job.players), dtype=np.int64)
    for k, i in enumerate(indices):
        out[k] = [POLICIES[b.partition(":")[0]] for b in job.seat_bots(int(i))]
    return out


def chunk(job: Any, indices: Any) -> Any:
    """The runner's chunk of games ``indices`` of ``job`` (see :mod:`sheepfold.lab.runner`)."""
    from sheepfold.lab.runner import Chunk

    game = job.make_game(0)
    idx = np.asarray(list(indices), dtype=np.int64)
    seeds = np.array([job.game_seed(int(i)) for i in idx], dtype=np.int64)
    ex = exact_for(game, job.bots, getattr(job, "exact", False))
    r = simulate(game, seeds, _policies(job, idx), True, ex)
    extra: dict[str, Any] = {}
    if "uncertainty" in r:
        import pyarrow as pa

        extra["uncertainty"] = r["uncertainty"]
        extra["uncertainty_curve"] = pa.FixedSizeListArray.from_arrays(
            pa.array(r["uncertainty_curve"].reshape(-1)), CURVE_BINS
        )
    return Chunk(
        idx,
        r["scores"],
        winners_of(r["scores"], r["truncated"]),
        r["length"],
        r["truncated"],
        r["offsets"],
        r["standings"],
        "fast",
        extra,
    )


def trace(game: Any, seed: int, seat_policies: Any, exact: Exact | None = None) -> list[int]:
    """The engine action history (chance outcomes and decisions) of the fast game ``seed``."""
    pr = params_for(game)
    n = game.num_players
    ex = exact or no_exact()
    maxt = int(pr.p[P_MAXT]) or 100_000
    buf = np.zeros(4 * maxt + 8, dtype=np.int64)
    st = np.zeros(STATE_LEN, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    _, tlen, _ = _play(
        int(seed),
        pr.p,
        pr.face_mask,
        pr.face_cum,
        pr.face_race,
        pr.grab_cum,
        np.asarray(seat_policies, dtype=np.int64),
        st,
        legal,
        ex.tab,
        ex.sp,
        np.zeros((0, 1)),
        np.zeros(1),
        buf,
        np.zeros((0, n), dtype=np.int64),
        0,
        *_consts(),
    )
    return [int(a) for a in buf[:tlen]]


def replay_trace(game: Any, seed: int, actions: list[int]) -> Any:
    """Apply a trace to a new engine state, every action checked (IllegalAction if one is not)."""
    state = game.new_initial_state(seed=seed)
    for a in actions:
        state.apply(a)
    return state


def engine_state(job: Any, i: int) -> Any:
    """Game ``i`` of a fast ``job``, played again through the engine (for records)."""
    game = job.make_game(i)
    seed = job.game_seed(i)
    pols = [POLICIES[b.partition(":")[0]] for b in job.seat_bots(i)]
    return replay_trace(game, seed, trace(game, seed, pols, exact_for(game, job.bots)))


def bench(game: Any, seed0: int, count: int, policy: str = "random") -> tuple[int, int]:
    """(games seat 0 won outright, turns played) of ``count`` games: the benchmark's loop."""
    pr = params_for(game)
    pol = np.full(game.num_players, POLICIES[policy], dtype=np.int64)
    ex = exact_for(game, (policy,))
    w, t = _bench(
        int(seed0),
        int(count),
        pr.p,
        pr.face_mask,
        pr.face_cum,
        pr.face_race,
        pr.grab_cum,
        pol,
        ex.tab,
        ex.sp,
        *_consts(),
    )
    return int(w), int(t)
