"""Ratings of people, one per game: TrueSkill (the ``trueskill`` package, Microsoft Research's
Bayesian rating for games of two or more players, ties included).

A rating is a belief about a person's skill: a mean ``mu`` and an uncertainty ``sigma``. Everyone
starts at mu 25, sigma 25/3. The number shown is the careful estimate ``mu - 3 sigma`` (0 at the
start): it grows as a person wins, and moves less the more they have played.

Only people with a profile are rated. Bots get no rating and do not count: the people are
ranked among themselves by their places at the table (a person behind a bot but ahead of another
person is ahead of that person). A game that ran out of turns (no winner) is a tie among them.

Fair play (:func:`judge`): a rating is earned against someone else, so a game is rated only
for the people who each made at least ``MIN_OWN_MOVES`` moves themselves (a bot standing in for
them does not count) from an address no other person at the table took a seat from (the client
key: an IPv4 address, an IPv6 /64), and only when two of them or more are left; and the same
two people, or two people from the same two addresses, have at most one rated game together in
``PAIR_WINDOW`` seconds (the later ones are played unrated). A person a bot was standing in for
at the end (they went away) is rated as last among the people; when bots stood in for every
one of them, the game is not rated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import trueskill

from sheepfold.core.words import Msg

#: how often two people of equal skill tie (Dolly Crush and Shave a Sheep ties are rare)
DRAW_PROBABILITY = 0.05
ENV = trueskill.TrueSkill(draw_probability=DRAW_PROBABILITY)
#: moves a person makes themselves (not a bot standing in for them) for the game to rate them
MIN_OWN_MOVES = 2
#: the same two people (or addresses) are rated together at most once in this many seconds
PAIR_WINDOW = 86_400.0


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


@dataclass(frozen=True)
class Person:
    """A person with a profile at a finished table, as :func:`judge` sees them."""

    profile: str
    key: str  # the client key of the address that took the seat
    moves: int  # moves they made themselves (counted up to MIN_OWN_MOVES)
    away: bool  # a bot was standing in for them at the end
    place: int  # their place at the table (1: won)


@dataclass
class Verdict:
    """Whom a game rates: ``ranks`` (profile -> the place its rating counts; empty: the game is
    not rated), and ``notes`` (profile -> why it is not rated, or how it is)."""

    ranks: dict[str, int] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


def judge(people: Sequence[Person], met: Callable[[Person, Person], bool]) -> Verdict:
    """Who of ``people`` a finished game rates, and at which places; ``met(a, b)``: ``a`` and
    ``b`` (or their addresses) had a rated game together in the last ``PAIR_WINDOW`` seconds."""
    out = Verdict()
    played = [p for p in people if p.moves >= MIN_OWN_MOVES]
    for p in people:
        if p.moves < MIN_OWN_MOVES:
            out.notes[p.profile] = Msg(
                "not rated: you made fewer than {n} moves yourself", n=MIN_OWN_MOVES
            )
    keys = [p.key for p in played]
    rated = [p for p in played if keys.count(p.key) == 1]
    for p in played:
        if keys.count(p.key) > 1:
            out.notes[p.profile] = Msg("not rated: another player took a seat from your address")
    why = None
    if len(rated) < 2:
        why = Msg(
            "not rated: a rated game needs two people who each made {n} moves themselves, "
            "from different addresses",
            n=MIN_OWN_MOVES,
        )
    elif all(p.away for p in rated):
        why = Msg("not rated: bots finished the game for everyone")
    elif any(met(a, b) for a, b in combinations(rated, 2)):
        why = Msg(
            "not rated: the same players had a rated game together in the last {hours} hours",
            hours=round(PAIR_WINDOW / 3600),
        )
    if why is not None:
        out.notes.update((p.profile, why) for p in rated)
        return out
    last = 1 + max(p.place for p in rated)
    for p in rated:
        out.ranks[p.profile] = last if p.away else p.place
        if p.away:
            out.notes[p.profile] = Msg("rated as last: a bot finished the game for you")
    return out
