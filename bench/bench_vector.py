"""Random-play decisions per second for Shave a Sheep (2 players, default rules): the batched
simulator (:class:`sheepfold.vector.ShaveBatch`, one thread), the Gymnasium vector env on it,
the single Gymnasium env, and the bare engine, with the machine's load.

Every row plays a uniformly random legal action at every decision (chance resolved in
between, not counted). batch: the caller plays every seat, the actions drawn by
``ShaveBatch.sample_actions`` (numba) from the legal mask, the observation tensor of every env
written at every step; batch (numpy policy): the actions chosen in numpy from the mask instead
(argmax of uniform noise on the legal actions); vector env: ``gymnasium.make_vec`` with the
learner's decisions counted (the random opponent's are played inside and not counted);
gymnasium: ``env.step`` of the single env (the opponent seat's random bot not counted);
parallel batch: :class:`sheepfold.vector.ShaveParallelBatch` (PettingZoo's ParallelEnv style,
every seat's observation and mask written at every step); pettingzoo: the single AEC env
(``env.last()`` + ``env.step``); engine: ``legal_actions`` + ``apply``. The last lines compare
the batch with the single environments, and say what pgx publishes to compare with (its
figures are for accelerators, see :data:`PGX_NOTE`).

    python bench/bench_vector.py [envs, default 4096] [seconds per row, default 2]
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

ENVS = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0


#: pgx (the JAX game simulators, github.com/sotetsuk/pgx, read at commit 079b2d7 of 2025-02-16):
#: its README and docs/ give no throughput figure, for CPU or otherwise; its paper (Koyamada
#: et al., "Pgx: Hardware-Accelerated Parallel Game Simulators for Reinforcement Learning",
#: NeurIPS 2023, arXiv 2303.17503) compares Pgx on A100 GPUs (a DGX-A100) with PettingZoo and
#: OpenSpiel, "10-100x" faster; we found no CPU figure of pgx's for a game of our size
PGX_NOTE = (
    "pgx: no CPU figure found to compare with (sotetsuk/pgx's README and docs at 079b2d7 publish "
    "none; its NeurIPS 2023 paper, arXiv 2303.17503, compares pgx on A100 GPUs with "
    "PettingZoo/OpenSpiel: 10-100x)"
)


def timed(step) -> float:  # type: ignore[no-untyped-def]
    """Decisions per second of ``step()`` (returns its decisions) over SECONDS, after a warm-up."""
    step()
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < SECONDS:
        done += step()
    return done / (time.perf_counter() - t0)


def batch_row(numpy_policy: bool) -> float:
    from sheepfold.vector import ShaveBatch

    b = ShaveBatch(ENVS, 2, seed=0)
    b.reset()
    rng = np.random.default_rng(0)

    def step() -> int:
        for _ in range(20):
            if numpy_policy:
                a = np.argmax(rng.random((ENVS, b.num_actions)) * b._mask, axis=1)
            else:
                a = b.sample_actions(rng)
            b.step(a)
        return 20 * ENVS

    return timed(step)


def vector_env_row() -> float:
    import gymnasium as gym

    import sheepfold.interop.gymnasium  # noqa: F401

    envs = gym.make_vec(
        "sheepfold/ShaveASheep-v0", num_envs=ENVS, vectorization_mode="vector_entry_point"
    )
    envs.reset(seed=0)
    rng = np.random.default_rng(0)

    def step() -> int:
        for _ in range(20):
            a = np.argmax(rng.random((ENVS, 13)) * envs.unwrapped.action_masks(), axis=1)
            envs.step(a)
        return 20 * ENVS

    return timed(step)


def gym_row() -> float:
    import gymnasium as gym

    import sheepfold.interop.gymnasium  # noqa: F401

    env = gym.make("sheepfold/ShaveASheep-v0")
    rng = np.random.default_rng(0)
    state = {"info": env.reset(seed=0)[1]}

    def step() -> int:
        for _ in range(200):
            a = env.action_space.sample(state["info"]["action_mask"])
            _, _, term, trunc, info = env.step(a)
            state["info"] = env.reset(seed=int(rng.integers(2**31)))[1] if term or trunc else info
        return 200

    return timed(step)


def parallel_row() -> float:
    from sheepfold.vector import ShaveParallelBatch

    env = ShaveParallelBatch(ENVS, 2, seed=0)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    holder = {"obs": obs}

    def step() -> int:
        for _ in range(20):
            o = holder["obs"]
            acts = {
                a: np.argmax(rng.random((ENVS, 13)) * o[a]["action_mask"], axis=1)
                for a in env.agents
            }
            holder["obs"] = env.step(acts)[0]
        return 20 * ENVS

    return timed(step)


def pettingzoo_row() -> float:
    from sheepfold.interop.pettingzoo import env as aec_env

    env = aec_env("shave-a-sheep", players=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def step() -> int:
        done = 0
        while done < 200:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    env.reset(seed=int(rng.integers(2**31)))
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
        return done

    return timed(step)


def engine_row() -> float:
    from sheepfold.interop import build_game

    game = build_game("shave-a-sheep", 2)
    rng = random.Random(1)
    holder = {"s": game.new_initial_state(seed=0)}

    def step() -> int:
        done = 0
        while done < 500:
            s = holder["s"]
            if s.is_terminal():
                holder["s"] = game.new_initial_state(seed=rng.randrange(2**31))
            elif s.is_chance_node():
                s.apply_unchecked(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
                done += 1
        return done

    return timed(step)


def main() -> None:
    one, five, _ = os.getloadavg()
    print(
        f"Shave a Sheep, 2 players, random play; {ENVS} envs; load average {one:.2f} (1 min), {five:.2f} (5 min)"
    )
    rows = [
        (f"batch ({ENVS} envs, one thread)", lambda: batch_row(False)),
        (f"batch ({ENVS} envs), numpy policy", lambda: batch_row(True)),
        (f"gymnasium vector env ({ENVS} envs)", vector_env_row),
        (f"parallel batch ({ENVS} envs, dicts by agent)", parallel_row),
        ("gymnasium single env", gym_row),
        ("pettingzoo single AEC env", pettingzoo_row),
        ("engine", engine_row),
    ]
    results = {}
    for name, fn in rows:
        results[name] = fn()
        print(f"  {name:40s} {results[name]:>13,.0f} decisions/s", flush=True)
    first = next(iter(results.values()))
    print(
        f"  batch / single gymnasium env: {first / results['gymnasium single env']:,.0f}x; "
        f"batch / single pettingzoo env: {first / results['pettingzoo single AEC env']:,.0f}x; "
        f"batch / engine: {first / results['engine']:,.0f}x"
    )
    print(f"  {PGX_NOTE}")
    one, five, _ = os.getloadavg()
    print(f"load average after: {one:.2f} (1 min), {five:.2f} (5 min)")


if __name__ == "__main__":
    main()
