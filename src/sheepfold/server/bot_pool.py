"""Where every bot decision of a server is made: a bounded pool of worker threads, and a deadline.

A server has one pool of ``bot_workers`` threads for the bots of all its tables, so a table of
strong bots takes its share of the machine, never all of it. Each decision has a deadline
(``bot_deadline`` seconds from the moment it is asked, waiting for a free worker included):
when it passes, the table does not wait. The caller plays the bot's fallback move and logs it.
A thread cannot be stopped, so the late decision finishes in the background (its answer is
dropped) and that bot is not asked again before it has: its seat plays fallback moves meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any


class TooSlow(Exception):
    """The decision was not ready by its deadline (or the bot is still busy with a late one)."""


class BotPool:
    def __init__(self, workers: int, deadline: float) -> None:
        self.deadline = deadline
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max(1, workers), thread_name_prefix="sheepfold-bot"
        )
        self._busy: set[Any] = set()  # the bots whose (late) decision is still running

    async def decide(self, key: Any, think: Callable[[], Any]) -> Any:
        """``think()`` in a worker, for the bot ``key``; its answer, or TooSlow."""
        if key in self._busy:
            raise TooSlow("it is still busy with a decision that came too late")
        loop = asyncio.get_running_loop()
        job = self._executor.submit(think)
        self._busy.add(key)
        job.add_done_callback(lambda _: _call_soon(loop, self._busy.discard, key))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), self.deadline)
        except TimeoutError:
            job.cancel()  # not started yet (every worker busy): it never runs
            raise TooSlow(f"no decision within {self.deadline:g} s") from None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> None:
    """``fn(*args)`` on the loop, from a worker thread (nothing if the loop is closed)."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # the server stopped while a late decision was still running
        pass
