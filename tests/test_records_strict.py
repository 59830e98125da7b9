"""Issue 16, records: strict types, bounded integers, one-line errors (exit 2, never a
traceback), and names from a record never reaching the terminal raw (docs/spec/records.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.records import RecordError, parse_record, replay
from sheepfold.rulesets import parse_ruleset

RECORDS = Path(__file__).parent / "records"
RUNNER = CliRunner()
HUGE = "9" * 5000  # beyond Python's 4300-digit int-to-str limit


def shave(**changes: Any) -> dict[str, Any]:
    rec = json.loads((RECORDS / "shave-rulebook.json").read_text())
    rec.update(changes)
    return rec


def dolly(**changes: Any) -> dict[str, Any]:
    rec = json.loads((RECORDS / "dolly-cross.json").read_text())
    rec.update(changes)
    return rec


def refused(text: str, *, field: str) -> dict[str, Any]:
    """Replay ``text`` every way the CLI offers: exit 2, one JSON line / one error line."""
    result = RUNNER.invoke(app, ["replay", "-", "--json"], input=text)
    assert result.exit_code == 2, result.output
    assert result.stdout.count("\n") == 1 and "Traceback" not in result.output
    out = json.loads(result.stdout)
    assert out["error"].startswith(field + ":"), out
    assert "\n" not in out["error"] and len(out["error"]) < 300
    result = RUNNER.invoke(app, ["replay", "-"], input=text)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    return out


# -- 1. strict types -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rec", "field", "words"),
    [
        (shave(rules={"wool": "30"}), "rules.wool", 'expected an integer, got the string "30"'),
        (shave(rules={"variants": "cutting-costs"}), "rules.variants", "expected a list"),
        (shave(rules={"wool": True}), "rules.wool", "expected an integer, got true"),
        (shave(rules={"wool": 30.0}), "rules.wool", "expected an integer, got the number 30.0"),
        (shave(rules={"max_wool": "5"}), "rules.max_wool", "expected an integer"),
        (shave(rules={"die": "white"}), "rules.die", "expected a list"),
        (shave(rules={"variants": [1]}), "rules.variants", "unknown variant 1"),
        (dolly(rules={"white_points": "1"}), "rules.white_points", "expected an integer"),
        (shave(seed="7"), "seed", 'expected an integer, got the string "7"'),
        (shave(seed=7.5), "seed", "expected an integer, got the number 7.5"),
        (shave(seed=True), "seed", "expected an integer, got true"),
    ],
    ids=lambda x: x if isinstance(x, str) and "." in x else None,
)
def test_a_wrong_type_is_refused_naming_the_field(rec: dict, field: str, words: str) -> None:
    out = refused(json.dumps(rec), field=field)
    assert words in out["error"] and out["move"] is None


def test_json_lists_still_fill_the_rules_tuples() -> None:
    rules = {"wool": 12, "variants": ["cutting-costs"], "die": ["white", "x2", "gray/pink"]}
    out = replay(shave(rules=rules, moves=[]))
    assert out.error is None
    assert out.state.game.rules.variants == ("cutting-costs",)
    assert out.state.game.rules.die == ("white", "x2", "gray/pink")
    graded = {"dog_swaps": {"bobtail": 2, "border-collie": [1, 2, 3, 4]}}
    assert replay(dolly(rules=graded, moves=[])).error is None


def test_rule_sets_from_toml_and_python_stay_lenient() -> None:
    """Only records are strict: TOML gives real ints and lists, Python callers may pass one
    variant as a string."""
    import tomllib

    rs = parse_ruleset(
        tomllib.loads('game = "shave-a-sheep"\nwool = 20\nvariants = ["cutting-costs"]\n'), "t"
    )
    assert rs.rules.wool == 20 and rs.rules.variants == ("cutting-costs",)
    from sheepfold.games import make

    assert make("shave-a-sheep", variants="cutting-costs").rules.cutting_costs


# -- 2. bounded integers ---------------------------------------------------------------------
def with_huge(rec: dict[str, Any], path: str) -> str:
    """The record as JSON text with a 5000-digit integer at ``path``."""
    parts = path.split(".")
    node: Any = rec
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node.setdefault(p, {})
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = "@HUGE@"
    else:
        node[last] = "@HUGE@"
    return json.dumps(rec).replace('"@HUGE@"', HUGE)


@pytest.mark.parametrize(
    ("rec", "path", "move"),
    [
        (shave(), "seed", None),
        (shave(), "rules.wool", None),
        (shave(), "moves.2.target", 2),
        (shave(), "moves.0.roll", 0),
        (shave(), "players.1.name", None),
        (shave(), "comment", None),  # an unknown field too: nothing may print it
        (dolly(), "moves.1.dog", 1),
        (dolly(), "rules.dog_swaps.bobtail", None),
    ],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_a_5000_digit_integer_is_a_one_line_error(rec: dict, path: str, move: int | None) -> None:
    text = with_huge(rec, path)
    out = refused(text, field=path)
    assert "5000 digits" in out["error"] and out["move"] == move and out["field"] == path


def test_a_huge_integer_from_a_file_and_from_python(tmp_path: Path) -> None:
    f = tmp_path / "big.json"
    f.write_text(with_huge(shave(), "seed"))
    result = RUNNER.invoke(app, ["replay", str(f), "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["field"] == "seed"
    result = RUNNER.invoke(app, ["analyse", str(f), "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["field"] == "seed"
    rec = shave()
    rec["moves"][2]["target"] = 10**5000
    with pytest.raises(RecordError) as e:
        parse_record(rec)
    assert e.value.field == "moves.2.target" and e.value.move == 2


@pytest.mark.parametrize("seed", [-1, 0, 2**63, 2**128 - 1, -(10**39)])
def test_every_seed_the_format_allows_replays(seed: int) -> None:
    assert replay(shave(seed=seed, moves=[])).error is None


def test_a_seed_of_41_digits_is_refused() -> None:
    refused(json.dumps(shave(seed=10**40)), field="seed")


# -- 3. names are sanitised wherever a terminal shows them ------------------------------------
EVIL = "\x1b]0;pwned\x07\x1b[31mann\u202e [red]x[/red]"


def test_replay_prints_names_without_escape_codes_or_markup() -> None:
    rec = shave(players=[{"name": EVIL}, {"name": "bob"}])
    assert parse_record(rec).players[0].name == EVIL  # the record keeps the name as given
    result = RUNNER.invoke(app, ["replay", "-"], input=json.dumps(rec))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "[red]x[/red]" in out  # the markup shows literally
    assert "\\x1b]0;pwned\\x07" in out  # and the escape code as visible text


def test_error_messages_never_carry_escape_codes() -> None:
    rec = shave()
    rec["moves"][0]["roll"] = "\x1b[2J[bold]wh\u2066ite"
    result = RUNNER.invoke(app, ["replay", "-"], input=json.dumps(rec))
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\u2066" not in result.output
    assert result.stderr.count("\n") == 1


def test_safe_text() -> None:
    from sheepfold.cli.common import safe_markup, safe_text

    assert safe_text("ann") == "ann" and safe_text("Zoë 羊") == "Zoë 羊"
    assert safe_text("a\x1b[31mb\x07\x9b\n") == "a\\x1b[31mb\\x07\\x9b\\x0a"
    assert safe_text("\u202aA\u202e\u2066\u2069") == "\\u202aA\\u202e\\u2066\\u2069"
    assert safe_markup("[red]x[/red]") == "\\[red]x\\[/red]"
