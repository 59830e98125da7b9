"""An A-versus-A check of the unpaired comparison (``lab compare --independent``): the same rules
on independent seeds differ significantly (p < 0.05) in about 5% of repetitions."""

from __future__ import annotations

import json

from scipy.stats import binom
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.lab.compare import compare_tables
from sheepfold.lab.runner import make_job, run

#: repetitions, and games per side in each
REPS = 400
GAMES = 50
#: the share of repetitions significant at p < 0.05 that the test accepts
LOW, HIGH = 0.01, 0.12


def test_a_false_failure_is_practically_impossible() -> None:
    """If the test is right (5%), the chance that REPS repetitions fall outside [LOW, HIGH] is
    P(X <= 4) + P(X >= 48) for X ~ Binomial(400, 0.05): 1.2e-5 + 2.8e-8, about 1 in 80,000 per
    metric (and the seeds are fixed, so it either always passes or never does)."""
    p = binom.cdf(int(LOW * REPS), REPS, 0.05) + binom.sf(int(HIGH * REPS) - 1, REPS, 0.05)
    assert p < 2e-5, p


def test_a_versus_a_on_independent_seeds_is_significant_in_about_5_percent() -> None:
    """One run of 2 x REPS x GAMES games of the rulebook (greedy bots, engine path); repetition
    r compares games [2r*GAMES, (2r+1)*GAMES) with the next GAMES games: the same rules, other
    seeds. The mean length (a continuous metric) and seat 0's win share (a share with ties) are
    each significant in 1%..12% of the repetitions, and never all of them (the paired
    comparison of a run with itself is never significant: difference 0)."""
    job = make_job("shave-a-sheep", None, bots=["greedy"], games=2 * REPS * GAMES, seed=7)
    table = run(job, workers=1, standings=False)
    hits = {"length_mean": 0, "win_seat0": 0}
    for r in range(REPS):
        a = table.slice(2 * r * GAMES, GAMES)
        b = table.slice((2 * r + 1) * GAMES, GAMES)
        for d in compare_tables(a, b, seed=r, paired=False, only=tuple(hits)):
            hits[d.key] += d.significant
    rates = {k: v / REPS for k, v in hits.items()}
    assert all(LOW <= x <= HIGH for x in rates.values()), rates
    same = compare_tables(a, a, only=tuple(hits))
    assert not any(d.significant for d in same) and all(d.diff == 0 for d in same)


def test_compare_independent_plays_b_on_fresh_seeds() -> None:
    r = CliRunner().invoke(
        app,
        ["lab", "compare", "shave-a-sheep", "shave-rulebook", "shave-rulebook", "--independent"]
        + ["--games", "40", "--engine", "engine", "--workers", "1", "--json"],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["paired"] is False and data["a"]["seed"] == 0 and data["b"]["seed"] == 40
    length = next(m for m in data["metrics"] if m["key"] == "length_mean")
    assert length["diff"] != 0 and length["lo"] < 0 < length["hi"]  # other games, same rules
    paired = CliRunner().invoke(
        app,
        ["lab", "compare", "shave-a-sheep", "shave-rulebook", "shave-rulebook"]
        + ["--games", "40", "--engine", "engine", "--workers", "1", "--json"],
    )
    same = next(m for m in json.loads(paired.stdout)["metrics"] if m["key"] == "length_mean")
    assert same["diff"] == 0 and same["p"] == 1


def test_independent_refuses_runs_that_share_seeds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "a.parquet"
    run(make_job("shave-a-sheep", None, games=10, engine="engine"), f, workers=1)
    r = CliRunner().invoke(
        app, ["lab", "compare", "shave-a-sheep", str(f), str(f), "--independent"]
    )
    assert r.exit_code == 2
    assert "--independent needs A and B on different seeds" in " ".join(r.output.split())
