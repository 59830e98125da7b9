"""The lab's fast simulator for Shave a Sheep: many games at once, in compiled code.

The rules, the policies and the random numbers are the compiled kernel's
(:mod:`sheepfold.games.shave_a_sheep.kernel`, checked against the engine): this module only
plays batches of games with them and measures them (the standings after each turn, the outcome
uncertainty from the solver's exact win shares). The policies are

- ``random``: a uniformly random legal action, from the engine's sorted legal-action list;
- ``greedy``: exactly ``games/shave_a_sheep/policy.py``'s heuristic;
- ``perfect``: the action the exact solver's policy table names.

The kernel's random numbers are counter-based, so two rule sets compared on the same seeds roll
the same dice (common random numbers). They are not the engine's streams, so fast game ``s`` is
not the engine's game ``s``: :func:`trace` gives the engine actions of any fast game and
:func:`engine_state` plays them through the engine (that is how a row becomes a record).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel.index import encode
from sheepfold.games.shave_a_sheep.kernel.play import (
    GREEDY,
    RANDOM,
    TABLE,
    TRACE_PER_TURN,
    all_play,
    game_key,
    play,
    play_greedy,
    play_random,
    scratch,
    turn,
    turn_plain,
)
from sheepfold.games.shave_a_sheep.kernel.step import bare, copy, inline, jit, new_game, score

PERFECT = TABLE
POLICIES = {"random": RANDOM, "greedy": GREEDY, "perfect": PERFECT}
CURVE_BINS = 10
#: the decision columns (decisions, forced, choices) of a fast game come from playing it again
#: through the engine (the kernel does not count its choices): every game below
#: ``DECISIONS_ALL``, then every ``DECISIONS_STRIDE``-th game (by game index, so the sample does
#: not depend on chunks, workers or resumes); the other rows hold nulls
DECISIONS_ALL = 500
DECISIONS_STRIDE = 1000


def decisions_sampled(i: int) -> bool:
    """Whether fast game ``i`` has its decisions counted (replayed through the engine)."""
    return i < DECISIONS_ALL or i % DECISIONS_STRIDE == 0


@jit
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


@jit
def _play(seed, st, seats, prm, ix, kit, V, out):  # type: ignore[no-untyped-def]
    """Play game ``seed`` into ``st``, measuring it into ``out`` = (standings, first row,
    uncertainty buffer, last turn start): the piles after each turn from row ``first`` (while
    there is room), with exact win shares ``V`` the outcome uncertainty at each turn start, and
    (when it has room) the state at the start of each turn. Returns (turns started, rows
    wanted)."""
    stand, first, ubuf, pre = out
    n = prm[L.P_N]
    new_game(st, prm)
    key = game_key(seed)
    notrace = np.zeros(0, dtype=np.int64)
    if V.shape[0] == 0 and all_play(seats[0], n, RANDOM):
        return _play_random(st, key, prm, kit, stand, first, pre)
    if V.shape[0] == 0 and all_play(seats[0], n, GREEDY):
        return _play_greedy(st, key, prm, kit, stand, first, pre)
    started = 0
    rows = 0
    while True:
        if pre.shape[0] > 0:
            pre[:] = st
        x = encode(st, prm, ix) if V.shape[0] > 0 or seats[1].shape[0] > 0 else -1
        if V.shape[0] > 0 and started < ubuf.shape[0]:
            ubuf[started] = _uncertainty(V, x, n)
        started += 1
        turn(st, key, seats, prm, x, kit, notrace, 0)
        rows = _stand(stand, first, rows, st, n, prm)
        if st[L.OVER]:
            return started, rows


@inline
def _play_plain(st, key, prm, kit, stand, first, pre, policy):  # type: ignore[no-untyped-def]
    """:func:`_play`'s game when every seat plays ``policy`` (RANDOM or GREEDY: a constant of
    each caller below) and no position index is read: :func:`.play.turn_plain`'s loop, with
    no records (``kit``: the legal actions, the greedy policy's trial state)."""
    n = prm[L.P_N]
    started = 0
    rows = 0
    while True:
        if pre.shape[0] > 0:
            copy(pre, st)
        started += 1
        turn_plain(st, key, prm, kit[0], kit[1], policy)
        rows = _stand(stand, first, rows, st, n, prm)
        if st[L.OVER]:
            return started, rows


@bare
def _play_random(st, key, prm, kit, stand, first, pre):  # type: ignore[no-untyped-def]
    """:func:`_play_plain` at random, compiled without reference counting (``bare``)."""
    return _play_plain(st, key, prm, kit, stand, first, pre, RANDOM)


@bare
def _play_greedy(st, key, prm, kit, stand, first, pre):  # type: ignore[no-untyped-def]
    """:func:`_play_plain` with the greedy policy, compiled without reference counting."""
    return _play_plain(st, key, prm, kit, stand, first, pre, GREEDY)


@inline
def _stand(stand, first, rows, st, n, prm):  # type: ignore[no-untyped-def]
    """The scores after a turn (the piles; a team's together) into row ``first + rows`` of
    ``stand`` (when it has rows)."""
    if stand.shape[0] == 0:
        return rows
    r = first + rows
    if r < stand.shape[0]:
        for s in range(n):
            stand[r, s] = score(st, s, prm)
    return rows + 1


#: the end reasons of the fast games (``ended`` codes): the engine's ``ended_by`` and the turn
#: limit (``lab.endings.TURN_LIMIT``; not imported: this module's imports key the kernel cache)
ENDED = ("middle", "target", "turn-limit")


@inline
def _needs_last_turn(prm):  # type: ignore[no-untyped-def]
    """Whether the final state cannot tell why the game ended: with a target, a final shear
    that pays a shear cost back may refill an empty middle."""
    return prm[L.P_TARGET] > 0 and prm[L.P_FINAL] > 0 and prm[L.P_FCOST] > 0


@jit
def _ended(seed, st, pre, seats, prm, ix, kit):  # type: ignore[no-untyped-def]
    """Why the game in ``st`` ended (an index of :data:`ENDED`), as the engine decides it: the
    turn limit, else the middle if it was empty when the final shear began, else the target.
    When the final shear may have refilled the middle, the last turn (from ``pre``) is played
    again without the final shear (the same draws: they depend on the turn, not on the past)."""
    if st[L.TRUNCATED]:
        return 2
    if prm[L.P_TARGET] == 0:
        return 0
    if not _needs_last_turn(prm):
        return 0 if st[L.MIDDLE] == 0 else 1
    again = pre.copy()
    plain = prm.copy()
    plain[L.P_FINAL] = 0
    x = encode(again, prm, ix) if seats[1].shape[0] > 0 else -1
    turn(again, game_key(seed), seats, plain, x, kit, np.zeros(0, dtype=np.int64), 0)
    return 0 if again[L.MIDDLE] == 0 else 1


@jit
def _summarise(ubuf, m, curve_row):  # type: ignore[no-untyped-def]
    """The mean of ``ubuf[:m]``, and its mean over each tenth of the game into ``curve_row``."""
    nb = curve_row.shape[0]
    cnt = np.zeros(nb)
    curve_row[:] = 0.0
    tot = 0.0
    for i in range(m):
        tot += ubuf[i]
        b = (i * nb) // m
        curve_row[b] += ubuf[i]
        cnt[b] += 1.0
    for b in range(nb):
        curve_row[b] = curve_row[b] / cnt[b] if cnt[b] > 0 else np.nan
    return tot / m if m > 0 else np.nan


@jit
def _batch(seeds, pols, tab, prm, ix, V, want_stand, res):  # type: ignore[no-untyped-def]
    """Play ``len(seeds)`` games (``pols[g]``: game g's seat policies) into ``res`` = (scores,
    length, truncated, offsets, uncertainty, curve, end reason); returns the standings (rows =
    ``offsets[-1]``)."""
    scores, length, trunc, offsets, unc, curve, ended = res
    n = prm[L.P_N]
    G = seeds.shape[0]
    st = np.zeros(L.STATE_LEN, dtype=np.int64)
    kit = scratch()
    ubuf = np.zeros(prm[L.P_MAXT] + 2 if prm[L.P_MAXT] > 0 else 100_000)
    stand = np.zeros((G * 96 if want_stand else 0, n), dtype=np.int64)
    pre = np.zeros(L.STATE_LEN if _needs_last_turn(prm) else 0, dtype=np.int64)
    offsets[0] = 0
    for g in range(G):
        base = offsets[g]
        seats = (pols[g], tab)
        started, rows = _play(seeds[g], st, seats, prm, ix, kit, V, (stand, base, ubuf, pre))
        if want_stand and base + rows > stand.shape[0]:
            # grow and play the game again (deterministic) into the bigger array
            bigger = np.zeros((max(2 * stand.shape[0], base + rows + G * 8), n), dtype=np.int64)
            bigger[:base] = stand[:base]
            stand = bigger
            started, rows = _play(seeds[g], st, seats, prm, ix, kit, V, (stand, base, ubuf, pre))
        ended[g] = _ended(seeds[g], st, pre, seats, prm, ix, kit)
        for s in range(n):
            scores[g, s] = score(st, s, prm)
        length[g] = started
        trunc[g] = st[L.TRUNCATED]
        offsets[g + 1] = base + rows
        if V.shape[0] > 0:
            unc[g] = _summarise(ubuf, min(started, ubuf.shape[0]), curve[g])
    return stand[: offsets[G]]


@jit
def _bench(seed0, count, seats, prm, ix):  # type: ignore[no-untyped-def]
    """Play ``count`` games seeded seed0.. with no output but (seat 0's outright wins, turns)."""
    st = np.zeros(L.STATE_LEN, dtype=np.int64)
    kit = scratch()
    random = all_play(seats[0], prm[L.P_N], RANDOM)
    greedy = all_play(seats[0], prm[L.P_N], GREEDY)
    wins = 0
    turns = 0
    for g in range(count):
        if random:
            turns += play_random(seed0 + g, st, prm, kit[0])
        elif greedy:
            turns += play_greedy(seed0 + g, st, prm, kit[0], kit[1])
        else:
            turns += play(seed0 + g, st, seats, prm, ix, kit)
        if st[L.PILE] > st[L.PILE + 1]:
            wins += 1
    return wins, turns


# -- Python API ------------------------------------------------------------------------------------
@dataclass
class Exact:
    """What the solver gives the simulator: the perfect policy's table, the position index and
    the exact win shares (for outcome uncertainty). Empty arrays switch each part off."""

    tab: np.ndarray  # int8 (tables, positions, columns): one table, or one per seat
    ix: L.Index  # the position index (kernel.layout.position_index)
    V: np.ndarray  # float64 (positions, values)


def no_exact() -> Exact:
    z, z2 = np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64)
    ix = L.Index(z, z, z, z, z, z, z2, z2, z, np.ones(2, dtype=np.int64))
    return Exact(np.zeros((0, 1, 1), dtype=np.int8), ix, np.zeros((0, 1)))


def exact_for(game: Any, specs: Sequence[str], uncertainty: bool = False) -> Exact:
    """The solver's tables this job needs (none when no seat plays perfect and no uncertainty)."""
    names = [x.partition(":")[0] for x in specs]
    if "perfect" not in names and not uncertainty:
        return no_exact()
    from sheepfold.lab import perfect

    ix = perfect.space(game).ix
    tab = perfect.policy_tables(game) if "perfect" in names else np.zeros((0, 1, 1), dtype=np.int8)
    V = perfect.win_shares(game, names) if uncertainty else np.zeros((0, 1))
    return Exact(tab, ix, V)


def unsupported(job: Any) -> str | None:
    """None if this simulator plays ``job``; else the reason (a rule set the kernel cannot
    play is refused with the kernel's reason, never played as something else)."""
    try:
        L.rules_record(job.make_game(0))
    except L.KernelRefusal as e:
        return str(e)
    for spec in job.bots:
        name, _, arg = spec.partition(":")
        if name not in POLICIES or arg:
            return f"no fast policy for the bot {spec!r} (fast policies: {', '.join(POLICIES)})"
    if "perfect" in [b.partition(":")[0] for b in job.bots] or getattr(job, "exact", False):
        from sheepfold.lab import perfect

        return perfect.unsupported(job.make_game(0))
    return None


def simulate(
    game: Any,
    seeds: np.ndarray,
    seat_policies: np.ndarray,
    standings: bool = True,
    exact: Exact | None = None,
    interpreted: bool = False,
) -> dict[str, np.ndarray]:
    """Play one game per seed. ``seat_policies``: ``(games, players)`` policy codes.

    Returns scores ``(G, n)``, length, truncated, offsets ``(G+1,)``, standings ``(T, n)``, the
    end reason ``ended_by`` (the engine's words: ``middle``, ``target``, ``turn-limit``) and,
    with exact win shares, ``uncertainty`` ``(G,)`` and ``uncertainty_curve`` ``(G, 10)``.
    ``interpreted``: the same kernels run by the interpreter (:func:`.compiling.interpreted`:
    the same games, slower, nothing compiled).
    """
    args = _batch_args(game, seeds, seat_policies, standings, exact)
    stand = (_interpreted(_batch) if interpreted else _batch)(*args)
    scores, length, trunc, offsets, unc, curve, ended = args[-1]
    out = {
        "ended_by": np.array(ENDED, dtype=object)[ended],
        "scores": scores,
        "length": length,
        "truncated": trunc.astype(bool),
        "offsets": offsets,
        "standings": stand,
    }
    if args[5].shape[0]:
        out["uncertainty"] = unc
        out["uncertainty_curve"] = curve
    return out


def _batch_args(
    game: Any, seeds: Any, seat_policies: Any, standings: bool, exact: Exact | None
) -> tuple[Any, ...]:
    """The arguments of :func:`_batch` for these games (its results' arrays last)."""
    prm = L.rules_record(game)
    G = len(seeds)
    n = game.num_players
    ex = exact or no_exact()
    res = (
        np.zeros((G, n), dtype=np.int64),  # scores
        np.zeros(G, dtype=np.int64),  # length
        np.zeros(G, dtype=np.int64),  # truncated
        np.zeros(G + 1, dtype=np.int64),  # offsets
        np.full(G, np.nan),  # uncertainty
        np.full((G, CURVE_BINS), np.nan),  # its curve
        np.zeros(G, dtype=np.int64),  # why it ended (ENDED)
    )
    pols = np.ascontiguousarray(seat_policies, dtype=np.int64)
    seeds = np.asarray(seeds, dtype=np.int64)
    return seeds, pols, ex.tab, prm, ex.ix, ex.V, standings, res


def _interpreted(kernel: Any) -> Any:
    """``kernel`` run by the interpreter (imported here: a kernel module's imports key the
    kernel cache, and the compiling module is no kernel's)."""
    from sheepfold.core.compiling import interpreted

    return interpreted(kernel)


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


def chunk(job: Any, indices: Any, interpreted: bool = False) -> Any:
    """The runner's chunk of games ``indices`` of ``job`` (see :mod:`sheepfold.lab.runner`);
    ``interpreted``: the kernels run by the interpreter (:func:`simulate`)."""
    from sheepfold.lab.runner import FIRST_COLUMN, Chunk

    game = job.make_game(0)
    idx = np.asarray(list(indices), dtype=np.int64)
    seeds = np.array([job.game_seed(int(i)) for i in idx], dtype=np.int64)
    ex = exact_for(game, job.bots, getattr(job, "exact", False))
    r = simulate(game, seeds, _policies(job, idx), True, ex, interpreted)
    # every game starts at the seat the rules name (the kernels play that one too)
    extra: dict[str, Any] = {
        "ended_by": r["ended_by"],
        FIRST_COLUMN: np.full(len(idx), game.first_seat, dtype=np.int8),
    }
    import pyarrow as pa

    extra.update(_decision_columns(job, game, idx, ex, interpreted))
    if "uncertainty" in r:
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


def count_decisions(game: Any, seed: int, actions: list[int]) -> list[int]:
    """[decisions, forced, choices] of a game's trace, counted in the engine as the engine path
    counts them (:func:`sheepfold.lab.runner.count_decision`), every action checked."""
    from sheepfold.core.protocol import CHANCE
    from sheepfold.lab.runner import count_decision

    counts = [0, 0, 0]
    state = game.new_initial_state(seed=seed)
    for a in actions:
        if state.current_player() != CHANCE:
            count_decision(counts, state)
        state.apply(a)
    return counts


def _decision_columns(
    job: Any, game: Any, idx: np.ndarray, ex: Exact, interpreted: bool = False
) -> dict[str, Any]:
    """The decision columns of a chunk: counted for the sampled games (:func:`decisions_sampled`),
    null for the others."""
    import pyarrow as pa

    G = len(idx)
    cnt = np.zeros((G, 3), dtype=np.int32)
    missing = np.ones(G, dtype=bool)
    tab_ex = Exact(ex.tab, ex.ix, np.zeros((0, 1)))
    for k, i in enumerate(idx):
        if not decisions_sampled(int(i)):
            continue
        seed = job.game_seed(int(i))
        pols = [POLICIES[b.partition(":")[0]] for b in job.seat_bots(int(i))]
        cnt[k] = count_decisions(game, seed, trace(game, seed, pols, tab_ex, interpreted))
        missing[k] = False
    from sheepfold.lab.runner import DECISION_COLUMNS

    return {
        name: pa.array(cnt[:, c], type=pa.int32(), mask=missing)
        for c, name in enumerate(DECISION_COLUMNS)
    }


def trace(
    game: Any,
    seed: int,
    seat_policies: Any,
    exact: Exact | None = None,
    interpreted: bool = False,
) -> list[int]:
    """The engine action history (chance outcomes and decisions) of the fast game ``seed``
    (``interpreted``: see :func:`simulate`)."""
    args = _trace_args(game, seed, seat_policies, exact)
    tlen = (_interpreted(_trace) if interpreted else _trace)(*args)
    return [int(a) for a in args[-1][:tlen]]


def _trace_args(game: Any, seed: int, seat_policies: Any, exact: Exact | None) -> tuple[Any, ...]:
    """The arguments of :func:`_trace` (its history's buffer last)."""
    prm = L.rules_record(game)
    ex = exact or no_exact()
    maxt = int(prm[L.P_MAXT]) or 100_000
    buf = np.zeros(TRACE_PER_TURN * maxt, dtype=np.int64)
    seats = (np.asarray(seat_policies, dtype=np.int64), ex.tab)
    return int(seed), seats, prm, ex.ix, buf


# -- compiling in the background -------------------------------------------------------------
def prepare(job: Any, compiling: Any = None) -> None:
    """Solve what ``job``'s games need from the solver (the perfect policy's tables, the exact
    win shares), here, once, before the games (forked workers inherit them, others read the
    disk caches): at once on a cold cache, the solver interpreted while it compiles behind
    (:func:`.solver.at_once`, said through ``compiling``)."""
    if "perfect" not in {b.partition(":")[0] for b in job.bots} and not job.exact:
        return
    from sheepfold.games.shave_a_sheep import solver

    with solver.at_once(job.players, compiling):
        exact_for(job.make_game(0), job.bots, job.exact)


def _first_args(job: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The arguments of the kernels :func:`chunk` calls, for ``job``'s game 0."""
    game = job.make_game(0)
    idx = np.zeros(1, dtype=np.int64)
    seed = job.game_seed(0)
    pols = _policies(job, idx)
    ex = exact_for(game, job.bots, job.exact)  # solved already (prepare), or nothing to solve
    batch = _batch_args(game, np.array([seed], dtype=np.int64), pols, True, ex)
    return batch, _trace_args(game, seed, pols[0], ex)


def ready(job: Any) -> bool:
    """Whether :func:`chunk` plays ``job`` without compiling (its kernels are compiled in this
    process, or numba's cache folder holds them: then they are loaded now)."""
    from sheepfold.core.compiling import cached

    batch, tr = _first_args(job)
    return cached(_batch, *batch) and cached(_trace, *tr)


def warm(job: Any) -> None:
    """Compile (or load) the kernels :func:`chunk` calls for ``job``: its game 0, played."""
    batch, tr = _first_args(job)
    _batch(*batch)
    _trace(*tr)


@jit
def _trace(seed, seats, prm, ix, buf):  # type: ignore[no-untyped-def]
    st = np.zeros(L.STATE_LEN, dtype=np.int64)
    kit = scratch()
    new_game(st, prm)
    key = game_key(seed)
    tlen = 0
    tables = seats[1].shape[0] > 0
    while st[L.OVER] == 0:
        x = encode(st, prm, ix) if tables else -1
        tlen = turn(st, key, seats, prm, x, kit, buf, tlen)
    return tlen


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
    pol = np.full(game.num_players, POLICIES[policy], dtype=np.int64)
    ex = exact_for(game, (policy,))
    w, t = _bench(int(seed0), int(count), (pol, ex.tab), L.rules_record(game), ex.ix)
    return int(w), int(t)
