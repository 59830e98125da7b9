"""The web API reads a table's rules as the command line reads a rule file
(:func:`sheepfold.rulesets.resolve`): ``rules.from`` names the base, a file without one starts
from the game's default rule set (Dolly Crush: the graded dog cards, as ``play``, the lab and
the lobby do), and a saved rule set whose effects move wool opens by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheepfold.games.dolly_crush.rules import GRADED_DOG_SWAPS, RULEBOOK_DOG_SWAPS
from sheepfold.rulesets import find_ruleset

STEAL = Path(__file__).resolve().parents[2] / "docs/rulesets/shave-a-sheep/steal-face.toml"


def dogs(rules: dict) -> dict[str, list[int]]:
    return {b: list(c) for b, c in rules["dog_swaps"].items()}


def graded() -> dict[str, list[int]]:
    return {b: list(c) for b, c in GRADED_DOG_SWAPS.items()}


def test_dolly_options_start_from_the_default_rules_as_a_file_does(live_server) -> None:
    table = live_server.create(game="dolly-crush", seats=[{}, {}], rules={"rows": 4})
    assert table["rules"]["rows"] == 4
    assert dogs(table["rules"]) == graded()  # not the printed cards: one change, not two
    assert table["ruleset"] == "dolly-graded"


def test_rules_may_name_their_base_with_from(live_server) -> None:
    printed = live_server.create(
        game="dolly-crush", seats=[{}, {}], rules={"from": "rulebook", "rows": 4}
    )
    assert {b: list(c) for b, c in printed["rules"].get("dog_swaps", {}).items()} in (
        {},
        {b: list(c) for b, c in RULEBOOK_DOG_SWAPS.items()},
    )
    wolf = live_server.create(
        game="shave-a-sheep", seats=[{}, {}], rules={"from": "howling-wolf", "wool": 12}
    )
    assert wolf["rules"]["variants"] == ["howling-wolf"] and wolf["rules"]["wool"] == 12
    assert wolf["ruleset"] == "howling-wolf"


def test_the_base_given_twice_is_refused_with_the_reason(live_server) -> None:
    r = live_server.http.post(
        "/api/tables",
        json={
            "game": "shave-a-sheep",
            "seats": [{}, {}],
            "ruleset": "cutting-costs",
            "rules": {"from": "howling-wolf"},
        },
    )
    assert r.status_code in (400, 422), r.text
    assert "given twice" in r.text


@pytest.fixture
def saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A saved rule set whose verb moves wool (steal-face with more wool), in your rules folder."""
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    folder = tmp_path / "home" / "rules"
    folder.mkdir(parents=True)
    (folder / "stealer.toml").write_text(
        STEAL.read_text().replace('name = "steal-face"', 'name = "stealer"\nwool = 20')
    )
    assert find_ruleset("stealer", "shave-a-sheep").rules.wool == 20
    return "stealer"


def test_a_saved_rule_set_that_moves_wool_opens_by_name(live_server, saved: str) -> None:
    for body in ({"ruleset": saved}, {"ruleset": saved, "rules": {"max_wool": 4}}):
        table = live_server.create(game="shave-a-sheep", seats=[{}, {}], **body)
        effect = table["rules"]["verbs"]["steal"]["effects"][0]
        assert effect == {"move": 1, "from": "target pile", "to": "my pile"}
        assert table["rules"]["wool"] == 20
    r = live_server.http.post(
        "/api/tables/ready", json={"game": "shave-a-sheep", "seats": [{}, {}], "ruleset": saved}
    )
    assert r.status_code == 200, r.text
