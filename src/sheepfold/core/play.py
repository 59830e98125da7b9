"""Driving a game: chance resolved by the state's own seeded randomness, decisions by bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from sheepfold.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    Seat,
    SheepfoldError,
    State,
    View,
)


class Bot(Protocol):
    """What the driver needs of a player (:class:`sheepfold.bots.Bot` is one)."""

    def act(self, view: View) -> Action: ...


T = TypeVar("T")

BotMaker = Callable[[str, Game, Seat, "int | None"], Bot]
_bot_maker: BotMaker | None = None


def provide_bots(maker: BotMaker) -> None:
    """Called by :mod:`sheepfold.bots` when it is imported: lets a lower layer (the Shave a
    Sheep solver's tables of policies) turn a bot's name into a bot without importing bots."""
    global _bot_maker
    _bot_maker = maker


def bot_by_name(spec: str, game: Game, seat: Seat, seed: int | None = None) -> Bot:
    """``sheepfold.bots.make_bot``, through the hook :func:`provide_bots` set."""
    if _bot_maker is None:
        raise SheepfoldError(
            f"no bot named {spec!r}: the bots are not loaded (import sheepfold.bots)"
        )
    return _bot_maker(spec, game, seat, seed)


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


def seats_starting_with(seats: Sequence[T], starter: int, first: Seat) -> list[T]:
    """``seats`` (one item per seat, in clockwise order) turned so that ``seats[starter]`` sits
    at ``first``, the seat the rules let start (:attr:`Game.first_seat`): who starts is one setting,
    a player chosen to start replaces the rules' first seat (it never adds to it), and everyone
    keeps their neighbours."""
    k = (starter - first) % len(seats)
    return list(seats[k:]) + list(seats[:k])
