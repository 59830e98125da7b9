"""OpenSpiel's own (Python) MCTS bot plays a whole game of each sheepfold game.

    python examples/openspiel_mcts.py --simulations 100 --seed 1

Every seat is an ``open_spiel.python.algorithms.mcts.MCTSBot`` with random rollouts; chance
(card draws, die rolls) is sampled from the state's ``chance_outcomes()``. (OpenSpiel's C++
``pyspiel.MCTSBot`` is not used: it crashes on Python-implemented games.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import sheepfold.interop.openspiel  # noqa: F401  (registers the games)

GAMES = ("python_dolly_crush(players=2)", "python_shave_a_sheep(players=2,max_turns=300)")


def play(game_string: str, simulations: int, seed: int) -> pyspiel.State:
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=evaluator,
            random_state=rng,
            solve=False,
        )
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=False)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            player = state.current_player()
            action = bots[player].step(state)
            state.apply_action(action)
            decisions += 1
    return state, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations per move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for gs in GAMES:
        t = time.perf_counter()
        state, decisions = play(gs, args.simulations, args.seed)
        s = state.engine_state
        print(f"{gs}: {decisions} decisions in {time.perf_counter() - t:.1f} s")
        print(
            f"  scores {s.scores()}, returns {state.returns()}"
            + (" (truncated)" if state.truncated() else "")
        )
        print("  " + str(state).replace("\n", "\n  "))


if __name__ == "__main__":
    main()
