"""Dolly Crush's rule language (Dolly Crush rulings 1-8, their house rules and the language's
parts: docs/spec/rule-language.md): the flock's shape, which swaps are allowed, what makes a
combination, the deck, the scoring, the refill, the dog cards and how the game ends.

Rule files are validated once, here, with messages that say what is wrong and where; the
engine then trusts them. Today's option keys are shorthand for the parts (``rows``/``cols``: a
full rectangle, ``min_line``/``diagonals``/``match_colour``: one line combination,
``white_points``/``black_points``: the points of each colour); giving a shorthand and the part
it stands for at once is refused. Hostile files are bounded (the caps below) before anything is
built. :meth:`DollyRules.board` gives the geometry the rules describe."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from sheepfold.core.errors import raise_problems
from sheepfold.core.protocol import RulesError
from sheepfold.core.words import Msg, chained
from sheepfold.games.dolly_crush.cards import (
    BREEDS,
    CELL,
    HOLE,
    MAX_COLS,
    MAX_ROWS,
    TYPE_NAMES,
    Board,
    Bonus,
    Line,
    Pattern,
)

#: the options each check between options reads (DollyRules._consistent): the flock's geometry
#: and combinations, the deck's size, the deck's points
_GEOMETRY = frozenset(
    {"rows", "cols", "shape", "min_line", "diagonals", "match_colour", "types", "adjacent"}
    | {"combinations", "bonuses", "refill"}
)
_DECK = frozenset({"white_per_type", "black_per_type", "types"})
_POINTS = _DECK | {"points", "white_points", "black_points", "bonuses", "end_points"}
#: the caps on a rule file's parts (checked before anything is built)
MAX_COMBINATIONS = 8
MAX_PATTERN = 4  # a pattern is at most 4 x 4
MAX_BONUSES = 8
MAX_TIMES = 10
DIRECTIONS = ("rows", "columns", "diagonals")
ADJACENT = ("orthogonal", "diagonal")


def _capped(v: Any, what: str, cap: int) -> Any:
    if isinstance(v, (list, tuple)):
        if len(v) > cap:
            raise ValueError(Msg("at most {cap} {what}, not {n}", cap=cap, what=what, n=len(v)))
        # tuples, as a strict record's validation wants them (this runs on plain values)
        return tuple(
            {k: tuple(x) if isinstance(x, list) else x for k, x in item.items()}
            if isinstance(item, dict)
            else item
            for item in v
        )
    return v


def _grid_rows(v: Any, what: str, rows: int, cols: int) -> tuple[str, ...]:
    """Rows of ``X`` (a cell) and ``.`` (a hole): at most ``rows`` x ``cols``, all as long, no
    empty row or column at a border; the message says what is wrong."""
    if not isinstance(v, (list, tuple)) or not v or len(v) > rows:
        raise ValueError(
            Msg(
                "{what} is a list of 1 to {rows} rows of X (a cell) and . (a hole)",
                what=what,
                rows=rows,
            )
        )
    for i, row in enumerate(v):
        if not isinstance(row, str) or not 1 <= len(row) <= cols:
            raise ValueError(
                Msg(
                    "{what}: row {row} is not a text of 1 to {cols} X or . marks",
                    what=what,
                    row=i + 1,
                    cols=cols,
                )
            )
        bad = set(row) - {CELL, HOLE}
        if bad:
            raise ValueError(
                Msg(
                    "{what}: row {row} ({text}) holds {bad}: write X for a cell and . for a hole",
                    what=what,
                    row=i + 1,
                    text=repr(row),
                    bad=repr("".join(sorted(bad))),
                )
            )
    if len({len(r) for r in v}) != 1:
        raise ValueError(
            Msg(
                "{what}: every row must be as long (rows of {lengths})",
                what=what,
                lengths=sorted({len(r) for r in v}),
            )
        )
    if CELL not in v[0] or CELL not in v[-1]:
        raise ValueError(Msg("{what}: the first and last rows must hold a cell (X)", what=what))
    if all(r[0] == HOLE for r in v) or all(r[-1] == HOLE for r in v):
        raise ValueError(Msg("{what}: the first and last columns must hold a cell (X)", what=what))
    return tuple(v)


class LineCombination(BaseModel):
    """``length`` or more cards in a row along ``directions``, of one type (and one colour)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["line"]
    length: StrictInt = Field(default=3, ge=2, le=max(MAX_ROWS, MAX_COLS))
    directions: tuple[Literal["rows", "columns", "diagonals"], ...] = Field(
        default=("rows", "columns"), min_length=1, max_length=3
    )
    colour: StrictBool = False

    @field_validator("directions", mode="after")
    @classmethod
    def _canonical(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(d for d in DIRECTIONS if d in v)  # one order: equal rules are equal


class PatternCombination(BaseModel):
    """Cards on the X cells of ``cells`` (anywhere it fits, not rotated), of one type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["pattern"]
    cells: tuple[StrictStr, ...]
    colour: StrictBool = False

    @field_validator("cells", mode="before")
    @classmethod
    def _cells(cls, v: Any) -> Any:
        out = _grid_rows(v, Msg("a pattern's cells"), MAX_PATTERN, MAX_PATTERN)
        if sum(r.count(CELL) for r in out) < 2:
            raise ValueError(
                Msg("a pattern's cells: give at least two X (a single card is no combination)")
            )
        return out


Combination = Annotated[LineCombination | PatternCombination, Field(discriminator="kind")]


class TypePoints(BaseModel):
    """The points of one sheep type's cards (a colour not given: that colour's points)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    white: StrictInt | None = Field(default=None, ge=0, le=100)
    black: StrictInt | None = Field(default=None, ge=0, le=100)

    @model_serializer(mode="wrap")
    def _given(self, handler: SerializerFunctionWrapHandler) -> dict[str, int]:
        """Only the colours given (a file has no null)."""
        return {k: v for k, v in handler(self).items() if v is not None}


class LengthBonus(BaseModel):
    """A card taken in a line at least this long scores its points this many times."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    length: StrictInt = Field(ge=2, le=max(MAX_ROWS, MAX_COLS))
    times: StrictInt = Field(ge=2, le=MAX_TIMES)


RULEBOOK_DOG_SWAPS: dict[str, tuple[int, ...]] = {
    "pastore-maremmano": (1, 1, 1, 1),
    "australian-shepherd": (4, 4, 4, 4),
    "bobtail": (1, 1, 1, 1),
    "border-collie": (1, 1, 1, 1),
}
GRADED_DOG_SWAPS: dict[str, tuple[int, ...]] = {b: (1, 2, 3, 4) for b in BREEDS}
#: the most dog cards a breed may have
MAX_DOGS = 8


class DollyRules(BaseModel):
    """A Dolly Crush rule set. Every field is optional: absent means the rulebook edition."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: StrictStr | None = Field(default=None, description="the rule set's name (informational)")
    description: StrictStr | None = Field(default=None, description="what the rule set changes")
    # the flock's size (Dolly Crush ruling 1)
    rows: StrictInt = Field(default=3, ge=1, le=MAX_ROWS, description="rows of the flock")
    cols: StrictInt = Field(default=5, ge=1, le=MAX_COLS, description="columns of the flock")
    min_line: StrictInt = Field(
        default=3, ge=2, le=max(MAX_ROWS, MAX_COLS), description="the shortest line that counts"
    )
    diagonals: StrictBool = Field(default=False, description="whether diagonal lines count too")
    match_colour: StrictBool = Field(
        default=False, description="whether a line's cards must also be one colour"
    )
    types: StrictInt = Field(
        default=5,
        ge=2,
        le=len(TYPE_NAMES),
        description=f"sheep types in the deck (in this order: {', '.join(TYPE_NAMES)})",
    )
    white_per_type: StrictInt = Field(
        default=15, ge=0, le=1000, description="white cards of each type"
    )
    black_per_type: StrictInt = Field(
        default=5, ge=0, le=1000, description="black cards of each type"
    )
    white_points: StrictInt = Field(default=1, ge=0, le=100, description="points per white sheep")
    black_points: StrictInt = Field(default=2, ge=0, le=100, description="points per black sheep")
    dogs_per_player: StrictInt = Field(
        default=4, ge=1, le=MAX_DOGS, description="dog cards of each breed"
    )
    dog_swaps: dict[StrictStr, tuple[StrictInt, ...]] = Field(
        default_factory=lambda: dict(RULEBOOK_DOG_SWAPS),
        validate_default=True,
        description="swaps shown by each dog card of each breed: one count for every card, or "
        "one per card (breeds not named keep the rulebook's count on every card)",
    )
    # "exact": Dolly Crush ruling 7; "up-to": a house rule
    swaps: Literal["exact", "up-to"] = Field(
        default="exact",
        description="how many swaps a dog card gives: exactly as many as it shows, or up to "
        "that many (the player may stop earlier)",
    )
    # instead of Dolly Crush ruling 6's clean-up after a refill (the first deal keeps it)
    cascades: StrictBool = Field(
        default=False,
        description="lines formed by the refill are taken by the player whose turn it was, "
        "again and again, instead of being cleaned up for nobody (the first deal's lines still "
        "are)",
    )
    end_points: StrictInt | None = Field(
        default=None,
        ge=1,
        description="the game also ends after a turn that gives a player at least this many points",
    )
    # unset: Dolly Crush ruling 8 (unset_options says it)
    rounds: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100,
        description="the game ends after this many rounds; a player whose dog cards are all "
        "spent takes them back at the start of their turn",
    )
    # Dolly Crush ruling 6's give-up limit
    max_cleanup_rounds: StrictInt = Field(
        default=1000,
        ge=1,
        le=10_000,
        description="how many times the clean-up may remove the lines the refill made and "
        "refill again before it gives up and the game ends",
    )
    # -- the language's parts (docs/spec/rule-language.md); the keys above are their shorthand
    shape: tuple[StrictStr, ...] | None = Field(
        default=None,
        description="the flock's shape: rows of X (a cell) and . (a hole), up to 8 x 8",
    )
    adjacent: tuple[Literal["orthogonal", "diagonal"], ...] = Field(
        default=("orthogonal",),
        min_length=1,
        max_length=2,
        # "orthogonal": Dolly Crush ruling 7
        description="which two cards a swap may exchange: side by side (orthogonal), corner to "
        "corner (diagonal), or both",
    )
    combinations: tuple[Combination, ...] | None = Field(
        default=None,
        # kind "line" (length, directions, colour) or "pattern" (cells, colour)
        description="what counts as a combination: lines (of a length, along some directions) "
        "and patterns (cells of X and .), each with or without one colour",
    )
    points: dict[str, TypePoints] = Field(
        default_factory=dict,
        description="points of a sheep type's white and black cards, each entry named by its "
        "type (types not named: white_points and black_points)",
    )
    bonuses: tuple[LengthBonus, ...] = Field(
        default=(),
        description="bonuses by length: a card taken in a line at least this long scores its "
        "points this many times (each card once, at its largest bonus)",
    )
    # "in-place": Dolly Crush ruling 6
    refill: Literal["in-place", "gravity"] = Field(
        default="in-place",
        description="how the empty cells are filled: in place, from the deck, or by gravity, "
        "the cards falling down their column and new cards entering at the top",
    )

    @field_validator("shape", mode="before")
    @classmethod
    def _shape(cls, v: Any) -> Any:
        return None if v is None else _grid_rows(v, "shape", MAX_ROWS, MAX_COLS)

    @field_validator("combinations", mode="before")
    @classmethod
    def _combinations(cls, v: Any) -> Any:
        if isinstance(v, (list, tuple)) and not v:
            raise ValueError(Msg("give at least one combination (or leave combinations out)"))
        return _capped(v, "combinations", MAX_COMBINATIONS)

    @field_validator("bonuses", mode="before")
    @classmethod
    def _bonuses(cls, v: Any) -> Any:
        return _capped(v, "bonuses", MAX_BONUSES)

    @field_validator("points", mode="before")
    @classmethod
    def _points(cls, v: Any) -> Any:
        if isinstance(v, dict):
            for t in v:
                if t not in TYPE_NAMES:
                    raise ValueError(
                        Msg(
                            "unknown sheep type {type} (types: {types})",
                            type=repr(t),
                            types=", ".join(TYPE_NAMES),
                        )
                    )
        return v

    @field_validator("adjacent", mode="after")
    @classmethod
    def _adjacent(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(a for a in ADJACENT if a in v)

    @field_validator("dog_swaps", mode="before")
    @classmethod
    def _dogs(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            raise ValueError(Msg("dog_swaps maps a breed to its cards' swap counts"))
        # the rulebook's breeds as one count each: the model validator deals them per card
        merged: dict[str, tuple[int, ...]] = {b: c[:1] for b, c in RULEBOOK_DOG_SWAPS.items()}
        for breed, counts in v.items():
            if breed not in BREEDS:
                raise ValueError(
                    Msg(
                        "unknown breed {breed} (breeds: {breeds})",
                        breed=repr(breed),
                        breeds=", ".join(BREEDS),
                    )
                )
            if isinstance(counts, int) and not isinstance(counts, bool):
                counts = (counts,)
            if not isinstance(counts, (list, tuple)) or not counts:
                raise ValueError(
                    Msg("{breed}: give one swap count, or one per dog card", breed=breed)
                )
            for n in counts:
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 20:
                    raise ValueError(
                        Msg(
                            "{breed}: a dog card shows 0 to 20 swaps, not {n}",
                            breed=breed,
                            n=repr(n),
                        )
                    )
            merged[breed] = tuple(counts)
        return merged

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> DollyRules:
        """Every problem between the options at once; a check that reads an option the context
        names ``invalid`` (refused on its own: :func:`sheepfold.games.check_rules`) is left
        out, its options being defaults that were not given."""
        invalid = set((info.context or {}).get("invalid", ()))
        problems: list[str | None] = []
        given = self.model_fields_set
        if self.shape is not None:
            size = (len(self.shape), len(self.shape[0]))
            for key, n in zip(("rows", "cols"), size, strict=True):
                if key in given and key not in invalid and getattr(self, key) != n:
                    problems.append(
                        Msg(
                            "{key} = {value} and a shape of {rows} x {cols}: "
                            "give the shape alone (it says the flock's size)",
                            key=key,
                            value=getattr(self, key),
                            rows=size[0],
                            cols=size[1],
                        )
                    )
            object.__setattr__(self, "rows", size[0])
            object.__setattr__(self, "cols", size[1])
        if self.combinations is not None:
            for key, default in (("min_line", 3), ("diagonals", False), ("match_colour", False)):
                if key not in invalid and getattr(self, key) != default:
                    problems.append(
                        Msg(
                            "{key} and combinations: {key} is shorthand for one line "
                            "combination; with combinations, say it in the line's length, "
                            "directions or colour",
                            key=key,
                        )
                    )
        if "types" not in invalid:
            problems += [
                Msg(
                    "points: {type} is not in a deck of {n} types ({types})",
                    type=t,
                    n=self.types,
                    types=", ".join(TYPE_NAMES[: self.types]),
                )
                for t in self.points
                if TYPE_NAMES.index(t) >= self.types
            ]
        if not invalid & _GEOMETRY:
            problems.append(self._geometry_problem())
            cells = self.board().cells
            if not invalid & _DECK and self.deck_size() < cells:
                problems.append(
                    Msg(
                        "the deck has {n} cards; the flock alone needs {cells}",
                        n=self.deck_size(),
                        cells=cells,
                    )
                )
        dogs = {}
        for breed, counts in self.dog_swaps.items():
            if len(counts) == 1 or counts == RULEBOOK_DOG_SWAPS.get(breed):
                # one count for every card (the rulebook's default: its count on every card, as
                # many cards as dogs_per_player, so a dump of the defaults validates again)
                counts = counts[:1] * self.dogs_per_player
            elif len(counts) != self.dogs_per_player and "dogs_per_player" not in invalid:
                problems.append(
                    Msg(
                        "dog_swaps: {breed} lists {n} cards, but a breed has "
                        "{dogs} (dogs_per_player): give one count or {dogs}",
                        breed=breed,
                        n=len(counts),
                        dogs=self.dogs_per_player,
                    )
                )
            dogs[breed] = counts
        object.__setattr__(self, "dog_swaps", dogs)
        if (
            self.end_points is not None
            and not invalid & _POINTS
            and self.end_points > self.deck_points()
        ):
            problems.append(
                Msg(
                    "end_points {end_points} can never be reached: the whole deck is worth "
                    "{points} points",
                    end_points=self.end_points,
                    points=self.deck_points(),
                )
            )
        raise_problems(problems)
        return self

    def _geometry_problem(self) -> str | None:
        """What the flock, the combinations and the bonuses say that cannot be (None: nothing):
        a line longer than the flock, a combination that fits nowhere, a bonus for a line that
        fits nowhere."""
        longest = max(self.rows, self.cols)
        if self.combinations is None and self.min_line > longest and self.shape is None:
            return Msg(
                "a {rows} x {cols} flock has no line of {length} cards "
                "(its longest row or column holds {longest})",
                rows=self.rows,
                cols=self.cols,
                length=self.min_line,
                longest=longest,
            )
        board = self.board()
        for i, (part, segs, places) in enumerate(
            zip(board.parts, board.segments, board.placements, strict=True)
        ):
            if not segs and not places:
                what = (
                    Msg(
                        "a line of {length} along {directions}",
                        length=part.length,
                        directions=chained(
                            list(part.directions), lambda a, b: Msg("{a} or {b}", a=a, b=b)
                        ),
                    )
                    if isinstance(part, Line)
                    else Msg("this pattern")
                )
                fits = Msg("{what} fits nowhere on this flock's cells", what=what)
                return (
                    fits
                    if self.combinations is None
                    else Msg("combinations {i}: {problem}", i=i + 1, problem=fits)
                )
        if self.bonuses:
            lines = board.line_parts
            if not lines:
                return Msg("bonuses: a bonus by length needs a line combination")
            longest_run = max(len(s) for _, segs in lines for s in segs)
            for b in self.bonuses:
                if b.length > longest_run:
                    return Msg(
                        "bonuses: a line of {length} fits nowhere (the longest line this "
                        "flock holds is {longest} cards)",
                        length=b.length,
                        longest=longest_run,
                    )
        return None

    def board(self) -> Board:
        """The geometry these rules play on (the shape, the swaps, the combinations, the
        bonuses, the refill)."""
        parts = None
        if self.combinations is not None:
            parts = tuple(
                Line(c.length, c.directions, c.colour)
                if isinstance(c, LineCombination)
                else Pattern(c.cells, c.colour)
                for c in self.combinations
            )
        return Board(
            rows=self.rows,
            cols=self.cols,
            min_line=self.min_line,
            diagonals=self.diagonals,
            types=self.types,
            match_colour=self.match_colour,
            shape=self.shape,
            adjacent=self.adjacent,
            combinations=parts,
            bonuses=tuple(Bonus(b.length, b.times) for b in self.bonuses),
            gravity=self.refill == "gravity",
        )

    def card_points(self) -> tuple[int, ...]:
        """The points of each card id (``type * 2 + colour``): the type's own, else the
        colour's."""
        out = []
        for k in range(self.types * 2):
            own = self.points.get(TYPE_NAMES[k >> 1])
            pts = None if own is None else (own.black if k & 1 else own.white)
            if pts is None:
                pts = self.black_points if k & 1 else self.white_points
            out.append(pts)
        return tuple(out)

    def unset_options(self) -> dict[str, tuple[str, object]]:
        """What each option left unset (None) amounts to, for ``sheepfold rules show``."""
        return {
            "shape": (
                Msg("a full rectangle, as many rows and columns as set, e.g. a plus:"),
                ["..XXX..", "..XXX..", "XXXXXXX", "XXXXXXX", "XXXXXXX", "..XXX..", "..XXX.."],
            ),
            "combinations": (
                Msg(
                    "one line of min_line or more cards along rows and columns (and diagonals "
                    "when diagonal lines count), of one colour when match_colour is set; e.g. "
                    "lines and a 2 x 2 square:"
                ),
                [
                    {"kind": "line", "length": 3, "directions": ["rows", "columns"]},
                    {"kind": "pattern", "cells": ["XX", "XX"], "colour": False},
                ],
            ),
            # unset, the game ends by Dolly Crush ruling 8
            "end_points": (Msg("no points target, e.g.:"), 30),
            "rounds": (
                Msg("the game ends when every dog card is spent, e.g.:"),
                2 * self.dogs_per_player,
            ),
        }

    def given_by(self, changes: Mapping[str, Any]) -> set[str]:
        """The options of these rules that ``changes`` say by themselves when a rule set is
        made from them (:func:`sheepfold.rulesets.rebased_options`): a ``shape`` gives the
        flock's ``rows`` and ``cols``."""
        if changes.get("shape") is None:
            return set()
        return {"rows", "cols"} - set(changes)

    def follow(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """What a rule set made from these rules with ``changes`` (options) changes with them
        (:func:`sheepfold.rulesets.rebase`): a new ``dogs_per_player`` keeps each breed's
        grading when ``changes`` gives that breed no cards of its own: evenly graded counts go
        on or stop (graded 1, 2, 3, 4 as five cards: 1, 2, 3, 4, 5; one count on every card
        stays so). A breed whose cards are not evenly graded is a :class:`RulesError` saying
        to give its cards."""
        n = changes.get("dogs_per_player")
        if not isinstance(n, int) or isinstance(n, bool) or n == self.dogs_per_player:
            return {}
        if not 1 <= n <= MAX_DOGS:
            return {}  # the model refuses it, in its own words
        own = changes.get("dog_swaps")
        own = own if isinstance(own, dict) else {}
        out = {}
        for breed, counts in self.dog_swaps.items():
            if breed in own:
                continue
            step = counts[1] - counts[0] if len(counts) > 1 else 0
            if any(b - a != step for a, b in itertools.pairwise(counts)):
                shown = ", ".join(str(c) for c in counts)
                raise RulesError(
                    Msg(
                        "dogs_per_player = {n}: the {breed} cards it starts from show {shown} "
                        "swaps, not evenly graded: give that breed's {n} cards in dog_swaps",
                        n=n,
                        breed=breed,
                        shown=shown,
                    )
                )
            out[breed] = [counts[0] + step * i for i in range(n)]
        return {"dog_swaps": out}

    def deck_size(self) -> int:
        return (self.white_per_type + self.black_per_type) * self.types

    def deck_points(self) -> int:
        """The most every card of the deck is worth together (bonuses included)."""
        pts = self.card_points()
        total = sum(
            p * (self.black_per_type if k & 1 else self.white_per_type) for k, p in enumerate(pts)
        )
        return total * max([b.times for b in self.bonuses], default=1)

    def options(self) -> dict[str, object]:
        data = self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})
        rulebook = {b: [c[0]] * self.dogs_per_player for b, c in RULEBOOK_DOG_SWAPS.items()}
        if data.get("dog_swaps", rulebook) == rulebook:
            data.pop("dog_swaps", None)
        return data

    def key(self) -> str:
        data = self.model_dump(mode="json", exclude={"name", "description"})
        for name in _LANGUAGE_FIELDS:  # a part at its default leaves the key as it always was
            if data[name] == _DEFAULTS[name]:
                del data[name]
        return repr(sorted(data.items()))


#: the fields the rule language added; at their defaults they are absent from ``key()``
_LANGUAGE_FIELDS = ("shape", "adjacent", "combinations", "points", "bonuses", "refill")
_DEFAULTS = DollyRules().model_dump(mode="json")
