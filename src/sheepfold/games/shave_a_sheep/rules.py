"""Shave a Sheep's rule options: wool, cap, die, variants and house rules (Shave a Sheep rulings
2, 3, 5-10; the house rules ``auto_shear`` ... ``rerolls`` are docs/spec/rulings.md's "House
rules").

Rule options are validated once, here, with messages that say what is wrong; the engine then
trusts them. A face is written as colours joined by ``/`` (``white/pink``); each colour is one
action: ``white`` grow, ``x2`` double, ``green`` swap, ``gray`` wolf, ``pink`` shear.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
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
MAX_FACES = 16
MAX_REROLLS = 3
#: the most seats a game has (a reaction weight each)
MAX_SEATS = 4
#: how much wool the standard wolf takes: all of it, half of it (rounded up) or a number of pieces
WolfTakes = Literal["all", "half"] | Annotated[StrictInt, Field(ge=1, le=100)]


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


def weights_problem(weights: tuple[float, ...]) -> str | None:
    """What is wrong with Howling Wolf's reaction weights, in words (None: nothing). They are
    chances, up to their ratios: one per seat (2 to 4), each a finite number, none negative, not
    all 0, with a sum a float can hold, and every positive weight a chance above 0 once divided
    by that sum (``[1e308, 1e308]`` adds up to infinity: every chance would be 0)."""
    if not 2 <= len(weights) <= MAX_SEATS:
        return f"give one weight per seat, 2 to {MAX_SEATS}, not {len(weights)}"
    for seat, w in enumerate(weights):
        if not math.isfinite(w):
            return f"seat {seat}'s weight is {w}: a weight is a finite number"
        if w < 0:
            return f"seat {seat}'s weight is {w}: a weight is 0 or more"
    total = sum(weights)  # inf when it overflows (math.fsum would raise)
    if total <= 0:
        return "the weights are all 0: at least one seat must be able to grab the wolf"
    if not math.isfinite(total):
        return (
            "the weights add up to more than a number can hold: only their ratios count, "
            "write smaller ones (1 and 1, not 1e308 and 1e308)"
        )
    for seat, w in enumerate(weights):
        if w > 0 and w / total == 0:
            return (
                f"seat {seat}'s weight {w} is so small beside the others that its chance is 0: "
                "write 0 if it should never grab the wolf, else a larger weight"
            )
    return None


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
        description="custom die faces (1 to 16), each colours joined by '/': white grow, "
        "x2 double, green swap, gray wolf, pink shear; a face written twice comes up twice as often",
    )
    auto_shear: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="a sheep carrying at least this many at the start of its owner's turn is "
        "shorn before the roll (ruling 5); at most max_wool",
    )
    wolf_takes: WolfTakes = Field(
        default="all",
        description="the standard wolf takes all the wool of its target, half of it (rounded up) "
        "or a number of pieces (1 to 100, at most what is there)",
    )
    wolf_to: Literal["middle", "roller"] = Field(
        default="middle",
        description="where the standard wolf's wool goes: back to the middle, or onto the "
        "roller's safe pile",
    )
    shear_cost: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="pieces every shear (pink, auto-shear and the final shear) pays back to the "
        "middle, at most what was shorn (the cutting-costs variant is 1)",
    )
    full_bonus: int = Field(
        default=0,
        ge=0,
        le=1000,
        description="a shear in play (pink or the auto-shear, not the final shear) of a full "
        "sheep (carrying max_wool) also moves this many pieces from the middle (as many as "
        "there are) to its owner's safe pile",
    )
    target: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="the game also ends at the end of a turn after which a safe pile holds at "
        "least this many pieces",
    )
    final_shear: bool = Field(
        default=True,
        description="the game's end shears every sheep one last time (ruling 6); false: only "
        "the safe piles count",
    )
    rerolls: int = Field(
        default=0,
        ge=0,
        le=MAX_REROLLS,
        description="times per turn the roller may roll again instead of acting on the face "
        "rolled (not on a face that starts Howling Wolf's race)",
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
            raise ValueError("a die needs at least one face (it may have 1 to 16)")
        if len(v) > MAX_FACES:
            raise ValueError(
                f"a die has at most {MAX_FACES} faces, this one has {len(v)} "
                "(write a face twice to make it come up twice as often)"
            )
        try:
            return tuple(normalize_face(face) for face in v)
        except RulesError as e:
            raise ValueError(str(e)) from None

    @field_validator("wolf_takes", mode="before")
    @classmethod
    def _wolf_takes(cls, v: object) -> object:
        ok_int = isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100
        if v not in ("all", "half") and not ok_int:
            raise ValueError(
                f"wolf_takes is 'all', 'half' or a number of pieces from 1 to 100, not {v!r}"
            )
        return v

    @field_validator("reaction_weights")
    @classmethod
    def _weights(cls, v: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if v is None:
            return v
        problem = weights_problem(v)
        if problem:
            raise ValueError(problem)
        return v

    @model_validator(mode="after")
    def _consistent(self) -> ShaveRules:
        if "howling-wolf" in self.variants and "my-friend-mr-wolf" in self.variants:
            raise ValueError(
                "Howling Wolf and My friend Mr. Wolf both redefine the gray face: "
                "choose one of them (ruling 9)"
            )
        for problem in (
            self._auto_shear_problem(),
            self._wolf_problem(),
            self._cost_problem(),
            self._target_problem(),
            self._growth_problem(),
        ):
            if problem:
                raise ValueError(problem)
        return self

    def _auto_shear_problem(self) -> str | None:
        if self.auto_shear is not None and self.auto_shear > self.max_wool:
            return (
                f"auto_shear is {self.auto_shear} but a sheep carries at most max_wool = "
                f"{self.max_wool}: no sheep could ever reach it (lower auto_shear or raise max_wool)"
            )
        return None

    def _wolf_problem(self) -> str | None:
        redefined = [v for v in ("howling-wolf", "my-friend-mr-wolf") if v in self.variants]
        if redefined and (self.wolf_takes != "all" or self.wolf_to != "middle"):
            return (
                "wolf_takes and wolf_to change the standard wolf, but "
                f"{redefined[0]} redefines the gray face (rulings 8, 9): drop one of them"
            )
        return None

    def _cost_problem(self) -> str | None:
        if self.cutting_costs and self.shear_cost not in (None, 1):
            return (
                f"the cutting-costs variant is a shear cost of 1 (ruling 7) but shear_cost is "
                f"{self.shear_cost}: drop the variant or the option"
            )
        return None

    def _target_problem(self) -> str | None:
        if self.target is not None and self.target > self.wool:
            return (
                f"target {self.target} can never be reached: only {self.wool} pieces of wool "
                "are in play (lower target or raise wool)"
            )
        return None

    def _growth_problem(self) -> str | None:
        """Every shear pays back all it shears and nothing else fills a pile (the option
        shear_cost only: the printed Cutting costs with a cap of 1 stays a legal, if dull, game)."""
        if self.shear_cost is None or self.cost < self.max_wool:
            return None
        acts = {a for f in self.faces for a in face_actions(f)}
        if "wolf" in acts and (self.wolf_to == "roller" or self.mr_wolf):
            return None
        if self.full_bonus > 0:  # a full sheep's shear takes pieces from the middle
            return None
        return (
            f"shear_cost {self.cost} is at least max_wool {self.max_wool}, so every shear pays "
            "back all it shears, and no other rule fills a pile (a gray face with wolf_to = "
            "'roller' or my-friend-mr-wolf, or a full_bonus for full sheep): no pile can ever "
            "grow, the game can only end by an empty middle with every pile at 0"
        )

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

    @property
    def cost(self) -> int:
        """Pieces a shear pays back: ``shear_cost``, else 1 under Cutting costs (Shave a Sheep ruling 7)."""
        if self.shear_cost is not None:
            return self.shear_cost
        return int(self.cutting_costs)

    @property
    def shear_at(self) -> int:
        """The auto-shear threshold (Shave a Sheep ruling 5): ``auto_shear``, else ``max_wool``."""
        return self.auto_shear if self.auto_shear is not None else self.max_wool

    def wolf_take(self, wool: int) -> int:
        """The pieces the standard wolf takes off a sheep carrying ``wool``
        (Shave a Sheep ruling 4; house rule ``wolf_takes``: half is rounded up, a number is at
        most what is there)."""
        if self.wolf_takes == "all":
            return wool
        if self.wolf_takes == "half":
            return (wool + 1) // 2
        return min(self.wolf_takes, wool)

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
            "auto_shear": (
                f"a full sheep (max_wool = {self.max_wool}) is shorn before its owner rolls "
                "(ruling 5), e.g.:",
                self.max_wool,
            ),
            "shear_cost": (
                "1 with the cutting-costs variant, else 0 (a shear keeps all it shears), e.g.:",
                self.cost,
            ),
            "target": (
                "no target: the game ends only when the middle is empty (ruling 6), e.g.:",
                max(1, self.wool // 2),
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
