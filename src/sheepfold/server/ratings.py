"""Ratings of people, one per game: TrueSkill (the ``trueskill`` package, Microsoft Research's
Bayesian rating for games of two or more players, ties included).

A rating is a belief about a person's skill: a mean ``mu`` and an uncertainty ``sigma``. Everyone
starts at mu 25, sigma 25/3. The number shown is the careful estimate ``mu - 3 sigma`` (0 at the
start): it grows as a person wins, and moves less the more they have played.

Only people with a profile are rated, and only in a game where at least two of them played to
the end. Bots get no rating and do not count: the people are ranked among themselves by their
places at the table (a person behind a bot but ahead of another person is ahead of that
person). A game that ran out of turns (no winner) is a tie among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import trueskill

#: how often two people of equal skill tie (Dolly Crush and Shave a Sheep ties are rare)
DRAW_PROBABILITY = 0.05
ENV = trueskill.TrueSkill(draw_probability=DRAW_PROBABILITY)


@dataclass(frozen=True)
class Rating:
    mu: float = ENV.mu
    sigma: float = ENV.sigma
    games: int = 0  # rated games so far

    @property
    def shown(self) -> float:
        """The careful estimate people see: ``mu - 3 sigma``, one decimal."""
        return round(self.mu - 3 * self.sigma, 1)


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one game that ``before`` played, finishing at ``places`` (1 first;
    equal places tie), in the same order. At least two people."""
    if len(before) < 2 or len(before) != len(places):
        raise ValueError(f"a rated game needs two people or more, a place each ({len(before)})")
    groups = [(ENV.create_rating(r.mu, r.sigma),) for r in before]
    after = ENV.rate(groups, ranks=list(places))
    return [
        Rating(float(g[0].mu), float(g[0].sigma), r.games + 1)
        for r, g in zip(before, after, strict=True)
    ]
