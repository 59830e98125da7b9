"""`sheepfold lab search --exact`: the seats' win shares of every trial the exact solver can
take come from it (Shave a Sheep): the first-player advantage and the balance, so the ``fair``
goal, are exact (no interval) and marked so in the table and the JSON."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.games import make
from sheepfold.lab.perfect import exact_start_shares
from sheepfold.lab.search import Dimension, Goal, SearchSpec, search

runner = CliRunner()
#: a small game the solver takes in a moment (few pieces of wool), played by the engine
SMALL = dict(
    game="shave-a-sheep",
    base={"max_wool": 2},
    base_name="rulebook",
    dims=(Dimension("wool", "int", 4, 6),),
    goals=(Goal("fair"),),
    bots=("greedy",),
    games=20,
    recheck=2,
    recheck_games=20,
    engine="engine",
)


def test_the_fair_goal_uses_the_exact_win_shares() -> None:
    result = search(SearchSpec(**SMALL, exact=True), 3, workers=1)  # type: ignore[arg-type]
    assert result.candidates
    for c in result.candidates:
        m, ev = c.recheck.metrics, c.recheck
        assert {"balance", "first_player_advantage"} <= set(ev.exact)
        game = make("shave-a-sheep", rules={"max_wool": 2, **c.params}, players=2)
        s0, s1 = exact_start_shares(game, ["greedy", "greedy"])
        bal = m["balance"]
        assert bal["value"] == bal["lo"] == bal["hi"] == round(1 - abs(s0 - s1), 6)
        assert m["first_player_advantage"]["value"] == round(s0 - 0.5, 6)
        truncated = m["truncated"]["value"]
        assert abs(ev.loss - (abs(s0 - s1) + truncated)) < 1e-6  # the loss: 1 - exact balance
        data = c.to_json(result.spec)
        assert data["metrics"]["balance"]["exact"] is True
        assert data["metrics"]["balance"]["ci"] == [bal["value"], bal["value"]]
        assert data["metrics"]["length_mean"]["exact"] is False  # lengths come from the games
    plain = search(SearchSpec(**SMALL), 3, workers=1)  # type: ignore[arg-type]
    assert all(not c.recheck.exact for c in plain.candidates)


def test_the_table_and_json_mark_exact_values() -> None:
    args = ["lab", "search", "shave-a-sheep", "--vary", "wool=4..5", "--goal", "fair"]
    args += ["--bot", "greedy", "--trials", "2", "--games", "10", "--recheck", "1"]
    args += ["--recheck-games", "10", "--engine", "engine", "--workers", "1", "--exact"]
    r = runner.invoke(app, [*args, "--max-turns", "200"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert "exact" in r.output and "the solver's value, no interval" in r.output
    r = runner.invoke(app, [*args, "--json"])
    data = json.loads(r.stdout)
    assert data["exact"] is True and data["best"]["metrics"]["balance"]["exact"] is True


def test_a_game_without_a_solver_says_why() -> None:
    spec = SearchSpec(
        game="dolly-crush",
        base={},
        base_name="dolly-graded",
        dims=(Dimension("min_line", "int", 3, 4),),
        goals=(Goal("fair"),),
        games=4,
        recheck=1,
        recheck_games=4,
        engine="engine",
        exact=True,
    )
    result = search(spec, 2, workers=1)
    c = result.candidates[0]
    assert not c.recheck.exact and c.recheck.exact_skipped == "dolly-crush has no exact solver"
    assert c.recheck.metrics["balance"]["lo"] <= c.recheck.metrics["balance"]["hi"]
