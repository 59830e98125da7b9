"""Decisions per second through each AI adapter, next to the bare engine.

Every row plays the same uniformly random policy (a ``random.Random`` choice among the legal
actions) for the same number of decisions, starting new games as needed; chance events (card
draws, die rolls) are resolved in between and not counted. Rows:

- engine: ``State.legal_actions`` + ``State.apply`` (checked, as the adapters do), chance by
  ``sample_chance(rng)``; the baseline, measured in the same run.
- openspiel: a ``pyspiel`` state (C++ ``State`` calling back into Python), chance sampled from
  ``chance_outcomes()``; "+obs" also fills an observation tensor at every decision
  (``open_spiel.python.observation.make_observation``, the fast path; ``state.observation_tensor``
  costs more, as OpenSpiel recomputes a Python game's tensor shape on every call).
- pettingzoo: ``env.last()`` (observation tensor + action mask) and ``env.step`` of the wrapped
  AEC environment.
- gymnasium: ``env.step`` of the single-agent environment; the other seats are the "random" bot
  (which sees only its view and determinizes it), so its decisions count too.

    python bench/bench_interop.py [decisions per row, default 5000]
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
REPEATS = 3
GAMES = [("dolly-crush", 2, {}), ("shave-a-sheep", 2, {})]


def bench_engine(name: str, players: int, opts: dict, n: int) -> int:
    from sheepfold.interop import build_game

    game = build_game(name, players, **opts)
    rng = random.Random(1)
    done = 0
    while done < n:
        s = game.new_initial_state(seed=rng.randrange(2**31))
        while not s.is_terminal() and done < n:
            if s.is_chance_node():
                s.apply_unchecked(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
                done += 1
    return done


def bench_openspiel(name: str, players: int, opts: dict, n: int, obs: bool = False) -> int:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from sheepfold.interop.openspiel import load_game

    game = load_game(name, players, **opts)
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    rng = random.Random(1)
    done = 0
    while done < n:
        s = game.new_initial_state()
        while not s.is_terminal() and done < n:
            if s.is_chance_node():
                x, acc = rng.random(), 0.0
                outcomes = s.chance_outcomes()
                a = outcomes[-1][0]
                for o, p in outcomes:
                    acc += p
                    if x < acc:
                        a = o
                        break
                s.apply_action(a)
            else:
                p = s.current_player()
                if obs:
                    observation.set_from(s, p)
                s.apply_action(rng.choice(s.legal_actions()))
                done += 1
    return done


def bench_pettingzoo(name: str, players: int, opts: dict, n: int) -> int:
    from sheepfold.interop.pettingzoo import env as make_env

    env = make_env(name, players=players, **opts)
    rng = random.Random(1)
    done = 0
    game = 0
    while done < n:
        env.reset(seed=game)
        game += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if done >= n:
                break
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done += 1
    return done


def bench_gymnasium(name: str, players: int, opts: dict, n: int) -> int:
    from sheepfold.interop.gymnasium import SheepfoldEnv

    env = SheepfoldEnv(name, players=players, opponents="random", **opts)
    rng = random.Random(1)
    done = 0
    game = 0
    while done < n:
        obs, info = env.reset(seed=game)
        game += 1
        while True:
            obs, _, term, trunc, info = env.step(
                rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            )
            if term or trunc:
                break
        done += sum(1 for seat, _ in env.state.history if seat >= 0)  # agent + bot decisions
    return done


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def main() -> None:
    print(
        f"{N} decisions per row, uniformly random legal play, 2 players (Dolly Crush: the "
        f"adapters' default rule set, dolly-graded; Shave a Sheep: turn limit 1000); best of "
        f"{REPEATS} interleaved runs (shared CPU); {load()}"
    )
    rows = [
        ("engine (baseline)", bench_engine),
        ("openspiel", bench_openspiel),
        ("openspiel +obs", lambda *a: bench_openspiel(*a, obs=True)),
        ("pettingzoo", bench_pettingzoo),
        ("gymnasium (random bot)", bench_gymnasium),
    ]
    for name, players, opts in GAMES:
        best = [0.0] * len(rows)
        for _ in range(REPEATS):
            for i, (_, fn) in enumerate(rows):
                t = time.perf_counter()
                done = fn(name, players, opts, N)
                best[i] = max(best[i], done / (time.perf_counter() - t))
        print(f"\n{name}")
        for (label, _), rate in zip(rows, best, strict=False):
            print(f"  {label:<24} {rate:>10,.0f} decisions/s   {rate / best[0]:6.2f}x engine")
    print(f"\n{load()} after")


if __name__ == "__main__":
    main()
