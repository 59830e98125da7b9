"""What the learning examples share to measure a policy: its win share against a bot, played out
in the Gymnasium environment (no Stable-Baselines3 needed: numpy and gymnasium only).

A policy is anything :func:`sheepfold.interop.policy.batch_policy` takes: a function
``f(obs, mask) -> action`` or a model with SB3's ``predict(obs, action_masks=...,
deterministic=True)``. Imported by ``sb3_maskable_ppo_dolly.py`` and ``cleanrl_ppo_pettingzoo.py``
(run from any directory: a script's own folder is on ``sys.path``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

import sheepfold.interop.gymnasium  # noqa: F401  (registers the environments)
from sheepfold.interop.policy import batch_policy


def win_share(
    policy: Any,
    env_id: str,
    opponents: str,
    games: int,
    seed: int,
    batched: bool = False,
    **kwargs: Any,
) -> float:
    """The policy's mean win share over ``games`` games against ``opponents`` (a model plays
    its most likely legal action; the seats taken in turn, so every seat plays as often).
    ``batched``: ``policy`` is a function on arrays of observations and masks."""
    act = batch_policy(policy, batched)
    players = int(kwargs.get("players", 2))
    envs = [gym.make(env_id, opponents=opponents, seat=s, **kwargs) for s in range(players)]
    total = 0.0
    for g in range(games):
        env = envs[g % players]
        obs, info = env.reset(seed=seed + g)
        while True:
            action = act(obs[None], env.unwrapped.action_masks()[None])[0]
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        total += float(env.unwrapped.state.outcome().shares()[env.unwrapped.seat])
    return total / games


def shares_line(policy: Any, env_id: str, bots: list[str], games: int, seed: int, **kw: Any) -> str:
    """``vs random 0.812, vs greedy 0.437 (win shares over N games each)`` (``kw``: as
    :func:`win_share`'s)."""
    parts = [f"vs {b} {win_share(policy, env_id, b, games, seed, **kw):.3f}" for b in bots]
    return ", ".join(parts) + f" (win shares over {games} games each)"


__all__ = ["shares_line", "win_share"]
