"""Batched simulation on the compiled kernels: many games stepped at once from numpy arrays.

- :class:`sheepfold.vector.shave.ShaveBatch`: Shave a Sheep, every seat played by the caller
  (or some inside the batch by the kernel's random and greedy policies);
- :class:`sheepfold.vector.parallel.ShaveParallelBatch`: the same games in PettingZoo's
  ParallelEnv style (dicts keyed by agent, arrays over the games; not a ``ParallelEnv``: one
  game behind the real API is :func:`sheepfold.interop.pettingzoo.parallel_env`);
- :mod:`sheepfold.vector.gym_shave`: a ``gymnasium.vector.VectorEnv`` on top of it
  (``gymnasium.make_vec("sheepfold/ShaveASheep-v0", num_envs=N,
  vectorization_mode="vector_entry_point")``);
- :class:`sheepfold.vector.dolly.DollyBatch`: Dolly Crush on the grid kernel (every rule file),
  with :class:`sheepfold.vector.dolly_parallel.DollyParallelBatch` and
  :mod:`sheepfold.vector.gym_dolly` (``"sheepfold/DollyCrush-v0"``) as for Shave a Sheep;
- :mod:`sheepfold.vector.sb3`: Stable-Baselines3 ``VecEnv`` s over both batches.

Needs numba (the ``fast`` extra); Gymnasium only for the ``gym_*`` modules, stable-baselines3
for :mod:`~sheepfold.vector.sb3`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DollyBatch", "DollyParallelBatch", "ShaveBatch", "ShaveParallelBatch"]


def __getattr__(name: str) -> Any:
    if name == "DollyBatch":
        from sheepfold.vector.dolly import DollyBatch

        return DollyBatch
    if name == "DollyParallelBatch":
        from sheepfold.vector.dolly_parallel import DollyParallelBatch

        return DollyParallelBatch
    if name == "ShaveBatch":
        from sheepfold.vector.shave import ShaveBatch

        return ShaveBatch
    if name == "ShaveParallelBatch":
        from sheepfold.vector.parallel import ShaveParallelBatch

        return ShaveParallelBatch
    raise AttributeError(name)
