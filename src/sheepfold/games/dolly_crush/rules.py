"""Dolly Crush's rule options: deck composition, dog cards' swap counts, points
(Dolly Crush rulings 2, 3 and 6)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sheepfold.games.dolly_crush.cards import BREEDS, NUM_CELLS, TYPES

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
    white_per_type: int = Field(default=15, ge=0, le=1000, description="white cards of each type")
    black_per_type: int = Field(default=5, ge=0, le=1000, description="black cards of each type")
    white_points: int = Field(default=1, ge=0, le=100, description="points per white sheep")
    black_points: int = Field(default=2, ge=0, le=100, description="points per black sheep")
    dog_swaps: dict[str, tuple[int, ...]] = Field(
        default_factory=lambda: dict(RULEBOOK_DOG_SWAPS),
        description="swaps shown by each dog card of each breed (breeds not named keep the rulebook's)",
    )
    max_cleanup_rounds: int = Field(
        default=1000, ge=1, le=10_000, description="ruling 6's give-up limit"
    )

    @field_validator("dog_swaps", mode="before")
    @classmethod
    def _dogs(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            raise ValueError("dog_swaps maps a breed to its cards' swap counts")
        merged: dict[str, tuple[int, ...]] = dict(RULEBOOK_DOG_SWAPS)
        for breed, counts in v.items():
            if breed not in BREEDS:
                raise ValueError(f"unknown breed {breed!r} (breeds: {', '.join(BREEDS)})")
            if isinstance(counts, int) and not isinstance(counts, bool):
                counts = (counts,) * 4
            if not isinstance(counts, (list, tuple)) or len(counts) != 4:
                raise ValueError(
                    f"{breed}: give one swap count, or a list of 4 (a breed has 4 dog cards, ruling 3)"
                )
            for n in counts:
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 20:
                    raise ValueError(f"{breed}: a dog card shows 0 to 20 swaps, not {n!r}")
            merged[breed] = tuple(counts)
        return merged

    @model_validator(mode="after")
    def _enough_cards(self) -> DollyRules:
        total = (self.white_per_type + self.black_per_type) * len(TYPES)
        if total < NUM_CELLS:
            raise ValueError(f"the deck has {total} cards; the flock alone needs {NUM_CELLS}")
        return self

    def deck_size(self) -> int:
        return (self.white_per_type + self.black_per_type) * len(TYPES)

    def options(self) -> dict[str, object]:
        data = self.model_dump(mode="json", exclude_defaults=True, exclude={"name", "description"})
        if data.get("dog_swaps") == {b: list(c) for b, c in RULEBOOK_DOG_SWAPS.items()}:
            data.pop("dog_swaps")
        return data

    def key(self) -> str:
        data = self.model_dump(mode="json", exclude={"name", "description"})
        return repr(sorted(data.items()))
