"""One ``sheepfold serve`` per database: a lock held for the life of the process.

Two servers on one database each keep their tables in memory and write what they alone saw:
views go stale, a seat is given twice, moves are refused, the lab runs twice. Until the server
can scale out, the second is refused at start. The lock dies with its process, however it ends
(kill -9 included), so a crash never leaves a database locked:

* SQLite: a POSIX record lock (``lockf``) on a file beside the database, ``<file>.lock``,
  holding the server's process id. A record lock is not inherited by forked children, so a
  bot or lab process outliving the server cannot keep it. Where that file cannot be created
  (a read-only folder), the database file itself is locked whole (``flock``; SQLite's own
  locks are record locks, separate from it).
* PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection of its own,
  kept open; the database frees it when that connection ends.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
from typing import Any

from sheepfold.server.storage import _sqlite_file, normalise_url

LOCK_KEY = int.from_bytes(hashlib.sha256(b"sheepfold serve").digest()[:8], "big", signed=True)
"""The advisory lock's key in a PostgreSQL database (a fixed 64-bit number)."""

_held: list[Any] = []  # the locks of this process: kept referenced until it ends


class DatabaseInUse(Exception):
    """Another server holds the database; the message says which and what to do."""


def _refusal(where: str, holder: str) -> DatabaseInUse:
    return DatabaseInUse(
        f"another sheepfold serve{holder} is already serving {where}: stop it first "
        "(one server process per database)"
    )


def lock_database(url: str) -> None:
    """Hold ``url``'s database for this process until it ends; DatabaseInUse if another
    process holds it. An in-memory database needs no lock."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = _sqlite_file(url)
        if path is not None:
            _held.append(_lock_file(os.path.realpath(path)))
    else:
        _held.append(_lock_postgres(url))


def _lock_file(path: str) -> int:
    try:
        fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        beside = True
    except OSError:  # a read-only folder: the database file itself
        fd, beside = os.open(path, os.O_RDONLY), False
    try:
        if beside:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # a record lock needs write access: a whole-file lock then
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip() if beside else ""
        os.close(fd)
        raise _refusal(path, f" (process {pid})" if pid.isdigit() else "") from None
    if beside:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _lock_postgres(url: str) -> Any:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    who = f"sheepfold serve (process {os.getpid()} on {socket.gethostname()})"
    engine = create_engine(
        url,
        poolclass=NullPool,
        connect_args={"application_name": who[:63], "keepalives_idle": 30},
    )
    conn = engine.connect()
    got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": LOCK_KEY}).scalar()
    conn.commit()
    if got:
        return conn
    holder = conn.execute(
        text(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND (l.classid::bigint << 32 | l.objid::bigint) = :k"
        ),
        {"k": LOCK_KEY},
    ).scalar()
    conn.close()
    engine.dispose()
    name = url.split("@")[-1]
    shown = str(holder).removeprefix("sheepfold serve") if holder else ""
    raise _refusal(f"the database {name}", shown)
