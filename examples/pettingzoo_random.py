"""A random agent loop over the PettingZoo AEC environments of both games.

python examples/pettingzoo_random.py --games 3 --seed 0
"""

from __future__ import annotations

import argparse
import random

from sheepfold.interop.pettingzoo import dolly_crush_env, shave_a_sheep_env


def run(make_env, games: int, seed: int, **kwargs) -> None:
    env = make_env(render_mode="ansi", **kwargs)
    totals: dict[str, float] = {}
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed + g)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                totals[agent] = totals.get(agent, 0.0) + reward
                action = None
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
                steps += 1
            env.step(action)
        print(f"  game {g}: {steps} decisions, scores {info['scores']}, winners {info['winners']}")
    print("  final position of the last game:\n    " + env.render().replace("\n", "\n    "))
    print(f"  win shares over {games} games: " + ", ".join(f"{a} {v:g}" for a, v in totals.items()))
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    random.seed(args.seed)
    print("Dolly Crush, 3 players")
    run(dolly_crush_env, args.games, args.seed, players=3)
    print("Shave a Sheep, 4 players, Howling Wolf")
    run(shave_a_sheep_env, args.games, args.seed, players=4, variants=["howling-wolf"])


if __name__ == "__main__":
    main()
