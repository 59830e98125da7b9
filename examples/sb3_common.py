"""What the two Stable-Baselines3 examples share: vectorised training environments with one
opponent list per environment (the measured win share of a model against a bot, which needs no
SB3, is in ``eval_common.py``).

Imported by ``sb3_maskable_ppo_shave.py`` and ``sb3_maskable_ppo_dolly.py`` (run from any
directory: a script's own folder is on ``sys.path``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import sheepfold.interop.gymnasium  # noqa: F401  (registers the environments)

# Small networks on a shared CPU: one thread is faster than several fighting over the cores.
torch.set_num_threads(1)


def training_envs(env_id: str, opponents: list[str], n_envs: int, **kwargs: Any) -> DummyVecEnv:
    """``n_envs`` environments (each in SB3's Monitor, which records episode returns), the
    i-th against ``opponents[i % len(opponents)]``, the agent's seat drawn at every reset.

    ``make_vec_env(env_id, n_envs, env_kwargs=...)`` does the same with one opponent for all."""

    def make(i: int) -> Any:
        opp = opponents[i % len(opponents)]
        return lambda: Monitor(gym.make(env_id, opponents=opp, seat="random", **kwargs))

    return DummyVecEnv([make(i) for i in range(n_envs)])


__all__ = ["training_envs"]
