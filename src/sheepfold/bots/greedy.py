"""Greedy bots: the best move for this turn only, no look at what the others do next.

Dolly Crush: the most points this turn over every sequence of the dog card's swaps
(``search.best_swaps``). At the dog decision every unplayed card is evaluated (each distinct
swap count once); the best score wins, ties go to the card with the fewest swaps (big cards are
kept for later), then to the lowest index. At each swap decision the remaining swaps are
re-planned from the flock as it is, which agrees with the plan made at the dog decision because
the search breaks ties the same way every time.

Shave a Sheep: every legal action is tried on a copy of the position and the result is scored
(:mod:`sheepfold.games.shave_a_sheep.policy`, shared with the solver and the lab): my safe pile plus a discounted value of the wool on
my sheep, minus the same for the strongest opponent; a move that ends the game is worth a win
or a loss, nothing in between.

Both bots see only the view: they rebuild a state with ``game.determinize(view, seed)``.
"""

from __future__ import annotations

from sheepfold.bots import Bot, register_bot
from sheepfold.core.protocol import Action, Game, Seat, View
from sheepfold.games.dolly_crush import search
from sheepfold.games.shave_a_sheep.policy import (  # noqa: F401 (shave_value: re-exported)
    FULL_SHEEP_VALUE,
    SHEEP_WOOL_VALUE,
    WIN_VALUE,
    greedy_action,
    shave_value,
)


class GreedyDolly(Bot):
    name = "greedy"

    def act(self, view: View) -> Action:
        from sheepfold.games.dolly_crush.game import DOG, SWAP, SWAP0, DollyState

        state = self.game.determinize(view, seed=self.rng.randrange(2**31))
        assert isinstance(state, DollyState)
        me = state.turn
        points = self.game.points  # type: ignore[attr-defined]
        if state.phase == DOG:
            return choose_dog(state.flock, state.dogs_left(me), self.game.dog_swaps[me], points)  # type: ignore[attr-defined]
        if state.phase == SWAP:
            _, plan = search.best_swaps(state.flock, state.swaps_left, points)
            return SWAP0 + plan[0]
        return state.legal_actions()[0]  # not reached: a bot decides only at DOG or SWAP


def choose_dog(
    flock: list[int],
    dogs_left: list[int],
    swaps_of: tuple[int, ...] | list[int],
    points: tuple[int, ...] | list[int],
) -> int:
    """The dog card greedy plays: most points; ties -> fewest swaps, then lowest index."""
    value: dict[int, int] = {}
    best: tuple[int, int, int] | None = None  # (-points, swaps, dog): smallest is best
    for d in dogs_left:
        n = swaps_of[d]
        if n not in value:
            value[n] = search.best_swaps(flock, n, points)[0]
        key = (-value[n], n, d)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2]


# -- Shave a Sheep ------------------------------------------------------------------------
class GreedyShave(Bot):
    name = "greedy"

    def act(self, view: View) -> Action:
        return greedy_action(self.game.determinize(view, seed=self.rng.randrange(2**31)))


@register_bot("dolly-crush", "greedy", "most points this turn: every sequence of its swaps")
def _make_dolly(game: Game, seat: Seat, seed: int | None, arg: str) -> GreedyDolly:
    return GreedyDolly(game, seat, seed)


@register_bot("shave-a-sheep", "greedy", "best position after this move (safe wool first)")
def _make_shave(game: Game, seat: Seat, seed: int | None, arg: str) -> GreedyShave:
    return GreedyShave(game, seat, seed)
