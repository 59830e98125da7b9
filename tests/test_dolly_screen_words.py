"""Dolly Crush's screens say the rules in play (issue 48): every example rule file and built-in
rule set, played by seeded bots, and what the terminal, ``replay``, ``replay --step``, the web
table's log and view and ``lab compare`` say, checked against what the state changed: the
points said are the points scored, each card's key shows its own points, a "House rules:" line
for every rule set that is not the printed rules, cards and differences in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.protocol import CHANCE
from sheepfold.core.records import replay
from sheepfold.games.dolly_crush import words
from sheepfold.games.dolly_crush.cards import TYPE_NAMES
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.games.dolly_crush.table import DollyTable
from sheepfold.lab.compare import rules_differences
from sheepfold.rulesets import find_ruleset

pytest.importorskip("numba")

DOCS = Path(__file__).parent.parent / "docs" / "rulesets"
#: a rule set whose types score differently (no example file has one): a bell's white card
#: scores nothing, a ram's 2 and 4
POINTS_BY_TYPE = """game = "dolly-crush"
name = "ram-rich"
description = "Rams are worth more, white bells nothing."
[points]
ram = { white = 2, black = 4 }
bell = { white = 0 }
"""
RULESETS = [
    *(str(p) for p in sorted((DOCS / "dolly-crush").glob("*.toml"))),
    str(DOCS / "graded-cascades.toml"),
    "dolly-graded",
    "dolly-rulebook",
    "points-by-type",
]
runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
SEATS = ["--seat", "bot:random", "--seat", "bot:random"]
NAMES = ("Random bot", "Random bot (2)")  # as the terminal says them


def _ruleset(name: str, tmp_path: Path) -> str:
    if name != "points-by-type":
        return name
    path = tmp_path / "ram-rich.toml"
    path.write_text(POINTS_BY_TYPE)
    return str(path)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _said_points(out: str, who: str) -> int:
    """The points the lines about ``who``'s takes say (``+4 points``, ``+1 point``)."""
    total = 0
    for line in re.findall(rf"(?m)^{re.escape(who)} takes .*$", out):
        total += sum(int(k) for k in re.findall(r"\+(\d+) points?\b", line))
    return total


def _key_says_each_cards_points(out: str, rules: DollyRules) -> None:
    """The key under every flock gives each type in play its own points."""
    pts = rules.card_points()
    types = TYPE_NAMES[: rules.types]
    own = {t: (pts[2 * i], pts[2 * i + 1]) for i, t in enumerate(types)}
    keys = re.findall(r"key: (.*?) · dogs left", _flat(out))
    assert keys, out
    for key in keys:
        if len(set(own.values())) > 1:
            for t, (white, black) in own.items():
                assert f"{t} {white}/{black}" in key, (t, key)
        else:
            white, black = next(iter(own.values()))
            assert f"white sheep ({white} pt" in key and f"black sheep ({black} pt" in key, key


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
def test_what_each_screen_says_is_what_the_state_changed(name: str, tmp_path: Path) -> None:
    source = _ruleset(name, tmp_path)
    rules = find_ruleset(source, "dolly-crush").rules
    printed = not words.differences(rules)
    rec = tmp_path / "game.json"
    played = runner.invoke(
        app,
        ["play", "dolly-crush", "--rules", source, *SEATS, "--seed", "7", "--save", str(rec)],
        input="\n",
    )
    assert played.exit_code == 0, played.output
    final = replay(json.loads(rec.read_text())).state
    scores = [int(s) for s in final.scores()]

    # the terminal game: the points said are the points scored; the key; the house rules
    out = played.output
    assert [_said_points(out, who) for who in NAMES] == scores, out
    _key_says_each_cards_points(out, rules)
    assert ("House rules:" in out) is not printed, out

    # sheepfold replay: the house rules and the key of the rules in play
    shown = runner.invoke(app, ["replay", str(rec)])
    assert shown.exit_code == 0, shown.output
    assert ("House rules:" in shown.output) is not printed, shown.output
    _key_says_each_cards_points(shown.output, rules)

    # sheepfold replay --step: each move's points, in all the points scored
    steps = runner.invoke(app, ["replay", str(rec), "--step"])
    assert steps.exit_code == 0, steps.output
    assert [_said_points(steps.output, f"  {who}") for who in NAMES] == scores, steps.output


def _all_said(notes: list[tuple[int | None, str]]) -> str:
    return " ".join(text for _, text in notes)


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
def test_the_web_log_and_view_say_the_rules_in_play(name: str, tmp_path: Path) -> None:
    """The table's log: each decision in words, each take's cards in words and their points
    (the score's change, bonuses included); the view: each card's own points."""
    import random

    import sheepfold

    rules = find_ruleset(_ruleset(name, tmp_path), "dolly-crush").rules
    game = sheepfold.make("dolly-crush", rules=rules)
    state = game.new_initial_state(seed=3)
    view = state.observe(None)
    pts = rules.card_points()
    assert view["card_points"] == {
        f"{t}-{colour}": pts[2 * i + k]
        for i, t in enumerate(TYPE_NAMES[: rules.types])
        for k, colour in enumerate(("white", "black"))
    }
    driver, rng, said = DollyTable(), random.Random(3), []
    while not state.is_terminal():
        who = state.current_player()
        action = state.sample_chance(None) if who == CHANCE else rng.choice(state.legal_actions())
        before = state.scores()
        after = state.clone()
        after.apply(action)
        notes = driver.narrate(state.clone(), who, action, True, after)
        said += notes
        if who != CHANCE:
            text = _all_said(notes)
            gain = int(after.scores()[who] - before[who])
            took = re.search(r"took (\d+) sheep \((\d+) points?\)", text)
            assert (gain, took) == (0, None) or took and int(took[2]) == gain, text
        state = after
    text = _all_said(said)
    assert "played dog card" in text
    assert not re.search(r"\b[a-z]+-(white|black)\b", text), text  # no card codes


def test_lab_compare_says_what_differs_in_words_not_json(tmp_path: Path) -> None:
    graded = find_ruleset("dolly-graded", "dolly-crush").rules.model_dump(
        mode="json", exclude_defaults=True
    )
    square = find_ruleset(
        str(DOCS / "dolly-crush" / "square-of-a-type.toml"), "dolly-crush"
    ).rules.model_dump(mode="json", exclude_defaults=True)
    lines = rules_differences("dolly-crush", graded, square)
    assert len(lines) == 1 and "a 2 by 2 square of cards of one type" in lines[0], lines
    assert not re.search(r"[{}\[\]]|combinations|\bkind\b", lines[0]), lines

    out = runner.invoke(
        app,
        ["lab", "compare", "dolly-crush", "dolly-graded"]
        + [str(DOCS / "dolly-crush" / "five-scores-double.toml"), "--games", "4"]
        + ["--bot", "random", "--workers", "1"],
    )
    assert out.exit_code == 0, out.output
    differs = _flat(out.output.split("What differs")[1])
    assert "The flock is 4 rows by 6 columns" in differs, differs
    assert "scores double" in differs, differs
    assert not re.search(r"[{}\[\]]|bonuses|\brows\b =|\"", differs.split(" changes ")[0]), differs
