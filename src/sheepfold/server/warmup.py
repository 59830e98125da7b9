"""The bots' compiled code, warmed in the background while the server already serves.

Cold (a fresh machine, an update), the expert's playouts take a minute or more to compile;
``sheepfold serve`` no longer waits for them before its first page. :class:`BotWarmUp` starts
with the server:

* when numba's cache folder holds no compiled playouts yet, a child process compiles them into
  it (on another core, without the server's interpreter lock: pages, tables and the other bots
  go on at full speed), under a file lock in that folder, so that the servers of a cluster
  compile once between them, the others waiting and then loading;
* then this process loads them (a second or two) in a thread.

Until then the bots that need them say so: the lobby's bot list (``/api/games``' ``preparing``)
and the table, where a bot asked to move first warms itself up and then plays its whole budget
(:mod:`sheepfold.server.bot_seats`). Nothing here changes a game: it only decides when the
compilation is paid.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

from sheepfold.bots import warmup
from sheepfold.core.compiling import Report

log = logging.getLogger("sheepfold.server")

#: the child that compiles: the named bots' kernels (argv), into the inherited cache folder
_CHILD = "import sys\nfrom sheepfold.bots.warmup import warm_up\nwarm_up(sys.argv[1:] or None)\n"


def cached_on_disk(modules: list[str]) -> bool:
    """Whether numba's cache folder holds compiled code of each of these kernel modules (an
    index file named after the module's file; the folder is keyed by the kernels' sources, so
    what is there is current)."""
    from sheepfold.numba_cache import ensure_numba_cache_dir

    folder = ensure_numba_cache_dir()
    names: set[str] = set()
    for _, _, files in os.walk(folder):
        names.update(f.partition("-")[0] for f in files if f.endswith(".nbi"))
    return all(m.rpartition(".")[2].partition(".")[0] in names for m in modules)


def _die_with_parent() -> None:
    """In the child, before it runs: killed when the server's process ends, however it ends
    (Linux's parent-death signal), so no compilation goes on for nobody."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@contextlib.contextmanager
def _compile_lock() -> Iterator[None]:
    """One compiling child at a time per cache folder (the servers of a cluster share one)."""
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


class BotWarmUp:
    """The bots' compiled code (``names``: the bots; None: every bot), warmed in a thread;
    ``report`` is told "compiling the bots' playouts" when it starts and its seconds when the
    bots are ready (:mod:`sheepfold.core.compiling`'s form)."""

    WHAT = "compiling the bots' playouts in the background (the pages already serve)"

    def __init__(self, names: list[str] | None = None, report: Report | None = None) -> None:
        self.names = names
        self.report = report
        self.thread: threading.Thread | None = None
        self.seconds: float | None = None  # once done: what it took (0 when nothing was to do)
        self.child: subprocess.Popen[str] | None = None  # the compiling child, while it runs

    def start(self) -> BotWarmUp:
        self.thread = threading.Thread(target=self._run, name="sheepfold-warm-up", daemon=True)
        self.thread.start()
        return self

    def pending(self) -> dict[str, str]:
        """The bots not ready yet, each with what it waits for in words."""
        return warmup.not_ready(self.names)

    def _run(self) -> None:
        start = time.perf_counter()
        modules = warmup.kernels(self.names)
        if not modules or warmup.ready(modules):
            self.seconds = 0.0
            return
        told = False
        try:
            for name in modules:  # imported (not compiled): their LABEL names what is pending
                warmup.module(name)
            if not cached_on_disk(modules):
                told = True
                if self.report is not None:
                    self.report(self.WHAT, None)
                with _compile_lock():
                    self._child()
            warmup.warm_modules(modules)  # loads what the child compiled (or compiles here)
        except Exception:  # a bot that is not ready warms itself at its table
            log.exception("the bots' warm-up failed; each bot warms up when it first moves")
        self.seconds = time.perf_counter() - start
        if told and self.report is not None:
            self.report("the bots' playouts are ready: compiled", self.seconds)

    def _child(self) -> None:
        """Compile in a child process (stopped when this process ends: :meth:`stop`)."""
        args = [n for n in self.names or [] if n]
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        self.child = proc
        atexit.register(self.stop)
        _, err = proc.communicate()
        atexit.unregister(self.stop)
        if proc.returncode != 0:
            last = (err.strip().splitlines() or ["no output"])[-1]
            log.warning("compiling the bots' playouts in a child process failed: %s", last)

    def stop(self) -> None:
        """Stop the compiling child, if one runs (the server stops: no orphan goes on)."""
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the warm-up (at most ``timeout`` seconds); whether it is done."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.seconds is not None
