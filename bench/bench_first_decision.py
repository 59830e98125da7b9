"""The expert's first decision in a fresh process: numba's compilation (cold: an empty cache
folder) or loading (warm: the folder filled by the cold run) is done by the warm-up, before the
clock starts, and is printed apart from the decision and its playouts.

    .venv/bin/python bench/bench_first_decision.py

Each row is a new Python process. Its decision is the first of a seeded game, for two sets of
dog cards: one-swap cards (cheap playouts: the budget of 30,000 ends the search) and the
rulebook's first two breeds (a 4-swap card: the 0.8 s clock ends it), made after the first one
(so only the 1-swap decision is the process's first). The baseline is the same decision made
again in the same process. "warm-up skipped" shows what the warm-up prevents: the
cache is warm, the warm-up is switched off, so loading the kernels eats into the clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

SETUPS = {
    "1-swap dogs": ["pastore-maremmano", "bobtail"],
    "rulebook breeds": ["pastore-maremmano", "australian-shepherd"],
}

# argv: "warm" or "skip" (no warm-up: the old behaviour), then breeds per setup (comma-joined).
CHILD = """
import json, sys, time
t0 = time.perf_counter()
import sheepfold.bots.dolly as dolly
from sheepfold.bots import make_bot, warmup
from sheepfold.core.play import resolve_chance
from sheepfold.games import make
out = {"import": time.perf_counter() - t0, "warm-up": 0.0}
if sys.argv[1] == "skip":
    dolly.warm_modules = lambda *a, **k: 0.0
else:
    out["warm-up"] = warmup.warm_up(["expert"])


def decide(breeds):
    game = make("dolly-crush", breeds=breeds.split(","))
    state = game.new_initial_state(seed=3)
    resolve_chance(state)
    bot = make_bot("expert", game, 0, seed=1)
    t = time.perf_counter()
    bot.act(state.observe(0))
    return [time.perf_counter() - t, bot.last_playouts]


for breeds in sys.argv[2:]:
    out[breeds] = decide(breeds)
    out[breeds] += decide(breeds)  # the baseline: the same decision, warm in-process
print(json.dumps(out))
"""


def child(cache: str, mode: str) -> dict[str, list[float]]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    args = [sys.executable, "-c", CHILD, mode] + [",".join(b) for b in SETUPS.values()]
    run = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if run.returncode:
        sys.exit(run.stderr)
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="sheepfold-bench-numba-") as cache:
        runs = [
            ("cold cache", child(cache, "warm")),
            ("warm cache", child(cache, "warm")),
            ("warm-up skipped", child(cache, "skip")),
        ]
    print("the expert's first decision in a fresh process (s: seconds)")
    print(f"{'':<16} {'':>8} {'':>9}" + "".join(f" | {name:^21}" for name in SETUPS))
    print(f"{'':<16} {'import s':>8} {'warm-up s':>9}" + " | decision s  playouts" * len(SETUPS))
    for label, out in runs:
        row = f"{label:<16} {out['import']:>8.2f} {out['warm-up']:>9.2f}"
        for breeds in SETUPS.values():
            seconds, playouts, _, _ = out[",".join(breeds)]
            row += f" | {seconds:>10.3f} {playouts:>9,}"
        print(row)
    row = f"{'baseline':<16} {'':>8} {'':>9}"
    for breeds in SETUPS.values():  # the second decision of the warm-cache process
        _, _, seconds, playouts = runs[1][1][",".join(breeds)]
        row += f" | {seconds:>10.3f} {playouts:>9,}"
    print(row)
    print("baseline: the same decision again in the warm-cache process")


if __name__ == "__main__":
    main()
