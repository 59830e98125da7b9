"""A fast path for Dolly Crush with greedy bots.

The game itself runs in the rules engine (the deck, the draws and the clean-up reshuffles are
the engine's, from the game's seed), so a fast game ``i`` is exactly the engine's game ``i``;
what is fast is the greedy decision:

- the greedy bot (``bots/greedy.py``) searches the view it is given: it rebuilds a state with
  ``determinize`` (a shuffled copy of the unseen deck) and calls the swap search once for each
  swap count at the dog decision and again at every swap decision. Its decisions only depend on
  the flock, so the fast path reads the flock of the real state directly;
- the swap search is fastsearch's algorithm compiled with numba
  (:func:`sheepfold.games.dolly_crush.compiled.nb_best_swaps`: the same answers as the reference
  search, tie-breaks included), once per distinct swap count at the dog decision;
- the plan found at the dog decision is played out swap by swap. Re-planning after each swap
  (what the bot does) gives the same swaps: the rest of a best plan is a best plan for the
  swaps left, and the search breaks ties by the first sequence in lexicographic order, which
  keeps the rest of the first best plan first. The tests check this game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheepfold.core.protocol import CHANCE, TERMINAL
from sheepfold.games.dolly_crush.compiled import nb_best_swaps


def unsupported(job: Any) -> str | None:
    for spec in job.bots:
        if spec != "greedy":
            return f"the Dolly Crush fast path plays greedy bots only, not {spec!r}"
    return None


def greedy_turn(state: Any, search: Any = None) -> list[int]:
    """The greedy bot's whole turn at a DOG decision: [dog, swap actions...] (engine ids)."""
    from sheepfold.games.dolly_crush.game import SWAP0

    search = search or nb_best_swaps
    me = state.turn
    swaps_of = state.game.dog_swaps[me]
    points = state.game.points
    flock = state.flock
    plans: dict[int, tuple[int, tuple[int, ...]]] = {}
    best: tuple[int, int, int] | None = None
    for d in state.dogs_left(me):
        n = swaps_of[d]
        if n not in plans:
            plans[n] = search(flock, n, points)
        key = (-plans[n][0], n, d)
        if best is None or key < best:
            best = key
    assert best is not None
    d = best[2]
    return [d] + [SWAP0 + s for s in plans[swaps_of[d]][1]]


def play(job: Any, i: int) -> tuple[Any, list[list[float]]]:
    """Game ``i`` of ``job`` (greedy everywhere): the final engine state and the standings."""
    from sheepfold.games.dolly_crush.game import DOG

    game = job.make_game(i)
    state = game.new_initial_state(seed=job.game_seed(i))
    search = nb_best_swaps
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
        for a in greedy_turn(state, search):
            state.apply_unchecked(a)
    standings.append(state.scores())
    return state, standings


def chunk(job: Any, indices: Sequence[int]) -> Any:
    from sheepfold.lab.runner import games_chunk

    return games_chunk(job, indices, play, "fast")


def engine_state(job: Any, i: int) -> Any:
    return play(job, i)[0]
