"""Fixtures of the web tests: a live server in a thread, a PostgreSQL server, Chromium.

Servers listen on port 0 (a free port the system picks) of the loopback address, or, for
PostgreSQL, on a Unix socket only: two test runs side by side never fight over a port.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from polling import wait_until

SHOTS = Path(__file__).parent / "screenshots"


class LiveServer:
    """A server built as ``sheepfold serve`` builds it (``connections``: its connection limits,
    the defaults unless told), in a thread, listening on ``host`` (an IPv6 address: see
    tests/web/addresses.py)."""

    def __init__(
        self, db: str, connections: Any = None, host: str = "127.0.0.1", **settings: Any
    ) -> None:
        from sheepfold.server.app import create_app
        from sheepfold.server.connections import ConnectionLimits, GuardedServer, uvicorn_config
        from sheepfold.server.tables import Settings

        defaults = dict(
            bot_delay=0.0,
            react_min=0.6,
            react_max=1.5,
            race_timeout=8.0,
            leave_grace=60.0,
            allow_seed=True,
        )
        defaults.update(settings)
        self.settings = Settings(**defaults)
        self.app = create_app(db, self.settings)
        self.config = uvicorn_config(self.app, host, 0, connections or ConnectionLimits())
        self.server = GuardedServer(self.config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_until(
            lambda: self.server.started or not self.thread.is_alive(),
            what="the live server to start",
        )
        assert self.server.started, "the live server's thread ended before it started"
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        at = f"[{host}]" if ":" in host else host
        self.url = f"http://{at}:{self.port}"
        self.ws_url = f"ws://{at}:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=10)

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)

    # -- helpers -----------------------------------------------------------------------------
    def create(self, **spec: Any) -> dict[str, Any]:
        # the seats where the test writes them (a table's default draws who starts: turned)
        spec.setdefault("first_player", 0)
        r = self.http.post("/api/tables", json=spec)
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.http.post(f"/api/tables/{table}/join", json=body)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(str(tmp_path / "tables.db"))
    yield srv
    srv.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    made: list[LiveServer] = []

    def make(db: str | None = None, **settings: Any) -> LiveServer:
        # each server its own database unless told: two live servers on one file would both
        # write the tables they loaded from it
        srv = LiveServer(db or str(tmp_path / f"tables{len(made)}.db"), **settings)
        made.append(srv)
        return srv

    yield make
    for s in made:
        s.stop()


class WSClient:
    """A blocking WebSocket client that keeps every message it receives."""

    def __init__(self, url: str, token: str | None = None, source: str | None = None) -> None:
        from websockets.sync.client import connect

        at = {"source_address": (source, 0)} if source else {}  # a client at 127.0.0.x
        self._cm = connect(url, open_timeout=10, max_size=1 << 22, **at)
        self.ws = self._cm.__enter__()
        self.received: list[str] = []
        self.last_state: dict[str, Any] | None = None
        self.recv()  # the first state
        if token is not None:
            self.send({"type": "hello", "token": token})
            self.wait(lambda m: m["type"] == "state" and m["you"] is not None)

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        msg = json.loads(text)
        if msg["type"] == "state":
            self.last_state = msg
        return msg

    def wait(self, pred: Any, timeout: float = 15) -> dict[str, Any]:
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def wait_state(self, pred: Any, timeout: float = 15) -> dict[str, Any]:
        """The newest state if it already satisfies ``pred`` (a table of bots may be over before
        we connect), else the next state that does."""
        if self.last_state is not None and pred(self.last_state):
            return self.last_state
        return self.wait(lambda m: m["type"] == "state" and pred(m), timeout)

    def drain(self, quiet: float = 0.15) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


@pytest.fixture
def ws_client() -> Iterator[Any]:
    made: list[WSClient] = []

    def make(url: str, token: str | None = None, source: str | None = None) -> WSClient:
        c = WSClient(url, token, source)
        made.append(c)
        return c

    yield make
    for c in made:
        try:
            c.close()
        except Exception:
            pass


# -- a bot that thinks until the test lets it go -------------------------------------------------
class Blocker:
    """The ``blocker`` bot (both games): each decision waits for ``release``, then plays the
    first legal action."""

    release = threading.Event()

    def __init__(self, game: Any, seat: int) -> None:
        self.game, self.seat = game, seat

    def act(self, view: Any) -> int:
        self.release.wait(60)
        return int(self.game.determinize(view, seed=0).legal_actions()[0])


@pytest.fixture
def blocker() -> Iterator[type[Blocker]]:
    from sheepfold.bots import _LIMITS, _REGISTRY, register_bot

    for game in ("dolly-crush", "shave-a-sheep"):
        register_bot(game, "blocker", "waits for the test")(
            lambda game, seat, seed, arg: Blocker(game, seat)  # type: ignore[arg-type,return-value]
        )
    Blocker.release.clear()
    yield Blocker
    Blocker.release.set()
    for game in ("dolly-crush", "shave-a-sheep"):
        del _REGISTRY[game]["blocker"], _LIMITS[(game, "blocker")]


# -- PostgreSQL --------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server in a temporary folder for this test session, reached through a
    Unix socket in that folder (no TCP port: nothing to collide with): the URL of its
    ``postgres`` database. The one ``sheepfold cluster`` starts (cli/cluster.py's TempPostgres).

    It fails (never skips) when PostgreSQL cannot be started: the storage must be tested on it.
    """
    from sheepfold.cli.cluster import TempPostgres

    pg = TempPostgres()
    try:
        yield pg.url
    finally:
        pg.stop()


_PG_DATABASES = iter(range(1, 1_000_000))


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty database on the session's PostgreSQL server for this one test: what one
    test leaves behind (a rule set waiting for its lab card, a table) never reaches another."""
    from sqlalchemy import create_engine, text

    name = f"test_{os.getpid()}_{next(_PG_DATABASES)}"
    engine = create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return postgres_server.replace("/postgres?", f"/{name}?", 1)


# -- Chromium ----------------------------------------------------------------------------------
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    exe = (
        "/usr/lib/chromium/chromium"
        if Path("/usr/lib/chromium/chromium").exists()
        else "/usr/bin/chromium"
    )
    assert Path(exe).exists(), "Chromium is missing: run scripts/install-system-packages.sh"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(exist_ok=True)
    return SHOTS
