"""What every batch shares (:class:`~sheepfold.vector.shave.ShaveBatch`,
:class:`~sheepfold.vector.dolly.DollyBatch`): :class:`Batch`, the reading of the games (legal
masks, observations, histories, how the ended games ended) and the checks of what a caller
gives; :func:`inside_codes`, the seats played inside; :func:`learner_batch`, the batch behind
the Gymnasium and Stable-Baselines3 vector envs.

A game's batch is a :class:`Batch` with its compiled kernel module as ``_kernel`` (it has
``masks_all``, ``observe_all``, ``sample_actions`` and ``ERR_OVER``: see :mod:`sheepfold.vector.batch_kernel`) and
four hooks: :meth:`Batch._trace` (the recorded
histories), :meth:`Batch._points` (every seat's score), :meth:`Batch._truncated` (which games
were cut), and :meth:`Batch._illegal_move` (the words for an illegal action).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from typing import Any

import numpy as np

from sheepfold.core.compiling import Report
from sheepfold.core.compiling import step as compile_step
from sheepfold.core.protocol import SheepfoldError
from sheepfold.vector.checks import checked_actions, checked_env_mask


def inside_codes(
    opponents: str | Sequence[str] | None,
    seat: int | str,
    n: int,
    policies: Mapping[str, int],
    refusal: str,
) -> np.ndarray:
    """The policy codes of the seats played inside, in seat order (none: the caller plays
    every seat), from ``opponents`` (one name for all, or one per other seat) and the caller's
    ``seat`` (an int or ``"random"``); ValueError saying what is wrong. ``refusal`` formats
    the error for a name not in ``policies`` (``{known}``: the names, ``{bad}``: the names
    refused)."""
    if opponents is None:
        return np.zeros(0, dtype=np.int64)
    names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    if len(names) != n - 1:
        raise ValueError(f"{len(names)} opponents given for {n - 1} other seat(s)")
    bad = [x for x in names if x not in policies]
    if bad:
        known = ", ".join(policies)
        raise ValueError(refusal.format(known=known, bad=", ".join(map(repr, bad))))
    if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
    return np.array([policies[x] for x in names], dtype=np.int64)


def learner_batch(
    batch_class: Any,
    num_envs: int,
    players: int,
    rules: Any,
    opponents: str | Sequence[str],
    seat: int | str,
    seed: int = 0,
    record: bool = False,
    **options: Any,
) -> Any:
    """The batch behind a vector env: ``batch_class`` with ``opponents`` played inside, the
    caller at ``seat``, and no autoreset (the env reads the games that end, then restarts
    them); ``options``: the game's own (``max_turns``, ``observation``)."""
    return batch_class(
        num_envs,
        players,
        rules,
        seed,
        opponents=opponents,
        seat=seat,
        autoreset=False,
        record=record,
        **options,
    )


class Batch:
    """The reading and the checks every batch shares (module docstring). Set by the game's
    ``__init__``: ``num_envs``, ``num_players``, ``obs_size``, ``seed``, ``_state``, ``_kit``,
    ``_games`` (the games each env started) and ``_mask`` (the legal masks' buffer, bool
    ``(num_envs, num_actions)``)."""

    #: the game's batch kernel module
    _kernel: Any
    #: compiles (or loads) the batch kernels: a small batch of the game played (a module-level
    #: function: a compiling process of its own runs it, see :meth:`_cold_start`)
    _warm: Callable[[], None]
    #: what the compiling process compiles, in words (its step: "compiling ... in the background")
    _BACKGROUND = "the batched simulator"
    #: the observation's gather from the flat values (None: the flat layout)
    _grid: np.ndarray | None = None
    num_envs: int
    num_players: int
    obs_size: int
    _state: tuple[np.ndarray, ...]
    _kit: tuple[Any, ...]
    _mask: np.ndarray
    _games: np.ndarray
    seed: int

    # -- the game's hooks -----------------------------------------------------------------------
    def _trace(self) -> tuple[np.ndarray, np.ndarray]:
        """(every env's recorded engine actions, how many each has)."""
        raise NotImplementedError

    def _points(self) -> np.ndarray:
        """Every seat's score in each env, float ``(num_envs, players)``."""
        raise NotImplementedError

    def _truncated(self) -> np.ndarray:
        """Which envs' games were cut, bool ``(num_envs,)``."""
        return np.zeros(self.num_envs, np.bool_)

    def _illegal_move(self, env: int, action: int, legal: list[int]) -> str:
        """The words for ``action`` not being legal in env ``env``."""
        raise NotImplementedError

    # -- compiling ------------------------------------------------------------------------------
    def _compiling(self, compiling: Report | None, background: bool) -> None:
        """Set by the game's ``__init__``: the report of the compile steps, and whether a cold
        first reset compiles in the background (:meth:`_cold_start`)."""
        self.compiling = compiling
        self._cold = background  # the first reset asks whether the kernels are compiled
        self._background: Any = None  # the kernels compiling behind (a compiling.Meanwhile)
        self._interpreted: Any = None

    def _cold_start(self, reset_args: tuple[Any, ...]) -> None:
        """At the first reset (``reset_args``: its kernel's): when the kernels are neither
        compiled in this process nor in numba's cache, compile them in a process of their own
        (:class:`.compiling.Meanwhile`, running :attr:`_warm`) and run them interpreted until
        that is done (:meth:`_kernels`: the same code, the same games, slower)."""
        if not self._cold:
            return
        self._cold = False
        from numba.core.dispatcher import Dispatcher

        from sheepfold.core import compiling

        reset = self._kernel.reset_many
        if not isinstance(reset, Dispatcher) or compiling.cached(reset, *reset_args):
            return
        self._interpreted = compiling.Interpreted(self._kernel)
        self._background = compiling.Meanwhile(self._BACKGROUND, self.compiling, type(self)._warm)

    def _kernels(self) -> Any:
        """The kernel module, or the same interpreted while it compiles in the background (once
        that is done: the compiled one, loaded from the cache)."""
        if self._background is not None and self._background.compiling:
            return self._interpreted
        return self._kernel

    def _reset_games(self, args: tuple[Any, ...], obs: np.ndarray) -> None:
        """The game's ``reset_many(*args)`` (compiled, or interpreted while it compiles: its
        first call's step), then every env's observation into ``obs`` and the legal masks."""
        self._cold_start(args)
        k = self._kernels()
        with self._first_call(k.reset_many, "the batched simulator's reset"):
            k.reset_many(*args)
            k.observe_all(np.full(self.num_envs, -1, np.int64), self._state, self._kit, obs)
            k.masks_all(self._state, self._kit, self._mask)

    def _first_call(self, kernel: Any, what: str) -> Any:
        """The first call of ``kernel`` in this process, as a compile step; later (or
        interpreted): nothing."""
        if getattr(kernel, "signatures", True):
            return nullcontext()
        return compile_step(what, self.compiling)

    def close(self) -> None:
        """Stop compiling in the background, if it still does (it also ends with the process)."""
        if self._background is not None:
            self._background.stop()

    # -- reading the batch ------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        """The legal actions of each env's decision, bool ``(num_envs, num_actions)``."""
        self._kernels().masks_all(self._state, self._kit, self._mask)
        return self._mask.copy()

    def observe(self, seats: int | np.ndarray | None = None) -> np.ndarray:
        """Every env's observation from ``seats`` (one seat for all, one per env, or None: the
        batch's own observer), float32, in the batch's layout."""
        s = np.full(self.num_envs, -1 if seats is None else 0, dtype=np.int64)
        if seats is not None:
            s[:] = seats
            if np.any((s < 0) | (s >= self.num_players)):
                raise ValueError(f"seats must be 0..{self.num_players - 1}")
        out = np.zeros((self.num_envs, self.obs_size), dtype=np.float32)
        self._kernels().observe_all(s, self._state, self._kit, out)
        return out if self._grid is None else out[:, self._grid]

    def outcomes(self, envs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """How the games of the envs in the bool mask ``envs`` ended, read while they stand
        over (before their next game starts): ``(scores, winners, truncated)``, the single env's
        end-of-game entries: every seat's score (float ``(num_envs, players)``), the winning
        seats (an object array of lists: the best score, ties shared; empty when truncated) and
        whether the game was cut (bool). Envs outside ``envs``: zeros, None and False."""
        ended = self._env_mask(envs)
        pts = self._points()
        truncated = self._truncated() & ended
        best = pts.max(axis=1, keepdims=True)
        winners = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            winners[i] = [] if truncated[i] else np.flatnonzero(pts[i] == best[i]).tolist()
        return np.where(ended[:, None], pts, 0.0), winners, truncated

    def history(self, env: int) -> list[int]:
        """The engine actions (chance outcomes and decisions) of env ``env``'s current game,
        in order: applying them to ``game.new_initial_state()`` gives its position."""
        trace, tlen = self._trace()
        if trace.shape[1] == 0:
            raise SheepfoldError("the batch keeps no history: create it with record=True")
        k = int(tlen[env])
        if k > trace.shape[1]:
            raise SheepfoldError(
                f"env {env}'s game is longer than the history kept ({trace.shape[1]})"
            )
        return [int(a) for a in trace[env, :k]]

    def sample_actions(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """A uniformly random legal action per env (-1 where the game is over)."""
        u = (rng or np.random.default_rng()).random(self.num_envs)
        out = np.zeros(self.num_envs, dtype=np.int64)
        self._kernels().sample_actions(self._mask, u, out)
        return out

    # -- playing --------------------------------------------------------------------------------
    def _seed_value(self, seed: int) -> int:
        """The seed a reset's ``seed`` sets."""
        return int(seed)

    def _to_reset(self, seed: int | None, envs: np.ndarray | None) -> np.ndarray:
        """The bool mask of the envs a reset starts (``envs``; None: every env); a ``seed``
        restarts the game counters from it."""
        if seed is not None:
            self.seed = self._seed_value(seed)
            self._games[:] = 0
        return np.ones(self.num_envs, np.bool_) if envs is None else self._env_mask(envs)

    # -- checks ---------------------------------------------------------------------------------
    def _actions(self, actions: Any) -> np.ndarray:
        return checked_actions(actions, self.num_envs)

    def _env_mask(self, envs: Any) -> np.ndarray:
        return checked_env_mask(envs, self.num_envs)

    def _illegal(self, env: int, action: int, why: int) -> str:
        if why == self._kernel.ERR_OVER:
            return (
                f"env {env}: its game is over (autoreset is off): reset it "
                "(reset(envs=mask)) or pass it in step's resets"
            )
        legal = np.flatnonzero(self.legal_mask()[env]).tolist()
        return self._illegal_move(env, action, legal)


__all__ = ["Batch", "inside_codes", "learner_batch"]
