"""``sheepfold replay FILE [--json]``: the records contract (docs/spec/records.md)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from sheepfold.cli.common import console


def replay_command(
    file: Path = typer.Argument(
        ..., help="a sheepfold-record/1 JSON file ('-' reads standard input)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the contract's JSON summary"),
) -> None:
    """Replay a game record: exit 0 and the final position, or exit 2 naming the broken rule."""
    import sys

    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.records import RecordError, replay, summary

    try:
        source: bytes | Path = sys.stdin.buffer.read() if str(file) == "-" else Path(file)
        result = replay(source)
    except RecordError as e:
        _report_error(e.to_json(), as_json)
        raise typer.Exit(2) from None
    except SheepfoldError as e:  # a rule set or deck the engine refuses: still the contract
        _report_error({"error": str(e), "move": None}, as_json)
        raise typer.Exit(2) from None
    if result.error is not None:
        _report_error(result.error.to_json(), as_json)
        raise typer.Exit(2)
    out = summary(result.state, result.moves_applied)
    if as_json:
        print(json.dumps(out))
        return
    from sheepfold.cli.render import dolly_house_rules, render_state
    from sheepfold.games.dolly_crush.game import DollyGame

    if isinstance(result.state.game, DollyGame):
        house = dolly_house_rules(result.state.game.rules)
        if house:
            console.print(f"House rules: {', '.join(house)}.", highlight=False, markup=False)
    console.print(render_state(result.state, names=list(result.names)))
    console.print(f"{result.moves_applied} moves applied.")


def _report_error(err: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(err))
        return
    from sheepfold.cli.common import err_console, safe_markup

    where = f"move {err['move']}: " if err.get("move") is not None else ""
    err_console.print(
        f"[bold red]error:[/] {where}{safe_markup(err['error'])}", highlight=False, soft_wrap=True
    )
