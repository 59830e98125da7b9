"""`sheepfold rules check` says whether a game can end for every rule set it accepts (issue 48,
item 4): solved exactly where the solver can, measured by playing games otherwise, and a rule set
under which no game can end is refused in the very words the web refuses it with
(:mod:`sheepfold.games.endings`, tests/web/test_web_rules_can_end.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sheepfold.cli.rules as cli_rules
from sheepfold.cli.main import app
from sheepfold.games.endings import check_ending, ending_refusal, no_end
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from sheepfold.rulesets import builtin_rulesets

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "shave-a-sheep"


def check(path: Path | str) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["rules", "check", str(path)])
    return res.exit_code, " ".join(res.output.split())


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text('game = "shave-a-sheep"\nname = "house"\n' + text)
    return path


def test_a_language_rule_set_is_told_whether_its_games_end() -> None:
    """steal-face takes wool out of safe piles (the solver numbers positions by the wool banked):
    its games are played and measured, never waved off as a part the solver "does not play"."""
    code, text = check(EXAMPLES / "steal-face.toml")
    assert code == 0, text
    assert "does not play" not in text and "never end" not in text, text
    assert "not solved exactly (a rule takes wool out of a safe pile" in text, text
    m = re.search(r"games end: they last ([\d,]+) turns on average \(measured over 40 games", text)
    assert m and int(m.group(1).replace(",", "")) > 0, text


def test_a_die_of_only_pink_faces_is_refused_in_the_shared_words(tmp_path: Path) -> None:
    path = write(tmp_path, 'die = ["pink"]\n')
    code, text = check(path)
    words = ending_refusal("shave-a-sheep", ShaveRules(die=("pink",)))
    assert words == no_end(2, None)  # the web's words (server: rules check, new tables)
    assert code == 2 and f"{path}: {words}" in text, text


def test_very_long_games_get_their_length_not_may_never_end(tmp_path, monkeypatch) -> None:
    """Wool 1000: too big to solve, and its games last thousands of turns; they all end, and
    the check says how long they last (it said "may never end" after a 300-turn cap)."""
    monkeypatch.setattr(cli_rules, "SIM_GAMES", 4)  # one batch of 4 games is enough to show it
    monkeypatch.setattr(cli_rules, "SIM_BATCH", 4)
    code, text = check(write(tmp_path, "wool = 1000\nmax_wool = 100\n"))
    assert code == 0, text
    assert "never end" not in text and "turn limit" not in text, text
    assert "not solved exactly" in text and "too many" in text, text
    m = re.search(r"games end: they last ([\d,]+) turns on average \(measured over 4 games", text)
    assert m and int(m.group(1).replace(",", "")) > 1000, text


def test_games_that_never_end_in_play_are_said_to_never_end(tmp_path, monkeypatch) -> None:
    """A rule set the solver does not solve (a rule takes wool out of a pile) whose games
    cannot end: the simulated games run to the cap, and the check says so."""
    monkeypatch.setattr(cli_rules, "SIM_TURNS", 500)
    monkeypatch.setattr(cli_rules, "SIM_BUDGET", 1)  # one batch
    path = write(
        tmp_path,
        'die = ["pink", "steal"]\n\n[verbs.steal]\nchoose = "another player"\n'
        'when = ["target pile >= 1"]\n'
        'effects = [{ move = 1, from = "target pile", to = "my pile" }]\n',
    )
    code, text = check(path)
    assert code == 0, text
    assert "8 of 8 simulated games" in text and "had not ended after 500 turns" in text, text


def test_rules_with_a_turn_limit_each_are_not_simulated(monkeypatch) -> None:
    def played(rs):  # type: ignore[no-untyped-def]
        raise AssertionError("simulated")

    monkeypatch.setattr(cli_rules, "_measured_endings", played)
    code, text = check(EXAMPLES / "thirty-turns.toml")
    assert code == 0 and "every game ends: after at most 30 turns each" in text, text


@pytest.mark.parametrize(
    "rs",
    [r for r in builtin_rulesets() if r.game == "shave-a-sheep"],
    ids=lambda r: r.name,
)
def test_every_built_in_rule_set_can_end(rs) -> None:  # type: ignore[no-untyped-def]
    """The web does not solve a built-in rule set (games/endings.py: ending_refusal): each
    one's games can end, solved here."""
    found = check_ending(rs.game, rs.rules)
    assert found.refusal is None and (found.exact or found.bounded), found
