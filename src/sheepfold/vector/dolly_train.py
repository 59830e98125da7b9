"""Train MaskablePPO on Dolly Crush with the batch (:class:`~sheepfold.vector.sb3.DollySB3VecEnv`)
and write its learning curve: the win share against ``random`` and ``greedy`` (= ``medium``) at
every checkpoint, on games of the batch the training never plays (another seed).

    OMP_NUM_THREADS=1 nice -n 19 python -m sheepfold.vector.dolly_train --steps 5000000 \\
        --opponents random --seed 0 --out runs/dolly-ppo

Writes ``curve.csv`` (steps, seconds, steps/s, win share vs each evaluation opponent) and
``model.zip`` (the last checkpoint's model) under ``--out``; one torch thread. Needs the
``learn`` and ``fast`` extras.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import numpy as np

#: the evaluation's seed: games the training (seeded with --seed, small) never plays
EVAL_SEED = 1_000_003


def win_share(model: Any, opponent: str, games: int, rules: Any = None, envs: int = 200) -> float:
    """The model's mean win share over ``games`` games against ``opponent`` (its most likely
    legal action; the seat drawn per game)."""
    from sheepfold.vector.sb3 import DollySB3VecEnv

    venv = DollySB3VecEnv(min(envs, games), 2, opponents=opponent, seat="random", rules=rules)
    venv.seed(EVAL_SEED)
    obs = venv.reset()
    total, done = 0.0, 0
    while done < games:
        actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
        obs, rewards, dones, _ = venv.step(actions)
        total += float(rewards[dones].sum())
        done += int(dones.sum())
    return total / done


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=5_000_000, help="training steps (decisions)")
    p.add_argument("--opponents", default="random", help="random or greedy, the training's")
    p.add_argument("--envs", type=int, default=256, help="games stepped at once")
    p.add_argument("--n-steps", type=int, default=64, help="rollout steps per env")
    p.add_argument("--reward", default="points", help="win, or points (shaped, scale 10)")
    p.add_argument("--every", type=int, default=100_000, help="steps between checkpoints")
    p.add_argument("--games", type=int, default=400, help="evaluation games per opponent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/dolly-ppo"))
    a = p.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from sheepfold.vector.sb3 import DollySB3VecEnv

    torch.set_num_threads(1)
    a.out.mkdir(parents=True, exist_ok=True)
    venv = VecMonitor(
        DollySB3VecEnv(a.envs, 2, opponents=a.opponents, seat="random", reward=a.reward)
    )
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=a.n_steps,
        batch_size=1024,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=a.seed,
    )
    opponents = ("random", "greedy")
    with open(a.out / "curve.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["steps", "seconds", "steps_per_s", *[f"vs_{o}" for o in opponents]])
        t0 = time.perf_counter()
        shares = [win_share(model, o, a.games) for o in opponents]
        w.writerow([0, 0.0, 0.0, *[f"{s:.4f}" for s in shares]])
        fh.flush()
        print("steps 0:", dict(zip(opponents, shares, strict=True)), flush=True)
        trained = 0.0
        while model.num_timesteps < a.steps:
            t = time.perf_counter()
            model.learn(a.every, reset_num_timesteps=False)
            trained += time.perf_counter() - t
            shares = [win_share(model, o, a.games) for o in opponents]
            rate = model.num_timesteps / trained
            w.writerow(
                [
                    model.num_timesteps,
                    f"{time.perf_counter() - t0:.0f}",
                    f"{rate:.0f}",
                    *[f"{s:.4f}" for s in shares],
                ]
            )
            fh.flush()
            model.save(a.out / "model.zip")
            print(
                f"steps {model.num_timesteps}: {rate:.0f} training steps/s,",
                dict(zip(opponents, np.round(shares, 3), strict=True)),
                flush=True,
            )


if __name__ == "__main__":
    main()
