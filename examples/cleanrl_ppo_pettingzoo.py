"""CleanRL-style PPO, self-play on sheepfold's PettingZoo AEC environment (one file, no RL library).

python examples/cleanrl_ppo_pettingzoo.py --game shave-a-sheep --steps 1000000 --seed 0 \
    --eval-games 200 --save shave_cleanrl.pt

The structure of CleanRL's ``ppo.py`` (copy it, change it): arguments, ``num_envs`` environments
stepped together into a rollout buffer of ``num_steps`` decisions each, GAE, the clipped
objective, ``update_epochs`` epochs of minibatches. What is different for a turn-based
multi-agent game:

* **Self-play, one shared policy.** Each environment is a PettingZoo AEC game; at every step the
  agent to move in each environment (``env.agent_selection``) asks the same network, so every
  seat is played by the policy and every decision of every seat is training data.
* **Per-seat trajectories.** A seat's next decision is not the environment's next step (the
  others move in between), so GAE runs along each (environment, seat) lane: a transition's next
  value is that seat's next decision in the same game, or 0 after its last one, whose reward is
  the seat's win share (the only reward). At the end of a rollout a lane still in a game is
  bootstrapped with the value of what that seat sees now.
* **Action masks.** The logits of illegal actions are set to -1e9 (the env's ``action_mask``),
  when sampling and when the minibatches are re-evaluated.

Afterwards the trained policy (its most likely legal action) plays ``--eval-games`` games against
random and against greedy in the Gymnasium environment, seats taken in turn, and for Shave a
Sheep :func:`sheepfold.analysis.exploitability` gives its exact win shares against random, greedy
and perfect play and how much an exact best response wins against it. What the command above
learned (exploitability 0.038 after 1M steps): docs/interop.md, "Learned agents".
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import torch
from eval_common import shares_line
from torch import nn
from torch.distributions.categorical import Categorical

from sheepfold.interop.gymnasium import ENV_IDS
from sheepfold.interop.pettingzoo import env as make_env

# Small networks on a shared CPU: one thread is faster than several fighting over the cores.
torch.set_num_threads(1)

GAMES = ("shave-a-sheep", "dolly-crush")
ILLEGAL_LOGIT = -1e9


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=GAMES, default="shave-a-sheep")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--wool", type=int, default=None, help="Shave a Sheep: wool in the middle")
    p.add_argument("--steps", type=int, default=80_000, help="total decisions (all seats)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-games", type=int, default=200, help="games against each bot")
    p.add_argument("--save", default=None, help="save the network's state_dict here (.pt)")
    # PPO (CleanRL's names and defaults, but gamma=1: the win share comes once, at the end)
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--num-steps", type=int, default=128, help="decisions per env per rollout")
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--anneal-lr", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--norm-adv", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--target-kl", type=float, default=None)
    args = p.parse_args()
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = max(1, args.batch_size // args.num_minibatches)
    args.num_iterations = max(1, -(-args.steps // args.batch_size))  # ceil: at least --steps
    return args


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """CleanRL's separate actor and critic MLPs; the actor's illegal logits masked."""

    def __init__(self, obs_size: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, num_actions), std=0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def masked_logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.where(mask, self.actor(x), torch.tensor(ILLEGAL_LOGIT))

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        probs = Categorical(logits=self.masked_logits(x, mask))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)

    def policy(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The most likely legal action of each observation (batches: ``(B, N)``, ``(B, A)``):
        what ``eval_common.win_share`` and ``exploitability(..., batched=True)`` ask."""
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, np.float32))
            m = torch.as_tensor(np.asarray(masks, bool))
            return self.masked_logits(x, m).argmax(dim=1).numpy()


def env_options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": args.players}
    if args.wool is not None:
        opts["rules"] = {"wool": args.wool}
    return opts


def main() -> None:
    args = parse_args()
    if args.wool is not None and args.game != "shave-a-sheep":
        raise SystemExit("--wool is a Shave a Sheep rule")
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    # env setup: num_envs AEC games, each seeded
    envs = [make_env(args.game, **env_options(args)) for _ in range(args.num_envs)]
    for i, e in enumerate(envs):
        e.reset(seed=args.seed + i)
    agents = envs[0].possible_agents
    seat_of = {a: k for k, a in enumerate(agents)}
    space = envs[0].observation_space(agents[0])
    obs_size = space["observation"].shape[0]
    num_actions = envs[0].action_space(agents[0]).n

    agent = Agent(obs_size, num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # storage setup: one decision per env per step, and which seat made it
    T, E = args.num_steps, args.num_envs
    obs = torch.zeros((T, E, obs_size))
    masks = torch.zeros((T, E, num_actions), dtype=torch.bool)
    actions = torch.zeros((T, E), dtype=torch.long)
    logprobs = torch.zeros((T, E))
    rewards = torch.zeros((T, E))
    ends = torch.zeros((T, E))  # 1: the seat's last decision of its game
    values = torch.zeros((T, E))
    seats = np.zeros((T, E), dtype=np.int64)

    global_step = 0
    games = 0
    recent: list[float] = []  # seat 0's win share in the last games (self-play: about 1/2)
    start_time = time.time()
    for iteration in range(1, args.num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        last: dict[tuple[int, int], int] = {}  # (env, seat) -> the step of its last decision

        for step in range(T):
            global_step += E
            for e, env in enumerate(envs):
                o, _, _, _, _ = env.last()
                obs[step, e] = torch.as_tensor(o["observation"])
                masks[step, e] = torch.as_tensor(o["action_mask"].astype(bool))
                seats[step, e] = seat_of[env.agent_selection]
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(obs[step], masks[step])
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            rewards[step] = 0.0
            ends[step] = 0.0

            for e, env in enumerate(envs):
                last[(e, int(seats[step, e]))] = step
                env.step(int(action[e]))
                first = env.agent_selection
                if env.terminations[first] or env.truncations[first]:  # the game is over
                    shares = {seat_of[a]: float(env.rewards[a]) for a in env.agents}
                    for s, share in shares.items():
                        t = last.pop((e, s), None)  # a seat that never moved this rollout: none
                        if t is not None:
                            rewards[t, e] = share
                            ends[t, e] = 1.0
                    games += 1
                    recent = [*recent[-99:], shares[0]]
                    env.reset()

        # bootstrap the lanes still in a game with the value of what their seat sees now
        pending = sorted(last.items())
        boot: dict[tuple[int, int], float] = {}
        if pending:
            x = torch.stack(
                [
                    torch.as_tensor(envs[e].observe(agents[s])["observation"])
                    for (e, s), _ in pending
                ]
            )
            with torch.no_grad():
                v = agent.get_value(x).flatten().tolist()
            boot = {lane: v[i] for i, (lane, _) in enumerate(pending)}

        # GAE along each (env, seat) lane, backwards
        advantages = torch.zeros_like(rewards)
        for e in range(E):
            next_value = {s: boot.get((e, s), 0.0) for s in range(len(agents))}
            next_adv = dict.fromkeys(range(len(agents)), 0.0)
            for t in reversed(range(T)):
                s = int(seats[t, e])
                alive = 1.0 - float(ends[t, e])
                delta = float(rewards[t, e]) + args.gamma * next_value[s] * alive - values[t, e]
                adv = float(delta) + args.gamma * args.gae_lambda * alive * next_adv[s]
                advantages[t, e] = adv
                next_value[s], next_adv[s] = float(values[t, e]), adv
        returns = advantages + values

        # flatten the batch
        b_obs = obs.reshape((-1, obs_size))
        b_masks = masks.reshape((-1, num_actions))
        b_logprobs = logprobs.reshape(-1)
        b_actions = actions.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        b_values = values.reshape(-1)

        # optimizing the policy and value network
        b_inds = np.arange(args.batch_size)
        clipfracs = []
        for _epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, args.batch_size, args.minibatch_size):
                mb_inds = b_inds[start : start + args.minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb_inds], b_masks[mb_inds], b_actions[mb_inds]
                )
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > args.clip_coef).float().mean().item()]

                mb_advantages = b_advantages[mb_inds]
                if args.norm_adv and len(mb_inds) > 1:
                    mb_advantages = (mb_advantages - mb_advantages.mean()) / (
                        mb_advantages.std() + 1e-8
                    )

                # policy loss
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(
                    ratio, 1 - args.clip_coef, 1 + args.clip_coef
                )
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                # value loss (clipped, as CleanRL's default)
                newvalue = newvalue.view(-1)
                v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                v_clipped = b_values[mb_inds] + torch.clamp(
                    newvalue - b_values[mb_inds], -args.clip_coef, args.clip_coef
                )
                v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()

                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

            if args.target_kl is not None and approx_kl > args.target_kl:
                break

        if iteration % 20 == 0 or iteration == args.num_iterations:
            sps = int(global_step / (time.time() - start_time))
            seat0 = f"{np.mean(recent):.3f}" if recent else "-"
            print(
                f"step {global_step}: {games} games, seat 0's share {seat0} (last 100), "
                f"value loss {v_loss.item():.4f}, entropy {entropy_loss.item():.3f}, "
                f"clipfrac {np.mean(clipfracs):.3f}, {sps} steps/s",
                flush=True,
            )

    took = time.time() - start_time
    print(f"trained {global_step} steps ({games} games, self-play) in {took:.0f} s")
    if args.save:
        torch.save(agent.state_dict(), args.save)
        print(f"saved {args.save}")

    # evaluation: played games against the bots, then (Shave a Sheep) the exact numbers
    opts = env_options(args)
    start = time.perf_counter()
    bots = ["random", "greedy"]
    line = shares_line(agent.policy, ENV_IDS[args.game], bots, args.eval_games, 20_000,
                       batched=True, **opts)  # fmt: skip
    print(f"{line}, in {time.perf_counter() - start:.0f} s")
    if args.game == "shave-a-sheep":
        from sheepfold.analysis import exploitability

        start = time.perf_counter()
        found = exploitability(
            agent.policy, args.players, opts.get("rules"), batched=True, label="CleanRL PPO"
        )
        print(found.summary())
        print(f"(exact, in {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
