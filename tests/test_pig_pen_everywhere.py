"""Pig Pen, registered only inside games/, plays everywhere (issue 25): the bots, the lab, records,
and the three adapters (OpenSpiel's random_sim_test, PettingZoo's api_test, Gymnasium's
check_env), with no file outside games/ naming it."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from sheepfold.bots import available_bots, make_bot
from sheepfold.core.records import replay, save_record, summary, to_record
from sheepfold.core.registry import game_spec
from sheepfold.games import make
from sheepfold.games.pig_pen.game import PEN, ROLL, PigState
from sheepfold.lab.runner import LabError, make_job, read_table, record_of, replay_state, run

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sheepfold"
SPEC = game_spec("pig-pen")


def test_no_file_outside_games_names_pig_pen() -> None:
    named = re.compile(r"pig[-_ ]?pen|PigPen|PigGame|PigState", re.IGNORECASE)
    bad = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and p.suffix in (".py", ".js", ".html", ".css", ".toml", ".json")
        and (PACKAGE / "games") not in p.parents
        and named.search(p.read_text(encoding="utf-8"))
    ]
    assert not bad, f"files outside games/ that name Pig Pen: {bad}"


# -- bots -----------------------------------------------------------------------------------
def position(pen: int, wool_rolls: list[int], target: int = 30) -> PigState:
    s = make("pig-pen", players=2, rules={"target": target}).new_initial_state(seed=0)
    assert isinstance(s, PigState)
    s.pens = [pen, 0]
    for k, face in enumerate(wool_rolls):
        if k:
            s.apply(ROLL)
        s.apply(face - 1)
    return s


def test_random_and_greedy_play_it() -> None:
    assert {"random", "greedy"} <= set(available_bots("pig-pen"))
    s = position(0, [3])
    for name in ("random", "greedy"):
        assert make_bot(name, s.game, 0, seed=1).act(s.observe(0)) in (ROLL, PEN)


def test_greedy_pens_its_wool_and_rolls_for_a_sure_win() -> None:
    greedy = make_bot("greedy", position(0, [3]).game, 0, seed=1)
    assert greedy.act(position(0, [3]).observe(0)) == PEN  # a roll only risks the 3
    # 26 + 3 = 29: any face but the 1 wins, 5 chances in 6
    assert greedy.act(position(26, [3]).observe(0)) == ROLL


# -- the lab -------------------------------------------------------------------------------
def test_the_lab_runs_it_on_the_engine_and_writes_its_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    job = make_job("pig-pen", {"target": 20}, bots=["random", "greedy"], games=24, seed=5)
    assert job.engine == "engine"  # no fast simulator: auto picks the rules engine
    out = tmp_path / "pig.parquet"
    table = run(job, out, workers=1)
    assert table.num_rows == 24
    job2, table2 = read_table(out)
    assert job2 == job
    rows = table2.to_pylist()
    assert sorted(r["game_index"] for r in rows) == list(range(24))
    for r in rows:
        assert r["game"] == "pig-pen" and r["engine"] == "engine" and r["decisions"] > 0
        assert max(r["scores"]) >= 20 or r["length"] == 40 * 2
        assert r["standings"][-1] == r["scores"] and not r["truncated"]
    from sheepfold.lab.metrics import _finished, evaluate, game_arrays

    d = game_arrays(table2)  # the metrics are computed for it like for any game
    assert d["G"] == int(_finished(d).sum()) == 24 and len(evaluate(d, 0)) > 10
    # a row turns back into a record that replays to the game the row holds
    rec = record_of(job2, 7)
    back = replay(json.loads(json.dumps(rec)))
    row = next(r for r in rows if r["game_index"] == 7)
    assert back.error is None and back.state == replay_state(job2, 7)
    assert [int(x) for x in back.state.scores()] == row["scores"]


def test_the_lab_says_it_has_no_fast_simulator() -> None:
    with pytest.raises(LabError, match="Pig Pen has no fast simulator"):
        make_job("pig-pen", None, games=2, engine="fast")


# -- records --------------------------------------------------------------------------------
def test_a_saved_record_replays_through_core_records(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = make("pig-pen", players=3, rules={"target": 25, "faces": 8})
    bots = [make_bot(b, game, s, seed=s) for s, b in enumerate(["greedy", "random", "random"])]
    s = game.new_initial_state(seed=11)
    while not s.is_terminal():
        p = s.current_player()
        s.apply(s.sample_chance() if p < 0 else bots[p].act(s.observe(p)))
    path = save_record(s, tmp_path / "pig.json", ["Ann", "Bob", "Cy"])
    back = replay(path)
    assert back.error is None and back.state == s
    assert summary(back.state, back.moves_applied) == summary(s, len(to_record(s)["moves"]))


def test_sheepfold_replay_json_reads_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from sheepfold.cli.main import app

    s = make("pig-pen", players=2).new_initial_state(seed=2)
    for a in (3, PEN, 5, ROLL, 0):  # seat 0 pens a 4; seat 1 rolls a 6, then a 1
        s.apply(a)
    path = save_record(s, tmp_path / "pig.json")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["game"] == "pig-pen" and out["scores"] == [4, 0] and out["moves_applied"] == 2
    assert out["pens"] == [4, 0] and not out["finished"]


# -- the adapters ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sheepfold.interop.openspiel as sos

    short = SPEC.openspiel_name
    assert sos.SHORT_NAMES["pig-pen"] == short
    game = pyspiel.load_game(f"{short}(players={players},target=20,faces=5)")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    engine = sos.sheepfold_game(game).engine
    assert game.max_game_length() == SPEC.max_decisions(engine) == engine.info.max_game_length
    assert game.max_chance_nodes_in_history() == SPEC.max_chance_nodes(engine)
    assert game.max_chance_outcomes() == 5 and game.num_distinct_actions() == 2
    params = game.get_type().parameter_specification
    assert {"target", "faces", "max_turns"} <= set(params)


def test_openspiel_refuses_a_bad_parameter_in_words() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sheepfold.interop.openspiel as sos

    with pytest.raises(Exception, match="faces"):
        pyspiel.load_game(f"{sos.SHORT_NAMES['pig-pen']}(faces=40)")


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test(players: int) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from sheepfold.interop.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PettingZoo's advice on dict spaces
        api_test(env("pig-pen", players=players), num_cycles=300)
        seed_test(lambda: env("pig-pen", players=players), num_cycles=50)


@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "opponents": "greedy", "seat": "random"}])
def test_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from sheepfold.interop.gymnasium import ENV_IDS

    assert ENV_IDS["pig-pen"] == SPEC.env_id == "sheepfold/PigPen-v0"
    env = gym.make(SPEC.env_id, rules={"target": 15}, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    done = False
    reward = 0.0
    while not done:
        action = int(info["action_mask"].argmax())  # always the first legal action: roll
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert terminated and not truncated and reward in (0.0, 1.0 / 3, 0.5, 1.0)


def test_gymnasium_takes_max_turns_as_its_rule() -> None:
    gym = pytest.importorskip("gymnasium")
    env = gym.make(SPEC.env_id, max_turns=2)
    assert env.unwrapped.game.rules.max_turns == 2
