"""The terminal's drivers (:mod:`sheepfold.core.drivers`): the generic one plays every
registered game from the protocol alone, and every game's own driver reads the names of the
moves it offers."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from sheepfold.core.drivers import BadInput, GenericTerminal, terminal_driver
from sheepfold.core.registry import game_names
from sheepfold.games import make


def text_of(renderable: object) -> str:
    console = Console(width=120, no_color=True, record=True)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("name", game_names())
def test_the_generic_driver_plays_any_game_to_its_end(name: str) -> None:
    game = make(name, players=3)
    driver = GenericTerminal(game)
    names = ["ann", "bob", "cy"]
    state = game.new_initial_state(seed=4)
    driver.settle(state)
    for k in range(10_000):
        if state.is_terminal():
            break
        view = state.observe(state.current_player())
        shown = text_of(driver.draw(view, names, False, ()))
        assert all(n in shown for n in names)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), shown  # words, never our keys
        prompt = driver.prompt(state, state.current_player(), "ann", names)
        assert "1) " in prompt
        pick = k % len(state.legal_actions())
        action = driver.parse(state, str(pick + 1), names)
        assert action == state.legal_actions()[pick]
        assert driver.parse(state, state.action_to_string(action), names) == action
        state.apply(action)
        driver.settle(state)
    assert state.is_terminal()
    assert driver.end_reason(state, names).startswith("The game")


@pytest.mark.parametrize("name", game_names())
def test_the_generic_driver_says_what_to_type(name: str) -> None:
    game = make(name)
    driver = GenericTerminal(game)
    state = game.new_initial_state(seed=1)
    driver.settle(state)
    n = len(state.legal_actions())
    with pytest.raises(BadInput, match=f"from 1 to {n}"):
        driver.parse(state, str(n + 1), ["ann", "bob"])
    with pytest.raises(BadInput, match="'fly away' is not a move now"):
        driver.parse(state, "fly away", ["ann", "bob"])


@pytest.mark.parametrize("name", game_names())
def test_each_game_s_driver_reads_what_its_menu_offers(name: str) -> None:
    game = make(name)
    driver = terminal_driver(game)
    state = game.new_initial_state(seed=2)
    driver.settle(state)
    names = ["ann", "bob"]
    for action in state.legal_actions():
        typed = driver.describe(state, action, names).split(" (")[0]  # "dog 2", "swap 1"
        assert driver.parse(state, typed, names) == action
