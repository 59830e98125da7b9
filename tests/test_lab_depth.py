"""`sheepfold lab depth`: the skill ladder, upsets, the luck share and the kingmaking rate
(src/sheepfold/lab/depth.py has the definitions), on small seeded runs: deterministic, no
clock."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.lab.depth import (
    DepthError,
    cannot_win,
    kingmaking,
    ladder,
    luck_share,
    matchups,
    omega_squared,
    wilson,
)
from sheepfold.lab.runner import make_job

runner = CliRunner()


def test_wilson_interval() -> None:
    s = wilson(5, 20)
    assert s.value == 0.25 and s.lo == pytest.approx(0.1119, abs=1e-4)
    assert s.hi == pytest.approx(0.4687, abs=1e-4)
    assert wilson(0, 10).lo == 0.0 and math.isnan(wilson(0, 0).value)


def test_omega_squared_by_hand() -> None:
    a, b = np.array([0.0, 1.0, 0.0, 1.0]), np.array([1.0, 1.0, 1.0, 1.0])
    # grand 0.75, SS_total 1.5, SS_between 4*(0.25^2 + 0.25^2) = 0.5, MS_within 1/6
    w2 = (0.5 - 1 / 6) / (1.5 + 1 / 6)
    assert omega_squared([a, b]) == pytest.approx(w2)
    assert omega_squared([np.ones(3), np.zeros(3)]) == 1.0  # who plays explains everything
    assert luck_share([np.ones(3), np.zeros(3)]).value == 0.0
    assert math.isnan(omega_squared([a]))


def test_matchups_each_level_against_below_and_random() -> None:
    assert matchups(["random", "greedy", "perfect"]) == [
        ("greedy", "random", "below"),
        ("perfect", "greedy", "below"),
        ("perfect", "random", "random"),
    ]
    with pytest.raises(DepthError, match="at least two levels"):
        matchups(["greedy"])
    with pytest.raises(DepthError, match="named twice"):
        matchups(["random", "random"])


def test_cannot_win_by_the_games_own_pace() -> None:
    starts = np.array([[0, 0, 0], [5, 1, 0], [9, 2, 8]], dtype=float)
    final = np.array([10.0, 3.0, 12.0])
    out = cannot_win(starts, final)
    # turn 1: the most anyone gained afterwards is 12 (seat 2): nobody is out
    assert not out[0].any()
    # turn 2: the most gained from then is 12 - 0 = 12: 1 + 12 >= 5, nobody is out
    assert not out[1].any()
    # turn 3: the most gained is max(1, 1, 4) = 4: seat 1 (2 + 4 < 9) cannot win
    assert out[2].tolist() == [False, True, False]


def _ladder(game: str) -> dict:  # type: ignore[type-arg]
    return ladder(
        game, None, "x", ["random", "greedy"], games=6, engine="engine", workers=1
    ).to_json()


@pytest.mark.parametrize("game", ["shave-a-sheep", "dolly-crush"])
def test_a_small_ladder_is_reproducible_and_consistent(game: str) -> None:
    a = _ladder(game)
    assert a == _ladder(game)  # the same seeds, the same report
    (step,) = a["steps"]
    assert (step["strong"], step["weak"]) == ("greedy", "random")
    for key in ("win_share", "upsets"):
        m = step[key]
        assert m["games"] == 6 and m["ci"][0] <= m["mean"] <= m["ci"][1]
    assert 0 <= a["luck_share"]["mean"] <= 1


def test_kingmaking_is_reproducible_and_counted_within_its_games() -> None:
    job = make_job("shave-a-sheep", None, players=3, bots=["greedy"], games=8, engine="engine")
    k = kingmaking(job).to_json()
    assert k == kingmaking(job).to_json()
    assert 0 <= k["decided_games"] <= k["out_games"] <= k["games"] <= 8
    assert k["rate"]["mean"] == pytest.approx(k["decided_games"] / k["games"], abs=1e-6)
    assert k["tried"] >= k["decided_games"]
    with pytest.raises(DepthError, match="3 or 4 players"):
        kingmaking(make_job("shave-a-sheep", None, players=2, games=2, engine="engine"))


def test_the_command_prints_the_report_and_its_json() -> None:
    args = ["lab", "depth", "shave-a-sheep", "--level", "random", "--level", "greedy"]
    args += ["--games", "4", "--engine", "engine", "--workers", "1", "--kingmaking-games", "4"]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["levels"] == ["random", "greedy"] and data["kingmaking"]["players"] == 3
    assert set(data["luck_share"]) == {"mean", "ci", "games"}
    r = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert (
        "skill ladder" in r.output and "luck:" in r.output and "kingmaking (3 players" in r.output
    )
    r = runner.invoke(app, ["lab", "depth", "shave-a-sheep", "--level", "greedy"])
    assert r.exit_code != 0 and "at least two levels" in r.output
