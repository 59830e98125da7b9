"""Dolly Crush's rule options (Dolly Crush rulings 1-8 and their house rules): the flock's size,
what makes a line, the deck, the points, the dog cards and how the game ends.

Rule options are validated once, here, with messages that say what is wrong; the engine then
trusts them. :meth:`DollyRules.board` gives the geometry the options describe."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sheepfold.games.dolly_crush.cards import BREEDS, MAX_COLS, MAX_ROWS, TYPE_NAMES, Board

RULEBOOK_DOG_SWAPS: dict[str, tuple[int, ...]] = {
    "pastore-maremmano": (1, 1, 1, 1),
    "australian-shepherd": (4, 4, 4, 4),
    "bobtail": (1, 1, 1, 1),
    "border-collie": (1, 1, 1, 1),
}
GRADED_DOG_SWAPS: dict[str, tuple[int, ...]] = {b: (1, 2, 3, 4) for b in BREEDS}


class DollyRules(BaseModel):
    """A Dolly Crush rule set. Every field is optional: absent means the rulebook edition."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = Field(default=None, description="the rule set's name (informational)")
    description: str | None = Field(default=None, description="what the rule set changes")
    rows: int = Field(default=3, ge=1, le=MAX_ROWS, description="rows of the flock (ruling 1)")
    cols: int = Field(default=5, ge=1, le=MAX_COLS, description="columns of the flock (ruling 1)")
    min_line: int = Field(
        default=3, ge=2, le=max(MAX_ROWS, MAX_COLS), description="the shortest line that counts"
    )
    diagonals: bool = Field(default=False, description="whether diagonal lines count too")
    match_colour: bool = Field(
        default=False, description="whether a line's cards must also be one colour"
    )
    types: int = Field(
        default=5,
        ge=2,
        le=len(TYPE_NAMES),
        description=f"sheep types in the deck (in this order: {', '.join(TYPE_NAMES)})",
    )
    white_per_type: int = Field(default=15, ge=0, le=1000, description="white cards of each type")
    black_per_type: int = Field(default=5, ge=0, le=1000, description="black cards of each type")
    white_points: int = Field(default=1, ge=0, le=100, description="points per white sheep")
    black_points: int = Field(default=2, ge=0, le=100, description="points per black sheep")
    dogs_per_player: int = Field(default=4, ge=1, le=8, description="dog cards of each breed")
    dog_swaps: dict[str, tuple[int, ...]] = Field(
        default_factory=lambda: dict(RULEBOOK_DOG_SWAPS),
        validate_default=True,
        description="swaps shown by each dog card of each breed: one count for every card, or "
        "one per card (breeds not named keep the rulebook's count on every card)",
    )
    swaps: Literal["exact", "up-to"] = Field(
        default="exact",
        description="'exact': make exactly as many swaps as the dog card shows (ruling 7); "
        "'up-to': you may stop earlier",
    )
    cascades: bool = Field(
        default=False,
        description="lines formed by the refill are taken by the player whose turn it was, "
        "again and again, instead of being cleaned up for nobody (ruling 6 still cleans the "
        "first deal)",
    )
    end_points: int | None = Field(
        default=None,
        ge=1,
        description="the game also ends after a turn that gives a player at least this many points",
    )
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="the game ends after this many rounds; a player whose dog cards are all "
        "spent takes them back at the start of their turn (unset: the game ends when every dog "
        "card is spent, ruling 8)",
    )
    max_cleanup_rounds: int = Field(
        default=1000, ge=1, le=10_000, description="ruling 6's give-up limit"
    )

    @field_validator("dog_swaps", mode="before")
    @classmethod
    def _dogs(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            raise ValueError("dog_swaps maps a breed to its cards' swap counts")
        # the rulebook's breeds as one count each: the model validator deals them per card
        merged: dict[str, tuple[int, ...]] = {b: c[:1] for b, c in RULEBOOK_DOG_SWAPS.items()}
        for breed, counts in v.items():
            if breed not in BREEDS:
                raise ValueError(f"unknown breed {breed!r} (breeds: {', '.join(BREEDS)})")
            if isinstance(counts, int) and not isinstance(counts, bool):
                counts = (counts,)
            if not isinstance(counts, (list, tuple)) or not counts:
                raise ValueError(f"{breed}: give one swap count, or one per dog card")
            for n in counts:
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 20:
                    raise ValueError(f"{breed}: a dog card shows 0 to 20 swaps, not {n!r}")
            merged[breed] = tuple(counts)
        return merged

    @model_validator(mode="after")
    def _consistent(self) -> DollyRules:
        longest = max(self.rows, self.cols)
        if self.min_line > longest:
            raise ValueError(
                f"a {self.rows} x {self.cols} flock has no line of {self.min_line} cards "
                f"(its longest row or column holds {longest})"
            )
        cells = self.rows * self.cols
        if self.deck_size() < cells:
            raise ValueError(
                f"the deck has {self.deck_size()} cards; the flock alone needs {cells}"
            )
        dogs = {}
        for breed, counts in self.dog_swaps.items():
            if len(counts) == 1 or counts == RULEBOOK_DOG_SWAPS.get(breed):
                # one count for every card (the rulebook's default: its count on every card, as
                # many cards as dogs_per_player, so a dump of the defaults validates again)
                counts = counts[:1] * self.dogs_per_player
            elif len(counts) != self.dogs_per_player:
                raise ValueError(
                    f"dog_swaps: {breed} lists {len(counts)} cards, but a breed has "
                    f"{self.dogs_per_player} (dogs_per_player): give one count or "
                    f"{self.dogs_per_player}"
                )
            dogs[breed] = counts
        object.__setattr__(self, "dog_swaps", dogs)
        if self.end_points is not None and self.end_points > self.deck_points():
            raise ValueError(
                f"end_points {self.end_points} can never be reached: the whole deck is worth "
                f"{self.deck_points()} points"
            )
        return self

    def board(self) -> Board:
        """The geometry these rules play on."""
        return Board(
            rows=self.rows,
            cols=self.cols,
            min_line=self.min_line,
            diagonals=self.diagonals,
            types=self.types,
            match_colour=self.match_colour,
        )

    def unset_options(self) -> dict[str, tuple[str, object]]:
        """What each option left unset (None) amounts to, for ``sheepfold rules show``."""
        return {
            "end_points": ("no points target (the game ends by ruling 8), e.g.:", 30),
            "rounds": (
                "the game ends when every dog card is spent (ruling 8); a number of rounds "
                "makes the players take their dog cards back, e.g.:",
                2 * self.dogs_per_player,
            ),
        }

    def deck_size(self) -> int:
        return (self.white_per_type + self.black_per_type) * self.types

    def deck_points(self) -> int:
        """What every card of the deck is worth together."""
        per_type = self.white_per_type * self.white_points + self.black_per_type * self.black_points
        return per_type * self.types

    def options(self) -> dict[str, object]:
        data = self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})
        rulebook = {b: [c[0]] * self.dogs_per_player for b, c in RULEBOOK_DOG_SWAPS.items()}
        if data.get("dog_swaps", rulebook) == rulebook:
            data.pop("dog_swaps", None)
        return data

    def key(self) -> str:
        data = self.model_dump(mode="json", exclude={"name", "description"})
        return repr(sorted(data.items()))
