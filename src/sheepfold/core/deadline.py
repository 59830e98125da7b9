"""A decision's deadline, checked inside the bots' search loops.

A thread cannot be stopped from outside, so a server's bot decision is stopped from inside: the
worker that runs it sets a deadline (:func:`until`), and the bots' search loops call
:func:`check` between their steps (a level of a swap search, a round of playouts); past the
deadline, or once the decision is called off, it raises :class:`OutOfTime` and the decision
ends there. Outside :func:`until` (the terminal, the lab, tournaments) :func:`check` does
nothing. What runs between two checks (one compiled kernel call) is not interrupted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sheepfold.core.protocol import SheepfoldError

_local = threading.local()


class OutOfTime(SheepfoldError):
    """The decision ran past its deadline (or was called off) and stopped."""


class Deadline:
    """When a decision must be over (``time.monotonic()`` seconds); :meth:`stop` calls it off."""

    def __init__(self, when: float) -> None:
        self.when = when

    def stop(self) -> None:
        self.when = float("-inf")

    def passed(self) -> bool:
        return time.monotonic() > self.when


@contextmanager
def until(deadline: Deadline) -> Iterator[Deadline]:
    """Within the block, this thread's :func:`check` raises OutOfTime once ``deadline`` passes."""
    outer = getattr(_local, "deadline", None)
    _local.deadline = deadline
    try:
        yield deadline
    finally:
        _local.deadline = outer


def check() -> None:
    """OutOfTime if this thread's decision is past its deadline (nothing outside :func:`until`)."""
    deadline: Deadline | None = getattr(_local, "deadline", None)
    if deadline is not None and deadline.passed():
        raise OutOfTime("stopped at its deadline")
