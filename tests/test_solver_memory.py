"""The 4-player wolf variants fit in 8 GB (issue: they were refused at 15 and 17 GB): the
rotating solve keeps every seat's values only where seat 0 rolls, decision tables have a column
per decision that exists, and one seat is unfolded at a time. The plan is checked here (no
solve: a 4-player solve takes a quarter of an hour); docs/solver.md has the measured runs."""

from __future__ import annotations

import pytest

from sheepfold.cli.solve import _CachedSeats
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules


@pytest.mark.parametrize("variant", ["howling-wolf", "my-friend-mr-wolf"])
def test_four_player_wolf_solves_are_planned_within_8_gb(variant, monkeypatch):
    monkeypatch.setenv("SHEEPFOLD_SOLVER_MAX_GB", "8")
    space = S.Space(ShaveRules(variants=[variant]), 4)
    ix0, size0 = space.seat0_index()
    assert size0 * 4 == space.size  # a quarter of the positions: seat 0 rolls
    S._check_rotating_memory(space, size0, seats_held=1)  # the solve, one seat at a time
    with pytest.raises(S.SolverError, match="GB allowed"):
        S._check_rotating_memory(space, size0, seats_held=4)  # every seat at once does not


def test_howling_wolf_tables_have_a_column_per_decision():
    space = S.Space(ShaveRules(variants=["howling-wolf"]), 4)
    races = int(space.race.sum())
    assert space.C == (space.F - races) + races * (1 + 4 + 16)  # 46, not 6 x 21


def test_the_command_holds_one_seat_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path))
    rules = ShaveRules(wool=6)
    space = S.Space(rules, 3)
    S.cached(rules, 3, seat=0, space=space)  # solves every seat, caches them
    seats = _CachedSeats(rules, space)
    values = [s.start_value for s in seats]
    assert seats._held is not None and seats._held[0] == 2
    assert values == [S.cached(rules, 3, seat=k, space=space)[0].start_value for k in range(3)]
    with pytest.raises(IndexError):
        seats[3]
