"""A lab card's process dies with its server, and a card resumes once after a restart: a real
``sheepfold serve`` is killed with SIGKILL while it computes a card (issue 26)."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_crash import start_server

from polling import wait_until

GAME = "shave-a-sheep"
#: a card that would compute for many minutes: it is running when the server is killed
LONG_CARD = ("--lab-games", "1000000", "--lab-seconds", "600")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def card_of(server: int) -> int | None:
    """The server's lab-card process, if it runs one."""
    for pid in children(server):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"sheepfold.lab.card" in cmd:
            return pid
    return None


def gone(pid: int) -> bool:
    """The process ended (no longer in /proc, or a zombie waiting for whoever reaps it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


@pytest.fixture
def processes() -> Iterator[list[int]]:
    """Process ids killed at the end if they still run (a server, a card left behind)."""
    started: list[int] = []
    yield started
    for pid in started:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)


def kill_9_while_computing(proc: subprocess.Popen[str], processes: list[int]) -> None:
    """Wait for the server's card process; kill -9 the server; the card process goes too."""
    card = wait_until(lambda: card_of(proc.pid), what="the server's lab-card process", timeout=60)
    processes.append(card)
    assert os.getpgid(card) == card  # a process group of its own
    proc.kill()
    proc.wait()
    wait_until(lambda: gone(card), what=f"the card's process {card} to die with its server")


def lab(port: int, slug: str) -> dict[str, Any]:
    r = httpx.get(f"http://127.0.0.1:{port}/api/gallery/{GAME}/{slug}/1", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["lab"]


@pytest.mark.slow  # three real server processes: seconds each
def test_a_card_dies_with_its_killed_server_and_resumes_once(tmp_path, processes):
    db = str(tmp_path / "cards.db")
    proc, port = start_server(db, "first", *LONG_CARD)
    processes.append(proc.pid)
    body = {"name": "Long", "author": "ewe", "rules": {"wool": 12}}
    r = httpx.post(f"http://127.0.0.1:{port}/api/gallery/{GAME}", json=body, timeout=10)
    assert r.status_code == 201, r.text
    kill_9_while_computing(proc, processes)

    # the next server computes it again: its second start
    proc, port = start_server(db, "second", *LONG_CARD)
    processes.append(proc.pid)
    kill_9_while_computing(proc, processes)

    # a third server does not start it again: it says why
    proc, port = start_server(db, "third", *LONG_CARD)
    processes.append(proc.pid)
    card = lab(port, "long")
    assert card["status"] == "failed", card
    assert card["message"].startswith("the server stopped twice while computing this card")
    assert card_of(proc.pid) is None
    proc.kill()
    proc.wait()
