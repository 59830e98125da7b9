"""The ``sheepfold`` command. Each command lives in its own module; this file only wires them."""

from __future__ import annotations

import inspect

import typer

from sheepfold.cli.replay import replay_command
from sheepfold.cli.rules import app as rules_app

app = typer.Typer(
    name="sheepfold",
    help="Dolly Crush and Shave a Sheep: play, replay, simulate, solve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("replay")(replay_command)
app.add_typer(rules_app, name="rules")


def _register_optional() -> None:
    """Commands whose modules are added by later layers (play, solve, lab, serve, ...)."""
    from sheepfold.cli import play

    play.register(app)
    from sheepfold.cli import serve

    serve.register(app)  # noqa: E702
    from sheepfold.cli import cluster

    cluster.register(app)  # noqa: E702
    from sheepfold.cli import db

    db.register(app)  # noqa: E702
    from sheepfold.cli import tournament

    tournament.register(app)  # noqa: E702
    from sheepfold.cli import lab

    lab.register(app)  # noqa: E702
    from sheepfold.cli import solve

    solve.register(app)  # noqa: E702
    from sheepfold.cli import warm

    warm.register(app)  # noqa: E702


_register_optional()


def _one_line_summaries(group: typer.Typer) -> None:
    """A command list shows each command's first paragraph as one line: typer's rich help keeps
    a docstring's line breaks there ("several        options"), so the summary is the first
    paragraph with its breaks joined (``short_help``); the command's own --help is unchanged."""
    for info in group.registered_commands:
        doc = info.help or (info.callback.__doc__ if info.callback else None)
        if info.short_help is None and doc:
            info.short_help = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _one_line_summaries(sub.typer_instance)


_one_line_summaries(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
