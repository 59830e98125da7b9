"""The tournament runner: seating, duplicate deals, statistics, Elo, the CLI."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from sheepfold.bots import available_bots
from sheepfold.bots.tournament import (
    TournamentConfig,
    bradley_terry,
    entrant_labels,
    run_tournament,
    total_games,
)
from sheepfold.cli.main import app

ONE_SWAP = ("pastore-maremmano", "bobtail")


def test_duplicate_plays_every_deal_from_every_seat_with_the_same_cards() -> None:
    cfg = TournamentConfig(
        game="dolly-crush",
        bots=("easy", "medium"),
        games=10,
        duplicate=True,
        seed=3,
        breeds=ONE_SWAP,
        workers=1,
    )
    res = run_tournament(cfg)
    assert len(res.games) == total_games(cfg) == 10
    by_deal: dict[int, list] = {}
    for g in res.games:
        by_deal.setdefault(g.deal, []).append(g)
    assert len(by_deal) == 5
    for games in by_deal.values():
        assert sorted(g.seats for g in games) == [(0, 1), (1, 0)]
    s = res.summary()
    assert s["games"] == 10 and s["deals"] == 5 and s["duplicate"]
    shares = {r["bot"]: r["win_share"] for r in s["standings"]}
    assert shares["easy"] + shares["medium"] == pytest.approx(1.0)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    # hard without a clock (time=0): under load, a clock would cut its playouts short
    base = dict(game="dolly-crush", bots=("easy", "hard:time=0"), games=8, seed=5, breeds=ONE_SWAP)
    one = run_tournament(TournamentConfig(**base, workers=1))  # type: ignore[arg-type]
    two = run_tournament(TournamentConfig(**base, workers=2))  # type: ignore[arg-type]
    assert one.games == two.games
    assert one.summary()["standings"] == two.summary()["standings"]


def test_non_duplicate_games_rotate_seats() -> None:
    cfg = TournamentConfig(
        game="dolly-crush", bots=("easy", "medium"), games=6, seed=1, breeds=ONE_SWAP, workers=1
    )
    res = run_tournament(cfg)
    assert [g.seats for g in res.games] == [(0, 1), (1, 0)] * 3


def test_three_bots_two_seats_play_every_pair_and_three_seats_work() -> None:
    cfg = TournamentConfig(
        game="dolly-crush",
        bots=("easy", "medium", "hard"),
        games=4,
        seed=2,
        breeds=ONE_SWAP,
        workers=1,
    )
    s = run_tournament(cfg).summary()
    assert s["games"] == 12 and len(s["head_to_head"]) == 3
    cfg3 = TournamentConfig(
        game="dolly-crush",
        bots=("easy", "medium", "medium"),
        games=6,
        players=3,
        duplicate=True,
        seed=2,
        workers=1,
    )
    s3 = run_tournament(cfg3).summary()
    assert {r["bot"] for r in s3["standings"]} == {"easy", "medium#1", "medium#2"}
    assert sum(r["win_share"] for r in s3["seats"]) == pytest.approx(1.0)


def test_labels_of_a_bot_named_twice() -> None:
    assert entrant_labels(["medium", "easy", "medium"]) == ["medium#1", "easy", "medium#2"]


def test_bradley_terry_recovers_a_known_elo_gap() -> None:
    # A scores 75% against B: the Elo gap is 400 log10(3) = 190.8
    elo = bradley_terry({(0, 1): 75.0, (1, 0): 25.0}, {(0, 1): 100.0, (1, 0): 100.0}, 2)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert sum(elo) / 2 == pytest.approx(1500)
    # transitive three-player case: ordering kept
    wins = {(0, 1): 60.0, (1, 0): 40.0, (1, 2): 60.0, (2, 1): 40.0, (0, 2): 70.0, (2, 0): 30.0}
    games = {k: 100.0 for k in wins}
    e = bradley_terry(wins, games, 3)
    assert e[0] > e[1] > e[2]


def test_confidence_interval_contains_the_mean_and_shrinks_with_games() -> None:
    small = run_tournament(
        TournamentConfig(
            game="dolly-crush",
            bots=("medium", "easy"),
            games=20,
            duplicate=True,
            breeds=ONE_SWAP,
            workers=1,
        )
    ).summary()
    big = run_tournament(
        TournamentConfig(
            game="dolly-crush",
            bots=("medium", "easy"),
            games=80,
            duplicate=True,
            breeds=ONE_SWAP,
            workers=1,
        )
    ).summary()
    for s in (small, big):
        r = s["head_to_head"][0]
        assert r["ci95"][0] <= r["share"] <= r["ci95"][1]
    width = lambda s: s["head_to_head"][0]["ci95"][1] - s["head_to_head"][0]["ci95"][0]  # noqa: E731
    assert width(big) < width(small)


@pytest.mark.parametrize("game", ["shave-a-sheep"])
def test_any_game_with_registered_bots(game: str) -> None:
    assert "random" in available_bots(game)
    pick = ("random", "random")
    cfg = TournamentConfig(game=game, bots=pick, games=6, duplicate=True, seed=1, workers=1)
    s = run_tournament(cfg).summary()
    assert s["games"] == 6
    assert sum(r["win_share"] for r in s["seats"]) == pytest.approx(1.0)


runner = CliRunner()


def test_cli_json_report() -> None:
    r = runner.invoke(
        app,
        [
            "tournament",
            "dolly-crush",
            "--bot",
            "easy",
            "--bot",
            "medium",
            "--games",
            "6",
            "--duplicate",
            "--workers",
            "1",
            "--json",
            "--breeds",
            "pastore-maremmano,bobtail",
        ],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout[r.stdout.index("{") :])
    assert data["games"] == 6 and data["breeds"] == list(ONE_SWAP)
    assert {row["bot"] for row in data["standings"]} == {"easy", "medium"}


def test_cli_table_report_and_list() -> None:
    r = runner.invoke(
        app, ["tournament", "dolly-crush", "-b", "medium", "-b", "medium", "-n", "4", "-w", "1"]
    )
    assert r.exit_code == 0, r.output
    assert "medium#1" in r.stdout and "Elo" in r.stdout and "australian-shepherd" in r.stdout
    r = runner.invoke(app, ["tournament", "dolly-crush", "--list"])
    assert r.exit_code == 0 and "expert" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dolly-crush", "--bot", "nobody", "--bot", "easy"], "no bot named"),
        (["dolly-crush", "--bot", "easy"], "at least as many bots"),
        (["chess", "--bot", "easy", "--bot", "easy"], "unknown game"),
        (["dolly-crush", "--bot", "easy", "--bot", "easy", "--breeds", "poodle,bobtail"], "breed"),
        (["dolly-crush", "--bot", "easy", "--bot", "easy", "--games", "0"], "--games"),
    ],
)
def test_cli_bad_input_is_one_clear_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["tournament", *args, "--workers", "1"])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "values",
    [[0.0] * 20, [1.0] * 20, [0.0] * 19 + [1.0], [1.0] * 19 + [0.5], [0.0, 0.5] * 3],
)
def test_a_win_share_ci_stays_between_0_and_1_and_is_never_a_point(values) -> None:
    from sheepfold.bots.tournament import _mean_ci

    m, lo, hi = _mean_ci(values)
    assert 0.0 <= lo <= m <= hi <= 1.0
    assert hi - lo > 0.05  # a handful of games never makes a share certain


def test_progress_moves_from_the_first_deal(monkeypatch) -> None:
    import sheepfold.bots.tournament as T

    sizes: list[int] = []
    real = T.run_pool

    def spy(fn, tasks, workers, collect, ahead=2):  # type: ignore[no-untyped-def]
        tasks = list(tasks)
        sizes.extend(len(t[1]) for t in tasks)
        return real(fn, tasks, workers, collect, ahead)

    monkeypatch.setattr(T, "run_pool", spy)
    cfg = TournamentConfig(game="shave-a-sheep", bots=("greedy", "random"), games=600, workers=2)
    res = run_tournament(cfg)
    assert len(res.games) == 600
    assert sizes[:4] == [1, 1, 1, 1] and max(sizes) > 1
