"""Pig Pen at the terminal (issue 25): a game registered only inside ``games/`` plays through
the generic terminal driver (:class:`sheepfold.core.drivers.GenericTerminal`), moves typed by
number or by name, and its ``--save`` record replays with ``sheepfold replay``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.records import replay

ENV = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
SRC = Path(__file__).resolve().parent.parent / "src" / "sheepfold"
#: typed moves, by number and by name, with a word that is no move among them
MOVES = ["help", "hint", "1", "fly", "roll", "2", "1", "pen"] * 120


def play(args: list[str], lines: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", "play", "pig-pen", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )


def flat(text: str) -> str:
    return " ".join(text.split())


def test_pig_pen_plays_to_the_end_by_typed_moves_and_its_record_replays(tmp_path: Path) -> None:
    save = tmp_path / "pig.json"
    res = play(["--seat", "ann", "--seat", "bot:random", "--seed", "5", "--save", str(save)], MOVES)
    out = res.stdout
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Pig Pen · 2 players" in out
    assert "ann, your move: 1) roll 2) pen" in flat(out)  # the game's own action names
    assert "Pig Pen moves:" in out  # help, from the protocol alone
    assert "greedy would play:" in out  # the generic greedy bot hints, and the game goes on
    assert "Not a move:" in out and "'fly' is not a move now" in flat(out)
    assert "ann plays: roll" in out and "ann plays: pen" in out
    assert "Random bot plays:" in out  # a bot by its level's words
    assert "The game is over" in out and "Game stopped" not in out
    tail = out[out.index("Final result") :]
    rows = dict(re.findall(r"^\s*(?:WINNER)?\s+\d\s+(ann|Random bot)\s+(\d+)\s*$", tail, re.M))
    winners = re.findall(r"^\s*WINNER\s+\d\s+(ann|Random bot)\s", tail, flags=re.M)

    rep = replay(json.loads(save.read_text()))
    assert rep.error is None and rep.state.is_terminal()
    names = list(rep.names)
    assert names == ["ann", "bot:random"]  # the record's notation; the screen says words
    shown_names = ["ann", "Random bot"]
    assert rows == {n: str(int(v)) for n, v in zip(shown_names, rep.state.scores(), strict=True)}
    assert winners == [shown_names[s] for s in rep.state.winners()]

    runner = CliRunner()
    shown = runner.invoke(app, ["replay", str(save)])
    assert shown.exit_code == 0, shown.output
    assert f"{rep.moves_applied} moves applied." in shown.output
    step = runner.invoke(app, ["replay", "--step", str(save)])
    assert step.exit_code == 0, step.output
    assert f"Move {rep.moves_applied} of {rep.moves_applied}" in step.output
    assert "seat -1" not in step.output  # every move is someone's, a lost turn too


def test_pig_pen_is_not_offered_but_is_played_by_name() -> None:
    """Listed games only in "Which game?"; quitting there starts nothing."""
    res = subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", "play"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Which game?" in res.stdout and "Pig Pen" not in res.stdout


def test_no_module_outside_games_names_pig_pen() -> None:
    bad = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".js", ".html", ".toml", ".json")
        and "games" not in path.relative_to(SRC).parts[:1]
        and re.search(r"pig[-_ ]?pen", path.read_text(errors="replace"), flags=re.I)
    ]
    assert not bad, f"outside games/, these name Pig Pen: {bad}"
