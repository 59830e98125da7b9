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
    from sheepfold.vector.shave import warm

    warm()


def _dolly_vector() -> None:
    from sheepfold.vector.dolly import warm

    warm()


def _lab(game: str) -> Callable[[], None]:
    def run() -> None:
        from sheepfold.lab.runner import make_job, run

        run(make_job(game, games=4, bots=("greedy",)), workers=1, background=False)

    return run


def _solver() -> None:
    from sheepfold.games.shave_a_sheep import solver
    from sheepfold.games.shave_a_sheep.rules import ShaveRules

    small = ShaveRules(wool=6, max_wool=2)
    solver.minimax_shares(solver.solve_minimax(small))
    solver.evaluate(small, 3, ["random", "greedy", "random"])
    solver.best_response(small, 3, 0, ["random", "greedy", "greedy"])
    solver.guaranteed_shares_all(small, 3)


def _bots(house_rules: bool) -> Callable[[], None]:
    """The bots' compiled code for the lobby's default rules, or for the house rules (the
    expert's grid playouts: a game of diagonal lines)."""

    def run() -> None:
        from sheepfold.bots.warmup import lobby_games, warm_up

        if house_rules:
            from sheepfold.games import make
            from sheepfold.games.dolly_crush.rules import DollyRules

            warm_up(game=make("dolly-crush", rules=DollyRules(diagonals=True)))
        else:
            for game in lobby_games():
                warm_up(game=game)

    return run


#: (what it compiles, the workload), in the order the test suite needs them last-first
WORKLOADS: list[tuple[str, Callable[[], None]]] = [
    ("the batched Shave a Sheep simulator", _vector),
    ("the batched Dolly Crush simulator", _dolly_vector),
    ("the lab's fast Shave a Sheep games", _lab("shave-a-sheep")),
    ("the lab's fast Dolly Crush games", _lab("dolly-crush")),
    ("the bots' playouts (default rules)", _bots(False)),
    ("the bots' playouts (house rules)", _bots(True)),
    ("the exact solver", _solver),
]


def _one(k: int) -> tuple[str, float | None]:
    """Workload ``k``: its label and seconds (None: skipped, its extra is missing)."""
    label, work = WORKLOADS[k]
    start = time.perf_counter()
    try:
        work()
    except ModuleNotFoundError as e:
        if e.name not in ("numba", "llvmlite", "gymnasium", "pyarrow", "scipy"):
            raise
        return label, None
    return label, time.perf_counter() - start


def warm_all(progress: Progress | None = None, jobs: int = 1) -> list[tuple[str, float | None]]:
    """Run every workload: each one's label and seconds (None: skipped, its extra is missing).
    ``jobs`` > 1: that many at once, each in a process of its own (numba compiles on one core:
    two cores compile two workloads in the time of one; they share the cache folder)."""
    total = len(WORKLOADS)
    if jobs <= 1:
        out: list[tuple[str, float | None]] = []
        for k, (label, _) in enumerate(WORKLOADS):
            if progress is not None:
                progress(k, total, label)
            out.append(_one(k))
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        found: dict[int, tuple[str, float | None]] = {}
        if progress is not None:
            progress(0, total, ", ".join(label for label, _ in WORKLOADS[:jobs]))
        with ProcessPoolExecutor(jobs, mp_context=mp.get_context("fork")) as pool:
            futures = {pool.submit(_one, k): k for k in range(total)}
            for f in as_completed(futures):
                found[futures[f]] = f.result()
                if progress is not None and len(found) < total:
                    left = [WORKLOADS[k][0] for k in range(total) if k not in found]
                    progress(len(found), total, ", ".join(left[:jobs]))
        out = [found[k] for k in range(total)]
    if progress is not None:
        progress(total, total, "")
    return out
