"""Shared pieces of the command line: resolving --rules, and clear errors instead of tracebacks."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from sheepfold.core.protocol import SheepfoldError

F = TypeVar("F", bound=Callable[..., Any])

console = Console()
err_console = Console(stderr=True)

GAME_HELP = "dolly-crush or shave-a-sheep"

# every count the commands take has a bound (docs/lab.md, docs/bots.md)
#: the most games one command plays (a lab run, a side of a comparison, a tournament's match-up)
MAX_GAMES = 10_000_000
#: the largest seed of simulated games: game i is seeded SEED + i, and every seed fits 64 bits
MAX_SEED = 2**62
#: the most worker processes
MAX_WORKERS = 1024


#: what a terminal must never receive from a name or a record: C0 and C1 controls (ESC, BEL,
#: newlines...), DEL, and the invisible marks that reorder text (bidi embeddings, overrides,
#: isolates), line and paragraph separators
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _visible(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def safe_text(text: object) -> str:
    """Text from a name, a record or a file, safe to show on a terminal: every control character
    and bidi mark is written as a visible escape (``\\x1b``, ``\\u202e``). Plain text: pass it
    to ``rich.text.Text``, or through :func:`safe_markup` into a markup string."""
    return _UNSAFE.sub(_visible, str(text))


def safe_markup(text: object) -> str:
    """:func:`safe_text` with rich markup escaped too (``[red]`` shows as ``[red]``)."""
    return escape(safe_text(text))


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` (markup allowed; control characters never reach the terminal)."""
    err_console.print(f"[bold red]error:[/] {safe_text(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def friendly_errors(func: F) -> F:
    """Turn the engine's errors (bad rules, bad input) into a one-line message and exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SheepfoldError as e:
            raise fail(escape(str(e))) from None
        except KeyboardInterrupt:
            err_console.print("\ninterrupted")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            sys.stderr.close()
            raise typer.Exit(0) from None

    return wrapper  # type: ignore[return-value]


def check_game(name: str) -> str:
    from sheepfold.games import GAME_NAMES

    if name not in GAME_NAMES:
        raise fail(f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})")
    return name


SET_HELP = (
    "a rule option as KEY=VALUE, the value in TOML (wool=12, max_wool=4, "
    '\'die=["white", "x2"]\'; a bare word is text), repeatable; '
    "'sheepfold rules show NAME' lists every option"
)
VARIANT_HELP = "add a printed variant to the rules (cutting-costs, howling-wolf, my-friend-mr-wolf), repeatable"


def set_option() -> Any:
    """``--set KEY=VALUE`` (repeatable): a rule option, as ``sheepfold rules new`` takes it."""
    return typer.Option([], "--set", metavar="KEY=VALUE", help=SET_HELP)


def variant_option() -> Any:
    """``--variant NAME`` (repeatable): a variant added to the rules in play."""
    return typer.Option([], "--variant", metavar="NAME", help=VARIANT_HELP)


def resolve_rules(
    game: str,
    rules: str | None,
    sets: Sequence[str] = (),
    variants: Sequence[str] = (),
) -> Any:
    """The rules model for ``--rules NAME|FILE`` (None: the rulebook), with ``--set KEY=VALUE``
    and ``--variant NAME`` applied (:func:`sheepfold.rulesets.with_options`: a wrong one is a
    :class:`RulesError` naming the flag). Changed rules are named for what they are
    (``rulebook with --set wool=12``)."""
    from sheepfold.rulesets import resolve

    base = resolve(game, rules)
    if not sets and not variants:
        return base
    changes = [f"--set {s}" for s in sets] + [f"--variant {v}" for v in variants]
    name = f"{base.name or 'rulebook'} with {' '.join(changes)}"
    return resolve(game, base, sets, variants, name=name)


def default_rules(
    game: str,
    rules: str | None,
    sets: Sequence[str] = (),
    variants: Sequence[str] = (),
    seats_chosen: bool = False,
) -> tuple[str | None, Any]:
    """(the rule set's name, the rules model) for ``--rules`` (:func:`resolve_rules`); left out,
    the game's default rule set (:func:`sheepfold.rulesets.fair_default`; Dolly Crush:
    ``dolly-graded``, every seat the same dog cards), or the rulebook when the ``--set``
    options cannot take it or the seats' breeds are given (``seats_chosen``: they keep their
    printed cards). ``rulebook`` names the rulebook itself."""
    from sheepfold.rulesets import fair_default

    if rules == "rulebook":
        return None, resolve_rules(game, None, sets, variants)
    if rules is not None:
        return rules, resolve_rules(game, rules, sets, variants)

    def build(base: Any) -> Any:
        name = None if base is None else base.name
        return resolve_rules(game, name, sets, variants)

    return fair_default(game, build, seats_chosen)


def unequal_seats_warning(game: Any) -> None:
    """On stderr: the game's warning when its seats are not on equal terms (the printed dog
    cards), which decides the game (nothing when they are equal)."""
    from sheepfold.core.registry import game_spec

    text = game_spec(game.name).unequal_seats(game)
    if text:
        err_console.print(f"[bold yellow]Warning:[/] {escape(text)}", highlight=False)


def compile_report() -> Any:
    """A :data:`sheepfold.core.compiling.Report` on stderr: each step (compiling the simulator)
    as a spinner with its seconds going on a terminal, then one line ("compiling the simulator:
    12 s"); elsewhere (a log, CI) a line when it starts and one when it ends."""
    from rich.errors import LiveError
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from sheepfold.core.compiling import words

    live: dict[str, Any] = {}

    def report(what: str, seconds: float | None) -> None:
        if seconds is None:
            if err_console.is_terminal:
                spinner = Progress(
                    SpinnerColumn(),
                    TextColumn("{task.description}"),
                    TimeElapsedColumn(),
                    console=err_console,
                    transient=True,
                )
                try:
                    spinner.start()
                except LiveError:  # another display is live: plain lines
                    pass
                else:
                    spinner.add_task(escape(words(what, None)))
                    live[what] = spinner
                    return
            err_console.print(escape(words(what, None)), highlight=False)
            return
        # the step's end, or its end in other words ("... (stopped: ...)")
        for key in [k for k in live if what == k or what.startswith(k + " (")]:
            live.pop(key).stop()
        err_console.print(escape(words(what, seconds)), highlight=False)

    return report


def warm_bots(names: list[str] | None = None, game: Any = None) -> None:
    """Warm the compiled code of the named bots (None: every bot) for ``game``'s rules (None:
    every rule set; a game compiles only what its rules take) before the first game: each
    kernel that compiles is its own step on stderr (:func:`compile_report`: "compiling the
    expert's playouts: 40 s"); nothing when they need none, are ready or load from the cache
    (:mod:`sheepfold.bots.warmup`)."""
    from sheepfold.bots import warmup

    modules = warmup.kernels(names)
    if warmup.ready(modules, game):
        return
    warmup.warm_modules(modules, compiling=compile_report(), game=game)


def _solving(bot: Any) -> Any:
    """Where ``bot`` solves the game (the perfect bot): it starts at once, while a cold
    solver compiles in the background (said on stderr); else nothing."""
    if not getattr(bot, "solve", False):
        return nullcontext()
    from sheepfold.games.shave_a_sheep import solver

    return solver.at_once(bot.game.num_players, compile_report())


def prepare_bots(bots: Sequence[Any]) -> None:
    """Do every bot's slow one-time work (:meth:`sheepfold.bots.Bot.preparation`: the perfect bot
    solves the game) before the first game, each with a progress bar on stderr, so that no
    first move sits silent for minutes."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    for bot in bots:
        what = bot.preparation() if bot is not None else None
        if what is None:
            continue
        with (
            _solving(bot),
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}% of the positions"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=err_console,
                transient=False,
            ) as bar,
        ):
            task = bar.add_task(safe_markup(what), total=None)
            bot.prepare_now(lambda done, total, t=task: bar.update(t, completed=done, total=total))
