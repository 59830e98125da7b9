"""People's ratings (server/ratings.py, TrueSkill): who finishes ahead rates higher, ties are
even, and a rating moves less the more games it has behind it; the number people see (a
friendly scale, never negative), the levels in words, reliability, and what leaving costs."""

from __future__ import annotations

import pytest

from sheepfold.server.ratings import (
    FLOOR,
    LEVELS,
    PROVISIONAL_GAMES,
    SCALE,
    START,
    Rating,
    level,
    rate,
    reliability,
    shown,
)


def test_everyone_starts_at_zero_and_the_winner_goes_up():
    new = Rating()
    assert new.careful == 0.0 and new.games == 0
    won, lost = rate([new, new], [1, 2])
    assert won.careful > 0 > lost.careful
    assert won.games == lost.games == 1
    assert won.sigma < new.sigma and lost.sigma < new.sigma  # less uncertain after a game


def test_a_tie_between_equals_moves_nobody_apart():
    a, b = rate([Rating(), Rating()], [1, 1])
    assert a.mu == pytest.approx(b.mu) and a.mu == pytest.approx(Rating().mu)


def test_three_people_are_ordered_by_their_places():
    first, second, third = rate([Rating(), Rating(), Rating()], [1, 2, 3])
    assert first.mu > second.mu > third.mu
    # a 1st place shared by two people: both above the third
    a, b, c = rate([Rating(), Rating(), Rating()], [1, 1, 3])
    assert a.mu == pytest.approx(b.mu, abs=0.01) and b.mu > c.mu  # TrueSkill approximates


def test_a_rating_with_many_games_moves_less():
    veteran = Rating(mu=30.0, sigma=1.5, games=200)
    newcomer = Rating()
    v_after, n_after = rate([veteran, newcomer], [2, 1])  # the newcomer wins
    assert abs(v_after.mu - veteran.mu) < abs(n_after.mu - newcomer.mu)


def test_a_rated_game_needs_two_people_and_a_place_each():
    with pytest.raises(ValueError, match="two people"):
        rate([Rating()], [1])
    with pytest.raises(ValueError, match="a place each"):
        rate([Rating(), Rating()], [1])


# -- what people see (issue 51: a friendly number, never negative, levels in words) ----------
def test_everyone_starts_at_a_friendly_number_and_a_first_loss_is_not_negative():
    assert shown(Rating()) == START == 1000
    won, lost = rate([Rating(), Rating()], [1, 2])
    assert shown(won) > START > shown(lost) > 0
    # the careful estimate a game's result stores gives the same number (older rows too)
    assert shown(lost.careful) == shown(lost) and shown(0.0) == START
    assert shown(-0.9) == 964 and shown(7.9) == 1316  # 1000 + 40 * careful


def test_the_number_shown_is_never_below_the_floor():
    hopeless = Rating(mu=-40.0, sigma=1.0, games=500)
    assert hopeless.careful < 0 and shown(hopeless) == FLOOR > 0
    assert shown(-1000.0) == FLOOR


def test_losing_game_after_game_never_shows_a_negative_number():
    me = Rating()
    for _ in range(100):  # each time to a new player
        me, _ = rate([me, Rating()], [2, 1])
        assert shown(me) >= FLOOR
    assert me.careful < 0  # what the page showed before: a negative number


def test_a_new_player_is_new_for_its_first_games_then_has_a_level_by_its_number():
    assert level(Rating()) == "new player"
    assert level(Rating(mu=40.0, sigma=1.0, games=PROVISIONAL_GAMES - 1)) == "new player"

    def at(number: int) -> str:  # an established rating shown as ``number``
        return level(Rating(mu=(number - START) / SCALE + 3.0, sigma=1.0, games=PROVISIONAL_GAMES))

    assert [at(n) for n in (1000, 1296, 1300, 1548, 1550, 1796, 1800, 1996, 2000, 2600)] == [
        "beginner",
        "beginner",
        "novice",
        "novice",
        "intermediate",
        "intermediate",
        "advanced",
        "advanced",
        "expert",
        "expert",
    ]
    assert [lowest for lowest, _ in LEVELS] == sorted(
        (lowest for lowest, _ in LEVELS), reverse=True
    )


def test_reliability_in_words_counts_the_games_finished_of_those_played():
    assert reliability(0, 0) is None
    assert reliability(12, 1) == "finished 12 of 13 games (92%)"
    assert reliability(1, 0) == "finished 1 of 1 game (100%)"
    assert reliability(0, 1) == "finished 0 of 1 game (0%)"
    assert reliability(199, 1) == "finished 199 of 200 games (99%)"  # not rounded up to 100%


# -- leaving a rated game costs more than losing it (issue 51) --------------------------------
@pytest.mark.parametrize("people", [2, 3, 4])
def test_leaving_costs_more_than_losing_fairly(people):
    start = [Rating()] * people
    places = list(range(1, people + 1))  # the last one lost (fairly, or by leaving)
    lost = rate(start, places)[-1]
    left = rate(start, places, [False] * (people - 1) + [True])[-1]
    assert shown(left) < shown(lost) < START
    assert left.sigma == lost.sigma and left.games == lost.games == 1
    # the others are rated as if the leaver had lost
    assert rate(start, places, [False] * (people - 1) + [True])[:-1] == rate(start, places)[:-1]


def test_a_rated_game_needs_whether_each_person_left():
    with pytest.raises(ValueError, match="whether each person left"):
        rate([Rating(), Rating()], [1, 2], [True])
