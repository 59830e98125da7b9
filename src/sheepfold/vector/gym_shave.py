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

from sheepfold.interop import _UNSET
from sheepfold.vector.base import learner_batch
from sheepfold.vector.gym_batch import BatchVectorEnv, entry_point, no_render
from sheepfold.vector.shave import ShaveBatch


class ShaveASheepVectorEnv(BatchVectorEnv):
    """``num_envs`` Shave a Sheep games, one learner seat each (see the module docstring).

    ``record=True`` keeps every env's engine history (``self.batch.history(i)``, until the
    env's next game starts)."""

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
        no_render(render_mode)
        opts: dict[str, Any] = {"record": record, "max_turns": max_turns}
        batch = learner_batch(ShaveBatch, num_envs, players, rules, opponents, seat, **opts)
        super().__init__(batch)


#: the vector entry point of the game's registered id
make = entry_point(ShaveASheepVectorEnv)


__all__ = ["ShaveASheepVectorEnv", "make"]
