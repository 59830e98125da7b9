"""`sheepfold lab compare --out DIR --resume`: both runs kept as they play, finished later."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sheepfold.cli.main import app

runner = CliRunner()
ARGS = ["lab", "compare", "shave-a-sheep", "rulebook", "cutting-costs", "-n", "400", "-w", "1"]


def _compare(*extra: str) -> dict:  # type: ignore[type-arg]
    r = runner.invoke(app, [*ARGS, "--json", *extra])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_compare_keeps_both_runs_and_resumes_them(tmp_path: Path) -> None:
    whole = _compare("--out", str(tmp_path / "one"))
    assert (tmp_path / "one" / "a.parquet").exists() and (tmp_path / "one" / "b.parquet").exists()
    r = runner.invoke(app, [*ARGS, "--out", str(tmp_path / "one")])
    assert r.exit_code == 2 and "add --resume" in r.output  # nothing is overwritten silently
    (tmp_path / "one" / "b.parquet").unlink()  # B was cut off: only B is played again
    resumed = _compare("--out", str(tmp_path / "one"), "--resume")
    assert resumed["metrics"] == whole["metrics"] and resumed["verdict"] == whole["verdict"]
    r = runner.invoke(app, [*ARGS, "--resume"])
    assert r.exit_code == 2 and "give --out DIR" in r.output
