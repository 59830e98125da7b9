"""Thousands of Shave a Sheep games stepped at once from numpy arrays, on the compiled kernel.

    from sheepfold.vector import ShaveBatch

    batch = ShaveBatch(4096, players=2, rules="howling-wolf", seed=0)
    obs, info = batch.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = batch.sample_actions(rng)          # or your policy's, from obs and info["action_mask"]
        obs, rewards, terminated, truncated, info = batch.step(actions)

Every env stands at a decision of the seat to move (``current_player()``), exactly the
engine's decisions and action ids (:mod:`sheepfold.games.shave_a_sheep.game`, rerolls and every
house rule included: a decision with one legal action is still a decision, as in the engine).
Chance (the die, Howling Wolf's grab) is resolved inside with the kernel's counter-based random
numbers: env ``i``'s ``g``-th game after ``reset(seed=s)`` is the same whatever the other envs
do. ``record=True`` keeps every env's engine history (chance outcomes and decisions, the
engine's ``apply`` order): :meth:`ShaveBatch.history` replays through the engine.

Observations are :class:`~sheepfold.games.shave_a_sheep.observation.ShaveEncoder`'s (the
Gymnasium, PettingZoo and OpenSpiel adapters' encoding), float32 ``(num_envs, size)``, seen from
the seat to move (once a game is over, from the seat that decided last); :meth:`observe` gives
any seat's. Rewards ``(num_envs, players)`` are every seat's win share on the step a game ends
(the engine's ``Outcome.shares``: a game cut at ``max_turns`` is truncated and gives 1/n each),
else 0. With ``autoreset=True`` (the default) an env whose game ended starts its next game in the
same step: ``obs`` is the new game's, ``info["final_obs"]`` holds the last observation of the
ended game and ``info["_final"]`` says which envs ended.

Seats may also be played inside the batch (``opponents``): the learner's view that the
Gymnasium vector env (:mod:`sheepfold.vector.gym_shave`) gives.

The first ``reset`` and ``step`` of a process load the kernel from numba's cache (seconds).
Cold, when the cache does not hold it, it compiles in a process of its own (about a minute of
another core) while the batch runs the same kernel interpreted (the same games, a few hundred
times slower), said on stderr as "compiling the batched simulator in the background" and its
seconds when it is done (:mod:`sheepfold.core.compiling`; ``compiling=None``: silent, or any
report); ``background=False`` compiles at the first calls instead, each a step of its own
("compiling the batched simulator's step: 40 s").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sheepfold.core.compiling import Report, print_report
from sheepfold.core.protocol import IllegalAction, SheepfoldError
from sheepfold.games.shave_a_sheep.game import PHASE_NAMES, ShaveGame
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel.play import GREEDY, RANDOM, TRACE_PER_TURN
from sheepfold.interop import _UNSET, build_game
from sheepfold.interop.encoding import encoder_for
from sheepfold.vector import shave_kernel as K
from sheepfold.vector.base import Batch, inside_codes
from sheepfold.vector.checks import checked_num_envs

#: the policies a batch can play inside, by bot name
INSIDE_POLICIES = {"random": RANDOM, "greedy": GREEDY}
#: the history kept per env with ``record=True`` when the game has no turn limit
UNLIMITED_RECORD = 100_000
#: the default report of a compile step: a line on stderr
_STDERR = print_report()


def warm() -> None:
    """Compile (or load) the batch's kernels: a small batch's reset, steps and views (the
    kernels' types are those of every batch, whatever its rules, seats and size)."""
    batch = ShaveBatch(4, players=2, seed=0, background=False)
    batch.reset()
    for _ in range(4):
        batch.step(batch.sample_actions())
    batch.observe()


class ShaveBatch(Batch):
    """``num_envs`` Shave a Sheep games stepped together (see the module docstring).

    ``players``, ``rules`` (a mapping, a rules object or a rule-set name) and ``max_turns``
    are the Gymnasium env's (:func:`sheepfold.interop.build_game`; ``game`` takes a
    :class:`ShaveGame` instead). ``opponents``: None (the caller plays every seat) or the
    policies of the seats other than ``seat`` (one name for all, or one per seat in seat
    order): ``"random"`` or ``"greedy"``; then ``seat`` (an int or ``"random"``: drawn per game)
    is the caller's and the observations are always that seat's. ``compiling`` and
    ``background``: see the module docstring.
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
        max_turns: int | None = _UNSET,
        game: ShaveGame | None = None,
        opponents: str | Sequence[str] | None = None,
        seat: int | str = 0,
        autoreset: bool = True,
        record: bool = False,
        compiling: Report | None = _STDERR,
        background: bool = True,
    ) -> None:
        checked_num_envs(num_envs)
        built = game if game is not None else build_game("shave-a-sheep", players, rules, max_turns)
        if not isinstance(built, ShaveGame):
            raise SheepfoldError(f"ShaveBatch plays Shave a Sheep, not {built.name}")
        self.game: ShaveGame = built
        self.num_envs = num_envs
        self.num_players = n = self.game.num_players
        self.num_actions = self.game.info.num_distinct_actions
        self.encoder = encoder_for(self.game)
        self.obs_size = self.encoder.size
        self.prm = L.rules_record(self.game)
        self.autoreset = autoreset
        self._compiling(compiling, background)
        self.seed = int(seed)
        opp, learner, random_seat = _seats(opponents, seat, n)
        self.opponents = opponents
        self._cfg = np.array([int(autoreset), int(random_seat), int(record)], dtype=np.int64)
        self._kit = kernel_kit(self.game, self.prm)
        E = num_envs
        st = np.zeros((E, L.STATE_LEN), dtype=np.int64)
        ph = np.full((E, K.PH_LEN), -1, dtype=np.int64)
        ph[:, K.PH] = K.PH_OVER
        ph[:, K.LEARNER] = learner
        codes = np.full((E, n), K.EXTERNAL, dtype=np.int64)
        if opponents is not None and not random_seat:
            others = [s for s in range(n) if s != learner]
            codes[:, others] = opp
        maxt = int(self.prm[L.P_MAXT]) or UNLIMITED_RECORD // TRACE_PER_TURN
        trace = np.zeros((E, TRACE_PER_TURN * maxt if record else 0), dtype=np.int64)
        self._state = (
            st,
            ph,
            codes,
            opp,
            np.zeros((0, 1, 1), np.int8),
            trace,
            np.zeros(E, np.int64),
        )
        self._keys = np.zeros(E, dtype=np.uint64)
        self._games = np.zeros(E, dtype=np.int64)
        self._obs = np.zeros((E, self.obs_size), dtype=np.float32)
        self._mask = np.zeros((E, self.num_actions), dtype=np.bool_)

    # -- reading the batch ------------------------------------------------------------------
    @property
    def states(self) -> np.ndarray:
        """The kernel's state vectors, ``(num_envs, STATE_LEN)`` (read only: a copy)."""
        return self._state[0].copy()

    def phases(self) -> np.ndarray:
        """Each env's engine phase (``CHOOSE``, ``HOWL_TARGET``, ``HOWL_GROW`` or ``OVER``)."""
        return self._state[1][:, K.PH].copy()

    def current_player(self) -> np.ndarray:
        """The seat that decides in each env, int ``(num_envs,)``; -1 where the game is over."""
        st, ph = self._state[0], self._state[1]
        out = np.where(ph[:, K.PH] == K.HOWL_TARGET, ph[:, K.GRABBER], st[:, L.TURN])
        out[ph[:, K.PH] == K.PH_OVER] = -1
        return out

    def over(self) -> np.ndarray:
        """Which envs stand at the end of a game (only without autoreset, or before reset)."""
        return self._state[1][:, K.PH] == K.PH_OVER

    def learner_seats(self) -> np.ndarray:
        """The caller's seat in each env (with ``opponents``; -1 without: every seat)."""
        return self._state[1][:, K.LEARNER].copy()

    # -- playing --------------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, envs: np.ndarray | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game in every env (or those of the bool mask ``envs``). ``seed``: restart the
        game counters from it (None: go on with the current seed and counters)."""
        which = self._to_reset(seed, envs)
        self._reset_games(
            (which, self.seed, self._games, self._keys, self._state, self._kit, self._cfg),
            self._obs,
        )
        return self._obs.copy(), {"action_mask": self._mask.copy()}

    def step(
        self, actions: Any, resets: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every env plays its action (``resets``: a bool mask of envs that start a new game
        instead, their action ignored). Returns ``(obs, rewards, terminated, truncated, info)``;
        ``info["action_mask"]`` is the legal mask of the new decisions. An action that is not
        legal (or an env whose game is over, without autoreset) raises IllegalAction naming
        the env, its decision and its legal actions; nothing is played then."""
        acts = self._actions(actions)
        skip = np.zeros(self.num_envs, np.bool_) if resets is None else self._env_mask(resets)
        k = self._kernels()
        with self._first_call(k.step_many, "the batched simulator's step"):
            bad, why = k.check_actions(acts, skip, self._state, self._kit)
            if bad < 0:
                out = self._step(k, acts, skip)
        if bad >= 0:
            raise IllegalAction(self._illegal(int(bad), int(acts[bad]), int(why)))
        return out

    def _step(
        self, k: Any, acts: np.ndarray, skip: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`step` once its actions are checked."""
        E = self.num_envs
        rew = np.zeros((E, self.num_players), dtype=np.float32)
        term = np.zeros(E, np.bool_)
        trunc = np.zeros(E, np.bool_)
        ended = np.zeros(E, np.bool_)
        final = np.zeros((E if self.autoreset else 0, self.obs_size), dtype=np.float32)
        into = (self._obs, self._mask, rew, term, trunc, final, ended)
        k.step_many(
            acts, skip, self.seed, self._games, self._keys, self._state, self._kit, self._cfg, into
        )
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self.autoreset:
            info["final_obs"] = final
            info["_final"] = ended
        return self._obs.copy(), rew, term, trunc, info

    # -- the hooks of Batch ---------------------------------------------------------------------
    def _trace(self) -> tuple[np.ndarray, np.ndarray]:
        return self._state[5], self._state[6]

    def _points(self) -> np.ndarray:
        """Every seat's safe pile, a team's piles together (the engine's scores)."""
        n = self.num_players
        piles = self._state[0][:, L.PILE : L.PILE + n].astype(np.float64)
        teams = self.game.program.teams
        if teams:
            same = np.eye(n)
            for team in teams:
                for a in team:
                    for b in team:
                        same[a, b] = 1.0
            piles = piles @ same
        return piles

    def _truncated(self) -> np.ndarray:
        """The games cut at ``max_turns``."""
        return self._state[0][:, L.TRUNCATED] == 1

    def _illegal_move(self, env: int, action: int, legal: list[int]) -> str:
        st, ph = self._state[0][env], self._state[1][env]
        seat = int(ph[K.GRABBER]) if ph[K.PH] == K.HOWL_TARGET else int(st[L.TURN])
        phase = PHASE_NAMES[int(ph[K.PH])]
        face = self.game.faces[int(ph[K.FACE])] if ph[K.FACE] >= 0 else "-"
        return (
            f"env {env}: action {action} is illegal for seat {seat} at its {phase!r} decision "
            f"(rolled {face}); legal actions: {legal}"
        )


def _seats(
    opponents: str | Sequence[str] | None, seat: int | str, n: int
) -> tuple[np.ndarray, int, bool]:
    """(the other seats' policy codes in seat order, the learner seat or -1, random seat)."""
    opp = inside_codes(
        opponents, seat, n, INSIDE_POLICIES, "a batch plays only {known} inside, not {bad}"
    )
    if opponents is None:
        return opp, -1, False
    if seat == "random":
        return opp, 0, True
    assert isinstance(seat, int)
    return opp, seat, False


def kernel_kit(game: ShaveGame, prm: np.ndarray) -> tuple[np.ndarray, ...]:
    """What the batch kernels take besides the envs: (rules ``prm``, a legal-action buffer, a
    trial state vector, and the observation's layout of ``game``'s encoder)."""
    kit = (prm, np.zeros(L.MAX_LEGAL, np.int64), np.zeros(L.STATE_LEN, np.int64))
    return kit + _encoding(encoder_for(game), game)


def _encoding(enc: Any, game: ShaveGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The encoder's layout for the kernel: (piece offsets and size, float constants, verbs)."""
    names = "seat phase turn to_move middle sheep piles wolf roll roll_verbs grabber progress"
    lay = np.array(
        [enc.o[k] for k in names.split()] + [enc.size, enc.o.get("wolf2", -1)], dtype=np.int64
    )
    fl = np.array([enc.inv_wool, enc.inv_max, enc.inv_turns], dtype=np.float64)
    width = max([5, *(v + 1 for vs in enc.face_verbs for v in vs)])  # the rule set's own verbs too
    verbs = np.zeros((len(game.faces), width), dtype=np.int64)
    for f, vs in enumerate(enc.face_verbs):
        verbs[f, vs] = 1
    return lay, fl, verbs
