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
    data = dict(options or {})
    try:
        return cls.model_validate(data), []
    except ValidationError as e:
        problems = validation_problems(e, where)
        # the problems between the options that are fine on their own (the model's own, of
        # the whole), at once: validated again without the options refused, the checks that
        # read those left out
        invalid = {err["loc"][0] for err in e.errors() if err["loc"]}
        if invalid and len(invalid) < len(data):
            try:
                cls.model_validate(
                    {k: v for k, v in data.items() if k not in invalid},
                    context={"invalid": frozenset(invalid)},
                )
            except ValidationError as again:
                problems += [
                    p
                    for p in validation_problems(again, where)
                    if p[0] == where and p not in problems
                ]
        return None, problems


def parse_rules(
    name: str, options: Mapping[str, Any] | BaseModel | None, where: str = "rules"
) -> Any:
    """Validate rule options for a game; :class:`RulesError` naming the field if they are wrong."""
    rules, problems = check_rules(name, options, where)
    if problems:
        raise RulesError(join_problems(problems))
    return rules


def make(name: str, players: int = 2, rules: Any = None, **options: Any) -> Game:
    """A game by name. ``rules`` is what ``--rules`` takes on the command line (a rule set's
    name, a rule file's path), a rules object, or rule options as a mapping (a rule file's
    options: its ``from`` names the rule set they go on; without one, the printed rules), all
    read by the one resolver (:func:`sheepfold.rulesets.resolve`); rule options may also come
    as keywords. Dolly Crush also takes ``breeds=[...]`` (one per seat: its spec's
    ``make_options``)."""
    from sheepfold.rulesets import resolve

    spec = game_spec(name)
    extra = {k: options.pop(k) for k in spec.make_options if k in options}
    model = resolve(name, rules)
    if options:
        model = parse_rules(name, {**model.model_dump(exclude_defaults=True), **options})
    return spec.make(players, model, **extra)
