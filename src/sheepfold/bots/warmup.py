"""Warming the bots' compiled code before the first decision: compilation is never charged to one.

A bot whose decisions call compiled kernels names their modules in ``Bot.kernels`` (the expert:
:mod:`sheepfold.bots.dolly_mc`). Each such module has ``warm(game)`` (call every kernel the
rules of ``game`` take once on a tiny real input, None: of every rule set; numba loads them from
its cache folder, or compiles them, a minute of one core the first time), ``ready(game)``
(whether that is done in this process) and ``LABEL`` (what it is, for a progress line). The
functions below take the same ``game`` (None: every rule set): a front end that knows the game
compiles only what it plays (the expert: its packed playouts or its grid ones, not both).

* ``sheepfold serve`` (so ``make play``) and ``sheepfold play`` call :func:`warm_up` once, with a
  progress line, before the first game;
* a bot with a clock warms its kernels itself, if they are not ready yet, and only then starts
  its clock (a library caller, a tournament, the lab); the web server says "warming up" at the
  table when a bot is asked to move before its kernels are ready (it then plays at full
  strength, only later).

The perfect bot (Shave a Sheep) has no clock; front ends call its ``prepare_now`` (solve, with a
progress bar) before the first game, else it compiles and solves on its first move.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable, Iterable
from functools import cache
from types import ModuleType
from typing import Any

from sheepfold.bots import kernels_of
from sheepfold.core.compiling import Report, step
from sheepfold.core.words import Msg, listed

#: ``progress(done, total, label)``: before kernel ``done + 1`` of ``total`` (``label`` names it)
#: and once more at the end (``done == total``, ``label`` empty).
Progress = Callable[[int, int, str], None]

_lock = threading.Lock()  # one warm-up at a time (the web server's bots think in threads)


def module(name: str) -> ModuleType | None:
    """The kernel module, or None when numba (the ``fast`` extra) is not installed: the bot that
    needs it says so when it is made."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name in ("numba", "llvmlite"):
            return None
        raise


def kernels(names: Iterable[str] | None = None) -> list[str]:
    """The kernel modules the named bots use (``expert``, ``expert:time=2``; None: every bot),
    each once, in a stable order."""
    return kernels_of(None if names is None else list(names))


def used(modules: Iterable[str], game: Any) -> list[str]:
    """Those of these kernel modules that a bot of ``game`` uses (None: every one): a module is
    asked about the games its bots play, and no other."""
    if game is None:
        return list(modules)
    from sheepfold.bots import _KERNELS, _load_all

    _load_all()
    used = {m for (g, _name), mods in _KERNELS.items() if g == game.name for m in mods}
    return [m for m in modules if m in used]


def _importing(mod: ModuleType) -> bool:
    """Whether ``mod`` is still being imported (by the warm-up's thread): not ready, and
    without its functions yet."""
    return bool(getattr(getattr(mod, "__spec__", None), "_initializing", False))


def ready(modules: Iterable[str], game: Any = None) -> bool:
    """Whether every one of these kernel modules is compiled (or loaded) in this process for
    ``game``'s rules (None: every rule set; a module not imported yet is not: this never imports
    one, so an event loop may ask)."""
    for name in used(modules, game):
        mod = sys.modules.get(name)
        if mod is None or _importing(mod) or not mod.ready(game):
            return False
    return True


def warm_modules(
    modules: Iterable[str],
    progress: Progress | None = None,
    compiling: Report | None = None,
    game: Any = None,
) -> float:
    """Warm these kernel modules (those not ready yet) for ``game``'s rules (None: every rule
    set); the seconds it took. ``compiling`` is
    told of each module that compiles (not one loaded from the cache) as its own step
    (:mod:`sheepfold.core.compiling`: "compiling the expert's playouts: 40 s")."""
    start = time.perf_counter()
    with _lock:
        todo = [
            (name, mod)
            for name in dict.fromkeys(used(modules, game))
            if (mod := module(name)) is not None and not mod.ready(game)
        ]
        for k, (_, mod) in enumerate(todo):
            if progress is not None:
                progress(k, len(todo), str(mod.LABEL))
            with step(str(mod.LABEL), compiling):
                mod.warm(game)
        if progress is not None:
            progress(len(todo), len(todo), "")
    return time.perf_counter() - start


def warm_up(
    names: Iterable[str] | None = None,
    progress: Progress | None = None,
    compiling: Report | None = None,
    game: Any = None,
) -> float:
    """Compile (or load from numba's cache) every kernel the named bots use (None: every bot)
    for ``game``'s rules (None: every rule set), reporting ``progress`` and ``compiling`` (as
    :func:`warm_modules`); the seconds it took. Kernels already ready are skipped."""
    return warm_modules(kernels(names), progress, compiling, game)


@cache
def default_game(name: str) -> Any:
    """The game ``name`` with its default rules (the lobby's first choice), made once."""
    from sheepfold.games import make

    return make(name)


def lobby_games() -> list[Any]:
    """Every game the lobby offers, with its default rules (what a server warms first)."""
    from sheepfold.core.registry import game_names, game_spec

    return [default_game(g) for g in game_names() if game_spec(g).listed]


def not_ready(names: Iterable[str] | None = None, game: Any = None) -> dict[str, str]:
    """The named bots (None: every bot) whose compiled code is not ready in this process for
    ``game``'s rules (None: every rule set; a name: that game's default rules), each with what it
    waits for in words ("the expert's playouts"); bots that need none are never listed. Imports
    no kernel (an event loop may ask)."""
    if isinstance(game, str):
        game = default_game(game)
    from sheepfold.bots import _KERNELS, _load_all

    _load_all()
    wanted = None if names is None else {n.partition(":")[0] for n in names}
    out: dict[str, str] = {}
    for (g, name), mods in sorted(_KERNELS.items()):
        if (wanted is not None and name not in wanted) or (game is not None and g != game.name):
            continue
        waiting = [m for m in mods if not ready([m], game)]
        if waiting:  # what it waits for: the modules not ready (a module not imported: unsaid)
            labels = [getattr(sys.modules.get(m), "LABEL", "") for m in waiting]
            out[name] = listed([x for x in labels if x]) or Msg("its compiled code")
    return out
