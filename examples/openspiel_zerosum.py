"""OpenSpiel's solvers and evaluation on Shave a Sheep, through OpenSpiel's zero-sum transform.

    python examples/openspiel_zerosum.py --wool 3 --games 20 --seed 0

The games declare constant-sum utilities (win shares that add up to 1), so OpenSpiel's
``value_iteration`` asserts; ``zerosum(game=...)`` subtracts the mean (share - 1/2 for two
players) and its solvers run. This script solves a small Shave a Sheep exactly with
``value_iteration`` (``cyclic_game=True``: a position can come back), then puts OpenSpiel's MCTS
against our greedy bot (:func:`sheepfold.interop.openspiel.as_pyspiel_bot`) in OpenSpiel's own
``evaluate_bots``, both seats in turn. (value_iteration needs cvxpy: the ``rl`` extra, ``pip install -e '.[rl]'``.)
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts, value_iteration
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from sheepfold.interop.openspiel import as_pyspiel_bot


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wool", type=int, default=3, help="wool in the middle (small: an exact solve)")
    p.add_argument("--games", type=int, default=20, help="MCTS against greedy: games")
    p.add_argument("--simulations", type=int, default=200, help="MCTS simulations a decision")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    small = f"python_shave_a_sheep(players=2,wool={a.wool},max_wool=2,max_turns=6)"
    game = pyspiel.load_game(f"zerosum(game={small})")
    values = value_iteration.value_iteration(game, -1, 1e-9, cyclic_game=True)
    root = game.new_initial_state()  # the first roll: a chance node
    v = sum(p * values[str(root.child(x))] for x, p in root.chance_outcomes())
    print(f"value_iteration on zerosum({small}): seat 0 {v:+.4f} (win share {v + 0.5:.4f})")

    game = pyspiel.load_game("zerosum(game=python_shave_a_sheep(wool=8,max_wool=3,max_turns=60))")
    rng = np.random.RandomState(a.seed)
    total = 0.0
    for i in range(a.games):
        seat = i % 2
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(a.seed + i))
        searcher = mcts.MCTSBot(
            game, 2.0, a.simulations, evaluator, random_state=np.random.RandomState(a.seed + i)
        )
        greedy = as_pyspiel_bot(game, "greedy", 1 - seat, seed=a.seed + i)
        bots = [searcher, greedy] if seat == 0 else [greedy, searcher]
        total += evaluate_bots(game.new_initial_state(), bots, rng)[seat] + 0.5
    print(f"MCTS ({a.simulations} simulations) against greedy: win share {total / a.games:.3f}")


if __name__ == "__main__":
    main()
