"""Issue 48, strict values: a rule option of the wrong type is refused (never converted), with
its place and the type it takes, however the rules come (a TOML or JSON rule file, ``--set``,
the games' ``parse_rules``); every problem of a rule set is said at once; and no pydantic
phrase reaches a reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sheepfold.core.protocol import RulesError
from sheepfold.games import check_rules, parse_rules, rules_class
from sheepfold.rulesets import read_ruleset_file, with_options

#: (game, option, its value in TOML, the value, what the refusal says after "OPTION: ")
WRONG_TYPES = [
    ("shave-a-sheep", "wool", '"40"', "40", 'expected an integer, got the string "40"'),
    ("dolly-crush", "diagonals", '"yes"', "yes", 'expected true or false, got the string "yes"'),
    ("shave-a-sheep", "max_wool", "2.5", 2.5, "expected an integer, got the number 2.5"),
    ("shave-a-sheep", "max_wool", "2.0", 2.0, "expected an integer, got the number 2.0"),
    ("shave-a-sheep", "wool", "true", True, "expected an integer, got true"),
    ("pig-pen", "target", '"30"', "30", 'expected an integer, got the string "30"'),
    ("shave-a-sheep", "reaction_weights", '["1", 1]', ["1", 1], "0: expected a number"),
]
IDS = [f"{g}-{k}={t}" for g, k, t, _, _ in WRONG_TYPES]

#: pydantic's own phrases: none may reach a reader
PYDANTIC = (
    "Input should",
    "validation",
    "Tuple should",
    "List should",
    "String should",
    "Extra inputs",
    "Value error",
    "Assertion failed",
    "Input tag",
    "valid integer",
    "Field required",
)


def _refusal(call: Any) -> str:
    with pytest.raises(RulesError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(("game", "key", "toml", "value", "words"), WRONG_TYPES, ids=IDS)
def test_a_toml_rule_file_refuses_a_wrong_type(
    tmp_path: Path, game: str, key: str, toml: str, value: Any, words: str
) -> None:
    path = tmp_path / "house.toml"
    path.write_text(f'game = "{game}"\n{key} = {toml}\n')
    said = _refusal(lambda: read_ruleset_file(path))
    assert f"{path}: {key}" in said and words in said, said


@pytest.mark.parametrize(("game", "key", "toml", "value", "words"), WRONG_TYPES, ids=IDS)
def test_a_json_rule_file_refuses_a_wrong_type(
    tmp_path: Path, game: str, key: str, toml: str, value: Any, words: str
) -> None:
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"game": game, key: value}))
    said = _refusal(lambda: read_ruleset_file(path))
    assert f"{path}: {key}" in said and words in said, said


@pytest.mark.parametrize(("game", "key", "toml", "value", "words"), WRONG_TYPES, ids=IDS)
def test_set_refuses_a_wrong_type(game: str, key: str, toml: str, value: Any, words: str) -> None:
    said = _refusal(lambda: with_options(game, None, [f"{key}={toml}"]))
    assert said.startswith(f"--set: {key}") and words in said, said


@pytest.mark.parametrize(("game", "key", "toml", "value", "words"), WRONG_TYPES, ids=IDS)
def test_parse_rules_refuses_a_wrong_type(
    game: str, key: str, toml: str, value: Any, words: str
) -> None:
    said = _refusal(lambda: parse_rules(game, {key: value}))
    assert said.startswith(f"rules.{key}") and words in said, said


def test_set_takes_a_bare_word_as_text_and_refuses_it_for_a_switch() -> None:
    """``--set diagonals=yes`` (no quotes) is the text "yes", not true."""
    said = _refusal(lambda: with_options("dolly-crush", None, ["diagonals=yes"]))
    assert said == '--set: diagonals: expected true or false, got the string "yes"'
    assert with_options("dolly-crush", None, ["diagonals=true"]).diagonals is True


def test_what_json_itself_gives_stays_valid() -> None:
    """Lists where tuples are declared and whole numbers as weights are JSON's own: kept valid,
    in Python and in a record's strict JSON."""
    options = {
        "variants": ["howling-wolf"],
        "die": ["white", "x2", "gray/green"],
        "reaction_weights": [1, 2],
    }
    rules = parse_rules("shave-a-sheep", options)
    assert rules.reaction_weights == (1.0, 2.0) and rules.die == ("white", "x2", "gray/green")
    strict = rules_class("shave-a-sheep").model_validate_json(
        json.dumps(options), strict=True, context={"strict": True}
    )
    assert strict == rules
    dolly = {"adjacent": ["orthogonal"], "dog_swaps": {"bobtail": [1, 2, 3, 4]}}
    assert parse_rules("dolly-crush", dolly).dog_swaps["bobtail"] == (1, 2, 3, 4)


def test_a_file_with_three_wrong_fields_reports_all_three(tmp_path: Path) -> None:
    path = tmp_path / "three.toml"
    path.write_text('game = "shave-a-sheep"\nwool = "40"\nmax_wool = 2.5\nfinal_shear = "yes"\n')
    said = _refusal(lambda: read_ruleset_file(path))
    assert said == (
        f'{path}: wool: expected an integer, got the string "40"; '
        "max_wool: expected an integer, got the number 2.5; "
        'final_shear: expected true or false, got the string "yes"'
    )


def test_problems_between_options_come_with_the_problems_of_fields() -> None:
    """A model's checks between options run for the options that are fine on their own, every
    one of them, not only the first."""
    _, problems = check_rules(
        "shave-a-sheep",
        {
            "wool": "40",
            "variants": ["howling-wolf", "my-friend-mr-wolf"],
            "max_wool": 3,
            "auto_shear": 4,
        },
    )
    assert [where for where, _ in problems] == ["rules.wool", "rules", "rules"]
    assert "Howling Wolf and My friend Mr. Wolf" in problems[1][1]
    assert "auto_shear is 4" in problems[2][1]
    _, problems = check_rules(
        "dolly-crush", {"combinations": [{"kind": "line"}], "min_line": 4, "diagonals": True}
    )
    assert [p.split(" ")[0] for _, p in problems] == ["min_line", "diagonals"]


def test_a_check_reading_a_refused_option_is_left_out() -> None:
    """A refused option is not replaced by its default in the checks between options: two dog
    cards a breed with a wrong-typed dogs_per_player is one problem, the type."""
    _, problems = check_rules(
        "dolly-crush", {"dogs_per_player": "2", "dog_swaps": {"bobtail": [1, 2]}}
    )
    assert problems == [
        ("rules.dogs_per_player", 'expected an integer, got the string "2"'),
    ]


def test_a_value_no_member_of_a_union_takes_is_one_problem() -> None:
    verbs = {"steal": {"effects": [{"move": 1.5, "from": "target pile", "to": "my pile"}]}}
    _, problems = check_rules("shave-a-sheep", {"verbs": verbs, "die": ["steal"]})
    assert problems == [
        (
            "rules.verbs.steal.effects.0.move",
            "expected an integer or a string, got the number 1.5",
        )
    ]


#: bad rule sets of every kind, each refused
BAD: list[tuple[str, dict[str, Any]]] = [
    ("shave-a-sheep", {"wool": 0}),
    ("shave-a-sheep", {"wool": 2000}),
    ("shave-a-sheep", {"wool": "x"}),
    ("shave-a-sheep", {"wool": []}),
    ("shave-a-sheep", {"wool": {}}),
    ("shave-a-sheep", {"wool": None}),
    ("shave-a-sheep", {"wool": 10**50}),
    ("shave-a-sheep", {"variants": "nope"}),
    ("shave-a-sheep", {"variants": [1]}),
    ("shave-a-sheep", {"die": []}),
    ("shave-a-sheep", {"die": "white"}),
    ("shave-a-sheep", {"die": [1]}),
    ("shave-a-sheep", {"die": ["purple"]}),
    ("shave-a-sheep", {"reaction_weights": []}),
    ("shave-a-sheep", {"reaction_weights": ["a", 1]}),
    ("shave-a-sheep", {"rerolls": -1}),
    ("shave-a-sheep", {"target": 0}),
    ("shave-a-sheep", {"wolf_takes": 0}),
    ("shave-a-sheep", {"wolf_to": "moon"}),
    ("shave-a-sheep", {"final_shear": 1}),
    ("shave-a-sheep", {"name": 3}),
    ("shave-a-sheep", {"description": []}),
    ("shave-a-sheep", {"colour": "pink"}),
    ("shave-a-sheep", {"verbs": 3}),
    ("shave-a-sheep", {"verbs": {"Bad": {}}}),
    ("shave-a-sheep", {"verbs": {"x": {"words": ""}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"words": "w" * 300}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"choose": "me"}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"effects": [{}]}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"effects": [{"move": {}}]}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"effects": [{"shear": "my", "odd": 1}]}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"effects": "shear"}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"race": {"then": ["grow"] * 5}}}, "die": ["x"]}),
    ("shave-a-sheep", {"verbs": {"x": {"when": [1]}}, "die": ["x"]}),
    ("shave-a-sheep", {"triggers": [{"on": "dawn", "effects": [{"shear": "my"}]}]}),
    ("shave-a-sheep", {"triggers": [{"on": "turn start", "effects": []}]}),
    ("shave-a-sheep", {"triggers": [{}]}),
    ("shave-a-sheep", {"triggers": [{"on": "turn start", "effects": [{"shear": "my"}]}] * 9}),
    ("shave-a-sheep", {"setup": "x"}),
    ("shave-a-sheep", {"setup": {"first": 9}}),
    ("shave-a-sheep", {"setup": {"sheep": "2"}}),
    ("shave-a-sheep", {"setup": {"teams": [[0]]}}),
    ("shave-a-sheep", {"setup": {"teams": [[0, 1], [2, 3], [0, 2]]}}),
    ("shave-a-sheep", {"end": {"turns_each": 0}}),
    ("shave-a-sheep", {"end": {"middle_empty": "no"}}),
    ("dolly-crush", {"rows": 0}),
    ("dolly-crush", {"rows": "3"}),
    ("dolly-crush", {"diagonals": "yes"}),
    ("dolly-crush", {"adjacent": []}),
    ("dolly-crush", {"adjacent": ["up"]}),
    ("dolly-crush", {"adjacent": ["orthogonal", "diagonal", "orthogonal"]}),
    ("dolly-crush", {"combinations": []}),
    ("dolly-crush", {"combinations": [{"kind": "lines"}]}),
    ("dolly-crush", {"combinations": [{}]}),
    ("dolly-crush", {"combinations": ["line"]}),
    ("dolly-crush", {"combinations": [{"kind": "line", "directions": []}]}),
    ("dolly-crush", {"combinations": [{"kind": "line", "length": 1}]}),
    ("dolly-crush", {"combinations": [{"kind": "line", "colour": "yes"}]}),
    ("dolly-crush", {"combinations": [{"kind": "pattern"}]}),
    ("dolly-crush", {"points": {"x": {}}}),
    ("dolly-crush", {"points": {"merino": {"white": "1"}}}),
    ("dolly-crush", {"points": {"merino": 3}}),
    ("dolly-crush", {"bonuses": [{"length": 1}]}),
    ("dolly-crush", {"bonuses": [{"length": 3, "times": 2, "extra": 1}]}),
    ("dolly-crush", {"dog_swaps": {"bobtail": "x"}}),
    ("dolly-crush", {"swaps": "some"}),
    ("dolly-crush", {"refill": 3}),
    ("dolly-crush", {"shape": "X"}),
    ("dolly-crush", {"end_points": 0.5}),
    ("pig-pen", {"target": 1}),
    ("pig-pen", {"faces": "6"}),
    ("pig-pen", {"max_turns": 0}),
]


@pytest.mark.parametrize(("game", "options"), BAD, ids=lambda x: json.dumps(x)[:60])
def test_no_pydantic_phrase_reaches_a_reader(game: str, options: dict[str, Any]) -> None:
    rules, problems = check_rules(game, options)
    assert rules is None and problems, options
    for where, said in problems:
        assert said and not any(p.lower() in said.lower() for p in PYDANTIC), (where, said)
        assert "[" not in where.split(".")[-1], where  # no pydantic member names ("int", ...)


def test_a_list_with_a_refused_item_is_not_also_called_too_short() -> None:
    _, problems = check_rules("dolly-crush", {"adjacent": ["up"]})
    assert problems == [
        ("rules.adjacent.0", "expected 'orthogonal' or 'diagonal', got the string \"up\"")
    ]
