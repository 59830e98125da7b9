"""The perfect bot for Shave a Sheep: exact optimal play from the solver.

- 2 players: the minimax policy (the game is zero-sum in win share): no bot can expect more
  than the solver's value against it.
- 3-4 players: the best response to the other seats' bots when they are known (tournaments, the
  lab): ``PerfectShave(game, seat, table=["greedy", None, "random"])`` or the name
  ``perfect:greedy,-,random`` (one entry per seat, ``-`` for its own); else the guaranteed-share
  ("paranoid") policy: the share it secures against any play of the others.

It sees only the view: ``game.determinize(view)`` gives the exact position (Shave a Sheep hides
nothing). Solutions come from the solver's disk cache (``sheepfold solve`` fills it) or are
computed on the first move: about a second for 2 players and 30 wool, tens of seconds for 3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sheepfold.bots import Bot, register_bot
from sheepfold.core.protocol import Action, Game, Seat, SheepfoldError, View
from sheepfold.games.shave_a_sheep.policy import parse_table

#: solve on the fly only below this many positions; bigger games need `sheepfold solve` first
ON_THE_FLY_LIMIT = 5_000_000

_SOLUTIONS: dict[tuple[Any, ...], Any] = {}


def _key(game: Game, seat: Seat, table: Sequence[Any] | None) -> tuple[Any, ...]:
    rules, n = game.rules, game.num_players
    if n == 2:
        return (rules.key(), 2)
    if table is not None:
        return (rules.key(), n, seat, tuple(str(t) for t in table))
    return (rules.key(), n, seat)


def solution_ready(game: Game, seat: Seat, table: Sequence[Any] | None = None) -> bool:
    """Whether this seat's solution is at hand: in memory, or in the solver's disk cache."""
    from sheepfold.games.shave_a_sheep import solver

    if _key(game, seat, table) in _SOLUTIONS:
        return True
    n = game.num_players
    return (n == 2 or table is None) and solver.cache_path(game.rules, n, seat).exists()


def solution_for(
    game: Game,
    seat: Seat,
    table: Sequence[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    solve: bool = True,
) -> Any:
    """The solver's solution this seat plays (shared between bots of the same game); solving
    reports ``progress(positions done, positions)``. ``solve=False``: only one already in
    memory or in the disk cache (else SheepfoldError)."""
    from sheepfold.games.shave_a_sheep import solver

    rules = game.rules
    n = game.num_players
    key = _key(game, seat, table)
    if key in _SOLUTIONS:
        return _SOLUTIONS[key]
    if not solve and not solution_ready(game, seat, table):
        raise SheepfoldError("the perfect bot's solution of these rules is not computed yet")
    space = solver.Space(rules, n)
    if n == 2 or table is None:
        if not solver.cache_path(rules, n, seat).exists() and space.size > ON_THE_FLY_LIMIT:
            raise SheepfoldError(
                f"the perfect bot needs the solution of this {n}-player game ({space.size:,} positions): "
                f"run 'sheepfold solve shave-a-sheep --players {n}' first"
            )
        sol, _ = solver.cached(rules, n, seat=seat, space=space, progress=progress)
    else:
        if space.size > ON_THE_FLY_LIMIT:
            raise SheepfoldError(
                f"a best response in this {n}-player game ({space.size:,} positions) is too big to compute here"
            )
        policies = [None if i == seat else table[i] for i in range(n)]
        sol = solver.best_response(space, n, seat, policies, progress=progress)
    _SOLUTIONS[key] = sol
    return sol


class SolutionBot(Bot):
    """A bot that plays a solver's solution (``solution``: its table of best actions); Shave a
    Sheep hides nothing but the seed, so the view gives the exact position."""

    solution: Any

    def act(self, view: View) -> Action:
        state = self.game.determinize(view, seed=0)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return int(self.solution.best_action(state))


class PerfectShave(SolutionBot):
    name = "perfect"

    def __init__(
        self, game: Game, seat: Seat, seed: int | None = None, table: Sequence[Any] | None = None
    ) -> None:
        super().__init__(game, seat, seed)
        if table is not None and len(table) != game.num_players:
            raise SheepfoldError(
                f"perfect: the table needs one entry per seat ({game.num_players})"
            )
        self.table = list(table) if table is not None else None
        self.solve = True  # False: only solutions already computed (a server's bot)
        self._sol: Any = None

    @property
    def solution(self) -> Any:
        if self._sol is None:
            self._sol = solution_for(self.game, self.seat, self.table, solve=self.solve)
        return self._sol

    def preparation(self) -> str | None:
        if self._sol is not None or solution_ready(self.game, self.seat, self.table):
            return None
        what = "the game" if self.game.num_players == 2 else f"seat {self.seat}'s best play"
        return f"perfect bot: solving {what} (once)"

    def prepare_now(self, progress: Callable[[int, int], None] | None = None) -> None:
        if self._sol is None:
            self._sol = solution_for(self.game, self.seat, self.table, progress, self.solve)


@register_bot(
    "shave-a-sheep",
    "perfect",
    "exact optimal play from the solver (2 players: minimax; 3-4: guaranteed share, or "
    "perfect:BOT,-,BOT for the best response to known bots)",
)
def _make(game: Game, seat: Seat, seed: int | None, arg: str) -> PerfectShave:
    return PerfectShave(game, seat, seed, parse_table(arg, game.num_players))
