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

Goal on a 2-core machine: 200 tables, >= 500 actions/s, p99 <= 50 ms.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from loadgen import client_loop, free_port, phase, report, run, started, warmed  # noqa: E402


def serve(db: str, src: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A ``sheepfold serve --no-limits`` on a free port with database ``db`` (the code of the
    source folder ``src``, else this interpreter's), and its address."""
    port = free_port()
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = str(Path(src).resolve())
    cmd = [sys.executable, "-m", "sheepfold.cli.main", "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--db", db, "--bot-delay", "0"]
    # the tables of a finished phase stay as their players left them: no bot stands in after
    # the grace, to play them out in the background of the next phases' measurement
    cmd += ["--leave-grace", "86400"]
    cmd += ["--no-limits"]  # every table and socket of the load comes from one address
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env), f"http://127.0.0.1:{port}"


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
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    tmp = tempfile.mkdtemp(prefix="sheepfold-bench-")
    if args.against:
        return compare(args, tmp)
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


if __name__ == "__main__":
    sys.exit(main())
