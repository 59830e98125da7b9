"""Load test of the web server: N concurrent bot-vs-bot tables over WebSockets on 127.0.0.1.

A real `sheepfold serve` process (SQLite in a temporary folder, every action committed before it
is broadcast) is started; this process opens two WebSockets per table and plays both seats with
random legal intents as fast as the server answers. Printed: actions per second and the latency
from sending an action to receiving its broadcast (p50/p99): first 1 table playing as fast as it
can (the baseline, measured in the same run), then N tables whose players think between moves so
that together they offer --rate actions/s (the goal's load), then the same N tables with no
thinking at all (the saturation throughput; latency is then queueing, and the client, which shares
the 2 cores, is part of the limit). The client pauses its own garbage collector while measuring. Bounded in tables and seconds; stops itself.

    python bench/bench_server.py [--tables 200] [--seconds 10] [--rate 600] [--game shave-a-sheep|dolly-crush|mixed]

Goal on a 2-core machine: 200 tables, >= 500 actions/s, p99 <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

SWAPS = [(f"{r}{c}", f"{r}{c + 1}") for r in "abc" for c in range(1, 5)] + [
    (f"{r}{c}", f"{s}{c}") for r, s in (("a", "b"), ("b", "c")) for c in range(1, 6)
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def intent(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    if view["finished"]:
        return None
    if view["game"] == "dolly-crush":
        if view["to_move"] != seat:
            return None
        dog = rng.choice(view["dogs_left"][seat])
        n = view["dog_swaps"][seat][dog]
        return {"type": "turn", "dog": dog, "swaps": [list(rng.choice(SWAPS)) for _ in range(n)]}
    if view["phase"] == "roll" and view["turn"] == seat:
        return {"type": "roll"}
    if view["to_move"] == seat and view["legal_actions"]:
        return {"type": "act", "action": rng.choice(view["legal_actions"])}
    return None


class Stats:
    def __init__(self) -> None:
        self.lat: list[float] = []
        self.actions = 0
        self.errors = 0
        self.games_done = 0
        self.measuring = False


async def seat_player(
    ws: Any, seat: int, stats: Stats, rng: random.Random, stop: asyncio.Event, think: float
) -> None:
    sent_at: float | None = None
    sent_seq = -1
    async for text in ws:
        if stop.is_set():
            return
        m = json.loads(text)
        if m["type"] == "error":
            stats.errors += 1
            sent_at = None
        if m["type"] != "state":
            continue
        if sent_at is not None and m["seq"] > sent_seq:
            if stats.measuring:
                stats.lat.append(time.perf_counter() - sent_at)
                stats.actions += 1
            sent_at = None
        if m["view"]["finished"]:
            if seat == 0 and stats.measuring:
                stats.games_done += 1
            return
        if sent_at is None:
            msg = intent(m["view"], seat, rng)
            if msg is not None:
                if think:  # a player takes a moment (the latency counts from the send)
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at, sent_seq = time.perf_counter(), m["seq"]
                await ws.send(json.dumps(msg))


async def table_loop(
    base: str,
    game: str,
    idx: int,
    stats: Stats,
    stop: asyncio.Event,
    ready: asyncio.Event,
    http: httpx.AsyncClient,
    connected: list[int],
    think: float,
) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(idx)
    first = True
    while not stop.is_set():
        g = game if game != "mixed" else ("dolly-crush" if idx % 2 else "shave-a-sheep")
        spec: dict[str, Any] = {"game": g, "seats": [{}, {}]}
        t = (await http.post("/api/tables", json=spec)).json()
        tokens = [
            (await http.post(f"/api/tables/{t['id']}/join", json={"name": f"b{s}"})).json()["token"]
            for s in range(2)
        ]
        url = base.replace("http", "ws") + f"/ws/{t['id']}"
        async with connect(url, max_size=1 << 22) as w0, connect(url, max_size=1 << 22) as w1:
            for w, tok in ((w0, tokens[0]), (w1, tokens[1])):
                await w.recv()  # the spectator view
                await w.send(json.dumps({"type": "hello", "token": tok}))
            if first:
                connected[0] += 1
                first = False
                await ready.wait()
            await asyncio.gather(
                seat_player(w0, 0, stats, rng, stop, think),
                seat_player(w1, 1, stats, rng, stop, think),
            )


async def phase(base: str, tables: int, seconds: float, game: str, rate: float = 0.0) -> Stats:
    """``rate``: total actions/s offered (a think time per table); 0 = as fast as possible."""
    think = tables / rate if rate > 0 else 0.0
    stats = Stats()
    stop, ready = asyncio.Event(), asyncio.Event()
    connected = [0]
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        tasks = [
            asyncio.create_task(
                table_loop(base, game, i, stats, stop, ready, http, connected, think)
            )
            for i in range(tables)
        ]
        t0 = time.perf_counter()
        while connected[0] < tables and time.perf_counter() - t0 < 120:
            await asyncio.sleep(0.05)
            for t in tasks:
                if t.done() and t.exception():
                    raise t.exception()  # type: ignore[misc]
        ready.set()
        await asyncio.sleep(0.5)  # warm-up
        # This client's own garbage collector would pause its loop for tens of ms and count
        # as server latency: it is paused while measuring (the server's is not touched).
        gc.collect()
        gc.disable()
        stats.measuring = True
        start = time.perf_counter()
        await asyncio.sleep(seconds)
        stats.measuring = False
        gc.enable()
        stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def report(label: str, s: Stats) -> dict[str, float]:
    lat = sorted(s.lat)
    el = getattr(s, "elapsed", 1.0)
    p = (
        (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000)
        if lat
        else (lambda q: float("nan"))
    )
    out = {"actions_per_s": s.actions / el, "p50_ms": p(0.50), "p99_ms": p(0.99)}
    print(
        f"{label:<22} {s.actions:>7} actions in {el:5.1f} s = {out['actions_per_s']:7.0f} actions/s   "
        f"latency p50 {out['p50_ms']:6.1f} ms  p99 {out['p99_ms']:6.1f} ms   "
        f"games finished {s.games_done}, errors {s.errors}",
        flush=True,
    )
    return out


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
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    tmp = tempfile.mkdtemp(prefix="sheepfold-bench-")
    db = args.db or os.path.join(tmp, "bench.db")
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sheepfold.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            "0",
            "--no-limits",  # every table and socket of the load comes from one address
        ],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a cold numba cache: serve warms the bots first
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                print("the server did not start")
                return 1
            time.sleep(0.1)
        print(
            f"server: sheepfold serve (1 process) on 127.0.0.1, db {db.split('@')[-1]}; "
            f"client: this process (asyncio); {os.cpu_count()} cores shared",
            flush=True,
        )
        base_stats = report(
            "baseline: 1 table", asyncio.run(phase(base, 1, min(args.seconds, 5.0), args.game))
        )
        load = report(
            f"load: {args.tables} tables",
            asyncio.run(phase(base, args.tables, args.seconds, args.game, args.rate)),
        )
        report(
            f"saturated: {args.tables}",
            asyncio.run(phase(base, args.tables, min(args.seconds, 5.0), args.game)),
        )
        goal = load["actions_per_s"] >= 500 and load["p99_ms"] <= 50
        print(
            f"goal (200 tables, >= 500 actions/s, p99 <= 50 ms): {'met' if goal and args.tables >= 200 else 'not met'}"
            f"; baseline p50 {base_stats['p50_ms']:.1f} ms",
            flush=True,
        )
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
