"""Who asks, and what the server gives every API handler: FastAPI dependencies.

Every per-client limit (the rate limiters of ``TableManager.limits``, the open-table cap, the
gallery's daily and queue caps, the chat, the WebSocket messages, the connection caps of
server/connections.py) counts under one **client key**: an IPv4 client's address, an IPv6
client's /64 (one host holds billions of addresses there), ``"unknown"`` when there is none (a
Unix socket). The address is the one uvicorn gives the app: the peer's, or the
``X-Forwarded-For`` of a proxy named with ``sheepfold serve --trusted-proxy`` (nobody else's).

Every router of the API is built with :data:`CLIENT` as a dependency of all its routes, so no
route is served without its client key (tests/web/test_web_routers.py walks the app's routes);
a handler asks for :data:`ClientDep` to take a token of one of its limits, and for
:data:`ManagerDep`, :data:`GalleryDep` or :data:`ProfilesDep` for the server's parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from sheepfold.server.connections import client_key

if TYPE_CHECKING:
    from sheepfold.server.gallery import Gallery
    from sheepfold.server.limits import RateLimiter
    from sheepfold.server.profiles import Profiles
    from sheepfold.server.tables import TableManager

UNKNOWN = "unknown"


def key_of(client: Any) -> str:
    """The client key of an ASGI ``client`` (``(host, port)``, or None)."""
    return client_key(tuple(client) if client else None) or UNKNOWN


def client_of(conn: HTTPConnection) -> str:
    """The client key of a request or a WebSocket: what every limit is counted by."""
    return key_of(conn.client)


@dataclass(frozen=True)
class Client:
    """One request's client: its ``key``, and its share of the server's rate limiters."""

    key: str
    limits: dict[str, RateLimiter]

    def take(self, limit: str) -> None:
        """One token of this client's bucket of ``limit`` (``"create"``, ``"join"``...), or
        RateLimited (server/limits.py)."""
        self.limits[limit].take(self.key)


def client(conn: HTTPConnection) -> Client:
    """The dependency every API route has: the request's (or WebSocket's) client."""
    return Client(client_of(conn), conn.app.state.manager.limits)


def manager(conn: HTTPConnection) -> TableManager:
    return conn.app.state.manager  # type: ignore[no-any-return]


def gallery(conn: HTTPConnection) -> Gallery:
    return conn.app.state.gallery  # type: ignore[no-any-return]


def profiles(conn: HTTPConnection) -> Profiles:
    return conn.app.state.profiles  # type: ignore[no-any-return]


#: a router's dependencies: every route of the API has its client key (and its limits)
CLIENT = [Depends(client)]
ClientDep = Annotated[Client, Depends(client)]
ManagerDep = Annotated["TableManager", Depends(manager)]
GalleryDep = Annotated["Gallery", Depends(gallery)]
ProfilesDep = Annotated["Profiles", Depends(profiles)]
