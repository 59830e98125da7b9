"""Shared pieces of the command line: resolving --rules, and clear errors instead of tracebacks."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console

from sheepfold.core.protocol import SheepfoldError

F = TypeVar("F", bound=Callable[..., Any])

console = Console()
err_console = Console(stderr=True)

GAME_HELP = "dolly-crush or shave-a-sheep"


def fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def friendly_errors(func: F) -> F:
    """Turn the engine's errors (bad rules, bad input) into a one-line message and exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SheepfoldError as e:
            raise fail(str(e)) from None
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


def resolve_rules(game: str, rules: str | None) -> Any:
    """The rules model for ``--rules NAME|FILE`` (None: the rulebook)."""
    from sheepfold.games import parse_rules
    from sheepfold.rulesets import find_ruleset

    if rules is None:
        return parse_rules(game, None)
    return find_ruleset(rules, game).rules


def warm_bots(names: list[str] | None = None) -> None:
    """Warm the compiled code of the named bots (None: every bot) before the first game, with a
    progress line on stderr (a spinner on a terminal, then one line; only that line elsewhere);
    nothing when they need none or it is ready (:mod:`sheepfold.bots.warmup`)."""
    from sheepfold.bots import warmup

    modules = warmup.kernels(names)
    if warmup.ready(modules):
        return
    what = "warming up the bots' compiled code"
    labels: list[str] = []
    with err_console.status(what) as status:  # shown on a terminal only

        def progress(done: int, total: int, label: str) -> None:
            if done < total:
                labels.append(label)
                status.update(f"{what} {done + 1}/{total}: {label}")

        seconds = warmup.warm_modules(modules, progress)
    if labels:
        err_console.print(
            f"warmed up the bots' compiled code ({', '.join(labels)}) in {seconds:.1f} s",
            highlight=False,
        )
