"""The bots' compiled code, warmed in the background while the server already serves.

Cold (a fresh machine, an update), the expert's playouts take a minute or more to compile;
``sheepfold serve`` no longer waits for them before its first page. :class:`BotWarmUp` starts
with the server:

* when numba's cache folder holds no compiled playouts yet, a child process compiles them into
  it (on another core, without the server's interpreter lock: pages, tables and the other bots
  go on at full speed), under a file lock in that folder, so that the servers of a cluster
  compile once between them, the others waiting and then loading;
* then this process loads them (a second or two) in a thread.

It goes in two rounds: first what the lobby's default rules take (each game's rules as
:func:`sheepfold.games.make` gives them: the expert's packed playouts, about half of the
compilation), said ready as soon as they are; then what the house rules take (the expert's grid
playouts, every bot's grid searches). A table of house rules whose bot moves before the second round is done warms its
bot at the table, as below.

Until then the bots that need them say so: the lobby's bot list (``/api/games``' ``preparing``)
and the table, where a bot asked to move first warms itself up and then plays its whole budget
(:mod:`sheepfold.server.bot_seats`). Nothing here changes a game: it only decides when the
compilation is paid.
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import sys
import threading
import time

from sheepfold.bots import warmup
from sheepfold.core.compiling import Report, compile_lock, die_with_parent

log = logging.getLogger("sheepfold.server")

#: the child that compiles, into the inherited cache folder: argv = the round ("default": each
#: game's default rules, "all": every rule set), then the named bots (none: every bot)
_CHILD = """
import sys
from sheepfold.bots.warmup import lobby_games, warm_up
names = sys.argv[2:] or None
for game in lobby_games() if sys.argv[1] == "default" else [None]:
    warm_up(names, game=game)
"""

#: the rounds: (the child's argv, what is ready at its end)
ROUNDS = (
    ("default", "the bots' playouts are ready for the default rules: compiled"),
    ("all", "the bots' playouts are ready for every house rule: compiled"),
)


def cached_on_disk(modules: list[str], game: object = None) -> bool:
    """Whether numba's cache folder holds the compiled entry points (``entries(game)``) of each
    of these kernel modules for ``game``'s rules (None: every rule set): their index files
    (the folder is keyed by the kernels' sources, so what is there is current). Imports the
    modules (not their compiled code)."""
    for name in warmup.used(modules, game):
        mod = warmup.module(name)
        if mod is None:
            continue
        for d in mod.entries(game):
            # numba's FunctionCache keeps its index file's path in its cache file object
            cache_file = getattr(getattr(d, "_cache", None), "_cache_file", None)
            path = getattr(cache_file, "_index_path", None)
            if path is None or not os.path.exists(path):
                return False
    return True


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

    def pending(self, game: str | None = None) -> dict[str, str]:
        """The bots not ready yet for ``game``'s default rules (None: for every rule set), each
        with what it waits for in words."""
        return warmup.not_ready(self.names, game)

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
            for which, ready in ROUNDS:
                games = warmup.lobby_games() if which == "default" else [None]
                if all(warmup.ready(modules, g) for g in games):
                    continue
                if not all(cached_on_disk(modules, g) for g in games):
                    if not told and self.report is not None:
                        self.report(self.WHAT, None)
                    told = True
                    with compile_lock():
                        self._child(which)
                for g in games:  # loads what the child compiled (or compiles here)
                    warmup.warm_modules(modules, game=g)
                if told and self.report is not None:
                    self.report(ready, time.perf_counter() - start)
        except Exception:  # a bot that is not ready warms itself at its table
            log.exception("the bots' warm-up failed; each bot warms up when it first moves")
        self.seconds = time.perf_counter() - start

    def _child(self, which: str) -> None:
        """Compile round ``which`` in a child process (stopped when this process ends:
        :meth:`stop`)."""
        args = [n for n in self.names or [] if n]
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, which, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=die_with_parent(),
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
