"""Thousands of Dolly Crush games stepped at once from numpy arrays, on the compiled grid kernel.

    from sheepfold.vector import DollyBatch

    batch = DollyBatch(4096, players=2, rules="dolly-graded", seed=0)
    obs, info = batch.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = batch.sample_actions(rng)          # or your policy's, from obs and info["action_mask"]
        obs, rewards, terminated, truncated, info = batch.step(actions)

Every env stands at a decision of the seat to move (``current_player()``), exactly the engine's
decisions and action ids (:mod:`sheepfold.games.dolly_crush.game`: ``dog D``, each swap, ``stop``
under up-to swaps), on any rule set the grid kernel plays: every rule file of the rule language
(docs/spec/rule-language.md: shaped flocks, diagonal swaps, line and pattern combinations,
bonuses by length, gravity, cascades, rounds, end points). Chance (the deck's order, Dolly Crush ruling 6's
reshuffles) is drawn inside with splitmix64 streams keyed by ``(seed, env, game)``: env ``i``'s
``g``-th game after ``reset(seed=s)`` is the same whatever the other envs do; it is not the
engine's game of the same seed (the engine shuffles with Python's generator). ``record=True``
keeps every env's engine history (the cards drawn and the decisions, the engine's ``apply``
order): :meth:`DollyBatch.history` replays through the engine.

Observations are :class:`~sheepfold.games.dolly_crush.observation.DollyEncoder`'s (the Gymnasium,
PettingZoo and OpenSpiel adapters' encoding), float32 ``(num_envs, size)`` with
``observation="flat"``, ``(num_envs, rows, cols, channels)`` with ``"grid"`` (the single env's
two layouts, :func:`sheepfold.interop.encoding.observer_for`), seen from the seat to move (once a
game is over, from the seat that decided last); :meth:`observe` gives any seat's. Rewards
``(num_envs, players)`` are every seat's win share on the step a game ends (the engine's
``Outcome.shares``; Dolly Crush games are never cut: ``truncated`` stays False), else 0. With
``autoreset=True`` (the default) an env whose game ended starts its next game in the same step:
``obs`` is the new game's, ``info["final_obs"]`` holds the last observation of the ended game
and ``info["_final"]`` says which envs ended.

Seats may also be played inside the batch (``opponents``): ``"random"`` (a uniformly random legal
action per decision) or ``"greedy"`` (= ``"medium"``: the greedy bot's turn, the grid kernel's
exhaustive swap search, as the lab's fast path plays it): the learner's view that the Gymnasium
vector env (:mod:`sheepfold.vector.gym_dolly`) gives.

The first ``reset`` and ``step`` of a process load the kernel from numba's cache (seconds).
Cold, as :class:`~sheepfold.vector.shave.ShaveBatch` does, it compiles in a process of its own
(about a minute of another core) while the batch runs the same kernel interpreted, said on
stderr as "compiling the batched simulator in the background" and its seconds
(:mod:`sheepfold.core.compiling`; ``compiling=None``: silent, or any report);
``background=False`` compiles at the first calls instead, each a step of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from sheepfold.core.compiling import Report, print_report
from sheepfold.core.protocol import IllegalAction, SheepfoldError
from sheepfold.games.dolly_crush.game import PHASE_NAMES, DollyGame
from sheepfold.interop import build_game
from sheepfold.interop.encoding import GridEncoder, encoder_for, observer_for
from sheepfold.vector import dolly_kernel as K
from sheepfold.vector.base import Batch, inside_codes
from sheepfold.vector.checks import checked_num_envs

#: the policies a batch can play inside, by bot name (``greedy`` and ``medium``: one bot)
INSIDE_POLICIES = {"random": K.RANDOM, "greedy": K.GREEDY, "medium": K.GREEDY}
#: the history kept per env with ``record=True``
RECORD = 8192
#: the default report of a compile step: a line on stderr
_STDERR = print_report()


def refusal(game: Any) -> str | None:
    """Why the batch cannot play ``game`` (None: it can): only Dolly Crush, and card ids that
    fit the grid kernel's int8 flock."""
    if not isinstance(game, DollyGame):
        return f"DollyBatch plays Dolly Crush, not {getattr(game, 'name', game)!r}"
    if game.board.kinds > 127:
        return f"the grid kernel holds at most 127 card kinds, not {game.board.kinds}"
    return None


def _seats(opponents: str | Sequence[str] | None, seat: int | str, n: int) -> np.ndarray:
    """The codes of the seats played inside, in seat order (none: the caller plays all)."""
    return inside_codes(
        opponents,
        seat,
        n,
        INSIDE_POLICIES,
        "the batch plays {known} inside, not {bad} (for the other bots use the single "
        "environment, sheepfold/DollyCrush-v0)",
    )


def warm() -> None:
    """Compile (or load) the batch's kernels: small batches' resets, steps and views, with the
    caller on every seat and with greedy opponents inside."""
    for opponents in (None, "greedy"):
        batch = DollyBatch(4, players=2, seed=0, opponents=opponents, background=False)
        batch.reset()
        for _ in range(4):
            batch.step(batch.sample_actions())
        batch.observe()


class DollyBatch(Batch):
    """``num_envs`` Dolly Crush games stepped together (see the module docstring).

    ``players`` and ``rules`` (a mapping, a rules object or a rule-set name, e.g. a rule file's
    contents) are the Gymnasium env's (:func:`sheepfold.interop.build_game`; ``game`` takes a
    :class:`DollyGame` instead). ``observation``: ``"flat"`` or ``"grid"``. ``opponents``: None
    (the caller plays every seat) or the policies of the seats other than ``seat`` (one name for
    all, or one per seat in seat order): ``"random"`` or ``"greedy"``; then ``seat`` (an int or
    ``"random"``: drawn per game) is the caller's and the observations are always that seat's.
    """

    _kernel = K
    _warm = staticmethod(warm)

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Mapping[str, Any] | Any = None,
        seed: int = 0,
        *,
        game: DollyGame | None = None,
        observation: str = "flat",
        opponents: str | Sequence[str] | None = None,
        seat: int | str = 0,
        autoreset: bool = True,
        record: bool = False,
        compiling: Report | None = _STDERR,
        background: bool = True,
    ) -> None:
        checked_num_envs(num_envs)
        self._compiling(compiling, background)
        built = game if game is not None else build_game("dolly-crush", players, rules)
        why = refusal(built)
        if why is not None or not isinstance(built, DollyGame):
            raise SheepfoldError(why)
        g = built
        self.game = g
        self.num_envs = E = num_envs
        self.num_players = n = g.num_players
        self.num_actions = g.num_actions
        self.encoder = encoder_for(g)
        self.observer = observer_for(g, observation)
        self.obs_size = self.encoder.size
        self.obs_shape: tuple[int, ...] = tuple(self.observer.shape)
        if isinstance(self.observer, GridEncoder):  # the grid: a fixed gather of the flat values
            at = self.observer.from_flat(np.arange(self.obs_size, dtype=np.float32))
            self._grid = at.astype(np.int64)
        self.autoreset = autoreset
        self.seed = int(seed) & (2**64 - 1)
        self.opponents = opponents
        self._opp = _seats(opponents, seat, n)
        self._cfg = np.array(
            [int(autoreset), int(seat == "random"), seat if isinstance(seat, int) else 0],
            dtype=np.int64,
        )
        self._kit = kernel_kit(g, self.encoder)
        board = g.board
        total = sum(g.composition)
        self._state = (
            np.zeros((E, K.ST_LEN), dtype=np.int64),
            np.full((E, board.cells), -1, dtype=np.int8),
            np.zeros((E, total + board.cells), dtype=np.int64),
            np.zeros(E, dtype=np.uint64),
            np.zeros((E, n), dtype=np.int64),
            np.zeros((E, n, board.kinds), dtype=np.int64),
            np.zeros((E, n), dtype=np.int64),
            np.full((E, n), K.EXTERNAL, dtype=np.int64),
            np.zeros((E, RECORD if record else 0), dtype=np.int64),
            np.zeros(E, dtype=np.int64),
        )
        self._state[0][:, K.PH] = K.OVER
        self._state[0][:, K.LEARNER] = -1
        self._games = np.zeros(E, dtype=np.int64)
        self._flat = np.zeros((E, self.obs_size), dtype=np.float32)
        self._mask = np.zeros((E, self.num_actions), dtype=np.bool_)

    # -- reading the batch ------------------------------------------------------------------
    def _shaped(self, flat: np.ndarray) -> np.ndarray:
        """Flat observations in the batch's layout (a new array)."""
        if self._grid is None:
            return flat.copy()
        return flat[:, self._grid]

    def current_player(self) -> np.ndarray:
        """The seat that decides in each env, int ``(num_envs,)``; -1 where the game is over."""
        st = self._state[0]
        return np.where(st[:, K.PH] == K.OVER, -1, st[:, K.TURN])

    def phases(self) -> np.ndarray:
        """Each env's engine phase number (``DOG``, ``SWAP`` or ``OVER``)."""
        return self._state[0][:, K.PH].copy()

    def over(self) -> np.ndarray:
        """Which envs stand at the end of a game (only without autoreset, or before reset)."""
        return self._state[0][:, K.PH] == K.OVER

    def scores(self) -> np.ndarray:
        """Every seat's points in each env, int ``(num_envs, players)``."""
        return self._state[6].copy()

    def flocks(self) -> np.ndarray:
        """Each env's flock, int8 ``(num_envs, cells)`` (card ids, -1 empty; a copy)."""
        return self._state[1].copy()

    def learner_seats(self) -> np.ndarray:
        """The caller's seat in each env (with ``opponents``; -1 without: every seat)."""
        return self._state[0][:, K.LEARNER].copy()

    # -- playing --------------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, envs: np.ndarray | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game in every env (or those of the bool mask ``envs``). ``seed``: restart the
        game counters from it (None: go on with the current seed and counters)."""
        which = self._to_reset(seed, envs)
        self._reset_games(
            (which, self.seed, self._games, self._state, self._kit, self._cfg, self._opp),
            self._flat,
        )
        return self._shaped(self._flat), {"action_mask": self._mask.copy()}

    def step(
        self, actions: Any, resets: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every env plays its action (``resets``: a bool mask of envs that start a new game
        instead, their action ignored). Returns ``(obs, rewards, terminated, truncated, info)``;
        ``info["action_mask"]`` is the legal mask of the new decisions. An action that is not
        legal (or an env whose game is over, without autoreset) raises IllegalAction naming
        the env, its decision and its legal actions; nothing is played then."""
        E = self.num_envs
        acts = self._actions(actions)
        skip = np.zeros(E, np.bool_) if resets is None else self._env_mask(resets)
        k = self._kernels()
        with self._first_call(k.step_many, "the batched simulator's step"):
            bad, why = k.check_actions(acts, skip, self._state, self._kit)
            if bad < 0:
                rew = np.zeros((E, self.num_players), dtype=np.float32)
                term = np.zeros(E, np.bool_)
                ended = np.zeros(E, np.bool_)
                final = np.zeros((E if self.autoreset else 0, self.obs_size), dtype=np.float32)
                out = (self._flat, self._mask, rew, term, final, ended)
                k.step_many(
                    acts,
                    skip,
                    self.seed,
                    self._games,
                    self._state,
                    self._kit,
                    self._cfg,
                    self._opp,
                    out,
                )
        if bad >= 0:
            raise IllegalAction(self._illegal(int(bad), int(acts[bad]), int(why)))
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self.autoreset:
            info["final_obs"] = self._shaped(final)
            info["_final"] = ended
        return self._shaped(self._flat), rew, term, np.zeros(E, np.bool_), info

    # -- the hooks of Batch ---------------------------------------------------------------------
    def _seed_value(self, seed: int) -> int:
        return int(seed) & (2**64 - 1)

    def _trace(self) -> tuple[np.ndarray, np.ndarray]:
        return self._state[8], self._state[9]

    def _points(self) -> np.ndarray:
        return self._state[6].astype(np.float64)

    def _illegal_move(self, env: int, action: int, legal: list[int]) -> str:
        st = self._state[0][env]
        phase = PHASE_NAMES[int(st[K.PH])]
        return (
            f"env {env}: action {action} is not legal at seat {int(st[K.TURN])}'s {phase} "
            f"decision (legal: {legal})"
        )


def packed_search(game: DollyGame) -> bool:
    """Whether the greedy seat's turn is searched on the packed kernel (about 3x faster than the
    grid kernel's, the same answers): exact swaps and the rulebook's lines and swaps
    (:func:`~sheepfold.games.dolly_crush.kernel.layout.packable`), the refill aside (gravity
    moves cards only after the turn's swaps: no part of a turn's search)."""
    from sheepfold.games.dolly_crush.kernel.layout import packable

    return game.stop is None and packable(replace(game.board, gravity=False))


def kernel_kit(game: DollyGame, encoder: Any) -> tuple[Any, ...]:
    """The rule set's and the observation's constants the kernel takes as ``kit``."""
    from sheepfold.games.dolly_crush.kernel.layout import geometry, tables

    r = game.rules
    board = game.board
    prm = np.zeros(K.PRM_LEN, dtype=np.int64)
    prm[K.P_N] = game.num_players
    prm[K.P_DOGS] = game.num_dogs
    prm[K.P_SWAP0] = game.swap0
    prm[K.P_STOP] = -1 if game.stop is None else game.stop
    prm[K.P_MAXT] = game.max_turns or 0
    prm[K.P_TARGET] = -1 if r.end_points is None else r.end_points
    prm[K.P_CLEANUP] = r.max_cleanup_rounds
    prm[K.P_CASCADES] = int(r.cascades)
    prm[K.P_CELLS] = board.cells
    prm[K.P_KINDS] = board.kinds
    prm[K.P_TOTAL] = sum(game.composition)
    prm[K.P_MAXSW] = max(max(s) for s in game.dog_swaps)
    prm[K.P_PACKED] = int(packed_search(game))
    o = encoder.o
    names = (
        "seat",
        "phase",
        "turn",
        "flock",
        "deck",
        "returning",
        "collected",
        "dogs_left",
        "dog_swaps",
        "dog",
        "swaps_left",
        "scores",
        "rounds",
    )
    lay = np.array([o.get(k, -1) for k in names] + [encoder.size], dtype=np.int64)
    from sheepfold.games.dolly_crush.observation import _MAX_SWAPS

    flt = np.array([encoder.inv_points, encoder.inv_turns, _MAX_SWAPS], dtype=np.float64)
    return (
        prm,
        geometry(board, tuple(game.points)),
        np.array(game.dog_swaps, dtype=np.int64),
        np.array(game.composition, dtype=np.int64),
        lay,
        np.array(encoder.cell_at, dtype=np.int64),
        np.array(encoder.hole_at, dtype=np.int64),
        np.array(encoder.inv_copies, dtype=np.float64),
        flt,
        tables(tuple(game.points)) if prm[K.P_PACKED] else _NO_TABLES,
    )


#: the packed tables' types, for a rule set whose greedy seat searches on the grid kernel
_NO_TABLES = (
    np.zeros(1, np.int16),
    np.zeros(1, np.int32),
    np.zeros(1, np.int32),
    np.zeros(1, np.uint8),
    np.zeros(1, np.uint8),
)


__all__ = ["INSIDE_POLICIES", "DollyBatch", "kernel_kit", "packed_search", "refusal"]
