"""Roll out a masked random policy in the Gymnasium environments, against sheepfold bots.

python examples/gymnasium_rollout.py --episodes 20 --opponents random
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import sheepfold.interop.gymnasium  # noqa: F401  (registers the environments)


def rollout(env_id: str, episodes: int, seed: int, **kwargs) -> None:
    env = gym.make(env_id, **kwargs)
    env.action_space.seed(seed)
    rewards, lengths, truncated = [], [], 0
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        total, steps = 0.0, 0
        while True:
            action = env.action_space.sample(info["action_mask"])
            obs, reward, terminated, trunc, info = env.step(action)
            total += reward
            steps += 1
            if terminated or trunc:
                truncated += bool(trunc)
                break
        rewards.append(total)
        lengths.append(steps)
    print(
        f"{env_id} {kwargs}: {episodes} episodes, mean win share {np.mean(rewards):.3f}, "
        f"mean agent steps {np.mean(lengths):.1f}, truncated {truncated}"
    )
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="random", help="bot name for the other seats")
    args = parser.parse_args()
    rollout(
        "sheepfold/DollyCrush-v0", args.episodes, args.seed, players=2, opponents=args.opponents
    )
    rollout(
        "sheepfold/ShaveASheep-v0", args.episodes, args.seed, players=3, opponents=args.opponents
    )


if __name__ == "__main__":
    main()
