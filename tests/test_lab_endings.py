"""Every game's end reason: the engines note it, the lab stores and measures it, the verdicts
and `rules check` say it in words."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.drivers import terminal_driver
from sheepfold.games import make
from sheepfold.lab.compare import compare_tables, verdict
from sheepfold.lab.endings import UNINTENDED, WORDS, shares, unintended_note
from sheepfold.lab.metrics import ended_by, evaluate, game_arrays
from sheepfold.lab.runner import make_job, play_engine_game, run

runner = CliRunner()

#: Dolly Crush rule sets that end each way, and the words the end screen uses for it
DOLLY_ENDINGS = {
    "dogs": ({}, "every dog card has been played"),
    "deck": ({"white_per_type": 3, "black_per_type": 1}, "the deck ran out"),
    "cleanup": ({"types": 3, "max_cleanup_rounds": 1}, "the sheep cards ran out"),
    "points": ({"end_points": 4}, "points target"),
    "rounds": ({"rounds": 1}, "ended after 1 round"),
}


@pytest.mark.parametrize("reason", list(DOLLY_ENDINGS))
def test_dolly_crush_notes_why_its_game_ended(reason: str) -> None:
    """The engine's ``ended_by`` (state, view, clone, snapshot) agrees with the end screen's
    sentence, game by game, and each reason happens."""
    rules, words = DOLLY_ENDINGS[reason]
    seen = set()
    for seed in range(12):
        job = make_job("dolly-crush", rules, bots=["greedy"], games=1, seed=seed, engine="engine")
        state, _ = play_engine_game(job, 0)
        view = state.observe(None)
        assert view["finished"] and view["ended_by"] == state.ended_by
        assert state.clone().ended_by == state.ended_by
        assert state.snapshot()["ended_by"] == state.ended_by
        sentence = terminal_driver(state.game).end_reason(state, ["A", "B"])
        if state.ended_by == reason:
            assert words in sentence, sentence
        seen.add(state.ended_by)
    assert reason in seen, seen


def test_an_unfinished_game_has_no_end_reason() -> None:
    state = make("dolly-crush").new_initial_state(seed=1)
    assert state.observe(None)["ended_by"] is None
    state = make("shave-a-sheep").new_initial_state(seed=1)
    assert state.observe(None)["ended_by"] is None


def test_rows_hold_the_reason_and_the_run_its_shares() -> None:
    """Engine path: one reason per row; the shares metrics (every game counted) and ``ended_by``
    agree; the turn limit is a reason of its own."""
    job = make_job("shave-a-sheep", {"target": 6}, bots=["random"], games=60, engine="engine")
    table = run(job, workers=1)
    col = table.column("ended_by").to_pylist()
    assert set(col) == {"target"}
    cut = make_job("shave-a-sheep", None, games=30, engine="engine", max_turns=40)
    d = game_arrays(run(cut, workers=1))
    sh = ended_by(d)
    assert set(sh) <= {"middle", "turn-limit"} and sh["turn-limit"] > 0
    assert sh["turn-limit"] == pytest.approx(d["truncated"].mean())
    vals = {v.key: v for v in evaluate(d)}
    assert vals["ended_turn-limit"].value == pytest.approx(sh["turn-limit"])
    assert vals["ended_turn-limit"].label == "ended: the turn limit stopped it"
    assert vals["ended_turn-limit"].n == 30  # every game, the truncated ones included
    assert sum(sh.values()) == pytest.approx(1.0)


def test_a_file_without_the_column_still_measures() -> None:
    """Runs written before the column existed have no ending metrics and no shares."""
    job = make_job("shave-a-sheep", None, games=20, engine="engine")
    table = run(job, workers=1).drop_columns(["ended_by"])
    d = game_arrays(table)
    assert ended_by(d) == {}
    assert not [v for v in evaluate(d) if v.key.startswith("ended_")]


def test_the_verdict_names_the_new_ending() -> None:
    """When the mix changes, the verdict says it in words (no ids), the ending that grew
    first; an ending only one side has is compared too."""
    a = run(make_job("shave-a-sheep", None, games=80, engine="engine"), workers=1)
    b = run(make_job("shave-a-sheep", {"target": 6}, games=80, engine="engine"), workers=1)
    diffs = {x.key: x for x in compare_tables(a, b)}
    assert diffs["ended_target"].a == 0 and diffs["ended_target"].b == 1
    assert diffs["ended_middle"].significant
    text = verdict(list(diffs.values()), "rulebook", "race")
    assert text.startswith(
        "Under race a safe pile now reaches the target in 100% of games (rulebook: 0%); "
        "the middle ran out of wool in 0% (rulebook: 100%)."
    ), text
    assert "ended_" not in text and "target" in text


def test_no_ending_sentence_when_the_mix_is_the_same() -> None:
    a = run(make_job("shave-a-sheep", None, games=40, engine="engine"), workers=1)
    b = run(make_job("shave-a-sheep", {"wool": 32}, games=40, engine="engine"), workers=1)
    assert "Under " not in verdict(compare_tables(a, b), "rulebook", "more wool")


def test_words_and_warnings() -> None:
    from sheepfold.lab.endings import TURN_LIMIT
    from sheepfold.lab.fastsim_shave import ENDED

    assert ENDED[2] == TURN_LIMIT and set(ENDED) <= set(WORDS)
    assert all(w[0].islower() and "_" not in w[0] for w in WORDS.values())
    assert shares(np.array(["deck", "dogs", "deck", "deck"], dtype=object)) == {
        "dogs": 0.25,
        "deck": 0.75,
    }
    note = unintended_note({"dogs": 0.25, "deck": 0.75}, 40)
    assert note and "the deck ran out in 75%" in note and "deck" in UNINTENDED
    assert unintended_note({"dogs": 0.6, "deck": 0.4}, 40) is None


def test_rules_check_warns_when_games_end_by_accident(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "three.toml"
    bad.write_text('game = "dolly-crush"\nname = "three-types"\ntypes = 3\n')
    r = runner.invoke(app, ["rules", "check", str(bad)])
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "did not end as the rules mean them to" in out and "the deck ran out" in out
    good = runner.invoke(app, ["rules", "check", "dolly-graded"])
    assert good.exit_code == 0 and "did not end" not in good.output


def test_lab_json_reports_the_shares() -> None:
    r = runner.invoke(
        app,
        ["lab", "run", "dolly-crush", "--games", "6", "--bot", "greedy", "--engine", "engine"]
        + ["--workers", "1", "--json"],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["ended_by"] == {"dogs": 1.0}
    text = runner.invoke(
        app, ["lab", "run", "dolly-crush", "--games", "4", "--engine", "engine", "-w", "1"]
    )
    assert "How games ended: every dog card was played 100.0%" in " ".join(text.output.split())


@pytest.mark.parametrize(
    ("rules", "bots"),
    [
        ("race-to-twelve", ["random"]),  # a target, a shear cost and the final shear
        ({"target": 10, "shear_cost": 1}, ["greedy", "random"]),
        (None, ["random"]),
    ],
)
def test_fast_shave_a_sheep_reports_the_engines_reason(rules, bots) -> None:  # type: ignore[no-untyped-def]
    """The fast simulator's reason of every game is the engine's, for the same game (traced and
    replayed through the engine), also where the final shear refills the middle."""
    from sheepfold.lab import fastsim_shave
    from sheepfold.rulesets import find_ruleset

    model = find_ruleset(rules, "shave-a-sheep").rules if isinstance(rules, str) else rules
    job = make_job("shave-a-sheep", model, bots=bots, games=150, engine="fast", max_turns=200)
    table = run(job, workers=1)
    fast = table.column("ended_by").to_pylist()
    engine = []
    for i in range(job.games):
        state = fastsim_shave.engine_state(job, i)
        v = state.observe(None)
        engine.append("turn-limit" if v["truncated"] else v["ended_by"])
    assert fast == engine
    if rules == "race-to-twelve":
        assert {"middle", "target"} <= set(fast)  # both happen, so both are told apart


def test_a_resumed_old_file_counts_the_reasons_it_has() -> None:
    """An old file resumed holds rows without a reason (null): the shares are of the rows that
    have one, and the metrics say over how many games."""
    import pyarrow as pa

    table = run(make_job("shave-a-sheep", {"target": 6}, games=20, engine="engine"), workers=1)
    col = pa.array([None] * 8 + table.column("ended_by").to_pylist()[8:], type=pa.string())
    mixed = table.set_column(table.schema.get_field_index("ended_by"), "ended_by", col)
    d = game_arrays(mixed)
    assert ended_by(d) == {"target": 1.0}
    vals = {v.key: v for v in evaluate(d)}
    assert vals["ended_target"].value == 1.0 and vals["ended_target"].n == 12
