"""One Ctrl-C stops a long run at once: the workers are gone, and what finished is kept."""

from __future__ import annotations

import json
import multiprocessing as mp

import pytest
from typer.testing import CliRunner

import sheepfold.bots.tournament as T
from sheepfold.cli.main import app
from sheepfold.core.pool import run_pool

CFG = dict(game="shave-a-sheep", bots=("greedy", "random"), games=400, seed=1, players=2, workers=2)


def _square(x: int) -> int:
    return x * x


def test_an_interrupt_in_the_pool_stops_every_worker_and_keeps_what_finished() -> None:
    got: list[int] = []

    def collect(v: int) -> None:
        got.append(v)
        if len(got) == 5:
            raise KeyboardInterrupt  # where Ctrl-C lands: the main process, waiting

    before = set(mp.active_children())  # other tests' processes are not ours to count
    with pytest.raises(KeyboardInterrupt):
        run_pool(_square, ((i,) for i in range(10_000)), 2, collect)
    assert len(got) == 5
    assert set(mp.active_children()) <= before  # terminated and joined: none left behind


def test_an_interrupted_tournament_keeps_the_games_that_finished() -> None:
    cfg = T.TournamentConfig(**CFG)  # type: ignore[arg-type]
    seen = [0]

    def on_games(k: int) -> None:
        seen[0] += k
        if seen[0] >= 20:
            raise KeyboardInterrupt

    before = set(mp.active_children())
    with pytest.raises(T.TournamentInterrupted) as e:
        T.run_tournament(cfg, on_games=on_games)
    kept = e.value.result
    assert len(kept.games) == seen[0] < T.total_games(cfg)
    assert kept.summary()["games"] == len(kept.games)
    assert set(mp.active_children()) <= before


def test_the_tournament_command_prints_the_finished_games_and_exits_130(
    monkeypatch, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    real = T.run_tournament

    def interrupted(cfg, on_games=None, journal=None):  # type: ignore[no-untyped-def]
        def stop(k: int) -> None:
            raise KeyboardInterrupt

        return real(cfg, stop, journal)

    monkeypatch.setattr(T, "run_tournament", interrupted)
    args = ["tournament", "shave-a-sheep", "--bot", "greedy", "--bot", "random"]
    out_file = tmp_path / "t.jsonl"
    res = CliRunner().invoke(
        app, [*args, "--games", "400", "--workers", "2", "--json", "--out", str(out_file)]
    )
    assert res.exit_code == 130
    out = json.loads(res.stdout[res.stdout.index("{") :])
    assert out["interrupted"] is True and 0 < out["games"] < 400
    assert "interrupted:" in res.stderr and "of 400 games had finished" in res.stderr
    assert "add --resume to go on" in res.stderr
    lines = out_file.read_text().splitlines()[1:]  # after the configuration, a line per deal
    assert sum(len(json.loads(line)) for line in lines) == out["games"]  # what finished is kept
