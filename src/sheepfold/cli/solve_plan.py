"""What ``sheepfold solve`` and ``sheepfold analyse`` are about to compute, said before they start
when it is large (positions, memory, a time estimate), and their progress on any output.

The memory is the solver's own plan (``solver._check_memory`` and ``_check_rotating_memory``:
8 bytes a value, one byte a decision-table column, ``space.C`` columns, and the workers' buffers,
``solver.scratch_bytes``) for each step, plus the solutions the command holds meanwhile; it
leaves out the position index and Python itself, so it says "about". The time is positions x passes x a rate
measured by ``bench/bench_solver.py`` (:data:`RATE_US`).

Progress: rich's bars on a terminal; elsewhere (a pipe, a script, CI) rich shows nothing, so a
large plan prints a plain line to stderr at every tenth of each pass instead (never stdout:
``--json`` keeps stdout for the answer).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

# the solver (numba, scipy) is imported where a plan is made, not by every command's start

#: seconds above which a plan is large (said up front); None: the solver's ``LARGE_SECONDS``
LARGE_SECONDS: float | None = None

#: bots the solver plays in its kernel; any other is asked about every decision (in Python)
KERNEL_BOTS = ("random", "greedy", "perfect")


@dataclass
class Step:
    """One pass (or several) over the positions: what it computes, how many positions it
    iterates in all, the most bytes in memory while it runs and the bytes it caches on disk."""

    label: str
    positions: int
    peak_bytes: int
    cache_bytes: int = 0  # written to the solver's disk cache
    cached: bool = False  # the solutions are read from the cache


@dataclass
class Plan:
    players: int
    positions: int
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def memory(self) -> int:
        return max((s.peak_bytes for s in self.steps), default=0)

    @property
    def cache_bytes(self) -> int:
        return sum(s.cache_bytes for s in self.steps)

    @property
    def seconds(self) -> tuple[float, float]:
        from sheepfold.games.shave_a_sheep.solver import RATE_US

        iterated = sum(s.positions for s in self.steps)
        return iterated * RATE_US[0] / 1e6, iterated * RATE_US[1] / 1e6

    @property
    def large(self) -> bool:
        from sheepfold.games.shave_a_sheep import solver

        limit = solver.LARGE_SECONDS if LARGE_SECONDS is None else LARGE_SECONDS
        return self.seconds[1] > limit

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.seconds
        return {
            "positions": self.positions,
            "steps": [
                {
                    "what": s.label,
                    "positions": s.positions,
                    "peak_bytes": s.peak_bytes,
                    "cache_bytes": s.cache_bytes,
                    "cached": s.cached,
                }
                for s in self.steps
            ],
            "memory_bytes": self.memory,
            "cache_bytes": self.cache_bytes,
            "seconds_estimate": [round(lo, 1), round(hi, 1)],
            "large": self.large,
        }

    def lines(self) -> list[str]:
        """The plan in words: what, how much memory, how long."""
        from sheepfold.games.shave_a_sheep import solver

        lo, hi = self.seconds
        what = "; then ".join(
            s.label + (" (from the cache)" if s.cached else "") for s in self.steps
        )
        disk = (
            f"; about {_bytes(self.cache_bytes)} written to the cache ({solver.cache_dir()})"
            if self.cache_bytes
            else ""
        )
        return [
            f"plan: {self.positions:,} positions ({self.players} players): {what}",
            f"memory: about {_bytes(self.memory)} planned for the solver's arrays "
            f"(allowed: {_bytes(solver.memory_limit())}, SHEEPFOLD_SOLVER_MAX_GB){disk}",
            f"time: about {_duration(lo, hi)} ({solver.RATE_BASIS})",
            *self.notes,
        ]


def _bytes(n: float) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:,.0f} MB"


def _duration(lo: float, hi: float) -> str:
    """``40-100 s``, ``2-4 min``, ``1.1-2.8 h``."""
    if hi < 120:
        return f"{lo:.0f}-{hi:.0f} s"
    if hi < 7200:
        return f"{lo / 60:.0f}-{hi / 60:.0f} min"
    return f"{lo / 3600:.1f}-{hi / 3600:.1f} h"


def _cached(space: Any, seats: Sequence[int]) -> bool:
    from sheepfold.games.shave_a_sheep import solver

    return all(solver.cache_path(space.rules, space.n, seat).exists() for seat in seats)


def solutions_step(space: Any, use_cache: bool) -> tuple[Step, int, int]:
    """The minimax (2 players) or every seat's guaranteed share, as ``solve._solutions``
    computes them (or reads them from the cache); then the bytes of the solutions the command
    holds afterwards, and while a perfect seat plays (with the cache and alike seats, the
    solutions are read one seat at a time, when a perfect seat needs them)."""
    from sheepfold.games.shave_a_sheep import solver

    n, size = space.n, space.size
    seat_bytes = size * (8 + space.C)  # one seat's values and decisions
    if n == 2:
        hit = use_cache and _cached(space, [0])
        # the minimax, then both seats' own shares (an exact evaluation of the two policies)
        peak = seat_bytes + size * (8 * n + space.C) + solver.scratch_bytes(space, n, 1)
        disk = seat_bytes if use_cache and not hit else 0
        return (
            Step("the minimax", (1 if hit else 2) * size, peak, disk, hit),
            seat_bytes,
            seat_bytes,
        )
    if solver.symmetric(space):
        if use_cache and _cached(space, range(n)):
            return Step("every seat's guaranteed share", 0, seat_bytes, 0, True), 0, seat_bytes
        held = 1 if use_cache else n  # the cache lets the command hold one seat at a time
        _, size0 = space.seat0_index()
        rotating = size0 * (8 * n + space.C) + held * seat_bytes + solver.scratch_bytes(space, 1, n)
        disk = n * seat_bytes if use_cache else 0
        step = Step("every seat's guaranteed share, in one solve", size, rotating, disk)
        kept = 0 if use_cache else n * seat_bytes
        return step, kept, held * seat_bytes
    misses = [not (use_cache and _cached(space, [seat])) for seat in range(n)].count(True)
    label = "each seat's guaranteed share, seat by seat (unequal reaction weights)"
    disk = misses * seat_bytes if use_cache else 0
    peak = n * seat_bytes + solver.scratch_bytes(space, 1, 1)
    step = Step(label, size * misses, peak, disk, misses == 0)
    return step, n * seat_bytes, n * seat_bytes


def plan_solve(
    space: Any,
    table: Sequence[str],
    against: Sequence[str],
    solutions: bool,
    use_cache: bool,
    ending: bool = False,
) -> Plan:
    """What ``sheepfold solve`` computes for these options, step by step (``ending``: whether
    the games may never end is solved too, two passes: ``solver.ending``)."""
    from sheepfold.games.shave_a_sheep import solver

    n, size, C = space.n, space.size, space.C
    scratch = solver.scratch_bytes(space, n, 1)  # an exact evaluation's (n value columns)
    plan = Plan(n, size)
    kept = used = 0
    if solutions:
        step, kept, used = solutions_step(space, use_cache)
        plan.steps.append(step)
    if ending:
        label = "whether games may never end (every seat keeping them going, then ending them)"
        plan.steps.append(
            Step(label, 2 * size, kept + 8 * size + solver.scratch_bytes(space, 1, 1))
        )
    if table:
        tab = C if any(b not in ("random", "greedy") for b in table) else 0
        held = used if "perfect" in table else kept
        label = f"the exact evaluation of {','.join(table)}"
        plan.steps.append(Step(label, size, held + size * (8 * n + tab) + scratch))
    if against:
        # per seat: perfect against them (an exact evaluation), then the best response
        label = f"for each seat, perfect and the best response against {','.join(against)}"
        plan.steps.append(Step(label, 2 * n * size, used + size * (8 * n + 8 + 2 * C) + scratch))
    slow = sorted({b for b in [*table, *against] if b.partition(":")[0] not in KERNEL_BOTS})
    if slow:
        plan.notes.append(
            f"note: {', '.join(slow)} cannot run in the solver's kernel: it is asked about every "
            "decision first, which can take far longer than this estimate"
        )
    return plan


def announce(plan: Plan, terminal: bool) -> bool:
    """Say a large plan on stderr (also when it is no terminal, and with --json: stdout is
    the answer's). Returns whether the steps should show their progress (on a terminal always;
    elsewhere only for a large plan)."""
    from sheepfold.cli.common import err_console

    if plan.large:
        for line in plan.lines():
            err_console.print(line, highlight=False, soft_wrap=True, markup=False)
    return terminal or plan.large


class PlainProgress:
    """rich's ``Progress`` interface (``add_task``, ``update``) as plain lines on a stream: one
    when a task passes each tenth of its total, one when it is done. For output that is not a
    terminal, where rich's bars show nothing."""

    def __init__(self, stream: TextIO | None = None, steps: int = 10) -> None:
        self.stream = stream
        self.steps = steps
        self.tasks: list[dict[str, Any]] = []

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        t0 = time.perf_counter()
        self.tasks.append({"label": description, "total": total, "shown": 0, "t0": t0})
        return len(self.tasks) - 1

    def update(self, task: int, completed: float = 0, total: float | None = None, **_: Any) -> None:
        t = self.tasks[task]
        if total:
            t["total"] = total
        if not t["total"]:
            return
        tenth = min(self.steps, int(self.steps * completed / t["total"]))
        if tenth <= t["shown"]:
            return
        t["shown"] = tenth
        secs = time.perf_counter() - t["t0"]
        stream = self.stream or sys.stderr
        pct = 100 * tenth // self.steps
        print(
            f"{t['label']}: {pct}% ({completed:,.0f}/{t['total']:,.0f} positions), {secs:.0f} s",
            file=stream,
            flush=True,
        )
