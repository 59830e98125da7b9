"""Adapters to the standard AI interfaces (optional extra ``sheepfold[rl]``).

- :mod:`sheepfold.interop.openspiel`: ``import sheepfold.interop.openspiel`` registers every
  game with ``pyspiel`` (``python_dolly_crush``, ``python_shave_a_sheep``, ...).
- :mod:`sheepfold.interop.pettingzoo`: AEC environments (``env(name)``, ``dolly_crush_env``,
  ``shave_a_sheep_env``).
- :mod:`sheepfold.interop.gymnasium`: single-agent environments against our bots
  (``DollyCrushEnv``, ``ShaveASheepEnv``, ...), registered as ``sheepfold/DollyCrush-v0``,
  ``sheepfold/ShaveASheep-v0``, ...

Every registered game gets all three, from its :class:`~sheepfold.core.registry.GameSpec` (its
names, encoder and bounds): a game added inside ``games/`` needs nothing here.

This package imports none of the frameworks itself: each submodule imports its own, so the
engine works without them. :mod:`sheepfold.interop.encoding` holds the observation layout the
three share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheepfold.core.protocol import Game

#: the turn limit given to Shave a Sheep when neither the rules nor the caller set one (random
#: games end within ~250 turns; the wolf could otherwise keep a game going for ever)
DEFAULT_MAX_TURNS = 1000
_UNSET: Any = object()


def build_game(
    game: str | Game,
    players: int = 2,
    rules: Any = None,
    max_turns: int | None = _UNSET,
    **options: Any,
) -> Game:
    """The sheepfold game an environment plays.

    ``game`` is a game object (used as is) or a name with ``players``, ``rules`` (a mapping, a
    rules object or a rule-set name such as ``"howling-wolf"``) and rule keywords. Without
    ``rules``, and under a mapping of house rules, a game plays its front ends' default rule set
    (:func:`sheepfold.rulesets.fair_default`; Dolly Crush: ``dolly-graded``, every seat the same
    dog cards); ``rules="dolly-rulebook"`` plays the printed cards, so do ``breeds`` given
    without ``rules`` (their printed cards, as at the terminal), and a :class:`UserWarning`
    says when unequal seats decide the game. A game with a turn limit (Shave a Sheep) gets
    ``max_turns``: the given value (``None``: no limit), else the rules' own, else
    :data:`DEFAULT_MAX_TURNS`; another game whose rules have a ``max_turns`` option takes the
    given value as that option.
    """
    from sheepfold.rulesets import BASE_KEY, fair_default, rebased_options, warn_unequal_seats

    if isinstance(game, Game):
        if rules is not None or options or max_turns is not _UNSET:
            raise ValueError("pass either a game object or a game name with options, not both")
        built = game
    elif rules is None or (isinstance(rules, Mapping) and BASE_KEY not in rules):
        # house rules on the default rule set
        name, house = game, dict(rules or {})

        def on(base: Any) -> Game:
            # as a rule file's options go on its base: a mapping (dog_swaps) adds to the
            # base's own, and what follows from a change comes along (graded cards stay graded)
            rules = rebased_options(name, base, house)
            return _make(name, players, rules or None, max_turns, options)

        built = fair_default(name, on, seats_chosen=bool(options.get("breeds")))[1]
    else:
        built = _make(game, players, rules, max_turns, options)
    warn_unequal_seats(built)
    return built


def _make(
    game: str, players: int, rules: Any, max_turns: int | None, options: dict[str, Any]
) -> Game:
    from sheepfold.core.registry import game_spec
    from sheepfold.games import make, parse_rules

    spec = game_spec(game)
    options = dict(options)
    if rules is not None:
        from sheepfold.rulesets import resolve

        rules = resolve(game, rules)  # a name, a file, options with their own base
    has_turns = "max_turns" in spec.rules_class.model_fields  # a rule option of the game
    if spec.turn_limit or (max_turns is not _UNSET and has_turns):
        r = parse_rules(game, rules).model_dump(exclude_defaults=True)
        r.update(options)
        if max_turns is not _UNSET:
            r["max_turns"] = max_turns
        elif r.get("max_turns") is None:
            r["max_turns"] = DEFAULT_MAX_TURNS
        return make(game, players=players, rules=r)
    if max_turns is not _UNSET:
        raise ValueError(f"max_turns: {spec.title} has no turn limit (a game always ends)")
    return make(game, players=players, rules=rules, **options)
