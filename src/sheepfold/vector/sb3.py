"""Stable-Baselines3 ``VecEnv`` s on the batches: Shave a Sheep on
:class:`~sheepfold.vector.shave.ShaveBatch` (:class:`ShaveSB3VecEnv`), Dolly Crush on
:class:`~sheepfold.vector.dolly.DollyBatch` (:class:`DollySB3VecEnv`), both
:class:`BatchSB3VecEnv` over their batch.

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from sheepfold.vector.sb3 import ShaveSB3VecEnv

    envs = VecMonitor(ShaveSB3VecEnv(256, opponents="greedy", seat="random"))
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, gamma=1.0, seed=0)
    model.learn(1_000_000)   # MaskablePPO asks envs.env_method("action_masks") every step

    envs = VecMonitor(DollySB3VecEnv(256, opponents="random", rules="dolly-graded"))

The learner's view of ``sheepfold/ShaveASheep-v0``, ``num_envs`` games at a time on the
compiled kernel, as the Gymnasium vector env (:mod:`sheepfold.vector.gym_shave`) gives it: the
same observation (float32), ``Discrete`` action ids and reward (the learner's win share when a
game ends, 1/n if it is cut at ``max_turns``), the other seats played inside the batch by
``opponents`` (``"random"`` or ``"greedy"``, one name or one per other seat), ``seat`` an int or
``"random"`` (drawn per game). Chance and the opponents use the kernel's counter-based random
numbers: env ``i``'s ``g``-th game after a reset with seed ``s`` is the same whatever the other
envs do.

In SB3's conventions: ``step`` returns ``(obs, rewards, dones, infos)``, ``infos`` one dict per
env; an env whose game ends starts its next game in the same step (its ``obs`` row is the new
game's), and its info holds ``terminal_observation`` (the ended game's last observation),
``TimeLimit.truncated`` (the game was cut at ``max_turns``: SB3 bootstraps its value), and the
single env's end-of-game entries ``scores`` (every seat's safe pile), ``winners`` (the winning
seats, empty when truncated), ``truncated`` and ``seat`` (the learner's seat in that game).
Episode returns and lengths for SB3's logger: wrap in ``VecMonitor``.

Masks: :meth:`ShaveSB3VecEnv.action_masks` gives bool ``(num_envs, A)``; ``env_method(
"action_masks")`` (what sb3-contrib's ``get_action_masks`` calls, through any ``VecEnvWrapper``)
gives it one row per env. The envs are one batch, not separate objects: ``get_attr`` and
``env_method`` read this object and answer the same for every env index (``action_masks``
excepted, one row each); ``set_attr`` sets one value for all envs. An illegal action raises
:class:`~sheepfold.core.protocol.IllegalAction` naming the env, its decision and its legal
actions (mask your policy).

Dolly Crush's takes ``rules`` (a rule-set name or a rule file's mapping: every rule file),
``observation`` (``"flat"`` or ``"grid"``) and, as the single env, ``reward="points"``: after
every step also the change of (the learner's points minus the best other seat's) divided by
``points_scale`` (default 10); its games are never cut (``TimeLimit.truncated`` is False).

Needs numba (the ``fast`` extra) and stable-baselines3 (the ``learn`` extra).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from sheepfold.interop import _UNSET
from sheepfold.vector.base import learner_batch
from sheepfold.vector.dolly import DollyBatch
from sheepfold.vector.gym_batch import single_spaces
from sheepfold.vector.shave import ShaveBatch

#: the methods whose answer is one row per env (``env_method`` hands each env its own row)
PER_ENV_METHODS = frozenset({"action_masks"})
#: what ``reward=`` takes (the single env's): the win share, or that plus the points margin
REWARDS = ("win", "points")


class BatchSB3VecEnv(VecEnv):
    """A batch made with ``opponents`` and ``autoreset=False`` as one SB3 ``VecEnv`` (see the
    module docstring). The batch's seed holds until ``seed()`` or SB3's ``seed=`` sets another
    (SB3 gives each env ``seed + i``: the batch takes the first, env ``i``'s games then follow
    from it). ``reward="points"`` needs a batch with ``scores()``."""

    def __init__(self, batch: Any, reward: str = "win", points_scale: float = 10.0) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not points_scale > 0:
            raise ValueError(f"points_scale must be positive, not {points_scale!r}")
        self.batch = batch
        self.reward_kind = reward
        self.points_scale = float(points_scale)
        self.render_mode = None  # VecEnv's constructor reads it through get_attr
        super().__init__(batch.num_envs, *single_spaces(batch))
        self._actions: np.ndarray | None = None
        self._every = np.arange(batch.num_envs)
        self._margin = np.zeros(batch.num_envs)

    def _points_margin(self) -> np.ndarray:
        """The learner's points minus the best other seat's, per env (``reward="points"``)."""
        if self.reward_kind != "points":
            return self._margin
        pts = self.batch.scores().astype(np.float64)
        seats = self.batch.learner_seats()
        mine = pts[self._every, seats]
        pts[self._every, seats] = -np.inf
        return mine - pts.max(axis=1)

    # -- SB3's VecEnv ---------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        """A new game in every env: from the seed ``seed()`` set (SB3 calls it with the model's
        ``seed``), else the game counters go on."""
        if any(self._options):
            name = type(self).__name__
            raise ValueError(f"{name} takes no reset options, not {self._options[0]!r}")
        seed = self._seeds[0]
        obs, _ = self.batch.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._margin = self._points_margin()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(-1)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait without step_async")
        actions, self._actions = self._actions, None
        seats = self.batch.learner_seats()  # the seat of each env's game in progress
        obs, rewards, terminated, truncated, _ = self.batch.step(actions)
        reward = rewards[self._every, seats].astype(np.float32)
        if self.reward_kind == "points":
            margin = self._points_margin()
            reward += ((margin - self._margin) / self.points_scale).astype(np.float32)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            scores, winners, cut = self.batch.outcomes(dones)
            for i in np.flatnonzero(dones):
                infos[i] = {
                    "terminal_observation": obs[i],
                    "TimeLimit.truncated": bool(cut[i]),
                    "scores": scores[i],
                    "winners": winners[i],
                    "truncated": bool(cut[i]),
                    "seat": int(seats[i]),
                }
            obs, _ = self.batch.reset(envs=dones)  # their next games, the counters going on
        self._margin = self._points_margin()
        return obs, reward, dones, infos

    def close(self) -> None:
        pass  # one process, numpy arrays: nothing to release

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in each env, bool ``(num_envs, num_actions)``."""
        return np.asarray(self.batch.legal_mask())

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)  # AttributeError when absent, as SB3 expects
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(
                f"the envs are one batch: {attr_name!r} is set for all of them (indices=None)"
            )
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        answer = getattr(self, method_name)(*method_args, **method_kwargs)
        if method_name in PER_ENV_METHODS:
            return [answer[i] for i in self._get_indices(indices)]
        return [answer for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]  # no gymnasium wrapper inside


class ShaveSB3VecEnv(BatchSB3VecEnv):
    """``num_envs`` Shave a Sheep games as one SB3 ``VecEnv`` (see the module docstring).

    ``players``, ``rules`` (a mapping, a rules object or a rule-set name) and ``max_turns``
    are the Gymnasium env's."""

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        max_turns: int | None = _UNSET,
        seed: int = 0,
    ) -> None:
        opts: dict[str, Any] = {"seed": seed, "max_turns": max_turns}
        super().__init__(
            learner_batch(ShaveBatch, num_envs, players, rules, opponents, seat, **opts)
        )


class DollySB3VecEnv(BatchSB3VecEnv):
    """``num_envs`` Dolly Crush games as one SB3 ``VecEnv`` (see the module docstring).

    ``players``, ``rules`` (a mapping, a rules object, a rule-set name), ``observation``,
    ``reward`` and ``points_scale`` are the Gymnasium env's."""

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        observation: str = "flat",
        reward: str = "win",
        points_scale: float = 10.0,
        seed: int = 0,
    ) -> None:
        opts: dict[str, Any] = {"seed": seed, "observation": observation}
        batch = learner_batch(DollyBatch, num_envs, players, rules, opponents, seat, **opts)
        super().__init__(batch, reward, points_scale)


__all__ = ["PER_ENV_METHODS", "REWARDS", "BatchSB3VecEnv", "DollySB3VecEnv", "ShaveSB3VecEnv"]
