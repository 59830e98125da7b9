"""Limits per client: token buckets keyed by the client's address, and the checks of a message.

Every client address has one bucket per kind of request (creating a table, taking a seat, a
WebSocket message): a bucket holds at most ``burst`` tokens and gains ``per_second`` tokens a
second; a request takes one, and with none left it is refused (HTTP 429, or an ``error``
message on the WebSocket) with how long to wait. Behind a reverse proxy every client has the
proxy's address: run the server with the proxy passing the real one (uvicorn's
``--forwarded-allow-ips``), or raise the limits.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` on average (0 per second: no limit)."""

    per_second: float
    burst: int

    @property
    def unlimited(self) -> bool:
        return self.per_second <= 0


class RateLimited(Exception):
    """Too many requests of one kind from one client; the message says how long to wait."""


class RateLimiter:
    """Token buckets of one kind of request, one per client address."""

    MAX_CLIENTS = 10_000  # full buckets are forgotten beyond this many addresses

    def __init__(self, rate: Rate, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.what = what  # "tables created", in the message
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, client: str) -> None:
        """One token of ``client``'s bucket, or RateLimited."""
        if self.rate.unlimited:
            return
        now = self.clock()
        tokens = self._tokens(client, now)
        if tokens < 1:
            wait = math.ceil((1 - tokens) / self.rate.per_second)
            raise RateLimited(
                f"too many {self.what} from your address (at most {self.rate.burst} at once, "
                f"then {self._pace()}): try again in {wait} s"
            )
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > self.MAX_CLIENTS:
            self._forget_full(now)

    def _tokens(self, client: str, now: float) -> float:
        tokens, when = self._buckets.get(client, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + (now - when) * self.rate.per_second)

    def _forget_full(self, now: float) -> None:
        self._buckets = {
            c: b for c, b in self._buckets.items() if self._tokens(c, now) < self.rate.burst
        }

    def _pace(self) -> str:
        per = self.rate.per_second
        return f"{per:g} a second" if per >= 1 else f"one every {1 / per:g} s"


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
        return f"message too large ({size} bytes; at most {max_bytes})"
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth:
        return f"message nested too deeply (at most {max_depth} levels of arrays and objects)"
    return None
