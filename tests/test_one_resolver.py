"""One path for every rule set (docs/spec/rule-language.md, "The base"): a built-in, a file, a
saved name, a gallery version, a ``from`` chain and ``--set``/``--vary`` on top of any of them
go through one resolver (:func:`sheepfold.rulesets.resolve`) and read back exactly, on every
front end: the CLI, the lab, the solver, the web API and :func:`sheepfold.make`.

Before this, a rule set whose effects move wool (``{ move = 1, from = ..., to = ... }``) could
not be built on: the base was written without its ``from`` and read back as a move with no
source, so ``--set``, ``lab sweep``/``search``, ``rules new --from FILE``, a file starting from
a saved rule set and a lobby table on one all failed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import sheepfold
from sheepfold.cli.main import app
from sheepfold.core.protocol import RulesError
from sheepfold.games import make, parse_rules
from sheepfold.rulesets import (
    TEXTS,
    RuleSet,
    find_ruleset,
    rebase,
    rebased_options,
    resolve,
    save_ruleset,
    with_options,
)
from test_dolly_language import programs as dolly_programs
from test_shave_language_props import rule_files as shave_programs

ROOT = Path(__file__).resolve().parents[1]
STEAL = ROOT / "docs" / "rulesets" / "shave-a-sheep" / "steal-face.toml"
runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def steals(rules: Any) -> dict[str, Any]:
    return rules.verbs["steal"].effects[0].model_dump(by_alias=True)


def test_a_rule_set_that_moves_wool_can_be_built_on_with_set() -> None:
    rules = with_options("shave-a-sheep", find_ruleset(str(STEAL)).rules, ["wool=20"])
    assert rules.wool == 20
    assert steals(rules) == {"move": 1, "from": "target pile", "to": "my pile"}
    # the base dumped by alias keeps the move's source (the first bug)
    assert rebased_options("shave-a-sheep", rules, {})["verbs"]["steal"]["effects"][0] == {
        "move": 1,
        "from": "target pile",
        "to": "my pile",
    }


def test_rules_new_from_a_file_that_moves_wool_and_a_file_on_the_saved_one(
    tmp_path: Path, home: Path
) -> None:
    r = runner.invoke(
        app,
        ["rules", "new", "stealer", "--game", "shave-a-sheep", "--from", str(STEAL)]
        + ["--set", "wool=20"],
    )
    assert r.exit_code == 0, r.output
    saved = find_ruleset("stealer", "shave-a-sheep").rules
    assert saved.wool == 20 and steals(saved)["from"] == "target pile"
    on_saved = tmp_path / "on-saved.toml"
    on_saved.write_text('game = "shave-a-sheep"\nfrom = "stealer"\nmax_wool = 4\n')
    r = runner.invoke(app, ["rules", "check", str(on_saved)])
    assert r.exit_code == 0, r.output
    rules = find_ruleset(str(on_saved)).rules
    assert (rules.wool, rules.max_wool, steals(rules)["from"]) == (20, 4, "target pile")


def test_play_and_solve_take_set_on_a_file_that_moves_wool(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    r = runner.invoke(
        app,
        ["play", "shave-a-sheep", "--rules", str(STEAL), "--set", "wool=12"]
        + ["--seat", "bot:greedy", "--seat", "bot:random", "--seed", "3", "--save", str(save)],
    )
    assert r.exit_code == 0, r.output
    record = json.loads(save.read_text())
    assert record["rules"]["wool"] == 12
    assert record["rules"]["verbs"]["steal"]["effects"][0]["from"] == "target pile"


def test_lab_sweep_and_search_build_on_a_file_that_moves_wool() -> None:
    r = runner.invoke(
        app,
        ["lab", "sweep", "shave-a-sheep", "--rules", str(STEAL), "--set", "wool=10..14:4"]
        + ["--games", "40", "--bot", "random", "--json"],
    )
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output[r.output.index("{") :])["rows"]
    assert [row["value"] for row in rows] == [10, 14]
    r = runner.invoke(
        app,
        ["lab", "search", "shave-a-sheep", "--rules", str(STEAL), "--vary", "wool=10..40"]
        + ["--trials", "3", "--goal", "length=20", "--recheck", "1", "--workers", "1"]
        + ["--games", "30", "--recheck-games", "30", "--engine", "engine"],
    )
    assert r.exit_code == 0, r.output


def test_make_takes_what_the_command_line_takes() -> None:
    assert make("dolly-crush", rules="dolly-graded").rules.name == "dolly-graded"
    assert sheepfold.make("shave-a-sheep", 3, rules=str(STEAL)).rules.name == "steal-face"
    assert sheepfold.make("shave-a-sheep", rules=STEAL).rules.name == "steal-face"  # a Path
    on = sheepfold.make("shave-a-sheep", rules={"from": "howling-wolf", "wool": 12})
    assert on.rules.variants == ("howling-wolf",) and on.rules.wool == 12
    # mappings without a base stay the printed rules with those options, and keywords add
    assert sheepfold.make("dolly-crush", rules={"rows": 4}).rules == parse_rules(
        "dolly-crush", {"rows": 4}
    )
    assert sheepfold.make("shave-a-sheep", rules="cutting-costs", wool=9).rules.wool == 9
    with pytest.raises(RulesError, match="no rule set named 'nope'"):
        make("shave-a-sheep", rules="nope")
    with pytest.raises(RulesError, match="give a rule set's name, a rule file's path"):
        make("shave-a-sheep", rules=3)


def test_resolve_reads_every_way_of_naming_a_rule_set(tmp_path: Path) -> None:
    graded = find_ruleset("dolly-graded", "dolly-crush").rules
    assert resolve("dolly-crush", "dolly-graded") == graded
    assert resolve("dolly-crush", graded) is graded
    assert resolve("dolly-crush", "rulebook") == parse_rules("dolly-crush", None)
    assert resolve("dolly-crush", None, start="dolly-graded") == graded
    # a mapping is a rule file's options: without from, on the start given
    four = resolve("dolly-crush", {"rows": 4}, start="dolly-graded")
    assert four.rows == 4 and four.dog_swaps == graded.dog_swaps
    assert resolve("dolly-crush", {"rows": 4}).dog_swaps == parse_rules("dolly-crush", {}).dog_swaps
    assert resolve("shave-a-sheep", str(STEAL), ["wool=20"]).wool == 20
    with pytest.raises(RulesError, match="these rules are for dolly-crush"):
        resolve("shave-a-sheep", {"game": "dolly-crush"})


# -- one serialiser: every rule set reads back the same and plays the same game ---------------
def same_game(game: str, players: int, a: Any, b: Any, seed: int) -> None:
    """Both rules play the very same game: the same history and state, move after move."""
    sa, sb = (
        make(game, players, rules=a).new_initial_state(seed),
        make(game, players, rules=b).new_initial_state(seed),
    )
    rng = random.Random(seed)
    for _ in range(300):
        assert sa == sb
        if sa.is_terminal():
            break
        if sa.is_chance_node():
            action = sa.sample_chance(rng)
        else:
            legal = sa.legal_actions()
            assert legal == sb.legal_actions()
            action = rng.choice(legal)
        sa.apply(action)
        sb.apply(action)
    assert list(sa.history) == list(sb.history)


def round_trips(game: str, rules: Any, tmp: Path) -> list[Any]:
    """``rules`` through every serialiser a rule set meets: a record's options, a rule file
    (TOML and JSON, every option spelled out), a base rebased with nothing and with --set."""
    texts = {k: getattr(rules, k) for k in TEXTS}  # a rule set's own, never its base's
    back = [
        parse_rules(game, json.loads(json.dumps(rules.options())) | texts),
        rebase(game, rules, texts),
        resolve(game, rules, **texts),
    ]
    for suffix in (".toml", ".json"):
        path = tmp / f"drawn{suffix}"
        save_ruleset(RuleSet(game, rules, "drawn"), path, force=True)
        back.append(resolve(game, path))
    return back


SETTINGS = settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)


@SETTINGS
@given(drawn=shave_programs(), seed=st.integers(0, 2**16))
def test_any_shave_rule_set_reads_back_equal_and_plays_the_same(
    drawn: tuple[int, dict[str, Any]], seed: int, tmp_path: Path
) -> None:
    players, data = drawn
    try:
        rules = parse_rules("shave-a-sheep", {**data, "name": "drawn", "max_turns": 60})
    except RulesError:
        assume(False)
        raise
    assume(players in rules.player_counts())
    for back in round_trips("shave-a-sheep", rules, tmp_path):
        assert back == rules
        same_game("shave-a-sheep", players, rules, back, seed)


@SETTINGS
@given(data=dolly_programs(), seed=st.integers(0, 2**16))
def test_any_dolly_rule_set_reads_back_equal_and_plays_the_same(
    data: dict[str, Any], seed: int, tmp_path: Path
) -> None:
    rules = parse_rules("dolly-crush", {**data, "name": "drawn"})
    for back in round_trips("dolly-crush", rules, tmp_path):
        assert back == rules
        same_game("dolly-crush", 2, rules, back, seed)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "docs" / "rulesets").rglob("*.toml")),
    ids=lambda p: p.stem,
)
def test_every_example_file_reads_back_equal(path: Path, tmp_path: Path) -> None:
    rs = find_ruleset(str(path))
    for back in round_trips(rs.game, rs.rules, tmp_path):
        assert back == rs.rules
