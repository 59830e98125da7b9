"""Load test of many processes: 1, 2 and 3 ``sheepfold serve`` processes on one PostgreSQL behind
haproxy (``sheepfold cluster``'s set-up, cli/cluster.py), side by side in one run.

For each size, the tables of loadgen.py (two WebSockets per table, both seats played with random
legal intents, every table made through the balancer, round-robin, and from then on sent to its
owner by the balancer: docs/web.md, "Routing to the owner") at a fixed
offered load (--rate actions/s in all) and at saturation: actions per second, latency from an
action's send to its broadcast (p50/p99) and the CPU per action of the servers (all processes
together), of this client, of haproxy and of PostgreSQL (every backend), from /proc. Then, with
3 processes, the time from a kill -9 of one until every client of its tables plays again (each
table's clients reconnect through the balancer on their own).

On a machine with fewer cores than servers plus two, the client, haproxy and PostgreSQL take the
cores a second server would use (on 2 cores, one saturated server and its client fill both), so
the sizes are run a second time with each server capped at the same fraction of a core
(``--server-cores``, bench/cpucap.py: a cgroup per server, root): a small core per server, the
rest left to the others, and ``--tables`` tables per server (each server the load the one server
had: fewer tables a server means fewer actions a loop turn and a group commit, so a fixed total
would charge the larger sizes for their smaller batches). The ratio of that round says whether
the servers get in each other's way, the first how this machine does. Bounded in tables and
seconds; stops itself.

    python bench/bench_cluster.py [--tables 100] [--seconds 8] [--rate 300] [--sizes 1,2,3]
                                  [--server-cores auto|0|CORES]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from functools import partial
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from cpucap import Caps  # noqa: E402
from loadgen import phase, report, run, tree_cpu, warmed  # noqa: E402
from sheepfold.cli.cluster import LocalCluster  # noqa: E402


def load(c: LocalCluster, tables: int, seconds: float, rate: float = 0.0) -> dict[str, float]:
    """One phase through the balancer, every live server's CPU counted, and haproxy's and the
    temporary PostgreSQL's (every backend) beside them."""
    pids = [s.pid for s in c.servers if s.alive()]
    label = f"load: {tables} tables" if rate else f"saturated: {tables}"
    others = {}
    if c.haproxy is not None:
        others["haproxy"] = partial(tree_cpu, c.haproxy.pid)
    if c.pg is not None:
        postmaster = int((c.pg.data / "postmaster.pid").read_text().split()[0])
        others["PostgreSQL"] = partial(tree_cpu, postmaster)
    job = phase(c.url, pids, tables, seconds, "shave-a-sheep", rate, others)
    return report(label, run(job))


def failover(c: LocalCluster) -> float:
    """Seconds from a kill -9 of the owner of a table in play until its clients play again."""
    import json
    import random
    import threading

    from websockets.sync.client import connect

    t = httpx.post(f"{c.url}/api/tables", json={"game": "shave-a-sheep", "seats": [{}, {}]}).json()
    tokens = [
        httpx.post(f"{c.url}/api/tables/{t['id']}/join", json={"name": f"p{i}"}).json()
        for i in range(2)
    ]
    seen: dict[object, float] = {}  # seat -> its first state after the kill
    killed = [0.0]
    done = threading.Event()

    def play(j: dict[str, object]) -> None:
        rng = random.Random(0)
        while not done.is_set():
            try:
                with connect(c.url.replace("http", "ws") + f"/ws/{t['id']}", proxy=None) as ws:
                    again = bool(killed[0])  # a connection opened after the kill
                    ws.send(json.dumps({"type": "hello", "token": j["token"]}))
                    while not done.is_set():
                        m = json.loads(ws.recv(timeout=5))
                        if m["type"] != "state" or m["you"] != j["seat"]:
                            continue
                        if again:
                            seen.setdefault(j["seat"], time.monotonic())
                        v = m["view"]
                        if v["finished"]:
                            return
                        time.sleep(0.05)  # a player's moment: the game lasts past the kill
                        if v["phase"] == "roll" and v["turn"] == j["seat"]:
                            ws.send(json.dumps({"type": "roll"}))
                        elif v["to_move"] == j["seat"] and v["legal_actions"]:
                            act = rng.choice(v["legal_actions"])
                            ws.send(json.dumps({"type": "act", "action": act}))
            except Exception:
                done.wait(0.05)

    threads = [threading.Thread(target=play, args=(j,), daemon=True) for j in tokens]
    for th in threads:
        th.start()
    time.sleep(1.0)  # the game gets going (a benchmark's pause, not a test's wait)
    owner = _owner(c, t["id"])
    killed[0] = time.monotonic()
    os.kill(owner, 9)
    end = time.monotonic() + 30
    while len(seen) < 2 and time.monotonic() < end:
        time.sleep(0.01)
    done.set()
    return max(seen.values()) - killed[0] if len(seen) == 2 else float("nan")


def _owner(c: LocalCluster, table_id: str) -> int:
    from sqlalchemy import create_engine, text

    from sheepfold.server.cluster import HELD, PREFIX, key_of, table_key
    from sheepfold.server.storage import normalise_url

    engine = create_engine(normalise_url(c.db))
    with engine.connect() as conn:
        who = {key_of(r.hi, r.lo): r.who for r in conn.execute(HELD)}[table_key(table_id)]
        pid = conn.execute(
            text("SELECT pid FROM sf_processes WHERE :p || id = :w"), {"p": PREFIX, "w": who}
        ).scalar_one()
    engine.dispose()
    return int(pid)


def sizes(args: argparse.Namespace, cap: float, failover_at_end: bool) -> dict[int, float] | None:
    """Each size of ``--sizes`` in turn, its servers capped at ``cap`` cores each (0: not
    capped): its saturated actions/s (None when a server's bots did not get ready). Capped,
    each server gets ``--tables`` tables (n servers, n times the tables): the same load as the
    one server had, so the ratio says whether servers get in each other's way; not capped, the
    sizes share ``--tables`` tables."""
    seconds = max(1.0, min(args.seconds, 60.0))
    counts = [int(x) for x in args.sizes.split(",")]
    saturated: dict[int, float] = {}
    for n in counts:
        tables = max(1, min(args.tables * (n if cap else 1), 1000))
        # a load of hundreds of tables from this one address: no per-client limits (a bench)
        bench = ["--bot-delay", "0", "--leave-grace", "86400", "--no-limits"]
        c = LocalCluster(n, options=bench).start()
        try:
            for s in c.servers:  # each loads its bots' compiled code in the background first
                if not warmed(f"http://127.0.0.1:{s.port}"):
                    print(f"server {s.index}: its bots did not get ready (their compiled code)")
                    return None
            with Caps(cap) if cap else nullcontext() as caps:
                for s in c.servers if caps else ():
                    caps.cap(s.pid)
                capped = (
                    f", each capped at {cap:g} of a core (a cgroup), {tables} tables"
                    if caps
                    else ""
                )
                print(
                    f"{n} process(es) behind haproxy on {os.cpu_count()} cores{capped}", flush=True
                )
                load(c, tables, seconds, args.rate)
                held = caps.throttled() if caps else 0.0
                saturated[n] = load(c, tables, seconds)["actions_per_s"]
                if caps:
                    print(
                        f"  the caps held the servers back {caps.throttled() - held:.1f} s "
                        "while the saturated phase ran, its set-up included (a cap that binds)",
                        flush=True,
                    )
            if failover_at_end and n == max(counts) and n > 1:
                print(f"kill -9 to playing again: {failover(c):.2f} s", flush=True)
        finally:
            c.close()
    if 1 in saturated:
        ratios = ", ".join(f"{n}: {v / saturated[1]:.2f}x" for n, v in saturated.items())
        how = (
            f"each capped at {cap:g} of a core, {args.tables} tables each"
            if cap
            else f"not capped, {args.tables} tables in all"
        )
        print(f"saturated throughput against 1 process ({how}): {ratios}", flush=True)
    return saturated


def server_cores(text: str) -> float | None:
    """``--server-cores``: None for auto, else a number of cores (0: not capped)."""
    if text == "auto":
        return None
    try:
        cores = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give auto, 0 or a number of cores") from None
    if cores and not 0.01 <= cores <= (os.cpu_count() or 1):
        raise argparse.ArgumentTypeError(f"{text}: give 0 or 0.01 to the number of cores")
    return cores


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--tables", type=int, default=100, help="tables in all; capped, tables per server"
    )
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--rate", type=float, default=300.0)
    ap.add_argument("--sizes", default="1,2,3")
    ap.add_argument(
        "--server-cores",
        type=server_cores,
        default=None,
        metavar="auto|0|CORES",
        help="cap every server process at this many cores (a cgroup each; root): one small core "
        "per server, the rest of the machine left to the client, haproxy and PostgreSQL; 0: no "
        "cap. auto (the default): the sizes uncapped, then, where the machine has fewer cores "
        "than the largest size plus 2, again with 0.45 of the cores shared by the largest "
        "size's servers",
    )
    args = ap.parse_args()
    largest = max(int(x) for x in args.sizes.split(","))
    cores = os.cpu_count() or 1
    rounds = [args.server_cores]  # the cap of each round of the sizes
    if args.server_cores is None:  # auto
        rounds = [0.0] + ([round(0.45 * cores / largest, 2)] if cores < largest + 2 else [])
    for cap in rounds:
        if cap and args.server_cores is None:
            print(
                f"again, each server capped at {cap:g} of a core: on {cores} cores the client, "
                "haproxy and PostgreSQL would otherwise take the cores a second server needs",
                flush=True,
            )
        try:
            if sizes(args, cap, failover_at_end=not cap) is None:
                return 1
        except OSError as e:  # no cgroup to cap with: auto's uncapped round stands alone
            print(f"no capped round: {e}", flush=True)
            return 0 if args.server_cores is None else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
