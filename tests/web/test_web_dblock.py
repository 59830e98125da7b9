"""One ``sheepfold serve`` per SQLite database: a second one is refused at start with one clear
line and exit status 2, and the lock dies with the process that held it, kill -9 included. (On
PostgreSQL many processes cooperate: tests/web/test_cluster.py.)"""

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_connections import ATTACKER
from test_web_crash import SERVING

from polling import wait_until
from sheepfold.server import dblock
from sheepfold.server.dblock import lock_file

SERVE = [sys.executable, "-m", "sheepfold.cli.main", "serve", "--port", "0", "--bot-delay", "0"]
ENV = {**os.environ, "COLUMNS": "300"}


def start_server(
    db: str, logs: Path, *options: str, printed: list[str] | None = None, **popen: Any
) -> tuple[subprocess.Popen[str], int]:
    """``sheepfold serve`` on ``db``, once it printed its address (its log: ``logs``; what it
    prints goes on into ``printed``); the process and its port."""
    with open(logs, "wb") as log:
        proc = subprocess.Popen(
            [*SERVE, "--db", db, *options],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env=ENV,
            **popen,
        )
    printed = [] if printed is None else printed

    def read() -> None:  # to the end, so the server never blocks on its output
        assert proc.stdout is not None
        printed.extend(proc.stdout)

    threading.Thread(target=read, daemon=True).start()

    def address() -> re.Match[str] | None:  # a cold cache: a line on the warm-up first
        return next(filter(None, map(SERVING.search, printed)), None)

    try:
        found = wait_until(
            lambda: address() or proc.poll() is not None,
            what="the server to print its address",
            timeout=600,  # a cold numba cache compiles the bots first
        )
    except AssertionError:
        proc.kill()
        proc.wait()
        raise
    if not isinstance(found, re.Match):
        raise AssertionError(f"the server ended: {logs.read_text()}")
    return proc, int(found.group(1))


def _low_open_files_limit() -> None:  # in the child, before it runs the server
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))


def second_serve(db: str) -> subprocess.CompletedProcess[str]:
    """A second ``sheepfold serve`` on ``db``: it must end by itself, at once."""
    return subprocess.run(
        [*SERVE, "--db", db], capture_output=True, text=True, timeout=120, env=ENV
    )


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[str]]]:
    """The server processes a test started: killed at its end, whatever happened."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _refused(out: subprocess.CompletedProcess[str], where: str) -> str:
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "another sheepfold serve" in lines[0] and where in lines[0], lines[0]
    assert "stop it first" in lines[0] and "Traceback" not in out.stderr
    return lines[0]


def test_a_second_server_on_one_sqlite_file_is_refused_until_the_first_dies(tmp_path, servers):
    db = str(tmp_path / "tables.db")
    first, _ = start_server(db, tmp_path / "first.log")
    servers.append(first)
    line = _refused(second_serve(db), db)
    assert f"(process {first.pid})" in line
    # the same file spelled another way is the same database
    _refused(second_serve(f"sqlite:///{db}"), db)
    (tmp_path / "link").symlink_to(tmp_path)
    _refused(second_serve(str(tmp_path / "link" / "tables.db")), db)
    # another file is another database; that server was started with 64 open files at most,
    # and its connection options are taken
    other, port = start_server(
        str(tmp_path / "other.db"),
        tmp_path / "other.log",
        "--per-client",
        "2",
        preexec_fn=_low_open_files_limit,
    )
    servers.append(other)
    limits = Path(f"/proc/{other.pid}/limits").read_text()
    soft, hard = next(line.split()[3:5] for line in limits.splitlines() if "open files" in line)
    assert soft == hard == str(resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    socks = [
        socket.create_connection(("127.0.0.1", port), source_address=(ATTACKER, 0))
        for _ in range(3)
    ]
    try:
        socks[2].settimeout(30)
        assert socks[2].recv(100).startswith(b"HTTP/1.1 429")
    finally:
        for s in socks:
            s.close()

    first.kill()  # kill -9: no clean-up of any kind ran
    first.wait()
    again, _ = start_server(db, tmp_path / "again.log")
    servers.append(again)
    _refused(second_serve(db), f"(process {again.pid})")


def test_the_test_suites_own_servers_take_no_lock(make_server, tmp_path: Path) -> None:
    """In-process servers (these tests) never lock: one test may start two on one file after
    another, and a ``sheepfold serve`` may follow them."""
    db = str(tmp_path / "t.db")
    make_server(db).stop()
    make_server(db).stop()
    os.close(lock_file(db))  # nobody holds it


def test_every_name_of_the_database_file_is_the_same_database(tmp_path: Path) -> None:
    """The lock is the file's (its device and inode), not a name's: a hard link, in the same
    folder or another, and a symbolic link to the file are refused as the file itself."""
    db = tmp_path / "tables.db"
    held = lock_file(str(db))  # this process serves it, as far as the others can tell
    try:
        (tmp_path / "elsewhere").mkdir()
        hard, far, soft = tmp_path / "hard.db", tmp_path / "elsewhere" / "t.db", tmp_path / "s.db"
        os.link(db, hard)
        os.link(db, far)
        os.symlink(db, soft)
        for name, shown in ((hard, hard), (far, far), (soft, db)):
            line = _refused(second_serve(str(name)), str(shown))
            assert f"(process {os.getpid()})" in line
    finally:
        os.close(held)
    os.close(lock_file(str(hard)))  # released with its holder: any name may take it now


def test_a_forked_child_never_keeps_the_servers_lock(tmp_path: Path) -> None:
    """A bot or lab worker forked by the server closes its copy of the lock at once: when the
    server ends, the database is free although the child lives on."""
    db = str(tmp_path / "tables.db")
    dblock._held.append(held := lock_file(db))
    ready, go = os.pipe()
    started, running = os.pipe()
    child = os.fork()
    if child == 0:  # the child: says it runs, waits until the parent has checked, then ends
        os.write(running, b"x")
        os.read(ready, 1)
        os._exit(0)
    try:
        os.read(started, 1)
        dblock._held.remove(held)
        os.close(held)  # the server ends; its child still runs
        os.close(lock_file(db))
    finally:
        os.write(go, b"x")
        os.waitpid(child, 0)
