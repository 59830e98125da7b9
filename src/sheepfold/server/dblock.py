"""One ``sheepfold serve`` per SQLite database: a lock held for the life of the process.

Two servers on one SQLite file would each keep their tables in memory and write what they alone
saw: views go stale, a seat is given twice, moves are refused, the lab runs twice. So the second
is refused at start. (On PostgreSQL any number of processes cooperate instead: each table has one
owner, see server/cluster.py.) The lock dies with its process, however it ends (kill -9
included), so a crash never leaves a database locked: a POSIX record lock (``lockf``) on a file
beside the database, ``<file>.lock``, holding the server's process id. A record lock is not
inherited by forked children, so a bot or lab process outliving the server cannot keep it.
Where that file cannot be created (a read-only folder), the database file itself is locked
whole (``flock``; SQLite's own locks are record locks, separate from it).
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from sheepfold.server.storage import _sqlite_file, normalise_url

_held: list[Any] = []  # the locks of this process: kept referenced until it ends


class DatabaseInUse(Exception):
    """Another server holds the database; the message says which and what to do."""


def _refusal(where: str, holder: str) -> DatabaseInUse:
    return DatabaseInUse(
        f"another sheepfold serve{holder} is already serving {where}: stop it first "
        "(one server process per database)"
    )


def lock_database(url: str) -> None:
    """Hold ``url``'s SQLite database for this process until it ends; DatabaseInUse if another
    process holds it. An in-memory database needs no lock, nor does PostgreSQL (shared)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = _sqlite_file(url)
        if path is not None:
            _held.append(_lock_file(os.path.realpath(path)))


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
