"""Waiting in tests: poll a condition until a generous deadline, never sleep a guessed time.

A test that sleeps "long enough" fails on a loaded machine and wastes time on an idle one;
``wait_until`` returns as soon as the condition holds and fails with what it waited for.
``run_async`` runs a coroutine to its end whatever event loop the test's thread holds.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T], *, what: str, timeout: float = 30.0, every: float = 0.02
) -> T:
    """Call ``condition`` until it returns something true, and return that; AssertionError
    naming ``what`` was awaited if ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        got = condition()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}, in vain")
        time.sleep(every)


def run_async(coro: Coroutine[Any, Any, Any], timeout: float = 600.0) -> None:
    """``asyncio.run(coro)`` in a thread of its own: Playwright's sync API keeps an event loop
    running in the test's thread once a browser test ran, and asyncio.run refuses to start
    there. Re-raises what the coroutine raised; AssertionError if it is not done in ``timeout``."""
    run_off_loop(lambda: asyncio.run(coro), timeout, what="the coroutine")


def run_off_loop(fn: Callable[[], Any], timeout: float = 600.0, what: str = "it") -> None:
    """``fn()`` in a thread of its own, where no event loop runs (see :func:`run_async`): for
    code that starts its own loop. Re-raises what it raised; AssertionError if it is not done
    in ``timeout``."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            fn()
        except BaseException as e:  # re-raised in the test's thread
            errors.append(e)

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(timeout)
    if th.is_alive():
        raise AssertionError(f"{what} did not end in {timeout:g} s")
    if errors:
        raise errors[0]
