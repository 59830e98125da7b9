"""The floor under the web server's CPU per action: a move's I/O alone, no game, no framework.

What `bench_server.py` charges a move with, less everything Python does about the game: a
minimal server (asyncio, on uvloop where installed) reads the move as one masked WebSocket text
frame, commits it as one row of the same actions table (SQLite, WAL, synchronous=NORMAL, the
server's settings) and writes a state message of ``--size`` bytes (the real server's average)
to both of the table's sockets; a client in this process plays N tables at ``--rate`` actions/s
in all, both seats of each over loopback, as the load phase does. Printed: the floor server's
CPU per action (/proc/PID/stat over the measured seconds), as `bench_server.py` prints the
server's. ``--no-commit`` and ``--writes 1`` take a part out, to see what it costs;
``--framework`` puts the socket layer of ``sheepfold serve`` back in (uvicorn's WebSocket
protocol, websockets' parser, the server's direct side), to see what that costs.

    python bench/bench_server_floor.py [--tables 200] [--rate 600] [--seconds 10] [--steady]
                                       [--framework] [--no-commit] [--writes 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect  # noqa: E402
from sqlalchemy.schema import CreateTable  # noqa: E402
from websockets.frames import apply_mask  # noqa: E402

from bench_server import steady  # noqa: E402
from loadgen import client_loop, process_cpu, run  # noqa: E402
from sheepfold.server.connections import text_frame  # noqa: E402
from sheepfold.server.storage import actions_t  # noqa: E402

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def client_frame(data: bytes) -> bytes:
    """One text frame from a client: masked, as a browser sends it."""
    mask, n = os.urandom(4), len(data)
    head = bytes((0x81, 0x80 | n)) if n < 126 else bytes((0x81, 0xFE)) + n.to_bytes(2, "big")
    return head + mask + apply_mask(data, mask)


def serve(port_file: str, size: int, commit: bool, writes: int, framework: bool) -> None:
    """The floor server: each move read, committed, and its message written to both seats.

    ``framework``: the sockets are uvicorn's WebSocket protocol with the server's direct side
    (server/connections.py: the handshake, websockets' parser, ``Direct.write``), as
    ``sheepfold serve`` has them; else a plain asyncio protocol reads the frames itself."""
    db = sqlite3.connect(os.path.join(tempfile.mkdtemp(prefix="sheepfold-floor-"), "f.db"))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(str(CreateTable(actions_t).compile(dialect=sqlite_dialect())))  # the server's
    tables: dict[int, list[Any]] = {}  # id -> [seat 0's send, seat 1's, actions so far]
    pad = b'{"type":"state","pad":"' + b"x" * max(0, size - 40) + b'","seq":'

    def move(me: list[Any], msg: dict[str, Any], send: Callable[[bytes], Any]) -> None:
        """One message of a socket (``me``: [its table]); ``send`` writes a message to it."""
        if "hello" in msg:  # which table and seat this socket plays
            me[0] = tables.setdefault(msg["hello"], [None, None, 0])
            me[0][msg["seat"]] = send
            return
        t, seat = me[0], msg["seat"]
        idx, t[2] = t[2], t[2] + 1
        if commit:
            db.execute("INSERT INTO sf_actions VALUES (?, ?, ?, ?)", (msg["t"], idx, seat, 0))
            db.commit()
        out = pad + str(idx).encode() + b"}"
        for s in (seat, 1 - seat)[:writes]:
            t[s](out)

    if framework:
        serve_uvicorn(port_file, move)
        return

    class Move(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.buf, self.me = b"", [None]
            self.send = lambda data: transport.write(text_frame(data))

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
                move(self.me, json.loads(apply_mask(body, mask)), self.send)

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Move, "127.0.0.1", 0)
        Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
        await asyncio.Event().wait()

    run(main())


def serve_uvicorn(port_file: str, move: Callable[..., None]) -> None:
    """``move`` behind uvicorn's WebSocket protocol and the server's direct side: a minimal
    ASGI app (no FastAPI, no table) whose socket hands each text to ``move`` on the loop's
    own turn and writes with ``Direct.write``, as ``sheepfold serve``'s table sockets do."""
    import uvicorn

    from sheepfold.server.broadcast import DIRECT
    from sheepfold.server.connections import ConnectionLimits, uvicorn_config

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await receive()  # websocket.connect
        direct, me = scope["extensions"][DIRECT], [None]
        write = direct.write

        def send_(data: bytes) -> None:
            write(data.decode())

        direct.on_message = lambda text: move(me, json.loads(text), send_)
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    Path(port_file).write_text(str(sock.getsockname()[1]))
    config = uvicorn_config(app, "127.0.0.1", 0, ConnectionLimits().lifted())
    uvicorn.Server(config).run(sockets=[sock])


async def load(port: int, pid: int, args: argparse.Namespace) -> tuple[int, float, float]:
    """N tables playing at the offered rate; the moves and the server's CPU seconds measured."""
    think, counting, moves = args.tables / args.rate, False, 0

    async def table(i: int) -> None:
        nonlocal moves
        socks = [await asyncio.open_connection("127.0.0.1", port) for _ in (0, 1)]
        if args.framework:  # the WebSocket handshake (the raw floor reads frames at once)
            for r, w in socks:
                w.write(HANDSHAKE)
                await r.readuntil(b"\r\n\r\n")
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
    ap.add_argument(
        "--framework", action="store_true", help="uvicorn's WebSocket protocol, as the server"
    )
    ap.add_argument("--steady", action="store_true", help="idle-class spinners on every core")
    ap.add_argument("--serve", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.tables = max(1, min(args.tables, 1000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    args.size = max(64, min(args.size, 60_000))
    if args.serve:
        serve(args.serve, args.size, args.commit, args.writes, args.framework)
        return 0
    port_file = os.path.join(tempfile.mkdtemp(prefix="sheepfold-floor-"), "port")
    cmd = [sys.executable, __file__, "--serve", port_file, "--size", str(args.size)]
    cmd += ["--writes", str(args.writes)] + ([] if args.commit else ["--no-commit"])
    cmd += ["--framework"] if args.framework else []
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
        f"floor ({'uvicorn, ' if args.framework else ''}"
        f"{'commit' if args.commit else 'no commit'}, {args.writes} write(s) of "
        f"{args.size} B; client {client_loop()}): {args.tables} tables, {done / took:.0f} "
        f"actions/s, server CPU {1000 * spent / max(done, 1):.3f} ms/action, load average "
        f"{os.getloadavg()[0]:.2f}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
