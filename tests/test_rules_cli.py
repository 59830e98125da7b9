"""`sheepfold rules show` (every option, a file that reads back as the same rules) and
`sheepfold rules new` with --set and --variant (the parsing `solve` shares)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.protocol import RulesError
from sheepfold.games import rules_class
from sheepfold.games.shave_a_sheep.rules import HOWLING_DIE, STANDARD_DIE, ShaveRules
from sheepfold.rulesets import (
    RuleSet,
    builtin_rulesets,
    find_ruleset,
    parse_assignment,
    read_ruleset_file,
    save_ruleset,
    with_options,
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


def _round_trip(text: str, path, want: RuleSet, check: bool = True) -> None:
    """The text is a rule-set file `rules check` accepts, read back as the very same rules."""
    path.write_text(text)
    if check:
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
    _round_trip(text, tmp_path / "again.toml", rs, check=False)  # see the test below


def test_rules_check_accepts_reaction_weights_for_one_player_count(home, tmp_path):
    path = tmp_path / "weights.toml"
    path.write_text('game = "shave-a-sheep"\nname = "w"\nwool = 8\nreaction_weights = [1.0, 2.0]\n')
    r = runner.invoke(app, ["rules", "check", str(path)])
    assert r.exit_code == 0, r.output


def test_new_takes_set_and_variant(home):
    r = runner.invoke(
        app,
        [
            "rules",
            "new",
            "short",
            "--game",
            "shave-a-sheep",
            "--from",
            "howling-wolf",
            "--set",
            "wool=12",
            "--set",
            "max_wool = 4",
            "--set",
            "description=a short game",
            "--variant",
            "cutting-costs",
        ],
    )
    assert r.exit_code == 0, r.output
    rs = find_ruleset("short", "shave-a-sheep")
    assert rs.rules == ShaveRules(
        name="short",
        description="a short game",
        wool=12,
        max_wool=4,
        variants=["howling-wolf", "cutting-costs"],
    )


@pytest.mark.parametrize(
    "args,msg",
    [
        (["--set", "wool"], "--set 'wool': write KEY=VALUE"),
        (["--set", "=3"], "--set '=3': write KEY=VALUE"),
        (["--set", "colour=pink"], "shave-a-sheep has no option 'colour'"),
        (["--set", "wool=0"], "--set: wool: must be at least 1, not 0"),
        (["--set", "wool=lots"], '--set: wool: expected an integer, got the string "lots"'),
        (["--variant", "nope"], "--variant: variants: unknown variant 'nope'"),
        (
            ["--variant", "howling-wolf", "--variant", "my-friend-mr-wolf"],
            "--variant: Howling Wolf and My friend Mr. Wolf",
        ),
        (["--set", "wool=12", "--variant", "nope"], "unknown variant 'nope'"),
    ],
)
def test_new_refuses_bad_options_and_writes_nothing(home, args, msg):
    r = runner.invoke(app, ["rules", "new", "bad", "--game", "shave-a-sheep", *args])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert msg in " ".join(r.stderr.split())
    assert not (home / "rules").exists()


def test_variant_on_a_game_without_variants(home):
    r = runner.invoke(
        app, ["rules", "new", "x", "--game", "dolly-crush", "--variant", "howling-wolf"]
    )
    assert r.exit_code == 2 and "dolly-crush has no variants" in r.stderr


@pytest.mark.parametrize(
    "item,want",
    [
        ("wool=12", ("wool", 12)),
        (" wool = 12 ", ("wool", 12)),
        ("reaction_weights=[1, 2]", ("reaction_weights", [1, 2])),
        ('die=["white"]', ("die", ["white"])),
        ("description=a longer game", ("description", "a longer game")),
        ('description="quoted = text"', ("description", "quoted = text")),
        ("variants=cutting-costs", ("variants", "cutting-costs")),
    ],
)
def test_parse_assignment(item, want):
    assert parse_assignment(item) == want


def test_with_options_applies_sets_then_variants():
    base = find_ruleset("cutting-costs", "shave-a-sheep").rules
    got = with_options(
        "shave-a-sheep", base, ["variants=howling-wolf", "wool=9"], ["cutting-costs"], name="n"
    )
    assert got.variants == ("howling-wolf", "cutting-costs") and got.wool == 9 and got.name == "n"
    assert with_options("shave-a-sheep", None, [], []) == ShaveRules()
    with pytest.raises(RulesError, match="--set"):
        with_options("shave-a-sheep", None, ["max_wool=101"])


@pytest.mark.parametrize("name", ["../evil", "a/b", "", ".hidden", "has space", "x" * 65])
def test_new_refuses_a_name_that_is_not_a_plain_file_name(home, tmp_path, name):
    r = runner.invoke(app, ["rules", "new", name, "--game", "shave-a-sheep"])
    assert r.exit_code == 2
    assert "rule-set name" in r.output or "needs a name" in r.output
    assert not (tmp_path / "evil.toml").exists() and not (home / "rules").exists()


def test_new_refuses_a_built_in_name(home):
    r = runner.invoke(app, ["rules", "new", "cutting-costs", "--game", "shave-a-sheep"])
    assert r.exit_code == 2
    assert "built-in rule set's name" in " ".join(r.output.split())
    assert not (home / "rules").exists()


def test_new_replaces_a_rule_set_only_with_force(home):
    args = ["rules", "new", "mine", "--game", "shave-a-sheep"]
    assert runner.invoke(app, [*args, "--set", "wool=12"]).exit_code == 0
    path = home / "rules" / "mine.toml"
    before = path.read_text()
    r = runner.invoke(app, [*args, "--set", "wool=14"])
    assert r.exit_code == 2 and "--force" in r.output
    assert path.read_text() == before  # nothing lost
    assert runner.invoke(app, [*args, "--set", "wool=14", "--force"]).exit_code == 0
    assert find_ruleset("mine").rules.wool == 14
    assert [p.name for p in (home / "rules").iterdir()] == ["mine.toml"]  # no temporary left


def test_rules_check_takes_a_name_too(home):  # type: ignore[no-untyped-def]
    """`rules check NAME`: a built-in or the user's rule set by name (the user's read from its
    file, so a broken one says what is wrong), not only a file."""
    r = runner.invoke(app, ["rules", "new", "greedier", "--game", "shave-a-sheep",
                            "--set", "wolf_takes=half", "--set", "wolf_to=roller"])  # fmt: skip
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["rules", "check", "greedier"])
    assert r.exit_code == 0 and "a valid shave-a-sheep rule set named 'greedier'" in r.output
    r = runner.invoke(app, ["rules", "check", "howling-wolf"])
    assert r.exit_code == 0 and "named 'howling-wolf'" in r.output
    (home / "rules" / "broken.toml").write_text('game = "shave-a-sheep"\nwool = 0\n')
    r = runner.invoke(app, ["rules", "check", "broken"])
    assert r.exit_code == 2 and "wool" in r.output
    r = runner.invoke(app, ["rules", "check", "nosuch"])
    assert r.exit_code == 2 and "no rule set named 'nosuch'" in r.output
