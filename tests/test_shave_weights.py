"""Every probability and weight of the rules models is finite and positive (issue 26):
Howling Wolf's reaction weights are chances up to their ratios (Shave a Sheep ruling 8), so
``[1e308, 1e308]`` (a sum that overflows: every chance 0, a race nobody can win) is refused
wherever rules come in, and the engine's draw divides without overflowing.

The rules models' other options are integers, choices and booleans: ``reaction_weights`` is
their only float (checked below, so that a new float field is not left out)."""

from __future__ import annotations

import json
import random
import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.protocol import RulesError
from sheepfold.core.records import RecordError, parse_record
from sheepfold.games import make, rules_class
from sheepfold.games.shave_a_sheep.game import GRAB, ShaveGame, grab_chances
from sheepfold.games.shave_a_sheep.rules import ShaveRules

RUNNER = CliRunner()
HW = {"variants": ["howling-wolf"]}
BAD_WEIGHTS = {
    "[1e308, 1e308]": ("[1e308, 1e308]", "add up to more than a number can hold"),
    "[inf, 1.0]": ("[inf, 1.0]", "reaction_weights.0: not a finite number (inf)"),
    "[1.0, nan]": ("[1.0, nan]", "reaction_weights.1: not a number (nan)"),
    "[1.0, -1.0]": ("[1.0, -1.0]", "seat 1's weight is -1.0"),
    "[0.0, 0.0]": ("[0.0, 0.0]", "all 0"),
    "[1e-320, 1e300]": ("[1e-320, 1e300]", "its chance is 0"),
    "[1.0]": ("[1.0]", "one weight per seat, 2 to 4"),
    "five": ("[1, 1, 1, 1, 1]", "one weight per seat, 2 to 4"),
}


@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
def test_rules_check_refuses_weights_that_are_no_chances(tmp_path: Path, case: str) -> None:
    text, words = BAD_WEIGHTS[case]
    path = tmp_path / "w.toml"
    path.write_text(
        f'game = "shave-a-sheep"\nvariants = ["howling-wolf"]\nreaction_weights = {text}\n'
    )
    result = RUNNER.invoke(app, ["rules", "check", str(path)])
    out = " ".join(result.output.split())
    assert result.exit_code == 2 and "Traceback" not in out, out
    assert "reaction_weights" in out and words in out, out


def test_a_record_and_a_job_refuse_them_too() -> None:
    rec = json.loads((Path(__file__).parent / "records" / "shave-rulebook.json").read_text())
    rec["rules"] = {**HW, "reaction_weights": [1e308, 1e308]}
    with pytest.raises(RecordError, match="reaction_weights") as e:
        parse_record(rec)
    assert e.value.field == "rules"
    with pytest.raises(RulesError, match="add up to more than a number can hold"):
        make("shave-a-sheep", 2, reaction_weights=[1e308, 1e308], **HW)
    from sheepfold.lab.runner import make_job

    with pytest.raises(RulesError, match="reaction_weights"):
        make_job("shave-a-sheep", {**HW, "reaction_weights": [1e308, 1e308]})


def test_shave_ruling_8_a_race_under_huge_weights_is_still_a_race() -> None:
    """Large weights that a float can add (1e300 each) and, drawn by the engine, weights the
    model never saw (built without validation): the race is between the two seats, half and
    half, and the chance event draws one of them (before: every chance 0 and no outcome)."""
    assert grab_chances((1e308, 1e308)) == (0.5, 0.5)
    assert grab_chances((1.5e308, 0.5e308)) == pytest.approx((0.75, 0.25))
    assert grab_chances((3.0, 1.0)) == (0.75, 0.25)  # a sum a float holds: the exact quotients
    assert grab_chances((2.0, 0.0, 1.0)) == pytest.approx((2 / 3, 0.0, 1 / 3))
    for w in ((0.0, 0.0), (float("inf"), 1.0), (float("nan"), 1.0)):
        with pytest.raises(RulesError, match="no seat has a chance"):
            grab_chances(w)
    valid = make("shave-a-sheep", 2, reaction_weights=[1e300, 1e300], **HW)
    unchecked = ShaveRules.model_construct(
        **{**ShaveRules(**HW).__dict__, "reaction_weights": (1e308, 1e308)}
    )
    for game in (valid, ShaveGame(2, unchecked)):
        s = game.new_initial_state(seed=3)
        face = next(i for i, r in enumerate(game.face_races) if r)
        s.apply(face)  # a gray face: the race
        assert s.phase == GRAB
        assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        assert s.legal_actions() == [0, 1]
        drawn = {s.sample_chance(random.Random(k)) for k in range(40)}
        assert drawn == {0, 1}


def test_reaction_weights_is_the_only_float_of_the_rules_models() -> None:
    def floats(annotation: object) -> bool:
        return annotation is float or any(floats(a) for a in typing.get_args(annotation))

    found = {
        (game, key)
        for game in ("dolly-crush", "shave-a-sheep")
        for key, field in rules_class(game).model_fields.items()
        if floats(field.annotation)
    }
    assert found == {("shave-a-sheep", "reaction_weights")}
