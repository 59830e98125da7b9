"""The games, found by name: ``make("shave-a-sheep", players=3, variants=["cutting-costs"])``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from sheepfold.core.errors import describe_validation_error
from sheepfold.core.protocol import Game, RulesError

GAME_NAMES: tuple[str, ...] = ("dolly-crush", "shave-a-sheep")


def game_class(name: str) -> type[Game]:
    if name == "dolly-crush":
        from sheepfold.games.dolly_crush.game import DollyGame

        return DollyGame
    if name == "shave-a-sheep":
        from sheepfold.games.shave_a_sheep.game import ShaveGame

        return ShaveGame
    raise RulesError(f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})")


def rules_class(name: str) -> type[BaseModel]:
    if name == "dolly-crush":
        from sheepfold.games.dolly_crush.rules import DollyRules

        return DollyRules
    if name == "shave-a-sheep":
        from sheepfold.games.shave_a_sheep.rules import ShaveRules

        return ShaveRules
    raise RulesError(f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})")


def parse_rules(
    name: str, options: Mapping[str, Any] | BaseModel | None, where: str = "rules"
) -> Any:
    """Validate rule options for a game; :class:`RulesError` naming the field if they are wrong."""
    cls = rules_class(name)
    if isinstance(options, cls):
        return options
    if isinstance(options, BaseModel):
        options = options.model_dump(exclude_defaults=True)
    if options is not None and not isinstance(options, Mapping):
        raise RulesError(f"{where}: rule options are a table of names and values")
    try:
        return cls.model_validate(dict(options or {}))
    except ValidationError as e:
        raise RulesError(describe_validation_error(e, where)) from None


def make(
    name: str, players: int = 2, rules: Mapping[str, Any] | BaseModel | None = None, **options: Any
) -> Game:
    """A game by name. Rule options come as ``rules`` (a mapping or rules object) and/or
    keywords; Dolly Crush also takes ``breeds=[...]`` (one per seat)."""
    extra: dict[str, Any] = {}
    if name == "dolly-crush" and "breeds" in options:
        extra["breeds"] = options.pop("breeds")
    if options:
        base = parse_rules(name, rules).model_dump(exclude_defaults=True)
        base.update(options)
        rules = base
    return game_class(name)(players, parse_rules(name, rules), **extra)
