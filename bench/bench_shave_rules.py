"""The rulebook's speed on Shave a Sheep's fast paths, one line each, for an old-versus-new
comparison of the rule language's kernel (run it with each tree's ``src`` on PYTHONPATH, in the
same session): the lab's fast games per second (random and greedy policies, 2 players), the
solver's time on the rulebook at 2 players (minimax) and 3 players (every seat's guaranteed
share), the batched simulator's steps per second, and the greedy bot's decisions per second.
Rates use the process's CPU time (the machine is shared); a warm-up loads numba's cache first.

    python bench/bench_shave_rules.py [--quick] [--lab] [--cold]

``--lab``: the lab's lines only (random and greedy at 2 and 4 players); ``--cold``: first the
seconds of the first fast game in a fresh numba cache folder (the cold compile time, in a
child process).
"""

from __future__ import annotations

import os
import random
import sys
import time
from functools import partial

import numpy as np

QUICK = "--quick" in sys.argv
LAB = "--lab" in sys.argv
COLD = "--cold" in sys.argv


def cpu(fn):  # type: ignore[no-untyped-def]
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def main() -> None:
    from sheepfold.games import make
    from sheepfold.games.shave_a_sheep import solver as S
    from sheepfold.games.shave_a_sheep.rules import ShaveRules
    from sheepfold.lab import fastsim_shave as fs
    from sheepfold.vector import ShaveBatch

    print(f"sheepfold from {os.path.dirname(fs.__file__)}; load {os.getloadavg()[0]:.2f}")
    if COLD:
        cold()
    n = 200_000 if QUICK else 1_000_000
    for players in (2, 4):
        game = make("shave-a-sheep", players=players, rules={"wool": 30, "max_turns": 1000})
        fs.bench(game, 0, 100)
        fs.bench(game, 0, 100, "greedy")
        _, c, _ = cpu(partial(fs.bench, game, 0, n // players))
        print(f"lab fast, random, {players} players      {n // players / c:12,.0f} games/s (CPU)")
        ng = n // 20 // players
        _, c, _ = cpu(partial(fs.bench, game, 0, ng, "greedy"))
        print(f"lab fast, greedy, {players} players      {ng / c:12,.0f} games/s (CPU)")
    if LAB:
        return
    S.solve_minimax(ShaveRules(wool=6))
    S.guaranteed_shares_all(ShaveRules(wool=6), 3)
    _, c, w = cpu(lambda: S.solve_minimax(ShaveRules()))
    print(f"solver, rulebook, 2 players      {c:12.2f} s CPU ({w:.2f} s wall)")
    _, c, w = cpu(lambda: S.guaranteed_shares_all(ShaveRules(), 3))
    print(f"solver, rulebook, 3 players all  {c:12.2f} s CPU ({w:.2f} s wall)")
    envs = 4096
    b = ShaveBatch(envs, 2, seed=0)
    b.reset()
    rng = np.random.default_rng(0)
    b.step(b.sample_actions(rng))
    steps = 100 if QUICK else 400

    def batch() -> None:
        for _ in range(steps):
            b.step(b.sample_actions(rng))

    _, c, _ = cpu(batch)
    print(f"batched simulator, 4096 envs     {steps * envs / c:12,.0f} steps/s (CPU)")
    import sheepfold.bots  # noqa: F401  (registers the bots by name)
    from sheepfold.core.play import bot_by_name

    g2 = make("shave-a-sheep", players=2)
    bots = [bot_by_name("greedy", g2, s, s) for s in range(2)]

    def bot_games() -> int:
        done = 0
        for seed in range(40 if QUICK else 150):
            s = g2.new_initial_state(seed=seed)
            rr = random.Random(seed)
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_unchecked(s.sample_chance(rr))
                else:
                    p = s.current_player()
                    s.apply(bots[p].act(s.observe(p)))
                    done += 1
        return done

    d, c, _ = cpu(bot_games)
    print(f"greedy bot (engine)              {d / c:12,.0f} decisions/s (CPU)")
    print(f"load after {os.getloadavg()[0]:.2f}")


def cold() -> None:
    """The seconds of the first random and greedy fast games in a fresh numba cache folder."""
    import subprocess
    import tempfile

    code = (
        "import time; t = time.perf_counter(); from sheepfold.games import make; "
        "from sheepfold.lab import fastsim_shave as fs; "
        "g = make('shave-a-sheep', players=2); fs.bench(g, 0, 1); "
        "t1 = time.perf_counter(); fs.bench(g, 0, 1, 'greedy'); "
        "print(f'{t1 - t:.1f} {time.perf_counter() - t1:.1f}')"
    )
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "NUMBA_CACHE_DIR": d}
        c0 = os.times()
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        c1 = os.times()
    cpu_s = c1.children_user + c1.children_system - c0.children_user - c0.children_system
    print(f"cold compile, first game         {float(out[0]):12.1f} s wall (random)")
    print(f"cold compile, then greedy        {float(out[1]):12.1f} s wall ({cpu_s:.1f} s CPU both)")


if __name__ == "__main__":
    main()
