"""Greedy bots: the best move for this turn only, no look at what the others do next.

Dolly Crush: ``greedy`` is the ``medium`` level (:class:`sheepfold.bots.dolly.GreedyDollyBot`,
registered under both names; :func:`choose_dog` is its choice of card): the most points this
turn over every sequence of the dog card's swaps (``search.best_swaps``). At the dog decision
every unplayed card is evaluated (each distinct swap count once); the best score wins, ties go
to the card with the fewest swaps (big cards are kept for later), then to the lowest index; the
swaps planned then are played one by one. The compiled copy of this turn is
:func:`sheepfold.games.dolly_crush.kernel.policy.greedy_turn` (the lab's fast path).

Shave a Sheep: every legal action is tried on a copy of the position and the result is scored
(:mod:`sheepfold.games.shave_a_sheep.policy`, shared with the solver and the lab): my safe pile plus a discounted value of the wool on
my sheep, minus the same for the strongest opponent; a move that ends the game is worth a win
or a loss, nothing in between.

Any other game (one with no heuristic of its own, docs/engine.md "Adding a game"): :class:`GreedyBot`, from
the protocol alone. Every legal action is tried on a copy of the position; the chance events it
leads to are averaged over their outcomes (as long as there are at most
:data:`CHANCE_LEAVES` of them, else the position before them counts); a position is worth my
score minus the best other seat's, and a finished game its win share first
(:data:`GENERIC_WIN` per share above an equal one). Ties go to the lowest action id.

The bots see only the view: they rebuild a state with ``game.determinize(view, seed)``.
"""

from __future__ import annotations

from sheepfold.bots import Bot, register_bot, register_generic_bot
from sheepfold.bots.dolly import choose_dog  # noqa: F401 (greedy's choice of dog card)
from sheepfold.core.protocol import Action, Game, Seat, State, View
from sheepfold.games.shave_a_sheep.policy import (  # noqa: F401 (shave_value: re-exported)
    FULL_SHEEP_VALUE,
    SHEEP_WOOL_VALUE,
    WIN_VALUE,
    greedy_action,
    shave_value,
)


# -- Shave a Sheep ------------------------------------------------------------------------
class GreedyShave(Bot):
    name = "greedy"

    def act(self, view: View) -> Action:
        return greedy_action(self.game.determinize(view, seed=self.rng.randrange(2**31)))


@register_bot("shave-a-sheep", "greedy", "best position after this move (safe wool first)")
def _make_shave(game: Game, seat: Seat, seed: int | None, arg: str) -> GreedyShave:
    return GreedyShave(game, seat, seed)


# -- any game -------------------------------------------------------------------------------
#: what a finished game's win share is worth, per share above an equal one (1/n)
GENERIC_WIN = 1e6
#: the most chance outcomes averaged after one action (a deeper chain is cut there)
CHANCE_LEAVES = 64


def margin(state: State, seat: Seat) -> float:
    """My score minus the best other seat's."""
    scores = state.scores()
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


def position_value(state: State, seat: Seat, leaves: int = CHANCE_LEAVES) -> float:
    """What the position is worth to ``seat``: the margin, the win share first at the end,
    chance events averaged over their outcomes while ``leaves`` allows."""
    if state.is_terminal():
        share = state.returns()[seat] - 1.0 / state.game.num_players
        return GENERIC_WIN * share + margin(state, seat)
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if len(outcomes) <= leaves:
            total = 0.0
            for a, p in outcomes:
                child = state.clone()
                child.apply_unchecked(a)
                total += p * position_value(child, seat, leaves // len(outcomes))
            return total
    return margin(state, seat)


def generic_greedy_action(state: State) -> Action:
    """The legal action of the best :func:`position_value` for the seat to move."""
    seat = state.current_player()
    best, best_value = -1, float("-inf")
    for a in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(a)
        value = position_value(child, seat)
        if value > best_value:
            best, best_value = a, value
    return best


class GreedyBot(Bot):
    """The greedy bot of a game with no heuristic of its own (see the module's text)."""

    name = "greedy"

    def act(self, view: View) -> Action:
        return generic_greedy_action(self.game.determinize(view, seed=self.rng.randrange(2**31)))


@register_generic_bot("greedy", "best score margin after this move (chance averaged)")
def _make_generic(game: Game, seat: Seat, seed: int | None, arg: str) -> GreedyBot:
    return GreedyBot(game, seat, seed)
