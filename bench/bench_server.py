"""Load test of the web server: N concurrent bot-vs-bot tables over WebSockets on 127.0.0.1.

Two processes: the server, a real `sheepfold serve --no-limits` (SQLite in a temporary folder,
every action committed before it is broadcast), and the load-generating client, this process
(bench/loadgen.py), which opens two WebSockets per table and plays both seats with random legal
intents. Printed for each phase: actions per second, the latency from sending an action to
receiving its broadcast (p50/p99), the **server's own CPU time per action** (read from
/proc/PID/stat before and after the measured seconds: what the server costs, whatever else the
machine runs; measured once the server's bots are ready, since their compiled code is loaded in
the background at start-up), the client's CPU per action, and the machine's load average. The
phases: 1 table playing as fast as it can (the baseline), then N tables whose players think
between moves so that together they offer --rate actions/s (the goal's load), then the same N
tables with no thinking at all (saturation: latency is then queueing, and the client, on the
same cores, is part of the limit). Latency depends on what else the cores run; CPU per action
much less. The client pauses its own garbage collector while measuring. Bounded in tables and
seconds; stops itself.

With ``--against SRC`` a second server runs the code of another source folder (``src`` of a
worktree of an older commit) on its own database, and the load phase alternates between the
two, ``--rounds`` times each: old and new measured in the same run, under the same load.

    python bench/bench_server.py [--tables 200] [--seconds 10] [--rate 600] [--game shave-a-sheep|dolly-crush|mixed]
    python bench/bench_server.py --against ../old/src [--rounds 3]

With ``--steady`` every core runs a spinner at the idle scheduling class (SCHED_IDLE: it gets a
core only when nothing else wants it) while the phases run, so no core sits idle. At the goal's
load a server is busy about a tenth of a core, and on an idle virtual machine each action wakes
a halted core: what that costs is counted as the action's CPU, and it moves from round to round
with what the host did in between. Kept busy, the rounds of one tree mostly agree within a
few per cent (docs/web.md, "Issue 32, a sixth look"); compare trees with it, and say which way
a figure was measured.

With ``--path`` no server runs: the table's own path in this process (an intent read and
checked, applied, told in the log, committed by the group commit, both seats' state messages
built and framed by the socket's direct side onto a transport that drops them), N tables a
loop turn, its CPU time per move (this thread's clock, the intents' choice not counted); with
``--against`` the two source folders alternate, ``--rounds`` runs each, in child processes.

    python bench/bench_server.py --path [--tables 200] [--moves 10000] [--against SRC]

Goal on a 2-core machine: 200 tables, >= 500 actions/s, p99 <= 50 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from loadgen import client_loop, free_port, phase, report, run, started, warmed  # noqa: E402


def serve(db: str, src: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A ``sheepfold serve --no-limits`` on a free port with database ``db`` (the code of the
    source folder ``src``, else this interpreter's), and its address."""
    port = free_port()
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = str(Path(src).resolve())
        # numba's cache keys a kernel by its source file's path and time: two trees sharing
        # one cache folder overwrite each other's entries, and each start compiles again
        # (minutes, then their loading counted as the actions' CPU); the other tree's own
        env.setdefault("NUMBA_CACHE_DIR", str(Path(src).resolve().parent / ".numba-bench-cache"))
    cmd = [sys.executable, "-m", "sheepfold.cli.main", "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--db", db, "--bot-delay", "0"]
    # the tables of a finished phase stay as their players left them: no bot stands in after
    # the grace, to play them out in the background of the next phases' measurement
    cmd += ["--leave-grace", "86400"]
    cmd += ["--no-limits"]  # every table and socket of the load comes from one address
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env), f"http://127.0.0.1:{port}"


SPIN = (
    "import os\n"
    "try: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\n"
    "except (AttributeError, OSError): os.nice(19)\n"
    "parent = os.getppid()\n"
    "while os.getppid() == parent:\n"  # ends with the bench, however it ends
    "    for _ in range(100_000): pass\n"
)


@contextlib.contextmanager
def steady(on: bool) -> Iterator[None]:
    """With ``on``, a spinner at the idle scheduling class on every core while inside."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(os.cpu_count() or 1) if on
    ]
    if spinners:
        print(f"--steady: {len(spinners)} idle-class spinners keep the cores awake", flush=True)
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument(
        "--game", default="shave-a-sheep", choices=["shave-a-sheep", "dolly-crush", "mixed"]
    )
    ap.add_argument(
        "--rate",
        type=float,
        default=600.0,
        help="actions/s offered in total by the N tables (players think between moves)",
    )
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument(
        "--against",
        default=None,
        metavar="SRC",
        help="also serve the code of the source folder SRC and alternate the load between both",
    )
    ap.add_argument("--rounds", type=int, default=3, help="load phases of each server (--against)")
    ap.add_argument("--path", action="store_true", help="the table's path in one process")
    ap.add_argument("--moves", type=int, default=10000, help="moves measured (--path)")
    ap.add_argument(
        "--steady",
        action="store_true",
        help="keep every core awake with idle-class spinners while measuring (steadier CPU "
        "figures on a virtual machine)",
    )
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    args.moves = max(100, min(args.moves, 200_000))
    if args.path:
        return path_compare(args) if args.against else path_once(args)
    tmp = tempfile.mkdtemp(prefix="sheepfold-bench-")
    with steady(args.steady):
        return compare(args, tmp) if args.against else measure(args, tmp)


def measure(args: argparse.Namespace, tmp: str) -> int:
    """The three phases on this code's server."""
    db = args.db or os.path.join(tmp, "bench.db")
    proc, base = serve(db)
    try:
        if not started(base, proc):
            print("the server did not start")
            return 1
        if not warmed(base):
            print("the server's bots did not get ready (their compiled code)")
            return 1
        one, five, _ = os.getloadavg()
        print(
            f"server: sheepfold serve --no-limits (pid {proc.pid}) on 127.0.0.1, "
            f"db {db.split('@')[-1]}; client: this process (pid {os.getpid()}, {client_loop()}); "
            f"{os.cpu_count()} cores shared; load average {one:.2f} (1 min), {five:.2f} (5 min)",
            flush=True,
        )
        pids, short = [proc.pid], min(args.seconds, 5.0)
        report("baseline: 1 table", run(phase(base, pids, 1, short, args.game)))
        load = report(
            f"load: {args.tables} tables",
            run(phase(base, pids, args.tables, args.seconds, args.game, args.rate)),
        )
        report(
            f"saturated: {args.tables}",
            run(phase(base, pids, args.tables, short, args.game)),
        )
        goal = load["actions_per_s"] >= 500 and load["p99_ms"] <= 50 and args.tables >= 200
        print(
            f"goal (200 tables, >= 500 actions/s, p99 <= 50 ms): {'met' if goal else 'not met'}; "
            f"at this load the server used {load['server_cpu_ms']:.3f} ms of CPU per action: "
            f"one core would serve about {1000 / load['server_cpu_ms']:.0f} actions/s",
            flush=True,
        )
    finally:
        stop(proc)
    return 0


def compare(args: argparse.Namespace, tmp: str) -> int:
    """The load phase alternated between this code's server and ``--against``'s."""
    servers = {
        "this": serve(os.path.join(tmp, "this.db")),
        "against": serve(os.path.join(tmp, "against.db"), args.against),
    }
    try:
        for name, (proc, base) in servers.items():
            if not started(base, proc):
                print(f"the server ({name}) did not start")
                return 1
        for name, (_, base) in servers.items():
            if not warmed(base):
                print(f"the server's ({name}) bots did not get ready (their compiled code)")
                return 1
        print(
            f"this code's server (pid {servers['this'][0].pid}) and {args.against}'s "
            f"(pid {servers['against'][0].pid}), {args.tables} tables offering "
            f"{args.rate:.0f} actions/s, {args.rounds} rounds of {args.seconds:.0f} s each; "
            f"{os.cpu_count()} cores shared",
            flush=True,
        )
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
        for r in range(max(1, args.rounds)):
            order = list(servers) if r % 2 == 0 else list(reversed(servers))
            for name in order:
                proc, base = servers[name]
                job = phase(base, [proc.pid], args.tables, args.seconds, args.game, args.rate)
                runs[name].append(report(f"{name} {r + 1}", run(job)))

        def median(name: str, key: str) -> float:
            return statistics.median(out[key] for out in runs[name])

        for name in servers:
            print(
                f"{name}, median of {len(runs[name])}: server CPU "
                f"{median(name, 'server_cpu_ms'):.3f} ms/action, "
                f"{median(name, 'actions_per_s'):.0f} actions/s, p50 {median(name, 'p50_ms'):.1f} ms,"
                f" p99 {median(name, 'p99_ms'):.1f} ms, at a load average of {median(name, 'load'):.2f}",
                flush=True,
            )
        this, against = (median(n, "server_cpu_ms") for n in ("this", "against"))
        print(
            f"server CPU per action, median: this {this:.3f} ms, against {against:.3f} ms: "
            f"{against / this:.2f}x less",
            flush=True,
        )
    finally:
        for proc, _ in servers.values():
            stop(proc)
    return 0


def path_compare(args: argparse.Namespace) -> int:
    """``--path`` alternated between this code and ``--against``'s, in child processes."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"this": here, "against": str(Path(args.against).resolve())}
    got: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(max(1, args.rounds)):
        for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
            env = dict(os.environ, PYTHONPATH=trees[name])
            cmd = [sys.executable, __file__, "--path", "--game", args.game]
            cmd += ["--tables", str(args.tables), "--moves", str(args.moves)]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            line = out.stdout.strip().splitlines()[-1]
            got[name].append(float(line.split(" us CPU per move")[0].rsplit(" ", 1)[1]))
            print(f"{name} {r + 1}: {line}", flush=True)
    for name, values in got.items():
        print(
            f"{name}: median {statistics.median(values):.1f} us CPU per move, least "
            f"{min(values):.1f} ({', '.join(f'{v:.1f}' for v in values)})",
            flush=True,
        )
    this, against = (statistics.median(got[n]) for n in ("this", "against"))
    print(f"the path's CPU per move, median: {against / this:.2f}x less", flush=True)
    return 0


def path_once(args: argparse.Namespace) -> int:
    import asyncio

    from sheepfold.server.storage import Storage
    from sheepfold.server.tables import Settings, TableManager

    game = args.game if args.game != "mixed" else "shave-a-sheep"
    tmp = tempfile.mkdtemp(prefix="sheepfold-path-")
    spent, moves = asyncio.run(
        _path(TableManager, Storage(os.path.join(tmp, "p.db")), Settings, game, args)
    )
    one, _, _ = os.getloadavg()
    print(
        f"{game}, {args.tables} tables: {moves} moves, {spent * 1e6 / moves:.1f} us CPU per move"
        f" (load average {one:.2f})",
        flush=True,
    )
    return 0


async def _path(
    manager_class: Any, storage: Any, settings: Any, game: str, args: argparse.Namespace
) -> tuple[float, int]:
    import asyncio
    import gc
    import json
    import random
    import time

    from websockets.protocol import Protocol, Side, State

    from sheepfold.server.broadcast import Conn
    from sheepfold.server.connections import Direct
    from sheepfold.server.limits import message_problem

    class Dropped:
        def write(self, data: bytes) -> None:
            pass

    class Writable:
        @staticmethod
        def is_set() -> bool:
            return True

    class Socket:  # what Direct.write looks at in uvicorn's protocol
        handshake_complete, close_sent, disconnected = True, False, False
        initial_response = None
        writable = Writable

        def __init__(self) -> None:
            self.conn = Protocol(Side.SERVER, state=State.OPEN)
            self.transport = Dropped()

    m = manager_class(storage, settings.unlimited(bot_delay=0))
    tables = []
    for _ in range(args.tables):
        t = m.create({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
        conns = []
        for s in range(2):
            _, token = t.take_seat(f"p{s}")
            c = Conn(lambda text: None, write=Direct(Socket()).write)  # type: ignore[arg-type]
            t.attach(c)
            t.handle(c, json.dumps({"type": "hello", "token": token}))
            conns.append(c)
        tables.append((t, conns))
    m.flush()
    await asyncio.sleep(0)
    gc.collect()
    gc.freeze()  # as the server does after start-up (app.GC_YOUNG)
    gc.set_threshold(20_000, *gc.get_threshold()[1:])
    rng = random.Random(1)
    limiter = m.limits["message"]
    spent, done = 0.0, 0
    while done < args.moves:
        turn = []
        for t, conns in tables:
            if t.finished():
                continue
            p = t.state.current_player()
            seat = p if p >= 0 else t.state.turn
            view = t.state.observe(seat)
            if game == "dolly-crush":
                dog = rng.choice(view["dogs_left"][seat])
                swaps = [["a1", "a2"]] * view["dog_swaps"][seat][dog]
                msg: dict[str, Any] = {"type": "turn", "dog": dog, "swaps": swaps}
            elif view["phase"] == "roll":
                msg = {"type": "roll"}
            else:
                msg = {"type": "act", "action": rng.choice(view["legal_actions"])}
            turn.append((t, conns[seat], json.dumps(msg)))
        if not turn:
            break
        start = time.thread_time()
        for t, c, text in turn:  # one loop turn: every table's move (app.take), one commit
            limiter.take("127.0.0.1")
            if message_problem(text, 4096, 8) is None:
                t.handle(c, text)
        m.flush()
        spent += time.thread_time() - start
        done += len(turn)
        await asyncio.sleep(0)
    await m.close()
    return spent, done


if __name__ == "__main__":
    sys.exit(main())
