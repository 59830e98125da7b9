"""A fast path for Dolly Crush with greedy bots.

The game itself runs in the rules engine (the deck, the draws and the clean-up reshuffles are
the engine's, from the game's seed), so a fast game ``i`` is exactly the engine's game ``i``;
what is fast is the greedy decision:

- the greedy bot (``greedy``, the same bot as ``medium``: ``bots/dolly.py``) plans its whole
  turn at the dog decision from the flock of its view (the swap search once per distinct swap
  count, the best card, its first best sequence) and plays it swap by swap. Its decisions only
  depend on the flock, so the fast path reads the flock of the real state directly;
- that turn is the compiled kernel's greedy turn (the packed kernel on the rulebook's plain
  rules, the grid kernel on any board and under every house rule)
  (:func:`sheepfold.games.dolly_crush.kernel.policy.greedy_turn`: the kernel's exhaustive swap
  search, the same answers as the reference search, tie-breaks included). The tests check this
  game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheepfold.core.protocol import CHANCE, TERMINAL
from sheepfold.games.dolly_crush.fastsearch import plain_rules
from sheepfold.games.dolly_crush.kernel import grid
from sheepfold.games.dolly_crush.kernel.layout import geometry, pack, tables
from sheepfold.games.dolly_crush.kernel.policy import greedy_turn as kernel_greedy_turn


def unsupported(job: Any) -> str | None:
    for spec in job.bots:
        if spec not in ("greedy", "medium"):
            return f"the Dolly Crush fast path plays greedy bots only, not {spec!r}"
    return None


def greedy_turn(state: Any) -> list[int]:
    """The greedy bot's whole turn at a DOG decision: [dog, swap actions..., stop?] (engine
    ids), from the kernel's greedy turn (the card of the most points, ties: fewer swaps, then
    the lowest dog card; the lexicographically first best sequence; under up-to swaps the
    fewest swaps, then ``stop`` if the card allows more). The packed kernel on plain rules, the
    grid kernel (any board, every house rule) else."""
    game = state.game
    me = state.turn
    swaps_of = game.dog_swaps[me]
    left = state.dogs_left(me)
    hand = np.zeros(max(swaps_of) + 1, dtype=np.int64)
    for d in left:
        hand[swaps_of[d]] += 1
    seq = np.zeros(max(1, len(hand) - 1), dtype=np.int64)
    if plain_rules(game):
        _, _, n = kernel_greedy_turn(
            np.uint64(pack(state.flock)), hand, seq, tables(tuple(game.points))
        )
        k = n
    else:
        f = np.array(state.flock, dtype=np.int8)
        geo = geometry(game.board, tuple(game.points))
        up_to = game.stop is not None
        _, n, k = grid.greedy_turn(f, hand, up_to, grid.SEARCH_WORK, seq, f.copy(), geo)
    d = min(d for d in left if swaps_of[d] == n)
    stop = [game.stop] if game.stop is not None and 0 < n and k < n else []
    return [d] + [game.swap0 + int(s) for s in seq[:k]] + stop


def play(job: Any, i: int, counts: list[int] | None = None) -> tuple[Any, list[list[float]]]:
    """Game ``i`` of ``job`` (greedy everywhere): the final engine state and the standings.

    ``counts`` = [decisions, forced, choices] counts every player decision as the engine path
    does (:func:`sheepfold.lab.runner.count_decision`): the dog card, each swap and ``stop``."""
    from sheepfold.games.dolly_crush.game import DOG
    from sheepfold.lab.runner import count_decision

    game = job.make_game(i)
    state = game.new_initial_state(seed=job.game_seed(i))
    standings: list[list[float]] = []
    started = 0
    while True:
        p = state.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance())
            continue
        assert state.phase == DOG
        if started:
            standings.append(state.scores())
        started += 1
        for a in greedy_turn(state):
            count_decision(counts, state)
            state.apply_unchecked(a)
    standings.append(state.scores())
    return state, standings


def _counted(job: Any, i: int) -> tuple[Any, list[list[float]], list[int]]:
    counts = [0, 0, 0]
    state, standings = play(job, i, counts)
    return state, standings, counts


def chunk(job: Any, indices: Sequence[int]) -> Any:
    from sheepfold.lab.runner import games_chunk

    return games_chunk(job, indices, _counted, "fast")


def engine_state(job: Any, i: int) -> Any:
    return play(job, i)[0]
