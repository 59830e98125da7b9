"""The perfect bot and the `solve` / `analyse` commands."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sheepfold.bots import available_bots, make_bot
from sheepfold.bots.perfect import PerfectShave
from sheepfold.cli.main import app
from sheepfold.core.play import play_game
from sheepfold.core.records import save_record
from sheepfold.games import make
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules

runner = CliRunner()


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path))
    return tmp_path


def test_perfect_is_registered():
    assert "perfect" in available_bots("shave-a-sheep")
    assert "perfect" not in available_bots("dolly-crush")


def test_perfect_bot_plays_the_minimax_policy(home):
    rules = ShaveRules(wool=7, variants=["howling-wolf"])
    game = make("shave-a-sheep", players=2, rules=rules)
    sol = S.solve_minimax(rules)
    # the bot's own decisions, tabulated through act(view), are worth exactly the minimax value
    # against a minimax opponent and at least it against anything
    for seat in range(2):
        bot = make_bot("perfect", game, seat, 1)
        pol = S.Policy(
            "table", S.tabulate(sol.space, seat, lambda st, b=bot, s=seat: b.act(st.observe(s)))
        )
        pols = [sol, sol]
        pols[seat] = pol
        ev = S.evaluate(sol.space, 2, pols)
        want = sol.start_value if seat == 0 else 1 - sol.start_value
        assert abs(ev.shares[seat] - want) < 1e-9
        pols[1 - seat] = "greedy"
        ev = S.evaluate(sol.space, 2, pols)
        assert ev.shares[seat] >= want - 1e-9


def test_perfect_best_response_with_a_known_table(home):
    rules = ShaveRules(wool=8, max_wool=3)
    game = make("shave-a-sheep", players=3, rules=rules)
    bot = make_bot("perfect:greedy,-,random", game, 1, 0)
    br = S.best_response(rules, 3, 1, ["greedy", None, "random"])
    space = br.space
    pol = S.Policy("table", S.tabulate(space, 1, lambda st: bot.act(st.observe(1))))
    ev = S.evaluate(space, 3, ["greedy", pol, "random"])
    assert abs(ev.shares[1] - br.start_value) < 1e-9
    # without a table: the guaranteed-share policy, which secures its share against anything
    plain = PerfectShave(game, 1, 0)
    g = S.guaranteed_share(rules, 3, 1)
    pol = S.Policy("table", S.tabulate(space, 1, lambda st: plain.act(st.observe(1))))
    for others in (["greedy", "random"], ["random", "random"]):
        ev = S.evaluate(space, 3, [others[0], pol, others[1]])
        assert ev.shares[1] >= g.start_value - 1e-9
    with pytest.raises(ValueError):
        make_bot("perfect:greedy,-", game, 1, 0)
    # the same tables by name in an exact evaluation
    ev = S.evaluate(rules, 3, ["greedy", "perfect:greedy,-,random", "random"])
    assert abs(ev.shares[1] - br.start_value) < 1e-9
    ev = S.evaluate(rules, 3, ["greedy", "perfect", "random"])
    assert ev.shares[1] >= g.start_value - 1e-9


def test_perfect_bot_in_engine_games(home):
    game = make("shave-a-sheep", players=2, rules={"wool": 12, "variants": ["my-friend-mr-wolf"]})
    for seed in range(3):
        st = play_game(
            game, [make_bot("perfect", game, 0, seed), make_bot("random", game, 1, seed)], seed=seed
        )
        assert st.is_terminal()


def _rules_file(tmp_path, **opts):
    p = tmp_path / "tiny.toml"
    lines = ['game = "shave-a-sheep"', 'name = "tiny"']
    for k, v in opts.items():
        lines.append(f"{k} = {json.dumps(v)}")
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_solve_command_and_cache(home, tmp_path):
    rf = _rules_file(tmp_path, wool=10, variants=["cutting-costs"])
    r1 = runner.invoke(app, ["solve", "shave-a-sheep", "--players", "2", "--rules", rf, "--json"])
    assert r1.exit_code == 0, r1.output
    a = json.loads(r1.stdout)
    assert a["cached"] is False and a["positions"] > 0
    sol = S.solve_minimax(ShaveRules(wool=10, variants=["cutting-costs"]))
    assert abs(a["win_share"][0] - sol.start_value) < 1e-9
    r2 = runner.invoke(app, ["solve", "shave-a-sheep", "-p", "2", "--rules", rf, "--json"])
    b = json.loads(r2.stdout)
    assert b["cached"] is True and b["win_share"] == a["win_share"]
    assert list((home / "cache" / "solver").glob("*.npz"))
    r3 = runner.invoke(app, ["solve", "shave-a-sheep", "-p", "2", "--rules", rf])
    assert (
        r3.exit_code == 0
        and "from the cache" in r3.stdout
        and "first-player advantage" in r3.stdout
    )


def test_solve_three_players_table_and_against(home, tmp_path):
    rf = _rules_file(tmp_path, wool=7, max_wool=3)
    r = runner.invoke(
        app,
        [
            "solve",
            "shave-a-sheep",
            "-p",
            "3",
            "--rules",
            rf,
            "--table",
            "greedy",
            "--against",
            "random",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    rules = ShaveRules(wool=7, max_wool=3)
    for seat in range(3):
        assert (
            abs(out["guaranteed_share"][seat] - S.guaranteed_share(rules, 3, seat).start_value)
            < 1e-9
        )
    assert abs(sum(out["table"]["win_share"]) - 1) < 1e-9
    for row in out["against"]["seats"]:
        assert row["best_response_share"] >= row["perfect_share"] - 1e-9
        assert row["perfect_share"] >= out["guaranteed_share"][row["seat"]] - 1e-9


@pytest.mark.parametrize(
    "args,msg",
    [
        (["solve", "dolly-crush"], "only Shave a Sheep"),
        (["solve", "shave-a-sheep", "-p", "5"], "--players must be"),
        (["solve", "shave-a-sheep", "--rules", "no-such-rules"], ""),
        (["solve", "shave-a-sheep", "-p", "3", "--table", "greedy,random"], "--table"),
        (["solve", "shave-a-sheep", "-p", "3", "--against", "nobody"], "no bot named"),
    ],
)
def test_solve_errors_are_one_line(home, args, msg):
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert msg in r.output


def test_analyse(home, tmp_path):
    rules = {"wool": 10, "variants": ["howling-wolf"]}
    game = make("shave-a-sheep", players=2, rules=rules)
    st = play_game(game, [make_bot("perfect", game, 0, 1), make_bot("random", game, 1, 2)], seed=3)
    path = save_record(st, tmp_path / "game.json", ["Pat", "Ran"])
    r = runner.invoke(app, ["analyse", str(path), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    decisions = rep["decisions"]
    assert decisions and all(d["cost"] >= 0 for d in decisions)
    assert all(d["cost"] < 1e-9 for d in decisions if d["seat"] == 0)  # perfect never errs
    assert rep["summary"]["per_seat"][0]["mistakes"] == 0
    d = decisions[0]
    assert d["value_best"] == max(d["options"].values())
    r = runner.invoke(app, ["analyse", str(path), "--all"])
    assert r.exit_code == 0 and "summary" in r.stdout
    bad = tmp_path / "bad.json"
    rec = json.loads(path.read_text())
    rec["moves"][0]["roll"] = "purple"
    bad.write_text(json.dumps(rec))
    r = runner.invoke(app, ["analyse", str(bad), "--json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["move"] == 0
    r = runner.invoke(app, ["analyse", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "Traceback" not in r.output
