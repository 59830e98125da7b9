"""The floor under the web server's CPU per action: a move's I/O alone, no game, no framework.

What `bench_server.py` charges a move with, less everything Python does about the game: a
minimal server (asyncio, on uvloop where installed) reads the move as one masked WebSocket text
frame, commits it as one row of the same actions table (SQLite, WAL, synchronous=NORMAL, the
server's settings) and writes a state message of ``--size`` bytes (the real server's average)
to both of the table's sockets; a client in this process plays N tables at ``--rate`` actions/s
in all, both seats of each over loopback, as the load phase does. Printed: the floor server's
CPU per action (/proc/PID/stat over the measured seconds), as `bench_server.py` prints the
server's. ``--no-commit`` and ``--writes 1`` take a part out, to see what it costs.

    python bench/bench_server_floor.py [--tables 200] [--rate 600] [--seconds 10] [--steady]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from websockets.frames import apply_mask  # noqa: E402

from bench_server import steady  # noqa: E402
from loadgen import client_loop, process_cpu, run  # noqa: E402
from sheepfold.server.connections import text_frame  # noqa: E402


def client_frame(data: bytes) -> bytes:
    """One text frame from a client: masked, as a browser sends it."""
    mask, n = os.urandom(4), len(data)
    head = bytes((0x81, 0x80 | n)) if n < 126 else bytes((0x81, 0xFE)) + n.to_bytes(2, "big")
    return head + mask + apply_mask(data, mask)


def serve(port_file: str, size: int, commit: bool, writes: int) -> None:
    """The floor server: each move read, committed, and its message written to both seats."""
    db = sqlite3.connect(os.path.join(tempfile.mkdtemp(prefix="sheepfold-floor-"), "f.db"))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(
        "CREATE TABLE sf_actions (table_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, seat "
        "INTEGER NOT NULL, action INTEGER NOT NULL, PRIMARY KEY (table_id, idx)) WITHOUT ROWID"
    )
    tables: dict[int, list[Any]] = {}  # id -> [seat 0's protocol, seat 1's, actions so far]
    pad = b'{"type":"state","pad":"' + b"x" * max(0, size - 40) + b'","seq":'

    class Move(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport, self.buf, self.table = transport, b"", [None, None, 0]

        def data_received(self, data: bytes) -> None:
            self.buf += data
            while len(self.buf) >= 6:
                n, at = self.buf[1] & 0x7F, 2
                if n == 126:
                    n, at = int.from_bytes(self.buf[2:4], "big"), 4
                if len(self.buf) < at + 4 + n:
                    return
                mask, body = self.buf[at : at + 4], self.buf[at + 4 : at + 4 + n]
                self.buf = self.buf[at + 4 + n :]
                self.move(json.loads(apply_mask(body, mask)))

        def move(self, msg: dict[str, Any]) -> None:
            if "hello" in msg:  # which table and seat this socket plays
                self.table = tables.setdefault(msg["hello"], [None, None, 0])
                self.table[msg["seat"]] = self
                return
            t, seat = self.table, msg["seat"]
            idx, t[2] = t[2], t[2] + 1
            if commit:
                db.execute("INSERT INTO sf_actions VALUES (?, ?, ?, ?)", (msg["t"], idx, seat, 0))
                db.commit()
            out = text_frame(pad + str(idx).encode() + b"}")
            for s in (seat, 1 - seat)[:writes]:
                t[s].transport.write(out)

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Move, "127.0.0.1", 0)
        Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
        await asyncio.Event().wait()

    run(main())


async def load(port: int, pid: int, args: argparse.Namespace) -> tuple[int, float, float]:
    """N tables playing at the offered rate; the moves and the server's CPU seconds measured."""
    think, counting, moves = args.tables / args.rate, False, 0

    async def table(i: int) -> None:
        nonlocal moves
        socks = [await asyncio.open_connection("127.0.0.1", port) for _ in (0, 1)]
        for seat, (_, w) in enumerate(socks):
            w.write(client_frame(json.dumps({"hello": i, "seat": seat}).encode()))
        rng = random.Random(i)
        while True:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            seat = rng.randrange(2)
            msg = {"type": "act", "t": f"table{i:06d}", "seat": seat, "action": "grow"}
            socks[seat][1].write(client_frame(json.dumps(msg).encode()))
            for r, _ in (socks[seat], socks[1 - seat])[: args.writes]:
                n = (await r.readexactly(2))[1] & 0x7F
                if n == 126:
                    n = int.from_bytes(await r.readexactly(2), "big")
                await r.readexactly(n)
            if counting:
                moves += 1

    tasks = [asyncio.create_task(table(i)) for i in range(args.tables)]
    await asyncio.sleep(3)  # every table connected and playing
    counting, c0, t0 = True, process_cpu(pid), time.monotonic()
    await asyncio.sleep(args.seconds)
    spent, took, done = process_cpu(pid) - c0, time.monotonic() - t0, moves
    for t in tasks:
        t.cancel()
    return done, took, spent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rate", type=float, default=600.0, help="actions/s offered in all")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--size", type=int, default=1750, help="bytes of each state message")
    ap.add_argument("--no-commit", dest="commit", action="store_false", help="no SQLite commit")
    ap.add_argument("--writes", type=int, choices=[1, 2], default=2, help="sockets written")
    ap.add_argument("--steady", action="store_true", help="idle-class spinners on every core")
    ap.add_argument("--serve", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    args.size = max(64, min(args.size, 60_000))
    if args.serve:
        serve(args.serve, args.size, args.commit, args.writes)
        return 0
    port_file = os.path.join(tempfile.mkdtemp(prefix="sheepfold-floor-"), "port")
    cmd = [sys.executable, __file__, "--serve", port_file, "--size", str(args.size)]
    cmd += ["--writes", str(args.writes)] + ([] if args.commit else ["--no-commit"])
    with steady(args.steady):
        server = subprocess.Popen(cmd)
        try:
            while not (os.path.exists(port_file) and Path(port_file).read_text()):
                if server.poll() is not None:
                    print("the floor server did not start")
                    return 1
                time.sleep(0.05)
            done, took, spent = run(load(int(Path(port_file).read_text()), server.pid, args))
        finally:
            server.kill()
            server.wait()
    print(
        f"floor ({'commit' if args.commit else 'no commit'}, {args.writes} write(s) of "
        f"{args.size} B; client {client_loop()}): {args.tables} tables, {done / took:.0f} "
        f"actions/s, server CPU {1000 * spent / max(done, 1):.3f} ms/action, load average "
        f"{os.getloadavg()[0]:.2f}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
