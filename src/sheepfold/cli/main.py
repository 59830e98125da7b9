"""The ``sheepfold`` command. Each command lives in its own module; this file only wires them."""

from __future__ import annotations

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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
