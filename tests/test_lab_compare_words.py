"""What `lab compare` and `lab variants` say in words: what differs between two rule sets,
the metric that moved most first, p-values that agree with the intervals."""

from __future__ import annotations

import math

import numpy as np

from sheepfold.lab.compare import Diff, _p_value, movement, rules_differences, verdict


def _diff(key: str, kind: str, a: float, b: float, label: str = "", sig: bool = True) -> Diff:
    rel = (b / a - 1) if kind == "num" and a else None
    return Diff(
        key, label or key, kind, a, b, b - a, b - a - 0.01, b - a + 0.01, 0.001 if sig else 0.5,
        sig, rel, rel, rel,
    )  # fmt: skip


def test_rules_differences_names_each_changed_option_in_words() -> None:
    lines = rules_differences("shave-a-sheep", {"max_turns": 100}, {"wool": 40, "max_turns": 100})
    assert lines == ["wool (pieces of wool in the middle at setup): 30 → 40"]
    lines = rules_differences("dolly-crush", {}, {"dog_swaps": {"bobtail": 2}})
    assert len(lines) == 1  # Dolly Crush: part by part, in its rules' words
    assert "Bobtail 2 swaps each" in lines[0] and "(instead of: " in lines[0]
    assert "Bobtail 1 swap each" in lines[0] and "dog_swaps" not in lines[0]
    assert rules_differences("shave-a-sheep", {"name": "x"}, {"description": "y"}) == []


def test_verdict_leads_with_the_metric_that_moved_most() -> None:
    diffs = [
        _diff("length_mean", "num", 8.0, 8.1, "game length"),  # +1%: significant, but small
        _diff("balance", "pct", 0.0, 0.9, "balance"),  # +90 pp
        _diff("lead_changes", "num", 1.0, 2.0, "lead changes"),  # 1 -> 2: 1/3 of the sum
        _diff("tie_rate", "pct", 0.1, 0.1, "ties", sig=False),
    ]
    text = verdict(diffs, "rulebook", "graded")
    assert text.startswith("The biggest change from rulebook to graded: balance 0.0% → 90.0%")
    assert text.index("lead changes") < text.index("game length")
    assert text.endswith("No measurable change in: ties.")
    assert movement(diffs[1]) > movement(diffs[2]) > movement(diffs[0])


def test_verdict_when_nothing_moved_says_so() -> None:
    diffs = [_diff("length_mean", "num", 8.0, 8.0, "game length", sig=False)]
    assert verdict(diffs, "a", "b").startswith("b changes no metric measurably from a")


def test_p_value_agrees_with_the_percentile_interval() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        d = rng.normal(rng.uniform(-0.3, 0.3), 0.1, 400)
        lo, hi = np.quantile(d, [0.025, 0.975])
        p = _p_value(d)
        excludes = not (lo <= 0 <= hi)
        below = int(np.count_nonzero(d <= 0))
        above = int(np.count_nonzero(d >= 0))
        if min(below, above) not in (9, 10):  # a replicate either side of the 2.5% line
            assert excludes == (p < 0.05), (lo, hi, p)
    assert _p_value(np.zeros(400)) == 1.0
    assert math.isclose(_p_value(np.ones(400)), 2 / 401)


def test_length_metrics_move_against_the_mean_length() -> None:
    """A length's spread going from 0 to 0.05 turns in games of 8 turns is no big move (it was
    1.0 on its own scale, and led a Dolly Crush verdict)."""
    diffs = [
        _diff("length_mean", "num", 8.0, 8.0, "game length", sig=False),
        _diff("length_sd", "num", 0.0, 0.05, "length spread"),
        _diff("balance", "pct", 0.90, 0.94, "balance"),
    ]
    text = verdict(diffs, "graded", "cascades")
    assert text.startswith("The biggest change from graded to cascades: balance")
