"""Batch runs: rows, records, parallel = serial, stop and resume, Ray = local."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from sheepfold.core.records import replay
from sheepfold.lab.runner import LabError, make_job, read_table, record_of, row_dict, run

COLS = [
    "game_index",
    "seed",
    "scores",
    "winners",
    "shares",
    "length",
    "truncated",
    "standings",
    "bots",
    "lead_changes",
    "winner_trailed",
    "winner_deficit",
    "decisive_turn",
    "engine",
]


def _rows(table):  # type: ignore[no-untyped-def]
    return table.select(COLS).to_pylist()


def test_engine_rows_turn_back_into_records(tmp_path):  # type: ignore[no-untyped-def]
    job = make_job(
        "shave-a-sheep",
        {"variants": ["howling-wolf"]},
        bots=["greedy", "random"],
        games=12,
        seed=40,
        engine="engine",
        rotate=True,
    )
    out = tmp_path / "r.parquet"
    table = run(job, out, workers=1)
    assert table.num_rows == 12
    job2, table2 = read_table(out)
    assert job2 == job
    row = row_dict(table2, 5)
    assert row["seed"] == 45 and row["bots"] == ["random", "greedy"]  # rotated
    assert len(row["standings"]) == row["length"]
    assert row["standings"][-1] == row["scores"]
    rec = record_of(job2, 5)
    assert rec["seed"] == 45
    r = replay(json.loads(json.dumps(rec)))
    assert r.error is None and r.state.is_terminal()
    assert [int(s) for s in r.state.scores()] == row["scores"]


def test_fast_rows_turn_back_into_records():
    job = make_job(
        "shave-a-sheep",
        {"variants": ["my-friend-mr-wolf"]},
        bots=["greedy", "random"],
        games=300,
        seed=7,
    )
    assert job.engine == "fast"
    table = run(job, workers=1)
    for k in (0, 123, 299):
        row = row_dict(table, k)
        r = replay(record_of(job, k))
        assert r.error is None and r.state.is_terminal()
        assert [int(s) for s in r.state.scores()] == row["scores"]
        assert sorted(r.state.winners()) == sorted(row["winners"])


def test_parallel_run_equals_serial_run():
    job = make_job("shave-a-sheep", None, games=60, seed=3, engine="engine")
    a = run(job, workers=1)
    b = run(job, workers=2, chunk_size=7)
    assert _rows(a) == _rows(b)
    fast = make_job("shave-a-sheep", None, games=5000, seed=3)
    assert _rows(run(fast, workers=1)) == _rows(run(fast, workers=2, chunk_size=600))


def test_stop_and_resume_lose_no_game(tmp_path):  # type: ignore[no-untyped-def]
    job = make_job(
        "shave-a-sheep", {"variants": ["cutting-costs"]}, games=40, seed=9, engine="engine"
    )
    full = run(job, workers=1)
    out = tmp_path / "run.parquet"
    calls = []

    def stop_after_two_chunks(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:  # the initial call, then two chunks of 8
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(job, out, workers=1, chunk_size=8, progress=stop_after_two_chunks)
    kept = pq.read_table(out)
    assert kept.num_rows == 16  # both finished chunks were kept
    with pytest.raises(LabError, match="--resume"):
        run(job, out, workers=1)
    other = make_job("shave-a-sheep", None, games=40, seed=9, engine="engine")
    with pytest.raises(LabError, match="another job"):
        run(other, out, workers=1, resume=True)
    seen = []
    table = run(
        job, out, workers=2, chunk_size=5, resume=True, progress=lambda d, t: seen.append(d)
    )
    assert seen[0] == 16  # resumed where it stopped
    assert _rows(table) == _rows(full)
    assert _rows(read_table(out)[1]) == _rows(full)
    assert not (tmp_path / "run.parquet.parts").exists()
    # a bigger --games extends the run
    more = make_job(
        "shave-a-sheep", {"variants": ["cutting-costs"]}, games=50, seed=9, engine="engine"
    )
    assert _rows(run(more, out, workers=1, resume=True))[:40] == _rows(full)


@pytest.mark.slow  # starting a Ray instance takes 15 s or more
def test_ray_local_gives_the_same_rows_as_a_local_run(tmp_path):  # type: ignore[no-untyped-def]
    """`--ray local` (a Ray instance started by the run itself, in a child process so that Ray's
    threads never meet this process's forks) writes the rows of a local run."""
    import os
    import subprocess
    import sys

    pytest.importorskip("ray")
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    fast = make_job("shave-a-sheep", None, bots=["greedy", "random"], games=3000, seed=21)
    slow = make_job(
        "shave-a-sheep", {"variants": ["howling-wolf"]}, games=24, seed=5, engine="engine"
    )
    out_fast, out_slow = tmp_path / "fast.parquet", tmp_path / "slow.parquet"
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "sheepfold.cli.main",
            "lab",
            "run",
            "shave-a-sheep",
            "--bot",
            "greedy",
            "--bot",
            "random",
            "--games",
            "3000",
            "--seed",
            "21",
            "--ray",
            "local",
            "--out",
            str(out_fast),
            "--json",
        ],
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert cli.returncode == 0, cli.stderr.decode()[-2000:]
    script = (
        "import sys; from sheepfold.lab.runner import Job, run\n"
        "job = Job.from_json(sys.argv[1]); run(job, sys.argv[2], ray='local', chunk_size=5)\n"
    )
    py = subprocess.run(
        [sys.executable, "-c", script, slow.to_json(), str(out_slow)],
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert py.returncode == 0, py.stderr.decode()[-2000:]
    for job, out in ((fast, out_fast), (slow, out_slow)):
        ray_job, ray_rows = read_table(out)
        assert ray_job.same_games(job)
        assert _rows(ray_rows) == _rows(run(job, workers=1))


def test_bad_jobs_are_refused_with_a_reason():
    with pytest.raises(LabError, match="bots for 3 players"):
        make_job("shave-a-sheep", None, players=3, bots=["random", "greedy"])
    with pytest.raises(Exception, match="no bot named"):
        make_job("shave-a-sheep", None, bots=["nobody"])
    with pytest.raises(LabError, match="fast simulator cannot play"):
        make_job("dolly-crush", None, bots=["random"], engine="fast")
    with pytest.raises(LabError, match="Shave a Sheep"):
        make_job("dolly-crush", None, bots=["greedy"], exact=True)
