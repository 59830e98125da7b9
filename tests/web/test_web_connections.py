"""No visitor can hold the server's connections: a cap per client address on open connections
and WebSockets, deadlines for a request's head and body, WebSocket pings, and the open-files
limit raised at start. Attackers connect from 127.0.0.2, honest visitors from 127.0.0.3."""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from typing import Any

import httpx
import pytest

from polling import wait_until
from sheepfold.server.connections import (
    ConnectionLimits,
    client_key,
    guard_of,
    raise_open_files_limit,
)

ATTACKER, HONEST = "127.0.0.2", "127.0.0.3"


class Raw:
    """A raw TCP connection from ``source``, read without blocking: what came, and whether the
    server closed it (and when the test saw that)."""

    def __init__(self, port: int, source: str) -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=(source, 0)
        )
        self.sock.setblocking(False)
        self.opened = time.monotonic()
        self.data = b""
        self.closed_at: float | None = None

    def poll(self) -> bool:
        """Read what arrived; True once the server has closed the connection."""
        while self.closed_at is None:
            try:
                chunk = self.sock.recv(65536)
            except BlockingIOError:
                break
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.closed_at = time.monotonic()
            self.data += chunk
        return self.closed_at is not None

    def send(self, data: bytes) -> bool:
        """Send; False if the server has closed the connection."""
        try:
            self.sock.sendall(data)
            return True
        except (BrokenPipeError, ConnectionResetError, BlockingIOError):
            return False

    def close(self) -> None:
        self.sock.close()


def honest_get(srv: Any, path: str = "/healthz", source: str = HONEST) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=srv.url, transport=transport, timeout=10) as c:
        return c.get(path)


def test_client_addresses_are_counted_per_host_and_per_ipv6_64():
    assert client_key(("127.0.0.2", 5000)) == "127.0.0.2"
    assert client_key(("::ffff:10.0.0.1", 1)) == "10.0.0.1"
    assert client_key(("2001:db8:1:2:aaaa::1", 1)) == client_key(("2001:db8:1:2:bbbb::9", 2))
    assert client_key(("2001:db8:1:2::1", 1)) != client_key(("2001:db8:1:3::1", 1))
    assert client_key(None) is None


def test_limits_are_checked():
    with pytest.raises(ValueError, match="per_client must be at least 1"):
        ConnectionLimits(per_client=0)
    with pytest.raises(ValueError, match="head_timeout must be positive"):
        ConnectionLimits(head_timeout=0)
    lifted = ConnectionLimits(per_client=3, websockets_per_client=2, head_timeout=4).lifted()
    assert (lifted.per_client, lifted.websockets_per_client, lifted.head_timeout) == (None, None, 4)


def test_excess_connections_are_refused_at_once_and_silent_ones_cut_at_the_head_deadline(
    make_server,
):
    deadline = 2.0
    srv = make_server(connections=ConnectionLimits(per_client=5, head_timeout=deadline))
    socks = [Raw(srv.port, ATTACKER) for _ in range(8)]
    try:
        wait_until(
            lambda: sum(s.poll() for s in socks) >= 3, what="the excess connections to be closed"
        )
        # the five within the cap hold it: a sixth client from that address is refused...
        r = honest_get(srv, source=ATTACKER)
        assert r.status_code == 429 and "too many connections" in r.text
        # ...and another address is served
        assert honest_get(srv).json()["ok"] is True
        wait_until(lambda: all(s.poll() for s in socks), what="every silent connection to close")
        refused = [s for s in socks if s.data.startswith(b"HTTP/1.1 429")]
        cut = [s for s in socks if s not in refused]
        assert len(refused) == 3 and len(cut) == 5
        assert all(b"too many connections are open from your address" in s.data for s in refused)
        for s in cut:  # never before the deadline, and nothing said: nothing was asked
            assert s.data == b"" and s.closed_at is not None
            assert s.closed_at - s.opened >= deadline
        assert honest_get(srv, source=ATTACKER).status_code == 200  # the slots are free again
        assert honest_get(srv).status_code == 200
    finally:
        for s in socks:
            s.close()


def _dribble(srv: Any, start: bytes, give_up: float) -> Raw:
    """A slowloris: ``start``, then a header line a byte at a time, until the server closes
    the connection (or ``give_up`` seconds pass); /healthz from another address answers
    throughout."""
    s = Raw(srv.port, ATTACKER)
    assert s.send(start)
    line = b"X-Sheep: " + b"b" * 10_000
    sent = 0
    while not s.poll() and time.monotonic() - s.opened < give_up:
        if not s.send(line[sent % len(line) : sent % len(line) + 1]):
            s.poll()
            break
        sent += 1
        if sent % 20 == 0:
            assert honest_get(srv).status_code == 200
        time.sleep(0.02)  # the attacker's pace, not a wait for a condition
    wait_until(s.poll, what="the server to close the slow connection")
    return s


@pytest.mark.parametrize("kept_alive", [False, True], ids=["fresh", "after-a-request"])
def test_a_slowloris_head_is_cut_at_the_deadline(make_server, kept_alive):
    deadline = 1.5
    srv = make_server(connections=ConnectionLimits(head_timeout=deadline, keep_alive=30))
    start = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
    if kept_alive:  # a complete request first: the next head has its deadline too
        start = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + start
    s = _dribble(srv, start, give_up=30)
    try:
        assert s.closed_at is not None and s.closed_at - s.opened < 30, "never cut"
        assert s.closed_at - s.opened >= deadline
        assert b"408 Request Timeout" in s.data and b"did not arrive in time" in s.data
        assert s.data.count(b"HTTP/1.1 200") == (1 if kept_alive else 0)
    finally:
        s.close()


def test_a_dribbled_body_is_cut_at_its_deadline(make_server):
    deadline = 1.5
    srv = make_server(connections=ConnectionLimits(body_timeout=deadline))
    head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    s = _dribble(srv, head + b"Content-Length: 5000\r\n\r\n", give_up=30)
    try:
        assert s.closed_at is not None and deadline <= s.closed_at - s.opened < 30
        assert b"408 Request Timeout" in s.data
    finally:
        s.close()


def test_an_idle_keep_alive_connection_is_closed(make_server):
    srv = make_server(connections=ConnectionLimits(keep_alive=1))
    s = Raw(srv.port, ATTACKER)
    try:
        assert s.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        wait_until(s.poll, what="the idle keep-alive connection to close", timeout=20)
        assert s.data.startswith(b"HTTP/1.1 200") and s.closed_at - s.opened >= 1
    finally:
        s.close()


# -- WebSockets ----------------------------------------------------------------------------------
def _ws_handshake(srv: Any, path: str, source: str = ATTACKER) -> Raw:
    s = Raw(srv.port, source)
    key = base64.b64encode(os.urandom(16)).decode()
    assert s.send(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    wait_until(lambda: s.poll() or b"\r\n\r\n" in s.data, what="the handshake's answer")
    assert s.data.startswith(b"HTTP/1.1 101"), s.data[:200]
    s.data = s.data.split(b"\r\n\r\n", 1)[1]
    return s


def _frames(s: Raw) -> list[tuple[int, bytes]]:
    """The complete server frames in ``s.data`` (opcode, payload), taken out of it."""
    out = []
    while len(s.data) >= 2:
        op, n, at = s.data[0] & 0x0F, s.data[1] & 0x7F, 2
        if n == 126:
            if len(s.data) < 4:
                break
            n, at = struct.unpack("!H", s.data[2:4])[0], 4
        elif n == 127:
            if len(s.data) < 10:
                break
            n, at = struct.unpack("!Q", s.data[2:10])[0], 10
        if len(s.data) < at + n:
            break
        out.append((op, s.data[at : at + n]))
        s.data = s.data[at + n :]
    return out


def _pong(payload: bytes) -> bytes:
    mask = os.urandom(4)
    return (
        bytes([0x8A, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


def _table(srv: Any) -> str:
    return srv.create(game="dolly-crush", seats=[{}, {}])["id"]


def test_a_websocket_that_stops_answering_pings_is_closed(make_server):
    limits = ConnectionLimits(ws_ping_interval=0.3, ws_ping_timeout=0.5)
    srv = make_server(connections=limits)
    path = f"/ws/{_table(srv)}"
    answering, silent = _ws_handshake(srv, path), _ws_handshake(srv, path)
    try:
        pings = 0  # one answers every ping: it outlives many of them
        while pings < 6:
            assert not answering.poll(), "a WebSocket that answers its pings was closed"
            for op, payload in _frames(answering):
                if op == 0x9:
                    pings += 1
                    assert answering.send(_pong(payload))
            time.sleep(0.02)  # polling the socket: the loop ends on the pings it counts
        wait_until(silent.poll, what="the silent WebSocket to be closed", timeout=20)
        ops = [op for op, _ in _frames(silent)]
        assert 0x9 in ops and ops[-1] == 0x8  # pinged, then closed
        assert not answering.poll()
        assert guard_of(srv.config).websockets[ATTACKER] == 1
    finally:
        answering.close()
        silent.close()


def test_open_websockets_are_capped_per_client(make_server):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    srv = make_server(connections=ConnectionLimits(websockets_per_client=2))
    url = f"{srv.ws_url}/ws/{_table(srv)}"

    def ws(source: str) -> Any:
        return connect(url, open_timeout=10, source_address=(source, 0))

    with ws(ATTACKER) as first, ws(ATTACKER), ws(HONEST):
        with pytest.raises(InvalidStatus) as refused:
            ws(ATTACKER)
        assert refused.value.response.status_code == 429
        assert b"too many live tables" in refused.value.response.body
        assert honest_get(srv, source=ATTACKER).status_code == 200  # plain requests still pass
        first.close()
        wait_until(
            lambda: guard_of(srv.config).websockets[ATTACKER] == 1, what="the closed slot to free"
        )
        with ws(ATTACKER):
            assert guard_of(srv.config).websockets[ATTACKER] == 2


def test_no_limits_lifts_the_per_client_caps(make_server):
    limits = ConnectionLimits(per_client=2, websockets_per_client=1).lifted()
    srv = make_server(connections=limits)
    socks = [Raw(srv.port, ATTACKER) for _ in range(6)]
    try:
        wait_until(
            lambda: guard_of(srv.config).open[ATTACKER] == 6, what="six connections admitted"
        )
        assert not any(s.poll() for s in socks)
        assert honest_get(srv, source=ATTACKER).status_code == 200
    finally:
        for s in socks:
            s.close()


def test_the_total_cap_keeps_files_for_the_database(make_server):
    srv = make_server(connections=ConnectionLimits(total=4))
    socks = [Raw(srv.port, ATTACKER) for _ in range(4)]
    try:
        wait_until(lambda: guard_of(srv.config).total == 4, what="four connections admitted")
        r = honest_get(srv)
        assert r.status_code == 503 and "too many open connections" in r.text
    finally:
        for s in socks:
            s.close()
    wait_until(lambda: honest_get(srv).status_code == 200, what="the server to free its slots")


def test_the_open_files_limit_is_raised_to_the_hard_limit():
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 64:
        pytest.fail(f"this test needs a finite hard open-files limit above 64, not {hard}")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
        assert raise_open_files_limit() == hard
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
