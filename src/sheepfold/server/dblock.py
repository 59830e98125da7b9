"""One ``sheepfold serve`` per SQLite database: a lock held for the life of the process.

Two servers on one SQLite file would each keep their tables in memory and write what they alone
saw: views go stale, a seat is given twice, moves are refused, the lab runs twice. So the second
is refused at start. (On PostgreSQL any number of processes cooperate instead: each table has one
owner, see server/cluster.py.) The lock is on the database file itself, so every name of that
file is the same database: another spelling, a symbolic link, a hard link, a bind mount (a lock
belongs to the file's device and inode, not to a name). It is a whole-file lock (``flock``),
separate from SQLite's own record locks, and it dies with its process, however it ends (kill -9
included), so a crash never leaves a database locked. A forked child (a bot or lab worker) closes
its copy at once, so a child outliving the server cannot keep it. The holder's process id is read
back from the system's table of locks (``/proc/locks``) by the file's device and inode.
"""

from __future__ import annotations

import fcntl
import os

from sheepfold.server.storage import _sqlite_file, normalise_url

_held: list[int] = []  # the locks of this process: kept open until it ends


def _close_in_child() -> None:  # a forked child never holds the parent's database
    for fd in _held:
        os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_close_in_child)


class DatabaseInUse(Exception):
    """Another server holds the database; the message says which and what to do."""


def _refusal(where: str, holder: int | None) -> DatabaseInUse:
    process = f" (process {holder})" if holder is not None else ""
    return DatabaseInUse(
        f"another sheepfold serve{process} is already serving {where}: stop it first "
        "(one server process per database)"
    )


def lock_database(url: str) -> None:
    """Hold ``url``'s SQLite database for this process until it ends; DatabaseInUse if another
    process holds it (by any name). An in-memory database needs no lock, nor does PostgreSQL
    (shared)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = _sqlite_file(url)
        if path is not None:
            _held.append(lock_file(os.path.realpath(path)))


def lock_file(path: str) -> int:
    """An open descriptor of ``path`` (created empty when missing: SQLite takes an empty file
    as an empty database) holding its exclusive whole-file lock; DatabaseInUse if another open
    file holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # a read-only folder or file: a whole-file lock needs no write access
        fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _holder(os.fstat(fd))
        os.close(fd)
        raise _refusal(path, holder) from None
    return fd


def _holder(st: os.stat_result) -> int | None:
    """The process holding a whole-file lock on that device and inode, from ``/proc/locks``
    (lines like ``1: FLOCK  ADVISORY  WRITE 4242 08:01:131 0 EOF``); None where unknown."""
    key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks") as locks:
            for line in locks:
                fields = line.split()
                if "->" in fields:  # a process waiting for the lock, not holding it
                    continue
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == key:
                    return int(fields[4]) if fields[4].isdigit() else None
    except OSError:  # not Linux
        pass
    return None
