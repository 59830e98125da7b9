"""Decision metrics: decisions per game, forced decisions, real choices; the exact skill gap."""

from __future__ import annotations

import json
import math

import numpy as np
import pyarrow.parquet as pq
import pytest

from sheepfold.core.protocol import CHANCE, TERMINAL
from sheepfold.lab import fastsim_shave as fs
from sheepfold.lab.compare import compare_tables
from sheepfold.lab.metrics import evaluate, game_arrays
from sheepfold.lab.runner import (
    DECISION_COLUMNS,
    SCHEMA_KEY,
    bot_seed,
    make_job,
    read_table,
    run,
)

FORCED_ONLY = {"die": ["white"], "wool": 6, "max_wool": 2}  # every roll: grow, nothing else
SMALL = {"wool": 10, "max_wool": 3}


def _decisions(table) -> list[list[int | None]]:  # type: ignore[no-untyped-def]
    return [table.column(c).to_pylist() for c in DECISION_COLUMNS]


def _values(table) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {v.key: v for v in evaluate(game_arrays(table)) if v.group == "decisions"}


def _walk(game, seed: int, actions: list[int]) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """Hand count over an action list: (decisions, forced, legal actions summed)."""
    state = game.new_initial_state(seed=seed)
    dec = forced = total = 0
    for a in actions:
        if state.current_player() != CHANCE:
            k = len(set(state.legal_actions()))
            dec, forced, total = dec + 1, forced + (k == 1), total + k
        state.apply(a)
    assert state.current_player() == TERMINAL
    return dec, forced, total


def _engine_actions(job, i: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Game ``i`` of an engine job played again with its bots, every action listed."""
    from sheepfold.bots import make_bot

    game = job.make_game(i)
    seed = job.game_seed(i)
    bots = [make_bot(b, game, s, seed=bot_seed(seed, s)) for s, b in enumerate(job.seat_bots(i))]
    state = game.new_initial_state(seed=seed)
    out = []
    while state.current_player() != TERMINAL:
        p = state.current_player()
        a = state.sample_chance() if p == CHANCE else bots[p].act(state.observe(p))
        out.append(a)
        state.apply(a)
    return out


def test_forced_only_rules_give_forced_share_one():
    """A one-face white die: every decision is the one 'grow' (a full sheep is shorn before
    its roll), in both engines, and the game is one decision per turn."""
    for engine in ("engine", "fast"):
        job = make_job("shave-a-sheep", FORCED_ONLY, bots=("greedy",), games=30, engine=engine)
        table = run(job, workers=1)
        dec, forced, choices = _decisions(table)
        assert dec == forced == choices == table.column("length").to_pylist()
        v = _values(table)
        assert v["forced_share"].value == 1.0 and v["choices_mean"].value == 1.0
        assert v["forced_share"].n == 30


@pytest.mark.parametrize("bots", [("greedy",), ("random", "greedy")])
def test_engine_counts_equal_a_hand_count(bots):  # type: ignore[no-untyped-def]
    job = make_job("shave-a-sheep", SMALL, bots=bots, games=12, engine="engine")
    table = run(job, workers=1)
    dec, forced, choices = _decisions(table)
    for i in range(job.games):
        assert (dec[i], forced[i], choices[i]) == _walk(
            job.make_game(i), job.game_seed(i), _engine_actions(job, i)
        )
    assert any(f < d for f, d in zip(forced, dec, strict=True))  # real choices happen
    v = _values(table)
    assert v["forced_share"].value == pytest.approx(sum(forced) / sum(dec))
    assert v["choices_mean"].value == pytest.approx(sum(choices) / sum(dec))
    assert v["decisions_mean"].value == pytest.approx(np.mean(dec))
    lo, hi = v["choices_mean"].lo, v["choices_mean"].hi
    assert lo <= v["choices_mean"].value <= hi


def test_fast_shave_counts_a_sample_replayed_through_the_engine():
    """Games below 500 and every 1000th after are counted (the fast game's own actions, replayed
    through the engine); the others hold nulls and the metrics are of the counted games."""
    job = make_job("shave-a-sheep", SMALL, bots=("perfect", "greedy"), games=1003, engine="fast")
    table = run(job, workers=1, chunk_size=400)
    dec, forced, choices = _decisions(table)
    assert dec[1000] is not None and dec[1001] is None and dec[1002] is None
    assert all(x is not None for x in dec[:500]) and all(x is None for x in dec[500:1000])
    game = job.make_game(0)
    ex = fs.exact_for(game, job.bots)
    for i in (0, 7, 499, 1000):
        seed = job.game_seed(i)
        acts = fs.trace(game, seed, [fs.PERFECT, fs.GREEDY], ex)
        assert (dec[i], forced[i], choices[i]) == _walk(game, seed, acts)
    v = _values(table)
    assert v["forced_share"].n == 501 == v["choices_mean"].n
    assert 0 < v["forced_share"].value < 1


def test_dolly_fast_counts_equal_the_engine_counts():
    """The fast Dolly Crush path (kernel greedy turns) counts what the engine path counts:
    the dog card, each swap and stop, game by game."""
    rows = []
    for engine in ("fast", "engine"):
        job = make_job("dolly-crush", None, bots=("greedy",), games=3, engine=engine)
        rows.append(_decisions(run(job, workers=1)))
    assert rows[0] == rows[1]
    dec, forced, choices = rows[0]
    job = make_job("dolly-crush", None, bots=("greedy",), games=1, engine="engine")
    assert (dec[0], forced[0], choices[0]) == _walk(
        job.make_game(0), job.game_seed(0), _engine_actions(job, 0)
    )
    assert all(c > d for c, d in zip(choices, dec, strict=True))  # more than one choice on average


def test_old_files_without_the_columns_still_load(tmp_path):  # type: ignore[no-untyped-def]
    job = make_job("shave-a-sheep", SMALL, bots=("greedy",), games=40, engine="engine")
    new = tmp_path / "new.parquet"
    table = run(job, new, workers=1)
    old = tmp_path / "old.parquet"
    stripped = table.drop_columns(list(DECISION_COLUMNS))
    pq.write_table(stripped.replace_schema_metadata({SCHEMA_KEY: job.to_json().encode()}), old)
    _, loaded = read_table(old)
    v = {x.key: x for x in evaluate(game_arrays(loaded))}
    for key in ("decisions_mean", "forced_share", "choices_mean"):
        assert math.isnan(v[key].value) and v[key].n == 0
    assert (
        v["length_mean"].value
        == {x.key: x for x in evaluate(game_arrays(table))}["length_mean"].value
    )
    diffs = {d.key: d for d in compare_tables(loaded, table)}
    assert math.isnan(diffs["forced_share"].a) and not diffs["forced_share"].significant
    # resuming an old file: its rows stay uncounted, the new ones are counted
    more = make_job("shave-a-sheep", SMALL, bots=("greedy",), games=60, engine="engine")
    merged = run(more, old, workers=1, resume=True)
    dec = merged.column("decisions").to_pylist()
    assert dec[:40] == [None] * 40 and all(x is not None for x in dec[40:])
    assert _values(merged)["forced_share"].n == 20


def test_exact_skill_gap_equals_the_solvers_numbers():
    from sheepfold.games import make
    from sheepfold.games.shave_a_sheep import solver
    from sheepfold.lab.perfect import exact_skill_gap

    game = make("shave-a-sheep", players=2, rules=SMALL)
    sp = solver.Space(game.rules, 2)
    x = sp.start_index()

    def share(pols: list[str], seat: int) -> float:
        return float(solver.evaluate(sp, 2, pols).V[x][seat])

    pg = share(["perfect", "greedy"], 0)
    gp = share(["greedy", "perfect"], 1)
    gg = (share(["greedy", "greedy"], 0) + share(["greedy", "greedy"], 1)) / 2
    gap = exact_skill_gap(game)
    assert gap["strong_by_seat"] == pytest.approx([pg, gp], abs=1e-9)
    assert gap["gap"] == pytest.approx((pg + gp) / 2 - gg, abs=1e-9)
    assert gap["gap"] > 0


def test_variants_and_run_show_the_exact_skill_gap(tmp_path):  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from sheepfold.cli.main import app
    from sheepfold.games import make
    from sheepfold.lab.perfect import exact_skill_gap

    small = tmp_path / "small.json"
    small.write_text(json.dumps({"name": "small", **SMALL}))
    runner = CliRunner()
    r = runner.invoke(
        app,
        ["lab", "variants", "shave-a-sheep", "-r", str(small), "--exact", "-n", "200", "-w", "1"]
        + ["--json"],
    )
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout)[0]
    expected = exact_skill_gap(make("shave-a-sheep", players=2, rules=SMALL))["gap"]
    assert row["skill_gap"] == pytest.approx(expected)
    assert 0 < row["forced"] < 1 and row["choices"] > 1
    r = runner.invoke(
        app,
        ["lab", "variants", "shave-a-sheep", "-r", str(small), "--exact", "-n", "200", "-w", "1"],
        env={"COLUMNS": "220"},
    )
    assert r.exit_code == 0 and "skill gap" in r.stdout, r.output
    r = runner.invoke(
        app,
        ["lab", "run", "shave-a-sheep", "-r", str(small), "--exact", "-n", "200", "-w", "1"],
        env={"COLUMNS": "200"},
    )
    assert r.exit_code == 0, r.output
    assert "skill gap (exact, these rules): perfect wins" in r.stdout
    assert "forced decisions" in r.stdout and "real choices per decision" in r.stdout
