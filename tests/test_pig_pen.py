"""Pig Pen, the third game (games/pig_pen): conformance, hand-worked turns, records that round-trip
and replay, rules validated with clear messages, and the length bounds its spec declares."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheepfold.core.conformance import check_game
from sheepfold.core.protocol import CHANCE, TERMINAL, IllegalAction, RulesError
from sheepfold.core.records import RecordError, parse_record, replay, summary, to_record
from sheepfold.core.registry import game_spec
from sheepfold.games import make
from sheepfold.games.pig_pen.game import DIE, PEN, ROLL, PigState, rolls_per_turn

SPEC = game_spec("pig-pen")


def state_of(**rules: int) -> PigState:
    s = make("pig-pen", players=2, rules=rules).new_initial_state(seed=1)
    assert isinstance(s, PigState)
    return s


def roll(s: PigState, face: int) -> None:
    s.apply(face - 1)


def random_game(players: int, rules: dict[str, int], seed: int) -> PigState:
    s = make("pig-pen", players=players, rules=rules).new_initial_state(seed=seed)
    assert isinstance(s, PigState)
    pick = random.Random(seed)
    while not s.is_terminal():
        s.apply(s.sample_chance() if s.is_chance_node() else pick.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    report = check_game(make("pig-pen", players=players), num_games=8, seed=players)
    assert report.games == report.terminal == 8
    assert report.decisions > 0 and report.chance_events > 0 and report.checks["record"] >= 8


def test_conformance_small_rules() -> None:
    # a coin for a die, a short race, few turns: turn limits and targets both end games
    rules = {"target": 5, "faces": 2, "max_turns": 3}
    report = check_game(make("pig-pen", players=3, rules=rules), num_games=30, seed=7)
    assert report.games == 30


def test_a_turn_by_hand() -> None:
    s = state_of()
    assert s.current_player() == CHANCE and s.legal_actions() == list(range(6))
    roll(s, 4)
    assert s.current_player() == 0 and s.legal_actions() == [ROLL, PEN]
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["roll", "pen"]
    s.apply(ROLL)
    roll(s, 5)
    assert s.turn_wool == 9
    s.apply(PEN)
    assert s.pens == [9, 0] and s.turn == 1 and s.phase == DIE and s.rolls == []
    roll(s, 6)
    s.apply(ROLL)
    roll(s, 1)  # a 1 loses the turn's wool and passes the turn
    assert s.pens == [9, 0] and s.lost == 6 and s.turn == 0 and s.turns == 2


def test_reaching_the_target_pens_and_wins_at_once() -> None:
    s = state_of(target=10)
    roll(s, 6)
    s.apply(ROLL)
    roll(s, 4)
    assert s.current_player() == TERMINAL
    assert s.pens == [10, 0] and s.winners() == [0] and s.returns() == [1.0, 0.0]


def test_the_turn_limit_ends_the_game_ties_shared() -> None:
    s = state_of(max_turns=1)
    roll(s, 3)
    s.apply(PEN)
    roll(s, 3)
    s.apply(PEN)
    assert s.is_terminal() and s.winners() == [0, 1] and s.returns() == [0.5, 0.5]
    out = s.outcome()
    assert out is not None and not out.truncated


def test_illegal_actions_say_why_and_change_nothing() -> None:
    s = state_of()
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="not a face of the die"):
        s.apply(6)
    roll(s, 2)
    with pytest.raises(IllegalAction, match="0 roll, 1 pen"):
        s.apply(2)
    assert s.snapshot() != before and s.turn_wool == 2


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"target": 2}, "target"),
        ({"faces": 1}, "faces"),
        ({"faces": 21}, "faces"),
        ({"max_turns": 0}, "max_turns"),
        ({"wool": 3}, "wool"),
    ],
)
def test_rules_are_validated_with_the_field_named(rules: dict[str, int], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        make("pig-pen", players=2, rules=rules)


def test_players_two_to_four() -> None:
    with pytest.raises(RulesError, match="2 to 4 players"):
        make("pig-pen", players=5)


def test_the_spec_is_not_listed_and_declares_the_game() -> None:
    assert SPEC.listed is False
    assert game_spec("shave-a-sheep").listed and game_spec("dolly-crush").listed
    g = make("pig-pen", players=3, rules={"faces": 8})
    assert g.info.max_chance_outcomes == SPEC.max_chance_outcomes(g) == 8
    assert g.info.max_game_length == SPEC.max_decisions(g) == 40 * 3 * 14
    assert SPEC.max_chance_nodes(g) == 40 * 3 * 15
    assert g.info.perfect_information


def test_a_record_round_trips_and_replays() -> None:
    s = random_game(3, {"target": 20}, seed=5)
    rec = to_record(s, ["Ann", "Bob", "Cy"])
    assert rec["game"] == "pig-pen" and rec["rules"] == {"target": 20}
    assert all(set(m) == {"rolls"} for m in rec["moves"])
    back = replay(json.dumps(rec))
    assert back.error is None and back.state == s and back.names == ("Ann", "Bob", "Cy")
    out = summary(back.state, back.moves_applied)
    assert out["pens"] == s.pens and out["finished"] and out["winners"] == s.winners()


def test_a_hand_written_record() -> None:
    rec = {
        "format": "sheepfold-record/1",
        "game": "pig-pen",
        "players": [{"name": "a"}, {"name": "b"}],
        "rules": {"target": 12},
        "moves": [{"rolls": [4, 5]}, {"rolls": [6, 1]}, {"rolls": [3]}],
    }
    r = replay(rec)
    assert r.error is None and r.moves_applied == 3
    assert r.state.scores() == [12.0, 0.0] and r.state.is_terminal()  # 9 + 3 reaches 12


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ({"rolls": [7]}, "rolls.0: 7 is not a face of the die (1 to 6)"),
        ({"rolls": [1, 3]}, "rolls.1: the turn ended with the roll before (a 1 ends the turn)"),
        ({"rolls": [6, 6, 6]}, "rolls.2: the turn ended with the roll before (the pen reached"),
        ({"rolls": [2], "seat": 0}, "it is seat 1's turn, not seat 0's"),
    ],
)
def test_a_bad_move_stops_the_replay_with_the_reason(move: dict[str, object], message: str) -> None:
    rec = {
        "format": "sheepfold-record/1",
        "game": "pig-pen",
        "players": [{"name": "a"}, {"name": "b"}],
        "rules": {"target": 12},
        "moves": [{"rolls": [2]}, move],
    }
    r = replay(rec)
    assert r.moves_applied == 1 and r.error is not None and r.error.move == 1
    assert message in r.error.message
    assert r.state.scores() == [2.0, 0.0]  # the state before the bad move: nothing half-applied


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"moves": [{"rolls": []}]}, "moves.0.rolls"),
        ({"moves": [{"rolls": ["3"]}]}, "moves.0.rolls.0"),
        ({"moves": [{"rolls": [2] * 501}]}, "moves.0.rolls"),
        ({"rules": {"target": "30"}}, "rules"),
        ({"players": [{"name": "a"}]}, "players"),
    ],
)
def test_a_malformed_record_names_its_field(change: dict[str, object], field: str) -> None:
    rec = {
        "format": "sheepfold-record/1",
        "game": "pig-pen",
        "players": [{"name": "a"}, {"name": "b"}],
        "moves": [],
        **change,
    }
    with pytest.raises(RecordError) as err:
        parse_record(rec)
    assert err.value.field is not None and err.value.field.startswith(field)


@given(
    st.integers(2, 4),
    st.integers(3, 40),
    st.integers(2, 8),
    st.integers(1, 12),
    st.integers(0, 2**31 - 1),
)
def test_random_games_keep_the_invariants_and_bounds(
    players: int, target: int, faces: int, max_turns: int, seed: int
) -> None:
    rules = {"target": target, "faces": faces, "max_turns": max_turns}
    g = make("pig-pen", players=players, rules=rules)
    s = g.new_initial_state(seed=seed)
    assert isinstance(s, PigState)
    pick = random.Random(seed)
    decisions = rolls = turn_rolls = 0
    while not s.is_terminal():
        assert SPEC.invariants(s) == []
        if s.is_chance_node():
            rolls += 1
            turn_rolls += 1
            s.apply(s.sample_chance())
        else:
            decisions += 1
            s.apply(pick.choice(s.legal_actions()))
        assert turn_rolls <= rolls_per_turn(target)
        if not s.rolls:
            turn_rolls = 0
    assert SPEC.invariants(s) == []
    assert decisions <= SPEC.max_decisions(g) and rolls <= SPEC.max_chance_nodes(g)
    # conservation recounted from the history: every face but the 1s is in a pen or was lost
    faces_rolled = sum(a + 1 for who, a in s.history if who == CHANCE and a > 0)
    assert sum(s.pens) + s.lost == faces_rolled == s.rolled
    assert max(s.pens) >= target or s.turns == max_turns * players


def test_the_bounds_are_reached() -> None:
    # every turn rolls 2s up to one short of the target, then a 1: the longest game there is
    g = make("pig-pen", players=2, rules={"target": 9, "max_turns": 2})
    s = g.new_initial_state(seed=0)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(1 if len(s.rolls) < rolls_per_turn(9) - 1 else 0)
        else:
            s.apply(ROLL)
    decisions = sum(1 for who, _ in s.history if who != CHANCE)
    assert decisions == SPEC.max_decisions(g) and len(
        s.history
    ) - decisions == SPEC.max_chance_nodes(g)
