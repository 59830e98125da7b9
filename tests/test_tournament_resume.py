"""`sheepfold tournament --out FILE --resume`: finished deals are kept as they end and a resumed
tournament plays only the rest, to the same result as one played in one go."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.bots.tournament import Journal, TournamentConfig, run_tournament
from sheepfold.cli.main import app
from sheepfold.core.protocol import SheepfoldError

CFG = TournamentConfig(game="shave-a-sheep", bots=("greedy", "random"), games=12, workers=1)


def test_a_resumed_tournament_plays_only_the_missing_deals_and_ends_the_same(
    tmp_path: Path,
) -> None:
    whole = run_tournament(CFG, journal=Journal.open(tmp_path / "whole.jsonl", CFG))
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 12  # the configuration, then a line per deal
    cut = tmp_path / "cut.jsonl"  # 5 deals on disk, then a line a crash cut short
    cut.write_text("\n".join(lines[:6]) + "\n" + lines[6][:20] + "\n")
    seen: list[int] = []
    resumed = run_tournament(CFG, seen.append, Journal.open(cut, CFG, resume=True))
    assert seen[0] == 5 and sum(seen) == 12  # the 5 kept, then the 7 played
    assert resumed.games == whole.games
    assert resumed.summary() == whole.summary()
    again = Journal.open(cut, CFG, resume=True)
    assert len(again.done) == 12  # the torn line is skipped, the deal it held was played again


def test_a_journal_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    Journal.open(path, CFG)
    other = TournamentConfig(game="shave-a-sheep", bots=("greedy", "greedy"), games=12)
    with pytest.raises(SheepfoldError, match="holds another tournament"):
        Journal.open(path, other, resume=True)
    with pytest.raises(SheepfoldError, match="exists: add --resume"):
        Journal.open(path, CFG)
    assert Journal.open(path, CFG.__class__(**{**CFG.__dict__, "workers": 2}), resume=True)
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(SheepfoldError, match="not a tournament file"):
        Journal.open(tmp_path / "junk.jsonl", CFG, resume=True)


def test_cli_keeps_deals_and_refuses_to_overwrite(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t.jsonl"
    args = ["tournament", "shave-a-sheep", "-b", "greedy", "-b", "random", "-n", "6", "-w", "1"]
    r = runner.invoke(app, [*args, "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 7
    r = runner.invoke(app, [*args, "--out", str(out)])
    assert r.exit_code == 2 and "add --resume" in r.output
    r = runner.invoke(app, [*args, "--out", str(out), "--resume", "--json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*args, "--resume"])
    assert r.exit_code == 2 and "give --out FILE" in r.output
