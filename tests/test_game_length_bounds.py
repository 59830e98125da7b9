"""The declared bounds on a game's length hold: the most decisions and chance events that
random and bot games ever reach stay within what the game spec (and so OpenSpiel's
``max_game_length``, ``max_chance_nodes_in_history`` and ``max_history_length``) declares.

Issue 17: 2-player Dolly Crush declared 28 chance nodes (OpenSpiel's default, the decisions)
while games drew 42 cards: every refill is a chance event.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sheepfold.bots import make_bot
from sheepfold.core.protocol import CHANCE, Game
from sheepfold.core.registry import game_spec
from sheepfold.games import make, parse_rules

DOLLY_RULES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),  # the rulebook
    (2, {"dog_swaps": {b: [1, 2, 3, 4] for b in ("pastore-maremmano", "australian-shepherd")}}),
    (3, {"cascades": True}),
    (2, {"rounds": 6, "swaps": "up-to"}),
    (2, {"swaps": "up-to", "cascades": True}),
    (4, {"rows": 5, "cols": 6, "types": 6, "rounds": 3}),
    (2, {"rows": 4, "cols": 4, "types": 3, "white_per_type": 6, "black_per_type": 2}),
]
SHAVE_RULES: list[tuple[int, dict[str, Any]]] = [
    (2, {"max_turns": 40}),  # truncated often
    (3, {"variants": ["howling-wolf"], "max_turns": 60}),
    (2, {"rerolls": 2, "max_turns": 30}),
    (4, {"variants": ["howling-wolf"], "rerolls": 1, "max_turns": 50}),
]


def _longest(game: Game, bot: str, games: int) -> tuple[int, int]:
    """The most decisions and the most chance events of ``games`` games of ``bot`` bots."""
    most_decisions = most_chance = 0
    rng = random.Random(17)
    for i in range(games):
        s = game.new_initial_state(seed=i)
        bots = [make_bot(bot, game, p, rng.randrange(2**31)) for p in range(game.num_players)]
        decisions = chance = 0
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s.apply(s.sample_chance(rng))
                chance += 1
            else:
                s.apply(bots[p].act(s.observe(p)))
                decisions += 1
        most_decisions = max(most_decisions, decisions)
        most_chance = max(most_chance, chance)
    return most_decisions, most_chance


def _check(game: Game, bot: str, games: int) -> None:
    spec = game_spec(game.name)
    decisions, chance = _longest(game, bot, games)
    assert decisions <= spec.max_decisions(game), (game.rules, bot, decisions)
    assert chance <= spec.max_chance_nodes(game), (game.rules, bot, chance)
    if game.info.max_game_length:  # the engine's own bound (0: none; Shave's max_turns)
        assert decisions <= game.info.max_game_length, (game.rules, bot, decisions)


@pytest.mark.parametrize("bot,games", [("random", 150), ("greedy", 15)])
@pytest.mark.parametrize("players,rules", DOLLY_RULES)
def test_dolly_games_stay_within_declared_bounds(
    players: int, rules: dict[str, Any], bot: str, games: int
) -> None:
    _check(
        make("dolly-crush", players=players, rules=parse_rules("dolly-crush", rules)), bot, games
    )


@pytest.mark.parametrize("bot,games", [("random", 150), ("greedy", 40)])
@pytest.mark.parametrize("players,rules", SHAVE_RULES)
def test_shave_games_stay_within_declared_bounds(
    players: int, rules: dict[str, Any], bot: str, games: int
) -> None:
    _check(
        make("shave-a-sheep", players=players, rules=parse_rules("shave-a-sheep", rules)),
        bot,
        games,
    )


def test_dolly_declared_bounds_are_exact_where_they_can_be() -> None:
    """The decisions bound is reached: a seat plays every card with all its swaps; the chance
    bound counts the deck plus the clean-up's returns (a flock per round)."""
    g = make("dolly-crush", players=2)
    spec = game_spec("dolly-crush")
    assert spec.max_decisions(g) == sum(len(s) + sum(s) for s in g.dog_swaps)
    deck = g.rules.deck_size()
    returns = (1 + 2 * g.num_dogs) * g.rules.max_cleanup_rounds * g.board.cells
    assert spec.max_chance_nodes(g) == deck + returns
    cascading = make("dolly-crush", players=2, rules={"cascades": True})
    assert spec.max_chance_nodes(cascading) == deck + g.rules.max_cleanup_rounds * g.board.cells


def test_openspiel_declares_the_bounds() -> None:
    """``max_history_length`` covers the longest history OpenSpiel can see (it was 56 for
    2-player Dolly Crush, below the 70 that games reached)."""
    pyspiel = pytest.importorskip("pyspiel")
    from sheepfold.interop import openspiel as sos

    rng = np.random.default_rng(3)
    for string, old_bound in (
        # OpenSpiel's default: as many chance nodes as decisions, 2 x 28 in all
        ("python_dolly_crush(players=2,rules=dolly-rulebook)", 56),
        ("python_dolly_crush(players=3,cascades=true,swaps=up-to)", None),
        ("python_shave_a_sheep(players=3,max_turns=30,variants=howling-wolf)", None),
    ):
        game = pyspiel.load_game(string)
        assert isinstance(game, sos.SheepfoldGame)
        engine = game.engine
        spec = game_spec(engine.name)
        assert game.max_game_length() == spec.max_decisions(engine)
        assert game.max_chance_nodes_in_history() == spec.max_chance_nodes(engine)
        assert game.max_history_length() == (
            game.max_game_length() + game.max_chance_nodes_in_history()
        )
        longest = 0
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(actions, p=probs)))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            longest = max(longest, len(state.history()))
        assert longest <= game.max_history_length()
        if old_bound is not None:  # what the old declaration would have failed
            assert longest > old_bound
