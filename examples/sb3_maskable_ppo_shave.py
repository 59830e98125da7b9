"""Train sb3-contrib's MaskablePPO on Shave a Sheep, then measure it exactly.

python examples/sb3_maskable_ppo_shave.py --steps 100000 --opponents greedy --save shave.zip

The agent plays a random seat of a 2-player game against the training opponents (one per
environment, in turn), with the win share as its only reward. Afterwards
:func:`sheepfold.analysis.exploitability` asks the trained network once at every decision of the
game's position space and gives exact numbers, no sampling: its win share against random,
greedy and perfect play in each seat, and how much an exact best response wins against it.
"""

from __future__ import annotations

import argparse
import time

from sb3_common import training_envs
from sb3_contrib import MaskablePPO

from sheepfold.analysis import exploitability

ENV_ID = "sheepfold/ShaveASheep-v0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="training steps (decisions)")
    parser.add_argument("--opponents", default="greedy", help="comma-separated training bots")
    parser.add_argument("--wool", type=int, default=None, help="wool in the middle (rules: 30)")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the model here (.zip)")
    args = parser.parse_args()

    rules = {"wool": args.wool} if args.wool else None
    envs = training_envs(ENV_ID, args.opponents.split(","), args.envs, players=2, rules=rules)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=max(16, min(512, args.steps // args.envs)),
        batch_size=64,
        gamma=1.0,  # one reward at the end of an episode: do not discount it away
        seed=args.seed,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    print(f"trained {model.num_timesteps} steps against {args.opponents} in {took:.0f} s")
    if args.save:
        model.save(args.save)
        print(f"saved {args.save}")

    start = time.perf_counter()
    found = exploitability(model, 2, rules, label="MaskablePPO")
    print(found.summary())
    print(f"(exact, in {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
