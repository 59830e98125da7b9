"""Durable storage of tables: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by URL.

What is stored is what it takes to rebuild every table exactly: the table's set-up (game, rules,
seat count, Dolly Crush breeds, the seed) and the list of every engine action applied, chance
outcomes included, in order. A table is rebuilt by replaying its actions on a new state made
from the same set-up (see :mod:`sheepfold.server.tables`). Seats (who holds them, a hash of the
seat's secret token, bot name) live in their own table, updated when a seat changes hands.

Every write is one transaction committed before the caller goes on: the server tells nobody
about an action before :meth:`Storage.append_actions` has returned.

The rule-set gallery's rows (published rule sets, their versions and lab cards, votes) live in
the same database: their tables are declared here, their reads and writes are in
:mod:`sheepfold.server.gallery_store`; so do players' profiles, their finished games and
ratings (:mod:`sheepfold.server.profiles`), and a seat's profile.

The seed is stored as decimal text (the server's seeds have 129 bits: more than any SQL integer
holds); a database written before that, with a BIGINT ``seed`` column, is migrated when it is
opened; a column declared after a database was made (a seat's client address, a lab card's
attempts, a version's named base) is added to it when it is opened. Reading never trusts a row: a table whose row
cannot be read comes back with its ``damage`` said in words (the server quarantines it,
``sheepfold db check`` names it).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

metadata = MetaData()

tables_t = Table(
    "sf_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("config", JSON, nullable=False),  # rules, ruleset name, breeds, options
    Column("seed", String(64), nullable=False),  # decimal: any integer (129-bit seeds)
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
)

seats_t = Table(
    "sf_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" | "bot"
    Column("name", String(64), nullable=True),  # None: a free human seat
    Column("bot", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("client", String(64), nullable=True),  # the address that took it (gallery votes)
    Column("profile", String(32), nullable=True),  # the player's profile (server/profiles.py)
    # moves its person made themselves, counted up to ratings.MIN_OWN_MOVES (a rated game's)
    Column("moves", Integer, nullable=True),
)
#: "Your tables": a profile's seats (made on an older database too: Storage._schema)
seats_profile_ix = Index("ix_sf_seats_profile", seats_t.c.profile)

actions_t = Table(
    "sf_actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),  # -1 = chance
    Column("action", Integer, nullable=False),
    # SQLite: the rows in their key's order, one tree (a commit writes one page less to the WAL
    # than a rowid table with its key's index); a database made before keeps its rowid table
    sqlite_with_rowid=False,
)

_raw_config = type_coerce(tables_t.c.config, Text).label("config")

health_t = Table(  # one row, rewritten by each health check: the database accepts writes
    "sf_health",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("checked", Float, nullable=False),
)


# -- the rule-set gallery (rows read and written by server/gallery_store.py) ------------------
rulesets_t = Table(
    "sf_rulesets",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(32), nullable=False),
    Column("slug", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("author", Text, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("client", String(64), nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("game", "slug", name="uq_sf_rulesets_game_slug"),
)

versions_t = Table(
    "sf_ruleset_versions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ruleset_id", Integer, ForeignKey("sf_rulesets.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("description", Text, nullable=False),
    Column("rules", JSON, nullable=False),  # the options that differ from the rulebook
    # the rule set its rules name as their base (their ``from``); None: none named, the closest
    Column("base", String(64), nullable=True),
    Column("changes", JSON, nullable=False),  # categories, for the filters
    Column("differences", JSON, nullable=False),  # lines in words
    Column("client", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("lab_status", String(16), nullable=False),  # queued running done failed refused
    Column("lab_progress", Float, nullable=False, default=0.0),
    Column("lab_queued", Float, nullable=True),  # the queue's order
    Column("lab_message", Text, nullable=True),
    Column("lab_card", JSON, nullable=True),
    Column("lab_plot", Text, nullable=True),
    # the card's starts: a card a dead server left running resumes once (server/gallery_lab.py)
    Column("lab_attempts", Integer, nullable=False, default=0, server_default="0"),
    UniqueConstraint("ruleset_id", "version", name="uq_sf_versions_ruleset_version"),
)

votes_t = Table(
    "sf_votes",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("game", String(32), nullable=False),
    Column("slug", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("again", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("client", String(64), nullable=True),  # the voter: the address that held the seat
)


# -- players' profiles, their games and ratings (rows read and written by server/profiles.py) --
profiles_t = Table(
    "sf_profiles",
    metadata,
    Column("id", String(32), primary_key=True),  # public: the profile page's address
    Column("name", String(64), nullable=False),
    Column("secret_hash", String(64), nullable=False, unique=True),  # never the secret
    Column("client", String(64), nullable=False),  # the address that made it (its daily cap)
    Column("created", Float, nullable=False),
)

profile_games_t = Table(  # one row per profiled seat of a finished table: a profile's history
    "sf_profile_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("profile", String(32), nullable=False, index=True),
    Column("game", String(32), nullable=False),
    Column("summary", JSON, nullable=False),  # the rules in words, every seat and its place
    Column("place", Integer, nullable=False),  # 1: won (ties share a place)
    Column("rating_before", Float, nullable=True),  # None: the game was not rated
    Column("rating_after", Float, nullable=True),
    Column("finished", Float, nullable=False),
    Column("client", String(64), nullable=True),  # the seat's client key (one rated game a day)
    # its person left before the end (a bot finished it for them); None: not counted in their
    # reliability (no other person at the table, or a game written before it was counted)
    Column("left_early", Boolean, nullable=True),
)
#: a game's end reads the rated games of the last 24 hours (server/profiles.py: met_lately)
profile_games_finished_ix = Index("ix_sf_profile_games_finished", profile_games_t.c.finished)

ratings_t = Table(
    "sf_ratings",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games
    Column("updated", Float, nullable=False),
)

left_seats_t = Table(  # a person with a profile who left an unfinished game (a bot has the seat)
    "sf_left_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("profile", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("client", String(64), nullable=True),  # their client key
    Column("moves", Integer, nullable=False),  # their own moves (up to ratings.MIN_OWN_MOVES)
)


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    client: str | None = None  # the client address that took the seat (None: free, a bot)
    profile: str | None = None  # the profile of the person holding it (None: none, a bot)
    moves: int = 0  # moves its person made themselves (counted up to ratings.MIN_OWN_MOVES)


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    config: dict[str, Any]
    seed: int
    created: float
    finished: bool
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int, int]] = field(default_factory=list)
    damage: str | None = None  # why the stored row cannot be used as it is (None: it can)


class StorageUnhealthy(Exception):
    """The database does not answer, or does not accept writes (``Storage.check_health``)."""


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` (psycopg 3 driver) and plain file paths for SQLite."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


class Storage:
    """The database behind a server. Thread-compatible; the server calls it from one loop."""

    #: a new table's rows may be written from a worker thread (each transaction on a
    #: connection of its own); a cluster's are written on the one connection holding its tables
    writes_in_threads = True

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        self.path = _sqlite_file(self.url)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with _schema_lock(self.engine):  # many servers may start at once on PostgreSQL
            self._schema()
        self._inode = os.stat(self.path).st_ino if self.path else None
        self._writer: Any = None  # one connection kept for the hot path (appending actions)
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        # the hot path (append_many) skips the SQL compiler: plain driver statements
        self._insert_sql = f"INSERT INTO sf_actions (table_id, idx, seat, action) VALUES ({mark}, {mark}, {mark}, {mark})"
        self._finish_sql = f"UPDATE sf_tables SET finished = {mark} WHERE id = {mark}"

    def _schema(self) -> None:
        """Make (or migrate) the database's tables."""
        metadata.create_all(self.engine)
        _migrate_seed_to_text(self.engine)
        _add_missing_columns(self.engine)
        seats_profile_ix.create(self.engine, checkfirst=True)
        profile_games_finished_ix.create(self.engine, checkfirst=True)

    @property
    def kind(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # -- writes (each one committed before it returns) ---------------------------------------
    def _begin(self) -> Any:
        """A write transaction, once the database file is known to be there (SQLite)."""
        self.check_file()
        return self.engine.begin()

    def transaction(self) -> Any:
        """A write transaction for other modules' tables (the gallery's), checked like ours."""
        return self._begin()

    def table_write(self, table_id: str) -> Any:
        """The write transaction of one table's rows (a cluster's storage writes them on the
        connection that holds the table: server/cluster.py)."""
        return self._begin()

    def release(self, table_id: str) -> None:
        """The server keeps ``table_id`` in memory no longer (a cluster frees its hold on it)."""

    def create_table(self, row: TableRow) -> None:
        with self.table_write(row.id) as c:
            c.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    players=row.players,
                    config=row.config,
                    seed=str(row.seed),
                    created=row.created or time.time(),
                    finished=row.finished,
                )
            )
            c.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "client": s.client,
                        "profile": s.profile,
                    }
                    for s in row.seats
                ],
            )
            if row.actions:
                c.execute(
                    insert(actions_t),
                    [
                        {"table_id": row.id, "idx": i, "seat": seat, "action": a}
                        for i, (seat, a) in enumerate(row.actions)
                    ],
                )

    def append_actions(
        self, table_id: str, start: int, actions: Sequence[tuple[int, int]], finished: bool = False
    ) -> None:
        """Write actions ``start, start+1, ...`` of a table (and whether it is now over)."""
        self.append_many([(table_id, start, actions, finished)])

    def append_many(
        self, batch: Sequence[tuple[str, int, Sequence[tuple[int, int]], bool]]
    ) -> None:
        """Several tables' new actions in one transaction (group commit): all or nothing.

        The hot path: two plain driver statements on the driver's own connection, committed
        there (SQLAlchemy's execution and transaction machinery cost more than the statements
        themselves); a driver error is raised as SQLAlchemy's (``IntegrityError``...)."""
        rows = [
            (tid, start + i, seat, a)
            for tid, start, acts, _ in batch
            for i, (seat, a) in enumerate(acts)
        ]
        done = [(True, tid) for tid, _, _, fin in batch if fin]
        if not rows and not done:
            return
        c = self._writer_for([tid for tid, *_ in batch])
        raw = c.connection.dbapi_connection
        sql = self._insert_sql
        try:
            cur = raw.cursor()
            try:
                if rows:
                    cur.executemany(sql, rows)
                if done:
                    sql = self._finish_sql
                    cur.executemany(sql, done)
            finally:
                cur.close()
            raw.commit()
        except Exception as e:
            with contextlib.suppress(Exception):
                raw.rollback()
            self._write_failed(c)
            dbapi = self.engine.dialect.loaded_dbapi
            if isinstance(e, dbapi.Error):
                raise DBAPIError.instance(sql, rows, e, dbapi.Error) from e
            raise

    def _writer_for(self, table_ids: Sequence[str]) -> Any:
        """The connection the hot path appends ``table_ids``' actions on."""
        self.check_file()
        if self._writer is None:
            self._writer = self.engine.connect()
        return self._writer

    def _write_failed(self, c: Any) -> None:
        self._writer = None  # a broken connection is not used again
        try:
            c.close()
        except Exception:
            pass

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        with self.table_write(table_id) as c:
            c.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    bot=seat.bot,
                    token_hash=seat.token_hash,
                    client=seat.client,
                    profile=seat.profile,
                    moves=seat.moves,
                )
            )

    # -- reads -------------------------------------------------------------------------------
    def load_all(
        self, table_id: str | None = None, finished_actions: bool = True
    ) -> list[TableRow]:
        """Every table with its seats and actions (or the one ``table_id``; without the
        actions of finished tables if not ``finished_actions``). A row that cannot be read
        (its config is not a JSON object, its seed no integer) has its ``damage``."""
        with self.engine.connect() as c:
            # the config as the stored text (read by _table_row): bad JSON damages one row
            raw = [*(col for col in tables_t.c if col.name != "config"), _raw_config]
            q_tables, q_seats = select(*raw), select(seats_t)
            q_actions = select(actions_t)
            if table_id is not None:
                q_tables = q_tables.where(tables_t.c.id == table_id)
                q_seats = q_seats.where(seats_t.c.table_id == table_id)
                q_actions = q_actions.where(actions_t.c.table_id == table_id)
            if not finished_actions:
                live = select(tables_t.c.id).where(tables_t.c.finished.is_(False))
                q_actions = q_actions.where(actions_t.c.table_id.in_(live))
            rows = {r.id: _table_row(r) for r in c.execute(q_tables)}
            for r in c.execute(q_seats.order_by(seats_t.c.table_id, seats_t.c.seat)):
                if r.table_id in rows:
                    rows[r.table_id].seats.append(
                        SeatRow(
                            r.seat,
                            r.kind,
                            r.name,
                            r.bot,
                            r.token_hash,
                            r.client,
                            r.profile,
                            r.moves or 0,
                        )
                    )
            for r in c.execute(q_actions.order_by(actions_t.c.table_id, actions_t.c.idx)):
                row = rows.get(r.table_id)
                if row is None:
                    continue
                if r.idx != len(row.actions) and row.damage is None:
                    row.damage = (
                        f"action {len(row.actions)} is missing (the next stored is {r.idx})"
                    )
                row.actions.append((r.seat, r.action))
        return sorted(rows.values(), key=lambda t: t.created)

    # -- health ------------------------------------------------------------------------------
    def check_file(self) -> None:
        """SQLite: the file the server opened is still there, and writable. (A deleted file
        takes every later commit with it; a read-only one refuses them.)"""
        if self.path is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise StorageUnhealthy(f"the database file {self.path} is gone") from None
        if st.st_ino != self._inode:
            raise StorageUnhealthy(f"the database file {self.path} was replaced by another file")
        if not st.st_mode & 0o222:
            raise StorageUnhealthy(f"the database file {self.path} is read-only")

    def check_health(self) -> int:
        """The database answers and accepts a write (committed): the number of stored tables.
        StorageUnhealthy says what is wrong."""
        try:
            with self._begin() as c:
                c.execute(delete(health_t))
                c.execute(insert(health_t).values(id=1, checked=time.time()))
                return len(c.execute(select(tables_t.c.id)).all())
        except StorageUnhealthy:
            raise
        except Exception as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StorageUnhealthy(f"the database does not accept a write: {first}") from None


def _table_row(r: Any) -> TableRow:
    """A stored table row, with its ``damage`` if its config or seed cannot be read."""
    row = TableRow(r.id, r.game, r.players, {}, 0, r.created, bool(r.finished))
    try:
        row.config = _json(r.config)
    except (ValueError, TypeError) as e:
        row.damage = f"its config is not a JSON object ({e})"
    try:
        row.seed = int(r.seed)
    except (ValueError, TypeError):
        row.damage = row.damage or f"its seed {r.seed!r} is not an integer"
    return row


def _json(value: Any) -> dict[str, Any]:
    out = json.loads(value) if isinstance(value, str) else value
    if not isinstance(out, dict):
        raise TypeError(f"{type(out).__name__}, not an object")
    return out


def _sqlite_file(url: str) -> str | None:
    """The file of an SQLite URL (None: not SQLite, or in memory)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].split("?", 1)[0]
    if path.startswith("file:"):
        path = path[len("file:") :]
    return path if path and path != ":memory:" else None


SCHEMA_KEY = int.from_bytes(b"sfschema", "big")  # PostgreSQL: the schema's advisory lock


@contextlib.contextmanager
def _schema_lock(engine: Engine) -> Iterator[None]:
    """PostgreSQL: one process at a time makes or migrates the tables (a session advisory
    lock; the others wait, then find them made). SQLite: one process anyway."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as c:
        c.execute(text("SELECT pg_advisory_lock(:k)"), {"k": SCHEMA_KEY})
        c.commit()
        try:
            yield
        finally:
            c.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SCHEMA_KEY})
            c.commit()


def _migrate_seed_to_text(engine: Engine) -> None:
    """A database written before seeds were text has ``seed`` BIGINT: it becomes text, in one
    transaction (a new column, the seeds copied, the old one dropped, the new one renamed)."""
    cols = {c["name"]: c for c in inspect(engine).get_columns("sf_tables")}
    if isinstance(cols["seed"]["type"], String):
        return
    with engine.begin() as c:
        c.execute(text("ALTER TABLE sf_tables ADD COLUMN seed_text VARCHAR(64)"))
        c.execute(text("UPDATE sf_tables SET seed_text = CAST(seed AS VARCHAR(64))"))
        c.execute(text("ALTER TABLE sf_tables DROP COLUMN seed"))
        c.execute(text("ALTER TABLE sf_tables RENAME COLUMN seed_text TO seed"))


def _add_missing_columns(engine: Engine) -> None:
    """A database written before a column was declared gets it (``create_all`` makes missing
    tables, not missing columns): each added empty, or with its server default."""
    found = inspect(engine)
    for table in metadata.sorted_tables:
        have = {c["name"] for c in found.get_columns(table.name)}
        for col in (c for c in table.columns if c.name not in have):
            sql = (
                f"ALTER TABLE {table.name} ADD COLUMN {col.name} {col.type.compile(engine.dialect)}"
            )
            default = getattr(col.server_default, "arg", None)
            if default is not None:
                sql += f" DEFAULT {default}"
            if not col.nullable:
                sql += " NOT NULL"
            with engine.begin() as c:
                c.execute(text(sql))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: a commit is durable against a killed process (kill -9) without an fsync per commit.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
