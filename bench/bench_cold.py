"""Cold start: the time to each front door's first result in a fresh process with EMPTY caches.

    .venv/bin/python bench/bench_cold.py            # every row, cold then warm
    .venv/bin/python bench/bench_cold.py serve lab  # only these rows
    .venv/bin/python bench/bench_cold.py --kernels  # which kernels the compile time goes to
    .venv/bin/python bench/bench_cold.py --kernels 4 5  # workloads 4 and 5 only (sheepfold.warm)

A row is a new Python process with its own empty caches: numba's compiled kernels
(``NUMBA_CACHE_DIR``), ``SHEEPFOLD_HOME`` (the solver's solutions, the lab's perfect tables,
rule sets), ``XDG_CACHE_HOME`` (where numba's folder is chosen by default) and matplotlib's
``MPLCONFIGDIR``, all in a temporary folder removed at the end. "cold" is the first run on
them, "warm" a second run on the caches the first one filled (what every later run pays). The
seconds are wall clock from starting the process (its imports included) to:

- ``serve``: ``sheepfold serve`` answering its first page (``GET /``), and (its own column,
  "then") the bots' compiled code ready in the background for the lobby's default rules;
- ``start``: what ``serve`` does before it listens: the CLI and the server's app imported and
  the app made (its "cpu s": the part of the first page that a loaded machine inflates);
- ``lab``: ``lab run`` of 2,000 fast Shave a Sheep games (random bots) finishing its first
  game ("then": all 2,000);
- ``batch``: the first batched ``step`` (``ShaveBatch``, 64 envs, after its ``reset``);
- ``solve``: ``sheepfold solve shave-a-sheep`` (the rulebook, 2 players) printing its answer;
- ``expert``: the Dolly Crush expert's first decision (the rulebook's breeds).

``--kernels``: each workload of ``sheepfold warm`` (:mod:`sheepfold.warm`) in a fresh process on
an empty cache, numba's compile events recorded: its compile seconds and the kernels that take
most of them, each kernel's own seconds (without the kernels it calls, compiled inside it).

Goals (a 2-core machine, unloaded): the first page in 10 s, every other first result in 20 s.
Cold compilation is CPU-bound: the load average is printed beside each row (a number measured
beside other work is slower; quote it with its load), and so is the CPU time the run's
processes used in all ("cpu s", user + system, its children included: what the run costs on
an unloaded core, whatever the load). No test runs this: it takes minutes.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

GOALS = {"serve": 10.0, "start": 10.0, "lab": 20.0, "batch": 20.0, "solve": 20.0, "expert": 20.0}
#: seconds a row may take before it is called failed (SHEEPFOLD_BENCH_TIMEOUT: another)
TIMEOUT = float(os.environ.get("SHEEPFOLD_BENCH_TIMEOUT", "1200"))

# each child prints one JSON line: {"first": seconds since its start, "then": ... or None}
LAB = """
import json, sys, time
t0 = float(sys.argv[1])
from sheepfold.lab.runner import make_job, run
seen = {}
def progress(done, total):
    if done and "first" not in seen:
        seen["first"] = time.time() - t0
run(make_job("shave-a-sheep", games=2000, bots=("random",)), progress=progress)
print(json.dumps({"first": seen["first"], "then": time.time() - t0}))
"""

# what `serve` does before it listens, its CPU the comparable part of the first page
START = """
import json, sys, tempfile, time
t0 = float(sys.argv[1])
from sheepfold.cli.main import app as cli
import sheepfold.cli.serve
from sheepfold.server.app import create_app
create_app(tempfile.mkdtemp() + "/tables.db")
print(json.dumps({"first": time.time() - t0, "then": None}))
"""

BATCH = """
import json, sys, time
t0 = float(sys.argv[1])
from sheepfold.vector import ShaveBatch
batch = ShaveBatch(64, players=2, seed=0)
batch.reset()
batch.step(batch.sample_actions())
print(json.dumps({"first": time.time() - t0, "then": None}))
"""

EXPERT = """
import json, sys, time
t0 = float(sys.argv[1])
from sheepfold.bots import make_bot
from sheepfold.core.play import resolve_chance
from sheepfold.games import make
game = make("dolly-crush", breeds=["pastore-maremmano", "australian-shepherd"])
state = game.new_initial_state(seed=3)
resolve_chance(state)
make_bot("expert", game, state.current_player(), seed=1).act(state.observe(state.current_player()))
print(json.dumps({"first": time.time() - t0, "then": None}))
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def _cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def fresh_env(folder: Path) -> dict[str, str]:
    """The environment of a run on the caches in ``folder`` (made empty by the caller)."""
    env = dict(os.environ)
    env.pop("SHEEPFOLD_TEST_MADE_HOME", None)
    env.update(
        NUMBA_CACHE_DIR=str(folder / "numba"),
        SHEEPFOLD_HOME=str(folder / "home"),
        XDG_CACHE_HOME=str(folder / "xdg"),
        MPLCONFIGDIR=str(folder / "mpl"),
        PYTHONUNBUFFERED="1",
    )
    return env


def child(code: str) -> Callable[[dict[str, str], Path], tuple[float, float | None, str]]:
    def run(env: dict[str, str], folder: Path) -> tuple[float, float | None, str]:
        t0 = time.time()
        done = subprocess.run(
            [sys.executable, "-c", code, repr(t0)],
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip()[-800:])
        out = json.loads(done.stdout.strip().splitlines()[-1])
        return out["first"], out["then"], _steps(done.stderr)

    return run


def _steps(text: str) -> str:
    """The compile steps a run said on stderr ("compiling the simulator: 12 s"), joined."""
    found = re.findall(r"(compiling [^\n]*?: [0-9.]+ s)", text)
    return "; ".join(found)


def solve(env: dict[str, str], folder: Path) -> tuple[float, float | None, str]:
    t0 = time.time()
    done = subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", "solve", "shave-a-sheep"],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-800:])
    return time.time() - t0, None, _steps(done.stderr)


def serve(env: dict[str, str], folder: Path) -> tuple[float, float | None, str]:
    cold = not any((folder / "numba").rglob("*.nbi"))  # then the bots' code must compile
    t0 = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sheepfold.cli.main", "serve", "--port", "0"]
        + ["--db", str(folder / "tables.db")],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        lines.extend(proc.stdout)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    first: float | None = None
    ready: float | None = None
    try:
        while time.time() - t0 < TIMEOUT:
            if proc.poll() is not None:
                raise RuntimeError("the server stopped: " + "".join(lines)[-800:])
            text = "".join(lines)
            port = re.search(r"serving at \S*?:(\d+)/", text)
            if first is None and port is not None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port[1]}/", timeout=30) as r:
                        if r.status == 200:
                            first = time.time() - t0
                except OSError:
                    pass
            if first is not None and ready is None:
                # the first "ready" line: the lobby's default rules (then the house rules');
                # warm, nothing is said: loaded in a second or two
                if "playouts are ready" in text:
                    ready = time.time() - t0
                elif not cold:
                    ready = first
            if first is not None and ready is not None:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("timed out: " + "".join(lines)[-800:])
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return first, ready, _steps("".join(lines))


ROWS: dict[str, tuple[str, Callable[[dict[str, str], Path], tuple[float, float | None, str]]]] = {
    "serve": ("sheepfold serve: first page (then: bots ready)", serve),
    "start": ("the server's start: the CLI and the app imported, made", child(START)),
    "lab": ("lab run, 2,000 fast Shave games: first game (then: all)", child(LAB)),
    "batch": ("first batched step (ShaveBatch, 64 envs)", child(BATCH)),
    "solve": ("first solve (Shave a Sheep, rulebook, 2 players)", solve),
    "expert": ("first expert decision (Dolly Crush)", child(EXPERT)),
}


# argv: the workload's index in sheepfold.warm.WORKLOADS; prints {kernel: own seconds} as JSON
PROFILE = """
import json, sys, threading, time
from collections import defaultdict
from numba.core import event
from sheepfold.warm import WORKLOADS

own = defaultdict(float)
stack = []

class Watch(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0])

    def on_end(self, ev):
        start, inner = stack.pop()
        took = time.process_time() - start
        d = ev.data["dispatcher"]
        own[f"{d.py_func.__module__}.{d.py_func.__qualname__}"] += took - inner
        if stack:
            stack[-1][1] += took

label, work = WORKLOADS[int(sys.argv[1])]
t = time.process_time()
with event.install_listener("numba:compile", Watch()):
    work()
print(json.dumps({"label": label, "cpu": time.process_time() - t, "own": own}))
"""


def kernels(which: list[int], top: int = 8) -> int:
    """Print, per workload of ``sheepfold warm`` (``which``: their indices; none: all), the
    kernels its compile time goes to."""
    from sheepfold.warm import WORKLOADS

    print(f"compile time by kernel, empty caches; {os.cpu_count()} CPUs; {load()}", flush=True)
    base = Path(tempfile.mkdtemp(prefix="sheepfold-cold-"))
    try:
        for k in which or range(len(WORKLOADS)):
            folder = base / str(k)
            folder.mkdir()
            try:
                done = subprocess.run(
                    [sys.executable, "-c", PROFILE, str(k)],
                    env=fresh_env(folder),
                    capture_output=True,
                    text=True,
                    timeout=TIMEOUT,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                print(f"{WORKLOADS[k][0]}: over {TIMEOUT:.0f} s; {load()}", flush=True)
                continue
            if done.returncode != 0:
                print(f"{WORKLOADS[k][0]}: failed: {done.stderr.strip()[-400:]}", flush=True)
                continue
            out = json.loads(done.stdout.strip().splitlines()[-1])
            own = sorted(out["own"].items(), key=lambda kv: -kv[1])
            total = sum(v for _, v in own)
            print(
                f"\n{out['label']}: {total:.1f} s CPU compiling ({len(own)} kernels), "
                f"{out['cpu']:.1f} s CPU in all; {load()}",
                flush=True,
            )
            for name, seconds in own[:top]:
                print(f"  {seconds:7.1f} s {100 * seconds / total:5.1f}%  {name}", flush=True)
            by_module: dict[str, float] = {}
            for name, seconds in own:
                module = name.split(".<locals>")[0].rpartition(".")[0]
                by_module[module] = by_module.get(module, 0.0) + seconds
            print("  by module:", flush=True)
            for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:top]:
                print(f"  {seconds:7.1f} s {100 * seconds / total:5.1f}%  {module}", flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def main(names: list[str]) -> int:
    if names[:1] == ["--kernels"]:
        return kernels([int(k) for k in names[1:]])
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        print(f"unknown rows: {', '.join(unknown)} (rows: {', '.join(ROWS)})", file=sys.stderr)
        return 2
    print(f"cold start, empty caches; {os.cpu_count()} CPUs; {load()}", flush=True)
    print(
        f"{'what':56} {'cold s':>8} {'then':>7} {'cpu s':>7} {'warm s':>8} {'goal':>5}",
        flush=True,
    )
    failed = 0
    base = Path(tempfile.mkdtemp(prefix="sheepfold-cold-"))
    try:
        for name in names or list(ROWS):
            label, run = ROWS[name]
            folder = base / name
            folder.mkdir()
            env = fresh_env(folder)
            try:
                before = _cpu()
                cold, then, steps = run(env, folder)
                cpu = _cpu() - before
                warm, _, _ = run(env, folder)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"{label:56} failed: {e}", flush=True)
                failed += 1
                continue
            mark = "ok" if cold <= GOALS[name] else "over"
            then_s = f"{then:7.1f}" if then is not None else f"{'':7}"
            print(
                f"{label:56} {cold:8.1f} {then_s} {cpu:7.1f} {warm:8.1f} {GOALS[name]:4.0f} {mark}",
                flush=True,
            )
            if steps:
                print(f"    said: {steps}", flush=True)
            print(f"    {load()}", flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
