"""Many ``sheepfold serve`` processes on one PostgreSQL database (docs/web.md, "Many processes").

Each table has one owner process at a time: the process that holds the table's session advisory
lock (``pg_try_advisory_lock``) on its *session*, one connection of its own kept open for the
life of the process. PostgreSQL frees every lock of a session the moment its connection ends
(a kill -9 included), and every write of a table's rows (its actions, its seats, its creation)
goes through that same connection, for a table whose lock this process holds: a process that
lost its session can write nothing, so a table is never played by two processes at once. (The
stored actions' primary key, table and index, backs this up: no index is ever written twice.)

Any process serves a client for any table: for a table another process owns, the :class:`Relay`
middleware passes the client's HTTP requests and WebSocket to the owner (its address is in
``sf_processes``), which sees the client's address (a header trusted only beside the cluster's
secret, kept in the database). A table that nobody holds (its owner died or stopped) is taken over from
the database (everything committed: a move is acknowledged only after it is committed) by the
first process one of its clients reaches, or by the sweep (every ``Settings.cluster_sweep``
seconds each live process takes its share of such tables), and its bots play on there.

The lobby is read from the database: each owner writes its tables' public info into
``sf_listed`` (only what changed, at most every ``Settings.lobby_refresh`` seconds).

SQLite keeps one process per database (server/dblock.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import os
import random
import re
import secrets
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    delete,
    func,
    select,
    text,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.pool import NullPool

from sheepfold.server.limits import SharedRateLimiter
from sheepfold.server.storage import (
    Storage,
    StorageUnhealthy,
    TableRow,
    health_t,
    normalise_url,
    tables_t,
)
from sheepfold.server.tables import Settings, Table, TableManager

log = logging.getLogger("sheepfold.server")

PREFIX = "sheepfold serve "  # the session's application_name: PREFIX + the process's id
RELAY = b"x-sheepfold-relay"  # the cluster's secret: the request comes from a process
CLIENT = b"x-sheepfold-client"  # the client's address, as the relaying process saw it
# on an answer about a table (its page's API, its WebSocket, its creation): the process that
# owns the table answered it itself; the balancer sends that table's requests to it from then
# on (haproxy's "stick store-response": docs/web.md, "Routing to the owner")
OWNER_HEADER = "x-sheepfold-table"
OWNER = OWNER_HEADER.encode()
VIA = (b"via", b"1.1 sheepfold")  # on an answer relayed from the owner (RFC 9110, 7.6.3)
HOP = {
    b"host",
    b"connection",
    b"keep-alive",
    b"transfer-encoding",
    b"content-length",
    b"content-encoding",
    b"upgrade",
    b"te",
    b"trailer",
    b"proxy-connection",
    RELAY,
    CLIENT,
    OWNER,  # a relayed answer is not the answering process's own: the balancer must not stick
    b"via",
}
TABLE_HTTP = re.compile(r"^/api/tables/([A-Za-z0-9]{1,32})(?:/[a-z]{1,16})?$")
TABLE_WS = re.compile(r"^/ws/([A-Za-z0-9]{1,32})$")
HERE, UNREACHABLE = "here", "unreachable"

meta = MetaData()  # the cluster's own rows (never in an SQLite database)
processes_t = SqlTable(
    "sf_processes",
    meta,
    Column("id", String(32), primary_key=True),
    Column("url", String(200), nullable=True),  # where the other processes reach it
    Column("pid", Integer, nullable=False),
    Column("host", String(255), nullable=False),
    Column("started", Float, nullable=False),
)
listed_t = SqlTable(  # the lobby: each table's public info, written by its owner
    "sf_listed",
    meta,
    Column("table_id", String(32), primary_key=True),
    Column("rank", Integer, nullable=False),  # Table.lobby_rank's class: 0, 1, 2
    Column("created", Float, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("done", Float, nullable=True),  # when it finished (wall clock), None: playing
    Column("info", Text, nullable=False),  # Table.public_info() as JSON
)
buckets_t = SqlTable(  # the HTTP rate limits' token buckets, one set for the whole cluster
    "sf_buckets",
    meta,
    Column("kind", String(16), primary_key=True),  # a limit of TableManager.limits
    Column("client", String(64), primary_key=True),  # the client key (server/clients.py)
    Column("tokens", Float, nullable=False),  # after the last request...
    Column("at", Float, nullable=False),  # ...at this time (the database's clock, epoch s)
    Column("granted", Boolean, nullable=False),  # whether the last request took a token
    prefixes=["UNLOGGED"],  # no WAL: lost in a crash of the database, a bucket is full again
)
secrets_t = SqlTable(
    "sf_cluster",
    meta,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

HELD = text(  # every advisory lock held in this database, and by whom
    "SELECT l.classid::bigint AS hi, l.objid::bigint AS lo, a.application_name AS who"
    " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
    " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
    " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
WHEREABOUTS = text(  # one table: whether it is finished, who holds it, where that process is
    "SELECT t.finished, a.application_name AS who, p.url FROM sf_tables t"
    " LEFT JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
    " AND l.classid::bigint = :hi AND l.objid::bigint = :lo"
    " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
    " LEFT JOIN sf_processes p ON a.application_name = :prefix || p.id"
    " WHERE t.id = :id"
)
LIVE = text(  # the processes of the cluster whose session is open
    "SELECT count(DISTINCT application_name) FROM pg_stat_activity"
    " WHERE application_name LIKE :like"
)


def table_key(table_id: str) -> int:
    """The advisory lock's key of a table (64 bits of a hash of its id)."""
    digest = hashlib.sha256(b"sheepfold table " + table_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def key_parts(key: int) -> tuple[int, int]:
    """``pg_locks``' ``classid`` and ``objid`` of a bigint advisory key."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    return unsigned >> 32, unsigned & 0xFFFF_FFFF


def key_of(hi: int, lo: int) -> int:
    unsigned = (hi << 32) | lo
    return unsigned - (1 << 64) if unsigned >= 1 << 63 else unsigned


class ClusterStorage(Storage):
    """A PostgreSQL storage shared by many processes: table writes go through this process's
    session (the connection holding its tables' locks), for tables it holds."""

    writes_in_threads = False  # the session is the event loop's

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.process = secrets.token_hex(6)
        self.owned: set[str] = set()  # the tables whose lock this process holds
        self.on_lost: Callable[[set[str]], None] = lambda owned: None
        self._session_engine = create_engine(
            self.url,
            poolclass=NullPool,
            connect_args={
                "application_name": PREFIX + self.process,
                # a vanished host is found out in about 25 s (a dead process: at once)
                "keepalives_idle": 10,
                "keepalives_interval": 5,
                "keepalives_count": 3,
            },
        )
        self.session: Any = self._session_engine.connect()

    def _schema(self) -> None:
        super()._schema()
        meta.create_all(self.engine)

    # -- the session and the locks -----------------------------------------------------------
    def _on_session(self, fn: Callable[[Any], Any]) -> Any:
        """``fn(session)`` in one transaction of the session."""
        c = self._session_conn()
        try:
            with c.begin():
                return fn(c)
        except Exception:
            self._write_failed(c)
            raise

    def _session_conn(self) -> Any:
        if self.session is None:
            self.reconnect()
        if self.session is None:
            raise StorageUnhealthy("this server has no database session (it reconnects)")
        return self.session

    def reconnect(self) -> None:
        """A new session after the old one was lost (it holds nothing yet)."""
        try:
            self.session = self._session_engine.connect()
        except Exception as e:
            log.error("cluster: the database session cannot be opened again: %s", e)

    def lock(self, table_id: str) -> bool:
        """Hold ``table_id`` (True), unless another process does (False)."""
        if table_id in self.owned:
            return True
        got = self._on_session(
            lambda c: c.execute(
                text("SELECT pg_try_advisory_lock(:k)"), {"k": table_key(table_id)}
            ).scalar()
        )
        if got:
            self.owned.add(table_id)
        return bool(got)

    def release(self, table_id: str) -> None:
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)

        def unlock(c: Any) -> None:
            c.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": table_key(table_id)})
            c.execute(delete(listed_t).where(listed_t.c.table_id == table_id))

        with contextlib.suppress(Exception):  # a lost session freed it already
            self._on_session(unlock)

    def _write_failed(self, c: Any) -> None:
        """A write failed: if the session itself is gone, so are its locks: every table this
        process held is dropped (``on_lost``) and a new session is opened."""
        try:
            with c.begin():
                c.execute(text("SELECT 1"))
            return  # the session lives (and holds its locks): only that write failed
        except Exception:
            pass
        owned, self.owned = self.owned, set()
        with contextlib.suppress(Exception):
            c.close()
        self.session = None
        log.error("cluster: the database session was lost: its %d table(s) go", len(owned))
        self.on_lost(owned)
        self.reconnect()

    @property
    def shared(self) -> ClusterStorage:
        """What the lab's cards are held with (server/gallery_lab.py): this storage."""
        return self

    def hold(self, name: str) -> bool:
        """Hold the lock ``name`` (not a table's) on the session: True, unless another holds it."""
        key = table_key(name) ^ 1  # never a table's key
        return bool(
            self._on_session(
                lambda c: c.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar()
            )
        )

    def free(self, name: str) -> None:
        key = table_key(name) ^ 1
        self._on_session(lambda c: c.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key}))

    def held(self, name: str) -> bool:
        """Some live server holds the lock ``name``."""
        hi, lo = key_parts(table_key(name) ^ 1)
        with self.engine.connect() as c:
            found = c.execute(
                text(
                    "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    " AND classid::bigint = :hi AND objid::bigint = :lo AND objsubid = 1"
                ),
                {"hi": hi, "lo": lo},
            ).first()
        return found is not None

    # -- writes: only for held tables, on the session -----------------------------------------
    @contextlib.contextmanager
    def table_write(self, table_id: str) -> Iterator[Any]:
        if table_id not in self.owned:
            raise StorageUnhealthy(f"table {table_id} is not held by this server")
        c = self._session_conn()
        try:
            with c.begin():
                yield c
        except Exception:
            self._write_failed(c)
            raise

    def create_table(self, row: TableRow) -> None:
        if not self.lock(row.id):  # a new id: nobody holds it
            raise StorageUnhealthy(f"table {row.id} is held by another server")
        try:
            super().create_table(row)
        except Exception:
            self.release(row.id)
            raise

    def _writer_for(self, table_ids: Sequence[str]) -> Any:
        foreign = [t for t in table_ids if t not in self.owned]
        if foreign:
            raise StorageUnhealthy(f"table {foreign[0]} is not held by this server any more")
        return self._session_conn()

    def check_health(self) -> int:
        """The session answers and accepts a write (one health row per process)."""
        now = time.time()
        ident = int(self.process, 16) % 2_000_000_000

        def write(c: Any) -> int:
            up = pg_insert(health_t).values(id=ident, checked=now)
            c.execute(up.on_conflict_do_update(index_elements=["id"], set_={"checked": now}))
            return int(c.execute(select(func.count()).select_from(tables_t)).scalar() or 0)

        try:
            return int(self._on_session(write))
        except StorageUnhealthy:
            raise
        except Exception as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StorageUnhealthy(f"the database does not accept a write: {first}") from None

    def close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.close()  # every lock goes with it: the others take the tables
            self.session = None
        self._session_engine.dispose()
        super().close()


# the limits a cluster counts in its database; a WebSocket's messages and chat lines are
# counted by the process that holds the connection (a table's WebSocket always reaches its
# owner), each a round trip too many for every message
SHARED_LIMITS = ("create", "join", "publish", "check", "read", "lobby", "profile", "invite")
_REFILL = "least(:burst, b.tokens + greatest(excluded.at - b.at, 0) * :rate)"
TAKE = text(  # one request's token, in one statement: the bucket refilled, then taken from
    "INSERT INTO sf_buckets AS b (kind, client, tokens, at, granted)"
    " VALUES (:kind, :client, :burst - 1, extract(epoch FROM clock_timestamp()), true)"
    " ON CONFLICT (kind, client) DO UPDATE SET"
    f" tokens = {_REFILL} - CASE WHEN {_REFILL} >= 1 THEN 1 ELSE 0 END,"
    f" granted = {_REFILL} >= 1, at = greatest(b.at, excluded.at)"
    " RETURNING tokens, granted"
)
PEEK = text(
    "SELECT least(:burst, tokens + greatest(extract(epoch FROM clock_timestamp()) - at, 0)"
    " * :rate) FROM sf_buckets WHERE kind = :kind AND client = :client"
)


class DatabaseBuckets:
    """The token buckets of a cluster's rate limits (server/limits.py's ``SharedBuckets``),
    rows of ``sf_buckets`` that every process updates in one statement each, on the
    database's clock: a client gets one server's rates from the whole cluster.

    A request's statement runs on the event loop, on a connection kept open: about a
    millisecond in a loaded server (docs/web.md, "Many processes"), where every caller takes
    its token synchronously; a thread would add its hand-over to that wait. A database that does not answer within ``timeout``
    seconds, or fails, is left alone for ``pause`` seconds, twice as long after each failure
    in a row up to ``most`` (the limiters count on this process's own buckets meanwhile, with a
    log line), so that a hiccup neither stalls every request nor locks everyone out."""

    def __init__(
        self,
        url: str,
        timeout: float = 0.25,
        pause: float = 5.0,
        most: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = create_engine(
            url,
            pool_size=1,  # every token is taken on the event loop: one at a time
            max_overflow=2,
            pool_timeout=timeout,
            connect_args={
                "connect_timeout": 2,  # libpq's least
                "options": f"-c statement_timeout={max(1, round(timeout * 1000))}"
                " -c synchronous_commit=off",  # a bucket needs no flush to disk
            },
        ).execution_options(isolation_level="AUTOCOMMIT")
        self.pause = self.first_pause = pause
        self.most = most
        self.clock = clock
        self.down_until = 0.0  # the store is not asked before this time (clock)

    def take(self, kind: str, client: str, rate: Any) -> float | None:
        row = self._run(TAKE, kind, client, rate)
        if row is None:
            return None
        tokens, granted = float(row[0]), bool(row[1])
        return tokens + 1 if granted else tokens

    def peek(self, kind: str, client: str, rate: Any) -> float | None:
        row = self._run(PEEK, kind, client, rate, missing=(float(rate.burst),))
        return None if row is None else float(row[0])

    def _run(self, sql: Any, kind: str, client: str, rate: Any, missing: Any = None) -> Any:
        if self.clock() < self.down_until:
            return None
        args = {"kind": kind, "client": client[:64], "burst": rate.burst, "rate": rate.per_second}
        try:
            with self.engine.connect() as c:
                row = c.execute(sql, args).first() or missing
        except Exception as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            log.error(
                "cluster: the shared rate limits do not answer (%s): this server counts on"
                " its own for %g s",
                first,
                self.pause,
            )
            self.down_until = self.clock() + self.pause
            self.pause = min(self.most, 2 * self.pause)
            return None
        self.pause = self.first_pause
        return row

    def forget_full(self, rates: Sequence[Any]) -> int:
        """Remove the buckets that have refilled (a missing row is a full bucket): the number
        removed. Every bucket is full again ``burst / per_second`` after its last request."""
        horizon = max((r.burst / r.per_second for r in rates if r.per_second > 0), default=0)
        with self.engine.connect() as c:
            gone = c.execute(
                text(
                    "DELETE FROM sf_buckets"
                    " WHERE at < extract(epoch FROM clock_timestamp()) - :horizon"
                ),
                {"horizon": horizon},
            )
            return int(gone.rowcount or 0)

    def close(self) -> None:
        self.engine.dispose()


def open_storage(db: str) -> Storage:
    """The storage of ``db``: shared by a cluster for PostgreSQL, one process's for SQLite."""
    if normalise_url(db).startswith("postgresql"):
        return ClusterStorage(db)
    return Storage(db)


def make_manager(db: str, settings: Settings | None) -> TableManager:
    """The table manager of a server on ``db`` (a cluster's for PostgreSQL), loaded."""
    storage = open_storage(db)
    manager = (
        ClusterManager(storage, settings)
        if isinstance(storage, ClusterStorage)
        else TableManager(storage, settings)
    )
    manager.load()
    return manager


class ClusterManager(TableManager):
    """The tables this process owns, and what it takes over, relays and lists for the others."""

    storage: ClusterStorage

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        assert isinstance(storage, ClusterStorage)
        super().__init__(storage, settings)
        self.url: str | None = None  # where the other processes reach this one (advertise)
        self.secret = self._secret()
        self.http: Any = None  # an httpx.AsyncClient, made in the event loop
        self._published: dict[str, str] = {}  # table id -> the public info written to sf_listed
        self._published_at = 0.0
        storage.on_lost = self.lost
        # the HTTP rate limits: one set for the cluster (DatabaseBuckets)
        self.buckets = DatabaseBuckets(storage.url)
        for kind in SHARED_LIMITS:
            self.limits[kind] = SharedRateLimiter(self.limits[kind], kind, self.buckets)

    @property
    def process(self) -> str:
        return self.storage.process

    def _secret(self) -> str:
        with self.storage.engine.begin() as c:
            new = pg_insert(secrets_t).values(name="relay", value=secrets.token_urlsafe(32))
            c.execute(new.on_conflict_do_nothing())
            value = c.execute(select(secrets_t.c.value).where(secrets_t.c.name == "relay"))
            return str(value.scalar_one())

    # -- start, stop -------------------------------------------------------------------------
    def load(self) -> int:
        """Take this process's share of the tables nobody holds (all of them if it is the
        only process): the number taken."""
        return self.sweep(arm=False)

    def start(self) -> None:
        super().start()
        self.spawn(self._sweeper())

    def advertise(self, url: str) -> None:
        """Other processes reach this one at ``url`` (``sheepfold serve`` tells, once it
        listens); the rows of processes that are gone are removed."""
        self.url = url
        self._register()

    def _register(self) -> None:
        """This process's row in ``sf_processes`` (written again by the sweep now and then:
        a row removed while the session was being opened again comes back)."""
        if self.url is None:
            return
        url = self.url
        with self.storage.engine.begin() as c:
            row = {"url": url, "pid": os.getpid(), "host": socket.gethostname()[:255]}
            c.execute(
                pg_insert(processes_t)
                .values(id=self.process, started=time.time(), **row)
                .on_conflict_do_update(index_elements=["id"], set_=row)
            )
            c.execute(
                text(
                    "DELETE FROM sf_processes WHERE :prefix || id NOT IN (SELECT"
                    " application_name FROM pg_stat_activity WHERE application_name IS NOT NULL)"
                ),
                {"prefix": PREFIX},
            )

    async def close(self) -> None:
        if self.http is not None:
            with contextlib.suppress(Exception):
                await self.http.aclose()
        await super().close()
        self.buckets.close()

    async def _sweeper(self) -> None:
        turns = 0
        while True:
            await asyncio.sleep(self.settings.cluster_sweep)
            turns += 1
            try:
                if turns % 10 == 0:
                    self._register()
                    self.buckets.forget_full([self.limits[k].rate for k in SHARED_LIMITS])
                self.sweep()
                if self.clock() - self._published_at >= self.settings.lobby_refresh:
                    self.publish()
            except Exception as e:  # the database does not answer: the next sweep tries again
                log.error("cluster: the sweep failed: %s", e)

    # -- owning tables -----------------------------------------------------------------------
    def held_keys(self) -> dict[int, str]:
        with self.storage.engine.connect() as c:
            return {key_of(r.hi, r.lo): r.who for r in c.execute(HELD)}

    def sweep(self, arm: bool = True) -> int:
        """Take this process's share of the unfinished tables that nobody holds (their owner
        died or stopped): the number taken."""
        with self.storage.engine.connect() as c:
            ids = list(c.execute(select(tables_t.c.id).where(tables_t.c.finished.is_(False))))
            live = int(c.execute(LIVE, {"like": PREFIX + "%"}).scalar() or 1)
        held = self.held_keys()
        orphans = [i for (i,) in ids if i not in self.tables and table_key(i) not in held]
        if not orphans:
            return 0
        random.shuffle(orphans)
        share = math.ceil(len(orphans) / max(1, live))
        taken = 0
        for table_id in orphans:
            if taken >= share:
                break
            taken += self.take(table_id, arm) is not None
        if taken:
            log.info("cluster: process %s took over %d table(s)", self.process, taken)
        return taken

    def take(self, table_id: str, arm: bool = True) -> Table | None:
        """Hold ``table_id`` and serve it, rebuilt from the database; None if another process
        holds it, or it is not stored, or damaged (quarantined here: this process keeps it)."""
        if not self.storage.lock(table_id):
            return None
        rows = self.storage.load_all(table_id)
        table = self.adopt(rows[0]) if rows else None
        if table is None:
            if table_id not in self.quarantined:
                self.storage.release(table_id)
            return None
        if arm:
            table.seating.arm_timers()
            table.schedule()
        return table

    def locate(self, table_id: str) -> str | None:
        """Where ``table_id`` is served: HERE (taken over if nobody held it), the owner's
        address, UNREACHABLE (its owner has not said where it listens yet), or None (no such
        table: the app answers)."""
        if table_id in self.tables or table_id in self.quarantined:
            return HERE
        for _ in range(2):  # a race lost to another process: it is the owner now
            hi, lo = key_parts(table_key(table_id))
            with self.storage.engine.connect() as c:
                found = c.execute(
                    WHEREABOUTS, {"id": table_id, "hi": hi, "lo": lo, "prefix": PREFIX}
                ).first()
            if found is None:
                return None
            if found.who is None:
                if self.take(table_id) is not None or table_id in self.quarantined:
                    return HERE
                continue
            if found.who == PREFIX + self.process:  # held, not in memory: never expected
                return HERE
            return str(found.url) if found.url else UNREACHABLE
        return UNREACHABLE

    def lost(self, owned: set[str]) -> None:
        """The session is gone, and its locks with it: every table held is dropped (another
        process takes each over from the database); its clients are disconnected, so that
        they reconnect and reach the new owner."""
        for table_id in owned:
            t = self.tables.pop(table_id, None)
            self._published.pop(table_id, None)
            if t is None:
                continue
            for s in t.seats:
                if s.leave_timer is not None:
                    s.leave_timer.cancel()
                    s.leave_timer = None
            t.bots.task_key = t.bots.race_key = None
            for conn in list(t.conns):
                conn.close()
        self.lobby_changed(now=True)

    # -- the lobby, from the database ---------------------------------------------------------
    def publish(self) -> None:
        """Write the public info of this process's tables that changed into ``sf_listed``."""
        self._published_at = self.clock()
        rows = []
        for t in self.tables.values():
            info = json.dumps(t.public_info(), separators=(",", ":"))
            if self._published.get(t.id) != info and t.id in self.storage.owned:
                self._published[t.id] = info
                done = time.time() - (self.clock() - t.finished_at) if t.finished_at else None
                rows.append(
                    {
                        "table_id": t.id,
                        "rank": t.rank[0],
                        "created": t.created,
                        "private": t.private,
                        "done": done,
                        "info": info,
                    }
                )
        if not rows:
            return
        up = pg_insert(listed_t)
        keep = {k: up.excluded[k] for k in ("rank", "private", "done", "info")}

        def write(c: Any) -> None:
            c.execute(up.on_conflict_do_update(index_elements=["table_id"], set_=keep), rows)

        self.storage._on_session(write)

    def lobby_listing(self) -> bytes:
        """The lobby of every process: ``sf_listed``, newest first in each class, leaving out
        private tables and those finished ``archive_after`` seconds ago."""
        now = self.clock()
        fresh = not self._lobby_dirty or now - self._lobby_built < self.settings.lobby_refresh
        if self._lobby is None or not fresh:
            self.publish()
            q = select(listed_t.c.info).where(listed_t.c.private.is_(False))
            if self.settings.archive_after > 0:
                since = time.time() - self.settings.archive_after
                q = q.where(listed_t.c.done.is_(None) | (listed_t.c.done > since))
            q = q.order_by(listed_t.c.rank, listed_t.c.created.desc()).limit(100)
            with self.storage.engine.connect() as c:
                infos = list(c.execute(q).scalars())
            self._lobby = ("[" + ",".join(infos) + "]").encode()
            self._lobby_built, self._lobby_dirty = now, False
        return self._lobby

    def summaries(self) -> list[Any]:
        """Every table that plays a gallery rule set, whichever process holds it (this one's
        from memory, the others' from the database): what the gallery counts."""
        q = select(tables_t.c.id, tables_t.c.game, tables_t.c.config, tables_t.c.finished)
        q = q.where(text("(sf_tables.config -> 'gallery') IS NOT NULL"))
        with self.storage.engine.connect() as c:
            rows = [
                r for r in c.execute(q) if r.id not in self.tables and isinstance(r.config, dict)
            ]
        stored = [
            Stored(r.id, r.game, {"gallery": r.config.get("gallery")}, r.finished) for r in rows
        ]
        return [*self.tables.values(), *stored]

    def archive_finished(self) -> int:
        for table_id in [t for t in self._published if t not in self.tables]:
            del self._published[table_id]
        return super().archive_finished()

    def trusted(self, scope: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        return trusted(scope, self.secret)


def trusted(scope: dict[str, Any], secret: str) -> tuple[dict[str, Any], bool]:
    """The request without the cluster's headers, and whether a process of the cluster relayed
    it (its ``secret`` is right: then its client is the address the relaying process saw). A
    stranger's such headers are dropped and change nothing."""
    headers = scope.get("headers") or []
    given = next((v for k, v in headers if k == RELAY), None)
    client = next((v for k, v in headers if k == CLIENT), None)
    if given is None and client is None:
        return scope, False
    scope = {**scope, "headers": [(k, v) for k, v in headers if k not in (RELAY, CLIENT)]}
    if given is None or not secrets.compare_digest(given, secret.encode()):
        return scope, False
    if client:
        scope["client"] = (client.decode("latin-1")[:64], 0)
    return scope, True


@dataclass
class Stored:
    """A table another process holds, or none, as the gallery counts it."""

    id: str
    name: str
    config: dict[str, Any]
    done: bool

    def finished(self) -> bool:
        return self.done


class Relay:
    """ASGI middleware: a request or WebSocket for a table another process owns goes to that
    process, and its answer back; a table nobody holds is taken over first."""

    def __init__(self, app: Any, manager: Callable[[], TableManager | None]) -> None:
        self.app = app
        self.manager = manager

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        m = self.manager() if scope["type"] in ("http", "websocket") else None
        if not isinstance(m, ClusterManager):
            return await self.app(scope, receive, send)
        scope, relayed = m.trusted(scope)
        found = (TABLE_HTTP if scope["type"] == "http" else TABLE_WS).match(scope["path"])
        if found is None:
            return await self.app(scope, receive, send)
        where = m.locate(found.group(1))
        if where == HERE:
            return await self.app(scope, receive, _owned(send, found.group(1)))
        if where is None:
            return await self.app(scope, receive, send)
        if relayed or where == UNREACHABLE:  # it moves between processes: a moment
            return await _unavailable(scope, send)
        client = (scope.get("client") or ("unknown", 0))[0]
        extra = [(RELAY, m.secret.encode()), (CLIENT, str(client).encode())]
        if scope["type"] == "http":
            await _relay_http(m, scope, receive, send, where, extra)
        else:
            await _relay_ws(scope, receive, send, where, extra)


def _owned(send: Any, table_id: str) -> Any:
    """``send`` with the owner's header on the answer's head (or the WebSocket's accept),
    unless the app set it (a new table's creation names the new table)."""
    mark = (OWNER, table_id.encode())

    async def owned(msg: dict[str, Any]) -> None:
        if msg["type"] in ("http.response.start", "websocket.accept"):
            headers = list(msg.get("headers") or [])
            if not any(k.lower() == OWNER for k, _ in headers):
                headers.append(mark)
            msg = {**msg, "headers": headers}
        await send(msg)

    return owned


MOVING = "this table is moving to another server: try again in a moment"


async def _unavailable(scope: dict[str, Any], send: Any) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1013, "reason": "try again"})
        return
    body = json.dumps({"detail": MOVING}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", b"1"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _target(scope: dict[str, Any], base: str) -> str:
    query = scope.get("query_string") or b""
    return base + scope["path"] + ("?" + query.decode("latin-1") if query else "")


async def _relay_http(
    m: ClusterManager,
    scope: dict[str, Any],
    receive: Any,
    send: Any,
    base: str,
    extra: list[tuple[bytes, bytes]],
) -> None:
    import httpx

    body, more = b"", True
    while more:
        msg = await receive()
        if msg["type"] == "http.disconnect":
            return
        body += msg.get("body", b"")
        more = bool(msg.get("more_body"))
        if len(body) > m.settings.max_body:  # the owner's guard would refuse it: so do we
            return await _answer(send, 413, f"a request is at most {m.settings.max_body} bytes")
    if m.http is None:
        m.http = httpx.AsyncClient(timeout=15, trust_env=False)
    headers = [(k, v) for k, v in scope["headers"] if k not in HOP] + extra
    try:
        r = await m.http.request(
            scope["method"], _target(scope, base), content=body, headers=headers
        )
    except httpx.HTTPError:  # the owner died under the request: it is taken over soon
        return await _unavailable(scope, send)
    out = [(k, v) for k, v in r.headers.raw if k.lower() not in HOP]
    out += [(b"content-length", str(len(r.content)).encode()), VIA]
    await send({"type": "http.response.start", "status": r.status_code, "headers": out})
    await send({"type": "http.response.body", "body": r.content})


async def _answer(send: Any, status: int, words: str) -> None:
    body = json.dumps({"detail": words}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _relay_ws(
    scope: dict[str, Any], receive: Any, send: Any, base: str, extra: list[tuple[bytes, bytes]]
) -> None:
    """The client's WebSocket, passed to the owner's and back. When the owner's ends without a
    close of its own (it died), the client's is closed with 1012 (service restart): it
    reconnects, through the balancer, and reaches the table's new owner."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    if (await receive())["type"] != "websocket.connect":
        return
    url = "ws" + base.removeprefix("http") + scope["path"]
    headers = [(k.decode(), v.decode("latin-1")) for k, v in extra]
    try:
        up = await connect(
            url,
            additional_headers=headers,
            open_timeout=5,
            max_size=1 << 22,
            compression=None,
            proxy=None,
        )
    except Exception:
        await send({"type": "websocket.close", "code": 1013, "reason": "try again"})
        return
    await send({"type": "websocket.accept", "headers": [VIA]})

    async def down() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in up:
                key = "text" if isinstance(message, str) else "bytes"
                await send({"type": "websocket.send", key: message})

    async def upward() -> None:
        while True:
            msg = await receive()
            if msg["type"] == "websocket.disconnect":
                return
            data = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
            if data is not None:
                await up.send(data)

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(upward())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
    if tasks[0] in done:  # the owner closed it (or died)
        code = up.close_code
        code = 1012 if code is None or code in (1006, 1011) else code
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code})
    with contextlib.suppress(Exception):
        await up.close()


def advertise(app: Any, url: str) -> None:
    """``sheepfold serve`` listens at ``url``: the other processes of a cluster relay there."""
    manager = getattr(app.state, "manager", None)
    if isinstance(manager, ClusterManager):
        manager.advertise(url)
