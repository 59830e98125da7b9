"""The lab's verdict as words a reader's language translates (issue 29): a
:class:`~sheepfold.core.words.Msg` of templates whose English is, byte for byte, the paragraph
the verdict said as plain text before (each expected text below is that old function's output
on its case), stored with ``to_data`` and read back with ``from_data``."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.core.words import Msg, from_data, to_data
from sheepfold.lab.compare import Diff, verdict


def _diff(
    key: str,
    kind: str,
    a: float,
    b: float,
    label: str = "",
    sig: bool = True,
    lo: float | None = None,
    hi: float | None = None,
    rel: float | None = None,
) -> Diff:
    r = (b / a - 1) if kind == "num" and a else None
    r = r if rel is None else rel
    return Diff(
        key, label or key, kind, a, b, b - a,
        b - a - 0.01 if lo is None else lo, b - a + 0.01 if hi is None else hi,
        0.001 if sig else 0.5, sig, r, None if r is None else r - 0.02, None if r is None else r + 0.02,
    )  # fmt: skip


#: name -> (diffs, name of A, name of B, max_turns)
CASES: dict[str, tuple[list[Diff], str, str, int | None]] = {
    "leads_with_most_moved": (
        [
            _diff("length_mean", "num", 8.0, 8.1, "game length"),
            _diff("balance", "pct", 0.0, 0.9, "balance"),
            _diff("lead_changes", "num", 1.0, 2.0, "lead changes"),
            _diff("tie_rate", "pct", 0.1, 0.1, "ties", sig=False),
        ],
        "rulebook",
        "graded",
        None,
    ),
    "nothing_moved": (
        [_diff("length_mean", "num", 8.0, 8.0, "game length", sig=False)],
        "a",
        "b",
        None,
    ),
    "nothing_moved_same_length": (
        [_diff("length_mean", "num", 8.0, 8.0, "game length", sig=False, lo=0.0, hi=0.0, rel=0.0)],
        "the rulebook",
        "this rule set",
        None,
    ),
    "nothing_moved_no_length": (
        [_diff("balance", "pct", 0.5, 0.5, "balance", sig=False)],
        "the rulebook",
        "this rule set",
        None,
    ),
    "length_spread": (
        [
            _diff("length_mean", "num", 8.0, 8.0, "game length", sig=False),
            _diff("length_sd", "num", 0.0, 0.05, "length spread"),
            _diff("balance", "pct", 0.90, 0.94, "balance"),
        ],
        "graded",
        "cascades",
        None,
    ),
    "shorter_lead": (
        [
            _diff("length_mean", "num", 92.64, 72.28, "game length (turns), mean"),
            _diff("lead_changes", "num", 1.25, 1.02, "lead changes per game"),
            _diff("margin", "num", 6.32, 5.41, "winning margin (points)"),
            _diff("win_seat0", "pct", 0.5, 0.51, "win share of seat 0", sig=False),
            _diff("win_seat1", "pct", 0.5, 0.49, "win share of seat 1", sig=False),
            _diff("balance", "pct", 0.9, 0.91, "balance", sig=False),
        ],
        "the rulebook",
        "this rule set",
        None,
    ),
    "longer_small_pm": (
        [_diff("length_mean", "num", 10.0, 30.0, "game length", rel=2.0)],
        "the graded edition",
        "this rule set",
        None,
    ),
    "seat0_raises": (
        [
            _diff("win_seat0", "pct", 0.40, 0.62, "win share of seat 0"),
            _diff("tie_rate", "pct", 0.1, 0.12, "shared wins (ties)"),
        ],
        "the rulebook",
        "this rule set",
        None,
    ),
    "seat0_cuts_close": (
        [_diff("win_seat0", "pct", 0.503, 0.498, "win share of seat 0")],
        "the rulebook",
        "this rule set",
        None,
    ),
    "the_named_b": (
        [_diff("length_mean", "num", 20.0, 10.0, "game length")],
        "the rulebook",
        "the graded edition",
        None,
    ),
    "endings_and_limit": (
        [
            _diff("length_mean", "num", 20.0, 25.0, "game length"),
            _diff("ended_deck", "pct", 0.0, 0.97, "ended: the deck ran out"),
            _diff("ended_dogs", "pct", 0.9, 0.02, "ended: every dog card was played"),
            _diff(
                "ended_cleanup",
                "pct",
                0.0,
                0.01,
                "ended: the sheep cards ran out: the last cards in the deck kept making lines",
            ),
            _diff("ended_points", "pct", 0.1, 0.0, "ended: a player reached the points target"),
            _diff("truncated", "pct", 0.0, 0.02, "truncated games"),
        ],
        "the rulebook",
        "this rule set",
        1500,
    ),
    "limit_both_no_max": (
        [
            _diff("drama_rate", "pct", 0.867, 0.95, "drama: winner came from behind"),
            _diff("drama_depth", "num", 3.75, 4.25, "drama: winner's deepest deficit"),
            _diff(
                "decisiveness", "num", 0.5, 0.5, "decisiveness: lead taken for good at", sig=False
            ),
            _diff("truncated", "pct", 0.01, 0.02, "truncated games"),
        ],
        "the rulebook",
        "this rule set",
        None,
    ),
    "unknown_ending": (
        [
            _diff("ended_weird-thing", "pct", 0.0, 0.5, "ended: weird thing"),
            _diff("length_mean", "num", 8.0, 8.0, "game length", sig=False),
        ],
        "a",
        "b",
        None,
    ),
    "nan_values": (
        [
            _diff("length_mean", "num", 8.0, 9.0, "game length"),
            _diff("forced_share", "pct", float("nan"), 0.2, "forced decisions"),
        ],
        "a",
        "b",
        None,
    ),
}

#: the old verdict's text of each case (the plain-text function before the change)
ENGLISH = {
    "leads_with_most_moved": "The biggest change from rulebook to graded: balance 0.0% → 90.0% (+90.0 pp). Then, by how much they moved: lead changes 1.00 → 2.00 (+100%); game length 8.00 → 8.10 (+1%). No measurable change in: ties.",
    "nothing_moved": "b changes no metric measurably from a (95% intervals). b does not change the game length measurably (8.00 vs 8.00 turns, ±2%).",
    "nothing_moved_same_length": "this rule set changes no metric measurably from the rulebook (95% intervals). this rule set plays games of the same length as the rulebook (8.00 turns).",
    "nothing_moved_no_length": "this rule set changes no metric measurably from the rulebook (95% intervals).",
    "length_spread": "The biggest change from graded to cascades: balance 90.0% → 94.0% (+4.0 pp). Then, by how much they moved: length spread 0.00 → 0.05. No measurable change in: game length.",
    "shorter_lead": "this rule set makes games 22% shorter (±2%) than the rulebook (92.64 → 72.28 turns). Then, by how much they moved: lead changes per game 1.25 → 1.02 (-18%); winning margin (points) 6.32 → 5.41 (-14%). No measurable change in: win share of seat 0, balance.",
    "longer_small_pm": "this rule set makes games 200% longer (±2%) than the graded edition (10.00 → 30.00 turns).",
    "seat0_raises": "this rule set raises seat 0's win share from 40% to 62% (+22.0 pp) compared with the rulebook. Then, by how much they moved: shared wins (ties) 10.0% → 12.0% (+2.0 pp).",
    "seat0_cuts_close": "this rule set cuts seat 0's win share from 50.3% to 49.8% (-0.5 pp) compared with the rulebook.",
    "the_named_b": "The graded edition makes games 50% shorter (±2%) than the rulebook (20.00 → 10.00 turns).",
    "endings_and_limit": "Games hit the 1,500-turn limit (the rulebook: 0.0% of games, this rule set: 2.0%): under this rule set a game may never end. Those games have no winner; every result below is of the games that finished. Under this rule set the deck now runs out in 97% of games (the rulebook: 0%); the sheep cards ran out: the last cards in the deck kept making lines in 1% (the rulebook: 0%); every dog card was played in 2% (the rulebook: 90%). this rule set makes games 25% longer (±2%) than the rulebook (20.00 → 25.00 turns).",
    "limit_both_no_max": "Games hit the turn limit (the rulebook: 1.0% of games, this rule set: 2.0%): under the rulebook and this rule set a game may never end. Those games have no winner; every result below is of the games that finished. The biggest change from the rulebook to this rule set: drama: winner came from behind 86.7% → 95.0% (+8.3 pp). Then, by how much they moved: drama: winner's deepest deficit 3.75 → 4.25 (+13%). No measurable change in: decisiveness: lead taken for good at.",
    "unknown_ending": "Under b weird thing now in 50% of games (a: 0%). b changes no metric measurably from a (95% intervals). b does not change the game length measurably (8.00 vs 8.00 turns, ±2%).",
    "nan_values": "b makes games 12% longer (±2%) than a (8.00 → 9.00 turns). Then, by how much they moved: forced decisions - → 20.0% (-).",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_english_verdict_reads_as_before(case: str) -> None:
    diffs, name_a, name_b, max_turns = CASES[case]
    said = verdict(diffs, name_a, name_b, max_turns)
    assert isinstance(said, Msg)
    assert said == ENGLISH[case]
    stored: Any = to_data(said)
    assert isinstance(stored, dict)  # its templates, not its English
    again = from_data(stored)
    assert isinstance(again, Msg) and again == ENGLISH[case]
