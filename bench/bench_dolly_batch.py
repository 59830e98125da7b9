"""Dolly Crush on the batch (:class:`sheepfold.vector.dolly.DollyBatch`, the grid kernel) against
the single env (``sheepfold/DollyCrush-v0``, the rules engine), one thread.

Every rate is per CPU second of this process (``time.process_time``), so a row's ratio holds
on a loaded machine, where wall seconds depend on what else runs.

Rows (a step is one learner decision, the opponent played inside; random legal actions):

* the single env against ``random``, and the batch of ``ENVS`` envs against ``random``, on the
  fair default rule set (``dolly-graded``) and on a rule file of the rule language (gravity and
  cascades): learner decisions/s, the batch's speed-up;
* the same against ``greedy`` (= ``medium``: its whole turn searched every time; in the batch
  on the packed kernel, the single env's bot on the packed search (numpy) for ``dolly-graded``
  and on the grid kernel under gravity);
* MaskablePPO training steps/s: :class:`sheepfold.vector.sb3.DollySB3VecEnv` against SB3's
  ``make_vec_env`` of single envs (``bench_sb3.steps_per_second``: the same model, rollouts of
  the same size, one torch thread).

    python bench/bench_dolly_batch.py [seconds per row, default 3] [batch envs, default 1024]
        [training steps per SB3 row, default 16384]
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
ENVS = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
SB3_STEPS = int(sys.argv[3]) if len(sys.argv) > 3 else 16384
GRAVITY = {"refill": "gravity", "cascades": True}


def single_rate(opponents: str, rules: Any) -> float:
    """Learner decisions/s of one ``sheepfold/DollyCrush-v0`` env, random legal actions."""
    import gymnasium as gym

    import sheepfold.interop.gymnasium  # noqa: F401  (registers the ids)

    env = gym.make("sheepfold/DollyCrush-v0", opponents=opponents, rules=rules)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    steps, t0 = 0, time.process_time()
    while time.process_time() - t0 < SECONDS:
        legal = np.flatnonzero(info["action_mask"])
        obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
        steps += 1
        if term or trunc:
            obs, info = env.reset()
    return steps / (time.process_time() - t0)


def batch_rate(opponents: str, rules: Any, envs: int) -> float:
    """Learner decisions/s of a DollyBatch of ``envs`` envs (one warm-up step, not timed)."""
    from sheepfold.vector import DollyBatch

    batch = DollyBatch(envs, 2, rules, opponents=opponents)
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    batch.step(batch.sample_actions(rng))  # compiled already: the kernel's cache
    steps, t0 = 0, time.process_time()
    while time.process_time() - t0 < SECONDS:
        batch.step(batch.sample_actions(rng))
        steps += envs
    return steps / (time.process_time() - t0)


def main() -> None:

    one, five, _ = os.getloadavg()
    print(
        f"Dolly Crush, 2 players, {SECONDS:g} CPU s a row, batch of {ENVS} envs, one thread; "
        f"load average {one:.2f} (1 min), {five:.2f} (5 min)"
    )
    for label, rules in (("dolly-graded", None), ("gravity + cascades", GRAVITY)):
        for opp in ("random", "greedy"):
            envs = ENVS if opp == "random" else max(64, ENVS // 8)
            single = single_rate(opp, rules)
            batch = batch_rate(opp, rules, envs)
            print(
                f"  {label:20s} vs {opp:6s}  single env {single:>9,.0f} decisions/s   "
                f"batch ({envs} envs) {batch:>11,.0f} decisions/s   {batch / single:>6.0f}x",
                flush=True,
            )
    sb3_rows()
    one, five, _ = os.getloadavg()
    print(f"  load average at the end {one:.2f} (1 min), {five:.2f} (5 min)")


def sb3_rows() -> None:
    import torch
    from stable_baselines3.common.env_util import make_vec_env

    import bench_sb3
    import sheepfold.interop.gymnasium  # noqa: F401  (registers the ids)
    from sheepfold.vector.sb3 import DollySB3VecEnv

    torch.set_num_threads(1)
    bench_sb3.STEPS = SB3_STEPS
    envs, single, n_steps = 256, 8, bench_sb3.N_STEPS
    rows = []
    for name, make, steps in (
        (f"batch VecEnv ({envs} envs)", lambda: DollySB3VecEnv(envs), n_steps),
        (
            f"make_vec_env ({single} single envs)",
            lambda: make_vec_env("sheepfold/DollyCrush-v0", n_envs=single, seed=0),
            envs * n_steps // single,
        ),
    ):
        train, collect = bench_sb3.steps_per_second(make(), steps)
        rows.append((train, collect))
        print(
            f"  MaskablePPO vs random, {name:28s} {train:>8,.0f} training steps/s, "
            f"rollouts alone {collect:>9,.0f} steps/s",
            flush=True,
        )
    (bt, bc), (st, sc) = rows
    print(f"  batch / make_vec_env: {bt / st:.1f}x training, {bc / sc:.1f}x rollouts (same run)")


if __name__ == "__main__":
    main()
