"""Crash test: a real server process is killed with SIGKILL in the middle of games, restarted on
the same database, and every table is exactly where it was: no acknowledged action is missing."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from test_web_api import dolly_turn

from polling import wait_until
from sheepfold.server.storage import Storage
from sheepfold.server.tables import TableManager

SERVING = re.compile(r"serving at http://[^\s/]+:(\d+)/")


def start_server(db: str, name: str, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """`sheepfold serve --port 0` on ``db`` (and ``extra`` options): the process, and the port
    it printed."""
    log_path = f"{db}.{name}.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sheepfold.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            db,
            "--bot-delay",
            "0",
            "--dev-seeds",
            "--no-limits",  # ten clients on one address play as fast as they can
            "--race-timeout",
            "0.3",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    log.close()
    printed: list[str] = []

    def read() -> None:  # keeps reading to the end, so the server never blocks on its stdout
        assert proc.stdout is not None
        for line in proc.stdout:
            printed.append(line)

    threading.Thread(target=read, daemon=True).start()

    def address() -> re.Match[str] | None:
        return next(filter(None, (SERVING.search(line) for line in printed)), None)

    try:
        found = wait_until(
            lambda: address() or proc.poll() is not None,
            what="the server to print its address",
            timeout=300,  # a cold numba cache: it warms the bots' compiled code first
        )
    except AssertionError:
        proc.kill()
        proc.wait()
        raise
    if not isinstance(found, re.Match):
        raise RuntimeError(open(log_path).read() or "the server died")
    port = int(found.group(1))
    assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
    return proc, port


@pytest.fixture
def serve() -> Iterator[Callable[[str, str], tuple[subprocess.Popen[str], int]]]:
    """start_server, and every server it started is killed at the end, whatever happened."""
    started: list[subprocess.Popen[str]] = []

    def start(db: str, name: str) -> tuple[subprocess.Popen[str], int]:
        proc, port = start_server(db, name)
        started.append(proc)
        return proc, port

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def intent(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    if view["finished"]:
        return None
    if view["game"] == "dolly-crush":
        return dolly_turn(view, seat, rng) if view["to_move"] == seat else None
    if view["phase"] == "roll" and view["turn"] == seat:
        return {"type": "roll"}
    if view["phase"] == "grab":
        return {"type": "grab"}
    if view["to_move"] == seat and view["legal_actions"]:
        return {"type": "act", "action": rng.choice(view["legal_actions"])}
    return None


def player(client: Any, seat: int, rng: random.Random, stop: threading.Event) -> None:
    """Play while the server lives; every state message received is kept in client.received."""
    try:
        while not stop.is_set():
            st = client.last_state
            assert st is not None
            msg = intent(st["view"], seat, rng)
            if msg is not None:
                client.send(msg)
            try:
                client.recv(timeout=0.5)
            except TimeoutError:
                pass
    except Exception:  # the server was killed under us
        return


def rebuild(db: str) -> dict[str, Any]:
    st = Storage(db)
    rows = {r.id: r for r in st.load_all()}
    st.close()
    return rows


def state_at(row: Any, n: int) -> Any:
    game = TableManager.make_game(row.game, row.players, row.config)
    s = TableManager.new_state(game, row.seed)
    for _, a in row.actions[:n]:
        s.apply(a)
    return s


def view_at(row: Any, n: int, seat: int) -> Any:
    """What a seat is sent at position ``n`` of a stored table: its game's table driver's view
    of the state rebuilt from the database (the state's ``observe`` and the move's words)."""
    from sheepfold.core.drivers import table_driver

    show = bool(row.config.get("show_scores", True))
    return table_driver(row.game).view(state_at(row, n), seat, show)


@pytest.mark.slow  # real server processes killed and restarted: seconds
def test_kill_9_mid_games_and_restart(tmp_path, ws_client, serve):
    import json

    db = str(tmp_path / "crash.db")
    proc, port = serve(db, "first")
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    specs = [
        {"game": "dolly-crush", "seats": [{}, {}], "seed": 100},
        {
            "game": "dolly-crush",
            "seats": [{}, {}],
            "seed": 101,
            "breeds": ["bobtail", "border-collie"],
        },
        {"game": "shave-a-sheep", "seats": [{}, {}], "seed": 102},
        {
            "game": "shave-a-sheep",
            "ruleset": "howling-wolf",
            "seats": [{}, {}, {"kind": "bot"}],
            "seed": 103,
        },
        {
            "game": "shave-a-sheep",
            "ruleset": "my-friend-mr-wolf",
            "seats": [{}, {"kind": "bot"}],
            "seed": 104,
        },
    ]
    seats: list[tuple[str, int, str]] = []  # (table, seat, token)
    for sp in specs:
        t = http.post("/api/tables", json=sp).json()
        for s in t["seats"]:
            if s["kind"] == "human":
                j = http.post(f"/api/tables/{t['id']}/join", json={"name": f"p{s['seat']}"}).json()
                seats.append((t["id"], j["seat"], j["token"]))
    clients = [
        (tid, seat, tok, ws_client(f"ws://127.0.0.1:{port}/ws/{tid}", tok))
        for tid, seat, tok in seats
    ]
    stop = threading.Event()
    threads = [
        threading.Thread(target=player, args=(c, seat, random.Random(i), stop), daemon=True)
        for i, (_, seat, _, c) in enumerate(clients)
    ]
    for th in threads:
        th.start()
    # let the games run, then kill the server in the middle of them
    wait_until(
        lambda: min(c.last_state["seq"] for *_, c in clients) > 20,
        what="every table to get past 20 actions",
    )
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    stop.set()
    for th in threads:
        th.join(5)
    http.close()
    for *_, c in clients:
        try:
            c.close()
        except Exception:
            pass

    # every state a client was told about is in the database, exactly
    rows = rebuild(db)
    acked = 0
    for tid, _seat, _, c in clients:
        row = rows[tid]
        states = [json.loads(t) for t in c.received]
        states = [m for m in states if m["type"] == "state"]
        assert states
        for m in states:
            assert len(row.actions) >= m["seq"], "an acknowledged action is missing"
            assert view_at(row, m["seq"], m["you"]) == m["view"]
        acked = max(acked, states[-1]["seq"])
    assert acked > 20
    unfinished = [tid for tid, r in rows.items() if not r.finished]
    assert unfinished, "the kill came after every game had ended"

    # restart on the same database: every table is where it was, and the games go on to the end
    proc2, port2 = serve(db, "restarted")
    new_clients: list[tuple[str, int, str, Any]] = []
    try:
        rows = rebuild(db)  # a restarted bot may already have moved; compare with the DB now
        for tid, seat, tok in seats:
            c = ws_client(f"ws://127.0.0.1:{port2}/ws/{tid}", tok)
            m = c.last_state
            assert m is not None and m["you"] == seat
            new_clients.append((tid, seat, tok, c))
        stop2 = threading.Event()
        threads = [
            threading.Thread(
                target=player, args=(c, seat, random.Random(50 + i), stop2), daemon=True
            )
            for i, (_, seat, _, c) in enumerate(new_clients)
        ]
        for th in threads:
            th.start()
        wait_until(
            lambda: all(c.last_state["view"]["finished"] for *_, c in new_clients),
            what="every game to end after the restart",
            timeout=90,
        )
        stop2.set()
        for th in threads:
            th.join(5)
        final = rebuild(db)
        for tid, seat, _, c in new_clients:
            row = final[tid]
            assert row.finished
            assert len(row.actions) >= len(rows[tid].actions)
            assert row.actions[: len(rows[tid].actions)] == rows[tid].actions  # nothing rewritten
            end = state_at(row, len(row.actions))
            assert end.is_terminal() and end.observe(seat) == c.last_state["view"]
    finally:
        for *_, c in new_clients:
            c.close()
        proc2.send_signal(signal.SIGTERM)
        try:
            proc2.wait(10)
        except subprocess.TimeoutExpired:
            proc2.kill()
