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
from sheepfold.games import make
from sheepfold.lab.depth import (
    DepthError,
    kingmaking,
    kingmaking_game,
    ladder,
    luck_share,
    matchups,
    omega_squared,
    wilson,
)
from sheepfold.lab.hopeless import out_seats
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


def test_shave_a_seat_is_out_when_its_pile_and_all_wool_in_play_cannot_reach_a_pile() -> None:
    """From the position, not from how the game went on: the pile plus every piece still in
    play (the middle, the sheep) against the biggest other pile (a tie still shares the win)."""
    state = make("shave-a-sheep", players=3).new_initial_state(seed=0)
    state.piles, state.middle, state.sheep = [20, 0, 3], 5, [1, 1, 0]  # 7 pieces in play
    assert out_seats(state) == [False, True, True]
    state.piles, state.middle, state.sheep = [9, 0, 2], 7, [0, 0, 0]
    assert out_seats(state) == [False, True, False]  # 2 + 7 = 9: it may still share the win
    state.piles, state.middle, state.sheep = [0, 0, 0], 30, [0, 0, 0]
    assert out_seats(state) == [False, False, False]  # the start: nobody is out


def test_shave_rules_that_take_wool_from_a_pile_have_no_bound() -> None:
    steal = {
        "verbs": {
            "steal": {
                "choose": "another player",
                "when": ["target pile >= 1"],
                "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
            }
        },
        "die": ["grow", "double", "shear", "swap", "wolf", "steal"],
    }
    state = make("shave-a-sheep", players=3, rules=steal).new_initial_state(seed=0)
    state.piles, state.middle, state.sheep = [20, 0, 3], 5, [1, 1, 0]
    assert out_seats(state) == [False, False, False]  # a pile may shrink: nobody is sure out


def test_dolly_a_seat_is_out_when_the_cards_left_cannot_bring_it_level() -> None:
    game = make("dolly-crush", players=3)
    state = game.new_initial_state(seed=0)
    state.deck, state.returning = [], []
    state.flock = [0] * game.board.cells  # 15 cards of 1 point in the flock, no deck
    state.collected = [[1] * 10, [], [1] * 5]  # 20, 0 and 10 points (card 1: 2 points)
    # seat 1 may still take at most the 15 points in play: below 20; seat 2 reaches 25
    assert out_seats(state) == [False, True, False]
    state.dogs_played = [0, 0, 0b1110]  # seat 2 has one dog card left: one turn of 15 points
    state.collected[2] = [0] * 4  # 4 + 15 < 20
    assert out_seats(state) == [False, True, True]
    state.dogs_played = [0, 0b1111, 0]  # no turn left for seat 1, nothing in play for it
    state.collected = [[], [], []]
    assert out_seats(state) == [False, False, False]  # 0 against 0: a shared win is still one


def test_a_kingmaker_is_found_and_only_among_seats_out_at_the_time() -> None:
    job = make_job("dolly-crush", None, players=3, bots=["random"], games=20, engine="engine")
    k = kingmaking(job)
    assert k.decided_games > 0  # random players who can no longer win still decide games
    games = [kingmaking_game(job, i, 6, 2) for i in range(job.games)]
    assert k.decided_games == sum(g.decided for g in games)
    assert all(g.out for g in games if g.decided) and all(g.single for g in games if g.out)


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
    assert kingmaking(job, workers=2).to_json() == k  # local processes: the same games
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


@pytest.mark.slow  # starting a Ray instance takes 15 s or more
def test_kingmaking_on_ray_local_gives_the_local_rate() -> None:
    """`lab depth --ray local` plays the kingmaking games on Ray (a Ray instance the command
    starts, in a child process so that Ray's threads never meet this process's forks): the
    report is the local one."""
    import os
    import subprocess
    import sys

    pytest.importorskip("ray")
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    args = ["lab", "depth", "dolly-crush", "--level", "random", "--level", "greedy"]
    args += ["--games", "2", "--engine", "engine", "--kingmaking-games", "12"]
    args += ["--kingmaking-bot", "random", "--json"]
    cli = subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", *args, "--ray", "local"],
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert cli.returncode == 0, cli.stderr.decode()[-2000:]
    on_ray = json.loads(cli.stdout)["kingmaking"]
    here = runner.invoke(app, [*args, "--workers", "1"])
    assert here.exit_code == 0, here.output
    assert on_ray == json.loads(here.stdout)["kingmaking"]
    assert on_ray["decided_games"] > 0


def test_ray_takes_the_kingmaking_games_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With --ray, the kingmaking games go to Ray like the ladder's (its chunks recorded here and
    played in this process instead of on a Ray instance)."""
    import sheepfold.lab.runner as lab_runner

    sent: list[str] = []

    def fake_ray(job, chunks, address, collect, fn=lab_runner.run_chunk, args=()):  # type: ignore[no-untyped-def]
        sent.extend(f"{fn.__name__} {address}" for _ in chunks)
        for ch in chunks:
            collect(fn(job, ch, *args))

    monkeypatch.setattr(lab_runner, "_run_ray", fake_ray)
    args = ["lab", "depth", "shave-a-sheep", "--level", "random", "--level", "greedy"]
    args += ["--games", "2", "--engine", "engine", "--kingmaking-games", "4", "--json"]
    r = runner.invoke(app, [*args, "--ray", "10.0.0.9:6379"])
    assert r.exit_code == 0, r.output
    assert "kingmaking_chunk 10.0.0.9:6379" in sent and "run_chunk 10.0.0.9:6379" in sent
    local = runner.invoke(app, [*args, "--workers", "1"])
    assert json.loads(r.stdout)["kingmaking"] == json.loads(local.stdout)["kingmaking"]
