"""Engine speed: random-play games per second for both games (2 players), and the median time of
a greedy Dolly Crush decision (the best sequence of exactly 1 or 4 swaps).

Rows
Each random-play row is the best of 3 runs.

- baseline: a bare Python loop doing what a random player does per step (a ``random.choice``
  over a list of legal-sized length), as many steps as the games took; measured in the same run,
  so numbers from a loaded machine can be compared by their ratio to it.
- unchecked: ``apply_unchecked`` with ``sample_chance()`` (the simulation hot path).
- checked: ``apply`` (every action validated by ``illegal_reason``), as a front end plays.
- greedy: ``sheepfold.games.dolly_crush.search.best_swaps`` (whatever implementation is plugged
  in) and, when present, the reference and the fast search separately, on flocks from seeded
  games at the start of a turn; median of several positions (the first call, which builds
  lookup tables, is not timed).

    python bench/bench_engine.py [games per row, default 300]
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 300
REPEATS = 3


def play_random(game: Any, n: int, checked: bool) -> tuple[float, int]:
    rng = random.Random(1)
    steps = 0
    t = time.perf_counter()
    for i in range(n):
        s = game.new_initial_state(seed=i)
        apply = s.apply if checked else s.apply_unchecked
        while not s.is_terminal():
            if s.is_chance_node():
                apply(s.sample_chance())
            else:
                apply(rng.choice(s.legal_actions()))
            steps += 1
    return time.perf_counter() - t, steps


def baseline(steps: int) -> float:
    rng = random.Random(1)
    actions = list(range(8))
    t = time.perf_counter()
    acc = 0
    for _ in range(steps):
        acc += rng.choice(actions)
    return time.perf_counter() - t


def decision_flocks(count: int) -> tuple[list[list[int]], tuple[int, ...]]:
    from sheepfold.core.play import resolve_chance
    from sheepfold.games import make

    g = make("dolly-crush", 2)
    flocks = []
    for seed in range(count):
        s = g.new_initial_state(seed=seed)
        resolve_chance(s)
        flocks.append(list(s.flock))  # type: ignore[attr-defined]
    return flocks, g.points  # type: ignore[attr-defined]


def median_ms(
    fn: Callable[..., Any],
    flocks: list[list[int]],
    n: int,
    points: tuple[int, ...],
    budget_s: float = 20.0,
) -> tuple[float, int]:
    fn(flocks[0], n, points)  # warm-up (tables, imports)
    times = []
    start = time.perf_counter()
    for f in flocks:
        t = time.perf_counter()
        fn(f, n, points)
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > budget_s and len(times) >= 3:
            break
    return statistics.median(times) * 1000, len(times)


def main() -> None:
    from sheepfold.games import make

    print(f"random play, 2 players, {GAMES} games per row, best of {REPEATS}")
    print(f"{'game':<16}{'row':<12}{'games/s':>10}{'steps/s':>12}{'x baseline':>12}")
    for name in ("dolly-crush", "shave-a-sheep"):
        game = make(name, 2)
        for checked in (False, True):
            # best of 3 runs (the machine is shared): the least disturbed measurement
            dt, steps = min(play_random(game, GAMES, checked) for _ in range(REPEATS))
            base = min(baseline(steps) for _ in range(REPEATS))
            row = "checked" if checked else "unchecked"
            print(f"{name:<16}{row:<12}{GAMES / dt:>10.0f}{steps / dt:>12.0f}{dt / base:>12.1f}")
    print(f"{'(baseline)':<16}{'loop':<12}{'':>10}{steps / base:>12.0f}{1.0:>12.1f}")

    print("\ngreedy Dolly Crush decision (best sequence of exactly N swaps), median over flocks")
    try:
        from sheepfold.games.dolly_crush import search
    except ImportError:
        print("  skipped: sheepfold.games.dolly_crush.search is not there yet")
        return
    fns: list[tuple[str, Callable[..., Any]]] = [
        (f"best_swaps ({getattr(search.best_swaps, '__name__', '?')})", search.best_swaps)
    ]
    if (
        hasattr(search, "reference_best_swaps")
        and search.best_swaps is not search.reference_best_swaps
    ):
        fns.append(("reference_best_swaps", search.reference_best_swaps))
    try:
        from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps

        if search.best_swaps is not fast_best_swaps:
            fns.append(("fast_best_swaps", fast_best_swaps))
    except ImportError:
        pass
    flocks, points = decision_flocks(25)
    print(f"{'search':<40}{'swaps':>6}{'median ms':>12}{'flocks':>8}")
    for label, fn in fns:
        for n in (1, 4):
            ms, k = median_ms(fn, flocks, n, points)
            print(f"{label:<40}{n:>6}{ms:>12.2f}{k:>8}")
    one_swap_calls(flocks, points)


def one_swap_calls(flocks: list[list[int]], points: tuple[int, ...]) -> None:
    """A best 1-swap search called from Python, per call: the numpy search (``search.best_swaps``),
    the kernel's search with a flock of card ids (the lab's call before the kernel, then
    ``compiled.nb_best_swaps``: 0.0089 ms measured on this machine the day it was replaced) and
    the kernel's entry point over a packed flock (``kernel.search.best_one``)."""
    try:
        from sheepfold.games.dolly_crush.kernel import layout
        from sheepfold.games.dolly_crush.kernel import search as kernel
    except ImportError as e:
        print(f"  skipped: the compiled kernel needs numba ({e})")
        return
    from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps

    tabs = layout.tables(points)
    packed = [layout.pack(f) for f in flocks]
    for f, x in zip(flocks, packed, strict=True):  # the same answers
        p, j = kernel.best_one(x, tabs)
        assert (
            (int(p), (int(j),)) == fast_best_swaps(f, 1, points) == kernel.best_swaps(f, 1, points)
        )

    def per_call(run: Callable[[], None], calls: int) -> float:
        run()  # warm-up
        best = math.inf
        for _ in range(REPEATS):
            t = time.perf_counter()
            run()
            best = min(best, (time.perf_counter() - t) / calls)
        return best * 1e3

    reps = 40
    rows = [
        (
            "fast_best_swaps(flock, 1, points) (numpy)",
            lambda: [fast_best_swaps(f, 1, points) for _ in range(reps) for f in flocks],
        ),
        (
            "kernel best_swaps(flock, 1, points)",
            lambda: [kernel.best_swaps(f, 1, points) for _ in range(reps) for f in flocks],
        ),
        (
            "kernel best_one(packed, tabs)",
            lambda: [kernel.best_one(x, tabs) for _ in range(reps) for x in packed],
        ),
    ]
    print("\nbest 1-swap search called from Python, per call (best of 3; goal < 0.02 ms)")
    for label, run in rows:
        print(f"  {label:<44}{per_call(run, reps * len(flocks)):>10.4f} ms")


if __name__ == "__main__":
    main()
