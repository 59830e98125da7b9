"""Waiting in tests: poll a condition until a generous deadline, never sleep a guessed time.

A test that sleeps "long enough" fails on a loaded machine and wastes time on an idle one;
``wait_until`` returns as soon as the condition holds and fails with what it waited for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

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
