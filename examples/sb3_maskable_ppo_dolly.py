"""Train sb3-contrib's MaskablePPO on Dolly Crush (grid observation, shaped points reward) and
record its learning curve.

python examples/sb3_maskable_ppo_dolly.py --steps 180000 --opponents random \
    --eval-every 20000 --eval-games 200 --curve dolly_curve.csv --plot dolly_curve.png --save dolly.zip

The agent plays a random seat of a 2-player game; environment i trains against
``opponents[i % len(opponents)]``. By default it sees the flock as a grid (rows x cols x
channels, read by a small convolutional network) and is paid the shaped reward (the change of
its points minus the best other seat's, / ``--points-scale``, plus the win share at the end).
Every ``--eval-every`` steps it plays ``--eval-games`` games against random and against medium
(the greedy bot); at the end against every ``--final`` bot. Train against random, greedy/medium
or easy: the hard bot takes a quarter to half a second per decision (2-4 decisions/s), too slow
to learn against on a CPU, though fine to measure a saved model (``--steps 0 --load dolly.zip
--final hard``). What our runs of a few hundred thousand steps learned (nothing yet, against
random): docs/interop.md, "Learned agents".
"""

from __future__ import annotations

import argparse
import csv
import time
from typing import Any

import gymnasium as gym
import torch
from eval_common import win_share
from sb3_common import training_envs
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

ENV_ID = "sheepfold/DollyCrush-v0"
CURVE_BOTS = ("random", "medium")


class FlockCNN(BaseFeaturesExtractor):
    """Two 3x3 convolutions over the grid observation (each cell's card kind, and the rest of
    the position as constant planes), then one dense layer."""

    def __init__(self, space: gym.spaces.Box, features: int = 256) -> None:
        super().__init__(space, features)
        rows, cols, channels = space.shape
        self.conv = torch.nn.Sequential(
            torch.nn.Conv2d(channels, 64, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(64, 64, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Flatten(),
            torch.nn.Linear(64 * rows * cols, features),
            torch.nn.ReLU(),
        )

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.conv(obs.permute(0, 3, 1, 2))  # (batch, rows, cols, ch) -> channels first


class Curve(BaseCallback):
    """Every ``every`` steps: the win shares against random and medium, printed and written
    (the CSV and the plot are rewritten at each point, so a run cut short keeps its curve)."""

    def __init__(self, every: int, games: int, env_kwargs: dict[str, Any], args: Any) -> None:
        super().__init__()
        self.every, self.games, self.env_kwargs, self.args = every, games, env_kwargs, args
        self.rows: list[dict[str, float]] = []
        self.next = every

    def measure(self) -> None:
        row: dict[str, float] = {"steps": self.num_timesteps}
        for bot in CURVE_BOTS:
            row[bot] = win_share(self.model, ENV_ID, bot, self.games, 10_000, **self.env_kwargs)
        self.rows.append(row)
        shares = ", ".join(f"vs {b} {row[b]:.3f}" for b in CURVE_BOTS)
        print(f"step {self.num_timesteps}: {shares}", flush=True)
        if self.args.curve:
            with open(self.args.curve, "w", newline="") as f:
                writer = csv.DictWriter(f, ["steps", *CURVE_BOTS])
                writer.writeheader()
                writer.writerows(self.rows)
        if self.args.plot:
            plot(self.rows, self.args.plot, self.games)

    def _on_step(self) -> bool:
        if self.every and self.num_timesteps >= self.next:
            self.next += self.every
            self.measure()
        return True


def plot(rows: list[dict[str, float]], path: str, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    steps = [r["steps"] / 1000 for r in rows]
    for bot in CURVE_BOTS:
        ax.plot(steps, [r[bot] for r in rows], marker="o", label=f"vs {bot}")
    ax.axhline(0.5, color="gray", lw=0.8, ls="--")
    ax.set(xlabel="training steps (thousands)", ylabel=f"win share ({games} games)", ylim=(0, 1))
    ax.set_title("MaskablePPO on Dolly Crush, 2 players", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150_000, help="training steps (decisions)")
    parser.add_argument("--opponents", default="random,medium", help="comma-separated bots")
    parser.add_argument("--observation", choices=["grid", "flat"], default="grid")
    parser.add_argument("--reward", choices=["points", "win"], default="points")
    parser.add_argument("--points-scale", type=float, default=10.0, help="shaped reward divisor")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--n-steps", type=int, default=512, help="steps per env per update")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--gamma", type=float, default=1.0, help="discount (and GAE lambda)")
    parser.add_argument("--eval-every", type=int, default=0, help="learning curve step (0: none)")
    parser.add_argument("--eval-games", type=int, default=100, help="games per measurement")
    parser.add_argument("--final", default="random,greedy", help="bots measured at the end")
    parser.add_argument("--curve", default=None, help="write the learning curve here (.csv)")
    parser.add_argument("--plot", default=None, help="draw the learning curve here (.png)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the model here (.zip)")
    parser.add_argument("--load", default=None, help="start from this saved model")
    args = parser.parse_args()

    env_kwargs = {"players": 2, "observation": args.observation}
    envs = training_envs(
        ENV_ID,
        args.opponents.split(","),
        args.envs,
        reward=args.reward,
        points_scale=args.points_scale,
        **env_kwargs,
    )
    if args.load:
        model = MaskablePPO.load(args.load, env=envs, device="cpu")
    else:
        policy_kwargs = {"features_extractor_class": FlockCNN} if args.observation == "grid" else {}
        model = MaskablePPO(
            "MlpPolicy",
            envs,
            n_steps=max(16, min(args.n_steps, args.steps // args.envs)),
            batch_size=128,
            learning_rate=args.lr,
            gamma=args.gamma,
            gae_lambda=min(0.95, args.gamma),
            ent_coef=0.01,
            policy_kwargs=policy_kwargs,
            seed=args.seed,
            device="cpu",
        )
    curve = Curve(args.eval_every, args.eval_games, env_kwargs, args)
    start = time.perf_counter()
    if args.steps:
        model.learn(total_timesteps=args.steps, callback=curve, reset_num_timesteps=False)
        took = time.perf_counter() - start
        print(f"trained {model.num_timesteps} steps against {args.opponents} in {took:.0f} s")
    if args.save:
        model.save(args.save)
        print(f"saved {args.save}")
    for bot in filter(None, args.final.split(",")):
        share = win_share(model, ENV_ID, bot, args.eval_games, 20_000, **env_kwargs)
        print(f"final: vs {bot} {share:.3f} (win share over {args.eval_games} games)", flush=True)


if __name__ == "__main__":
    main()
