"""Bad numbers and unbounded counts (issue 50): NaN, infinities and a number too large for a
float are refused wherever a rule set is read, naming where they are; every count a rule set,
the lab and the other commands take has an upper bound, with one clear error, no traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sheepfold.bots import BotOptionError, check_options
from sheepfold.cli.main import app
from sheepfold.core.files import FileRefused, parse_document
from sheepfold.games.shave_a_sheep.rules import MAX_TURNS, ShaveRules

runner = CliRunner()
HUGE = 2**63  # the max_turns: one past the largest 64-bit integer


@pytest.mark.parametrize(
    ("kind", "text", "said"),
    [
        ("json", '{"wool": NaN}', "wool: not a number (NaN)"),
        ("json", '{"wool": Infinity}', "wool: not a finite number (Infinity)"),
        ("json", '{"wool": -Infinity}', "wool: not a finite number (-Infinity)"),
        ("json", '{"wool": 1e400}', "wool: not a finite number (1e400)"),
        ("json", '{"reaction_weights": [1, 2, NaN]}', "reaction_weights.2: not a number (NaN)"),
        (
            "json",
            '{"verbs": {"steal": {"effects": [{"cost": -1e999}]}}}',
            "verbs.steal.effects.0.cost: not a finite number (-1e999)",
        ),
        ("json", "NaN", "not a number (NaN)"),
        ("toml", "wool = nan", "wool: not a number (nan)"),
        ("toml", "wool = -inf", "wool: not a finite number (-inf)"),
        ("toml", "[end]\nturns_each = +inf", "end.turns_each: not a finite number (+inf)"),
        ("toml", "reaction_weights = [1.0, 1e400]", "reaction_weights.1: not a finite number"),
    ],
)
def test_a_number_that_is_no_finite_number_is_refused_where_it_is(kind, text, said):
    with pytest.raises(FileRefused) as refused:
        parse_document(text, kind, "the rule set")
    assert said in str(refused.value) and str(refused.value).startswith("the rule set: ")


def test_finite_numbers_read_as_before():
    data = parse_document('{"wool": 12, "reaction_weights": [1.5, 1e300, -0.0]}', "json", "x")
    assert data == {"wool": 12, "reaction_weights": [1.5, 1e300, -0.0]}
    assert type(data["reaction_weights"][0]) is float
    assert parse_document("wool = 12\nreaction_weights = [0.5]", "toml", "x") == {
        "wool": 12,
        "reaction_weights": [0.5],
    }


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("r.toml", 'game = "shave-a-sheep"\nwool = nan\n', "wool: not a number (nan)"),
        (
            "r.json",
            '{"game": "shave-a-sheep", "reaction_weights": [1, 1e400]}',
            "reaction_weights.1: not a finite number (1e400)",
        ),
        (
            "r.toml",
            f'game = "shave-a-sheep"\nmax_turns = {HUGE}\n',
            f"max_turns: must be at most 1000000, not {HUGE}",
        ),
    ],
)
def test_rules_check_refuses_a_rule_file_with_a_bad_number_in_one_line(tmp_path, name, text, said):
    path = tmp_path / name
    path.write_text(text)
    for args in (["rules", "check", str(path)], ["lab", "run", "shave-a-sheep", "-r", str(path)]):
        r = runner.invoke(app, [*args, "-n", "4"] if args[0] == "lab" else args)
        assert r.exit_code == 2, r.output
        assert said in r.output and "Traceback" not in r.output and r.exception is not None


def test_max_turns_has_an_upper_bound():
    assert ShaveRules(max_turns=MAX_TURNS).max_turns == MAX_TURNS
    for bad in (MAX_TURNS + 1, HUGE):
        with pytest.raises(ValueError, match=f"max_turns\n.*less than or equal to {MAX_TURNS}"):
            ShaveRules(max_turns=bad)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["lab", "run", "shave-a-sheep", "--max-turns", str(HUGE)], "--max-turns"),
        (["lab", "run", "shave-a-sheep", "--max-turns", "0"], "--max-turns"),
        (["lab", "run", "shave-a-sheep", "--games", str(10**20)], "--games"),
        (["lab", "run", "shave-a-sheep", "--seed", "-5"], "--seed"),
        (["lab", "run", "shave-a-sheep", "--seed", str(2**70)], "--seed"),
        (["lab", "run", "shave-a-sheep", "--workers", str(10**20)], "--workers"),
        (["lab", "run", "shave-a-sheep", "--chunk-size", str(10**20)], "--chunk-size"),
        (["lab", "compare", "shave-a-sheep", "a", "b", "--games", str(10**9)], "--games"),
        (["lab", "sweep", "shave-a-sheep", "wool=5..9", "--max-turns", str(HUGE)], "--max-turns"),
        (["lab", "search", "shave-a-sheep", "--trials", str(10**6)], "--trials"),
        (["lab", "search", "shave-a-sheep", "--recheck-games", str(10**9)], "--recheck-games"),
        (["lab", "depth", "shave-a-sheep", "--kingmaking-games", str(10**9)], "--kingmaking"),
        (["lab", "record", "x.parquet", str(10**20)], "game_index"),
        (["tournament", "shave-a-sheep", "-b", "random", "--workers", str(10**20)], "--workers"),
        (["tournament", "shave-a-sheep", "-b", "random", "--games", str(10**20)], "--games"),
        (["solve", "shave-a-sheep", "--games", str(10**20)], "--games"),
        (["solve", "shave-a-sheep", "--seed", "-1"], "--seed"),
        (["analyse", "x.json", "--top", str(10**20)], "--top"),
    ],
)
def test_every_count_of_the_commands_has_a_bound(args, option):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "Invalid value" in r.output and option in r.output
    assert "Traceback" not in r.output and not isinstance(r.exception, OverflowError)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_a_bot_option_that_is_no_finite_number_is_refused(value):
    with pytest.raises(BotOptionError, match=f"iterations={value}.*out of bounds|out of bounds"):
        check_options("dolly-crush", f"expert:iterations={value}")
