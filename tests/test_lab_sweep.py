"""`sheepfold lab sweep`: one option stepped through values on common random numbers."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.lab.sweep import SweepError, highlights, is_sweep, parse_sweep, split_sets

runner = CliRunner()


def _sweep(*args: str) -> dict:  # type: ignore[type-arg]
    r = runner.invoke(app, ["lab", "sweep", "shave-a-sheep", "--workers", "1", "--json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_ranges_and_lists_parse() -> None:
    assert parse_sweep("wool=10..30:10") == ("wool", [10, 20, 30])
    assert parse_sweep("max_wool=3..5") == ("max_wool", [3, 4, 5])
    assert parse_sweep("x=0.5..1.0:0.25") == ("x", [0.5, 0.75, 1.0])
    assert parse_sweep("wolf_to=middle,roller") == ("wolf_to", ["middle", "roller"])
    assert parse_sweep("final_shear=true,false") == ("final_shear", [True, False])
    assert is_sweep("wool=1..3") and is_sweep("a=b,c")
    assert not is_sweep('die=["white", "x2"]') and not is_sweep("wool=12")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wool=30..10", "goes up from LO to HI"),
        ("wool=1..100:1", "at most 40"),
        ("wool=a..b", "takes numbers"),
        ("wool=5,5", "listed twice"),
        ("wool", "KEY=LO..HI"),
    ],
)
def test_bad_ranges_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SweepError, match=message):
        parse_sweep(spec)


def test_exactly_one_option_is_swept() -> None:
    assert split_sets(["wool=10..20:10", "max_wool=4"]) == (("wool", [10, 20]), ["max_wool=4"])
    with pytest.raises(SweepError, match="exactly one option through values; 2 given"):
        split_sets(["wool=10..20:10", "max_wool=3,4"])
    with pytest.raises(SweepError, match="0 given"):
        split_sets(["wool=12"])


def _row(value: object, **metrics: tuple[float, float, float]) -> dict:  # type: ignore[type-arg]
    return {
        "value": value,
        "metrics": {
            k: {"value": v, "lo": lo, "hi": hi, "kind": "num", "label": k}
            for k, (v, lo, hi) in metrics.items()
        },
    }


def test_highlights_name_the_best_value_and_those_the_intervals_cannot_tell_apart() -> None:
    rows = [
        _row(1, balance=(0.90, 0.85, 0.95), lead_changes=(0.5, 0.4, 0.6), length_mean=(10, 9, 11)),
        _row(2, balance=(0.97, 0.93, 1.0), lead_changes=(0.8, 0.7, 0.9), length_mean=(20, 19, 21)),
        _row(3, balance=(0.95, 0.92, 0.98), lead_changes=(1.5, 1.4, 1.6), length_mean=(30, 28, 32)),
    ]
    fair, drama, length = highlights(rows, target_length=27)
    assert (fair.value, fair.ties) == (2, (3,))
    assert (drama.value, drama.ties) == (3, ())
    assert (length.value, length.ties) == (3, ())  # 27 is outside 3's interval, nearest anyway
    assert highlights(rows, target_length=29)[2].ties == ()
    assert highlights(rows, target_length=21.5)[2].value == 2


def test_sweep_plays_every_value_on_the_same_seeds_and_plots(tmp_path) -> None:  # type: ignore[no-untyped-def]
    png = tmp_path / "wool.png"
    data = _sweep(
        "--set", "wool=6..10:2", "--set", "max_wool=3", "--bot", "greedy", "--games", "300",
        "--target-length", "15", "--plot", str(png),
    )  # fmt: skip
    assert data["option"] == "wool"
    assert [r["value"] for r in data["rows"]] == [6, 8, 10]
    lengths = [r["metrics"]["length_mean"]["value"] for r in data["rows"]]
    assert lengths == sorted(lengths)  # more wool, longer games: every value on the same seeds
    assert all(r["metrics"]["length_mean"]["n"] == 300 for r in data["rows"])
    assert any(h.startswith("fairest: ") for h in data["highlights"])
    assert any(h.startswith("nearest 15 turns: ") for h in data["highlights"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_value_the_rules_refuse_stops_the_sweep_before_any_game() -> None:
    r = runner.invoke(app, ["lab", "sweep", "shave-a-sheep", "--set", "max_wool=0..2"])
    assert r.exit_code == 2
    assert "sweep value max_wool=0" in r.output and "must be at least 1, not 0" in r.output
    assert "games" not in r.output  # no progress: nothing was played


def test_sweep_figure_takes_values_that_are_not_numbers() -> None:
    from sheepfold.lab.report import sweep_plot

    rows = [
        _row(True, balance=(0.9, 0.8, 1.0), length_mean=(10, 9, 11)),
        _row(False, balance=(0.8, 0.7, 0.9), length_mean=(12, 11, 13)),
    ]
    assert sweep_plot("diagonals", rows, "dolly-crush").startswith(b"\x89PNG")
