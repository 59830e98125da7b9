"""Driving a game: chance resolved by the state's own seeded randomness, decisions by bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sheepfold.core.protocol import CHANCE, TERMINAL, Game, State

if TYPE_CHECKING:
    from sheepfold.bots import Bot


def resolve_chance(state: State, rng: random.Random | None = None) -> None:
    """Apply chance events until a seat must decide or the game is over."""
    while state.current_player() == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int = 0,
    state: State | None = None,
    on_step: Callable[[State], None] | None = None,
    max_steps: int = 1_000_000,
) -> State:
    """Play a whole game between bots (one per seat); return the final state.

    Shave a Sheep's wolf can undo progress forever in principle: ``max_steps`` stops a game
    that will not end (set ``max_turns`` in the rules for a truncation the result reports).
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{len(bots)} bots for {game.num_players} seats")
    s = state if state is not None else game.new_initial_state(seed=seed)
    for _ in range(max_steps):
        p = s.current_player()
        if p == TERMINAL:
            return s
        if p == CHANCE:
            s.apply_unchecked(s.sample_chance())
        else:
            s.apply(bots[p].act(s.observe(p)))
        if on_step is not None:
            on_step(s)
    raise RuntimeError(f"the game did not end within {max_steps} steps")
