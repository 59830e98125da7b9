"""The rules API: every option of each game's rules model as data, rule sets checked by the model
with the messages `sheepfold rules check` gives, and their TOML files read back."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sheepfold.core.protocol import RulesError
from sheepfold.games import GAME_NAMES, parse_rules, rules_class
from sheepfold.rulesets import parse_ruleset, read_ruleset_file
from sheepfold.server.rules_api import MAX_BODY


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A rules folder of our own, with one user rule set in it."""
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    rules = tmp_path / "home" / "rules"
    rules.mkdir(parents=True)
    (rules / "short.toml").write_text(
        'game = "shave-a-sheep"\nname = "short"\ndescription = "a quick one"\nwool = 9\n'
    )
    return rules


def cli_message(game: str, options: dict, tmp_path: Path) -> str:
    """What `sheepfold rules check` says about these options (the file name left out)."""
    path = tmp_path / "bad.toml"
    import tomli_w

    path.write_text(tomli_w.dumps({"game": game, **options}))
    with pytest.raises(RulesError) as e:
        read_ruleset_file(path)
    return str(e.value).removeprefix(f"{path}: ")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_option_of_the_model_is_listed(live_server, home, game):
    r = live_server.http.get(f"/api/rules/{game}")
    assert r.status_code == 200
    data = r.json()
    cls = rules_class(game)
    fields = {f["name"]: f for f in data["fields"]}
    assert list(fields) == list(cls.model_fields)  # new options come by themselves
    rulebook = cls().model_dump(mode="json")
    assert data["rulebook"] == rulebook
    for name, f in fields.items():
        assert f["description"] == (cls.model_fields[name].description or "")
        assert f["rulebook"] == rulebook[name]
        assert f["kind"] in (
            "choice",
            "integer",
            "number",
            "boolean",
            "text",
            "list",
            "map",
            "json",
        )
    names = {r["name"]: r for r in data["rulesets"]}
    for r in names.values():  # each rule set with every option
        assert parse_rules(game, r["rules"]).model_dump(mode="json") == r["rules"]
    if game == "shave-a-sheep":
        assert fields["wool"] | {"kind": "integer", "min": 1, "max": 1000} == fields["wool"]
        assert fields["variants"]["item"]["choices"] == [
            "cutting-costs",
            "howling-wolf",
            "my-friend-mr-wolf",
        ]
        assert fields["die"]["kind"] == "list" and fields["die"]["nullable"]
        assert names["howling-wolf"]["rules"]["variants"] == ["howling-wolf"]
        assert names["short"]["source"] == "yours" and names["short"]["rules"]["wool"] == 9
    assert live_server.http.get("/api/rules/chess").status_code == 404


@pytest.mark.parametrize(
    "game, options",
    [
        ("shave-a-sheep", {"max_wool": 0}),
        ("shave-a-sheep", {"variants": ["nope"]}),
        ("shave-a-sheep", {"die": []}),
        ("shave-a-sheep", {"die": ["white/purple"], "wool": "many"}),
        ("shave-a-sheep", {"variants": ["howling-wolf", "my-friend-mr-wolf"]}),
        ("shave-a-sheep", {"colour": "blue"}),
        ("dolly-crush", {"white_per_type": 0, "black_per_type": 0}),
        ("dolly-crush", {"dog_swaps": {"poodle": 3}}),
    ],
)
def test_check_gives_the_models_messages(live_server, tmp_path, game, options):
    r = live_server.http.post(f"/api/rules/{game}/check", json=options)
    assert r.status_code == 200
    data = r.json()
    assert data["ok"] is False and data["input"] == options
    assert data["detail"] == cli_message(game, options, tmp_path)
    joined = "; ".join(
        f"{e['where']}: {e['message']}" if e["where"] else e["message"] for e in data["errors"]
    )
    assert joined == data["detail"]
    for e in data["errors"]:  # each names the option it is about (or none: the whole set)
        assert e["field"] in (*options, "")


def test_check_normalizes_and_writes_the_rule_set_file(live_server):
    options = {"game": "shave-a-sheep", "wool": 12, "die": [" White / PINK ", "x2"]}
    data = live_server.http.post("/api/rules/shave-a-sheep/check", json=options).json()
    assert data["ok"] is True
    assert data["rules"]["die"] == ["white/pink", "x2"]
    assert data["options"] == {"wool": 12, "die": ["white/pink", "x2"]}
    back = parse_ruleset(tomllib.loads(data["toml"]), "download", "shave-a-sheep")
    assert back.rules.model_dump(mode="json") == data["rules"]
    # a TOML rule-set file (an upload) is checked the same way
    r = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        content=data["toml"],
        headers={"Content-Type": "application/toml"},
    )
    assert r.json()["rules"] == data["rules"]
    # rules for the other game, text that is not TOML
    wrong = live_server.http.post("/api/rules/dolly-crush/check", json=options).json()
    assert not wrong["ok"] and wrong["errors"][0]["field"] == "game"
    bad = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        content="wool = = 3",
        headers={"Content-Type": "application/toml"},
    ).json()
    assert not bad["ok"] and bad["detail"].startswith("not valid TOML")


def test_check_refuses_a_big_or_deep_body(live_server):
    big = {"description": "x" * MAX_BODY}
    r = live_server.http.post("/api/rules/shave-a-sheep/check", json=big)
    assert r.status_code == 413 and "at most 16 KB" in r.json()["detail"]

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(5):
            yield b" " * MAX_BODY

    r = live_server.http.post("/api/rules/shave-a-sheep/check", content=chunks())
    assert r.status_code == 413
    deep = live_server.http.post("/api/rules/shave-a-sheep/check", content="[" * 10_000).json()
    assert deep["ok"] is False and deep["detail"] == "nested too deeply"
    r = live_server.http.post("/api/rules/shave-a-sheep/check", content="[1, 2]")
    assert r.json()["ok"] is False
