"""Exact numbers against simulation: 100,000 fast simulated games (the solver's compiled rules,
seeded) agree with the exact values within 3 standard errors."""

from __future__ import annotations

import pytest

from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules

GAMES = 100_000


def within(sim, exact, seat, k=3.0):
    return abs(sim.shares[seat] - exact) <= k * sim.stderr[seat]


@pytest.mark.slow
def test_random_table_exact_vs_simulated():
    rules = ShaveRules()
    space = S.Space(rules, 2)
    ev = S.evaluate(space, 2, ["random", "random"])
    sim = S.simulate(space, 2, ["random", "random"], GAMES, seed=11)
    assert sim.unfinished == 0
    for seat in range(2):
        assert within(sim, ev.shares[seat], seat), (sim, ev.shares)
    assert abs(sum(ev.shares) - 1) < 1e-9


@pytest.mark.slow
def test_random_table_three_players_howling_wolf():
    rules = ShaveRules(wool=16, variants=["howling-wolf"], reaction_weights=[1.0, 2.0, 3.0])
    space = S.Space(rules, 3)
    ev = S.evaluate(space, 3, ["random", "greedy", "random"])
    sim = S.simulate(space, 3, ["random", "greedy", "random"], GAMES, seed=12)
    for seat in range(3):
        assert within(sim, ev.shares[seat], seat), (sim, ev.shares)


@pytest.mark.slow
def test_perfect_vs_perfect_two_players():
    rules = ShaveRules()
    sol = S.solve_minimax(rules)
    sim = S.simulate(sol.space, 2, [sol, sol], GAMES, seed=13)
    assert within(sim, sol.start_value, 0), (sim, sol.start_value)
    assert within(sim, 1 - sol.start_value, 1)


@pytest.mark.slow
def test_best_response_three_players_simulated():
    rules = ShaveRules(wool=18)
    space = S.Space(rules, 3)
    br = S.best_response(space, 3, 2, ["greedy", "random", None])
    sim = S.simulate(space, 3, ["greedy", "random", br], GAMES, seed=14)
    assert within(sim, br.start_value, 2), (sim, br.start_value)
    # and it is a best response: better than the seat's greedy or random play
    for other in ("greedy", "random"):
        ev = S.evaluate(space, 3, ["greedy", "random", other])
        assert br.start_value >= ev.shares[2] - 1e-12


@pytest.mark.slow
def test_simulation_detects_a_wrong_value():
    """The check above can fail: a value off by 0.02 is far outside 3 standard errors."""
    rules = ShaveRules(wool=12)
    ev = S.evaluate(rules, 2, ["random", "random"])
    sim = S.simulate(rules, 2, ["random", "random"], 20_000, seed=15)
    assert within(sim, ev.shares[0], 0)
    assert not within(sim, ev.shares[0] + 0.02, 0)
