"""``sheepfold replay FILE [--json]``: the records contract (docs/spec/records.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO

import typer
from rich.text import Text

from sheepfold.cli.common import console


def replay_command(
    file: Path = typer.Argument(
        ..., help="a sheepfold-record/1 JSON file ('-' reads standard input)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the contract's JSON summary"),
    step: bool = typer.Option(
        False,
        "--step",
        help="step through the record one move at a time (Enter: the next move, q: quit); "
        "without a terminal every position is printed one after the other",
    ),
) -> None:
    """Replay a game record: exit 0 and the final position, or exit 2 naming the broken rule."""
    import sys

    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.records import RecordError, replay, summary

    if step and as_json:
        from sheepfold.cli.common import fail

        raise fail("--step is for people; --json prints the summary only")
    try:
        # read within the records' limits (core/files.py): a huge file is refused unread
        source: BinaryIO | Path = sys.stdin.buffer if str(file) == "-" else Path(file)
        if step:
            _step_through(source)
            return
        result = replay(source)
    except RecordError as e:
        _report_error(e.to_json(), as_json, file)
        raise typer.Exit(2) from None
    except SheepfoldError as e:  # a rule set or deck the engine refuses: still the contract
        _report_error({"error": str(e), "move": None}, as_json, file)
        raise typer.Exit(2) from None
    if result.error is not None:
        _report_error(result.error.to_json(), as_json, file)
        raise typer.Exit(2)
    out = summary(result.state, result.moves_applied)
    if as_json:
        print(json.dumps(out))
        return
    from sheepfold.cli.render import render_state
    from sheepfold.core.drivers import terminal_driver

    house = terminal_driver(result.state.game).house_rules()
    if house:
        console.print(f"House rules: {'; '.join(house)}.", highlight=False, markup=False)
    console.print(render_state(result.state, names=list(result.names)))
    console.print(f"{result.moves_applied} moves applied.")


def _report_error(err: dict[str, object], as_json: bool, file: Path) -> None:
    """The contract's error object (``--json``), or one line for a person: a problem of the
    whole file names it (``error: game.json: not valid JSON: ...``)."""
    if as_json:
        print(json.dumps(err))
        return
    from sheepfold.cli.common import err_console, safe_markup

    name = "standard input" if str(file) == "-" else str(file)
    if err.get("move") is not None:
        where = f"move {err['move']}: "
    else:
        where = "" if str(err["error"]).startswith(name) else f"{safe_markup(name)}: "
    err_console.print(
        f"[bold red]error:[/] {where}{safe_markup(err['error'])}", highlight=False, soft_wrap=True
    )


# -- replay --step ---------------------------------------------------------------------------
def _step_through(source: BinaryIO | Path) -> None:
    """Show the record's positions one move at a time, with what each move changed. Errors
    are the contract's (:class:`RecordError`, exit 2), after the positions before them."""
    import sys

    from sheepfold.cli.render import render_state
    from sheepfold.core.drivers import terminal_driver
    from sheepfold.core.protocol import IllegalAction
    from sheepfold.core.records import RecordError, new_game_state, parse_record
    from sheepfold.core.registry import game_spec

    rec = parse_record(source)
    codec = game_spec(rec.game).record
    state = new_game_state(rec)
    names = [p.name for p in rec.players]
    settle = codec.settler(state, rec)
    try:
        settle(state)
    except IllegalAction as e:
        raise RecordError(f"draws: the deal cannot be made: {e}", field="draws") from None
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    total = len(rec.moves)
    console.rule(f"Start ({total} moves)")
    console.print(render_state(state, names=names))
    for k, move in enumerate(rec.moves):
        if interactive and not _next(k, total):
            console.print(f"Stopped after {k} of {total} moves.", highlight=False)
            return
        trial = state.clone()
        try:
            codec.apply_move(trial, move)
            settle(trial)
        except IllegalAction as e:
            raise RecordError(str(e), move=k) from None
        driver = terminal_driver(state.game)
        mover = driver.mover(state, trial)
        console.rule(f"Move {k + 1} of {total}")
        console.print(
            Text(f"{_name(names, mover)}: {step_text(state, trial, move, names)}", style="bold"),
            highlight=False,
        )
        changed = changed_cells(state, trial)
        console.print(render_state(trial, names=names, highlight=changed))
        for line in [*happened(state, trial, names), *what_changed(state, trial, names)]:
            console.print(Text(f"  {line}"), highlight=False)
        if trial.is_terminal():
            console.print(Text(end_reason(trial, names)))
        state = trial
    console.print(f"{total} moves applied.", highlight=False)


def _told(how: str, before: Any, after: Any, names: list[str]) -> Any:
    """What the game's terminal driver says of a record's move by its method ``how``
    (``move_words``, ``happened``), or None when its driver has no such words."""
    from sheepfold.cli.render import display_names
    from sheepfold.core.drivers import terminal_driver

    say = getattr(terminal_driver(before.game), how, None)
    return None if say is None else say(before, after, display_names(names))


def step_text(before: Any, after: Any, move: Any, names: list[str]) -> str:
    """A record's move in words: the game's own (its terminal driver's ``move_words``: Shave
    a Sheep's rolls and decisions in the rules' words), else :func:`move_text`."""
    said = _told("move_words", before, after, names)
    return move_text(move) if said is None else str(said)


def happened(before: Any, after: Any, names: list[str]) -> list[str]:
    """What the rules did after a record's move (Shave a Sheep's triggers: its terminal
    driver's ``happened``), in words; none for a game that tells no such thing."""
    return list(_told("happened", before, after, names) or [])


def end_reason(state: Any, names: list[str]) -> str:
    from sheepfold.cli.render import display_names
    from sheepfold.core.drivers import terminal_driver

    return terminal_driver(state.game).end_reason(state, display_names(names))


def _next(k: int, total: int) -> bool:
    """Wait for Enter (True) or q (False) at a terminal."""
    try:
        answer = input(f"[Enter: move {k + 1} of {total} · q: quit] ")
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() not in ("q", "quit", "exit")


def _name(names: list[str], seat: int) -> str:
    from sheepfold.cli.render import display_names

    return display_names([names[seat]])[0] if 0 <= seat < len(names) else f"seat {seat}"


def move_text(move: Any) -> str:
    """A record move in a few words (``dog 2, swaps a1-a2 b2-b3``; ``roll white, grow``)."""
    from sheepfold.cli.common import safe_text

    if hasattr(move, "model_dump"):  # a parsed record move
        move = move.model_dump(exclude_none=True)
    if not isinstance(move, dict):
        return safe_text(str(move))
    parts = []
    for key, value in move.items():
        if key == "swaps" and isinstance(value, list):
            value = " ".join("-".join(map(str, pair)) for pair in value) or "none"
        elif isinstance(value, list):
            value = ", ".join(map(str, value))
        parts.append(f"{key} {value}")
    return safe_text(", ".join(parts))


def changed_cells(before: Any, after: Any) -> list[str]:
    """The parts of the table the move changed (Dolly Crush: the cells swapped, taken,
    refilled), as the game's terminal driver marks them."""
    from sheepfold.core.drivers import terminal_driver

    return terminal_driver(before.game).changed_parts(before, after)


def what_changed(before: Any, after: Any, names: list[str], hide_scores: bool = False) -> list[str]:
    """The move's effect in words, as the game's terminal driver tells it (Dolly Crush's cards
    taken, points unless ``hide_scores``: the piles are face down, Dolly Crush ruling 9; Shave a
    Sheep's wool and wolf)."""
    from sheepfold.cli.render import display_names
    from sheepfold.core.drivers import terminal_driver

    told = terminal_driver(before.game).changes(before, after, display_names(names), hide_scores)
    return told or ["nothing changed"]
