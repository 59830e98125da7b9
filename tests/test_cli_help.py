"""`--help` that helps: every command list shows each command's summary as one readable line."""

from __future__ import annotations

from typing import Any

import typer

from sheepfold.cli.main import app


def _commands(group: Any, path: str = "sheepfold") -> list[tuple[str, Any]]:
    found = []
    for name, cmd in group.commands.items():
        found.append((f"{path} {name}", cmd))
        if hasattr(cmd, "commands"):  # a group (typer's own click)
            found += _commands(cmd, f"{path} {name}")
    return found


def test_every_command_summary_is_one_line() -> None:
    """typer's rich help keeps a docstring's line breaks in the command list ("goals: several"
    then padding, then "options varied at once" on the next line): every command's summary is
    its first paragraph joined into one line."""
    commands = _commands(typer.main.get_command(app))
    assert len(commands) > 20, [c for c, _ in commands]
    for where, cmd in commands:
        summary = cmd.short_help or cmd.help or ""
        first = " ".join((cmd.help or "").split("\n\n")[0].split())
        assert "\n" not in summary, f"{where}: the command list breaks its summary: {summary!r}"
        if first and not hasattr(cmd, "commands"):
            assert summary == first, f"{where}: {summary!r} is not its first paragraph"


def test_the_lab_list_reads_as_sentences() -> None:
    from typer.testing import CliRunner

    out = CliRunner().invoke(app, ["lab", "--help"], env={"COLUMNS": "200"}).output
    assert "several options varied at once (Optuna)" in out, out
