"""Ratings of people, one per game: TrueSkill (the ``trueskill`` package, Microsoft Research's
Bayesian rating for games of two or more players, ties included).

A rating is a belief about a person's skill: a mean ``mu`` and an uncertainty ``sigma``. Everyone
starts at mu 25, sigma 25/3. The careful estimate ``mu - 3 sigma`` (0 at the start: the number
stored with a game's result) is what people see, on a friendly scale (:func:`shown`):
``1000 + 40 * (mu - 3 sigma)``, never below ``FLOOR``. Everyone starts at 1000; the number grows
as a person wins and as their games make it surer, and moves less the more they have played.

A level in words per game (:func:`level`): "new player" for the first ``PROVISIONAL_GAMES`` rated
games, then by the number shown (``LEVELS``): beginner below 1300, novice from 1300,
intermediate from 1550, advanced from 1800, expert from 2000 (a careful estimate of 25 or more:
surely better than the average new player). Simulated (TrueSkill alone: 200 two-person games
against a pool of 30 people who start new, the median of 30 runs): someone who wins one game in
five ends near 1550, one who wins half near 1900, one who wins two in three above 2000; after 20
games, 1290, 1680 and 1800.

Reliability (:func:`reliability`): the games a person finished, of those they played with
another person at the table; one they left before its end and did not come back to (a bot
finished it for them, or they pressed Leave) is abandoned.

Only people with a profile are rated. Bots get no rating and do not count: the people are
ranked among themselves by their places at the table (a person behind a bot but ahead of another
person is ahead of that person). A game that ran out of turns (no winner) is a tie among them.

Fair play (:func:`judge`): a rating is earned against someone else, so a game is rated only
for the people who each made at least ``MIN_OWN_MOVES`` moves themselves (a bot standing in for
them does not count) from an address no other person at the table took a seat from (the client
key: an IPv4 address, an IPv6 /64), and only when two of them or more are left; and the same
two people, or two people from the same two addresses, have at most one rated game together in
``PAIR_WINDOW`` seconds (the later ones are played unrated). A person a bot was standing in for
at the end (they went away) is rated as last among the people, and loses ``LEAVE_PENALTY``
more (leaving costs more than losing); when bots stood in for every one of them, the game is
not rated.
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
#: the friendly scale (:func:`shown`): where everyone starts, points per unit of the careful
#: estimate, and the lowest number shown
START, SCALE, FLOOR = 1000, 40, 100
#: what a person who left a rated game loses on top of being rated last (TrueSkill points:
#: ``SCALE`` times this on the number shown)
LEAVE_PENALTY = 1.0
#: rated games of a game before a person's level there is more than "new player"
PROVISIONAL_GAMES = 5
#: the levels past "new player": the lowest number shown of each, highest first (below the
#: last one: beginner)
LEVELS = (
    (2000, Msg("expert")),
    (1800, Msg("advanced")),
    (1550, Msg("intermediate")),
    (1300, Msg("novice")),
)


@dataclass(frozen=True)
class Rating:
    mu: float = ENV.mu
    sigma: float = ENV.sigma
    games: int = 0  # rated games so far

    @property
    def careful(self) -> float:
        """The careful estimate ``mu - 3 sigma``, one decimal (what a game's result stores)."""
        return round(self.mu - 3 * self.sigma, 1)


def shown(rating: Rating | float) -> int:
    """The number people see for a rating, or for a careful estimate as a game's result stores
    it (``rating_before``, ``rating_after``): ``START + SCALE * careful``, at least ``FLOOR``."""
    careful = rating.careful if isinstance(rating, Rating) else rating
    return max(FLOOR, round(START + SCALE * careful))


def level(rating: Rating) -> str:
    """A rating's level in words: "new player" for its first ``PROVISIONAL_GAMES`` games, then
    beginner, novice, intermediate, advanced or expert by the number shown (``LEVELS``)."""
    if rating.games < PROVISIONAL_GAMES:
        return Msg("new player")
    number = shown(rating)
    return next((words for lowest, words in LEVELS if number >= lowest), Msg("beginner"))


def reliability(finished: int, abandoned: int) -> str | None:
    """A person's games finished, in words: "finished 12 of 13 games (92%)" (None: no game
    counted yet)."""
    played = finished + abandoned
    if not played:
        return None
    percent = 100 * finished // played  # 99.6% is not 100%: one game was left
    if played == 1:
        return Msg("finished {n} of 1 game ({percent}%)", n=finished, percent=percent)
    return Msg("finished {n} of {of} games ({percent}%)", n=finished, of=played, percent=percent)


def rate(
    before: Sequence[Rating], places: Sequence[int], left: Sequence[bool] = ()
) -> list[Rating]:
    """Everyone's rating after one game that ``before`` played, finishing at ``places`` (1 first;
    equal places tie), in the same order. At least two people. ``left``: whether each one left
    the game before its end (it costs them ``LEAVE_PENALTY`` more; none by default)."""
    if len(before) < 2 or len(before) != len(places):
        raise ValueError(f"a rated game needs two people or more, a place each ({len(before)})")
    gone = list(left) or [False] * len(before)
    if len(gone) != len(before):
        raise ValueError(f"a rated game needs whether each person left ({len(gone)})")
    groups = [(ENV.create_rating(r.mu, r.sigma),) for r in before]
    after = ENV.rate(groups, ranks=list(places))
    return [
        Rating(float(g[0].mu) - (LEAVE_PENALTY if went else 0.0), float(g[0].sigma), r.games + 1)
        for r, g, went in zip(before, after, gone, strict=True)
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
    left: set[str] = field(default_factory=set)  # the rated people who left (LEAVE_PENALTY)


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
            out.left.add(p.profile)
            out.notes[p.profile] = Msg(
                "rated as last, and {points} points more for leaving: a bot finished the game "
                "for you",
                points=round(SCALE * LEAVE_PENALTY),
            )
    return out
