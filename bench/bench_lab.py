"""The lab's speed: fast simulators against the plain engine loop, measured in the same run.

1. Shave a Sheep, random policy, 2 players, 30 wool: games per minute on one core with the
   fast simulator (numba), and the plain engine loop (``apply_unchecked`` + ``random.choice``)
   as the baseline. Goal: >= 10,000,000 games per minute.
2. Dolly Crush, greedy bots on both seats: games per second per core with the lab's fast path,
   and through the engine with the registered greedy bots as the baseline. Goal: >= 50.
3. Scaling from 1 to 2 local worker processes (whole runs through ``lab.runner.run``).

Per-core rates use the process's CPU time (the machine is shared: wall-clock rates are printed
too, and are lower when other jobs run). ``python bench/bench_lab.py [--quick] [--scaling]``
(``--scaling``: only part 3).
"""

from __future__ import annotations

import os
import random
import sys
import time

QUICK = "--quick" in sys.argv


def timed(fn):  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def shave() -> None:
    from sheepfold.games import make
    from sheepfold.lab import fastsim_shave as fs

    game = make("shave-a-sheep", players=2, rules={"wool": 30, "max_turns": 1000})
    fs.bench(game, 0, 100)  # compile / load the cache
    n_fast = 200_000 if QUICK else 1_000_000
    (wins, turns), wall, cpu = timed(lambda: fs.bench(game, 0, n_fast))
    fast_cpu = n_fast / cpu * 60
    fast_wall = n_fast / wall * 60

    def engine_loop(count: int) -> int:
        t = 0
        for seed in range(count):
            s = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_unchecked(s.sample_chance())
                else:
                    s.apply_unchecked(rng.choice(s.legal_actions()))
            t += s.turns + 1
        return t

    n_eng = 1_000 if QUICK else 4_000
    eturns, ewall, ecpu = timed(lambda: engine_loop(n_eng))
    eng_cpu = n_eng / ecpu * 60
    print("Shave a Sheep, random policy, 2 players, 30 wool (one core)")
    print(
        f"  fast simulator : {fast_cpu:>14,.0f} games/min  (wall: {fast_wall:,.0f}; {n_fast:,} games, "
        f"{turns / n_fast:.1f} turns/game, seat 0 won {wins / n_fast:.3f})"
    )
    print(
        f"  engine loop    : {eng_cpu:>14,.0f} games/min  (wall: {n_eng / ewall * 60:,.0f}; {n_eng:,} games, "
        f"{eturns / n_eng:.1f} turns/game)"
    )
    print(
        f"  ratio          : {fast_cpu / eng_cpu:>14,.0f}x   goal >= 10,000,000 games/min: "
        f"{'met' if fast_cpu >= 10_000_000 else 'NOT met'}"
    )


def dolly() -> None:
    from sheepfold.bots import make_bot
    from sheepfold.core.play import play_game
    from sheepfold.lab import fastsim_dolly as fd
    from sheepfold.lab.runner import make_job

    job = make_job("dolly-crush", None, bots=["greedy"], games=10_000, seed=0)
    fd.play(job, 0)  # compile / load the cache
    n = 60 if QUICK else 200
    _, wall, cpu = timed(lambda: [fd.play(job, i) for i in range(n)])
    game = job.make_game(0)
    m = 3 if QUICK else 6

    def engine() -> None:
        for i in range(m):
            play_game(game, [make_bot("greedy", game, s, i) for s in range(2)], seed=i)

    _, ewall, ecpu = timed(engine)
    print("Dolly Crush, greedy bots, 2 players, rulebook dogs (one core)")
    print(f"  fast path      : {n / cpu:>10.1f} games/s  (wall: {n / wall:.1f}; {n} games)")
    print(f"  engine + bots  : {m / ecpu:>10.2f} games/s  (wall: {m / ewall:.2f}; {m} games)")
    print(
        f"  ratio          : {(n / cpu) / (m / ecpu):>10.0f}x   goal >= 50 games/s: "
        f"{'met' if n / cpu >= 50 else 'NOT met'}"
    )


def scaling() -> None:
    from sheepfold.lab.runner import make_job, run

    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    print(
        f"Scaling, whole runs through lab.runner (Parquet rows and features included; {cores} cores, "
        f"load average {load:.1f}: with other jobs running, 2 workers cannot get 2 cores)"
    )
    for label, job in (
        (
            "Shave a Sheep fast, random",
            make_job("shave-a-sheep", None, games=200_000 if QUICK else 1_000_000, seed=0),
        ),
        (
            "Dolly Crush fast, greedy",
            make_job("dolly-crush", None, bots=["greedy"], games=80 if QUICK else 240, seed=0),
        ),
    ):
        run(job.__class__(**{**job.__dict__, "games": 4}), workers=1)  # warm up
        rates = {}
        for w in (1, 2):
            _, wall, _ = timed(lambda job=job, w=w: run(job, workers=w))
            rates[w] = job.games / wall
        unit = "games/min" if job.game == "shave-a-sheep" else "games/s"
        k = 60 if unit == "games/min" else 1
        print(
            f"  {label:28s}: 1 worker {rates[1] * k:>12,.1f} {unit}, 2 workers {rates[2] * k:>12,.1f} "
            f"{unit}  (x{rates[2] / rates[1]:.2f})"
        )


if __name__ == "__main__":
    if "--scaling" not in sys.argv:
        shave()
        dolly()
    scaling()
