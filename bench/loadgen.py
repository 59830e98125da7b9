"""The web benchmarks' load: bot-vs-bot tables played over WebSockets, and what it measured.

Shared by bench_server.py (one ``sheepfold serve``), bench_cluster.py (1, 2, 3 processes behind
haproxy) and bench_abuse.py. Each table is made and joined over HTTP, then two WebSockets play
both seats with random legal intents; a phase measures, over its seconds: actions per second,
the latency from an action's send to its broadcast (p50/p99), the **servers' own CPU time per
action** (read from /proc/PID/stat of each server process before and after: what the servers
cost, whatever else the machine runs), this client's CPU per action, and the machine's load
average. The client pauses its own garbage collector while measuring, and runs on uvloop and
reads with orjson where they are installed (``run``, ``loads``): on two shared cores the client
is part of the limit, and the cheaper it is the more of the cores the servers get.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import resource
import socket
import subprocess
import time
from collections.abc import Callable
from typing import Any

import httpx

try:
    from orjson import loads
except ImportError:
    loads = json.loads


def run(coro: Any) -> Any:
    """``coro`` run to its end on a new event loop: uvloop's where it is installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def client_loop() -> str:
    """The event loop ``run`` uses, in words."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


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


def started(base: str, proc: subprocess.Popen[bytes], seconds: float = 300) -> bool:
    """Whether the server at ``base`` answers ``/healthz`` within ``seconds`` (a cold numba cache:
    serve warms the bots first), polled; False at once if its process ``proc`` ended."""
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    return False


def warmed(base: str, seconds: float = 900) -> bool:
    """Whether the server at ``base`` has its bots' compiled code ready within ``seconds``
    (``/api/games``: no game's bots ``preparing``), polled. A server compiles them in the
    background (a child process on a cold cache, then a thread of its own loads them: seconds
    of its CPU): measured before, that CPU would be counted as the actions'."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            games = httpx.get(base + "/api/games", timeout=10).json()
            if not any(g.get("preparing") for g in games.values()):
                return True
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.5)
    return False


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after "pid (name)": the state first, the parent second,
    then (from index 11) utime, stime, cutime and cstime in clock ticks (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) process ``pid`` has used so far (Linux)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def tree_cpu(pid: int) -> float:
    """CPU seconds process ``pid`` and its descendants have used so far: its own, its reaped
    children's (the kernel adds them to it) and its live descendants' (PostgreSQL's backends),
    from one pass over /proc (Linux)."""
    procs: dict[int, tuple[int, float]] = {}  # pid -> (its parent, its CPU seconds)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                fields = _stat(entry.name)
            except (FileNotFoundError, ProcessLookupError):  # it ended meanwhile
                continue
            ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
            procs[int(entry.name)] = (int(fields[1]), ticks / CLOCK_TICKS)
    children: dict[int, list[int]] = {}
    for p, (parent, _) in procs.items():
        children.setdefault(parent, []).append(p)
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += procs[p][1] if p in procs else 0.0
        todo += children.get(p, [])
    return total


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Stats:
    def __init__(self) -> None:
        self.lat: list[float] = []
        self.actions = 0
        self.errors = 0
        self.games_done = 0
        self.measuring = False
        self.elapsed = 1.0
        self.server_cpu = 0.0  # seconds of the servers' CPU while measuring
        self.client_cpu = 0.0
        self.others_cpu: dict[str, float] = {}  # seconds of each of ``phase``'s ``others``
        self.load = 0.0  # the machine's 1-minute load average at the end


async def seat_player(
    ws: Any, seat: int, stats: Stats, rng: random.Random, stop: asyncio.Event, think: float
) -> None:
    sent_at: float | None = None
    sent_seq = -1
    async for text in ws:
        if stop.is_set():
            return
        m = loads(text)
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


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` posted to ``path``, its JSON answer. A kept-alive connection the server closed
    as it was reused (its keep-alive ran out: a busy machine) is retried on a new one."""
    for attempt in range(5):
        try:
            r = await http.post(path, json=body)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.05 * (attempt + 1))
            continue
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out
    raise AssertionError("unreachable")


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
        t = await post(http, "/api/tables", {"game": g, "seats": [{}, {}]})
        tokens = [
            (await post(http, f"/api/tables/{t['id']}/join", {"name": f"b{s}"}))["token"]
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


async def phase(
    base: str,
    pids: list[int],
    tables: int,
    seconds: float,
    game: str,
    rate: float = 0.0,
    others: dict[str, Callable[[], float]] | None = None,
) -> Stats:
    """``tables`` tables played through ``base`` for ``seconds`` (after all are seated and a
    warm-up), the CPU of the server processes ``pids`` counted, and that of each of ``others``
    (a name and a reader of CPU seconds so far: the balancer, the database). ``rate``: total
    actions/s offered (a think time per table); 0 = as fast as possible."""
    others = others or {}
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
        try:
            t0 = time.perf_counter()
            while connected[0] < tables and time.perf_counter() - t0 < 120:
                await asyncio.sleep(0.05)
                for t in tasks:
                    if t.done() and t.exception():
                        raise t.exception()  # type: ignore[misc]
            ready.set()
            await asyncio.sleep(0.5)  # warm-up
            # This client's own garbage collector would pause its loop for tens of ms and
            # count as server latency: it is paused while measuring (the servers' is not).
            gc.collect()
            gc.disable()
            stats.measuring = True
            start, server0, client0 = time.perf_counter(), servers_cpu(pids), own_cpu()
            others0 = {name: read() for name, read in others.items()}
            await asyncio.sleep(seconds)
            stats.measuring = False
            stats.elapsed = time.perf_counter() - start
            stats.server_cpu = servers_cpu(pids) - server0
            stats.client_cpu = own_cpu() - client0
            stats.others_cpu = {name: read() - others0[name] for name, read in others.items()}
            stats.load = os.getloadavg()[0]
        finally:
            gc.enable()
            stop.set()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def servers_cpu(pids: list[int]) -> float:
    return sum(process_cpu(p) for p in pids)


def percentile(lat: list[float], q: float) -> float:
    """The ``q`` quantile of sorted latencies, in ms (nan when there are none)."""
    return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")


def report(label: str, s: Stats) -> dict[str, float]:
    lat = sorted(s.lat)
    per_action = 1000 / s.actions if s.actions else float("nan")
    out = {
        "actions_per_s": s.actions / s.elapsed,
        "p50_ms": percentile(lat, 0.50),
        "p99_ms": percentile(lat, 0.99),
        "server_cpu_ms": s.server_cpu * per_action,
        "server_share": s.server_cpu / s.elapsed,
        "client_cpu_ms": s.client_cpu * per_action,
        **{f"{name}_cpu_ms": v * per_action for name, v in s.others_cpu.items()},
        "load": s.load,
    }
    print(
        f"{label:<19} {out['actions_per_s']:6.0f} actions/s ({s.actions} in {s.elapsed:.1f} s)  "
        f"p50 {out['p50_ms']:5.1f} ms  p99 {out['p99_ms']:6.1f} ms  "
        f"server CPU {out['server_cpu_ms']:.3f} ms/action ({out['server_share']:.0%} of a core)  "
        f"client CPU {s.client_cpu * per_action:.3f} ms/action  "
        + "".join(
            f"{name} CPU {v * per_action:.3f} ms/action  " for name, v in s.others_cpu.items()
        )
        + f"load avg {s.load:.2f}  games {s.games_done}, errors {s.errors}",
        flush=True,
    )
    return out
