"""A Gymnasium vector env of Dolly Crush on :class:`~sheepfold.vector.dolly.DollyBatch`.

    import gymnasium as gym
    import sheepfold.interop.gymnasium  # registers the ids (and this vector entry point)

    envs = gym.make_vec("sheepfold/DollyCrush-v0", num_envs=4096,
                        vectorization_mode="vector_entry_point", opponents="greedy")
    obs, info = envs.reset(seed=0)
    actions = ...  # one action per env, legal in envs.action_masks()
    obs, rewards, terminated, truncated, info = envs.step(actions)

The single-agent view of ``sheepfold/DollyCrush-v0`` (:mod:`sheepfold.interop.gymnasium`),
``num_envs`` at a time: the learner plays ``seat`` (an int, or ``"random"``: drawn per game),
the other seats are played inside the compiled batch by ``opponents`` (``"random"`` or
``"greedy"`` = ``"medium"``, one name or one per other seat). The same observation (its float32
encoding, ``observation="flat"`` or ``"grid"``), the same ``Discrete`` action ids, the same
reward (the learner's win share at the end), on any rule set (``rules``: a rule-set name or a
rule file's mapping; every part of the rule language plays). The decks are shuffled with the
kernel's counter-based random numbers, so a game is not the single env's game of the same seed.

Autoreset is Gymnasium's default, ``NEXT_STEP`` (:class:`~sheepfold.vector.gym_batch.BatchVectorEnv`):
the step after an env's game ended starts its next game, that env's action ignored.
:meth:`action_masks` (bool ``(num_envs, A)``) and ``info["action_mask"]`` give the legal actions;
on the step a game ends ``info`` carries ``scores`` (every seat's points), ``winners`` and
``truncated`` (always False: Dolly Crush games are never cut) for it. An illegal action raises
:class:`~sheepfold.core.protocol.IllegalAction` naming the env, its decision and its legal
actions (mask your policy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sheepfold.vector.base import learner_batch
from sheepfold.vector.dolly import DollyBatch
from sheepfold.vector.gym_batch import BatchVectorEnv, entry_point, no_render


class DollyCrushVectorEnv(BatchVectorEnv):
    """``num_envs`` Dolly Crush games, one learner seat each (see the module docstring).

    ``record=True`` keeps every env's engine history (``self.batch.history(i)``, until the
    env's next game starts)."""

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        observation: str = "flat",
        render_mode: str | None = None,
        record: bool = False,
    ) -> None:
        no_render(render_mode)
        opts: dict[str, Any] = {"record": record, "observation": observation}
        batch = learner_batch(DollyBatch, num_envs, players, rules, opponents, seat, **opts)
        super().__init__(batch)


#: the vector entry point of the game's registered id
make = entry_point(DollyCrushVectorEnv)


__all__ = ["DollyCrushVectorEnv", "make"]
