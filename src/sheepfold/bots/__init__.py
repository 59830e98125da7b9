"""Bots: players that see only ``observe(seat)`` and answer with an action id.

Bots are found by name, per game: ``make_bot("greedy", game, seat=1, seed=7)``. A name may carry
options after a colon for bots that take them (``mcts:500``). Every front end (terminal, web, lab,
tournaments) uses these same names.

Each bot declares the options a server may accept and their bounds (``register_bot(...,
limits={"iterations": (0, 100_000), "time": (0.05, 2.0)})``): :func:`check_options` refuses
any other option, or a value out of its bounds, so that nobody can ask a shared server for an
hour of thinking. The lab and the command line, on one's own machine, are not bounded.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Mapping
from typing import Any

from sheepfold.core.play import provide_bots
from sheepfold.core.protocol import Action, Game, Seat, SheepfoldError, View
from sheepfold.core.registry import game_names

BotFactory = Callable[[Game, Seat, "int | None", str], "Bot"]

# game name -> bot name -> (factory, one-line description)
_REGISTRY: dict[str, dict[str, tuple[BotFactory, str]]] = {g: {} for g in game_names()}
# (game, bot name) -> the modules of compiled kernels its decisions call (sheepfold.bots.warmup)
_KERNELS: dict[tuple[str, str], tuple[str, ...]] = {}
# (game, bot name) -> option -> (lowest, highest) value a server accepts
_LIMITS: dict[tuple[str, str], dict[str, tuple[float, float]]] = {}
# bot name -> (factory, description) of a bot every game gets that registers none of that name
_GENERIC: dict[str, tuple[BotFactory, str]] = {}


class BotOptionError(SheepfoldError):
    """A bot option a server does not accept (unknown to the bot's limits, or out of bounds)."""


class Bot(abc.ABC):
    """A player. It may keep memory between calls, but it never sees more than a view."""

    name: str = "bot"
    #: modules of compiled kernels its decisions call, each with ``warm()`` and ``ready()``
    #: (:mod:`sheepfold.bots.warmup`: front ends warm them before the first game)
    kernels: tuple[str, ...] = ()

    def __init__(self, game: Game, seat: Seat, seed: int | None = None) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    @abc.abstractmethod
    def act(self, view: View) -> Action:
        """The action to play in the position ``view`` shows (it is this bot's decision)."""

    def preparation(self) -> str | None:
        """What this bot still has to do once before its first decision that takes long enough
        to show (the perfect bot: solve the game), in words; None when nothing."""
        return None

    def prepare_now(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Do :meth:`preparation` now, reporting ``progress(done, total)`` (front ends call it
        before the first game, with a progress bar; otherwise the first decision does it)."""
        return None

    def __repr__(self) -> str:
        return f"{self.name}(seat {self.seat})"


def register_bot(
    game: str,
    name: str,
    description: str,
    kernels: tuple[str, ...] = (),
    limits: Mapping[str, tuple[float, float]] | None = None,
) -> Callable[[BotFactory], BotFactory]:
    """Register a bot's factory; ``kernels``: the modules of compiled code it calls (the bot
    class's ``kernels``), warmed by front ends before the first game; ``limits``: the options
    a server accepts, each with its (lowest, highest) value (none: it takes no options there)."""

    def deco(factory: BotFactory) -> BotFactory:
        _REGISTRY[game][name] = (factory, description)
        _LIMITS[(game, name)] = dict(limits or {})
        if kernels:
            _KERNELS[game, name] = tuple(dict.fromkeys(_KERNELS.get((game, name), ()) + kernels))
        return factory

    return deco


def register_generic_bot(name: str, description: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot that plays any game from the protocol alone: every game that registers
    no bot of this name gets it (``greedy``: a game without a heuristic of its own)."""

    def deco(factory: BotFactory) -> BotFactory:
        _GENERIC[name] = (factory, description)
        return factory

    return deco


def _load_all() -> None:
    # Importing a module registers its bots; later layers add their modules here.
    import importlib

    for mod in _BOT_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:  # a module of a layer not installed yet
            if e.name != mod:
                raise
    for game, bots in _REGISTRY.items():  # the generic bots fill in, after the games' own
        for name, entry in _GENERIC.items():
            if name not in bots:
                bots[name] = entry
                _LIMITS[(game, name)] = {}


_BOT_MODULES: list[str] = [
    "sheepfold.bots.random_bot",
    "sheepfold.bots.greedy",
    "sheepfold.bots.dolly",
    "sheepfold.bots.perfect",
    "sheepfold.bots.best_response",
]


def available_bots(game: str) -> dict[str, str]:
    """Bot names for a game, with a one-line description each."""
    _load_all()
    return {name: desc for name, (_, desc) in _REGISTRY.get(game, {}).items()}


def kernels_of(names: list[str] | None = None) -> list[str]:
    """The modules of compiled kernels the named bots use (a name may carry options:
    ``expert:time=2``; None: every bot), each once, in a stable order."""
    _load_all()
    wanted = None if names is None else {n.partition(":")[0] for n in names}
    out: dict[str, None] = {}
    for (_game, name), mods in sorted(_KERNELS.items()):
        if wanted is None or name in wanted:
            out.update(dict.fromkeys(mods))
    return list(out)


def check_options(game: str, spec: str) -> str:
    """``spec`` (``expert:iterations=2000,time=0.5``) if its bot exists for ``game`` and every
    option is one its limits declare, within bounds; else SheepfoldError (no such bot) or
    BotOptionError (which option, and what is allowed)."""
    _load_all()
    name, _, arg = spec.partition(":")
    bots = _REGISTRY.get(game, {})
    if name not in bots:
        known = ", ".join(sorted(bots)) or "none"
        raise SheepfoldError(f"no bot named {name!r} for {game} (bots: {known})")
    limits = _LIMITS.get((game, name), {})
    for key, value in bot_kwargs(arg).items():
        if key not in limits:
            allowed = ", ".join(f"{k} ({lo:g} to {hi:g})" for k, (lo, hi) in limits.items())
            raise BotOptionError(
                f"the {name} bot takes no option {key!r} here"
                + (f" (its options: {allowed})" if allowed else " (it takes no options)")
            )
        low, high = limits[key]
        if isinstance(value, str) or not low <= value <= high:
            raise BotOptionError(
                f"the {name} bot's {key}={value} is out of bounds: from {low:g} to {high:g}"
            )
    return spec


def make_bot(spec: str, game: Game, seat: Seat, seed: int | None = None) -> Bot:
    """A bot by name (``greedy``, ``mcts:500``...) for ``game``, playing ``seat``."""
    _load_all()
    name, _, arg = spec.partition(":")
    bots = _REGISTRY.get(game.name, {})
    if name not in bots:
        known = ", ".join(sorted(bots)) or "none"
        raise SheepfoldError(f"no bot named {name!r} for {game.name} (bots: {known})")
    factory, _ = bots[name]
    return factory(game, seat, seed, arg)


def bot_kwargs(arg: str) -> dict[str, Any]:
    """Parse ``key=value,key=value`` bot options (numbers become numbers)."""
    out: dict[str, Any] = {}
    for part in filter(None, arg.split(",")):
        k, _, v = part.partition("=")
        try:
            out[k] = int(v) if v.lstrip("-").isdigit() else float(v)
        except ValueError:
            out[k] = v
    return out


provide_bots(make_bot)
