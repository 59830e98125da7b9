"""The games, found by name: ``make("shave-a-sheep", players=3, variants=["cutting-costs"])``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from sheepfold.core.errors import join_problems, validation_problems
from sheepfold.core.protocol import Game, RulesError
from sheepfold.core.registry import game_names, game_spec
from sheepfold.core.words import Msg

# Importing a game's spec registers it (sheepfold.core.registry); the order is the games' order.
from sheepfold.games.dolly_crush import spec as _dolly  # noqa: F401
from sheepfold.games.shave_a_sheep import spec as _shave  # noqa: F401

# isort: split
# the example game (docs/engine.md "Adding a game"), last: not listed in the lobby
from sheepfold.games.pig_pen import spec as _pig  # noqa: F401

GAME_NAMES: tuple[str, ...] = game_names()


def game_class(name: str) -> type[Game]:
    return game_spec(name).game_class


def rules_class(name: str) -> type[BaseModel]:
    return game_spec(name).rules_class


def check_rules(
    name: str, options: Mapping[str, Any] | BaseModel | None, where: str = "rules"
) -> tuple[Any, list[tuple[str, str]]]:
    """Validate rule options for a game: (the rules, []) or (None, the problems as (where, what)),
    the very texts :func:`parse_rules` raises."""
    cls = rules_class(name)
    if isinstance(options, cls):
        return options, []
    if isinstance(options, BaseModel):
        options = options.model_dump(exclude_defaults=True)
    if options is not None and not isinstance(options, Mapping):
        return None, [(where, Msg("rule options are a table of names and values"))]
    try:
        return cls.model_validate(dict(options or {})), []
    except ValidationError as e:
        return None, validation_problems(e, where)


def parse_rules(
    name: str, options: Mapping[str, Any] | BaseModel | None, where: str = "rules"
) -> Any:
    """Validate rule options for a game; :class:`RulesError` naming the field if they are wrong."""
    rules, problems = check_rules(name, options, where)
    if problems:
        raise RulesError(join_problems(problems))
    return rules


def make(
    name: str, players: int = 2, rules: Mapping[str, Any] | BaseModel | None = None, **options: Any
) -> Game:
    """A game by name. Rule options come as ``rules`` (a mapping or rules object) and/or
    keywords; Dolly Crush also takes ``breeds=[...]`` (one per seat: its spec's ``make_options``)."""
    spec = game_spec(name)
    extra = {k: options.pop(k) for k in spec.make_options if k in options}
    if options:
        base = parse_rules(name, rules).model_dump(exclude_defaults=True)
        base.update(options)
        rules = base
    return spec.make(players, parse_rules(name, rules), **extra)
