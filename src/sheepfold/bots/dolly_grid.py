"""The grid kernel's swap searches that Dolly Crush's bots call under house rules (numba).

On the rulebook's geometry and plain rules the bots search with numpy (the packed flocks of
:mod:`~sheepfold.games.dolly_crush.fastsearch`): nothing to compile. Under a house rule their
searches are the grid kernel's (:mod:`~sheepfold.games.dolly_crush.kernel.grid`): the
exhaustive search of a turn (``search.best_swaps``: medium, easy, the hard bot's playouts) and
the many-flock operations of ``GridFlocks`` (the hard and expert bots' candidates, replies and
best points of a card). :func:`warm` compiles them, or loads them from numba's cache folder, on
a tiny real input, so that no first decision compiles them unsaid; front ends call it through
:mod:`sheepfold.bots.warmup` (``Bot.kernels``).

It imports no compiled code itself (the bots' module imports it, so that the lobby may ask
whether the default rules need anything: they do not); the grid kernel is imported where it is
warmed.
"""

from __future__ import annotations

import sys
from typing import Any

from sheepfold.core.words import Msg

LABEL = Msg("the bots' swap searches")  # this module's kernels, for a progress line
GRID = "sheepfold.games.dolly_crush.kernel.grid"


def paths(game: Any = None) -> tuple[str, ...]:
    """``("grid",)`` when ``game``'s rules take the grid kernel's searches (every rule set but
    the rulebook's geometry on plain rules; None: every rule set), else ``()``."""
    if game is None:
        return ("grid",)
    from sheepfold.games.dolly_crush.fastsearch import plain_rules

    return () if plain_rules(game) else ("grid",)


def entries(game: Any = None) -> list[Any]:
    """The compiled functions the searches call from Python, for ``game``'s rules."""
    if not paths(game):
        return []
    from sheepfold.games.dolly_crush.kernel import grid

    return [
        grid.legal,
        grid.level_cap,
        grid.search,
        grid.dedupe,
        grid._children,
        grid._capped,
        grid.score_many,
        grid.reply_many,
    ]


def ready(game: Any = None) -> bool:
    """Whether the searches ``game``'s rules take are compiled (or loaded) in this process
    (the grid kernel not imported yet: not; this never imports it, so an event loop may ask)."""
    if not paths(game):
        return True
    return GRID in sys.modules and all(d.signatures for d in entries(game))


def warm(game: Any = None) -> None:
    """Compile the grid searches (the same types for every board and house rule), or load them
    from numba's cache, on the rulebook's flock with diagonal lines: a turn's search with
    exactly and with at most two swaps, and the lookahead's flock operations."""
    if ready(game):
        return
    from sheepfold.games.dolly_crush.game import DollyGame
    from sheepfold.games.dolly_crush.kernel import grid
    from sheepfold.games.dolly_crush.rules import DollyRules

    house = DollyGame(2, DollyRules(diagonals=True))
    flock = [0, 2, 4, 6, 8, 2, 4, 6, 8, 0, 4, 6, 8, 0, 2]  # card ids: types on diagonals
    for up_to in (False, True):
        grid.best_swaps(flock, 2, house.points, house.board, up_to)
    ops = grid.GridFlocks(house.board, tuple(house.points), False)
    flocks, _, _ = ops.after(flock, 1)
    ops.reply(flocks)
    ops.best_n(ops.pack(flock), 1)
