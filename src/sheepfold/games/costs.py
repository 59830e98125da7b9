"""What a rule set costs to play, known from the rules alone before anything runs:
:class:`RuleCost`, made by each game's spec (:attr:`GameSpec.cost
<sheepfold.core.registry.GameSpec.cost>`, so nothing above the games reads a rule option), a set
of upper bounds, each derived from the rules:

- ``deal_steps``: the most chance steps (cards drawn, dice rolled) of the opening deal, before
  the first decision; ``turn_steps``: of one turn, between two decisions;
- ``cleanup_rounds``: the longest clean-up (Dolly Crush ruling 6's rounds);
- ``positions``: the exact solver's positions (the perfect bot solves them all before it plays);
- ``search``: each bot level's search for one decision, in combination checks (a window of a
  flock tested for a line or a pattern), the part of it that no clock stops.

Each front end's limits, and the words that say which cost is over which limit, are
:mod:`sheepfold.bots.costs` (the one check of ``sheepfold rules check``, the web's rules check
and a new table, a gallery card).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RuleCost:
    """The upper bounds of what one game of a rule set costs (see the module docstring), for
    ``players`` players."""

    players: int
    deal_steps: int = 0
    turn_steps: int = 0
    cleanup_rounds: int = 0
    #: the option that bounds the chance steps ("": none), where a refusal for them points
    steps_option: str = ""
    #: the exact solver's positions; None: the game has no solver, or it cannot solve these rules
    positions: int | None = None
    #: (bot level, combination checks of one decision), for the levels that search (read by
    #: :func:`sheepfold.bots.costs.search_of`)
    search: tuple[tuple[str, int], ...] = ()


def rule_cost(game: str, rules: Any, players: int | None = None) -> RuleCost:
    """What a game of ``game`` under ``rules`` (a validated rules model) costs with ``players``
    (None: the fewest its rules seat), from its spec; nothing known (no cost in the spec,
    rules of another model): a cost of nothing."""
    from sheepfold.core.registry import game_spec

    spec = game_spec(game)
    if players is None:
        counts = getattr(rules, "player_counts", None)
        players = min(counts()) if counts else 2
    if spec.cost is None or not isinstance(rules, spec.rules_class):  # (a test's own model)
        return RuleCost(players)
    cost: RuleCost = spec.cost(rules, players)
    return cost
