"""Compile every kernel of the package into numba's cache folder, now, in one go.

A kernel is compiled the first time it runs and then loaded from numba's cache folder (see
:mod:`sheepfold.numba_cache`): cold, the batched simulator, the lab's fast games, the solver and
the expert's playouts take several minutes of compilation between them, paid by whoever first
needs each. ``sheepfold warm`` pays it up front (once after installing, in a container image,
or beside other work: the test suite starts it in a background process so that a second core
compiles what the tests will need later).

Each workload below is a tiny real run of a front door (a lab job, a solve, a batch step), so it
compiles exactly the signatures the real runs use. A workload whose extra is not installed
(numba, gymnasium) is skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: ``progress(done, total, label)``: before workload ``done + 1`` (``label`` names it), and once
#: more at the end with ``done == total``.
Progress = Callable[[int, int, str], None]


def _vector() -> None:
    from sheepfold.vector import ShaveBatch

    batch = ShaveBatch(4, players=2, seed=0)
    batch.reset()
    for _ in range(4):
        batch.step(batch.sample_actions())
    batch.observe()


def _dolly_vector() -> None:
    from sheepfold.vector import DollyBatch

    for opponents in (None, "greedy"):
        batch = DollyBatch(4, players=2, seed=0, opponents=opponents)
        batch.reset()
        for _ in range(4):
            batch.step(batch.sample_actions())
        batch.observe()


def _lab(game: str) -> Callable[[], None]:
    def run() -> None:
        from sheepfold.lab.runner import make_job, run

        run(make_job(game, games=4, bots=("greedy",)), workers=1)

    return run


def _solver() -> None:
    from sheepfold.games.shave_a_sheep import solver
    from sheepfold.games.shave_a_sheep.rules import ShaveRules

    small = ShaveRules(wool=6, max_wool=2)
    solver.minimax_shares(solver.solve_minimax(small))
    solver.evaluate(small, 3, ["random", "greedy", "random"])
    solver.best_response(small, 3, 0, ["random", "greedy", "greedy"])
    solver.guaranteed_shares_all(small, 3)


def _bots() -> None:
    from sheepfold.bots.warmup import warm_up

    warm_up()


#: (what it compiles, the workload), in the order the test suite needs them last-first
WORKLOADS: list[tuple[str, Callable[[], None]]] = [
    ("the batched Shave a Sheep simulator", _vector),
    ("the batched Dolly Crush simulator", _dolly_vector),
    ("the lab's fast Shave a Sheep games", _lab("shave-a-sheep")),
    ("the lab's fast Dolly Crush games", _lab("dolly-crush")),
    ("the bots' playouts", _bots),
    ("the exact solver", _solver),
]


def warm_all(progress: Progress | None = None) -> list[tuple[str, float | None]]:
    """Run every workload: each one's label and seconds (None: skipped, its extra is missing)."""
    out: list[tuple[str, float | None]] = []
    for k, (label, work) in enumerate(WORKLOADS):
        if progress is not None:
            progress(k, len(WORKLOADS), label)
        start = time.perf_counter()
        try:
            work()
        except ModuleNotFoundError as e:
            if e.name not in ("numba", "llvmlite", "gymnasium", "pyarrow", "scipy"):
                raise
            out.append((label, None))
            continue
        out.append((label, time.perf_counter() - start))
    if progress is not None:
        progress(len(WORKLOADS), len(WORKLOADS), "")
    return out
