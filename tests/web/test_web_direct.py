"""The table's WebSocket on its direct side (issue 32): messages read and written on the event
loop's own turn, without the ASGI round trip, in the order they came, and a burst left to the
queue as before."""

from __future__ import annotations

import asyncio
import gc
import json
import os
from typing import Any

from fastapi.testclient import TestClient
from test_web_connections import Raw, _frames, _ws_handshake

from polling import run_async, wait_until
from sheepfold.server.app import GC_YOUNG, create_app
from sheepfold.server.broadcast import Conn
from sheepfold.server.connections import DIRECT_BURST, Direct


def _masked(payload: bytes, opcode: int = 0x1) -> bytes:
    """One client frame (masked, as a client must), payload under 126 bytes."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


def _texts(s: Raw, count: int) -> list[dict[str, Any]]:
    """The next ``count`` text messages the server sent on ``s``."""
    got: list[dict[str, Any]] = []

    def more() -> bool:
        s.poll()
        got.extend(json.loads(p) for op, p in _frames(s) if op == 0x1)
        return len(got) >= count

    wait_until(more, what=f"{count} messages from the server")
    return got


def test_a_burst_in_one_read_is_answered_in_order(make_server):
    srv = make_server()
    table = srv.create(game="dolly-crush", seats=[{}, {}])["id"]
    s = _ws_handshake(srv, f"/ws/{table}")
    try:
        assert _texts(s, 1)[0]["type"] == "state"  # the watcher's first view
        # three times what is handled on the spot, in one write: the rest goes through the
        # queue, and every answer keeps its place
        count = 3 * DIRECT_BURST
        burst = b"".join(
            _masked(json.dumps({"type": "ping", "ref": i}).encode()) for i in range(count)
        )
        assert s.send(
            burst + _masked(b"\x00\x01", opcode=0x2) + _masked(b'{"type":"ping","ref":-1}')
        )
        answers = _texts(s, count + 2)
        assert [a["ref"] for a in answers[:count]] == list(range(count))
        assert answers[count]["type"] == "error" and "binary" in answers[count]["message"]
        assert answers[count + 1] == {"type": "pong", "ref": -1}
        # a later message, alone in its read, is handled on the spot again
        assert s.send(_masked(b'{"type":"ping","ref":"again"}'))
        assert _texts(s, 1) == [{"type": "pong", "ref": "again"}]
    finally:
        s.close()


def test_the_table_socket_reads_and_writes_on_its_direct_side(make_server):
    srv = make_server()
    table = srv.create(game="dolly-crush", seats=[{}, {}])["id"]
    s = _ws_handshake(srv, f"/ws/{table}")
    try:
        _texts(s, 1)
        conns = list(srv.manager.tables[table].conns)
        assert len(conns) == 1
        direct = getattr(conns[0]._write, "__self__", None)
        assert isinstance(direct, Direct)
        assert direct.on_message is not None  # its messages are read on the spot
    finally:
        s.close()
    wait_until(lambda: not srv.manager.tables[table].conns, what="the socket to be detached")
    assert direct.on_message is None  # let go with the connection


def test_a_connection_writes_at_once_only_when_nothing_waits_before_it():
    async def scenario() -> tuple[list[str], list[str]]:
        written: list[str] = []
        sent: list[str] = []
        gate = asyncio.Event()
        accept = [True]

        async def send(text: str) -> None:
            await gate.wait()
            sent.append(text)

        def write(text: str) -> bool:
            if accept[0]:
                written.append(text)
            return accept[0]

        conn = Conn(send, write=write)
        task = asyncio.get_running_loop().create_task(conn.writer())
        conn.push("a")  # written at once
        accept[0] = False
        conn.push("b")  # the socket cannot take it now: queued
        await asyncio.sleep(0)  # the writer holds "b", waiting to send it
        accept[0] = True
        conn.push("c")  # writable again, but "b" is not out yet: behind it
        assert conn.queue.qsize() == 1
        gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        conn.push("d")  # nothing waits any more: at once
        conn.close()
        await asyncio.wait_for(task, 5)
        return written, sent

    got: list[tuple[list[str], list[str]]] = []

    async def keep() -> None:
        got.append(await scenario())

    run_async(keep())  # a thread of its own: a browser test may have left a loop running here
    written, sent = got[0]
    assert written == ["a", "d"]
    assert sent == ["b", "c"]


def test_the_server_collects_its_young_generation_less_often(tmp_path):
    before = gc.get_threshold()
    try:
        with TestClient(create_app(str(tmp_path / "t.db"))):
            assert gc.get_threshold()[0] == GC_YOUNG
    finally:
        gc.set_threshold(*before)
