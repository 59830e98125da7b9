"""`sheepfold rules show`: every option, a file that reads back as the same rules."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.games import rules_class
from sheepfold.games.shave_a_sheep.rules import HOWLING_DIE, STANDARD_DIE, ShaveRules
from sheepfold.rulesets import (
    RuleSet,
    builtin_rulesets,
    read_ruleset_file,
    save_ruleset,
)

runner = CliRunner()


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _show(name: str) -> str:
    r = runner.invoke(app, ["rules", "show", name])
    assert r.exit_code == 0, r.output
    return r.stdout


def _round_trip(text: str, path, want: RuleSet) -> None:
    """The text is a rule-set file `rules check` accepts, read back as the very same rules."""
    path.write_text(text)
    r = runner.invoke(app, ["rules", "check", str(path)])
    assert r.exit_code == 0, r.output
    back = read_ruleset_file(path)
    assert back.game == want.game
    assert back.rules == want.rules


def _shown_options(text: str) -> set[str]:
    """The options the text shows: set (``key = ``), unset (``# key = ``) or a table."""
    found = re.findall(r"^(?:# )?([a-z_]+) = |^\[([a-z_]+)\]$", text, re.M)
    return {a or b for a, b in found}


@pytest.mark.parametrize("preset", builtin_rulesets(), ids=lambda r: r.name)
def test_show_spells_out_every_option_and_reads_back(home, tmp_path, preset):
    text = _show(preset.name)
    assert set(rules_class(preset.game).model_fields) <= _shown_options(text)
    _round_trip(text, tmp_path / f"{preset.name}.toml", preset)


@pytest.mark.parametrize(
    "name,die", [("shave-rulebook", STANDARD_DIE), ("howling-wolf", HOWLING_DIE)]
)
def test_show_gives_the_die_in_use_and_what_unset_options_mean(home, name, die):
    text = _show(name)
    assert f"# die = {list(die)!r}".replace("'", '"') in text
    assert re.search(r"^# reaction_weights = \[1\.0, 1\.0, 1\.0\]$", text, re.M)
    assert re.search(r"^# max_turns = \d+$", text, re.M)
    assert "no limit" in text and "equal chances" in text
    assert re.search(r"^variants = \[", text, re.M) and re.search(r"^wool = 30$", text, re.M)


def test_show_dolly_crush_has_every_breed_and_count(home):
    text = _show("dolly-graded")
    for key in ("white_per_type", "black_per_type", "white_points", "black_points"):
        assert re.search(rf"^{key} = \d+$", text, re.M)
    assert re.search(r"^max_cleanup_rounds = 1000$", text, re.M)
    assert "[dog_swaps]\n" in text and "border-collie = [1, 2, 3, 4]" in text


def test_show_a_rule_set_with_every_option_set_reads_back(home, tmp_path):
    rules = ShaveRules(
        name='odd "one"',
        description="two lines\nof text",
        wool=12,
        max_wool=3,
        variants=["howling-wolf", "cutting-costs"],
        die=["white/gray", "x2", "pink"],
        reaction_weights=[1, 2.5],
        max_turns=77,
    )
    rs = RuleSet("shave-a-sheep", rules, "test")
    path = save_ruleset(rs, tmp_path / "odd.toml")
    text = _show(str(path))
    assert re.search(r"^die = \[\"white/gray\", \"x2\", \"pink\"\]$", text, re.M)
    assert re.search(r"^reaction_weights = \[1\.0, 2\.5\]$", text, re.M)
    assert re.search(r"^max_turns = 77$", text, re.M)
    _round_trip(text, tmp_path / "again.toml", rs)
