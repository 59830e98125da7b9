"""Who starts is one setting (issue 48): ``--first`` and a table's "who starts" replace a rule
file's ``[setup] first`` instead of adding to it, and the lab measures the first-player
advantage from the seat that actually moved first (a rule set that only changes who starts is
the same game, mirrored), its seat chart labelling the seats by the order of play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sheepfold.core.play import seats_starting_with

SECOND_STARTS = {"setup": {"first": 1}}


def _second_starts(tmp_path: Path) -> Path:
    path = tmp_path / "second-starts.toml"
    path.write_text('name = "second-starts"\ngame = "shave-a-sheep"\n[setup]\nfirst = 1\n')
    return path


def _starter(rules: Path | None, first: str | None) -> str:
    """The name of the player who makes the first move of ``sheepfold play``'s game."""
    from sheepfold.cli.play_setup import PlayOptions, new_game

    seats = ["ann", "bob", "bot:greedy"]
    opts = PlayOptions(
        "shave-a-sheep", seats, None, 3, str(rules) if rules else None, [], False, first
    )
    _, game, specs, _ = new_game(opts)
    return str(specs[game.first_seat].name)


@pytest.mark.parametrize("first", ["ann", "bob", "0", "1"])
def test_first_replaces_the_rule_files_first_seat(tmp_path: Path, first: str) -> None:
    """``--first ann`` with a file whose seat 1 starts: ann starts (today: bob, the seat after
    her, as the two settings add up)."""
    rules = _second_starts(tmp_path)
    wanted = {"0": "ann", "1": "bob"}.get(first, first)
    assert _starter(rules, first) == wanted
    assert _starter(None, first) == wanted  # the printed rules: the same player


def test_without_first_the_rule_file_says_who_starts(tmp_path: Path) -> None:
    assert _starter(_second_starts(tmp_path), None) == "bob"
    assert _starter(None, None) == "ann"


def test_seats_starting_with_keeps_the_neighbours() -> None:
    seats = ["a", "b", "c", "d"]
    for starter in range(4):
        for first in range(4):
            turned = seats_starting_with(seats, starter, first)
            assert turned[first] == seats[starter]
            k = turned.index("a")
            assert turned[k:] + turned[:k] == seats  # the clockwise order is kept


@pytest.mark.parametrize("first_player", [0, 2])
def test_a_tables_who_starts_replaces_the_rule_files_first_seat(first_player: int) -> None:
    """The web's "who starts": the seat chosen in the lobby starts, whatever seat the rule set
    lets start (today: the one after it)."""
    from sheepfold.games import make
    from sheepfold.server.table_requests import CreateTable, resolve_spec

    seats = [{"kind": "bot", "bot": "random", "name": name} for name in ("A", "B", "C")]
    req = CreateTable(
        game="shave-a-sheep", rules=SECOND_STARTS, seats=seats, first_player=first_player
    )
    spec = resolve_spec(req)
    game = make("shave-a-sheep", players=3, rules=spec["rules"])
    assert spec["seats"][game.first_seat]["name"] == "ABC"[first_player]


# -- the lab -------------------------------------------------------------------------------------
_PLAYED: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any]]] = {}


def _values(rules: Any, engine: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The lab's metrics and game arrays of 200 greedy games (played once per module)."""
    from sheepfold.lab.metrics import evaluate, game_arrays
    from sheepfold.lab.runner import chunk_to_table, make_job, run_chunk

    key = (repr(rules), engine)
    if key not in _PLAYED:
        job = make_job("shave-a-sheep", rules, bots=("greedy",), games=200, engine=engine)
        assert job.engine == engine
        d = game_arrays(chunk_to_table(job, run_chunk(job, range(job.games))))
        _PLAYED[key] = {m.key: m.value for m in evaluate(d)}, d
    return _PLAYED[key]


@pytest.mark.parametrize("engine", ["engine", "fast"])
def test_who_starts_alone_leaves_the_first_player_advantage_as_it_was(engine: str) -> None:
    """Seat 1 starting is the printed game mirrored: on the same seeds the first mover's
    advantage is the printed rules' (today: seat 0's share, the opposite sign)."""
    printed, d0 = _values(None, engine)
    mirrored, d1 = _values(SECOND_STARTS, engine)
    assert set(d0["first"].tolist()) == {0} and set(d1["first"].tolist()) == {1}
    assert printed["first_player_advantage"] != 0  # else the test could not tell
    assert mirrored["first_player_advantage"] == pytest.approx(printed["first_player_advantage"])
    assert mirrored["win_seat1"] == pytest.approx(printed["win_seat0"])


def test_the_seat_chart_labels_the_seats_by_the_order_of_play() -> None:
    from sheepfold.lab import report

    _, d0 = _values(None, "engine")
    _, d1 = _values(SECOND_STARTS, "engine")
    ticks = lambda fig: [t.get_text() for t in fig.axes[0].get_xticklabels()]  # noqa: E731
    fig = report.seat_shares_figure([("second starts", d1)])
    assert ticks(fig) == ["moves first\n(seat 1)", "moves second\n(seat 0)"]
    fig = report.seat_shares_figure([("rulebook", d0)])
    assert ticks(fig) == ["moves first\n(seat 0)", "moves second\n(seat 1)"]
    # two rule sets that start at different seats: the places alone, the first mover's bars
    # side by side (the same height: the same game)
    fig = report.seat_shares_figure([("rulebook", d0), ("second starts", d1)])
    assert ticks(fig) == ["moves first", "moves second"]
    bars = [c for c in fig.axes[0].containers if hasattr(c, "patches")]
    heights = [[b.get_height() for b in c.patches] for c in bars]
    assert np.allclose(heights[0], heights[1])
    assert heights[0][0] != 0


def test_the_solvers_first_player_advantage_is_the_starting_seats(tmp_path: Path) -> None:
    """``sheepfold solve``: the first player's edge of a rule set where seat 1 starts is the
    printed game's, mirrored (today: the opposite sign, seat 0 against seat 1)."""
    import json

    from typer.testing import CliRunner

    from sheepfold.cli.main import app

    def solved(setup: str) -> dict[str, Any]:
        path = tmp_path / "small.toml"
        path.write_text(f'name = "small"\ngame = "shave-a-sheep"\nwool = 8\n{setup}')
        r = CliRunner().invoke(app, ["solve", "shave-a-sheep", "--rules", str(path), "--json"])
        assert r.exit_code == 0, r.output
        return dict(json.loads(r.output[r.output.index("{") :]))

    printed, mirrored = solved(""), solved("[setup]\nfirst = 1\n")
    assert printed["first_player_advantage"] > 0
    assert mirrored["first_player_advantage"] == pytest.approx(printed["first_player_advantage"])
