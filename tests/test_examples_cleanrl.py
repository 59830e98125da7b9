"""The CleanRL-style PPO example (self-play on the PettingZoo env) runs end to end with a few
hundred training steps, and prints win shares that parse and lie in [0, 1]."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from example_runner import run_example

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("torch")


def _run(*args: str) -> str:
    return run_example("cleanrl_ppo_pettingzoo.py", *args)


def _shares(out: str) -> dict[str, float]:
    m = re.search(r"vs random ([0-9.]+), vs greedy ([0-9.]+) \(win shares over 6 games each\)", out)
    assert m, out
    return {"random": float(m[1]), "greedy": float(m[2])}


def test_cleanrl_ppo_self_play_on_shave_measures_exactly(tmp_path: Path) -> None:
    out = _run(
        "--steps", "384", "--num-envs", "2", "--num-steps", "64", "--eval-games", "6",
        "--wool", "4", "--seed", "1", "--save", str(tmp_path / "a.pt"),
    )  # fmt: skip
    assert "trained 384 steps" in out and "self-play" in out and (tmp_path / "a.pt").is_file()
    assert all(0.0 <= v <= 1.0 for v in _shares(out).values())
    rows = {}
    for name in ("vs random", "vs greedy", "vs perfect", "best response"):
        m = re.search(rf"^{name} +([0-9.]+) +([0-9.]+)$", out, re.M)
        assert m, out
        rows[name] = (float(m[1]), float(m[2]))
    assert all(0.0 <= v <= 1.0 for pair in rows.values() for v in pair)
    m = re.search(r"^exploitability ([0-9.]+)$", out, re.M)
    assert m and 0.0 <= float(m[1]) <= 1.0


def test_cleanrl_ppo_self_play_on_dolly_crush() -> None:
    out = _run(
        "--game", "dolly-crush", "--steps", "256", "--num-envs", "2", "--num-steps", "64",
        "--eval-games", "6",
    )  # fmt: skip
    assert "trained 256 steps" in out and "exploitability" not in out
    assert all(0.0 <= v <= 1.0 for v in _shares(out).values())
