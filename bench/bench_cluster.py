"""Load test of many processes: 1, 2 and 3 ``sheepfold serve`` processes on one PostgreSQL behind
haproxy (``sheepfold cluster``'s set-up, cli/cluster.py), side by side in one run.

For each size, the tables of loadgen.py (two WebSockets per table, both seats played with random
legal intents, every table made through the balancer, round-robin, and from then on sent to its
owner by the balancer: docs/web.md, "Routing to the owner") at a fixed
offered load (--rate actions/s in all) and at saturation: actions per second, latency from an
action's send to its broadcast (p50/p99) and the servers' CPU per action (all processes
together, from /proc). Then, with 3 processes, the time from a kill -9 of one until every client
of its tables plays again (each table's clients reconnect through the balancer on their own).
Bounded in tables and seconds; stops itself.

    python bench/bench_cluster.py [--tables 100] [--seconds 8] [--rate 300] [--sizes 1,2,3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from loadgen import phase, report, run, warmed  # noqa: E402
from sheepfold.cli.cluster import LocalCluster  # noqa: E402


def load(c: LocalCluster, tables: int, seconds: float, rate: float = 0.0) -> dict[str, float]:
    """One phase through the balancer, every live server's CPU counted."""
    pids = [s.pid for s in c.servers if s.alive()]
    label = f"load: {tables} tables" if rate else f"saturated: {tables}"
    return report(label, run(phase(c.url, pids, tables, seconds, "shave-a-sheep", rate)))


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--rate", type=float, default=300.0)
    ap.add_argument("--sizes", default="1,2,3")
    args = ap.parse_args()
    tables = max(1, min(args.tables, 500))
    seconds = max(1.0, min(args.seconds, 60.0))
    saturated: dict[int, float] = {}
    for n in [int(x) for x in args.sizes.split(",")]:
        c = LocalCluster(n, options=["--bot-delay", "0", "--leave-grace", "86400"]).start()
        try:
            for s in c.servers:  # each loads its bots' compiled code in the background first
                if not warmed(f"http://127.0.0.1:{s.port}"):
                    print(f"server {s.index}: its bots did not get ready (their compiled code)")
                    return 1
            print(f"{n} process(es) behind haproxy on {os.cpu_count()} cores", flush=True)
            load(c, tables, seconds, args.rate)
            out = load(c, tables, seconds)
            saturated[n] = out["actions_per_s"]
            if n == max(int(x) for x in args.sizes.split(",")) and n > 1:
                print(f"kill -9 to playing again: {failover(c):.2f} s", flush=True)
        finally:
            c.close()
    if 1 in saturated:
        ratios = ", ".join(f"{n}: {v / saturated[1]:.2f}x" for n, v in saturated.items())
        print(f"saturated throughput against 1 process: {ratios}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
