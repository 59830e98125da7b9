"""Who can no longer win, from the position alone (no hindsight): the kingmaking measure's test
(:func:`sheepfold.lab.depth.kingmaking`; docs/lab.md, "Depth, luck and kingmaking").

A seat **cannot win** at a position when a sound upper bound on the score it may still reach is
below the score another seat (not its partner) already holds, which never goes down: so the
seat can neither win nor share the win, whatever anyone does and whatever the dice or the deck
bring. The bound is per game, from what the position holds:

- **Shave a Sheep**: a seat's score plus all the wool still in play (the middle and every
  sheep's wool; the wool is never made or lost, only moved). Sound when no part of the rules
  takes wool out of a safe pile (no move *from* a pile): then piles only grow. A rule set with
  such a move has no bound here, and nobody is ever out.
- **Dolly Crush**: a seat's score plus what the cards still in play could bring it: every card
  in the flock, the deck and those waiting to be shuffled back, at its points times the largest
  bonus by length; without cascades at most a flock's worth of cards a turn, over the turns the
  seat has left (its unspent dog cards, or its turns of the rounds left). Scores only grow (no
  card has negative points; a rule set with one has no bound).

These read the engine's state: the bounds are this module's, not the games' (the games know
nothing of the lab).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the bound's function of each game: the most each seat may still score (None: no sound bound)
Bound = Callable[[Any], "list[float] | None"]


def _shave(state: Any) -> list[float] | None:
    from sheepfold.games.shave_a_sheep.program import Move, Program

    prog: Program = state.game.program
    effects = [e for v in prog.verbs for e in v.effects]
    effects += [e for t in prog.triggers for e in t.effects]
    if any(isinstance(e, Move) and e.source.where == "pile" for e in effects):
        return None
    in_play = float(state.middle + sum(state.sheep))
    return [s + in_play for s in state.scores()]


def _dolly(state: Any) -> list[float] | None:
    game = state.game
    pts = game.points
    if min(pts) < 0:
        return None
    times = max([1, *(b.times for b in game.board.bonuses)])
    cards = [c for c in (*state.flock, *state.deck, *state.returning) if c >= 0]
    worth = sorted((pts[c] * times for c in cards), reverse=True)
    total = float(sum(worth))
    n = game.num_players
    best = []
    for seat, score in enumerate(state.scores()):
        gain = total
        if not game.rules.cascades:
            per_turn = float(sum(worth[: game.board.cells]))
            gain = min(gain, per_turn * _turns_left(state, seat, n))
        best.append(score + gain)
    return best


def _turns_left(state: Any, seat: int, n: int) -> int:
    """The turns ``seat`` may still play, the one in progress included: its unspent dog cards
    (the game ends when every dog card is spent), or its turns of the rounds left."""
    g = state.game
    if g.max_turns is None:
        spent = state.dogs_played[seat]
        return sum(1 for d in range(g.num_dogs) if not spent >> d & 1)
    return sum(1 for t in range(state.turns, g.max_turns) if t % n == seat)


BOUNDS: dict[str, Bound] = {"shave-a-sheep": _shave, "dolly-crush": _dolly}


def has_bound(game: str) -> bool:
    return game in BOUNDS


def out_seats(state: Any) -> list[bool]:
    """For each seat: True when it cannot win from ``state`` any more (see the module)."""
    n = state.game.num_players
    best = BOUNDS[state.game.name](state)
    if best is None:
        return [False] * n
    scores = state.scores()
    team_of = getattr(state.game, "team_of", None) or tuple((s,) for s in range(n))
    return [any(best[s] < scores[t] for t in range(n) if t not in team_of[s]) for s in range(n)]
