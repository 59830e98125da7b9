"""One base for rule files: ``from = NAME`` (docs/designer.md, "Which rules a file starts from").

A rule file without ``from`` starts from the game's default rules (Dolly Crush: dolly-graded),
the same on every path that reads one: play and the lab (``--rules FILE``), the lobby (an
uploaded file, a table on a rule set with options), the gallery (its differences and lab card
against the base the rule set was made from). A bad ``from`` is an error naming the file and
its line.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.core.protocol import RulesError
from sheepfold.core.words import from_data
from sheepfold.games.dolly_crush.rules import GRADED_DOG_SWAPS, RULEBOOK_DOG_SWAPS
from sheepfold.rulesets import (
    RULEBOOK,
    base_words,
    closest_base,
    find_ruleset,
    read_ruleset_file,
    with_options,
)

GRADED = {b: list(c) for b, c in GRADED_DOG_SWAPS.items()}
PRINTED = {b: list(c) for b, c in RULEBOOK_DOG_SWAPS.items()}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def dogs(rules: object) -> dict[str, list[int]]:
    return {b: list(c) for b, c in rules.dog_swaps.items()}  # type: ignore[attr-defined]


# -- a file's base ---------------------------------------------------------------------------
def test_a_file_without_from_starts_from_the_default_rules(tmp_path: Path) -> None:
    rs = read_ruleset_file(write(tmp_path / "rows.toml", 'game = "dolly-crush"\nrows = 4\n'))
    assert rs.base == "dolly-graded"
    assert rs.rules.rows == 4 and dogs(rs.rules) == GRADED  # one change, not two
    graded = find_ruleset("dolly-graded", "dolly-crush").rules
    assert rs.rules.model_dump(exclude={"name", "rows"}) == graded.model_dump(
        exclude={"name", "rows", "description"}
    ) | {"description": None}


def test_from_names_the_base(tmp_path: Path) -> None:
    text = 'game = "dolly-crush"\nfrom = "rulebook"\nrows = 4\n'
    printed = read_ruleset_file(write(tmp_path / "a.toml", text)).rules
    assert printed.rows == 4 and dogs(printed) == PRINTED
    text = 'game = "dolly-crush"\nfrom = "dolly-rulebook"\ncascades = true\n'
    rs = read_ruleset_file(write(tmp_path / "b.toml", text))
    assert rs.base == "dolly-rulebook" and rs.rules.cascades and dogs(rs.rules) == PRINTED
    assert rs.rules.name is None  # a base's name and description are not carried


def test_a_table_adds_to_the_bases_entries_and_graded_cards_follow(tmp_path: Path) -> None:
    text = 'game = "dolly-crush"\ndogs_per_player = 5\n[dog_swaps]\nbobtail = 2\n'
    rules = read_ruleset_file(write(tmp_path / "five.toml", text)).rules
    assert dogs(rules) == {**{b: [1, 2, 3, 4, 5] for b in GRADED}, "bobtail": [2] * 5}


def test_shave_files_start_from_the_rulebook_or_a_named_preset(tmp_path: Path) -> None:
    rs = read_ruleset_file(write(tmp_path / "w.toml", 'game = "shave-a-sheep"\nwool = 40\n'))
    assert rs.base == RULEBOOK and rs.rules.wool == 40
    text = 'game = "shave-a-sheep"\nfrom = "race-to-twelve"\nwool = 40\n'
    rs = read_ruleset_file(write(tmp_path / "r.toml", text))
    race = find_ruleset("race-to-twelve").rules
    assert rs.rules.wool == 40 and rs.rules.target == race.target == 12
    assert rs.rules.shear_cost == race.shear_cost and rs.rules.rerolls == race.rerolls


def test_a_json_file_names_its_base_too(tmp_path: Path) -> None:
    data = {"game": "dolly-crush", "from": "dolly-rulebook", "cols": 6}
    rules = read_ruleset_file(write(tmp_path / "c.json", json.dumps(data))).rules
    assert rules.cols == 6 and dogs(rules) == PRINTED


# -- a bad base: the file and the line ------------------------------------------------------
def test_an_unknown_base_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", 'game = "dolly-crush"\n# a comment\nfrom = "nope"\n')
    with pytest.raises(RulesError) as e:
        read_ruleset_file(path)
    assert str(e.value).startswith(f"{path}, line 3: from: no dolly-crush rule set named 'nope'")
    assert "dolly-graded" in str(e.value) and "rulebook" in str(e.value)


def test_a_base_of_the_other_game_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "y.toml", 'game = "dolly-crush"\nfrom = "howling-wolf"\n')
    with pytest.raises(RulesError, match=r"y\.toml, line 2: from: 'howling-wolf' is a "):
        read_ruleset_file(path)


def test_a_base_that_is_not_a_name_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "z.json", '{"game": "dolly-crush",\n "from": "../../etc/x"}\n')
    with pytest.raises(RulesError, match=r"z\.json, line 2: from: give the name of the rule set"):
        read_ruleset_file(path)


def test_a_cycle_is_refused_with_the_way_round(home: Path) -> None:
    a = write(home / "rules" / "a.toml", 'game = "dolly-crush"\nname = "a"\nfrom = "b"\n')
    write(home / "rules" / "b.toml", 'game = "dolly-crush"\nname = "b"\n\nfrom = "a"\n')
    with pytest.raises(RulesError) as e:
        read_ruleset_file(a)
    text = str(e.value)
    assert text.startswith(f"{home / 'rules' / 'b.toml'}, line 4: from: 'a' ")
    assert "a.toml → " in text and "cannot start from itself" in text
    me = write(home / "rules" / "me.toml", 'game = "dolly-crush"\nname = "me"\nfrom = "me"\n')
    with pytest.raises(RulesError, match=r"me\.toml, line 3: from: 'me' "):
        read_ruleset_file(me)


def test_a_users_rule_set_is_a_base_by_name(home: Path, tmp_path: Path) -> None:
    write(home / "rules" / "wide.toml", 'game = "dolly-crush"\nname = "wide"\ncols = 7\n')
    text = 'game = "dolly-crush"\nfrom = "wide"\nrows = 4\n'
    rules = read_ruleset_file(write(tmp_path / "w.toml", text)).rules
    assert (rules.rows, rules.cols) == (4, 7) and dogs(rules) == GRADED


# -- rules new --from ... --set: every option --------------------------------------------------
def test_rules_new_from_graded_with_more_dog_cards(tmp_path: Path) -> None:
    from sheepfold.cli.main import app

    out = tmp_path / "five.toml"
    args = ["rules", "new", "five", "--game", "dolly-crush", "--from", "dolly-graded"]
    res = CliRunner().invoke(app, [*args, "--set", "dogs_per_player=5", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rs = read_ruleset_file(out)
    assert rs.base == "dolly-graded" and 'from = "dolly-graded"' in out.read_text()
    assert rs.rules.dogs_per_player == 5 and dogs(rs.rules) == {b: [1, 2, 3, 4, 5] for b in GRADED}
    assert rs.rules.description is None  # not the graded edition's "four dog cards"
    three = with_options("dolly-crush", find_ruleset("dolly-graded").rules, ["dogs_per_player=3"])
    assert dogs(three) == {b: [1, 2, 3] for b in GRADED}


@pytest.mark.parametrize(
    "setting",
    [
        "rows=4",
        "cols=6",
        "min_line=4",
        "diagonals=true",
        "match_colour=true",
        "types=4",
        "white_per_type=12",
        "black_per_type=6",
        "white_points=2",
        "black_points=3",
        "dogs_per_player=6",
        "dog_swaps={bobtail=2}",
        'swaps="up-to"',
        "cascades=true",
        "end_points=30",
        "rounds=6",
        "max_cleanup_rounds=50",
        'adjacent=["orthogonal", "diagonal"]',
        'refill="gravity"',
        "bonuses=[{length=4, times=2}]",
        "points={ram={white=2}}",
    ],
)
def test_every_dolly_option_goes_on_the_graded_edition(setting: str) -> None:
    from sheepfold.games.dolly_crush.rules import DollyRules

    graded = find_ruleset("dolly-graded", "dolly-crush").rules
    rules = with_options("dolly-crush", graded, [setting])
    key = setting.partition("=")[0]
    assert getattr(rules, key) != getattr(graded, key)
    if key not in ("dogs_per_player", "dog_swaps"):  # the graded cards stay as they were
        assert rules.dog_swaps == graded.dog_swaps
    assert set(DollyRules.model_fields) - {"name", "description", "shape", "combinations"} >= {key}


def test_uneven_cards_with_another_count_say_what_to_give() -> None:
    base = with_options("dolly-crush", None, ["dog_swaps={bobtail=[1, 1, 2, 4]}"])
    with pytest.raises(RulesError, match=r"bobtail cards it starts from show 1, 1, 2, 4 swaps"):
        with_options("dolly-crush", base, ["dogs_per_player=5"])


def test_a_written_file_reads_back_on_its_base(tmp_path: Path) -> None:
    from sheepfold.rulesets import RuleSet, save_ruleset

    graded = find_ruleset("dolly-graded").rules
    rules = with_options("dolly-crush", graded, ["rows=4"], name="four")
    for suffix in (".toml", ".json"):
        path = save_ruleset(
            RuleSet("dolly-crush", rules, "x", "dolly-graded"), tmp_path / f"f{suffix}"
        )
        back = read_ruleset_file(path)
        assert back.base == "dolly-graded" and back.rules.key() == rules.key()
    # a base that sets an option these rules leave unset: the file starts from the rulebook
    race = find_ruleset("race-to-twelve").rules
    unset = with_options("shave-a-sheep", race, [], name="untargeted").model_copy(
        update={"target": None}
    )
    path = save_ruleset(RuleSet("shave-a-sheep", unset, "x", "race-to-twelve"), tmp_path / "u.toml")
    assert read_ruleset_file(path).rules.target is None


# -- every path the same -------------------------------------------------------------------------
ROWS4 = 'game = "dolly-crush"\nrows = 4\n'


def test_play_lab_lobby_and_gallery_read_a_file_alike(tmp_path: Path) -> None:
    from sheepfold.cli.common import default_rules
    from sheepfold.server.rules_api import check

    path = write(tmp_path / "rows.toml", ROWS4)
    file_rules = read_ruleset_file(path).rules  # the gallery's publish reads it so
    play = default_rules("dolly-crush", str(path))[1]  # play and the lab: --rules FILE
    assert play.key() == file_rules.key()
    import tomllib

    lobby = check("dolly-crush", tomllib.loads(ROWS4), file=True)  # an uploaded file
    assert lobby["ok"] and lobby["rules"]["dog_swaps"] == GRADED
    assert lobby["options"]["rows"] == 4
    editor = check("dolly-crush", {"rows": 4})  # the editor's options: on the rulebook
    assert editor["ok"] and editor["rules"]["dog_swaps"] == PRINTED
    bad = check("dolly-crush", {"from": "howling-wolf", "rows": 4})
    assert not bad["ok"] and "is a shave-a-sheep rule set" in bad["detail"]


def test_a_lobby_table_on_a_rule_set_takes_any_option() -> None:
    from sheepfold.server.table_requests import CreateTable, resolve_spec

    seats = [{"kind": "human"}, {"kind": "human"}]
    req = CreateTable(
        game="dolly-crush", ruleset="dolly-graded", rules={"dogs_per_player": 5}, seats=seats
    )
    spec = resolve_spec(req)
    assert spec["rules"]["dog_swaps"] == {b: [1, 2, 3, 4, 5] for b in GRADED}
    assert spec["rules"]["name"] == "dolly-graded"


def test_the_gallery_describes_a_rule_set_against_its_base() -> None:
    from sheepfold.server.gallery import _version_values, base_of

    flock = {"rows": 4, "dog_swaps": GRADED}  # a lobby-made 4 x 5 flock on the graded cards
    assert base_of("dolly-crush", flock) == ("dolly-graded", "the graded edition")
    values = _version_values("dolly-crush", flock, "")
    assert len(values["differences"]) == 1 and "4 rows" in values["differences"][0]
    printed = {"rows": 4}
    assert base_of("dolly-crush", printed) == ("rulebook", "the rulebook")
    assert closest_base("shave-a-sheep", {"wool": 40})[0] == RULEBOOK
    assert base_words("shave-a-sheep", "cutting-costs") == "the cutting costs rules"


def test_the_lab_card_measures_against_the_base() -> None:
    from sheepfold.lab.card import _jobs
    from sheepfold.server.gallery import base_options

    spec = {
        "game": "dolly-crush",
        "rules": {"rows": 4, "dog_swaps": GRADED},
        "base": base_options("dolly-crush", "dolly-graded"),
        "base_words": "the graded edition",
        "games": 4,
    }
    a, b = _jobs(spec, 2)
    assert a.rules["dog_swaps"] == b.rules["dog_swaps"] == GRADED
    assert a.rules.get("rows", 3) == 3 and b.rules["rows"] == 4


def test_the_lab_cards_verdict_and_plot_name_the_base(monkeypatch: pytest.MonkeyPatch) -> None:
    import sheepfold.lab.runner as runner
    from sheepfold.lab import card
    from sheepfold.server.gallery import base_of, base_options

    monkeypatch.setattr(runner, "resolve_engine", lambda job: "engine")  # no kernel to compile
    rules = {"rows": 4, "dog_swaps": GRADED}
    name, words = base_of("dolly-crush", rules)
    spec = {
        "game": "dolly-crush",
        "rules": rules,
        "base": base_options("dolly-crush", name),
        "base_words": words,
        "games": 4,
        "exact_limit": 1000,
    }
    out = card.card(spec, progress=lambda _: None)
    assert from_data(out["card"]["base"]) == "the graded edition"  # words stored as data
    assert "from the graded edition to this rule set" in from_data(out["card"]["verdict"])
    assert "the graded edition" in out["plot"] and "rulebook" not in out["plot"]


def test_a_shape_on_the_default_base_says_the_flocks_size_itself(tmp_path) -> None:
    """The default base's rows and columns give way to a file's shape (its size is the shape's)."""
    from sheepfold.rulesets import parse_ruleset

    text = 'game = "dolly-crush"\nname = "t"\nshape = ["XXXX", "XXXX", "XXXX", "XXXX"]\n'
    rs = parse_ruleset(tomllib.loads(text), "t.toml", text=text)
    assert (rs.rules.rows, rs.rules.cols) == (4, 4)
