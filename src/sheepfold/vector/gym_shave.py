"""A Gymnasium vector env of Shave a Sheep on :class:`~sheepfold.vector.shave.ShaveBatch`.

    import gymnasium as gym
    import sheepfold.interop.gymnasium  # registers the ids (and this vector entry point)

    envs = gym.make_vec("sheepfold/ShaveASheep-v0", num_envs=4096,
                        vectorization_mode="vector_entry_point", opponents="greedy")
    obs, info = envs.reset(seed=0)
    actions = ...  # one action per env, legal in envs.action_masks()
    obs, rewards, terminated, truncated, info = envs.step(actions)

The single-agent view of ``sheepfold/ShaveASheep-v0`` (:mod:`sheepfold.interop.gymnasium`),
``num_envs`` at a time: the learner plays ``seat`` (an int, or ``"random"``: drawn per game),
the other seats are played inside the compiled batch by ``opponents`` (``"random"`` or
``"greedy"``, one name or one per other seat). The same observation (its float32 encoding), the
same ``Discrete`` action ids, the same reward (the learner's win share at the end, 1/n if the
game is cut at ``max_turns``, default 1000). Chance and the opponents use the kernel's
counter-based random numbers, so a game is not the single env's game of the same seed.

Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after an env's game ended starts its
next game (that env's action is then ignored, and :meth:`action_masks` allows every action).
:meth:`action_masks` (bool ``(num_envs, A)``; the method MaskablePPO-style code looks for) and
``info["action_mask"]`` give the legal actions. On the step an env's game ends, ``info`` also
carries the single env's end-of-game entries for it, in Gymnasium's vector layout (valid where
``info["_scores"]`` etc. is True): ``scores`` (float ``(num_envs, players)``, every seat's safe
pile), ``winners`` (an object array: the winning seats' list, empty when truncated) and
``truncated``. An illegal action raises
:class:`~sheepfold.core.protocol.IllegalAction` naming the env, its decision and its legal
actions (a batch has no "lose" convention: mask your policy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from sheepfold.interop import _UNSET
from sheepfold.vector.shave import ShaveBatch


class ShaveASheepVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` Shave a Sheep games, one learner seat each (see the module docstring).

    ``record=True`` keeps every env's engine history (``self.batch.history(i)``, until the
    env's next game starts)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        max_turns: int | None = _UNSET,
        render_mode: str | None = None,
        record: bool = False,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector env does not render: use the single env to watch a game")
        self.batch = ShaveBatch(
            num_envs,
            players,
            rules,
            max_turns=max_turns,
            opponents=opponents,
            seat=seat,
            autoreset=False,
            record=record,
        )
        self.num_envs = num_envs
        self.render_mode = None
        size, n_act = self.batch.obs_size, self.batch.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(n_act)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._pending = np.zeros(num_envs, np.bool_)  # ended last step: reset on the next

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0]
        super().reset(seed=seed)
        obs, info = self.batch.reset(seed=seed)
        self._pending[:] = False
        return obs, self._info(info)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        resets = self._pending.copy()
        acts = np.asarray(actions)
        if acts.shape == (self.num_envs,) and resets.any():
            acts = acts.copy()
            acts[resets] = 0  # ignored: those envs start their next game
        obs, rew, term, trunc, info = self.batch.step(acts, resets=resets)
        seats = self.batch.learner_seats()
        reward = rew[np.arange(self.num_envs), seats].astype(np.float64)
        self._pending = term | trunc
        return obs, reward, term, trunc, {**self._info(info), **self._outcomes(self._pending)}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in each env (every action in an env whose game just
        ended: its next action is ignored, as the env starts a new game)."""
        mask = self.batch.legal_mask()
        mask[self._pending] = True
        return mask

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        mask = info["action_mask"]
        mask[self._pending] = True
        seats = self.batch.learner_seats()
        ones = np.ones(self.num_envs, np.bool_)
        return {"action_mask": mask, "_action_mask": ones, "seat": seats, "_seat": ones}

    def _outcomes(self, ended: np.ndarray) -> dict[str, Any]:
        """The single env's end-of-game info in each env whose game just ended (Gymnasium's
        vector convention: ``info[key][i]``, valid where ``info["_" + key][i]``): ``scores``
        (float ``(num_envs, players)``: the safe piles, a team's together), ``winners`` (a list of seats per env,
        empty when truncated) and ``truncated`` (bool)."""
        if not ended.any():
            return {}
        scores, winners, truncated = self.batch.outcomes(ended)
        return {
            "scores": scores,
            "_scores": ended.copy(),
            "winners": winners,
            "_winners": ended.copy(),
            "truncated": truncated,
            "_truncated": ended.copy(),
        }

    def close_extras(self, **kwargs: Any) -> None:
        pass


def make(num_envs: int = 1, **kwargs: Any) -> ShaveASheepVectorEnv:
    """The vector entry point of ``sheepfold/ShaveASheep-v0``."""
    kwargs.pop("max_episode_steps", None)  # a registration default, not an option of ours
    return ShaveASheepVectorEnv(num_envs=num_envs, **kwargs)


__all__ = ["ShaveASheepVectorEnv", "make"]
