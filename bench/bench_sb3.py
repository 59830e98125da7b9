"""MaskablePPO training steps per second for Shave a Sheep (2 players, default rules, random
opponent): on the batch (:class:`sheepfold.vector.sb3.ShaveSB3VecEnv`) against SB3's
``make_vec_env`` of single ``sheepfold/ShaveASheep-v0`` envs, the same run, one torch thread.

Both rows train the same MaskablePPO (sb3-contrib's default MLP, ``batch_size`` 256, 4 epochs)
on rollouts of the same size (``ENVS x 32`` steps on the batch, ``8 x ENVS*4`` on the single
envs), so the gradient work per step is the same and the difference is the rollouts: stepping
the games, their observations and masks, and the policy's forward pass over ``num_envs`` rows
at a time. A step is one learner decision (SB3's ``num_timesteps``). Each row trains one rollout
first (torch's and the kernel's warm-up, not timed), then ``STEPS`` steps; it prints the
training rate (rollouts and updates) and the rollouts' own (the steps over the time spent
collecting them, policy forward passes included). Rates are per CPU second of this process
(``time.process_time``, one torch thread), so the ratio holds on a loaded machine.

    python bench/bench_sb3.py [steps per row, default 32768] [batch envs, default 256]
"""

from __future__ import annotations

import os
import sys
import time

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 32768
ENVS = int(sys.argv[2]) if len(sys.argv) > 2 else 256
SINGLE_ENVS = 8
N_STEPS = 32  # per env and rollout on the batch; the single envs' rollouts are as large


def steps_per_second(envs, n_steps: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(training steps/s, rollout steps/s: the steps over the time spent collecting them)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class RolloutClock(BaseCallback):
        spent = 0.0

        def _on_rollout_start(self) -> None:
            self.t = time.process_time()

        def _on_rollout_end(self) -> None:
            self.spent += time.process_time() - self.t

        def _on_step(self) -> bool:
            return True

    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=n_steps, batch_size=256, n_epochs=4, gamma=1.0, seed=0
    )
    model.learn(envs.num_envs * n_steps)  # warm-up: one rollout and its update
    clock = RolloutClock()
    t0, done = time.process_time(), model.num_timesteps
    model.learn(STEPS, reset_num_timesteps=False, callback=clock)
    steps = model.num_timesteps - done
    return steps / (time.process_time() - t0), steps / clock.spent


def main() -> None:
    import torch
    from stable_baselines3.common.env_util import make_vec_env

    import sheepfold.interop.gymnasium  # noqa: F401  (registers the ids)
    from sheepfold.vector.sb3 import ShaveSB3VecEnv

    torch.set_num_threads(1)
    one, five, _ = os.getloadavg()
    rollout = ENVS * N_STEPS
    print(
        f"Shave a Sheep, 2 players, MaskablePPO against random, {STEPS} steps a row, rollouts of "
        f"{rollout} steps, one torch thread; load average {one:.2f} (1 min), {five:.2f} (5 min)"
    )
    rows = {}
    for name, envs, n_steps in (
        (f"batch VecEnv ({ENVS} envs)", lambda: ShaveSB3VecEnv(ENVS, opponents="random"), N_STEPS),
        (
            f"make_vec_env ({SINGLE_ENVS} single envs)",
            lambda: make_vec_env("sheepfold/ShaveASheep-v0", n_envs=SINGLE_ENVS, seed=0),
            rollout // SINGLE_ENVS,
        ),
    ):
        rows[name] = train, collect = steps_per_second(envs(), n_steps)
        print(
            f"  {name:32s} {train:>8,.0f} training steps/s, rollouts alone {collect:>9,.0f} steps/s",
            flush=True,
        )
    (batch, batch_collect), (single, single_collect) = rows.values()
    print(
        f"  batch / make_vec_env: {batch / single:.1f}x training, "
        f"{batch_collect / single_collect:.1f}x rollouts (same run)"
    )
    one, five, _ = os.getloadavg()
    print(f"  load average at the end {one:.2f} (1 min), {five:.2f} (5 min)")


if __name__ == "__main__":
    main()
