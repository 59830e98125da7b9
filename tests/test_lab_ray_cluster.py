"""The lab on a real multi-node Ray cluster: a head node (`ray start --head`) and a second node
(`ray start --address ...`, its own process group and loopback address) on this machine. A run
gives the rows of a local run; a node killed in the middle of a run costs time, not games; a
sweep on the cluster equals the local sweep."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")
pytestmark = pytest.mark.slow  # a two-node cluster takes 10-20 s to start

ENV = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")
#: the nodes' own settings: the head declares a node dead after three failed health checks a
#: second apart, from the start (Ray's default, five 3 s apart, made the run that loses a node
#: wait 13 s more); a killed node fails them at once, a live one has Ray's 10 s to answer each
NODE_ENV = dict(
    ENV,
    RAY_health_check_initial_delay_ms="0",
    RAY_health_check_period_ms="1000",
    RAY_health_check_failure_threshold="3",
)


def _ray() -> str:
    found = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert found, "the ray command is installed with the ray package"
    return found


def _start(args: list[str]) -> subprocess.Popen[str]:
    """``ray start --block ARGS`` in its own process group, once it says it started (read from
    its output: no waiting on a clock)."""
    proc = subprocess.Popen(
        [_ray(), "start", "--block", "--num-cpus=1", "--disable-usage-stats", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=NODE_ENV,
        start_new_session=True,
        text=True,
    )
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if "Ray runtime started" in line:
            return proc
    raise AssertionError("ray start failed:\n" + "".join(seen[-30:]))


def _stop(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, int]]:
    """(the head's address, the process group of the second node)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # Ray's Unix sockets (107 bytes at most) live in this folder, the second node's one name
    # longer: a pytest temp folder is too deep (an xdist worker's by popen-gwN/: 108 bytes)
    tmp = Path(tempfile.mkdtemp(prefix="ray-"))
    nodes: list[subprocess.Popen[str]] = []
    try:
        head = [
            "--head",
            f"--port={port}",
            "--node-ip-address=127.0.0.1",
            "--include-dashboard=false",
            f"--temp-dir={tmp}",
        ]
        nodes.append(_start(head))
        nodes.append(_start([f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.2"]))
        yield f"127.0.0.1:{port}", nodes[1].pid
    finally:
        for proc in reversed(nodes):
            _stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


DRIVER = r"""
import json, os, signal, sys, time
from sheepfold.lab.runner import make_job, run
address, kill_group = sys.argv[1], int(sys.argv[2])
job = make_job("shave-a-sheep", None, bots=["greedy", "random"], games=3000, seed=3)
killed = []
def progress(done, total):
    if kill_group and not killed and done > 0:  # the first chunk is in: kill the second node
        os.killpg(kill_group, signal.SIGKILL)
        killed.append(done)
table = run(job, None, ray=address, chunk_size=100, progress=progress)
import ray
ray.init(address=address, log_to_driver=False)
# the run may end before the head has declared the killed node dead (three failed checks a
# second apart, when the rest of the games went to the head): polled, with a deadline
end = time.monotonic() + 60
while (alive := sum(1 for n in ray.nodes() if n["Alive"])) > 1 and killed:
    if time.monotonic() > end:
        break
    time.sleep(0.2)
print(json.dumps({"killed": killed, "alive": alive, "rows": table.to_pylist()}))
"""


def _drive(address: str, kill_group: int) -> dict:  # type: ignore[type-arg]
    r = subprocess.run(
        [sys.executable, "-c", DRIVER, address, str(kill_group)],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def _local_rows() -> list[dict]:  # type: ignore[type-arg]
    from sheepfold.lab.runner import make_job, run

    job = make_job("shave-a-sheep", None, bots=["greedy", "random"], games=3000, seed=3)
    return run(job, None, workers=1).to_pylist()


def _key(rows: list[dict]) -> list[dict]:  # type: ignore[type-arg]
    return sorted(rows, key=lambda r: r["game_index"])


def test_a_cluster_run_gives_the_local_rows_and_a_lost_node_costs_no_game(
    cluster: tuple[str, int],
) -> None:
    address, worker_group = cluster
    local = _key(_local_rows())
    whole = _drive(address, 0)
    assert whole["alive"] == 2 and _key(whole["rows"]) == local  # row for row
    cut = _drive(address, worker_group)  # the second node dies after the first chunk
    assert cut["killed"] and cut["alive"] == 1
    assert _key(cut["rows"]) == local  # every game, none twice, the same rows


def test_a_sweep_on_the_cluster_equals_the_local_sweep(cluster: tuple[str, int]) -> None:
    from typer.testing import CliRunner

    from sheepfold.cli.main import app

    args = ["lab", "sweep", "shave-a-sheep", "--set", "wool=8..12:4", "-n", "500", "--json"]
    local = CliRunner().invoke(app, [*args, "--workers", "1"])
    assert local.exit_code == 0, local.output
    r = subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", *args, "--ray", cluster[0]],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout) == json.loads(local.stdout)
