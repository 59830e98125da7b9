"""What the Gymnasium and Stable-Baselines3 vector envs of every batch share: one game's spaces
(:func:`single_spaces`) and the Gymnasium ``VectorEnv`` over a batch (:class:`BatchVectorEnv`,
the learner's view: :mod:`sheepfold.vector.gym_shave`, :mod:`sheepfold.vector.gym_dolly`).

A batch (:class:`~sheepfold.vector.shave.ShaveBatch`, :class:`~sheepfold.vector.dolly.DollyBatch`)
offers ``reset(seed, envs)``, ``step(actions, resets)``, ``legal_mask()``, ``learner_seats()``,
``outcomes(ended)``, ``num_envs``, ``num_actions`` and its observation's ``obs_shape`` (or
``obs_size``: a flat vector).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space


def single_spaces(batch: Any) -> tuple[spaces.Box, spaces.Discrete]:
    """One game's observation space (``Box(0, 1)``, float32, the batch's layout) and action
    space (``Discrete`` over the game's action ids)."""
    shape = tuple(getattr(batch, "obs_shape", (batch.obs_size,)))
    return spaces.Box(0.0, 1.0, shape, np.float32), spaces.Discrete(batch.num_actions)


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """``batch.num_envs`` games, one learner seat each (the batch made with ``opponents`` and
    ``autoreset=False``), as a Gymnasium vector env.

    Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after an env's game ended starts
    its next game (that env's action is then ignored, and :meth:`action_masks` allows every
    action). On the step an env's game ends, ``info`` carries the single env's end-of-game
    entries in Gymnasium's vector layout (valid where ``info["_scores"]`` etc. is True)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, batch: Any, render_mode: str | None = None) -> None:
        no_render(render_mode)
        self.batch = batch
        self.num_envs = num_envs = batch.num_envs
        self.render_mode = None
        self.single_observation_space, self.single_action_space = single_spaces(batch)
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
        (float ``(num_envs, players)``), ``winners`` (a list of seats per env, empty when
        truncated) and ``truncated`` (bool)."""
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


def no_render(render_mode: str | None) -> None:
    """ValueError unless ``render_mode`` is None: a vector env does not render."""
    if render_mode is not None:
        raise ValueError("the vector env does not render: use the single env to watch a game")


def entry_point(env_class: type[BatchVectorEnv]) -> Callable[..., Any]:
    """The vector entry point of a game's registered id (``gymnasium.make_vec(...,
    vectorization_mode="vector_entry_point")``): ``env_class`` of ``num_envs`` envs."""

    def make(num_envs: int = 1, **kwargs: Any) -> Any:
        kwargs.pop("max_episode_steps", None)  # a registration default, not an option of ours
        return env_class(num_envs=num_envs, **kwargs)  # type: ignore[call-arg]

    make.__doc__ = f"The vector entry point of :class:`{env_class.__name__}`."
    return make


__all__ = ["BatchVectorEnv", "entry_point", "no_render", "single_spaces"]
