"""Where a server's costly work is done, off its event loop: bounded pools of worker threads,
each job with a deadline that stops it. One pool makes every bot decision; another (the same
class, :class:`Workers`) deals new tables, reads tables back and rebuilds replays and records.

A server has one pool of ``bot_workers`` threads for the bots of all its tables, so a table of
strong bots takes its share of the machine, never all of it: each table has at most one decision
in the pool at a time (waiting or running, a late one included), so tables take turns in the
order they asked. Each decision has a deadline (``bot_deadline`` seconds from the moment it is
asked, waiting for a free worker included): when it passes, the table does not wait. The caller
plays the bot's fallback move and logs it, and the decision is stopped: the bots' search loops
check the deadline between their steps (:mod:`sheepfold.core.deadline`) and end there, so a late
decision gives its worker back within one step (one compiled search level or round of
playouts), not when it would have finished. A bot that checks nothing (one that blocks) keeps
its worker until it returns; its table's next decision waits for it within its own deadline,
else plays the fallback move ("still busy").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any

from sheepfold.core.deadline import Deadline, OutOfTime, until


class TooSlow(Exception):
    """The decision was not ready by its deadline (or its table is still busy with a late one)."""


class Workers:
    """A pool of ``workers`` threads; each job has ``deadline`` seconds from the moment it is
    asked (a free worker included) and is stopped at its next check past it."""

    def __init__(self, workers: int, deadline: float, name: str = "sheepfold-bot") -> None:
        self.deadline = deadline
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max(1, workers), thread_name_prefix=name
        )
        self._busy: dict[Any, concurrent.futures.Future[Any]] = {}  # a key's (table's) job
        self._running: set[Deadline] = set()  # the deadlines of the jobs in the pool

    @property
    def busy(self) -> int:
        """Jobs in the pool now (waiting or running, late ones included)."""
        return len(self._running)

    async def decide(self, key: Any, think: Callable[[], Any]) -> Any:
        """``think()`` in a worker, for the table ``key``; its answer, or TooSlow (the decision
        is stopped at its next check of the deadline). A key has one job in the pool at a
        time: another waits for it to end, within its own deadline; None: no key."""
        loop = asyncio.get_running_loop()
        deadline = Deadline(time.monotonic() + self.deadline)
        late = self._busy.get(key)
        if late is not None and not late.done():  # a late one, stopping at its next check
            try:
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(late)), self.deadline)
            except TimeoutError:
                raise TooSlow("it is still busy with a decision that came too late") from None
            except Exception:  # noqa: BLE001, S110 - the late job's own failure: not this one's
                pass
        job = self._executor.submit(_think, deadline, think)
        if key is not None:
            self._busy[key] = job
        self._running.add(deadline)
        job.add_done_callback(lambda _: _call_soon(loop, self._done, key, job, deadline))
        try:
            left = max(0.0, deadline.when - time.monotonic())
            return await asyncio.wait_for(asyncio.wrap_future(job), left)
        except (TimeoutError, OutOfTime):
            job.cancel()  # not started yet (every worker busy): it never runs
            deadline.stop()  # running: it stops at its next check
            raise TooSlow(f"no decision within {self.deadline:g} s") from None
        except asyncio.CancelledError:  # the table or the server stops waiting for it
            job.cancel()
            deadline.stop()
            raise

    def _done(self, key: Any, job: concurrent.futures.Future[Any], deadline: Deadline) -> None:
        if self._busy.get(key) is job:
            del self._busy[key]
        self._running.discard(deadline)

    def close(self) -> None:
        for deadline in list(self._running):
            deadline.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)


def _think(deadline: Deadline, think: Callable[[], Any]) -> Any:
    """In a worker: ``think()`` under ``deadline`` (OutOfTime if it starts after it)."""
    with until(deadline):
        if deadline.passed():
            raise OutOfTime("its deadline passed before a worker was free")
        return think()


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> None:
    """``fn(*args)`` on the loop, from a worker thread (nothing if the loop is closed)."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # the server stopped while a late decision was still running
        pass
