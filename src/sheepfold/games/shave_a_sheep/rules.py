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
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from sheepfold.core.errors import raise_problems
from sheepfold.core.protocol import RulesError
from sheepfold.core.words import Msg, text_of
from sheepfold.games.shave_a_sheep.program import Amount, Condition, Place, Whose

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
#: the most turns a simulation may play (``max_turns``; the lab's ``--max-turns``): a game of
#: the most wool (1000) lasts a few thousand turns
MAX_TURNS = 1_000_000
#: the most seats a game has (a reaction weight each)
MAX_SEATS = 4
#: how much wool the standard wolf takes: all of it, half of it (rounded up) or a number of pieces
WolfTakes = Literal["all", "half"] | Annotated[StrictInt, Field(ge=1, le=100)]


def face_colours(face: str, verbs: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The distinct parts of a face, in the order written (``white/white`` is ``white``): each a
    colour, or the name of one of ``verbs`` (a rule set's verbs)."""
    parts = [p.strip().lower() for p in face.split("/")]
    for p in parts:
        if p not in COLOUR_ACTIONS and p not in verbs:
            known: str = ", ".join(COLOUR_ACTIONS)
            own = [v for v in verbs if v not in ("grow", "double", "shear", "swap", "wolf", "raid")]
            if own:  # a rule set's own verbs (the printed ones are the colours)
                known = Msg("{colours}; or a verb: {verbs}", colours=known, verbs=", ".join(own))
            raise RulesError(
                Msg(
                    "die face '{face}': unknown colour '{colour}' (the colours are {known})",
                    face=face[:60],
                    colour=p[:40],
                    known=known,
                )
            )
    return tuple(dict.fromkeys(parts))


def normalize_face(face: str, verbs: tuple[str, ...] = ()) -> str:
    """A face written the canonical way: colours lower-case, stripped, each once, in the order
    written (``" White / PINK "`` -> ``white/pink``; ``white/white`` -> ``white``)."""
    return "/".join(face_colours(face, verbs))


def face_actions(face: str) -> tuple[str, ...]:
    """What a (normalized) face shows: each colour as its printed verb, a verb's name as it is."""
    return tuple(dict.fromkeys(COLOUR_ACTIONS.get(c, c) for c in face.split("/")))


def weights_problem(weights: tuple[float, ...]) -> str | None:
    """What is wrong with Howling Wolf's reaction weights, in words (None: nothing). They are
    chances, up to their ratios: one per seat (2 to 4), each a finite number, none negative, not
    all 0, with a sum a float can hold, and every positive weight a chance above 0 once divided
    by that sum (``[1e308, 1e308]`` adds up to infinity: every chance would be 0)."""
    if not 2 <= len(weights) <= MAX_SEATS:
        return Msg("give one weight per seat, 2 to {most}, not {n}", most=MAX_SEATS, n=len(weights))
    for seat, w in enumerate(weights):
        if not math.isfinite(w):
            return Msg("seat {seat}'s weight is {w}: a weight is a finite number", seat=seat, w=w)
        if w < 0:
            return Msg("seat {seat}'s weight is {w}: a weight is 0 or more", seat=seat, w=w)
    total = sum(weights)  # inf when it overflows (math.fsum would raise)
    if total <= 0:
        return Msg("the weights are all 0: at least one seat must be able to grab the wolf")
    if not math.isfinite(total):
        return Msg(
            "the weights add up to more than a number can hold: only their ratios count, "
            "write smaller ones (1 and 1, not 1e308 and 1e308)"
        )
    for seat, w in enumerate(weights):
        if w > 0 and w / total == 0:
            return Msg(
                "seat {seat}'s weight {w} is so small beside the others that its chance is 0: "
                "write 0 if it should never grab the wolf, else a larger weight",
                seat=seat,
                w=w,
            )
    return None


# -- the rule language's surface (docs/spec/rule-language.md) -----------------------------------
#: caps on a rule file's parts, checked before anything is built
MAX_VERBS = 16
MAX_EFFECTS = 8
MAX_CONDITIONS = 8
MAX_TRIGGERS = 8
MAX_NAME = 24
MAX_WORDS = 200
MAX_WOLVES = 2
#: the printed verbs a rule file may redefine (``[verbs.wolf]``), and whether each picks a seat
PRINTED_VERBS: dict[str, bool] = {
    "grow": False,
    "double": False,
    "shear": False,
    "swap": True,
    "wolf": True,
    "raid": False,
}
#: how a place names its seat, in words, and the program's name for it
WHOSE_WORDS: dict[str, str] = {
    "my": "me",
    "target": "target",
    "wolf": "wolf",
    "left": "left",
    "right": "right",
    "leader": "leader",
    "last": "last",
    "partner": "partner",
    "others": "others",
}
_NAME = re.compile(r"[a-z][a-z0-9-]*")
_FRACTIONS = {"half": (1, 2), "third": (1, 3), "quarter": (1, 4)}
PLACE_FORMS = Msg(
    "middle, or WHOSE sheep / WHOSE pile, WHOSE one of my, target, wolf (wolf 2: the second "
    "wolf piece), left, right, leader, last, partner, others"
)
AMOUNT_FORMS = Msg(
    "a number of pieces (1 to 100; 'up to 2' is 2), all, or a fraction rounded up or down "
    "('half up', 'third down', '2/3 down')"
)
CONDITION_FORMS = Msg(
    "PLACE >= N, PLACE <= N, PLACE > N, PLACE < N, 'room on WHOSE sheep', 'wolf away' "
    "('wolf 2 away'), 'alone last', 'alone leading', each may start with 'not'"
)


def _words(text: str) -> list[str]:
    return text.strip().lower().split()


def parse_whose(text: str) -> tuple[Whose, int]:
    """``my``, ``target``, ``wolf 2`` ...: the program's seat word and the wolf piece (0, 1)."""
    w = _words(text)
    if w and w[-1] == "sheep":
        w = w[:-1]
    if len(w) == 2 and w[0] == "wolf" and w[1] in ("1", "2"):
        return "wolf", int(w[1]) - 1
    if len(w) == 1 and w[0] in WHOSE_WORDS:
        return WHOSE_WORDS[w[0]], 0  # type: ignore[return-value]
    raise ValueError(
        Msg(
            "{text} names no player: write one of {words} (wolf 2: the second wolf piece)",
            text=repr(text),
            words=", ".join(WHOSE_WORDS),
        )
    )


def parse_place(text: str) -> Place:
    """``middle``, ``my sheep``, ``target pile``, ``wolf 2 sheep`` ... as a :class:`Place`."""
    w = _words(text)
    if w == ["middle"] or w == ["the", "middle"]:
        return Place("middle")
    if len(w) >= 2 and w[-1] in ("sheep", "pile"):
        try:
            whose, piece = parse_whose(" ".join(w[:-1]))
        except ValueError:
            pass
        else:
            return Place(w[-1], whose, piece)  # type: ignore[arg-type]
    raise ValueError(
        Msg("{text} is not a place: write {forms}", text=repr(text), forms=PLACE_FORMS)
    )


def parse_amount(value: int | str) -> Amount:
    """A number of pieces, ``all``, ``up to N`` or a fraction rounded up or down."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 100:
            raise ValueError(Msg("{n} pieces: a number of pieces is 1 to 100", n=value))
        return Amount("number", value)
    if not isinstance(value, str):
        raise ValueError(Msg("an amount is {forms}", forms=AMOUNT_FORMS))
    w = _words(value)
    if w[:2] == ["up", "to"]:
        w = w[2:]
    if len(w) == 1 and w[0].isdigit():
        return parse_amount(int(w[0]))
    if w == ["all"]:
        return Amount("all")
    if len(w) == 2 and w[1] in ("up", "down"):
        frac = _FRACTIONS.get(w[0])
        if frac is None and re.fullmatch(r"\d{1,2}/\d{1,2}", w[0]):
            a, b = (int(x) for x in w[0].split("/"))
            if 1 <= a < b <= 12:
                frac = (a, b)
        if frac is not None:
            return Amount("fraction", num=frac[0], den=frac[1], up=w[1] == "up")
    if len(w) == 1 and (w[0] in _FRACTIONS or "/" in w[0]):
        raise ValueError(
            Msg(
                "{value}: say how a fraction is rounded, e.g. '{fraction} down'",
                value=repr(value),
                fraction=w[0],
            )
        )
    raise ValueError(
        Msg("{value} is not an amount: write {forms}", value=repr(value), forms=AMOUNT_FORMS)
    )


def parse_condition(text: str) -> Condition:
    """``target pile >= 1``, ``room on my sheep``, ``wolf away``, ``not alone last`` ..."""
    w = _words(text)
    negate = bool(w) and w[0] == "not"
    if negate:
        w = w[1:]
    if w in (["alone", "last"], ["my", "pile", "alone", "last"]):
        return Condition("alone-last", negate=negate)
    if w in (["alone", "leading"], ["my", "pile", "alone", "leading"]):
        return Condition("alone-leader", negate=negate)
    if w[-1:] == ["away"] and w[:1] == ["wolf"]:
        whose, piece = parse_whose(" ".join(w[:-1]))
        return Condition("wolf-away", piece=piece, negate=negate)
    if w[:2] == ["room", "on"]:
        whose, piece = parse_whose(" ".join(w[2:]))
        return Condition("room", Place("sheep", whose, piece), negate=negate)
    for op in (">=", "<=", ">", "<"):
        if op in w:
            i = w.index(op)
            place = parse_place(" ".join(w[:i]))
            rest = w[i + 1 :]
            if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) > 1000:
                raise ValueError(
                    Msg("{text}: compare with a number of pieces (0 to 1000)", text=repr(text))
                )
            n = int(rest[0])
            if op == ">":
                return Condition("at-least", place, n + 1, negate=negate)
            if op == "<":
                if n == 0:
                    raise ValueError(
                        Msg("{text}: no place holds fewer than 0 pieces", text=repr(text))
                    )
                return Condition("at-most", place, n - 1, negate=negate)
            kind = "at-least" if op == ">=" else "at-most"
            return Condition(kind, place, n, negate=negate)  # type: ignore[arg-type]
    raise ValueError(
        Msg("{text} is not a condition: write {forms}", text=repr(text), forms=CONDITION_FORMS)
    )


def _conditions(v: tuple[str, ...]) -> tuple[str, ...]:
    for text in v:
        parse_condition(text)
    return tuple(" ".join(_words(t)) for t in v)


Words = Annotated[StrictStr, Field(min_length=1, max_length=MAX_WORDS)]
Conditions = Annotated[tuple[StrictStr, ...], Field(max_length=MAX_CONDITIONS)]


class _Part(BaseModel):
    """A part of a rule file: unknown keys refused; written back without its unset keys."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_serializer(mode="wrap")
    def _plain(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        out: dict[str, Any] = {}
        for key, field in type(self).model_fields.items():
            value = data.get(key, data.get(field.alias)) if field.alias else data.get(key)
            if value is None or value == field.default or value in ((), []):
                continue
            out[field.alias or key] = value
        return out


# An effect in a rule file: ``{ move = 1, from = "target pile", to = "my pile" }``, ``{ shear =
# "my" }``, ``{ swap = "target" }`` (my sheep with the target's; ``"left with right"``), ``{ wolf
# = "target" }`` (a wolf piece placed; ``"home"``: sent home; ``piece = 2``: the second). The
# docstring is what the rule editor says of it: words, no keys.
class EffectSpec(_Part):
    """One effect: pieces moved from one place to another, a sheep shorn, two sheep swapped (my
    sheep with the chosen player's, or two others), or a wolf piece placed (or sent home)."""

    move: StrictInt | StrictStr | None = None
    from_: StrictStr | None = Field(default=None, alias="from")
    to: StrictStr | None = None
    shear: StrictStr | None = None
    cost: StrictInt | None = Field(default=None, ge=0, le=100)
    bonus: StrictInt | None = Field(default=None, ge=0, le=1000)
    swap: StrictStr | None = None
    wolf: StrictStr | None = None
    piece: StrictInt = Field(default=1, ge=1, le=MAX_WOLVES)

    @field_validator("move")
    @classmethod
    def _amount(cls, v: int | str | None) -> int | str | None:
        if v is not None:
            parse_amount(v)
        return v

    @field_validator("from_", "to")
    @classmethod
    def _place(cls, v: str | None) -> str | None:
        if v is not None:
            parse_place(v)
        return v

    @field_validator("shear")
    @classmethod
    def _shorn(cls, v: str | None) -> str | None:
        if v is not None:
            parse_whose(v)
        return v

    @field_validator("swap")
    @classmethod
    def _swapped(cls, v: str | None) -> str | None:
        if v is not None:
            swap_sides(v)
        return v

    @field_validator("wolf")
    @classmethod
    def _wolfed(cls, v: str | None) -> str | None:
        if v is not None and _words(v) != ["home"]:
            parse_whose(v)
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> EffectSpec:
        kinds = [k for k in ("move", "shear", "swap", "wolf") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                Msg(
                    "an effect is one of move (with from and to), shear, swap or wolf, "
                    "not {kinds} at once",
                    kinds=" and ".join(kinds),
                )
                if kinds
                else Msg("an effect is one of move (with from and to), shear, swap or wolf")
            )
        kind = kinds[0]
        if kind == "move" and (self.from_ is None or self.to is None):
            raise ValueError(Msg("a move says where the wool comes from and goes: from and to"))
        if kind != "move" and (self.from_ is not None or self.to is not None):
            raise ValueError(Msg("from and to belong to a move, not to a {kind}", kind=kind))
        if kind != "shear" and (self.cost is not None or self.bonus is not None):
            raise ValueError(Msg("cost and bonus belong to a shear, not to a {kind}", kind=kind))
        if kind != "wolf" and self.piece != 1:
            raise ValueError(Msg("piece belongs to a wolf effect, not to a {kind}", kind=kind))
        return self


def swap_sides(text: str) -> tuple[Whose, Whose]:
    """``target`` (my sheep with the target's) or ``left with right``."""
    parts = [p.strip() for p in text.lower().split(" with ")]
    if len(parts) == 1:
        return "me", parse_whose(parts[0])[0]
    if len(parts) == 2:
        return parse_whose(parts[0])[0], parse_whose(parts[1])[0]
    raise ValueError(
        Msg("{text}: a swap is 'WHOSE' (with my sheep) or 'WHOSE with WHOSE'", text=repr(text))
    )


Effects = Annotated[tuple[EffectSpec, ...], Field(max_length=MAX_EFFECTS)]


# Howling Wolf's race in a rule file: the grabber's chosen seat loses ``take`` of its sheep
# ``to`` a place (``my``: the roller), then the roller may use one of ``then``.
class RaceSpec(_Part):
    """Howling Wolf's race: the seat the grabber chooses loses some of its sheep's wool to a
    place, then the roller may use one of the actions listed."""

    take: StrictInt | StrictStr = 1
    to: StrictStr = "middle"
    then: tuple[StrictStr, ...] = Field(default=("grow",), max_length=4)

    @field_validator("take")
    @classmethod
    def _amount(cls, v: int | str) -> int | str:
        parse_amount(v)
        return v

    @field_validator("to")
    @classmethod
    def _place(cls, v: str) -> str:
        parse_place(v)
        return v


# A verb in a rule file: ``choose = "another player"`` (it picks a seat, ``target``), ``when``
# (its conditions), ``effects`` in order, or a ``race``; ``words``: how to say it.
class VerbSpec(_Part):
    """A verb: whether it chooses another player, its conditions, its effects in order (or a
    race), and the words that say it."""

    choose: Literal["another player"] | None = None
    when: Conditions = ()
    effects: Effects = ()
    race: RaceSpec | None = None
    words: Words | None = None

    @field_validator("when")
    @classmethod
    def _when(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return _conditions(v)


# A trigger in a rule file: ``on`` an event, ``when`` its conditions hold, its ``effects``.
class TriggerSpec(_Part):
    """On an event, when its conditions hold, its effects (my means the roller, or the shorn
    seat after a shear)."""

    on: Literal["turn start", "after shear", "middle empty"]
    when: Conditions = ()
    effects: Annotated[tuple[EffectSpec, ...], Field(min_length=1, max_length=MAX_EFFECTS)]
    words: Words | None = None

    @field_validator("when")
    @classmethod
    def _when(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return _conditions(v)


# A rule file's ``[setup] wool`` and ``cap`` are the options ``wool`` and ``max_wool``.
class SetupSpec(_Part):
    """How the game starts: wool on each sheep, wolf pieces, who starts, the teams."""

    sheep: StrictInt = Field(default=0, ge=0, le=100)
    wolves: StrictInt | None = Field(default=None, ge=0, le=MAX_WOLVES)
    first: StrictInt = Field(default=0, ge=0, le=MAX_SEATS - 1)
    teams: tuple[tuple[StrictInt, ...], ...] = Field(default=(), max_length=2)

    @field_validator("teams")
    @classmethod
    def _teams(cls, v: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        seen: set[int] = set()
        for team in v:
            if len(team) < 2:
                raise ValueError(Msg("a team is two seats or more, not {team}", team=list(team)))
            for seat in team:
                if not 0 <= seat < MAX_SEATS:
                    raise ValueError(
                        Msg("seat {seat}: the seats are 0 to {last}", seat=seat, last=MAX_SEATS - 1)
                    )
                if seat in seen:
                    raise ValueError(Msg("seat {seat} is in two teams", seat=seat))
                seen.add(seat)
        return v


# A rule file's ``[end]``: ``middle_empty``, ``turns_each`` (and ``target`` and ``final_shear``,
# the options of those names).
class EndSpec(_Part):
    """How the game ends, besides a target and the final shear: when the middle is empty, or
    after a number of turns of every seat."""

    middle_empty: StrictBool = True
    turns_each: StrictInt | None = Field(default=None, ge=1, le=1000)


#: the parts of the language, as the fields of :class:`ShaveRules` (unset: the printed rules)
LANGUAGE_FIELDS = ("setup", "verbs", "triggers", "end")
#: a part's keys that are the shorthand's options (``[setup] wool`` is ``wool``)
ALIASES = {
    ("setup", "wool"): "wool",
    ("setup", "cap"): "max_wool",
    ("end", "target"): "target",
    ("end", "final_shear"): "final_shear",
}


#: the options the checks between options read (language_problem, _growth_problem)
LANGUAGE_READS = (
    *LANGUAGE_FIELDS,
    "die",
    "variants",
    "wool",
    "max_wool",
    "target",
    "reaction_weights",
)
GROWTH_READS = ("shear_cost", "max_wool", "die", "verbs", "variants", "wolf_to", "full_bonus")


class ShaveRules(BaseModel):
    """A Shave a Sheep rule set. Every field is optional: absent means the rulebook default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: StrictStr | None = Field(default=None, description="the rule set's name (informational)")
    description: StrictStr | None = Field(default=None, description="what the rule set changes")
    wool: StrictInt = Field(
        default=30, ge=1, le=1000, description="pieces of wool in the middle at setup"
    )
    max_wool: StrictInt = Field(default=5, ge=1, le=100, description="pieces a sheep can carry")
    variants: tuple[Variant, ...] = Field(default=(), description="printed variants in play")
    #: before ``die``: a face may name a verb
    verbs: dict[str, VerbSpec] | None = Field(
        default=None,
        description="the rule set's own verbs (a face names them), or a printed one redefined",
    )
    die: tuple[StrictStr, ...] | None = Field(
        default=None,
        description="custom die faces (1 to 16), each written as its colours joined by /: "
        "white grow, x2 double, green swap, gray wolf, pink shear; a face written twice comes "
        "up twice as often",
    )
    auto_shear: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100,
        # Shave a Sheep ruling 5's threshold
        description="a sheep carrying at least this many at the start of its owner's turn is "
        "shorn before the roll; at most max_wool",
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
    shear_cost: StrictInt | None = Field(
        default=None,
        ge=0,
        le=100,
        # the cutting-costs variant is 1 (Shave a Sheep ruling 7; unset_options says it)
        description="pieces every shear (pink, auto-shear and the final shear) pays back to the "
        "middle, at most what was shorn",
    )
    full_bonus: StrictInt = Field(
        default=0,
        ge=0,
        le=1000,
        description="a shear in play (pink or the auto-shear, not the final shear) of a full "
        "sheep (carrying max_wool) also moves this many pieces from the middle (as many as "
        "there are) to its owner's safe pile",
    )
    target: StrictInt | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="the game also ends at the end of a turn after which a safe pile holds at "
        "least this many pieces",
    )
    final_shear: StrictBool = Field(
        default=True,
        # Shave a Sheep ruling 6's final shear
        description="the game's end shears every sheep one last time; otherwise only the safe "
        "piles count",
    )
    rerolls: StrictInt = Field(
        default=0,
        ge=0,
        le=MAX_REROLLS,
        description="times per turn the roller may roll again instead of acting on the face "
        "rolled (not on a face that starts Howling Wolf's race)",
    )
    reaction_weights: tuple[StrictFloat, ...] | None = Field(
        default=None, description="Howling Wolf: each seat's chance weight to grab the wolf first"
    )
    max_turns: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_TURNS,
        description="simulations only: stop and report a truncated game",
    )
    setup: SetupSpec | None = Field(
        default=None,
        description="how the game starts: the pieces on every sheep, the wolf pieces, the seat "
        "that starts and the teams (seats that play together)",
    )
    triggers: tuple[TriggerSpec, ...] | None = Field(
        default=None,
        max_length=MAX_TRIGGERS,
        description="effects on an event: at the start of a turn, after a shear, when the "
        "middle is empty",
    )
    end: EndSpec | None = Field(
        default=None,
        description="how the game ends: middle_empty (an empty middle ends it), turns_each "
        "(after that many turns of every seat)",
    )

    @classmethod
    def expand_aliases(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A rule file's ``[setup] wool`` and ``cap``, ``[end] target`` and ``final_shear`` as
        the options ``wool``, ``max_wool``, ``target`` and ``final_shear`` (a
        :class:`RulesError` if both are given). Read by the rule files' reader
        (:func:`sheepfold.rulesets.parse_ruleset`), before validation."""
        if not any(isinstance(data.get(p), dict) and k in data[p] for p, k in ALIASES):
            return data
        data = dict(data)
        for (part, key), option in ALIASES.items():
            table = data.get(part)
            if isinstance(table, dict) and key in table:
                if option in data:
                    raise RulesError(
                        Msg(
                            "{alias} and {option} say the same thing: give only one of them",
                            alias=f"{part}.{key}",
                            option=option,
                        )
                    )
                table = dict(table)
                data[option] = table.pop(key)
                data[part] = table
                if not table:  # only aliases: no part of its own
                    del data[part]
        return data

    @field_validator("verbs")
    @classmethod
    def _verb_names(cls, v: dict[str, VerbSpec] | None) -> dict[str, VerbSpec] | None:
        if v is None:
            return v
        if len(v) > MAX_VERBS:
            raise ValueError(Msg("at most {most} verbs, not {n}", most=MAX_VERBS, n=len(v)))
        for name in v:
            if not isinstance(name, str) or len(name) > MAX_NAME or not _NAME.fullmatch(name):
                raise ValueError(
                    Msg(
                        "{name}: a verb's name is lower-case letters, digits and '-', "
                        "starting with a letter, at most {most} characters",
                        name=repr(str(name)[:40]),
                        most=MAX_NAME,
                    )
                )
            if name in COLOUR_ACTIONS or name in ("pass", "reroll"):
                raise ValueError(
                    Msg(
                        "{name} is a colour or a printed choice, not a verb to define",
                        name=repr(name),
                    )
                )
        return v

    @field_validator("variants", mode="before")
    @classmethod
    def _variants_list(cls, v: object, info: ValidationInfo) -> object:
        if isinstance(v, str):
            if info.context and info.context.get("strict"):  # a record: JSON types only
                raise ValueError(
                    Msg("expected a list of variants, got the string {text}", text=json.dumps(v))
                )
            v = [v]
        if isinstance(v, (list, tuple)):
            for item in v:
                if item not in VARIANTS:
                    raise ValueError(
                        Msg(
                            "unknown variant {item} (the variants are {variants})",
                            item=repr(item),
                            variants=", ".join(VARIANTS),
                        )
                    )
            return tuple(dict.fromkeys(v))
        return v

    @field_validator("die")
    @classmethod
    def _die_faces(cls, v: tuple[str, ...] | None, info: ValidationInfo) -> tuple[str, ...] | None:
        if v is None:
            return v
        if not v:
            raise ValueError(Msg("a die needs at least one face (it may have 1 to 16)"))
        if len(v) > MAX_FACES:
            raise ValueError(
                Msg(
                    "a die has at most {most} faces, this one has {n} "
                    "(write a face twice to make it come up twice as often)",
                    most=MAX_FACES,
                    n=len(v),
                )
            )
        if "verbs" not in info.data or "verbs" in (info.context or {}).get("invalid", ()):
            return v  # the verbs were refused: a face may name one of them
        verbs = tuple(dict.fromkeys([*PRINTED_VERBS, *(info.data.get("verbs") or {})]))
        try:
            return tuple(normalize_face(face, verbs) for face in v)
        except RulesError as e:
            raise ValueError(text_of(e)) from None

    @field_validator("wolf_takes", mode="before")
    @classmethod
    def _wolf_takes(cls, v: object) -> object:
        ok_int = isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100
        if v not in ("all", "half") and not ok_int:
            raise ValueError(
                Msg(
                    "wolf_takes is 'all', 'half' or a number of pieces from 1 to 100, not {value}",
                    value=repr(v),
                )
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
    def _consistent(self, info: ValidationInfo) -> ShaveRules:
        """Every problem between the options at once; a check that reads an option the context
        names ``invalid`` (refused on its own: :func:`sheepfold.games.check_rules`) is left
        out, its options being defaults that were not given."""
        invalid = (info.context or {}).get("invalid", ())
        raise_problems(
            [
                check()
                for reads, check in (
                    (("variants",), self._variants_problem),
                    (LANGUAGE_READS, self._language_problem),
                    (("auto_shear", "max_wool"), self._auto_shear_problem),
                    (("variants", "wolf_takes", "wolf_to"), self._wolf_problem),
                    (("variants", "shear_cost"), self._cost_problem),
                    (("target", "wool"), self._target_problem),
                    (GROWTH_READS, self._growth_problem),
                )
                if not set(reads) & set(invalid)
            ]
        )
        return self

    def _variants_problem(self) -> str | None:
        if "howling-wolf" in self.variants and "my-friend-mr-wolf" in self.variants:
            return Msg(
                "Howling Wolf and My friend Mr. Wolf both redefine the gray face: "
                "choose one of them (ruling 9)"
            )
        return None

    def _language_problem(self) -> str | None:
        """What the language's parts say that means nothing (None: nothing): see
        :func:`language_problem`."""
        return language_problem(self)

    def _auto_shear_problem(self) -> str | None:
        if self.auto_shear is not None and self.auto_shear > self.max_wool:
            return Msg(
                "auto_shear is {auto_shear} but a sheep carries at most max_wool = "
                "{max_wool}: no sheep could ever reach it (lower auto_shear or raise max_wool)",
                auto_shear=self.auto_shear,
                max_wool=self.max_wool,
            )
        return None

    def _wolf_problem(self) -> str | None:
        redefined = [v for v in ("howling-wolf", "my-friend-mr-wolf") if v in self.variants]
        if redefined and (self.wolf_takes != "all" or self.wolf_to != "middle"):
            return Msg(
                "wolf_takes and wolf_to change the standard wolf, but "
                "{variant} redefines the gray face (rulings 8, 9): drop one of them",
                variant=redefined[0],
            )
        return None

    def _cost_problem(self) -> str | None:
        if self.cutting_costs and self.shear_cost not in (None, 1):
            return Msg(
                "the cutting-costs variant is a shear cost of 1 (ruling 7) but shear_cost is "
                "{shear_cost}: drop the variant or the option",
                shear_cost=self.shear_cost,
            )
        return None

    def _target_problem(self) -> str | None:
        if self.target is not None and self.target > self.wool:
            return Msg(
                "target {target} can never be reached: only {wool} pieces of wool "
                "are in play (lower target or raise wool)",
                target=self.target,
                wool=self.wool,
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
        return Msg(
            "shear_cost {cost} is at least max_wool {max_wool}, so every shear pays "
            "back all it shears, and no other rule fills a pile (a gray face with wolf_to = "
            "'roller' or my-friend-mr-wolf, or a full_bonus for full sheep): no pile can ever "
            "grow, the game can only end by an empty middle with every pile at 0",
            cost=self.cost,
            max_wool=self.max_wool,
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
        """The numbers of players these rules can seat (reaction weights name one; the teams
        and the first seat need their seats)."""
        if self.reaction_weights is not None:
            return (len(self.reaction_weights),)
        low, sheep = 2, 0
        if self.setup is not None:
            seats = [s for t in self.setup.teams for s in t] + [self.setup.first]
            low = max(low, max(seats) + 1)
            sheep = self.setup.sheep
        return tuple(n for n in range(low, MAX_SEATS + 1) if n * sheep <= self.wool)

    @property
    def faces(self) -> tuple[str, ...]:
        """The die in use: the custom one, else Howling Wolf's, else the rulebook's."""
        if self.die is not None:
            return self.die
        return HOWLING_DIE if self.howling_wolf else STANDARD_DIE

    def unset_options(self) -> dict[str, tuple[str, object]]:
        """What each option left unset (None) amounts to, for ``sheepfold rules show``: a
        sentence and a value (the one in use, or an example)."""
        die = (
            Msg("Howling Wolf's die, the faces in use:")
            if self.howling_wolf
            else Msg("the rulebook's die, the faces in use:")
        )
        return {
            "die": (die, list(self.faces)),
            "reaction_weights": (
                Msg(
                    "every seat weighs 1 (equal chances); set one weight per seat, e.g. 3 players:"
                ),
                [1.0, 1.0, 1.0],
            ),
            "auto_shear": (
                # Shave a Sheep ruling 5: a full sheep is shorn before its owner rolls
                Msg("the same as max_wool, e.g.:"),
                self.max_wool,
            ),
            "shear_cost": (
                Msg(
                    "1 with the cutting-costs variant, else 0 (a shear keeps all it shears), e.g.:"
                ),
                self.cost,
            ),
            "target": (
                # Shave a Sheep ruling 6
                Msg("no target: the game ends only when the middle is empty, e.g.:"),
                max(1, self.wool // 2),
            ),
            "max_turns": (
                # the lab and the interop environments stop a game after 1000 turns
                Msg(
                    "no limit: every game is played to its end (simulations stop a game after "
                    "1000 turns unless it is set), e.g.:"
                ),
                1000,
            ),
            "setup": (
                # (docs/spec/rule-language.md)
                Msg("every sheep starts bare, seat 0 starts, no teams, e.g.:"),
                {"sheep": 2, "first": 0},
            ),
            "verbs": (
                Msg(
                    "only the printed verbs; a verb of your own is named on a face of the die, e.g.:"
                ),
                {
                    "steal": {
                        "choose": "another player",
                        "when": ["target pile >= 1"],
                        "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
                    }
                },
            ),
            "triggers": (
                Msg("only the auto-shear at the start of a turn, e.g. a catch-up rule:"),
                [
                    {
                        "on": "turn start",
                        "when": ["alone last"],
                        "effects": [{"move": 1, "from": "middle", "to": "my sheep"}],
                    }
                ],
            ),
            "end": (
                # Shave a Sheep ruling 6
                Msg("the game ends when the middle is empty, e.g.:"),
                {"middle_empty": True, "turns_each": 30},
            ),
        }

    def options(self) -> dict[str, object]:
        """The rule options that differ from the defaults, as plain data (for records)."""
        return self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})

    def key(self) -> str:
        """A stable text naming what the rules do (name and description left out): a cache key.
        The language's parts appear only when set (the printed rules' keys stay as they were)."""
        unset = {k for k in LANGUAGE_FIELDS if getattr(self, k) is None}
        data = self.model_dump(mode="json", exclude={"name", "description", *unset})
        return repr(sorted(data.items()))

    @property
    def first_seat(self) -> int:
        """The seat whose turn comes first: ``[setup] first`` (seat 0 unless set)."""
        return self.setup.first if self.setup is not None else 0

    def language_parts(self) -> tuple[str, ...]:
        """The language's parts this rule set sets (``setup``, ``verbs``...)."""
        return tuple(k for k in LANGUAGE_FIELDS if getattr(self, k) is not None)

    @property
    def wolves(self) -> int:
        """The wolf pieces in play: ``setup.wolves``, else one in My friend Mr. Wolf."""
        if self.setup is not None and self.setup.wolves is not None:
            return self.setup.wolves
        return int(self.mr_wolf)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.setup.teams if self.setup is not None else ()


# -- what the language's parts mean -----------------------------------------------------------
def at_path(path: str, problem: str) -> str:
    """A problem of the value at ``path`` (``verbs.steal``), as ``path: problem``: the words of
    :func:`sheepfold.core.errors.join_problems`, the path kept apart for the rules' check
    (``server/rules_api.py``: ``located``)."""
    return Msg("{where}: {problem}", where=path, problem=problem)


def _place_problem(place: Place, path: str, ctx: dict[str, Any]) -> str | None:
    """A place's seat word where it means nothing: ``target`` outside a verb that chooses a
    player, ``partner`` without teams, a wolf piece not in play."""
    return _whose_problem(place.whose, place.piece, path, ctx)


def _whose_problem(whose: str, piece: int, path: str, ctx: dict[str, Any]) -> str | None:
    if whose == "target" and not ctx["targeted"]:
        return at_path(
            path,
            Msg(
                "'target' is the player a verb chooses, but {what} chooses nobody "
                '(a verb chooses with choose = "another player")',
                what=ctx["what"],
            ),
        )
    if whose == "partner" and not ctx["teams"]:
        return at_path(path, Msg("'partner' needs teams ([setup] teams = [[0, 2], [1, 3]])"))
    if whose == "wolf" and piece >= ctx["wolves"]:
        n = ctx["wolves"]
        if n == 0:
            said = Msg(
                "it names wolf piece {piece}, but no wolf pieces are in play ([setup] wolves)",
                piece=piece + 1,
            )
        elif n == 1:
            said = Msg(
                "it names wolf piece {piece}, but 1 wolf piece is in play ([setup] wolves)",
                piece=piece + 1,
            )
        else:
            said = Msg(
                "it names wolf piece {piece}, but {n} wolf pieces are in play ([setup] wolves)",
                piece=piece + 1,
                n=n,
            )
        return at_path(path, said)
    return None


def _effects_problem(effects: tuple[EffectSpec, ...], path: str, ctx: dict[str, Any]) -> str | None:
    for i, e in enumerate(effects):
        at = f"{path}.effects.{i}"
        if e.move is not None:
            assert e.from_ is not None and e.to is not None
            src, dst = parse_place(e.from_), parse_place(e.to)
            for place, key in ((src, "from"), (dst, "to")):
                problem = _place_problem(place, f"{at}.{key}", ctx)
                if problem:
                    return problem
            if src == dst and src.whose != "others":
                return at_path(
                    at, Msg("the wool would go from {place} to the same place", place=e.from_)
                )
        elif e.shear is not None:
            if ctx["on"] == "after shear":
                return at_path(
                    at,
                    Msg(
                        "a trigger after a shear that shears would fire itself for ever: "
                        "after a shear, move wool instead"
                    ),
                )
            whose, piece = parse_whose(e.shear)
            problem = _whose_problem(whose, piece, f"{at}.shear", ctx)
            if problem:
                return problem
        elif e.swap is not None:
            a, b = swap_sides(e.swap)
            if a == b:
                return at_path(
                    f"{at}.swap", Msg("a sheep swaps with another sheep, not with itself")
                )
            for whose in (a, b):
                problem = _whose_problem(whose, 0, f"{at}.swap", ctx)
                if problem:
                    return problem
            if a == "others" and b == "others":
                return at_path(f"{at}.swap", Msg("'others' on both sides means nothing"))
        else:
            assert e.wolf is not None
            if e.piece > ctx["wolves"]:
                return _whose_problem("wolf", e.piece - 1, f"{at}.piece", ctx)
            if _words(e.wolf) != ["home"]:
                whose, piece = parse_whose(e.wolf)
                if whose == "others":
                    return at_path(
                        f"{at}.wolf", Msg("a wolf piece stands next to one player, not 'others'")
                    )
                problem = _whose_problem(whose, piece, f"{at}.wolf", ctx)
                if problem:
                    return problem
    return None


def _conditions_problem(when: tuple[str, ...], path: str, ctx: dict[str, Any]) -> str | None:
    for i, text in enumerate(when):
        c = parse_condition(text)
        at = f"{path}.when.{i}"
        if c.kind == "wolf-away":
            problem = _whose_problem("wolf", c.piece, at, ctx)
        else:
            problem = _place_problem(c.place, at, ctx)
        if problem:
            return problem
    return None


def language_problem(rules: ShaveRules) -> str | None:
    """What a rule set's language parts say that means nothing, with where (None: nothing):
    a face naming no verb, a verb on no face, a printed verb redefined with another choice, a
    seat word where it means nothing, a trigger that could fire itself, teams and setup that
    do not fit, an end that can never come."""
    verbs = rules.verbs or {}
    wolves = rules.wolves
    if rules.mr_wolf and wolves < 1:
        return at_path(
            "setup.wolves", Msg("My friend Mr. Wolf has a wolf piece: wolves is at least 1")
        )
    known = set(PRINTED_VERBS) | set(verbs)
    shown: set[str] = set()
    for face in rules.faces:  # each part a colour or a verb (the die's validator)
        shown.update(face_actions(face))
    if "raid" in shown and wolves < 1 and not rules.mr_wolf:
        return at_path("die", Msg("'raid' needs a wolf piece in play ([setup] wolves)"))
    ctx_base: dict[str, Any] = {"teams": bool(rules.teams), "wolves": wolves, "on": None}
    used = set(shown)
    for name, verb in verbs.items():
        path = f"verbs.{name}"
        targeted = verb.choose is not None
        if name in PRINTED_VERBS and PRINTED_VERBS[name] != targeted:
            return at_path(
                f"{path}.choose",
                Msg(
                    'the printed {verb} chooses another player: keep choose = "another player"',
                    verb=name,
                )
                if PRINTED_VERBS[name]
                else Msg(
                    "the printed {verb} chooses nobody: a verb of your own may (give it another "
                    "name)",
                    verb=name,
                ),
            )
        if verb.race is not None:
            if not targeted:
                return at_path(
                    f"{path}.race",
                    Msg('the race\'s grabber picks a player: choose = "another player"'),
                )
            if verb.effects:
                return at_path(path, Msg("a verb is a race or effects, not both"))
            for then in verb.race.then:
                if then not in known:
                    return at_path(
                        f"{path}.race.then",
                        Msg(
                            "'{then}' is no verb ({verbs})",
                            then=then,
                            verbs=", ".join(sorted(known)),
                        ),
                    )
                if verbs[then].choose if then in verbs else PRINTED_VERBS[then]:
                    return at_path(
                        f"{path}.race.then",
                        Msg(
                            "'{then}' chooses a player; after the race only a verb that does not",
                            then=then,
                        ),
                    )
                used.add(then)
            ctx = {**ctx_base, "targeted": True, "what": Msg("the race of {verb}", verb=name)}
            problem = _place_problem(parse_place(verb.race.to), f"{path}.race.to", ctx)
            if problem:
                return problem
        elif not verb.effects:
            return at_path(path, Msg("a verb needs effects (or a race): what does it do?"))
        ctx = {**ctx_base, "targeted": targeted, "what": Msg("the verb {verb}", verb=name)}
        problem = _conditions_problem(verb.when, path, ctx) or _effects_problem(
            verb.effects, path, ctx
        )
        if problem:
            return problem
    for name in verbs:
        if name not in used:
            return at_path(
                f"verbs.{name}", Msg("no face of the die shows it (name it on a face of die)")
            )
    for i, trig in enumerate(rules.triggers or ()):
        path = f"triggers.{i}"
        ctx = {**ctx_base, "targeted": False, "what": Msg("a trigger"), "on": trig.on}
        problem = _conditions_problem(trig.when, path, ctx) or _effects_problem(
            trig.effects, path, ctx
        )
        if problem:
            return problem
    setup = rules.setup
    if setup is not None:
        if setup.sheep > rules.max_wool:
            return at_path(
                "setup.sheep",
                Msg(
                    "{sheep} pieces on every sheep, but a sheep carries at most "
                    "max_wool = {max_wool}",
                    sheep=setup.sheep,
                    max_wool=rules.max_wool,
                ),
            )
        if not rules.player_counts():
            return at_path(
                "setup",
                Msg(
                    "no number of players fits: {sheep} pieces on every sheep out of {wool}, "
                    "the teams and the first seat need their seats",
                    sheep=setup.sheep,
                    wool=rules.wool,
                ),
            )
    end = rules.end
    if end is not None and not end.middle_empty and end.turns_each is None and rules.target is None:
        return at_path(
            "end",
            Msg("with middle_empty = false the game needs another end: turns_each or a target"),
        )
    return None
