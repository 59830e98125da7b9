"""Idle sockets and the address ``sheepfold serve`` prints: a burst of silent connections larger
than the accept batch is every one closed (refused at once, or cut at the head deadline), none
left open on the peer's side; an IPv6 address is printed in brackets."""

from __future__ import annotations

import socket
import subprocess
import threading

from test_web_connections import ATTACKER, honest_get
from test_web_dblock import ENV, SERVE, start_server

from polling import wait_until
from sheepfold.cli.serve import web_address
from sheepfold.server.connections import BACKLOG, ConnectionLimits


class Silent:
    """A connection from ``source`` that never sends a byte (its connect not awaited: a burst
    opens faster than any server accepts)."""

    def __init__(self, port: int, source: str) -> None:
        self.sock = socket.socket()
        self.sock.setblocking(False)
        self.sock.bind((source, 0))
        self.sock.connect_ex(("127.0.0.1", port))
        self.data = b""
        self.closed = False

    def poll(self) -> bool:
        """True once the server has closed it (what it said first is kept)."""
        while not self.closed:
            try:
                chunk = self.sock.recv(4096)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # reset, or refused: closed either way
                chunk = b""
            self.closed = not chunk
            self.data += chunk
        return self.closed


def test_a_burst_of_idle_sockets_is_every_one_closed_by_the_head_deadline(make_server):
    """The server's loop is held while three times its accept batch connect, as under a flood:
    they wait in the listen queue, and once the loop runs every one is refused (429, over the
    cap per address) or cut at the head deadline. (With a listen queue as short as the batch,
    the system completed the rest for the peer and dropped them: open for ever on its side.)"""
    srv = make_server(connections=ConnectionLimits(per_client=4, head_timeout=0.5))
    loop = srv.server.servers[0].get_loop()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:  # on the server's loop: nothing is accepted until released
        held.set()
        release.wait(60)

    loop.call_soon_threadsafe(hold)
    assert held.wait(10), "the server's loop never ran the hold"
    socks: list[Silent] = []
    try:
        socks = [Silent(srv.port, ATTACKER) for _ in range(3 * BACKLOG)]
        release.set()
        wait_until(lambda: all(s.poll() for s in socks), what="every idle socket to close")
        cut = [s for s in socks if not s.data.startswith(b"HTTP/1.1 429")]
        assert len(cut) <= 4 and all(s.data == b"" for s in cut)  # the cap, held till cut
        assert honest_get(srv).json()["ok"] is True
        wait_until(  # its slots are free again
            lambda: honest_get(srv, source=ATTACKER).status_code == 200,
            what="the attacker's address to be served again",
        )
    finally:
        release.set()
        for s in socks:
            s.sock.close()


def test_an_ipv6_address_is_written_in_brackets():
    assert web_address("localhost", 8000) == "http://localhost:8000"
    assert web_address("fd00::1", 8000) == "http://[fd00::1]:8000"
    assert web_address("::1", 80) == "http://[::1]:80"


def test_serve_prints_an_ipv6_address_in_brackets(tmp_path):
    printed: list[str] = []
    db = str(tmp_path / "t.db")
    proc, port = start_server(db, tmp_path / "log", "--host", "::1", printed=printed)
    try:
        assert f"sheepfold is serving at http://[::1]:{port}/" in "".join(printed)
        with socket.create_connection(("::1", port), timeout=10) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        proc.kill()
        proc.wait()
    # an address this machine does not have: the error names it in brackets too
    out = subprocess.run(
        [*SERVE, "--db", str(tmp_path / "u.db"), "--host", "fd00::5ee:9"],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert out.returncode != 0
    assert "could not start the server on [fd00::5ee:9]:0" in out.stdout + out.stderr
