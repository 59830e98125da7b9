"""People's ratings (server/ratings.py, TrueSkill): who finishes ahead rates higher, ties are
even, and a rating moves less the more games it has behind it."""

from __future__ import annotations

import pytest

from sheepfold.server.ratings import Rating, rate


def test_everyone_starts_at_zero_and_the_winner_goes_up():
    new = Rating()
    assert new.shown == 0.0 and new.games == 0
    won, lost = rate([new, new], [1, 2])
    assert won.shown > 0 > lost.shown
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
