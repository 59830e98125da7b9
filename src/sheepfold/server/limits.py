"""Limits per client: token buckets keyed by the client key, and the checks of a message.

Every client key (an IPv4 address, an IPv6 client's /64: server/clients.py) has one bucket per
kind of request (creating a table, taking a seat, a WebSocket message): a bucket holds at most
``burst`` tokens and gains ``per_second`` tokens a second; a request takes one, and with none
left it is refused (HTTP 429, or an ``error`` message on the WebSocket) with how long to wait.
Behind a reverse proxy every client has the proxy's address: name the proxy with
``sheepfold serve --trusted-proxy ADDR`` (its ``X-Forwarded-For`` is then believed, nobody
else's), as ``sheepfold cluster`` does for its haproxy. The servers of a cluster keep the
buckets of their HTTP limits in their database (:class:`SharedRateLimiter`), one set for all.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.exceptions import HTTPException

from sheepfold.core.words import Msg, text_of
from sheepfold.server.clients import key_of


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` on average (0 per second: no limit)."""

    per_second: float
    burst: int

    @property
    def unlimited(self) -> bool:
        return self.per_second <= 0


class RateLimited(Exception):
    """Too many requests of one kind from one client; the message says how long to wait
    (``wait``: the seconds, for HTTP's Retry-After; None when no wait would help)."""

    def __init__(self, message: str, wait: int | None = None) -> None:
        super().__init__(message)
        self.wait = wait


class RateLimiter:
    """Token buckets of one kind of request, one per client key (server/clients.py)."""

    MAX_CLIENTS = 10_000  # full buckets are forgotten beyond this many clients

    def __init__(self, rate: Rate, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.what = what  # "tables created", in the message
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def check(self, client: str) -> None:
        """RateLimited if ``client``'s bucket has no token now; nothing is taken (a request
        refused by another bucket after this one costs this one nothing)."""
        if not self.rate.unlimited:
            self._ready(client, self.clock())

    def take(self, client: str) -> None:
        """One token of ``client``'s bucket, or RateLimited."""
        if self.rate.unlimited:
            return
        now = self.clock()
        tokens = self._ready(client, now)
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > self.MAX_CLIENTS:
            self._forget_full(now)

    def _ready(self, client: str, now: float) -> float:
        """The tokens of ``client``'s bucket now, or RateLimited when there is not one."""
        tokens = self._tokens(client, now)
        if tokens < 1:
            raise self._refused(tokens)
        return tokens

    def _refused(self, tokens: float) -> RateLimited:
        """The refusal of a request that found ``tokens`` (under one) in its bucket."""
        wait = math.ceil((1 - tokens) / self.rate.per_second)
        return RateLimited(
            Msg(
                "too many {what} from your address (at most {burst} at once, then "
                "{pace}): try again in {wait} s",
                what=self.what,
                burst=self.rate.burst,
                pace=self._pace(),
                wait=wait,
            ),
            wait,
        )

    def _tokens(self, client: str, now: float) -> float:
        tokens, when = self._buckets.get(client, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + (now - when) * self.rate.per_second)

    def _forget_full(self, now: float) -> None:
        self._buckets = {
            c: b for c, b in self._buckets.items() if self._tokens(c, now) < self.rate.burst
        }

    def _pace(self) -> str:
        per = self.rate.per_second
        if per >= 1:
            return Msg("{n} a second", n=format(per, "g"))
        return Msg("one every {n} s", n=format(1 / per, "g"))


class SharedBuckets(Protocol):
    """Token buckets kept where many servers see them (a cluster's PostgreSQL database:
    server/cluster.py's ``DatabaseBuckets``)."""

    def take(self, kind: str, client: str, rate: Rate) -> float | None:
        """Take a token of ``client``'s bucket of ``kind`` if it holds one: the tokens it held
        (refilled up to now) before, so one was taken when that is at least 1; None when the
        store cannot answer now (the caller counts on its own buckets meanwhile)."""

    def peek(self, kind: str, client: str, rate: Rate) -> float | None:
        """The tokens of ``client``'s bucket of ``kind`` now, taking none (None: as above)."""


class SharedRateLimiter(RateLimiter):
    """The buckets of one kind of request kept in a :class:`SharedBuckets` (a cluster's
    database), so that one client's requests count together whichever server they reach.
    While the store does not answer, this server's own buckets count (it fails open to one
    server's limits, never to none and never to a refusal for everyone)."""

    def __init__(self, local: RateLimiter, kind: str, store: SharedBuckets) -> None:
        super().__init__(local.rate, local.what, local.clock)
        self.kind = kind
        self.store = store

    def check(self, client: str) -> None:
        self._counted(client, self.store.peek, super().check)

    def take(self, client: str) -> None:
        self._counted(client, self.store.take, super().take)

    def _counted(
        self,
        client: str,
        shared: Callable[[str, str, Rate], float | None],
        local: Callable[[str], None],
    ) -> None:
        """The store's answer for ``client`` (RateLimited with no token), else ``local``'s."""
        if self.rate.unlimited:
            return
        tokens = shared(self.kind, client, self.rate)
        if tokens is None:
            local(client)
        elif tokens < 1:
            raise self._refused(tokens)


# -- WebSocket messages ----------------------------------------------------------------------
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # a JSON string (skipped), or a bracket


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets in strings ignored)."""
    depth = deepest = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def message_problem(text: str, max_bytes: int, max_depth: int) -> str | None:
    """Why a client message is refused before it is read (None: it may be read)."""
    size = len(text.encode())
    if size > max_bytes:
        return Msg("message too large ({size} bytes; at most {most})", size=size, most=max_bytes)
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth:
        return Msg(
            "message nested too deeply (at most {most} levels of arrays and objects)",
            most=max_depth,
        )
    return None


# -- HTTP requests: bodies and costly routes, before the app reads them ---------------------
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class Route:
    """What the guard does for the requests of one route: ``pattern`` matches the whole path;
    ``body``: the most bytes its body may have (None: the guard's default); ``limit``: the
    rate limiter (by its name) a request takes a token of; ``too_big``: the 413's words."""

    method: str
    pattern: str
    body: int | None = None
    limit: str | None = None
    too_big: str | None = None

    def matches(self, method: str, path: str) -> bool:
        return method == self.method and re.fullmatch(self.pattern, path) is not None


class BodyTooLarge(HTTPException):
    """A request's body went past its route's limit while it was being read: an HTTP error
    (413), so that the app's body parsing lets it through to its error handler."""

    def __init__(self, detail: str) -> None:
        super().__init__(413, detail, headers={"Connection": "close"})


class RequestGuard:
    """ASGI middleware for every HTTP request: a body bounded before it is read (a
    Content-Length over the limit is refused at once, a chunked body as soon as it goes past
    it: 413, and the connection is closed rather than read on), and the rate limits of the
    routes that cost CPU (429 with Retry-After). The first route that matches decides;
    ``limiters()`` gives the server's rate limiters (None before it has started)."""

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        routes: Sequence[Route],
        default_body: int,
        limiters: Callable[[], dict[str, RateLimiter] | None],
    ) -> None:
        self.app = app
        self.routes = tuple(routes)
        self.default_body = default_body
        self.limiters = limiters

    def route_of(self, method: str, path: str) -> Route | None:
        return next((r for r in self.routes if r.matches(method, path)), None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = self.route_of(scope["method"], scope["path"])
        limit = route.body if route and route.body is not None else self.default_body
        too_big = (route.too_big if route else None) or Msg(
            "the request's body is too large (at most {kb} KB here)", kb=limit // 1024
        )
        limiters = self.limiters() if route and route.limit else None
        if limiters is not None and route is not None and route.limit in limiters:
            try:
                limiters[route.limit].take(key_of(scope.get("client")))
            except RateLimited as e:
                await refuse(send, 429, _said(scope, text_of(e)), e.wait)
                return
        length = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            await refuse(send, 413, _said(scope, too_big))
            return
        seen = 0
        started = False

        async def bounded() -> MutableMapping[str, Any]:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(too_big)
            return msg

        async def watched(msg: MutableMapping[str, Any]) -> None:
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, bounded, watched)
        except BodyTooLarge:
            if started:
                raise
            await refuse(send, 413, _said(scope, too_big))


def _said(scope: Scope, words: str) -> str:
    """``words`` in the request's language (the app's language middleware notes it in the
    scope's state before this guard runs; English when it has not: server/i18n.py)."""
    from sheepfold.server.i18n import localize

    lang = (scope.get("state") or {}).get("lang", "en")
    return str(localize(words, lang))


async def refuse(send: Send, status: int, detail: str, wait: int | None = None) -> None:
    """A JSON ``{"detail"}`` answer that closes the connection (the body is not read on)."""
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if wait is not None:
        headers.append((b"retry-after", str(wait).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
