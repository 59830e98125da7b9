"""Who can no longer win, from the position alone (no hindsight): the kingmaking measure's test
(:func:`sheepfold.lab.depth.kingmaking`; docs/lab.md, "Depth, luck and kingmaking").

A seat **cannot win** at a position when a sound upper bound on the score it may still reach is
below the score another seat (not its partner) already holds, which never goes down: so the
seat can neither win nor share the win, whatever anyone does and whatever the dice or the deck
bring. Each game gives the bound (``GameSpec.score_bound``; Shave a Sheep: a pile plus all the
wool in play; Dolly Crush: the points plus what the cards left could bring), or none.
"""

from __future__ import annotations

from typing import Any

from sheepfold.core.registry import game_spec


def has_bound(game: str) -> bool:
    return game_spec(game).score_bound is not None


def out_seats(state: Any) -> list[bool]:
    """For each seat: True when it cannot win from ``state`` any more (see the module)."""
    n = state.game.num_players
    bound = game_spec(state.game.name).score_bound
    best = bound(state) if bound is not None else None
    if best is None:
        return [False] * n
    scores = state.scores()
    team_of = getattr(state.game, "team_of", None) or tuple((s,) for s in range(n))
    return [any(best[s] < scores[t] for t in range(n) if t not in team_of[s]) for s in range(n)]
