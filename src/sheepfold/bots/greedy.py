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

The Shave a Sheep bot sees only the view: it rebuilds a state with ``game.determinize(view,
seed)``.
"""

from __future__ import annotations

from sheepfold.bots import Bot, register_bot
from sheepfold.bots.dolly import choose_dog  # noqa: F401 (greedy's choice of dog card)
from sheepfold.core.protocol import Action, Game, Seat, View
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
