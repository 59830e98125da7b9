"""What the two Stable-Baselines3 examples share: vectorised training environments with one
opponent list per environment, and the measured win share of a model against a bot.

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


def win_share(
    model: Any, env_id: str, opponents: str, games: int, seed: int, **kwargs: Any
) -> float:
    """The model's mean win share over ``games`` games against ``opponents`` (the model plays
    its most likely legal action; the seats taken in turn, so every seat plays as often)."""
    players = int(kwargs.get("players", 2))
    envs = [gym.make(env_id, opponents=opponents, seat=s, **kwargs) for s in range(players)]
    total = 0.0
    for g in range(games):
        env = envs[g % players]
        obs, info = env.reset(seed=seed + g)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        total += float(env.unwrapped.state.outcome().shares()[env.unwrapped.seat])
    return total / games


def shares_line(model: Any, env_id: str, bots: list[str], games: int, seed: int, **kw: Any) -> str:
    """``vs random 0.812, vs greedy 0.437`` over ``games`` games each."""
    parts = [f"vs {b} {win_share(model, env_id, b, games, seed, **kw):.3f}" for b in bots]
    return ", ".join(parts) + f" (win shares over {games} games each)"


__all__ = ["shares_line", "training_envs", "win_share"]
