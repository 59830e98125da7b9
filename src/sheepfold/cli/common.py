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
