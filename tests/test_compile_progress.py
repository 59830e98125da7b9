"""Waiting on compilation is said as its own step, never as a stalled counter (issue 32):
``sheepfold.core.compiling``, the lab's first game, the batch's first call, the server's
background warm-up and its lobby's bot list."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from polling import wait_until
from sheepfold.core import compiling


def fresh_kernel() -> Any:
    """A numba function never compiled before (no cache: it compiles at its first call)."""
    from numba import njit

    def twice(x):  # type: ignore[no-untyped-def]
        return 2 * x

    return njit(twice)


def test_a_step_reports_a_compilation_when_it_starts_and_ends() -> None:
    said: list[tuple[str, float | None]] = []
    kernel = fresh_kernel()
    with compiling.step("the doubler", lambda w, s: said.append((w, s))) as done:
        assert kernel(21) == 42
    assert [w for w, _ in said] == ["compiling the doubler"] * 2
    assert said[0][1] is None and said[1][1] is not None and said[1][1] > 0
    assert done.kernels >= 1 and done.seconds == said[1][1]
    said.clear()
    with compiling.step("the doubler", lambda w, s: said.append((w, s))) as done:
        assert kernel(4) == 8  # compiled: nothing to say
    assert said == [] and done.kernels == 0 and done.seconds is None


def test_a_step_does_not_count_another_threads_compilation() -> None:
    said: list[tuple[str, float | None]] = []
    kernel = fresh_kernel()
    with compiling.step("nothing here", lambda w, s: said.append((w, s))) as done:
        other = threading.Thread(target=kernel, args=(1,))
        other.start()
        other.join()
    assert said == [] and done.kernels == 0


def test_the_words_of_a_step() -> None:
    assert compiling.words("compiling the simulator", 12.3) == "compiling the simulator: 12 s"
    assert compiling.words("compiling the simulator", 1.25) == "compiling the simulator: 1.2 s"
    assert compiling.words("compiling the simulator", None).startswith("compiling the simulator")


_LAB_EVENTS: list[tuple[Any, ...]] = []  # what the lab's chunks did, in this process
_LAB_KERNEL: list[Any] = []  # a fresh kernel: the first chunk's call compiles it


def _compiling_chunk(job: Any, indices: Any) -> Any:
    """The lab's chunk, compiling a kernel at its first call like a cold simulator (module
    level: the lab's workers get it by name)."""
    from sheepfold.lab import runner

    _LAB_EVENTS.append(("chunk", os.getpid(), list(indices)))
    _LAB_KERNEL[0](len(indices))
    return runner.games_chunk(job, indices, runner._counted_engine_game, "engine")


def test_the_lab_compiles_in_its_first_game_before_the_counter_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sheepfold.lab import runner

    events = _LAB_EVENTS
    events.clear()
    _LAB_KERNEL[:] = [fresh_kernel()]
    monkeypatch.setattr(runner, "run_chunk", _compiling_chunk)
    job = runner.make_job("dolly-crush", games=6, bots=("random",), engine="engine")
    table = runner.run(
        job,
        workers=2,
        progress=lambda done, total: events.append(("progress", done, total)),
        compiling=lambda what, s: events.append(("step", what, s is None)),
    )
    assert sorted(table.column("game_index").to_pylist()) == list(range(6))
    # the first game alone, in this process (forked workers inherit what it compiled), and
    # its compilation a step of its own that ends before the games' counter starts
    assert events[0] == ("chunk", os.getpid(), [0])
    assert events[1:3] == [
        ("step", "compiling the bots' code", True),
        ("step", "compiling the bots' code", False),
    ]
    progress = [e for e in events if e[0] == "progress"]
    assert progress[0] == ("progress", 0, 6) and progress[-1] == ("progress", 6, 6)
    assert events.index(progress[0]) > 2
    # the same games as a run that compiles nothing (the step changes no result)
    again = runner.run(job, workers=1)
    assert again.column("scores").to_pylist() == table.column("scores").to_pylist()


@pytest.mark.parametrize("game", ["shave-a-sheep", "dolly-crush"])
def test_the_batch_says_its_first_calls_compile(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's batch (Shave a Sheep's, Dolly Crush's) says its first reset and step compile."""
    from sheepfold.vector import DollyBatch, ShaveBatch, dolly_kernel, shave_kernel

    Batch, K = {
        "shave-a-sheep": (ShaveBatch, shave_kernel),
        "dolly-crush": (DollyBatch, dolly_kernel),
    }[game]

    class Cold:  # a batch kernel as in a fresh process: not compiled, its first call compiles
        def __init__(self, result: Any = None) -> None:
            self.signatures: list[Any] = []
            self.result = result
            self.kernel = fresh_kernel()

        def __call__(self, *args: Any) -> Any:
            if not self.signatures:
                self.kernel(1)
                self.signatures.append("compiled")
            return self.result

    for name in ("reset_many", "observe_all", "masks_all", "step_many"):
        monkeypatch.setattr(K, name, Cold())
    monkeypatch.setattr(K, "check_actions", Cold((-1, 0)))
    said: list[tuple[str, bool]] = []
    batch = Batch(2, seed=0, compiling=lambda w, s: said.append((w, s is None)))
    batch.reset()
    batch.step([0, 0])
    assert said == [
        ("compiling the batched simulator's reset", True),
        ("compiling the batched simulator's reset", False),
        ("compiling the batched simulator's step", True),
        ("compiling the batched simulator's step", False),
    ]
    said.clear()
    batch.reset()
    batch.step([0, 0])
    assert said == []  # compiled: nothing more to say


def test_the_lobby_says_which_bots_are_getting_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from sheepfold.bots import dolly_mc
    from sheepfold.server.app import create_app

    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    with TestClient(create_app(str(tmp_path / "t.db"))) as client:
        monkeypatch.setattr(dolly_mc, "ready", lambda game=None: False)  # a fresh process
        games = client.get("/api/games").json()
        assert games["dolly-crush"]["preparing"] == {"expert": "the expert's playouts"}
        assert games["shave-a-sheep"]["preparing"] == {}
        monkeypatch.setattr(dolly_mc, "ready", lambda game=None: True)
        assert client.get("/api/games").json()["dolly-crush"]["preparing"] == {}


def test_the_server_warm_up_compiles_in_a_child_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sheepfold.bots import dolly_grid, dolly_mc
    from sheepfold.server import warmup as server_warmup

    warmed: set[str] = set()  # the playouts compiled "in this process"
    searched: set[str] = set()  # the grid searches, likewise
    for mod, done in ((dolly_mc, warmed), (dolly_grid, searched)):
        monkeypatch.setattr(mod, "ready", lambda game=None, m=mod, d=done: set(m.paths(game)) <= d)
        monkeypatch.setattr(mod, "warm", lambda game=None, m=mod, d=done: d.update(m.paths(game)))
    monkeypatch.setattr(server_warmup, "cached_on_disk", lambda modules, game=None: False)
    children: list[list[str]] = []
    popen = subprocess.Popen

    def child(args: list[str], **kw: Any) -> Any:
        children.append(args)
        return popen([sys.executable, "-c", "pass"], **kw)  # the compiling child, made quick

    monkeypatch.setattr(server_warmup.subprocess, "Popen", child)
    said: list[tuple[str, bool, dict[str, str], dict[str, str]]] = []
    job = server_warmup.BotWarmUp(
        report=lambda w, s: said.append((w, s is None, job.pending("dolly-crush"), job.pending()))
    )
    expert = {"expert": "the expert's playouts"}  # the default rules' (no grid search)
    searches = "the bots' swap searches"  # every other Dolly Crush bot's, under house rules
    every = {b: searches for b in ("easy", "greedy", "hard", "medium")}
    every["expert"] = f"{searches}, the expert's playouts"
    assert job.pending("dolly-crush") == expert and job.pending() == every
    job.start()
    wait_until(lambda: job.join(0.05), what="the warm-up to end", timeout=120)
    # two rounds, each in a child: the lobby's default rules (the packed playouts), then the
    # house rules (the grid playouts)
    assert [args[3] for args in children] == ["default", "all"]
    assert warmed == {"packed", "grid"} and searched == {"grid"}
    assert job.pending() == {}
    assert said == [
        (server_warmup.BotWarmUp.WHAT, True, expert, every),
        ("the bots' playouts are ready for the default rules: compiled", False, {}, every),
        ("the bots' playouts are ready for every house rule: compiled", False, {}, {}),
    ]


def test_the_server_warm_up_sees_what_numbas_cache_folder_holds() -> None:
    """Warm (the playouts in numba's cache folder), a server loads them and starts no compiling
    child: :func:`cached_on_disk` finds their index files (it once looked for an attribute
    numba's cache does not have, and every start compiled in a child and said so)."""
    from sheepfold.bots import warmup
    from sheepfold.server.warmup import cached_on_disk

    game = warmup.default_game("dolly-crush")
    modules = warmup.kernels(["expert"])
    warmup.warm_up(["expert"], game=game)  # compiled, or loaded: in the folder either way
    assert cached_on_disk(modules, game)


def test_serve_serves_its_first_page_before_the_bots_are_warm(tmp_path: Path) -> None:
    """Cold (an empty cache folder), the page answers while the bots' playouts still wait to
    compile, and the lobby's list says so: the test holds the warm-up's lock, so the bots
    cannot be ready whatever the machine's speed."""
    import fcntl
    import re

    import httpx

    from sheepfold.numba_cache import kernel_hash

    cache = tmp_path / "numba"
    folder = cache / f"sheepfold-{kernel_hash()[:16]}"  # numba_cache's folder for this source
    folder.mkdir(parents=True)
    lock = open(folder / ".warming.lock", "w")  # noqa: SIM115
    fcntl.flock(lock, fcntl.LOCK_EX)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sheepfold.cli.main", "serve", "--port", "0"]
        + ["--db", str(tmp_path / "tables.db")],
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:  # to the end, so the server never blocks on its output
        assert proc.stdout is not None
        lines.extend(proc.stdout)

    threading.Thread(target=read, daemon=True).start()
    try:
        found = wait_until(
            lambda: re.search(r"serving at \S*?:(\d+)/", "".join(lines)) or proc.poll(),
            what="the server to print its address",
            timeout=300,
        )
        assert proc.poll() is None, "".join(lines)
        base = f"http://127.0.0.1:{found[1]}"
        assert httpx.get(base + "/", timeout=60).status_code == 200
        wanted = {"expert": "the expert's playouts"}  # named once its module is imported
        wait_until(
            lambda: (
                httpx.get(base + "/api/games", timeout=60).json()["dolly-crush"]["preparing"]
                == wanted
            ),
            what="the lobby to say the expert is getting ready",
            timeout=120,
            every=0.2,
        )
        wait_until(
            lambda: "compiling the bots' playouts in the background" in "".join(lines),
            what="the server to say it compiles the bots",
            timeout=120,
        )
        fcntl.flock(lock, fcntl.LOCK_UN)  # now the server's child compiles...
        child = wait_until(lambda: _compiling_child(proc.pid), what="the compiling child")
        proc.terminate()  # ... and ends with the server: no compilation goes on for nobody
        proc.wait(60)
        wait_until(lambda: not Path(f"/proc/{child}").exists(), what="the child to end")
    finally:
        lock.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _compiling_child(parent: int) -> int | None:
    """The pid of the warm-up's compiling child of process ``parent`` (Linux's /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"warm_up" in command:
            return int(entry.name)
    return None
