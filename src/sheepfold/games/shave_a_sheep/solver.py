"""Shave a Sheep, solved: exact win shares under optimal play, for 2-4 players and every rule set.

The method is Neller and Presser's for Pig: a value for every position, by value iteration.
A position is the start of a turn (after the auto-shear, before the roll): whose turn, the wool
on each sheep, each safe pile, and the wolf's seat (My friend Mr. Wolf). A seat's value is its
win share: 1 for a sole winner, 1/k each for k tied winners. The die (each face with its
probability, a face printed twice counts twice) and Howling Wolf's race (each seat's reaction
weight) are chance. Safe piles never shrink, so positions fall into *layers* by the total wool
banked; a turn stays in its layer's *block* (the same piles) or climbs to a higher layer. The
layers are solved from the top down and every block is iterated (Gauss-Seidel) until no value
moves by more than ``tol`` (1e-11; the values are then exact to about 2e-10). The hot loop is
in :mod:`solver_kernel` (numba).

What it computes:

* :func:`solve_minimax` (2 players): the zero-sum game in win share, its value and both seats'
  optimal policies.
* :func:`guaranteed_share` (3-4 players, any seat): the share the seat can secure when all the
  other seats play together against it ("paranoid"), with the policy that secures it;
  :func:`guaranteed_shares_all` gives every seat's in one solve when the seats are alike (equal
  reaction weights): seat f's value where seat t rolls is seat f - t's where seat 0 rolls, in the
  position turned t seats round, so only the positions where seat 0 rolls are iterated.
* :func:`evaluate`: the exact win share of every seat for a fixed table of policies (a Markov
  chain; ``"random"``, ``"greedy"``, a solved policy, or any bot, tabulated).
* :func:`best_response`: the policy that maximises one seat's share against a fixed table.

Games that can go on for ever (a custom die with no way to finish) count the never-ending part as
no win for anyone (values start at 0 and climb to the least fixed point). ``max_turns`` (the
engine's truncation for simulations) is ignored: the solver plays the real game to its end.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sheepfold.core.compiling import Report
from sheepfold.core.play import bot_by_name
from sheepfold.core.protocol import CHANCE, SheepfoldError
from sheepfold.games.shave_a_sheep import policy
from sheepfold.games.shave_a_sheep import solver_kernel as K
from sheepfold.games.shave_a_sheep.game import (
    CHOOSE,
    GRAB,
    HOWL_GROW,
    HOWL_TARGET,
    OVER,
    ROLL,
    ShaveGame,
    ShaveState,
)
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel import play
from sheepfold.games.shave_a_sheep.kernel import step as kstep
from sheepfold.games.shave_a_sheep.kernel.layout import (
    MAX_LEGAL,
    P_COL,
    P_COLS,
    P_MAXT,
    P_RACE,
    P_SKIP,
    PROB_GRAB,
    STATE_LEN,
    Index,
    KernelRefusal,
    columns,
    position_index,
    probabilities,
    program_of,
    race_slots,
    rules_record,
)
from sheepfold.games.shave_a_sheep.program import Move, Program
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from sheepfold.numba_cache import source_hash

#: microseconds per position and pass, low and high: bench/bench_solver.py on this 2-core machine
#: (3 players, every seat in one solve: 1,465,695 positions in about 3.8 s, 2.6 us; 4 players:
#: 52,966,116 positions in 130-230 s, 2.5-4.3 us; an exact evaluation or a single seat 2-3.5 us;
#: under load: 3 players, 100 wool, every seat, 88,534,215 positions in 433 s, 4.9 us)
RATE_US = (2.4, 6.0)
RATE_BASIS = (
    "2.4-6 µs a position per pass on 2 cores, as bench/bench_solver.py measures: 3 players, "
    "every seat, 1,465,695 positions in about 3.8 s; slower on a busy machine; numba's first "
    "compilation not included"
)
#: a plan whose high estimate is longer than this (seconds) is announced and shows progress
LARGE_SECONDS = 10.0

DEFAULT_TOL = 1e-11  # a residual of 1e-10 leaves errors near 2e-9 (the sum of shares shows it)
MAX_SWEEPS = 100_000
#: refuse spaces bigger than this many positions (about 8 bytes each per value column)
MAX_STATES = 400_000_000

ProgressFn = Callable[[int, int], None]  # (positions done, positions in all)


class SolverError(SheepfoldError):
    """A game the solver cannot take (too big), or a policy it does not understand."""


def memory_limit() -> float:
    """Bytes the solver may plan to use (SHEEPFOLD_SOLVER_MAX_GB, default 10)."""
    import os

    try:
        return float(os.environ.get("SHEEPFOLD_SOLVER_MAX_GB", "10")) * 2**30
    except ValueError:
        return 10 * 2**30


def _check_memory(space: Space, columns: int, tables: int, what: str) -> None:
    """Refuse a solve whose arrays would not fit (values: 8 bytes a column; decision tables:
    one byte per column, ``space.C``: one per normal face, 1 + n + n*n per Howling Wolf race
    face)."""
    need = space.size * (8 * columns + tables * space.C)
    if need > memory_limit():
        raise SolverError(
            f"{what} of this {space.n}-player game needs about {need / 2**30:.1f} GB "
            f"({space.size:,} positions, {space.C} decision slots each): more than the "
            f"{memory_limit() / 2**30:.0f} GB allowed (SHEEPFOLD_SOLVER_MAX_GB)"
        )


# -- the position space ---------------------------------------------------------------------
class Space:
    """Every canonical position of one rule set and player count, with its index (see
    :mod:`solver_kernel` for the layout: layer = banked wool, block = pile vector)."""

    def __init__(self, rules: ShaveRules, players: int) -> None:
        game = ShaveGame(players, rules)
        self.game = game
        self.rules = rules
        prog = self.program = program_of(game)
        refusal = unsolvable(prog, players)
        if refusal:
            raise SolverError(f"the solver cannot solve this rule set: {refusal}")
        n = self.n = players
        W = self.W = prog.setup.wool
        cap = self.cap = prog.setup.cap
        self.wolves = prog.setup.wolves
        self.NR = prog.rerolls + 1  # a roll after r rerolls is a position of its own
        self.NW = int((n + 1) ** self.wolves * self.NR)
        self.F = len(prog.faces)
        try:
            self.prm = rules_record(game, turn_limit=False)  # the kernel's rules
        except KernelRefusal as e:
            raise SolverError(str(e)) from None
        #: the roller's sheep from which a position is no turn start (kernel.layout P_SKIP)
        self.shear_at = int(self.prm[P_SKIP])
        self.probs = probabilities(game)
        self.race = self.prm[P_RACE : P_RACE + self.F].astype(np.bool_)
        self.C = int(self.prm[P_COLS])  # decision-table columns (kernel.layout.columns)
        self.face_prob = self.probs[: self.F]
        self.grab_prob = self.probs[PROB_GRAB : PROB_GRAB + n]
        if (cap + 1) ** n > 5_000_000:
            raise SolverError(f"a cap of {cap} for {n} players is too big for the solver")
        if (W + 1) ** n > 50_000_000:
            raise SolverError(f"{W} wool for {n} players is too big for the solver")
        self.ix, self.size = position_index(n, W, cap, self.wolves, rerolls=prog.rerolls)
        (
            self.off,
            self.cnt_le,
            self.pile_rank,
            self.sv_rank,
            self.pw_s,
            self.pw_p,
            self.sv_arr,
            self.pv_all,
            self.block_start,
            _,
        ) = self.ix
        self.n_piles = np.diff(self.block_start)
        if self.size > MAX_STATES:
            raise SolverError(
                f"{self.size:,} positions for {n} players and {W} wool: too many for the solver"
            )

    def roller_columns(self) -> list[int]:
        """The decision-table columns the roller decides: every face's slot 0, and on a race
        face the GROW-or-PASS slots (kernel.layout.columns)."""
        n, out = self.n, []
        for f in range(self.F):
            width = race_slots(n) if self.race[f] else 1
            out += columns(self.prm, f, [0, *range(1 + n, width)])
        return out

    def grabber_columns(self, seat: int) -> list[int]:
        """The columns where ``seat``, having grabbed the wolf, picks its target."""
        return [c for f in range(self.F) if self.race[f] for c in columns(self.prm, f, [1 + seat])]

    def seat0_index(self) -> tuple[Index, int]:
        """The index of the positions where seat 0 rolls (the rotating solve's), and its size."""
        return position_index(
            self.n, self.W, self.cap, self.wolves, seat0_only=True, rerolls=self.NR - 1
        )

    # positions <-> indexes
    def index(
        self,
        turn: int,
        sheep: Sequence[int],
        piles: Sequence[int],
        wolf: int | None | Sequence[int | None],
        rerolled: int = 0,
    ) -> int:
        """The index of a turn start; ``wolf``: the wolf's seat, or the wolf pieces' seats
        (None: at home)."""
        B = sum(piles)
        ns = int(self.cnt_le[self.W - B - 1])
        pr = int(self.pile_rank[int(np.dot(piles, self.pw_p))])
        sr = int(self.sv_rank[int(np.dot(sheep, self.pw_s))])
        pieces = list(wolf) if isinstance(wolf, Sequence) else [wolf]
        code = sum(
            (0 if w is None else w + 1) * int((self.n + 1) ** i) for i, w in enumerate(pieces)
        )
        wc = code * self.NR + rerolled
        return int(self.off[B]) + ((pr * ns + sr) * self.n + turn) * self.NW + wc

    def decode(self, x: int) -> tuple[int, tuple[int, ...], tuple[int, ...], int | None]:
        """(turn, sheep, piles, wolf) of index x (the rerolls used: :meth:`rerolled`; the
        second wolf piece: :meth:`wolves_at`)."""
        B = int(np.searchsorted(self.off, x, side="right")) - 1
        ns = int(self.cnt_le[self.W - B - 1])
        rest = x - int(self.off[B])
        wc = rest % self.NW // self.NR
        rest //= self.NW
        t = rest % self.n
        rest //= self.n
        sr = rest % ns
        pr = rest // ns
        sheep = tuple(int(v) for v in self.sv_arr[sr])
        piles = tuple(int(v) for v in self.pv_all[int(self.block_start[B]) + pr])
        wc %= self.n + 1
        return t, sheep, piles, (None if wc == 0 else wc - 1)

    def wolves_at(self, x: int) -> list[int | None]:
        """The seats of the wolf pieces at index x (None: at home)."""
        B = int(np.searchsorted(self.off, x, side="right")) - 1
        wc = (x - int(self.off[B])) % self.NW // self.NR
        out: list[int | None] = []
        for _ in range(self.wolves):
            out.append(None if wc % (self.n + 1) == 0 else wc % (self.n + 1) - 1)
            wc //= self.n + 1
        return out

    def rerolled(self, x: int) -> int:
        """The rerolls of the turn used before the roll of index x (house rule rerolls)."""
        B = int(np.searchsorted(self.off, x, side="right")) - 1
        return int((x - int(self.off[B])) % self.NR)

    def index_of(self, state: ShaveState) -> int:
        """The index of a state's turn: at ROLL, CHOOSE or GRAB (the position before the roll;
        HOWL_TARGET too, as the grab has not changed anything yet)."""
        if state.phase not in (ROLL, CHOOSE, GRAB, HOWL_TARGET):
            raise SolverError("the position is not at the start of a turn")
        wolves = getattr(state, "wolves", None)
        return self.index(
            state.turn,
            state.sheep,
            state.piles,
            state.wolf if wolves is None else wolves,
            state.rerolls_used,
        )

    def start_index(self) -> int:
        """The index of the set-up (the kernel's new game: the starting wool, the first seat,
        its turn-start triggers)."""
        st = np.zeros(STATE_LEN, dtype=np.int64)
        _once(kstep.new_game, st, self.prm)
        if st[L.OVER]:
            raise SolverError("the game is over before its first roll: there is nothing to solve")
        n = self.n
        wolves = [None if w == 0 else int(w) - 1 for w in (st[L.WOLF], st[L.WOLF1])]
        return self.index(
            int(st[L.TURN]),
            st[L.SHEEP : L.SHEEP + n].tolist(),
            st[L.PILE : L.PILE + n].tolist(),
            wolves[: self.wolves] or None,
        )

    def state_at(self, x: int, seed: int = 0) -> ShaveState:
        """An engine state (ROLL phase) for index x."""
        t, sheep, piles, wolf = self.decode(x)
        s = self.game.new_initial_state(seed)
        s.turn, s.sheep, s.piles, s.wolf = t, list(sheep), list(piles), wolf
        if self.wolves > 1:
            s.wolves = self.wolves_at(x)
            s.wolf = s.wolves[0]
        s.rerolls_used = self.rerolled(x)
        s.middle = self.W - sum(sheep) - sum(piles)
        s.phase = ROLL
        return s

    def turn_of(self) -> np.ndarray:
        """The seat to roll, for every index."""
        return (np.arange(self.size, dtype=np.int64) // self.NW) % self.n


def unsolvable(prog: Program, players: int) -> str | None:
    """Why the solver cannot solve a program, in words (None: it can). Its positions are turn
    starts numbered by the wool banked (piles never shrink, the middle is never empty at a turn
    start), the seats and the wool on the sheep, the wolf pieces and the rerolls used."""
    places = [
        p
        for e in _all_effects(prog)
        if isinstance(e, Move)
        for p in (e.source,)
        if p.where == "pile"
    ]
    if places:
        return (
            "a rule takes wool out of a safe pile, and the solver numbers positions by the wool "
            "banked, which must never go down"
        )
    if prog.end.turns_each is not None:
        return (
            "the game ends after a number of turns each, and the solver's positions do not "
            "count the turns played"
        )
    if not prog.end.middle_empty:
        return (
            "the game goes on with an empty middle, and the solver's positions always have "
            "wool in the middle at a turn start"
        )
    return None


def _all_effects(prog: Program) -> list[Any]:
    out: list[Any] = []
    for v in prog.verbs:
        out.extend(v.effects)
    for t in prog.triggers:
        out.extend(t.effects)
    return out


def count_positions(rules: ShaveRules, players: int) -> int:
    """How many positions the solver stores (canonical or not) for a rule set."""
    return Space(rules, players).size


def space_size(rules: ShaveRules, players: int) -> int | None:
    """:func:`count_positions` from the rules alone, by arithmetic (no index built: a few
    thousand operations where :class:`Space` enumerates every pile and sheep vector, seconds
    for 1,000 wool): the size :func:`~.kernel.layout.position_index` gives, layer by layer
    (banked wool ``B``: the pile vectors of total ``B`` times the sheep vectors of total at
    most ``wool - B - 1``, times the seats to roll and the wolf and reroll codes). None when
    the solver cannot solve the rule set (:func:`unsolvable`)."""
    prog = program_of(ShaveGame(players, rules))
    if unsolvable(prog, players):
        return None
    n, wool, cap = players, int(prog.setup.wool), int(prog.setup.cap)
    nw = (n + 1) ** int(prog.setup.wolves) * (int(prog.rerolls) + 1)
    # ways[s]: sheep vectors (each at most cap) of total s, one seat at a time
    ways: list[int] = [1] + [0] * wool
    for _ in range(n):
        run, nxt = 0, []
        for s in range(wool + 1):
            run += ways[s] - (ways[s - cap - 1] if s > cap else 0)
            nxt.append(run)
        ways = nxt
    at_most = list(itertools.accumulate(ways))  # sheep vectors of total <= s
    size: int = sum(
        math.comb(b + n - 1, n - 1) * at_most[wool - b - 1] * n * nw for b in range(wool)
    )
    return size


# -- policies -------------------------------------------------------------------------------
@dataclass
class Policy:
    """How one seat plays in a table: ``kind`` "random", "greedy", or "table" (with ``tab``:
    the decisions of a solved policy or a tabulated bot, read for this seat only)."""

    kind: str
    tab: np.ndarray | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            self.label = self.kind


def as_policy(spec: Any, space: Space, seat: int) -> Policy:
    """A policy from "random", "greedy", "perfect" (guaranteed share / minimax), a Solution,
    a Policy, a Bot, or a function ``f(state) -> action`` on decision states."""
    if isinstance(spec, Policy):
        return spec
    if isinstance(spec, Solution):
        return Policy("table", spec.tab, f"{spec.kind} seat {spec.seat}")
    if spec in ("random", "greedy"):
        return Policy(spec)
    if spec == "perfect":
        sol, _ = cached(space.rules, space.n, seat, space=space)
        return Policy("table", sol.tab, "perfect")
    if isinstance(spec, str) and spec.startswith("perfect:") and space.n > 2:
        table = policy.parse_table(spec.partition(":")[2], space.n)
        assert table is not None
        br = best_response(
            space, space.n, seat, [None if i == seat else table[i] for i in range(space.n)]
        )
        return Policy("table", br.tab, spec)
    if isinstance(spec, str):
        spec = bot_by_name(spec, space.game, seat, 0)
    if callable(getattr(spec, "act", None)):  # a bot
        bot = spec
        return Policy(
            "table", tabulate(space, seat, lambda st: bot.act(st.observe(seat))), bot.name
        )
    if callable(spec):
        return Policy("table", tabulate(space, seat, spec), getattr(spec, "__name__", "function"))
    raise SolverError(f"not a policy: {spec!r}")


def tabulate(space: Space, seat: int, choose: Callable[[ShaveState], int]) -> np.ndarray:
    """A policy table for ``seat`` from a function called on every decision state of the seat
    (slow: one call per decision; fine for small games and 2 players)."""
    from sheepfold.games.shave_a_sheep.game import WOLF0

    tab = np.zeros((space.size, space.C), dtype=np.int8)
    n = space.n

    def col(face: int, slot: int) -> int:
        return int(space.prm[P_COL + face]) + slot

    for x in range(space.size):
        t, sheep, piles, wolf = space.decode(x)
        if sheep[t] >= space.shear_at:
            continue
        base = space.state_at(x)
        for f in range(space.F):
            if space.race[f]:
                for g in range(n):
                    if space.grab_prob[g] == 0:
                        continue
                    st = base.clone()
                    st.apply_unchecked(f)
                    st.apply_unchecked(g)
                    if g == seat:
                        tab[x, col(f, 1 + g)] = choose(st.clone()) - WOLF0
                    if t == seat:
                        for k in range(n):
                            if k == g:
                                continue
                            s2 = st.clone()
                            s2.apply_unchecked(WOLF0 + k)
                            tab[x, col(f, 1 + n + g * n + k)] = choose(s2)
            elif t == seat:
                st = base.clone()
                st.apply_unchecked(f)
                tab[x, col(f, 0)] = choose(st)
    return tab


def _kinds_and_tab(
    space: Space, policies: Sequence[Policy | None], focal: int | None, paranoid: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Seat kinds for the kernel and the merged decision table."""
    n = space.n
    kinds = np.zeros(n, dtype=np.int64)
    need_tab = any(p is not None and p.kind == "table" for p in policies)
    tab = (
        np.zeros((space.size, space.C), dtype=np.int8)
        if (need_tab or focal is not None)
        else np.zeros((1, 1), dtype=np.int8)
    )
    turn = space.turn_of() if need_tab else None
    for i in range(n):
        if focal is not None and i == focal:
            kinds[i] = K.MAX
            continue
        p = policies[i]
        if p is None:
            kinds[i] = K.MIN if paranoid else K.MAX
            continue
        if p.kind == "random":
            kinds[i] = K.RANDOM
        elif p.kind == "greedy":
            kinds[i] = K.GREEDY
        elif p.kind == "table":
            kinds[i] = K.TABLE
            assert p.tab is not None and turn is not None
            mine = np.array(space.roller_columns(), dtype=np.int64)
            cells = np.ix_(np.flatnonzero(turn == i), mine)
            tab[cells] = p.tab[cells]
            grabs = space.grabber_columns(i)
            tab[:, grabs] = p.tab[:, grabs]
        else:
            raise SolverError(f"unknown policy kind {p.kind!r}")
    return kinds, tab


def _workers() -> int:
    import numba

    return int(numba.get_num_threads()) * 2  # a few chunks per thread balance the load


def _buffers(
    space: Space, workers: int, nv: int, programs: int
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Per-worker scratch (floats: 3 rows of nv, ints: 6 state-vector rows; see
    solver_kernel's ``work``) and compiled-program buffers sized for the largest block (layer
    0) or orbit (``prog``: st_i, st_f, g1_i, g1_f, g2_i, g2_f, refs)."""
    bufs, progs = _buffer_shapes(space, workers, nv, programs)
    return (
        tuple(np.zeros(shape, dtype=dt) for shape, dt in bufs),
        tuple(np.zeros(shape, dtype=dt) for shape, dt in progs),
    )


def _buffer_bytes(space: Space, workers: int, nv: int, programs: int) -> int:
    bufs, progs = _buffer_shapes(space, workers, nv, programs)
    return sum(math.prod(shape) * np.dtype(dt).itemsize for shape, dt in bufs + progs)


def scratch_bytes(space: Space, values: int, programs: int) -> int:
    """The bytes of the workers' scratch and compiled-program buffers of one solve with
    ``values`` value columns and ``programs`` programs per worker (a rotating solve: one per
    seat), as the memory checks count them: for ``sheepfold solve``'s plan."""
    return _buffer_bytes(space, _workers(), values, programs)


Shapes = list[tuple[tuple[int, ...], type]]


def _buffer_shapes(space: Space, workers: int, nv: int, programs: int) -> tuple[Shapes, Shapes]:
    n, F = space.n, space.F
    max_st = int(space.cnt_le[space.W - 1]) * n * space.NW
    has_race = bool(space.race.any())
    g1_rows = max_st * F * (n if has_race else 1)
    g2_rows = max_st * F * n * (n - 1) if has_race else 1
    ref_rows = max_st * F * max(MAX_LEGAL, 2 * n * (n - 1))
    w, P, i8, f8 = workers, programs, np.int64, np.float64
    bufs: Shapes = [((w, 3, max(nv, 1)), f8), ((w, 6, max(STATE_LEN, MAX_LEGAL)), i8)]
    progs: Shapes = [
        ((w, P, max_st, 3), i8),
        ((w, P, max_st, nv), f8),
        ((w, P, g1_rows, 5), i8),
        ((w, P, g1_rows, 2 + nv), f8),
        ((w, P, g2_rows, 3), i8),
        ((w, P, g2_rows, 1 + nv), f8),
        ((w, P, ref_rows), i8),
    ]
    return bufs, progs


def _cfg(nv: int, focal: int, rot: bool = False, ended: bool = False) -> np.ndarray:
    cfg = np.zeros(K.CFG_LEN, dtype=np.int64)
    cfg[K.C_NV], cfg[K.C_FOCAL], cfg[K.C_ROT], cfg[K.C_RECMAX] = nv, focal, int(rot), int(rot)
    cfg[K.C_ENDED] = int(ended)
    return cfg


# -- the solve loop -------------------------------------------------------------------------
@dataclass
class Stats:
    seconds: float = 0.0
    sweeps_max: int = 0
    sweeps_mean: float = 0.0
    blocks: int = 0
    joint: bool = False  # every seat's guaranteed share came from this one solve


def _run(
    space: Space,
    kinds: np.ndarray,
    nv: int,
    focal: int,
    tab: np.ndarray,
    record: bool,
    tol: float,
    progress: ProgressFn | None,
    *,
    compiled: bool = True,
    ended: bool = False,
) -> tuple[np.ndarray, Stats]:
    V = np.zeros((space.size, nv), dtype=np.float64)
    ctx = K.Context(space.prm, space.probs, space.ix, kinds, tab, _cfg(nv, focal, ended=ended), V)
    bufs, progs = _buffers(space, _workers(), nv, 1)
    opts = (record, tol, MAX_SWEEPS, compiled)
    t0 = time.perf_counter()
    done = 0
    total_sweeps = 0
    max_sweeps = 0
    blocks = 0
    for B in range(space.W - 1, -1, -1):
        nb = int(space.n_piles[B])
        sweeps = np.zeros(nb, dtype=np.int64)
        deltas = np.zeros(nb, dtype=np.float64)
        size = int(space.off[B + 1] - space.off[B])
        _layer("solve_layer", size, B, ctx, bufs, progs, opts, (sweeps, deltas))
        if np.any(sweeps > MAX_SWEEPS):
            raise SolverError(
                f"value iteration did not converge in layer {B} (largest change {deltas.max():.2e} "
                f"after {MAX_SWEEPS} sweeps)"
            )
        total_sweeps += int(sweeps.sum())
        max_sweeps = max(max_sweeps, int(sweeps.max()))
        blocks += nb
        done += size
        if progress is not None:
            progress(done, space.size)
    st = Stats(time.perf_counter() - t0, max_sweeps, total_sweeps / max(blocks, 1), blocks)
    return V, st


# -- at once, while the kernels compile --------------------------------------------------------
#: the interpreted kernels' microseconds a position (its solve, about 40 sweeps; unrotating it),
#: measured: the rulebook's 2-player solve, 23,610 positions, in about 6 s
INTERPRETED_US = {"solve_layer": 800.0, "solve_layer_rot": 800.0, "unrotate": 10.0}
#: a layer whose interpreted estimate is longer (seconds) waits for the compiled kernels
INTERPRETED_SECONDS = 10.0


def warm(players: int) -> None:
    """Compile (or load) the kernels of a solve of ``players`` seats: a tiny game solved, as
    ``sheepfold solve`` does (the kernels' types do not depend on the rules)."""
    small = ShaveRules(wool=6, max_wool=2)
    if players == 2:
        minimax_shares(solve_minimax(small))
    else:
        guaranteed_shares_all(small, players)
        ending(small, players)


class _Cold:
    """The solves of :func:`at_once`: the first layer asks whether the compiled kernels are
    ready; when they are not, they compile in the background (:class:`.compiling.Meanwhile`)
    and the layers run interpreted meanwhile, all but the inner sweep, which compiles here in
    a second or two (:func:`.compiling.interpreted`: the same code, so the same values)."""

    def __init__(self, players: int, report: Report | None) -> None:
        self.players, self.report = players, report
        self.asked = False
        self.behind: Any = None
        self.plain: Any = None

    def kernels(self, name: str, positions: int, args: tuple[Any, ...]) -> Any:
        from sheepfold.core import compiling

        if not self.asked:
            self.asked = True
            if not compiling.cached(getattr(K, name), *args):
                self.plain = compiling.Interpreted(K, frozenset({K.sweep_compiled}))
                self.behind = compiling.Meanwhile(
                    "the exact solver", self.report, warm, self.players
                )
        if self.behind is None:
            return K
        quick = positions * INTERPRETED_US[name] <= INTERPRETED_SECONDS * 1e6
        if self.behind.compiling and quick:
            return self.plain
        self.behind.finish()  # a large layer: it waits for the compiled kernels
        return K

    def stop(self) -> None:
        if self.behind is not None:
            self.behind.stop("the solve was done first")


_cold: _Cold | None = None


@contextmanager
def at_once(players: int, report: Report | None = None) -> Iterator[None]:
    """The solves in the body start at once on a cold cache: when the solver's kernels are
    neither compiled in this process nor in numba's cache, they compile in a process of their
    own (``report``: the step "compiling the exact solver in the background", see
    :class:`.compiling.Meanwhile`), and the layers run interpreted until that is done, each
    layer whose interpreted estimate is at most :data:`INTERPRETED_SECONDS` (the rulebook's
    2-player solve, its shares checked, in about 8 s instead of 85 s of compiling). One body
    at a time, in one thread (the command line's)."""
    global _cold
    _cold = _Cold(players, report)
    try:
        yield
    finally:
        cold, _cold = _cold, None
        cold.stop()


def _once(kernel: Any, *args: Any) -> None:
    """``kernel(*args)``, a call made once a solve: in the body of :func:`at_once`
    interpreted unless it is compiled here or in numba's cache (it takes less than compiling)."""
    if _cold is not None:
        from sheepfold.core import compiling

        if not compiling.cached(kernel, *args):
            compiling.interpreted(kernel)(*args)
            return
    kernel(*args)


def _layer(name: str, positions: int, *args: Any) -> None:
    """The solver kernel ``name`` on a layer of ``positions`` positions: compiled, or in the
    body of :func:`at_once`, interpreted while it compiles."""
    kernels = K if _cold is None else _cold.kernels(name, positions, args)
    getattr(kernels, name)(*args)


# -- solutions ------------------------------------------------------------------------------
@dataclass
class Solution:
    """A solved value table. ``V[:, 0]`` is ``seat``'s win share (minimax: seat 0's; seat 1 gets
    the rest); ``tab`` holds the decisions of the seats that optimised (see solver_kernel)."""

    space: Space
    kind: str  # "minimax", "guaranteed", "best-response"
    seat: int
    V: np.ndarray
    tab: np.ndarray
    kinds: np.ndarray
    stats: Stats = field(default_factory=Stats)
    against: tuple[str, ...] = ()

    @property
    def start_value(self) -> float:
        return float(self.V[self.space.start_index(), 0])

    def _value(self, state: ShaveState) -> float:
        ph = state.phase
        if ph == OVER:
            return float(state.returns()[self.seat])
        if ph == ROLL:
            return float(self.V[self.space.index_of(state), 0])
        if ph in (CHOOSE, GRAB, HOWL_TARGET, HOWL_GROW) and state.current_player() == CHANCE:
            return sum(p * self._value(_child(state, a)) for a, p in state.chance_outcomes())
        vals = self.action_values(state)
        seat = state.current_player()
        k = self.kinds[seat]
        if k == K.MAX:
            return max(vals.values())
        if k == K.MIN:
            return min(vals.values())
        if k == K.RANDOM:
            return sum(vals.values()) / len(vals)
        return vals[self._fixed_choice(state)]

    def action_values(self, state: ShaveState) -> dict[int, float]:
        """``seat``'s value after each legal action of a decision state."""
        return {a: self._value(_child(state, a)) for a in state.legal_actions()}

    def _fixed_choice(self, state: ShaveState) -> int:
        k = self.kinds[state.current_player()]
        if k == K.GREEDY:
            return policy.greedy_action(state)
        return self.choice(state)

    def choice(self, state: ShaveState) -> int:
        """The table's action at a decision state (the optimising seat's policy)."""
        x = self.space.index_of(state) if state.phase in (CHOOSE, HOWL_TARGET) else -1
        if state.phase == CHOOSE:
            return int(self.tab[x, self.space.prm[P_COL + state.face]])
        if state.phase == HOWL_TARGET:
            from sheepfold.games.shave_a_sheep.game import WOLF0

            return WOLF0 + int(self.tab[x, self.space.prm[P_COL + state.face] + 1 + state.grabber])
        if state.phase == HOWL_GROW:
            # the grow decision depends only on the position reached: recompute it
            vals = self.action_values(state)
            k = self.kinds[state.turn]
            if k == K.MIN:
                return min(vals, key=lambda a: (vals[a], a))
            best = max(vals.values())
            return next(a for a in sorted(vals) if vals[a] == best)
        raise SolverError("not a decision state")

    def best_action(self, state: ShaveState) -> int:
        """The optimal action of the seat to move (for minimax: either seat)."""
        return self.choice(state)


def _child(state: ShaveState, action: int) -> ShaveState:
    c = state.clone()
    c.apply_unchecked(action)
    return c


@dataclass
class Evaluation:
    """Exact win shares of every seat for a fixed table of policies."""

    space: Space
    labels: tuple[str, ...]
    V: np.ndarray
    stats: Stats

    @property
    def shares(self) -> tuple[float, ...]:
        """Every seat's own win share from the start (a game that never ends is nobody's)."""
        return tuple(float(v) for v in self.V[self.space.start_index()])

    @property
    def endless(self) -> float:
        """The share of games that never end: what the seats' win shares leave of 1 (0 when
        every game ends; up to the solve's tolerance)."""
        return max(0.0, 1.0 - sum(self.shares))


def _space(rules: ShaveRules | Space, players: int) -> Space:
    if isinstance(rules, Space):
        return rules
    return Space(rules, players)


def solve_minimax(
    rules: ShaveRules | Space, tol: float = DEFAULT_TOL, progress: ProgressFn | None = None
) -> Solution:
    """2 players: seat 0's win share under optimal play by both (seat 0 maximises it, seat 1
    minimises it), and both optimal policies. Seat 1's own share is not ``1 -`` seat 0's when a
    game can go on for ever: :func:`minimax_shares` plays the two policies out."""
    space = _space(rules, 2)
    if space.n != 2:
        raise SolverError("minimax is for 2 players; use guaranteed_share for 3-4")
    kinds = np.array([K.MAX, K.MIN], dtype=np.int64)
    tab = np.zeros((space.size, space.C), dtype=np.int8)
    V, st = _run(space, kinds, 1, 0, tab, True, tol, progress)
    return Solution(space, "minimax", 0, V, tab, kinds, st)


def minimax_shares(sol: Solution, tol: float = DEFAULT_TOL) -> Evaluation:
    """Both seats' own win shares (and the share of games that never end) when both play the
    minimax policies of ``sol``: an exact evaluation of the two policies, so that seat 1's share
    is its own, never ``1 -`` seat 0's."""
    if sol.kind != "minimax":
        raise SolverError(f"not a minimax solution: {sol.kind}")
    return evaluate(sol.space, 2, [sol, sol], tol)


#: a chance of ending below this (or above 1 - it) is the solve's tolerance, not a finding
ENDING_TOL = 1e-6


@dataclass(frozen=True)
class Ending:
    """How surely a game ends from the start, over every way the seats may play: ``least``
    when they all play to make it last, ``most`` when they all play to end it."""

    players: int
    least: float
    most: float

    @property
    def can_end(self) -> bool:
        return self.most > ENDING_TOL

    @property
    def always_ends(self) -> bool:
        return self.least > 1 - ENDING_TOL


def ending(rules: ShaveRules | Space, players: int, tol: float = DEFAULT_TOL) -> Ending:
    """Can a game under these rules end, and must it? Two solves in which a finished game is
    worth 1 to every seat: all seats minimising, then all maximising, the chance that it ends
    (a game that cannot end is one no roll and no move ever finishes)."""
    space = _space(rules, players)
    _check_memory(space, 1, 0, "an ending analysis")
    tab = np.zeros((1, 1), dtype=np.int8)
    least, most = (
        float(
            _run(space, np.full(space.n, kind, np.int64), 1, 0, tab, False, tol, None, ended=True)[
                0
            ][space.start_index(), 0]
        )
        for kind in (K.MIN, K.MAX)
    )
    return Ending(space.n, least, most)


def guaranteed_share(
    rules: ShaveRules | Space,
    players: int,
    seat: int,
    tol: float = DEFAULT_TOL,
    progress: ProgressFn | None = None,
) -> Solution:
    """The win share ``seat`` can secure against every other seat playing together against it."""
    space = _space(rules, players)
    _check_seat(space, seat)
    _check_memory(space, 1, 1, "a guaranteed share")
    kinds = np.full(space.n, K.MIN, dtype=np.int64)
    kinds[seat] = K.MAX
    tab = np.zeros((space.size, space.C), dtype=np.int8)
    V, st = _run(space, kinds, 1, seat, tab, True, tol, progress)
    return Solution(space, "guaranteed", seat, V, tab, kinds, st)


def symmetric(space: Space) -> bool:
    """Every seat is alike up to the seating order (equal reaction weights, teams that turning
    the table maps onto themselves): then the guaranteed shares of all seats come from one
    solve (:func:`guaranteed_shares_all`)."""
    n, teams = space.n, space.program.teams
    same = {frozenset(t) for t in teams}
    turned = all({frozenset((s + r) % n for s in t) for t in teams} == same for r in range(n))
    return bool(np.all(space.grab_prob == space.grab_prob[0])) and turned


def _orbits(space: Space, B: int) -> tuple[np.ndarray, np.ndarray]:
    """The blocks of layer B grouped by rotation of their pile vector: (pointers, members)."""
    n = space.n
    start, nb = int(space.block_start[B]), int(space.n_piles[B])
    groups: dict[tuple[int, ...], list[int]] = {}
    for r in range(nb):
        pv = tuple(int(v) for v in space.pv_all[start + r])
        key = min(pv[i:] + pv[:i] for i in range(n))
        groups.setdefault(key, []).append(r)
    ptr = [0]
    mem: list[int] = []
    for members in groups.values():
        mem.extend(members)
        ptr.append(len(mem))
    return np.array(ptr, dtype=np.int64), np.array(mem, dtype=np.int64)


def guaranteed_shares_all(
    rules: ShaveRules | Space,
    players: int,
    tol: float = DEFAULT_TOL,
    progress: ProgressFn | None = None,
    on_seat: Callable[[Solution], None] | None = None,
) -> list[Solution]:
    """Every seat's guaranteed share in one solve, on the positions where seat 0 rolls (the
    others are the same positions turned round: their own, smaller index). Needs equal
    reaction weights (see :func:`symmetric`). ``on_seat`` receives each seat's solution as it
    is unfolded, one at a time (then the list returned is empty: for 4 players the seats do not
    all fit in memory at once)."""
    space = _space(rules, players)
    if not symmetric(space):
        raise SolverError(
            "the seats are not alike (unequal reaction weights, or teams that differ when the "
            "table turns): solve seat by seat"
        )
    n = space.n
    ix0, size0 = space.seat0_index()
    _check_rotating_memory(space, size0, 1 if on_seat is not None else n)
    t0 = time.perf_counter()
    R = np.zeros((size0, n), dtype=np.float64)
    tab0 = np.zeros((size0, space.C), dtype=np.int8)
    cfgs = np.stack([_cfg(1, j, rot=True) for j in range(n)])
    kinds_all = np.full((n, n), K.MIN, dtype=np.int64)
    np.fill_diagonal(kinds_all, K.MAX)
    ctx = K.Context(space.prm, space.probs, ix0, kinds_all, tab0, cfgs, R)
    bufs, progs = _buffers(space, _workers(), 1, n)
    opts = (True, tol, MAX_SWEEPS, True)
    done = total_sweeps = max_sweeps = orbits = 0
    for B in range(space.W - 1, -1, -1):
        ptr, mem = _orbits(space, B)
        no = len(ptr) - 1
        sweeps = np.zeros(no, dtype=np.int64)
        deltas = np.zeros(no, dtype=np.float64)
        size = int(ix0.off[B + 1] - ix0.off[B])
        _layer("solve_layer_rot", size, B, ctx, (ptr, mem), bufs, progs, opts, (sweeps, deltas))
        if np.any(sweeps > MAX_SWEEPS):
            raise SolverError(
                f"value iteration did not converge in layer {B} (largest change {deltas.max():.2e})"
            )
        total_sweeps += int(sweeps.sum())
        max_sweeps = max(max_sweeps, int(sweeps.max()))
        orbits += no
        done += size
        if progress is not None:
            progress(done, size0)
    del bufs, progs
    secs = time.perf_counter() - t0
    st = Stats(secs, max_sweeps, total_sweeps / max(orbits, 1), orbits, joint=True)
    out: list[Solution] = []
    for f in range(n):
        V = np.zeros((space.size, 1), dtype=np.float64)
        tab = np.zeros((space.size, space.C), dtype=np.int8)
        _layer("unrotate", space.size, space.prm, space.ix, ix0, R, tab0, f, V, tab)
        kinds = np.full(n, K.MIN, dtype=np.int64)
        kinds[f] = K.MAX
        sol = Solution(space, "guaranteed", f, V, tab, kinds, st)
        del V, tab
        if on_seat is not None:
            on_seat(sol)
        else:
            out.append(sol)
        del sol
    return out


def _check_rotating_memory(space: Space, size0: int, seats_held: int) -> None:
    """Refuse a rotating solve whose arrays would not fit: every seat's values and decisions
    on the seat-0 positions, the seats' values and decisions unfolded on every position
    (``seats_held`` at a time) and the workers' compiled programs."""
    n, slots = space.n, space.C
    need = (
        size0 * (8 * n + slots)
        + seats_held * space.size * (8 + slots)
        + _buffer_bytes(space, _workers(), 1, n)
    )
    if need > memory_limit():
        raise SolverError(
            f"the guaranteed shares of this {n}-player game need about {need / 2**30:.1f} GB "
            f"({space.size:,} positions, {slots} decision slots each): more than the "
            f"{memory_limit() / 2**30:.0f} GB allowed (SHEEPFOLD_SOLVER_MAX_GB)"
        )


def evaluate(
    rules: ShaveRules | Space,
    players: int,
    policies: Sequence[Any],
    tol: float = DEFAULT_TOL,
    progress: ProgressFn | None = None,
) -> Evaluation:
    """Exact win shares of a table: one policy per seat ("random", "greedy", "perfect", a
    Solution, a Policy, a bot name or a Bot, or a function on decision states)."""
    space = _space(rules, players)
    if len(policies) != space.n:
        raise SolverError(f"{len(policies)} policies for {space.n} seats")
    pols = [as_policy(p, space, i) for i, p in enumerate(policies)]
    _check_memory(space, space.n, int(any(p.kind == "table" for p in pols)), "an exact evaluation")
    kinds, tab = _kinds_and_tab(space, pols, None, False)
    V, st = _run(space, kinds, space.n, 0, tab, False, tol, progress)
    return Evaluation(space, tuple(p.label for p in pols), V, st)


def best_response(
    rules: ShaveRules | Space,
    players: int,
    seat: int,
    policies: Sequence[Any],
    tol: float = DEFAULT_TOL,
    progress: ProgressFn | None = None,
) -> Solution:
    """The policy maximising ``seat``'s share when the other seats play ``policies`` (the entry
    for ``seat`` itself is ignored), and that share."""
    space = _space(rules, players)
    _check_seat(space, seat)
    if len(policies) != space.n:
        raise SolverError(f"{len(policies)} policies for {space.n} seats")
    _check_memory(space, 1, 1, "a best response")
    pols: list[Policy | None] = [
        None if i == seat else as_policy(p, space, i) for i, p in enumerate(policies)
    ]
    kinds, tab = _kinds_and_tab(space, pols, seat, False)
    V, st = _run(space, kinds, 1, seat, tab, True, tol, progress)
    labels = tuple("best response" if p is None else p.label for p in pols)
    return Solution(space, "best-response", seat, V, tab, kinds, st, labels)


def _check_seat(space: Space, seat: int) -> None:
    if not 0 <= seat < space.n:
        raise SolverError(f"there is no seat {seat} in a {space.n}-player game")


# -- the on-disk cache ----------------------------------------------------------------------
def cache_dir() -> Path:
    import os

    home = os.environ.get("SHEEPFOLD_HOME")
    return (Path(home) if home else Path.home() / ".sheepfold") / "cache" / "solver"


def cache_key(rules: ShaveRules, players: int, what: str) -> str:
    """The name of a cached result: what the rules do, the seats, what was computed, and the
    source of the solver and of everything it imports (an edit to it is a miss, never stale)."""
    text = f"{source_hash(__name__)}|{players}|{what}|{rules.key()}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def save_solution(sol: Solution, path: Path) -> None:
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp.npz")
    os.close(fd)
    np.savez(
        tmp,
        V=sol.V,
        tab=sol.tab,
        kinds=sol.kinds,
        seat=sol.seat,
        seconds=sol.stats.seconds,
        sweeps_max=sol.stats.sweeps_max,
        sweeps_mean=sol.stats.sweeps_mean,
        blocks=sol.stats.blocks,
        joint=sol.stats.joint,
        kind=np.array(sol.kind),
    )
    os.replace(tmp, path)


def load_solution(space: Space, path: Path) -> Solution | None:
    try:
        with np.load(path) as d:
            V, tab, kinds = d["V"], d["tab"], d["kinds"]
            st = Stats(
                float(d["seconds"]),
                int(d["sweeps_max"]),
                float(d["sweeps_mean"]),
                int(d["blocks"]),
                bool(d["joint"]) if "joint" in d else False,
            )
            sol = Solution(space, str(d["kind"]), int(d["seat"]), V, tab, kinds, st)
    except (OSError, KeyError, ValueError):
        return None
    if V.shape[0] != space.size:
        return None
    return sol


def cache_path(rules: ShaveRules, players: int, seat: int = 0) -> Path:
    what = "minimax" if players == 2 else f"guaranteed-{seat}"
    return cache_dir() / f"{cache_key(rules, players, what)}.npz"


def cached(
    rules: ShaveRules,
    players: int,
    seat: int = 0,
    space: Space | None = None,
    progress: ProgressFn | None = None,
    use_cache: bool = True,
) -> tuple[Solution, bool]:
    """The minimax solution (2 players) or ``seat``'s guaranteed share (3-4), from the disk
    cache when it is there (keyed by what the rules do); returns (solution, was cached).
    With 3-4 alike seats, a miss solves every seat at once and caches them all."""
    space = space or Space(rules, players)
    path = cache_path(rules, players, seat)
    if use_cache and path.exists():
        sol = load_solution(space, path)
        if sol is not None:
            return sol, True
    if players == 2:
        sol = solve_minimax(space, progress=progress)
    elif symmetric(space):
        found: list[Solution] = []

        def keep(one: Solution) -> None:
            # one seat in memory at a time: the others are saved, and read back if wanted
            saved = use_cache and _save_quietly(one, cache_path(rules, players, one.seat))
            if one.seat == seat and not saved:
                found.append(one)

        guaranteed_shares_all(space, players, progress=progress, on_seat=keep)
        if not found:
            sol = load_solution(space, path)
            if sol is None:
                raise SolverError(f"the solution just saved in {path} cannot be read back")
            found.append(sol)
        return found[0], False
    else:
        sol = guaranteed_share(space, players, seat, progress=progress)
    if use_cache:
        _save_quietly(sol, path)
    return sol, False


def _save_quietly(sol: Solution, path: Path) -> bool:
    """Save ``sol`` to the cache; False (and nothing raised) if the disk refuses."""
    try:
        save_solution(sol, path)
    except OSError:
        return False
    return True


# -- fast simulation (tests, strength numbers) ----------------------------------------------
@dataclass
class SimResult:
    labels: tuple[str, ...]
    games: int
    shares: tuple[float, ...]  # mean win share per seat
    stderr: tuple[float, ...]  # its standard error
    unfinished: int
    mean_turns: float

    def ci95(self, seat: int) -> tuple[float, float]:
        return (
            self.shares[seat] - 1.96 * self.stderr[seat],
            self.shares[seat] + 1.96 * self.stderr[seat],
        )


def simulate(
    rules: ShaveRules | Space,
    players: int,
    policies: Sequence[Any],
    games: int,
    seed: int = 0,
    max_turns: int = 100_000,
) -> SimResult:
    """Play ``games`` games (compiled, with the solver's rules) between fixed policies:
    "random", "greedy", "perfect", a Solution (its table) or a Policy."""
    space = _space(rules, players)
    pols = [as_policy(p, space, i) for i, p in enumerate(policies)]
    kinds, tab = _kinds_and_tab(space, pols, None, False)
    codes = {K.RANDOM: play.RANDOM, K.GREEDY: play.GREEDY, K.TABLE: play.TABLE}
    seats = (np.array([codes[int(k)] for k in kinds], dtype=np.int64), tab[None])
    prm = space.prm.copy()
    prm[P_MAXT] = max_turns
    seeds = (np.int64(seed) << 32) + np.arange(games, dtype=np.int64)
    shares = np.zeros((games, space.n))
    turns = np.zeros(games, dtype=np.int64)
    K.simulate(seeds, seats, prm, space.ix, shares, turns)
    done = ~np.isnan(shares[:, 0])
    sh = shares[done]
    k = max(int(done.sum()), 1)
    mean = sh.mean(axis=0) if len(sh) else np.zeros(space.n)
    se = sh.std(axis=0, ddof=1) / math.sqrt(k) if len(sh) > 1 else np.zeros(space.n)
    return SimResult(
        tuple(p.label for p in pols),
        games,
        tuple(float(v) for v in mean),
        tuple(float(v) for v in se),
        int((~done).sum()),
        float(turns.mean()),
    )
