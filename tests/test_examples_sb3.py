"""The Stable-Baselines3 examples run end to end with a few hundred training steps."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from example_runner import run_example

pytest.importorskip("gymnasium")
pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

_run = run_example


def test_shave_example_trains_and_measures_exactly(tmp_path: Path) -> None:
    out = _run(
        "sb3_maskable_ppo_shave.py", "--steps", "256", "--wool", "8",
        "--save", str(tmp_path / "m.zip"),
    )  # fmt: skip
    assert "trained 256 steps against greedy" in out and (tmp_path / "m.zip").is_file()
    for row in ("vs random", "vs greedy", "vs perfect", "best response", "exploitability"):
        assert row in out


def test_dolly_example_records_a_learning_curve(tmp_path: Path) -> None:
    out = _run(
        "sb3_maskable_ppo_dolly.py", "--steps", "256", "--envs", "2", "--eval-every", "128",
        "--eval-games", "4", "--curve", str(tmp_path / "c.csv"),
        "--plot", str(tmp_path / "c.png"), "--save", str(tmp_path / "d.zip"),
    )  # fmt: skip
    assert out.count("step ") >= 2 and "vs medium" in out
    assert "final: vs random" in out and "final: vs greedy" in out
    rows = list(csv.DictReader((tmp_path / "c.csv").open()))
    assert [int(r["steps"]) for r in rows] == [128, 256]
    assert all(0.0 <= float(r["medium"]) <= 1.0 for r in rows)
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
    again = _run(
        "sb3_maskable_ppo_dolly.py", "--steps", "0", "--load", str(tmp_path / "d.zip"),
        "--eval-games", "2", "--final", "easy",
    )  # fmt: skip
    assert "final: vs easy" in again and "trained" not in again
