"""The protocol's surface that other layers build on: stable action ids and names, metadata,
errors, views. Changing any of these breaks bots, records, adapters and the web app."""

from __future__ import annotations

import pytest

from sheepfold.core.play import resolve_chance
from sheepfold.core.protocol import CHANCE, TERMINAL, IllegalAction, RulesError, SheepfoldError
from sheepfold.games import make
from sheepfold.games.dolly_crush import game as dg
from sheepfold.games.shave_a_sheep import game as sg


def test_dolly_action_ids_are_stable() -> None:
    assert (dg.NUM_DOGS, dg.SWAP0, dg.NUM_ACTIONS) == (4, 4, 26)
    assert [dg.action_name(a) for a in range(4)] == ["dog 0", "dog 1", "dog 2", "dog 3"]
    assert dg.action_name(4) == "swap a1-a2" and dg.action_name(5) == "swap a1-b1"
    assert dg.action_name(25) == "swap c4-c5"
    with pytest.raises(IllegalAction):
        dg.action_name(26)
    g = make("dolly-crush", 2)
    assert g.info.num_distinct_actions == 26 and g.info.max_chance_outcomes == 10
    s = g.new_initial_state(seed=0)
    assert s.current_player() == CHANCE and s.action_to_string(s.sample_chance()).startswith(
        "draw "
    )
    resolve_chance(s)
    for text, a in (
        ("dog 2", 2),
        ("d 1", 1),
        ("swap b2-b3", dg.swap_action("b2", "b3")),
        ("B3-b2", dg.swap_action("b2", "b3")),
        ("a1 b1", 5),
        ("s c4,c5", 25),
    ):
        assert s.string_to_action(text) == a
    for bad in ("fly away", "swap a1-a3", "swap z9-a1", ""):
        with pytest.raises(IllegalAction):
            s.string_to_action(bad)


def test_shave_action_ids_are_stable() -> None:
    assert (sg.GROW, sg.DOUBLE, sg.SHEAR, sg.SWAP0, sg.WOLF0, sg.RAID, sg.PASS) == (
        0,
        1,
        2,
        3,
        7,
        11,
        12,
    )
    names = [sg.action_name(a) for a in range(13)]
    assert names == [
        "grow",
        "double",
        "shear",
        "swap seat 0",
        "swap seat 1",
        "swap seat 2",
        "swap seat 3",
        "wolf seat 0",
        "wolf seat 1",
        "wolf seat 2",
        "wolf seat 3",
        "raid",
        "pass",
    ]
    g = make("shave-a-sheep", 3)
    assert g.info.num_distinct_actions == 13 and g.info.perfect_information
    s = g.new_initial_state(seed=0)
    assert s.action_to_string(0) == "roll white" and s.string_to_action("Roll  X2") == 1
    s.apply(s.game.face_index("gray/green"))
    assert s.string_to_action("wolf seat 2") == 9 and s.string_to_action("swap seat 1") == 4
    with pytest.raises(IllegalAction, match="not a legal action"):
        s.string_to_action("grow")


def test_errors_are_small_value_errors() -> None:
    assert issubclass(IllegalAction, SheepfoldError) and issubclass(RulesError, SheepfoldError)
    assert issubclass(SheepfoldError, ValueError)
    s = make("shave-a-sheep", 2).new_initial_state()
    with pytest.raises(IllegalAction, match="not a face"):
        s.apply(6)
    with pytest.raises(IllegalAction, match="integer id"):
        s.apply("0")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="integer id"):
        s.apply(True)  # type: ignore[arg-type]


def test_views_name_the_seat_to_move_and_only_its_actions() -> None:
    s = make("dolly-crush", 3).new_initial_state(seed=2)
    resolve_chance(s)
    v0, v1, spectator = s.observe(0), s.observe(1), s.observe(None)
    assert v0["to_move"] == 0 and v0["legal_actions"] == ["dog 0", "dog 1", "dog 2", "dog 3"]
    assert v1["legal_actions"] == [] and spectator["legal_actions"] == v0["legal_actions"]
    assert v0["seat"] == 0 and spectator["seat"] is None
    assert sum(v0["unseen"].values()) == v0["deck_size"] == 85
    s = make("shave-a-sheep", 2).new_initial_state()
    v = s.observe(1)
    assert v["to_move"] == "chance" and v["legal_actions"] == [] and v["middle"] == 30


def test_terminal_states_absorb() -> None:
    s = make("shave-a-sheep", 2, wool=1).new_initial_state()
    s.apply(0)  # roll white
    s.apply(sg.GROW)
    assert s.current_player() == TERMINAL and s.legal_actions() == [] and s.chance_outcomes() == []
    snap = s.snapshot()
    for a in range(-1, 14):
        with pytest.raises(IllegalAction, match="over"):
            s.apply(a)
    with pytest.raises(IllegalAction):
        s.sample_chance()
    assert s.snapshot() == snap and s.observe(None)["finished"] is True


def test_make_takes_rule_options_as_keywords() -> None:
    g = make("shave-a-sheep", 2, variants=["cutting-costs"], wool=20)
    assert g.rules.cutting_costs and g.rules.wool == 20
    g = make("shave-a-sheep", 2, rules={"wool": 11}, max_wool=3)
    assert (g.rules.wool, g.rules.max_wool) == (11, 3)
    with pytest.raises(RulesError, match="unknown"):
        make("shave-a-sheep", 2, colour="pink")
    with pytest.raises(RulesError, match="unknown game"):
        make("tic-tac-toe")
    g = make("dolly-crush", 2, breeds=["border-collie", "bobtail"], black_points=3)
    assert g.breeds == ("border-collie", "bobtail") and g.points[1] == 3
    with pytest.raises(TypeError):
        g.new_initial_state(seed=1, colour="pink")
