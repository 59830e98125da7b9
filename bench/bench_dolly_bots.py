"""Dolly Crush bots: the swap search's speed (fast vs the plain reference, same run) and every
level's decision time, for 1-swap and 4-swap dog cards.

    .venv/bin/python bench/bench_dolly_bots.py [--quick]

Decision times are measured on the positions of real games (medium against medium, seeded): a
bot's "turn decision" is its dog-card decision, where it plans the whole turn (the swap
decisions that follow replay the plan and cost microseconds). The machine is shared: expect
noise; the medians are what to compare.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from sheepfold.bots import make_bot
from sheepfold.core.play import resolve_chance
from sheepfold.games import make
from sheepfold.games.dolly_crush.cards import find_lines
from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps, reachable
from sheepfold.games.dolly_crush.search import reference_best_swaps

QUICK = "--quick" in sys.argv
#: dealt flocks whose distinct flocks after n swaps give the median the table shows
DISTINCT_SAMPLE = 1000


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def dealt_flocks(count: int, seed: int) -> list[list[int]]:
    game = make("dolly-crush")
    deck = game.standard_deck()
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        f = rng.sample(deck, 15)
        if not find_lines(f):
            out.append(f)
    return out


def bench_search() -> None:
    points = make("dolly-crush").points
    fast_best_swaps(dealt_flocks(1, 0)[0], 4, points)  # build the line tables once
    print("exhaustive swap search (ms per search; same flocks for both)")
    print(
        f"{'swaps':>5} {'flocks':>7} {'reference med':>14} {'fast med':>9} {'fast p95':>9} {'speed-up':>9}"
    )
    for n, count in ((1, 200), (2, 100), (3, 60), (4, 30 if QUICK else 60)):
        flocks = dealt_flocks(count, 100 + n)
        ref, fast = [], []
        for f in flocks:
            t0 = time.perf_counter()
            a = reference_best_swaps(f, n, points)
            t1 = time.perf_counter()
            b = fast_best_swaps(f, n, points)
            t2 = time.perf_counter()
            assert a == b
            ref.append(t1 - t0)
            fast.append(t2 - t1)
        # the distinct flocks of 1,000 dealt flocks (the first ones are those timed)
        distinct = statistics.median(
            len(reachable(f, n).flocks) for f in dealt_flocks(DISTINCT_SAMPLE, 100 + n)
        )
        print(
            f"{n:>5} {distinct:>7.0f} {1e3 * statistics.median(ref):>14.2f} "
            f"{1e3 * statistics.median(fast):>9.2f} {1e3 * pct(fast, 0.95):>9.2f} "
            f"{statistics.median(ref) / statistics.median(fast):>8.1f}x"
        )


def decision_positions(breeds: list[str], games: int) -> list[tuple[object, int]]:
    """(state, seat) at every dog decision of medium-vs-medium games."""
    game = make("dolly-crush", breeds=breeds)
    out = []
    for g in range(games):
        s = game.new_initial_state(seed=1000 + g)
        bots = [make_bot("medium", game, p, p) for p in range(2)]
        resolve_chance(s)
        while not s.is_terminal():
            p = s.current_player()
            if s.observe(p)["phase"] == "dog":
                out.append((s.clone(), p))
            s.apply(bots[p].act(s.observe(p)))
            resolve_chance(s)
    return out


def bench_levels() -> None:
    print("\nturn decision time per level (ms; the dog decision plans the whole turn)")
    print(f"{'level':<22} {'dog cards':<22} {'decisions':>9} {'median':>9} {'p95':>9} {'max':>9}")
    setups = [
        ("1-swap", ["pastore-maremmano", "bobtail"]),
        ("4-swap (Australian)", ["australian-shepherd", "bobtail"]),
    ]
    for label, breeds in setups:
        game = make("dolly-crush", breeds=breeds)
        positions = decision_positions(breeds, 2 if QUICK else 4)
        for level in ("easy", "medium", "hard", "expert"):
            state, seat = positions[0]  # a first decision, not timed, loads compiled code
            make_bot(level, game, seat, seed=0).act(state.observe(seat))  # type: ignore[attr-defined]
            times = []
            for i, (state, seat) in enumerate(positions):
                if label.startswith("4") and seat != 0:
                    continue  # time the Australian Shepherd's decisions
                bot = make_bot(level, game, seat, seed=i)
                view = state.observe(seat)  # type: ignore[attr-defined]
                t0 = time.perf_counter()
                bot.act(view)
                times.append(time.perf_counter() - t0)
            print(
                f"{level:<22} {label:<22} {len(times):>9} {1e3 * statistics.median(times):>9.1f} "
                f"{1e3 * pct(times, 0.95):>9.1f} {1e3 * max(times):>9.1f}"
            )


if __name__ == "__main__":
    bench_search()
    bench_levels()
