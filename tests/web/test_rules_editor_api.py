"""The rule editor's API for the rule language's parts (server/rules_api.py): the schema as
nested controls with words for labels, the check's messages at the path of the value they name,
the rule files' caps, tables played with a rule set's own verbs, and the gallery's differences
in the game's words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import tomli_w
from pydantic import BaseModel, ConfigDict, Field, model_validator

from polling import wait_until
from sheepfold.core.files import MAX_DEPTH, MAX_RULES_BYTES, FileRefused, parse_document
from sheepfold.core.protocol import RulesError
from sheepfold.rulesets import read_ruleset_file
from sheepfold.server.rules_api import MAX_BODY, TOO_BIG

GAME = "shave-a-sheep"
STEAL = {
    "choose": "another player",
    "when": ["target pile >= 1"],
    "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
}
#: a rule set with a verb of its own, on a face of its die
OWN_VERB = {"die": ["white", "x2", "white/pink", "steal"], "verbs": {"steal": STEAL}}


def nodes(ctl: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every control of a tree, with its path (``verbs.*.effects.*.from``)."""
    yield path, ctl
    for f in ctl.get("fields", ()):
        yield from nodes(f, f"{path}.{f['name']}".lstrip("."))
    if "item" in ctl:
        yield from nodes(ctl["item"], f"{path}.*")
    if "value" in ctl:
        yield from nodes(ctl["value"], f"{path}.*")


def tree(fields: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {p: c for f in fields for p, c in nodes(f, f["name"])}


def cli_message(options: dict[str, Any], tmp_path: Path) -> str:
    """What `sheepfold rules check` says about these options (the file name left out)."""
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps({"game": GAME, **options}))
    with pytest.raises(RulesError) as e:
        read_ruleset_file(path)
    return str(e.value).removeprefix(f"{path}: ")


# -- the schema, as nested controls ----------------------------------------------------------
def test_shaves_language_parts_are_nested_controls(live_server):
    data = live_server.http.get(f"/api/rules/{GAME}").json()
    t = tree(data["fields"])
    assert t["verbs"]["kind"] == "map" and t["verbs"]["noun"] == "verb"
    verb = t["verbs.*"]
    assert verb["kind"] == "object"
    assert [f["name"] for f in verb["fields"]] == ["choose", "when", "effects", "race", "words"]
    assert (
        t["verbs.*.choose"] | {"kind": "choice", "choices": ["another player"]}
        == t["verbs.*.choose"]
    )
    assert t["verbs.*.when"]["kind"] == "list" and t["verbs.*.when"]["noun"] == "condition"
    assert t["verbs.*.when.*"]["kind"] == "text"
    effects = t["verbs.*.effects"]
    assert effects | {"kind": "list", "noun": "effect", "max_items": 8} == effects
    assert t["verbs.*.effects.*"]["kind"] == "object"
    # an amount is a number or words: digits are sent as a number
    assert (
        t["verbs.*.effects.*.move"] | {"kind": "text", "numbers": True}
        == t["verbs.*.effects.*.move"]
    )
    assert t["verbs.*.effects.*.from"]["kind"] == "text"  # the rule file's key, not from_
    assert t["verbs.*.effects.*.piece"] | {"kind": "integer", "min": 1, "max": 2, "default": 1}
    assert t["verbs.*.race"]["kind"] == "object" and t["verbs.*.race"]["nullable"]
    assert t["triggers"] | {"kind": "list", "noun": "trigger", "nullable": True} == t["triggers"]
    on = t["triggers.*.on"]
    assert on["kind"] == "choice" and on["required"] and "turn start" in on["choices"]
    assert t["triggers.*.effects"]["required"] and t["triggers.*.effects"]["min_items"] == 1
    assert t["setup"]["kind"] == "object" and t["setup"]["nullable"]
    assert t["setup.teams"]["kind"] == "list" and t["setup.teams.*"]["kind"] == "list"
    assert t["setup.teams.*.*"]["kind"] == "integer"
    assert t["end.turns_each"]["label"] == "Turns each"
    die = t["die"]
    assert die | {"kind": "list", "noun": "face", "max_items": None, "nullable": True} == die
    assert t["die.*"]["kind"] == "text"
    # wolf_takes is a word or a number: one text, the words offered
    assert t["wolf_takes"] | {"kind": "text", "numbers": True, "suggestions": ["all", "half"]}
    # words for people everywhere: no key with an underscore is a label
    for path, ctl in t.items():
        if "label" in ctl:
            assert "_" not in ctl["label"] and ctl["label"][:1].isupper(), path
    assert data["limits"] == {
        "max_bytes": MAX_RULES_BYTES,
        "max_depth": MAX_DEPTH,
        "too_big": TOO_BIG,
    }


class Combination(BaseModel):
    model_config = ConfigDict(extra="forbid")
    shape: Literal["line", "square"] = "line"
    length: int = Field(default=3, ge=2, le=7)
    colour: bool = True


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rows: tuple[str, ...] = Field(default=("###", "###"), max_length=9)
    holes: bool = False


class Bonus(BaseModel):
    model_config = ConfigDict(extra="forbid")
    length: int = Field(ge=2, le=9)
    points: int = Field(ge=0, le=100, title="Points per card")


class Nested(BaseModel):
    """A rules model the editor has never seen: a board of rows, combinations, bonuses, a map of
    points by colour (the shapes of Dolly Crush's coming parts)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    min_line: int = Field(default=3, ge=2, le=7, description="the shortest line")
    board: Board = Field(default_factory=Board, description="the board's shape")
    combinations: tuple[Combination, ...] = Field(default=(Combination(),), max_length=4)
    bonuses: tuple[Bonus, ...] | None = None
    points: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits(self) -> Nested:
        for i, c in enumerate(self.combinations):
            if c.length < self.min_line:
                raise ValueError(f"combinations.{i}.length: shorter than min_line")
        return self


@pytest.fixture
def nested(monkeypatch) -> type[Nested]:
    """The ``Nested`` model in the place of Shave a Sheep's (no rule sets of its own)."""
    import sheepfold.games
    import sheepfold.rulesets

    real = sheepfold.games.rules_class
    monkeypatch.setattr(sheepfold.games, "rules_class", lambda g: Nested if g == GAME else real(g))
    monkeypatch.setattr(sheepfold.rulesets, "all_rulesets", lambda game=None: [])
    return Nested


def test_any_nested_model_is_drawn_from_its_schema(live_server, nested):
    data = live_server.http.get(f"/api/rules/{GAME}").json()
    t = tree(data["fields"])
    assert [f["name"] for f in data["fields"]] == list(Nested.model_fields)
    assert t["board"]["kind"] == "object" and not t["board"]["nullable"]
    assert t["board"]["label"] == "Board" and t["board"]["description"] == "the board's shape"
    assert t["board.rows"] | {"kind": "list", "noun": "row", "max_items": 9} == t["board.rows"]
    assert t["board.rows.*"]["kind"] == "text"
    assert t["combinations"] | {"kind": "list", "noun": "combination"} == t["combinations"]
    shape = t["combinations.*.shape"]
    assert shape | {"kind": "choice", "choices": ["line", "square"]} == shape
    assert t["bonuses"]["noun"] == "bonus" and t["bonuses"]["nullable"]
    length = t["bonuses.*.length"]
    assert length | {"kind": "integer", "required": True, "min": 2, "max": 9} == length
    assert t["bonuses.*.points"]["label"] == "Points per card"  # a model's own title is kept
    assert t["points"]["kind"] == "map" and t["points.*"]["kind"] == "integer"
    assert t["min_line"]["label"] == "Min line"
    # the check names the exact value: a field's, an entry's, a model validator's path
    bad = {
        "board": {"rows": ["###", 5]},
        "bonuses": [{"length": 3, "points": 1}, {"points": 200}],
        "min_line": 4,
    }
    r = live_server.http.post(f"/api/rules/{GAME}/check", json=bad).json()
    assert {e["where"] for e in r["errors"]} == {
        "board.rows.1",
        "bonuses.1.length",
        "bonuses.1.points",
        "combinations.0.length",  # the model validator's, at once: min_line 4 is fine alone
    }
    r = live_server.http.post(
        f"/api/rules/{GAME}/check", json={"min_line": 4, "combinations": [{"length": 5}, {}]}
    ).json()
    assert r["errors"] == [
        {
            "field": "combinations",
            "where": "combinations.1.length",
            "message": "shorter than min_line",
        }
    ]


def test_pig_pens_options_are_leaves_with_words(live_server):
    data = live_server.http.get("/api/rules/pig-pen").json()
    assert {f["kind"] for f in data["fields"]} <= {"text", "integer"}
    assert all("_" not in f["label"] for f in data["fields"])
    assert next(f for f in data["fields"] if f["name"] == "max_turns")["label"] == "Max turns"


# -- the check's messages, at their paths ------------------------------------------------------
@pytest.mark.parametrize(
    "options, where",
    [
        # a value of a part: the field validator's location
        (
            {
                **OWN_VERB,
                "verbs": {
                    "steal": {
                        **STEAL,
                        "effects": [{**STEAL["effects"][0], "from": "target pocket"}],
                    }
                },
            },  # noqa: E501
            {"verbs.steal.effects.0.from"},  # not die: a face may name the verb refused
        ),
        # an effect as a whole (its model validator): the entry
        (
            {**OWN_VERB, "verbs": {"steal": {**STEAL, "effects": [{"move": 1}]}}},
            {"verbs.steal.effects.0"},  # not die: a face may name the verb refused
        ),
        # what the whole rule set says about one part: the path its message starts with
        ({**OWN_VERB, "die": ["white", "x2"]}, {"verbs.steal"}),
        (
            {**OWN_VERB, "verbs": {"steal": {k: v for k, v in STEAL.items() if k != "choose"}}},
            {"verbs.steal.when.0"},
        ),
        ({"triggers": [{"on": "turn start", "effects": []}]}, {"triggers.0.effects"}),
        ({"setup": {"sheep": 9}}, {"setup.sheep"}),
        # a message of the whole rule set that names no path stays the whole set's
        ({"variants": ["howling-wolf", "my-friend-mr-wolf"]}, {""}),
    ],
)
def test_each_message_names_the_path_of_its_value(live_server, tmp_path, options, where):
    r = live_server.http.post(f"/api/rules/{GAME}/check", json=options)
    assert r.status_code == 200
    data = r.json()
    assert data["ok"] is False
    assert {e["where"] for e in data["errors"]} == where
    for e in data["errors"]:
        assert e["field"] == e["where"].split(".")[0]
        assert not e["message"].startswith(e["where"] + ":") or not e["where"]
    joined = "; ".join(
        f"{e['where']}: {e['message']}" if e["where"] else e["message"] for e in data["errors"]
    )
    assert joined == data["detail"] == cli_message(options, tmp_path)


def test_a_text_others_are_shown_is_plain_text_in_every_part(live_server):
    """A verb's own words are shown to every seat at the table: a bidi override or a control
    character in them is refused by the check, at its field, as a table refuses it."""
    rules = {**OWN_VERB, "verbs": {"steal": {**STEAL, "words": "take one \u202eeno ekat"}}}
    r = live_server.http.post(f"/api/rules/{GAME}/check", json=rules).json()
    assert r["ok"] is False
    assert [e["where"] for e in r["errors"]] == ["verbs.steal.words"]
    assert "U+202E" in r["errors"][0]["message"]
    spec = {"game": GAME, "seats": [{"kind": "bot"}, {"kind": "bot"}], "rules": rules}
    made = live_server.http.post("/api/tables", json=spec)
    assert made.status_code == 422 and "rules.verbs.steal.words" in made.json()["detail"]
    ok = {**OWN_VERB, "verbs": {"steal": {**STEAL, "words": "take one piece, 羊 🐑"}}}
    assert live_server.http.post(f"/api/rules/{GAME}/check", json=ok).json()["ok"] is True


def test_a_rule_file_with_its_aliases_checks_as_rules_check_reads_it(live_server, tmp_path):
    text = 'game = "shave-a-sheep"\n[setup]\nwool = 20\nsheep = 2\n[end]\nturns_each = 30\n'
    r = live_server.http.post(
        f"/api/rules/{GAME}/check", content=text, headers={"Content-Type": "application/toml"}
    ).json()
    path = tmp_path / "short.toml"
    path.write_text(text)
    assert r["ok"] is True
    assert r["rules"] == read_ruleset_file(path).rules.model_dump(mode="json")
    assert r["rules"]["wool"] == 20 and r["rules"]["setup"]["sheep"] == 2
    both = live_server.http.post(
        f"/api/rules/{GAME}/check", json={"wool": 9, "setup": {"wool": 20}}
    ).json()
    assert both["detail"] == "setup.wool and wool say the same thing: give only one of them"
    assert both["errors"][0]["where"] == ""  # two options at once: the whole rule set's


# -- the caps: a rule file's ---------------------------------------------------------------
def test_the_check_has_the_rule_files_caps(live_server, tmp_path):
    assert MAX_BODY == MAX_RULES_BYTES
    # a rule set a rule file may hold (40 KB: more than the old 16 KB) is checked
    padded = json.dumps({"description": "forty thousand spaces", "wool": 20}) + " " * 40_000
    r = live_server.http.post(f"/api/rules/{GAME}/check", content=padded)
    assert r.status_code == 200 and r.json()["ok"] is True
    # one past the cap: 413 with the words, before it is read, with or without a length
    big = json.dumps({"description": "x" * MAX_RULES_BYTES})
    r = live_server.http.post(f"/api/rules/{GAME}/check", content=big)
    assert r.status_code == 413 and r.json()["detail"] == TOO_BIG
    assert "64 KiB" in TOO_BIG

    def chunks() -> Iterator[bytes]:
        for _ in range(5):
            yield b" " * (MAX_RULES_BYTES // 4)

    r = live_server.http.post(f"/api/rules/{GAME}/check", content=chunks())
    assert r.status_code == 413
    # nested past a rule file's depth: 422 with the rule file's message (JSON and TOML)
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(FileRefused) as e:
        parse_document(deep, "json", "the rule set")
    for text, kind in ((deep, "application/json"), (f"x = {deep}", "application/toml")):
        r = live_server.http.post(
            f"/api/rules/{GAME}/check", content=text, headers={"Content-Type": kind}
        )
        assert r.status_code == 422
        assert r.json()["ok"] is False and r.json()["detail"] == e.value.problem
        assert "nested too deeply" in r.json()["detail"]
    # as deep as a rule file may be: read, then checked by the model (a list is no rule set)
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    r = live_server.http.post(f"/api/rules/{GAME}/check", content=ok)
    assert r.status_code == 200 and r.json()["ok"] is False


def test_a_table_request_carries_a_rule_set_the_check_accepts(live_server):
    spec = {"game": GAME, "seats": [{"kind": "bot"}, {"kind": "bot"}], "rules": OWN_VERB}
    body = json.dumps(spec) + " " * 30_000  # past the default body cap of 16 KiB
    r = live_server.http.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 201, r.text
    r = live_server.http.post(
        "/api/tables",
        content=json.dumps(spec) + " " * (MAX_BODY + 8192),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413


# -- tables play the rules they are given ----------------------------------------------------
def test_a_table_with_its_own_verb_opens_and_plays_to_the_end(live_server):
    rules = {
        **OWN_VERB,
        "wool": 12,
        "setup": {"sheep": 1},
        "triggers": [
            {
                "on": "turn start",
                "when": ["alone last"],
                "effects": [{"move": 1, "from": "middle", "to": "my sheep"}],
            }
        ],
        "end": {"turns_each": 30},
    }
    assert live_server.http.post(f"/api/rules/{GAME}/check", json=rules).json()["ok"]
    t = live_server.create(
        game=GAME, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot"}], rules=rules, seed=3
    )
    table = live_server.manager.get(t["id"])
    assert table.game.rules.verbs["steal"].choose == "another player"
    assert [f.verbs for f in table.game.program.faces][-1] == ("steal",)
    wait_until(lambda: live_server.manager.get(t["id"]).finished(), what="the game's end")
    rec = live_server.http.get(f"/api/tables/{t['id']}/record").json()
    assert rec["rules"]["verbs"] == {"steal": STEAL}
    info = live_server.http.get(f"/api/tables/{t['id']}").json()
    assert info["rules"]["verbs"] == {"steal": STEAL}


# -- the gallery: differences in the game's words ----------------------------------------------
def test_the_gallery_says_an_own_verb_in_the_games_words(make_server):
    from sheepfold.core.registry import game_spec
    from sheepfold.games import parse_rules, rules_class
    from sheepfold.games.shave_a_sheep import words
    from sheepfold.games.shave_a_sheep.program import compile_rules
    from sheepfold.server.gallery import differences

    srv = make_server(lab_workers=0)
    body = {"name": "Steal", "author": "ewe", "description": "a steal face", "rules": OWN_VERB}
    r = srv.http.post(f"/api/gallery/{GAME}", json=body)
    assert r.status_code == 201, r.text
    e = srv.http.get(f"/api/gallery/{GAME}/steal/1").json()
    expected = words.differences(
        compile_rules(parse_rules(GAME, {})), compile_rules(parse_rules(GAME, OWN_VERB))
    )
    assert e["differences"] == expected
    assert (
        "steal: none → choose another player: take one piece from the chosen player's safe pile "
        "onto your safe pile (only when the chosen player's safe pile holds at least one piece)"
    ) in e["differences"]
    assert not any("verbs" in line or "{" in line for line in e["differences"])
    listed = srv.http.get(f"/api/gallery/{GAME}").json()
    assert next(x for x in listed["entries"] if x["slug"] == "steal")["differences"] == expected
    # the registered function is the game's; a game without one keeps one line per option
    assert game_spec(GAME).differences is not None
    assert game_spec("pig-pen").differences is None
    # a game without its own words: a line per option, its description in words and its value
    from sheepfold.server.plain_words import option_line

    assert differences("pig-pen", {}, {"target": 50}) == [
        option_line(rules_class("pig-pen").model_fields["target"].description, 50)
    ]
    # an option that is no part of the program (a simulation's turn limit) is still said
    assert differences(GAME, {}, {"max_turns": 50}) == [
        "Simulations only: stop and report a truncated game: 50."
    ]
