"""Metrics: hand-checked features, win shares against the solver's exact values, comparisons."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sheepfold.games import make
from sheepfold.games.features import game_features
from sheepfold.lab.compare import cells, compare_tables, verdict
from sheepfold.lab.metrics import (
    evaluate,
    fmt,
    fmt_ci,
    fmt_diff,
    game_arrays,
    quantile_ci,
    wilson,
)
from sheepfold.lab.runner import make_job, run

NEGATIVE_ZERO = re.compile(r"[-−]0(\.0+)?(?![\d.])")  # "-0.0", "-0.00 pp", "-0%"; not "-0.04"


def test_features_of_hand_made_games():
    games = [
        # A leads, tie, B leads, B wins: one lead change; the winner trailed by 2; led for good
        # from turn 3 on (2 turns before that)
        [[2, 0], [2, 2], [2, 4], [3, 6]],
        # A leads all along and wins
        [[1, 0], [3, 1], [5, 2]],
        # a shared win
        [[1, 0], [1, 1]],
        # A, B, A: two changes; A (the winner) trailed by 1 at turn 2
        [[1, 0], [1, 2], [5, 2]],
    ]
    offsets = np.cumsum([0] + [len(g) for g in games])
    values = np.array([row for g in games for row in g])
    winner = np.array([1, 0, -1, 0])
    f = game_features(offsets, values, winner)
    assert f.tolist() == [
        [1, 1, 2, 2],
        [0, 0, 0, 0],
        [0, -1, -1, -1],
        [2, 1, 1, 2],
    ]


def test_interval_helpers():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((hi - lo) - 0.19) < 0.01
    est, lo, hi = quantile_ci(np.arange(1000.0), 0.5)
    assert lo <= est <= hi and hi - lo < 80


@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "random"), ("random", "greedy")])
def test_win_shares_agree_with_the_solvers_exact_values(bots):  # type: ignore[no-untyped-def]
    """The lab's win share of each seat covers the exact share (solver.evaluate) in its 95% CI."""
    from sheepfold.lab.perfect import exact_start_shares

    rules = {"wool": 10, "max_wool": 3}
    exact = exact_start_shares(make("shave-a-sheep", rules=rules), list(bots))
    job = make_job("shave-a-sheep", rules, bots=list(bots), games=40_000, seed=2024, max_turns=5000)
    vals = {v.key: v for v in evaluate(game_arrays(run(job, workers=1)))}
    assert vals["truncated"].value == 0
    for s in range(2):
        v = vals[f"win_seat{s}"]
        assert v.lo <= exact[s] <= v.hi, (s, v, exact)
        assert v.hi - v.lo < 0.011  # and the interval is tight enough to mean something
    if bots[0] != bots[1]:  # a seat-0 edge of several points the test would notice
        assert abs(exact[0] - exact[1]) > 0.1


def test_metrics_of_a_run_have_intervals_and_definitions():
    job = make_job(
        "shave-a-sheep", None, bots=["greedy", "random"], rotate=True, games=4000, seed=1
    )
    vals = {v.key: v for v in evaluate(game_arrays(run(job, workers=1)))}
    for key in (
        "length_mean",
        "length_sd",
        "length_p50",
        "truncated",
        "win_seat0",
        "first_player_advantage",
        "balance",
        "tie_rate",
        "lead_changes",
        "drama_rate",
        "drama_depth",
        "decisiveness",
        "margin",
        "skill_gap",
    ):
        v = vals[key]
        assert v.definition
        assert v.lo <= v.value <= v.hi or (v.lo == v.hi == v.value), key
    assert vals["skill_gap"].value > 0.2  # greedy beats random by far
    assert abs(vals["win_seat0"].value - 0.5) < 0.05  # seats rotated


def test_dolly_win_share_by_breed():
    job = make_job("dolly-crush", None, bots=["greedy"], games=24, seed=0, breeds="mix")
    vals = {v.key: v for v in evaluate(game_arrays(run(job, workers=1)))}
    breeds = [k for k in vals if k.startswith("win_breed_")]
    assert len(breeds) == 4
    # the Australian Shepherd (4 swaps a card) wins far more than its share
    assert vals["win_breed_australian-shepherd"].value > 0.6


def test_compare_same_rules_shows_nothing_and_cutting_costs_lengthens():
    base = make_job("shave-a-sheep", None, ruleset="rulebook", games=6000, seed=5)
    same = run(base, workers=1)
    diffs = compare_tables(same, same)
    assert all(d.diff == 0 and not d.significant for d in diffs)
    cc = make_job(
        "shave-a-sheep",
        {"variants": ["cutting-costs"]},
        ruleset="cutting-costs",
        games=6000,
        seed=5,
    )
    diffs = compare_tables(same, run(cc, workers=1))
    by = {d.key: d for d in diffs}
    L = by["length_mean"]
    assert L.significant and L.rel is not None and 0.3 < L.rel < 0.6
    assert L.rel_lo is not None and L.rel_lo < L.rel < L.rel_hi
    text = verdict(diffs, "rulebook", "cutting-costs")
    assert text.startswith("cutting-costs makes games") and "longer" in text and "seat 0" in text


def test_exact_uncertainty_runs_and_falls_towards_the_end():
    from sheepfold.lab.report import run_report

    job = make_job("shave-a-sheep", {"wool": 10, "max_wool": 3}, games=3000, seed=3, exact=True)
    table = run(job, workers=1)
    values = evaluate(game_arrays(table))
    vals = {v.key: v for v in values}
    assert 0.3 < vals["uncertainty"].value < 1
    assert vals["uncertainty_end"].value < vals["uncertainty_mid"].value
    curve = np.array(table.column("uncertainty_curve").to_pylist())
    assert curve.shape == (3000, 10) and np.nanmean(curve[:, 0]) > 0.95  # wide open at the start
    page = run_report(job, table, values)
    assert page.count("data:image/png;base64,") == 4  # length, seats, lead changes, uncertainty


def test_numbers_never_show_a_negative_zero_and_differences_say_pp():
    assert NEGATIVE_ZERO.search("a -0.0% b") and NEGATIVE_ZERO.search("-0.00 pp")
    assert not NEGATIVE_ZERO.search("-0.04 and 10.0%")
    assert fmt(-0.00001, "pct") == "0.0%" and fmt(0.5021, "pct") == "50.2%"
    assert fmt(-0.001, "num") == "0.00" and fmt(-0.2, "num") == "-0.20"
    assert fmt_diff(-0.00001, "pct") == "0.0 pp" and fmt_diff(0.004, "pct") == "+0.4 pp"
    assert fmt_diff(-0.0123, "pp") == "-1.2 pp" and fmt_diff(33.17, "num") == "+33.17"
    assert fmt_diff(-0.001, "num") == "0.00"
    assert fmt(0.0031, "pp") == "+0.3 pp"  # a value that is itself a difference of shares
    assert fmt_ci(-0.0004, 0.012, "pct", diff=True) == "[0.0 pp, +1.2 pp]"
    assert fmt_ci(0.482, 0.507, "pct") == "[48.2%, 50.7%]"


def test_compare_gives_a_b_and_b_minus_a_each_with_its_interval():
    a = run(make_job("shave-a-sheep", None, ruleset="rulebook", games=1500, seed=2), workers=1)
    job_b = make_job(
        "shave-a-sheep", {"variants": ["howling-wolf"]}, ruleset="hw", games=1500, seed=2
    )
    b = run(job_b, workers=1)
    diffs = compare_tables(a, b)
    own_a = {v.key: v for v in evaluate(game_arrays(a))}
    own_b = {v.key: v for v in evaluate(game_arrays(b))}
    for x in diffs:  # each side's interval is the one `lab run` gives it
        assert (x.a_lo, x.a_hi) == (own_a[x.key].lo, own_a[x.key].hi), x.key
        assert (x.b_lo, x.b_hi) == (own_b[x.key].lo, own_b[x.key].hi), x.key
        ca, cb, cd = cells(x)
        assert ca == f"{fmt(x.a, x.kind)} {fmt_ci(x.a_lo, x.a_hi, x.kind)}"
        assert cb == f"{fmt(x.b, x.kind)} {fmt_ci(x.b_lo, x.b_hi, x.kind)}"
        assert cd == f"{fmt_diff(x.diff, x.kind)} {fmt_ci(x.lo, x.hi, x.kind, diff=True)}"
        assert not NEGATIVE_ZERO.search(ca + cb + cd), ca + cb + cd
        if x.kind in ("pct", "pp"):
            assert cd.count(" pp") == 3, cd  # the difference and both ends of its interval
        else:
            assert " pp" not in cd and "%" not in cd
    seat0 = next(x for x in diffs if x.key == "win_seat0")
    assert seat0.a_lo < seat0.a < seat0.a_hi and seat0.b_lo < seat0.b < seat0.b_hi


def test_compare_verdict_says_when_games_hit_the_turn_limit():
    endless = {"die": ["white", "gray", "gray", "white/pink"], "wool": 12, "max_wool": 3}
    fine = make_job("shave-a-sheep", {"wool": 12, "max_wool": 3}, games=400, seed=4, max_turns=150)
    cut = make_job("shave-a-sheep", endless, ruleset="endless", games=400, seed=4, max_turns=150)
    diffs = compare_tables(run(fine, workers=1), run(cut, workers=1))
    T = next(x for x in diffs if x.key == "truncated")
    assert T.a == 0 and T.b > 0
    text = verdict(diffs, "small", "endless", 150)
    assert text.startswith(
        f"Games hit the 150-turn limit (small: 0.0% of games, endless: {fmt(T.b, 'pct')})"
    )
    assert "under endless a game may never end" in text and "games that finished" in text
    assert "truncated games" not in text  # said once, in words
    assert "Games hit" not in verdict(diffs[:1], "small", "endless", 150)
