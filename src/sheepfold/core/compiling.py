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

A front end may also not wait at all: :func:`cached` tells whether a kernel would compile
(loading it when numba's cache holds it), :class:`Background` compiles it in a process of its
own, and :func:`interpreted` (or :class:`Interpreted`, a whole kernel module) runs the same
kernels meanwhile as plain Python: the lab's fast games and the batched simulator do so
(docs/engine.md, "Cold start").
"""

from __future__ import annotations

import sys
import threading
import time
import types
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
        if what.endswith(" in the background"):  # a :class:`Meanwhile`'s
            return f"{what} (meanwhile it runs uncompiled, more slowly)..."
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


# -- while it compiles: the same code, interpreted --------------------------------------------
def interpreted(kernel: Any, compiled: frozenset[Any] = frozenset()) -> Callable[..., Any]:
    """``kernel`` (a numba dispatcher) as plain Python: its own Python function, with every
    kernel it calls made plain Python too, run by the interpreter (nothing compiled, nothing
    loaded), but the kernels in ``compiled``: those are called as they are (a small inner loop
    that compiles in a second or two and would take most of the interpreted time). The same
    code, so the same results (numba's integers wrap at 64 bits as numpy's do; numpy's overflow
    warnings are silenced, as numba has none), a few hundred times slower: what a front end
    runs while the kernel compiles in the background (:class:`Background`). Made once per
    kernel."""
    found = _INTERPRETED.get((kernel, compiled))
    if found is None:
        found = _INTERPRETED[kernel, compiled] = _interpret(kernel, compiled)
    return found


_INTERPRETED: dict[tuple[Any, frozenset[Any]], Callable[..., Any]] = {}


def _interpret(kernel: Any, compiled: frozenset[Any]) -> Callable[..., Any]:
    from numba.core.dispatcher import Dispatcher

    made: dict[Any, Callable[..., Any]] = {}

    def plain(d: Any) -> Callable[..., Any]:
        found = made.get(d)
        if found is not None:
            return found
        py = d.py_func
        names: dict[str, Any] = dict(py.__globals__)
        f = types.FunctionType(py.__code__, names, py.__name__, py.__defaults__, py.__closure__)
        made[d] = f
        for name in _names(py.__code__):
            value = names.get(name)
            if isinstance(value, Dispatcher) and value not in compiled:
                names[name] = plain(value)
        return f

    run = plain(kernel)

    def call(*args: Any) -> Any:
        import numpy as np

        with np.errstate(over="ignore"):
            return run(*args)

    return call


class Interpreted:
    """A kernel module with its kernels run by the interpreter (:func:`interpreted`, each made
    at its first use; those in ``compiled`` called as they are) and its other names as they
    are."""

    def __init__(self, module: Any, compiled: frozenset[Any] = frozenset()) -> None:
        self._module = module
        self._compiled = compiled

    def __getattr__(self, name: str) -> Any:
        from numba.core.dispatcher import Dispatcher

        value = getattr(self._module, name)
        if isinstance(value, Dispatcher) and value not in self._compiled:
            value = interpreted(value, self._compiled)
        setattr(self, name, value)
        return value


def _names(code: types.CodeType) -> set[str]:
    """The global names ``code`` and the code objects inside it read."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def cached(kernel: Any, *args: Any) -> bool:
    """Whether calling ``kernel`` (a numba dispatcher) with ``args`` runs without compiling: it
    is compiled for their types in this process, or numba's cache folder holds it (then it is
    loaded now, as its first call would load it). Never compiles."""
    from numba.core.compiler_lock import global_compiler_lock

    sig = tuple(kernel.typeof_pyval(a) for a in args)
    with global_compiler_lock:
        if kernel.overloads.get(sig) is not None:
            return True
        # numba's Dispatcher.compile, its cache's part alone
        cres = kernel._cache.load_overload(sig, kernel.targetctx)
        if cres is None:
            return False
        kernel._cache_hits[sig] += 1
        if not cres.objectmode:
            kernel.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        kernel.add_overload(cres)
    return True


class Background:
    """``work(*args)`` in a process of its own (a fresh interpreter: it imports what it needs;
    ``work`` and ``args`` are pickled), to compile kernels into numba's cache folder while this
    process goes on (another core; numba compiles on one). It ends with this process, and one
    runs at a time per cache folder (:func:`compile_lock`). :meth:`done` asks without waiting,
    :meth:`wait` waits (its seconds since the start), :meth:`stop` ends it early: what it
    compiled so far stays in the cache."""

    def __init__(self, work: Callable[..., Any], *args: Any) -> None:
        import os
        import pickle
        import subprocess

        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)),
            preexec_fn=die_with_parent(),
        )
        assert self.process.stdin is not None
        with self.process.stdin as to_child:
            to_child.write(pickle.dumps((work, args)))

    def done(self) -> bool:
        return self.process.poll() is not None

    def wait(self) -> float:
        """Wait for the end; the seconds since the start."""
        self.process.wait()
        return self.seconds()

    def seconds(self) -> float:
        """The seconds since the start."""
        return time.perf_counter() - self.started

    @property
    def ok(self) -> bool:
        """Whether it ended having done its work (its kernels are in the cache)."""
        return self.process.poll() == 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Meanwhile:
    """A :class:`Background` compile of ``work(*args)`` while the caller runs the same kernels
    interpreted (:func:`interpreted`), said as the step "compiling ``what`` in the background":
    its start now, its seconds when the caller finds it done (:attr:`compiling`) or waits for
    it (:meth:`finish`), or "(stopped: ``why``)" when the caller's work was done first
    (:meth:`stop`)."""

    def __init__(self, what: str, report: Report | None, work: Callable[..., Any], *args: Any):
        self.label = f"compiling {what} in the background"
        self.report = report
        self.background: Background | None = Background(work, *args)
        if report is not None:
            report(self.label, None)

    @property
    def compiling(self) -> bool:
        """Whether it still compiles (once it is done: said, and False from then on)."""
        if self.background is None:
            return False
        if not self.background.done():
            return True
        self.finish()
        return False

    def finish(self) -> None:
        """Wait for the compile to end (its kernels are then in numba's cache) and say its
        seconds; nothing when it is over already."""
        job, self.background = self.background, None
        if job is None:
            return
        seconds = job.wait()
        if self.report is not None:
            self.report(self.label, seconds)

    def stop(self, why: str | None = None) -> None:
        """End it now: said done if it is, else stopped (what it compiled so far stays in the
        cache) and said "(stopped: ``why``)" (None: not said)."""
        job = self.background
        if job is None or job.done():
            self.finish()
            return
        job.stop()
        self.background = None
        if why is not None and self.report is not None:
            self.report(f"{self.label} (stopped: {why})", job.seconds())


#: a :class:`Background` process: its work, pickled on its stdin, done under the lock
_CHILD = """
import pickle, sys
from sheepfold.core.compiling import compile_lock
work, args = pickle.load(sys.stdin.buffer)
with compile_lock():
    work(*args)
"""


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` for a child that Linux kills (SIGKILL) when its parent ends, however it
    ends (the parent-death signal; it follows the thread that forks the child), so that no
    compilation goes on for nobody. The call is looked up here, in the parent: the child, forked
    from a process that may run threads, only makes it. Elsewhere than Linux: nothing."""
    import os
    import signal

    parent = os.getpid()
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return lambda: None

    def preexec() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)

    return preexec


@contextmanager
def compile_lock() -> Iterator[None]:
    """One compiling background process at a time per cache folder (the servers of a cluster,
    two lab runs): the next one waits, then finds the kernels in the cache."""
    import os

    from sheepfold.numba_cache import ensure_numba_cache_dir

    try:
        import fcntl
    except ImportError:  # no flock (Windows): each compiles, numba's files stay whole
        yield
        return
    with open(os.path.join(ensure_numba_cache_dir(), ".warming.lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
