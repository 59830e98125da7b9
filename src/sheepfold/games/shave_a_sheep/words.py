"""Shave a Sheep's rules in words, generated from the program (:mod:`.program`): a sentence
for every effect, condition, verb, face, trigger, the end and the setup. Every front end (the
terminal, the web table, the gallery) says the rules with these words, so none can drift."""

from __future__ import annotations

from typing import Any

from sheepfold.games.shave_a_sheep.program import Condition


def condition_unmet(c: Condition, state: Any, me: int, target: int | None) -> str:
    """Why condition ``c`` does not hold now for the roller ``me``, in words."""
    cap = state.game.program.setup.cap
    if c.kind == "room" and c.place.where == "sheep" and c.place.whose == "me":
        if state.sheep[me] >= cap:
            return f"your sheep cannot take more wool: it carries {state.sheep[me]} of {cap}"
        return "the middle has no wool left"
    return f"it needs {condition(c)}"


def condition(c: Condition) -> str:
    return c.kind
