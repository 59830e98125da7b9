"""The perfect bot in a server: solutions from the disk cache, or from ONE background job.

A server never solves inside a request or a table's move, nor counts positions on its event loop
(:meth:`Solutions.require_async` counts them in the server's work pool: rules whose count is
not done by its deadline are "not available"). A table with a ``perfect`` seat is
opened only when the solver's solution of its rules is in the disk cache (``sheepfold solve``
fills it). Otherwise, when the rules are small enough (``solve_limit`` positions), one
background job computes it, in a process of its own (its memory and CPU are not the event
loop's), one rule set at a time, and the lobby is told "solving, ready in about N s"; bigger
rules are "not available for these rules". A job that fails is said once and not retried.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

from sheepfold.core.protocol import Game, SheepfoldError
from sheepfold.server.bot_pool import TooSlow

log = logging.getLogger("sheepfold.server")


class NotReady(SheepfoldError):
    """The perfect bot cannot play these rules now; ``status`` says whether it will (409:
    solving, try again soon) or not (422: not available here)."""

    def __init__(
        self, message: str, status: int, wait: int | None = None, why: str | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.wait = wait  # seconds until it is ready (409), if it will be
        self.why = why  # why it will not be (422): "too big", "failed"


@dataclass
class Job:
    key: tuple[Any, ...]
    what: str  # "the 3-player game of these rules (14,259 positions)"
    started: float
    estimate: float  # seconds, from the positions and solve_rate
    future: concurrent.futures.Future[None]


def _solve(rules: Any, players: int, seats: list[int]) -> None:
    """In the job's process: solve and save to the disk cache (what the tables then load)."""
    from sheepfold.games.shave_a_sheep import solver

    for seat in seats:
        solver.cached(rules, players, seat=seat)


class Solutions:
    def __init__(self, limit: int, rate: float) -> None:
        self.limit = limit  # positions: bigger rule sets are not solved by a server
        self.rate = rate  # positions solved per second (a rough figure, for the estimate)
        self.job: Job | None = None
        self.failed: dict[tuple[Any, ...], str] = {}
        self.sizes: dict[tuple[Any, ...], int] = {}  # positions of the rule sets counted so far
        self._counting: dict[tuple[Any, ...], asyncio.Future[Any]] = {}  # counts under way
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    async def require_async(
        self, game: Game, seats: list[int], work: Any, start: bool = True
    ) -> None:
        """:meth:`require`, its positions counted in ``work`` (the server's work pool:
        :class:`~sheepfold.server.bot_pool.Workers`), never on the event loop, once per rule
        set however many ask at once; rules whose count is not done by the pool's deadline are
        "not available" (said once, not counted again)."""
        key = (game.rules.key(), game.num_players)
        if self._missing(game, seats) and key not in self.failed and key not in self.sizes:
            counting = self._counting.get(key)
            if counting is None:  # one count per rule set, however many ask at once
                counting = asyncio.ensure_future(work.decide(None, lambda: self._size(game)))
                self._counting[key] = counting
                counting.add_done_callback(lambda _: self._counting.pop(key, None))
            try:
                await asyncio.shield(counting)
            except TooSlow:  # said once, not counted again
                self.failed[key] = f"counting their positions takes more than {work.deadline:g} s"
            except SheepfoldError as e:  # too many positions for the solver: said once too
                self.failed[key] = str(e)
        self.require(game, seats, start)

    def _missing(self, game: Game, seats: list[int]) -> list[int]:
        """The seats of ``seats`` whose solution is not in the disk cache."""
        from sheepfold.games.shave_a_sheep import solver

        n = game.num_players
        missing = sorted({0 if n == 2 else s for s in seats})
        return [s for s in missing if not solver.cache_path(game.rules, n, s).exists()]

    def _size(self, game: Game) -> int:
        """The positions of ``game``'s rules (counted once per rule set)."""
        from sheepfold.games.shave_a_sheep import solver

        key = (game.rules.key(), game.num_players)
        if key not in self.sizes:
            if len(self.sizes) >= 1024:  # a memo, not a leak
                self.sizes.clear()
            self.sizes[key] = solver.Space(game.rules, game.num_players).size
        return self.sizes[key]

    def require(self, game: Game, seats: list[int], start: bool = True) -> None:
        """Return if the perfect bot can play ``seats`` of ``game`` now; else start the job if
        it may (``start``: False only says how long it would take), and raise NotReady saying
        when it will be ready, or that it will not."""
        n = game.num_players
        missing = self._missing(game, seats)
        if not missing:
            return
        key = (game.rules.key(), n)
        if key in self.failed:
            raise NotReady(
                f"the perfect bot is not available for these rules: {self.failed[key]}",
                422,
                why="failed",
            )
        size = self._size(game)
        what = f"the {n}-player game of these rules ({size:,} positions)"
        if size > self.limit:
            raise NotReady(
                f"the perfect bot is not available for these rules: {what} is more than this "
                f"server solves ({self.limit:,} positions); 'sheepfold solve' on the server "
                "machine computes it",
                422,
                why="too big",
            )
        if not start and (self.job is None or self.job.key != key or self.job.future.done()):
            wait = max(1, round(2.0 + size / self.rate))
            raise NotReady(f"the perfect bot would solve {what} first", 409, wait=wait)
        job = self._job(key, what, size, game, missing)
        left = max(1, round(job.estimate - (time.monotonic() - job.started)))
        if job.key != key:
            raise NotReady(
                f"the perfect bot's solver is busy with another rule set: try again in about "
                f"{left} s",
                409,
                wait=left,
            )
        raise NotReady(
            f"the perfect bot is solving {what}: ready in about {left} s", 409, wait=left
        )

    def _job(self, key: tuple[Any, ...], what: str, size: int, game: Game, seats: list[int]) -> Job:
        """The running job (this one, started now if none runs)."""
        if self.job is not None and not self.job.future.done():
            return self.job
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")  # never fork a running server
            self._pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn)
        future = self._pool.submit(_solve, game.rules, game.num_players, seats)
        self.job = Job(key, what, time.monotonic(), 2.0 + size / self.rate, future)
        future.add_done_callback(lambda f: self._done(key, what, f))
        log.info("solving %s for the perfect bot (one background job)", what)
        return self.job

    def _done(
        self, key: tuple[Any, ...], what: str, future: concurrent.futures.Future[None]
    ) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            self.failed[key] = f"solving {what} failed ({error})"
            log.error("the perfect bot's background job failed: solving %s: %s", what, error)

    def close(self) -> None:
        """Stop the job (its process too: a server that stops leaves nothing behind)."""
        if self._pool is None:
            return
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            p.terminate()
