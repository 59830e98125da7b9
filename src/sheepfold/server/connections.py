"""Connections: no visitor can hold the server's sockets.

uvicorn's own protocols close an idle keep-alive connection, but a connection that never sends
a complete request (slowloris) stays open for as long as its peer likes, and nothing bounds how
many one address opens: 1,100 silent sockets from one address used up a 1,024 open-files limit
and locked everyone out. Here the HTTP and WebSocket protocols are uvicorn's (h11 and
websockets' sans-I/O), each with a guard:

* a cap on the connections open from one client address (an IPv6 client: its /64), and on the
  WebSockets among them; the excess is answered 429 and closed at once;
* a cap on all open connections, below the open-files limit (the database, the lab and the logs
  keep a reserve), answered 503;
* a deadline for a request's head (from the connection's start or the previous response) and
  another for its body: a request dribbled byte by byte is answered 408 and closed;
* WebSocket pings: a socket that stops answering them (a vanished peer, a half-open
  connection) is closed; TCP keepalive on every accepted socket for the same at the TCP level;
* a deep listen queue (LISTEN_QUEUE): a burst of connections waits there to be accepted, so
  that each is then admitted (and cut at its deadline) or refused, none lost. With the queue
  as short as the accept batch (BACKLOG), a burst of 1,100 silent connections overflowed it:
  the system completed about half of them for their peers (SYN cookies) and then dropped them,
  unknown to the server, so they stayed open on the peer's side for ever.

:func:`uvicorn_config` builds the server's configuration: ``sheepfold serve`` and the tests'
live servers both call it, so the tests run what is served.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import os
import resource
import socket
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import OPEN

from sheepfold.server.broadcast import DIRECT

FILES_RESERVE = 256
"""Open files kept back from connections: the database, the lab's processes, logs, static files."""
BACKLOG = 128
"""Connections accepted at one turn of asyncio's loop (uvicorn's ``backlog``): a refused one is
a file until it is closed a turn or two later, so the total cap keeps three times this many
files back too."""
LISTEN_QUEUE = 4096
"""Connections waiting to be accepted (the system caps it: ``net.core.somaxconn``). Waiting
there costs the server no file, and every one is accepted in turn."""


@dataclass(frozen=True)
class ConnectionLimits:
    """What one client may hold open, and for how long. ``None``: no cap."""

    per_client: int | None = 100
    """connections open at once from one address (HTTP and WebSocket together)"""
    websockets_per_client: int | None = 40
    """WebSockets open at once from one address"""
    total: int | None = None
    """connections open at once in all; ``None``: the open-files limit less FILES_RESERVE and
    3 * BACKLOG"""
    head_timeout: float = 10.0
    """seconds for a request's head to arrive in full (from the connection's start or the
    previous response)"""
    body_timeout: float = 30.0
    """seconds for a request's body to arrive in full, after its head"""
    keep_alive: int = 5
    """seconds an idle keep-alive connection stays open after a response"""
    ws_ping_interval: float = 20.0
    """seconds between the server's pings on a WebSocket"""
    ws_ping_timeout: float = 20.0
    """seconds a WebSocket has to answer a ping before it is closed"""
    tcp_keepalive: int = 60
    """seconds of silence before TCP keepalive probes a connection (0: off)"""

    def __post_init__(self) -> None:
        for name in ("per_client", "websockets_per_client", "total"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1 (or None: no cap), not {value}")
        for name in ("head_timeout", "body_timeout", "keep_alive", "ws_ping_interval"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        if not self.ws_ping_timeout > 0 or self.tcp_keepalive < 0:
            raise ValueError("ws_ping_timeout must be positive and tcp_keepalive at least 0")

    def lifted(self) -> ConnectionLimits:
        """These limits without the per-client caps (``--no-limits``: a benchmark, a trusted
        LAN, a proxy in front that connects from one address); the timeouts stay."""
        return dataclasses.replace(self, per_client=None, websockets_per_client=None)


def open_files_limit() -> int:
    """The process's open-files limit (soft), a large number where it is unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


def raise_open_files_limit() -> int:
    """Raise the open-files soft limit to the hard limit (a server's sockets are files);
    the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # some systems refuse an unlimited soft limit
            pass
    return open_files_limit()


def client_key(client: tuple[str, int] | None) -> str | None:
    """The key a client is counted under, by every per-client limit (server/clients.py): an
    IPv4 address, an IPv6 client's /64 (one host has billions of addresses there), None for a
    Unix socket (not counted per client)."""
    if client is None:
        return None
    try:
        ip = ipaddress.ip_address(client[0].split("%", 1)[0])
    except ValueError:
        return client[0]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _plain_response(status: int, words: str) -> bytes:
    body = words.encode()
    reason = {408: "Request Timeout", 429: "Too Many Requests", 503: "Service Unavailable"}
    return (
        f"HTTP/1.1 {status} {reason[status]}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    ).encode() + body


TOO_MANY = "too many connections are open from your address: close some and try again"
TOO_MANY_WS = "too many live tables are open from your address: close some and try again"
BUSY = "the server has too many open connections: try again in a moment"
TOO_SLOW = "the request did not arrive in time"


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(proxies: Sequence[str]) -> tuple[Network, ...]:
    """The addresses (or networks, ``10.0.0.0/8``) of ``--trusted-proxy``, checked: ValueError
    naming the one that is not an address."""
    nets = []
    for given in proxies:
        try:
            nets.append(ipaddress.ip_network(given.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"--trusted-proxy: {given!r} is not an IP address or network (such as"
                " 127.0.0.1, ::1 or 10.0.0.0/8)"
            ) from None
    return tuple(nets)


def is_trusted(client: tuple[str, int] | None, networks: Sequence[Network]) -> bool:
    """Whether ``client``'s address is one of the trusted proxies' ``networks``."""
    if client is None or not networks:
        return False
    try:
        ip = ipaddress.ip_address(client[0].split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in networks)


class Guard:
    """The open connections of one server, counted per client address. A trusted proxy's
    connections (``trusted``) are counted in the total only: they carry every client behind
    it, and the proxy bounds its own."""

    def __init__(self, limits: ConnectionLimits, trusted: Sequence[Network] = ()) -> None:
        self.limits = limits
        self.trusted = tuple(trusted)
        self.total_cap = limits.total or max(open_files_limit() - FILES_RESERVE - 3 * BACKLOG, 16)
        self.open: Counter[str | None] = Counter()
        self.websockets: Counter[str | None] = Counter()
        self.total = 0

    def key(self, client: tuple[str, int] | None) -> str | None:
        """The key a connection from ``client`` (its peer) is capped under; None: not capped
        per client (a Unix socket, a trusted proxy)."""
        return None if is_trusted(client, self.trusted) else client_key(client)

    def admit(self, key: str | None) -> tuple[int, str] | None:
        """Count a new connection from ``key``, or the status and words that refuse it."""
        if self.total >= self.total_cap:
            return 503, BUSY
        cap = self.limits.per_client
        if key is not None and cap is not None and self.open[key] >= cap:
            return 429, TOO_MANY
        self.open[key] += 1
        self.total += 1
        return None

    def release(self, key: str | None) -> None:
        self.total -= 1
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]

    def may_upgrade(self, key: str | None) -> bool:
        cap = self.limits.websockets_per_client
        return key is None or cap is None or self.websockets[key] < cap

    def keepalive(self, transport: asyncio.BaseTransport) -> None:
        """TCP keepalive on the connection's socket: a peer that vanished is found out."""
        idle = self.limits.tcp_keepalive
        sock = transport.get_extra_info("socket")
        if not idle or sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
            return
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for opt, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3)):
                if hasattr(socket, opt):
                    sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, opt), value)
        except OSError:  # the peer is already gone: its connection ends on its own
            pass


class GuardedHTTP(H11Protocol):
    """uvicorn's h11 protocol, counted per client and with deadlines for a request's head and
    body."""

    guard: ClassVar[Guard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None
        self._counted = False  # holds one of the guard's slots (handed to a WebSocket)
        self._phase: Any = None  # the h11 state a deadline runs for (IDLE: head, SEND_BODY)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._key = self.guard.key(self.client)
        refused = self.guard.admit(self._key)
        if refused is not None:
            transport.write(_plain_response(*refused))
            transport.close()
            return
        self._counted = True
        self.guard.keepalive(transport)
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._set_deadline(None)
        if self._counted:
            self._counted = False
            self.guard.release(self._key)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._set_deadline(None)
        self._phase = h11.SWITCHED_PROTOCOL
        if not self.guard.may_upgrade(self._key):
            self.transport.write(_plain_response(429, TOO_MANY_WS))
            self.transport.close()
            return
        self._counted = False  # the WebSocket takes this connection's slot
        super().handle_websocket_upgrade(event)

    # -- deadlines ---------------------------------------------------------------------------
    def _watch(self) -> None:
        """Start the head's deadline when a request is awaited, the body's once its head is in,
        none once it is all in."""
        if self._phase is h11.SWITCHED_PROTOCOL or self.transport.is_closing():
            return
        state = self.conn.their_state
        phase = state if state in (h11.IDLE, h11.SEND_BODY) else None
        if phase is not self._phase:
            self._phase = phase
            limits = self.guard.limits
            seconds = limits.head_timeout if phase is h11.IDLE else limits.body_timeout
            self._set_deadline(None if phase is None else seconds)

    def _set_deadline(self, seconds: float | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None if seconds is None else self.loop.call_later(seconds, self._late)

    def _late(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._phase is h11.SEND_BODY:  # the head came, the body is late
            answer = not self.cycle.response_started
        else:  # between requests: answer only a request begun
            answer = bool(self.conn.trailing_data[0])
        if answer:
            self.transport.write(_plain_response(408, TOO_SLOW))
        self.transport.close()


DIRECT_BURST = 8
"""Messages of one read handled on the spot; the rest of a burst is queued (the app's task
takes them one per turn of the event loop, reading paused), so a client that sends many at
once delays nobody."""


class Direct:
    """A WebSocket's messages without the ASGI round trip (a queue, a task resumed, the ASGI
    stack's frames each way): what the table's socket uses, on the event loop's own turn.

    ``write`` frames and writes a text at once, when nothing waits before it (the socket
    writable, the handshake done, no close sent): True; else False, and the caller sends it
    the ASGI way. ``on_message``, set by the app, is called with each text message (None for a
    binary one) as it is read, while the ASGI queue is empty and up to DIRECT_BURST a read;
    the others go through the queue as before (their order kept: a message is handled on the
    spot only when none waits in the queue)."""

    __slots__ = ("_ws", "on_message")

    def __init__(self, ws: GuardedWebSocket) -> None:
        self._ws = ws
        self.on_message: Callable[[str | None], None] | None = None

    def write(self, text: str) -> bool:
        ws = self._ws
        if (
            not ws.handshake_complete
            or ws.close_sent
            or ws.disconnected
            or ws.initial_response is not None
            or not ws.writable.is_set()
        ):
            return False
        conn = ws.conn
        if conn.writes or conn.extensions or conn.debug or conn.expect_continuation_frame:
            try:  # websockets' own way (what is queued before it goes first)
                conn.send_text(text.encode())
            except InvalidState:
                return False
            ws.transport.write(b"".join(conn.data_to_send()))
            return True
        if conn.state is not OPEN:
            return False
        ws.transport.write(text_frame(text.encode()))
        return True


def text_frame(data: bytes) -> bytes:
    """One unfragmented text frame from the server (unmasked, no extension): the bytes
    websockets' ``Frame(OP_TEXT, data).serialize(mask=False)`` gives, without its objects."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 1 << 16:
        return bytes((0x81, 126)) + n.to_bytes(2, "big") + data
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + data


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O), counted per client: it takes over
    the slot of the HTTP connection it was upgraded from. It offers the app its
    :class:`Direct` side (the scope's ``extensions``)."""

    guard: ClassVar[Guard]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._key = self.guard.key(self.client)
        self.guard.websockets[self._key] += 1
        self.direct = Direct(self)
        self._burst = 0

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # set when the handshake goes on
        if scope is not None:
            scope["extensions"][DIRECT] = self.direct

    def data_received(self, data: bytes) -> None:
        self._burst = DIRECT_BURST
        super().data_received(data)

    def send_receive_event_to_app(self) -> None:
        handle = self.direct.on_message
        if handle is None or self.close_sent or self._burst <= 0 or not self.queue.empty():
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        text: str | None = None
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:  # uvicorn's own answer (1007)
                super().send_receive_event_to_app()
                return
        self.frames = []
        self._burst -= 1
        try:
            handle(text)
        except Exception:  # as uvicorn does when the app fails: logged, the socket closed
            self.logger.exception("Exception in the WebSocket's message handler")
            self.direct.on_message = None
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        key = self._key
        self.guard.websockets[key] -= 1
        if self.guard.websockets[key] <= 0:
            del self.guard.websockets[key]
        self.guard.release(key)
        super().connection_lost(exc)


def protocols(
    limits: ConnectionLimits, trusted: Sequence[Network] = ()
) -> tuple[type[GuardedHTTP], type[GuardedWebSocket]]:
    """The HTTP and WebSocket protocol classes of one server, sharing one guard."""
    guard = Guard(limits, trusted)
    http = type("GuardedHTTP", (GuardedHTTP,), {"guard": guard})
    ws = type("GuardedWebSocket", (GuardedWebSocket,), {"guard": guard})
    return http, ws


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    limits: ConnectionLimits,
    log_level: str = "warning",
    loop: str = "auto",
    trusted_proxies: Sequence[str] = (),
) -> Config:
    """The uvicorn configuration of ``sheepfold serve`` (and of the tests' live servers), on
    the event loop ``loop``: uvloop, asyncio, or auto (uvloop where it is installed); serve it
    with :class:`GuardedServer`.

    ``X-Forwarded-For`` is believed only from ``trusted_proxies`` (``--trusted-proxy``:
    addresses or networks, ValueError for another text); with none, from nobody (uvicorn's own
    default trusts 127.0.0.1: behind any local tunnel, every request could name its own
    address)."""
    trusted = trusted_networks(trusted_proxies)
    http, ws = protocols(limits, trusted)
    return Config(
        app,
        host=host,
        port=port,
        http=http,
        ws=ws,
        log_level=log_level,
        loop=loop,
        lifespan="on",
        backlog=BACKLOG,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        ws_ping_interval=limits.ws_ping_interval,
        ws_ping_timeout=limits.ws_ping_timeout,
        timeout_keep_alive=limits.keep_alive,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=[str(n) for n in trusted] or None,
    )


class GuardedServer(uvicorn.Server):
    """uvicorn's server, its listening sockets given the deep LISTEN_QUEUE once they listen
    (uvicorn's ``backlog`` is both the listen queue and asyncio's accept batch: BACKLOG)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        for server in getattr(self, "servers", []):
            for listening in server.sockets:
                # the same socket through a second descriptor: listening again only deepens
                # its queue
                with socket.socket(fileno=os.dup(listening.fileno())) as same:
                    same.listen(LISTEN_QUEUE)


def guard_of(config: Config) -> Guard:
    """The guard of a server built by :func:`uvicorn_config` (tests look at its counts)."""
    http = config.http
    assert isinstance(http, type) and issubclass(http, GuardedHTTP)
    return http.guard
