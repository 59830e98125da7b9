"""Pig Pen's rule options: the target, the die and the turn limit.

Validated once, here, with messages that say what is wrong; the engine then trusts them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

#: the most faces a die may have (the chance node's outcomes)
MAX_FACES = 20
#: the largest target and the most turns a player may have
MAX_TARGET = 1000
MAX_TURNS = 1000


class PigRules(BaseModel):
    """A Pig Pen rule set. Every field is optional: absent means the default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: StrictStr | None = Field(default=None, description="the rule set's name (informational)")
    description: StrictStr | None = Field(default=None, description="what the rule set changes")
    # at least 3: a smaller target is reached by the first roll that is not a 1, leaving
    # nothing to decide
    target: StrictInt = Field(
        default=30, ge=3, le=MAX_TARGET, description="the wool a pen must hold to win"
    )
    faces: StrictInt = Field(
        default=6,
        ge=2,
        le=MAX_FACES,
        description="the die's faces, numbered from 1 (a 1 loses the turn's wool)",
    )
    max_turns: StrictInt = Field(
        default=40,
        ge=1,
        le=MAX_TURNS,
        description="turns each player has; after the last one the fullest pen wins",
    )

    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players these rules can seat."""
        return (2, 3, 4)

    def options(self) -> dict[str, object]:
        """The rule options that differ from the defaults, as plain data (for records)."""
        return self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})

    def key(self) -> str:
        """A stable text naming what the rules do (name and description left out): a cache key."""
        data = self.model_dump(mode="json", exclude={"name", "description"})
        return repr(sorted(data.items()))
