"""Solver speed and memory for the rulebook game (30 wool): 2 players (minimax) and 3 players
(guaranteed shares of all seats, in one solve by rotation). The baseline, measured in the same
run, is the same 2-player solve with the reference kernel (every sweep recomputes every
transition instead of running the compiled block), and for 3 players one seat solved alone.
4 players (all seats) only with SHEEPFOLD_BENCH_4P=1: it takes about 20 minutes, then both wolf
variants at 4 players (all seats, one seat unfolded at a time, each in its own process so that
its maximum resident size is its own): about 15 and 20 minutes more.

Peak memory: tracemalloc's peak of the solve (numpy arrays are traced) and the process's
maximum resident size. numba compiles once per machine (cached on disk); a warm-up solve of a
tiny game loads the compiled code before anything is timed.
"""

from __future__ import annotations

import os
import resource
import time
import tracemalloc

import numpy as np

from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules


def measure(label, fn):
    tracemalloc.start()
    t = time.perf_counter()
    out = fn()
    secs = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{label:<52} {secs:8.2f} s   peak {peak / 2**20:8.1f} MB   (process max RSS {rss:7.0f} MB)",
        flush=True,
    )
    return out, secs


def main() -> None:
    rules = ShaveRules()
    t = time.perf_counter()
    S.solve_minimax(ShaveRules(wool=6))
    S.guaranteed_share(ShaveRules(wool=6), 3, 0)
    S.evaluate(ShaveRules(wool=6), 3, ["greedy", "random", "random"])
    S.guaranteed_shares_all(ShaveRules(wool=6), 3)
    print(f"warm-up (load or compile the numba kernels): {time.perf_counter() - t:.1f} s")
    sp2 = S.Space(rules, 2)
    sp3 = S.Space(rules, 3)
    print(
        f"positions: 2 players {sp2.size:,}; 3 players {sp3.size:,}; 4 players {S.count_positions(rules, 4):,}"
    )

    def reference():
        kinds = np.array([S.K.MAX, S.K.MIN], dtype=np.int64)
        tab = np.zeros((sp2.size, sp2.C), dtype=np.int8)
        return S._run(sp2, kinds, 1, 0, tab, True, S.DEFAULT_TOL, None, compiled=False)

    (_, st0), base = measure("baseline: 2 players, reference kernel", reference)
    sol, secs = measure("2 players, minimax (target 2 s)", lambda: S.solve_minimax(sp2))
    print(
        f"   seat 0 wins {sol.start_value:.10f}; {sol.stats.sweeps_mean:.1f} sweeps per block "
        f"(max {sol.stats.sweeps_max}); {base / secs:.1f}x the baseline"
    )
    sols, secs3 = measure(
        "3 players, guaranteed shares of all 3 seats (target 60 s)",
        lambda: S.guaranteed_shares_all(sp3, 3),
    )
    print(
        "   guaranteed shares: "
        + ", ".join(f"{s.start_value:.6f}" for s in sols)
        + f"; one solve for every seat (rotation), {sols[0].stats.seconds:.1f} s of it iterating"
    )
    del sols
    _, secs3b = measure(
        "3 players, seat 0 alone (the seat-by-seat solve)", lambda: S.guaranteed_share(sp3, 3, 0)
    )
    _, secs_ev = measure(
        "3 players, exact evaluation of greedy x3", lambda: S.evaluate(sp3, 3, ["greedy"] * 3)
    )
    if os.environ.get("SHEEPFOLD_BENCH_4P"):
        sp4 = S.Space(rules, 4)
        shares: list[float] = []
        _, secs4 = measure(
            "4 players, guaranteed shares of all 4 seats (target 15 min per seat)",
            lambda: S.guaranteed_shares_all(sp4, 4, on_seat=lambda s: shares.append(s.start_value)),
        )
        print("   guaranteed shares: " + ", ".join(f"{v:.6f}" for v in shares))
        for variant in ("howling-wolf", "my-friend-mr-wolf"):
            wolf_solve(variant)
    else:
        print(
            "4 players: skipped (set SHEEPFOLD_BENCH_4P=1: all seats in one solve, about 20 minutes, ~3 GB)"
        )


WOLF = """
import resource, sys, time
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules
shares = []
t = time.perf_counter()
S.guaranteed_shares_all(
    ShaveRules(variants=[sys.argv[1]]), 4, on_seat=lambda s: shares.append(s.start_value)
)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(f"{time.perf_counter() - t:.0f} s, max RSS {rss:.2f} GB; shares", *(f"{v:.6f}" for v in shares))
"""


def wolf_solve(variant: str) -> None:
    """A 4-player all-seat solve of a wolf variant in a fresh process, within 8 GB."""
    import subprocess
    import sys

    env = dict(os.environ, SHEEPFOLD_SOLVER_MAX_GB="8")
    out = subprocess.run(
        [sys.executable, "-c", WOLF, variant], env=env, capture_output=True, text=True
    )
    text = out.stdout.strip() or out.stderr.strip().splitlines()[-1]
    print(f"4 players, {variant}, guaranteed shares of all 4 seats (8 GB allowed): {text}")


if __name__ == "__main__":
    main()
