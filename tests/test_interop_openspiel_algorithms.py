"""OpenSpiel's own algorithms on our games (issue 17).

The games declare constant-sum utilities (win shares summing to 1), and OpenSpiel's
value_iteration and minimax solvers assert ZERO_SUM: they run through OpenSpiel's ``zerosum``
transform (each return minus the mean: share - 1/n). Our bots play in OpenSpiel's
``evaluate_bots`` through :func:`sheepfold.interop.openspiel.as_pyspiel_bot`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("cvxpy")  # value_iteration imports OpenSpiel's LP solver, which needs it

from open_spiel.python.algorithms import mcts, value_iteration  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from sheepfold.interop import openspiel as sos  # noqa: E402

#: a small Shave a Sheep: 2 players, 3 pieces of wool, sheep of 2, six turns (a few hundred states)
SMALL = "python_shave_a_sheep(players=2,wool=3,max_wool=2,max_turns=6)"


def test_value_iteration_needs_the_zero_sum_transform() -> None:
    with pytest.raises(AssertionError, match="zero sum"):
        value_iteration.value_iteration(pyspiel.load_game(SMALL), -1, 0.01)
    game = pyspiel.load_game(f"zerosum(game={SMALL})")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-0.5, 0.5)


def _expectimax(game: Any) -> float:
    """Seat 0's value by a plain expectimax over the same states, memoized by their text (the
    text holds the turn), another way to the same number."""
    memo: dict[str, float] = {}

    def value(s: Any) -> float:
        key = str(s)
        if key not in memo:
            if s.is_terminal():
                memo[key] = float(s.returns()[0])
            elif s.is_chance_node():
                memo[key] = sum(p * value(s.child(a)) for a, p in s.chance_outcomes())
            else:
                vals = [value(s.child(a)) for a in s.legal_actions()]
                memo[key] = max(vals) if s.current_player() == 0 else min(vals)
        return memo[key]

    return value(game.new_initial_state())


def test_value_iteration_solves_a_small_shave_through_zerosum() -> None:
    game = pyspiel.load_game(f"zerosum(game={SMALL})")
    # cyclic_game: stop at a state seen before (the states repeat; the text holds the turn)
    values = value_iteration.value_iteration(game, -1, 1e-9, cyclic_game=True)
    root = game.new_initial_state()  # a chance node (the first roll): value_iteration keeps
    value = sum(p * values[str(root.child(a))] for a, p in root.chance_outcomes())
    assert value == pytest.approx(_expectimax(game), abs=1e-6)
    assert 0 < value < 0.5  # moving first helps a little in this small game
    # the transform is the win share less 1/2: seat 0's share of the small game is value + 1/2


def test_mcts_plays_through_zerosum() -> None:
    # a game long enough to be decided (the six-turn one mostly ends at its turn limit, a tie)
    game = pyspiel.load_game("zerosum(game=python_shave_a_sheep(wool=6,max_wool=3,max_turns=40))")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(2, np.random.RandomState(1))
    total = 0.0
    for i in range(12):
        # 50 simulations a move: enough to beat uniform play (+2.5 over these 12 games, +2.0 at
        # 200 simulations); at 25 it loses (-1.5), so the assertion below does tell
        searcher = mcts.MCTSBot(game, 2.0, 50, evaluator, random_state=np.random.RandomState(i))
        uniform = pyspiel.make_uniform_random_bot(1 - i % 2, i)
        bots = [searcher, uniform] if i % 2 == 0 else [uniform, searcher]
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        total += returns[i % 2]
    assert total > 0  # the search beats uniform random play over the seats


@pytest.mark.parametrize(
    "game_string",
    [
        "python_dolly_crush(players=2)",
        "zerosum(game=python_dolly_crush(players=3,swaps=up-to))",
        "python_shave_a_sheep(players=2)",
        "zerosum(game=python_shave_a_sheep(players=3,variants=howling-wolf))",
    ],
)
def test_sheepfold_bots_play_in_evaluate_bots(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    greedy = sos.as_pyspiel_bot(game, "greedy", 0, seed=1)
    others = [pyspiel.make_uniform_random_bot(p, p) for p in range(1, n)]
    total = np.zeros(n)
    for i in range(8):
        total += evaluate_bots(
            game.new_initial_state(), [greedy, *others], np.random.RandomState(i)
        )
    assert total.sum() == pytest.approx(0.0 if "zerosum" in game_string else 8.0)
    assert total[0] > max(total[1:])  # greedy beats uniform random


def test_a_sheepfold_bot_sees_the_engine_position() -> None:
    game = pyspiel.load_game("zerosum(game=python_shave_a_sheep(players=2))")
    bot = sos.as_pyspiel_bot(game, "random", 1, seed=3)
    assert isinstance(sos.sheepfold_game(game), sos.SheepfoldGame)
    s = game.new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="player 1's bot asked to act at 0's turn"):
        bot.step(s)
    with pytest.raises(ValueError, match="player must be 0..1"):
        sos.as_pyspiel_bot(game, "random", 2)
    with pytest.raises(ValueError, match="not a sheepfold game"):
        sos.as_pyspiel_bot(pyspiel.load_game("tic_tac_toe"), "random", 0)
