"""The example scripts of examples/ run end to end (small budgets)."""

from __future__ import annotations

import pytest

from example_runner import run_example

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

_run = run_example


def test_openspiel_mcts_plays_a_whole_game_of_each() -> None:
    out = _run("openspiel_mcts.py", "--simulations", "8", "--seed", "3")
    assert "python_dolly_crush(players=2): 28 decisions" in out
    assert "python_shave_a_sheep" in out
    assert out.count("over:") == 2 or "truncated" in out


def test_pettingzoo_random_loop() -> None:
    out = _run("pettingzoo_random.py", "--games", "2")
    assert out.count("game 1:") == 2 and "win shares over 2 games" in out


def test_gymnasium_rollout() -> None:
    out = _run("gymnasium_rollout.py", "--episodes", "3")
    assert "sheepfold/DollyCrush-v0" in out and "sheepfold/ShaveASheep-v0" in out
    assert "mean win share" in out


def test_openspiel_solvers_through_the_zero_sum_transform() -> None:
    pytest.importorskip("cvxpy")
    out = _run("openspiel_zerosum.py", "--games", "2", "--simulations", "20")
    # the exact value (tests/test_interop_openspiel_algorithms.py checks it by expectimax)
    assert "seat 0 +0.0224 (win share 0.5224)" in out
    share = float(out.split("against greedy: win share ")[1].split()[0])
    assert 0 <= share <= 1
