"""Shave a Sheep's rule options: wool, cap, die, variants (Shave a Sheep rulings 2, 3, 7-10).

Rule options are validated once, here, with messages that say what is wrong; the engine then
trusts them. A face is written as colours joined by ``/`` (``white/pink``); each colour is one
action: ``white`` grow, ``x2`` double, ``green`` swap, ``gray`` wolf, ``pink`` shear.
"""

from __future__ import annotations

import json
import math
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from sheepfold.core.protocol import RulesError

COLOUR_ACTIONS: dict[str, str] = {
    "white": "grow",
    "x2": "double",
    "green": "swap",
    "gray": "wolf",
    "pink": "shear",
}
ACTION_NAMES = tuple(dict.fromkeys(COLOUR_ACTIONS.values()))

STANDARD_DIE: tuple[str, ...] = (
    "white",
    "x2",
    "white/pink",
    "white/green",
    "gray/pink",
    "gray/green",
)
HOWLING_DIE: tuple[str, ...] = (
    "gray/white",
    "white/green",
    "green/pink",
    "pink/white",
    "white/gray",
    "x2",
)

Variant = Literal["cutting-costs", "howling-wolf", "my-friend-mr-wolf"]
VARIANTS: tuple[str, ...] = ("cutting-costs", "howling-wolf", "my-friend-mr-wolf")


def face_colours(face: str) -> tuple[str, ...]:
    """The distinct colours of a face, in the order written (``white/white`` is ``white``)."""
    parts = [p.strip().lower() for p in face.split("/")]
    for p in parts:
        if p not in COLOUR_ACTIONS:
            raise RulesError(
                f"die face '{face}': unknown colour '{p}' "
                f"(the colours are {', '.join(COLOUR_ACTIONS)})"
            )
    return tuple(dict.fromkeys(parts))


def normalize_face(face: str) -> str:
    """A face written the canonical way: colours lower-case, stripped, each once, in the order
    written (``" White / PINK "`` -> ``white/pink``; ``white/white`` -> ``white``)."""
    return "/".join(face_colours(face))


def face_actions(face: str) -> tuple[str, ...]:
    return tuple(COLOUR_ACTIONS[c] for c in face_colours(face))


class ShaveRules(BaseModel):
    """A Shave a Sheep rule set. Every field is optional: absent means the rulebook default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = Field(default=None, description="the rule set's name (informational)")
    description: str | None = Field(default=None, description="what the rule set changes")
    wool: int = Field(
        default=30, ge=1, le=1000, description="pieces of wool in the middle at setup"
    )
    max_wool: int = Field(default=5, ge=1, le=100, description="pieces a sheep can carry")
    variants: tuple[Variant, ...] = Field(default=(), description="printed variants in play")
    die: tuple[str, ...] | None = Field(
        default=None,
        max_length=16,
        description="custom die faces (1 to 16), each colours joined by '/': white grow, "
        "x2 double, green swap, gray wolf, pink shear; a face written twice comes up twice as often",
    )
    reaction_weights: tuple[float, ...] | None = Field(
        default=None, description="Howling Wolf: each seat's chance weight to grab the wolf first"
    )
    max_turns: int | None = Field(
        default=None, ge=1, description="simulations only: stop and report a truncated game"
    )

    @field_validator("variants", mode="before")
    @classmethod
    def _variants_list(cls, v: object, info: ValidationInfo) -> object:
        if isinstance(v, str):
            if info.context and info.context.get("strict"):  # a record: JSON types only
                raise ValueError(f"expected a list of variants, got the string {json.dumps(v)}")
            v = [v]
        if isinstance(v, (list, tuple)):
            for item in v:
                if item not in VARIANTS:
                    raise ValueError(
                        f"unknown variant {item!r} (the variants are {', '.join(VARIANTS)})"
                    )
            return tuple(dict.fromkeys(v))
        return v

    @field_validator("die")
    @classmethod
    def _die_faces(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if v is None:
            return v
        if not v:
            raise ValueError("a die needs at least one face")
        try:
            return tuple(normalize_face(face) for face in v)
        except RulesError as e:
            raise ValueError(str(e)) from None

    @field_validator("reaction_weights")
    @classmethod
    def _weights(cls, v: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if v is None:
            return v
        if any(not math.isfinite(w) or w < 0 for w in v) or sum(v) <= 0:
            raise ValueError("reaction weights must be finite, non-negative and not all zero")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> ShaveRules:
        if "howling-wolf" in self.variants and "my-friend-mr-wolf" in self.variants:
            raise ValueError(
                "Howling Wolf and My friend Mr. Wolf both redefine the gray face: "
                "choose one of them (ruling 9)"
            )
        return self

    # -- derived ------------------------------------------------------------------------
    @property
    def cutting_costs(self) -> bool:
        return "cutting-costs" in self.variants

    @property
    def howling_wolf(self) -> bool:
        return "howling-wolf" in self.variants

    @property
    def mr_wolf(self) -> bool:
        return "my-friend-mr-wolf" in self.variants

    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players these rules can seat (reaction weights name one)."""
        if self.reaction_weights is not None:
            return (len(self.reaction_weights),)
        return (2, 3, 4)

    @property
    def faces(self) -> tuple[str, ...]:
        """The die in use: the custom one, else Howling Wolf's, else the rulebook's."""
        if self.die is not None:
            return self.die
        return HOWLING_DIE if self.howling_wolf else STANDARD_DIE

    def unset_options(self) -> dict[str, tuple[str, object]]:
        """What each option left unset (None) amounts to, for ``sheepfold rules show``: a
        sentence and a value (the one in use, or an example)."""
        die = "Howling Wolf's die" if self.howling_wolf else "the rulebook's die"
        return {
            "die": (f"{die}, the faces in use:", list(self.faces)),
            "reaction_weights": (
                "every seat weighs 1 (equal chances); set one weight per seat, e.g. 3 players:",
                [1.0, 1.0, 1.0],
            ),
            "max_turns": (
                "no limit, every game is played to its end (the lab and the interop "
                "environments stop a game after 1000 turns unless it is set), e.g.:",
                1000,
            ),
        }

    def options(self) -> dict[str, object]:
        """The rule options that differ from the defaults, as plain data (for records)."""
        return self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})

    def key(self) -> str:
        """A stable text naming what the rules do (name and description left out): a cache key."""
        data = self.model_dump(mode="json", exclude={"name", "description"})
        return repr(sorted(data.items()))
