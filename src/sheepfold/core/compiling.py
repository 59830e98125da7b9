"""Saying that code is being compiled: a step of its own, "compiling the simulator: 12 s".

A compiled kernel (numba) is compiled the first time it runs, then loaded from numba's cache
folder (:mod:`sheepfold.numba_cache`): cold, that first call may take minutes, and a front end
that only counts games or positions would sit at 0 all that time. Wrap the first call in
:func:`step`: numba announces every real compilation (its ``numba:compile`` event; a kernel
loaded from the cache is no compilation), and the step reports

* ``report("compiling the simulator", None)`` when the first compilation starts (in this
  thread: another thread's compilation is its own business), and
* ``report("compiling the simulator", 12.3)`` at the end of the step, the seconds since the
  step began,

and nothing at all when everything was compiled already (in this process, or in the cache
folder). The call sites name what they compile in words (``"the simulator"``); the front ends
turn a report into a line, a spinner or a table's note (:func:`print_report` prints plain
lines). :func:`timed` reports a step that always takes time (a solve), in the same form.

Without numba (the ``fast`` extra is missing) nothing is compiled and nothing reported.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

#: ``report(what, seconds)``: ``seconds`` is None when the step starts, else what it took
Report = Callable[[str, "float | None"], None]


@dataclass
class Compiled:
    """What a :func:`step` compiled: ``kernels`` (numba's compilations, callees included; 0:
    everything was ready) and the step's ``seconds`` (None while it runs, or when nothing was
    compiled)."""

    what: str
    kernels: int = 0
    seconds: float | None = None


def _listener_class() -> Any:
    """numba's event listener base class, or None without numba."""
    try:
        from numba.core.event import Listener
    except ImportError:
        return None
    return Listener


def _make_listener(on_first: Callable[[], None], counted: Compiled) -> Any:
    base = _listener_class()
    if base is None:
        return None
    me = threading.get_ident()

    class _Watch(base):  # type: ignore[misc, valid-type]
        def on_start(self, event: Any) -> None:
            if threading.get_ident() != me:
                return
            counted.kernels += 1
            if counted.kernels == 1:
                on_first()

        def on_end(self, event: Any) -> None:
            pass

    return _Watch()


@contextmanager
def step(what: str, report: Report | None = None) -> Iterator[Compiled]:
    """Run the body as the step "compiling ``what``": reported (see the module's docstring)
    only if numba compiles something in this thread meanwhile. Yields the :class:`Compiled`
    record, filled in at the end."""
    label = f"compiling {what}"
    done = Compiled(label)
    start = time.perf_counter()

    def first() -> None:
        if report is not None:
            report(label, None)

    listener = _make_listener(first, done)
    if listener is None:
        yield done
        return
    from numba.core.event import install_listener

    with install_listener("numba:compile", listener):
        try:
            yield done
        finally:
            if done.kernels:
                done.seconds = time.perf_counter() - start
                if report is not None:
                    report(label, done.seconds)


@contextmanager
def timed(what: str, report: Report | None = None) -> Iterator[None]:
    """Run the body as the step ``what`` (a solve, a warm-up), reported at its start and end
    like a compilation, whatever it takes."""
    start = time.perf_counter()
    if report is not None:
        report(what, None)
    yield
    if report is not None:
        report(what, time.perf_counter() - start)


def words(what: str, seconds: float | None) -> str:
    """A report in words: "compiling the simulator..." (started), "compiling the simulator:
    12 s" (done)."""
    if seconds is None:
        return f"{what} (once: later runs load it from the cache)..."
    return f"{what}: {seconds:.1f} s" if seconds < 10 else f"{what}: {seconds:.0f} s"


def print_report(stream: TextIO | None = None) -> Report:
    """A report that prints each step as a line on ``stream`` (default: stderr, at the time of
    the call), flushed (a log file shows it while it waits)."""

    def report(what: str, seconds: float | None) -> None:
        out = stream if stream is not None else sys.stderr
        out.write(words(what, seconds) + "\n")
        out.flush()

    return report
