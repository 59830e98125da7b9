"""`sheepfold solve` (issue 18): rule options on the command line (--set, --variant), --table
alone solving only the table, and a large plan said up front with progress on any output."""

from __future__ import annotations

import io
import json
import re

import pytest
from typer.testing import CliRunner

from sheepfold.cli import solve as solve_cli
from sheepfold.cli import solve_plan
from sheepfold.cli.main import app
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules

runner = CliRunner()


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path))
    return tmp_path


def _json(args: list[str]) -> dict:
    r = runner.invoke(app, ["solve", "shave-a-sheep", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# -- --set and --variant --------------------------------------------------------------------
def test_set_and_variant_solve_those_rules(home):
    out = _json(["-p", "2", "--set", "wool=8", "--set", "max_wool=4", "--variant", "cutting-costs"])
    rules = ShaveRules(wool=8, max_wool=4, variants=["cutting-costs"])
    assert out["rules"] == {"wool": 8, "max_wool": 4, "variants": ["cutting-costs"]}
    assert out["win_share"][0] == pytest.approx(S.solve_minimax(rules).start_value, abs=1e-9)
    assert out["rules_name"] == (
        "rulebook with --set wool=8 --set max_wool=4 --variant cutting-costs"
    )


def test_set_applies_on_top_of_rules(home):
    out = _json(["-p", "3", "--rules", "howling-wolf", "--set", "wool=8", "--set", "max_wool=3"])
    assert out["rules"] == {"wool": 8, "max_wool": 3, "variants": ["howling-wolf"]}
    rules = ShaveRules(wool=8, max_wool=3, variants=["howling-wolf"])
    want = [S.guaranteed_share(rules, 3, seat).start_value for seat in range(3)]
    assert out["guaranteed_share"] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(
    "bad",
    [
        ["--set", "wool"],
        ["--set", "colour=pink"],
        ["--set", "wool=0"],
        ["--variant", "nope"],
        ["--rules", "howling-wolf", "--variant", "my-friend-mr-wolf"],
    ],
)
def test_bad_rule_options_fail_as_in_rules_new_and_solve_nothing(home, bad):
    r = runner.invoke(app, ["solve", "shave-a-sheep", "--set", "max_wool=3", *bad, "--json"])
    assert r.exit_code == 2 and r.stdout == "" and "Traceback" not in r.output
    same = ["--from" if arg == "--rules" else arg for arg in bad]
    new = runner.invoke(
        app, ["rules", "new", "x", "--game", "shave-a-sheep", "--set", "max_wool=3", *same]
    )
    assert new.exit_code == 2
    assert r.stderr == new.stderr  # the same message, naming the flag
    assert "--set" in r.stderr or "--variant" in r.stderr
    assert not (home / "cache").exists() and not (home / "rules").exists()


# -- --table alone --------------------------------------------------------------------------
def _no_solutions(*args, **kwargs):
    raise AssertionError("the table alone needs no minimax and no guaranteed shares")


@pytest.mark.parametrize("bots", [["greedy", "random"], ["greedy", "random", "greedy"]])
def test_table_alone_solves_only_the_table(home, monkeypatch, bots):
    monkeypatch.setattr(solve_cli, "_solutions", _no_solutions)
    players = len(bots)
    out = _json(["-p", str(players), "--set", "wool=8", "--table", ",".join(bots)])
    ev = S.evaluate(ShaveRules(wool=8), players, bots)
    assert out["kind"] == "table"
    assert out["table"]["bots"] == bots
    assert out["table"]["win_share"] == pytest.approx(list(ev.shares), abs=1e-12)
    assert "win_share" not in out and "guaranteed_share" not in out and "cached" not in out
    assert {"game", "players", "rules", "rules_name", "positions", "seconds", "plan"} <= set(out)
    steps = [s["what"] for s in out["plan"]["steps"]]
    assert steps == [f"the exact evaluation of {','.join(bots)}"]
    assert not (home / "cache").exists()  # nothing was solved, nothing cached


def test_table_alone_says_what_was_not_computed(home, monkeypatch):
    monkeypatch.setattr(solve_cli, "_solutions", _no_solutions)
    r = runner.invoke(app, ["solve", "shave-a-sheep", "-p", "3", "--set", "wool=8", "-t", "greedy"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    assert "only the table was evaluated" in text
    assert "for the guaranteed shares, run without --table or add --against" in text
    assert "guaranteed share (all others" not in text


def test_a_perfect_seat_or_against_still_solves(home):
    out = _json(["-p", "3", "--set", "wool=8", "--table", "perfect,greedy,greedy"])
    assert out["kind"] == "guaranteed" and len(out["guaranteed_share"]) == 3
    assert out["table"]["win_share"][0] >= out["guaranteed_share"][0] - 1e-9
    out = _json(["-p", "2", "--set", "wool=8", "--table", "greedy", "--against", "random"])
    assert out["kind"] == "minimax" and "table" in out and "against" in out


# -- the plan and progress ------------------------------------------------------------------
def test_a_small_solve_is_quiet_off_a_terminal(home):
    r = runner.invoke(app, ["solve", "shave-a-sheep", "-p", "3", "--set", "wool=8", "--json"])
    assert r.exit_code == 0 and r.stderr == ""
    assert json.loads(r.stdout)["plan"]["large"] is False


def test_a_large_plan_is_said_up_front_and_shows_progress_off_a_terminal(home, monkeypatch):
    monkeypatch.setattr(solve_plan, "LARGE_SECONDS", 0.0)  # every plan counts as large
    r = runner.invoke(
        app,
        ["solve", "shave-a-sheep", "-p", "3", "--set", "wool=8", "-t", "greedy", "-a", "random"],
    )
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    positions = S.count_positions(ShaveRules(wool=8), 3)
    assert err[0].startswith(f"plan: {positions:,} positions (3 players): every seat's")
    assert re.match(r"memory: about [\d,.]+ (MB|GB) planned", err[1])
    assert re.match(r"time: about \d+-\d+ s \(2\.4-6 µs a position", err[2])
    progress = err[3:]
    for label in ("guaranteed shares, all seats", "exact evaluation", "best response, seat 2"):
        mine = [line for line in progress if line.startswith(label + ":")]
        assert mine and re.search(r": 100% \([\d,]+/[\d,]+ positions\), \d+ s$", mine[-1])
    assert "plan:" not in r.stdout and "100%" not in r.stdout


def test_with_json_the_plan_and_progress_stay_off_stdout(home, monkeypatch):
    monkeypatch.setattr(solve_plan, "LARGE_SECONDS", 0.0)
    r = runner.invoke(app, ["solve", "shave-a-sheep", "-p", "2", "--set", "wool=8", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)  # stdout is the answer, whole
    assert out["plan"]["large"] is True and out["plan"]["positions"] == out["positions"]
    assert "plan:" in r.stderr and "minimax: 100%" in r.stderr


def test_the_plan_of_a_four_player_solve(home, monkeypatch):
    space = S.Space(ShaveRules(variants=["howling-wolf"]), 4)
    plan = solve_plan.plan_solve(space, ["greedy"], [], solutions=True, use_cache=True)
    assert plan.positions == 52_966_116 and plan.large
    rotating = plan.steps[0]
    assert rotating.label == "every seat's guaranteed share, in one solve"
    assert rotating.positions == 52_966_116 and not rotating.cached
    # the memory is the solver's own plan: just below it the solver refuses, at it it accepts
    _, size0 = space.seat0_index()
    monkeypatch.setenv("SHEEPFOLD_SOLVER_MAX_GB", str((rotating.peak_bytes + 4096) / 2**30))
    S._check_rotating_memory(space, size0, seats_held=1)
    monkeypatch.setenv("SHEEPFOLD_SOLVER_MAX_GB", str((rotating.peak_bytes - 4096) / 2**30))
    with pytest.raises(S.SolverError):
        S._check_rotating_memory(space, size0, seats_held=1)
    assert 3.9 * 2**30 < plan.memory < 4.3 * 2**30  # docs/solver.md: 4.1 GB planned
    text = "\n".join(plan.lines())
    assert "plan: 52,966,116 positions (4 players)" in text and "then the exact evaluation" in text


def test_the_time_estimate_covers_the_benchmarks():
    # bench/bench_solver.py on 2 cores: 3 players every seat 3.8 s, 4 players 130-230 s
    for players, measured in ((3, [3.8]), (4, [130.0, 230.0])):
        space = S.Space(ShaveRules(), players)
        plan = solve_plan.Plan(players, space.size, [solve_plan.Step("all seats", space.size, 0)])
        lo, hi = plan.seconds
        assert all(lo <= m <= hi for m in measured)
    assert solve_plan._duration(132, 318) == "2-5 min"
    assert solve_plan._duration(3.7, 8.8) == "4-9 s"


def test_plain_progress_prints_every_tenth_once():
    out = io.StringIO()
    prog = solve_plan.PlainProgress(out)
    with prog:
        task = prog.add_task("minimax", total=1000)
        for done in range(0, 1001, 7):
            prog.update(task, completed=done, total=1000)
        prog.update(task, completed=1000, total=1000)
        prog.update(task, completed=1000, total=1000)
    lines = out.getvalue().splitlines()
    assert [int(re.search(r": (\d+)%", line).group(1)) for line in lines] == list(
        range(10, 101, 10)
    )
    assert lines[-1].startswith("minimax: 100% (1,000/1,000 positions), ")


def test_analyse_keeps_stdout_for_json_when_the_plan_is_large(home, tmp_path, monkeypatch):
    from sheepfold.bots import make_bot
    from sheepfold.core.play import play_game
    from sheepfold.core.records import save_record
    from sheepfold.games import make

    game = make("shave-a-sheep", players=2, rules={"wool": 8})
    st = play_game(game, [make_bot("greedy", game, 0, 1), make_bot("random", game, 1, 2)], seed=3)
    path = save_record(st, tmp_path / "game.json", ["Gre", "Ran"])
    monkeypatch.setattr(solve_plan, "LARGE_SECONDS", 0.0)
    r = runner.invoke(app, ["analyse", str(path), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["game"] == "shave-a-sheep"
    assert r.stderr.startswith("plan: ") and "minimax: 100%" in r.stderr
