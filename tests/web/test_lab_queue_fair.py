"""The gallery's lab queue is fair against many addresses, and a card's deadlines stop it.

Issue 50, item 4: twelve IPv4 addresses that each published three costly cards kept an honest
publisher's card waiting behind twelve of theirs (> 400 s), and a card held the only lab worker
325 s despite ``--lab-seconds 10`` (its first chunk of games ran under no deadline but the
server's ``2 * budget + 300`` s). Now the cards take turns by address range (an IPv4 /24, an
IPv6 /64), a range with fewer open cards first within a turn: the honest card starts right
after the card being computed (N = 1 card: the one a worker holds; none of the 35 waiting),
whatever twelve addresses queue. The queue is run here by a fake runner (no process, no clock:
each card ends when the test says so); the deadlines by a fake card's process.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from addresses import http_from, ipv4

from polling import run_async, wait_until
from sheepfold.server import gallery_lab
from sheepfold.server.gallery_lab import LabQueue, client_range, fair_order
from sheepfold.server.gallery_store import Job
from sheepfold.server.limits import Rate

HONEST = "198.51.100.7"
GALLERY = "/api/gallery/shave-a-sheep"
#: twelve flooding addresses, three ways: one IPv4 /24, twelve /24s, one IPv6 /64 (as the
#: addresses themselves, or as the /64 the server's client key names)
FLOODERS = {
    "one /24": [f"127.0.0.{2 + i}" for i in range(12)],
    "twelve /24s": [f"203.0.{i}.9" for i in range(12)],
    "one /64": [f"2001:db8:1:2::{i + 1:x}" for i in range(12)],
    "one /64 keyed": ["2001:db8:1:2::/64"] * 12,
}


def test_client_ranges() -> None:
    assert client_range("127.0.0.2") == client_range("127.0.0.250") == "127.0.0.0/24"
    assert client_range("127.0.1.2") != client_range("127.0.0.2")
    assert client_range("2001:db8:1:2::1") == client_range("2001:db8:1:2:ffff::9")
    assert client_range("2001:db8:1:2::1") == client_range("2001:db8:1:2::/64")
    assert client_range("2001:db8:1:3::1") != client_range("2001:db8:1:2::1")
    assert client_range("::ffff:127.0.0.9") == "127.0.0.0/24"  # an IPv4 client of a v6 socket
    assert client_range("a name") == "a name"


def flood(addresses: list[str], cards: int = 3) -> list[Job]:
    """``cards`` jobs of each address, queued in rounds (as 12 publishers at once)."""
    return [
        Job(len(addresses) * n + i + 1, "queued", a, len(addresses) * n + i + 1)
        for n in range(cards)
        for i, a in enumerate(addresses)
    ]


@pytest.mark.parametrize("how", FLOODERS)
def test_an_honest_card_comes_first_whatever_twelve_addresses_queued(how: str) -> None:
    jobs = flood(FLOODERS[how])
    jobs[0] = replace(jobs[0], status="running")  # a worker holds the first
    honest = Job(100, "queued", HONEST, 100)
    order = [j.id for j in fair_order([*jobs, honest]) if j.status == "queued"]
    assert order[0] == 100, order


def test_ranges_take_turns_and_addresses_within_a_range() -> None:
    """Each range's first card, then each range's second...; within a range its addresses take
    turns; within a turn the range with fewer open cards first."""
    jobs = [
        Job(1, "queued", "127.0.0.2", 1),
        Job(2, "queued", "127.0.0.2", 2),
        Job(3, "queued", "127.0.0.3", 3),  # the same /24, another address
        Job(4, "queued", "10.0.0.1", 4),
        Job(5, "queued", "10.0.0.1", 5),
        Job(6, "queued", "192.0.2.1", 6),
    ]
    # turn 0: 192.0.2.0/24 (1 open), 10.0.0.0/24 (2), 127.0.0.0/24 (3); then turn 1 and 2
    assert [j.id for j in fair_order(jobs)] == [6, 4, 1, 5, 3, 2]


class FakeStore:
    """The queue of a GalleryStore: jobs in the order they were queued."""

    def __init__(self, jobs: list[Job]) -> None:
        self.jobs = jobs
        self.storage = SimpleNamespace()

    def queue(self) -> list[Job]:
        return list(self.jobs)


@pytest.mark.parametrize("how", FLOODERS)
def test_a_worker_starts_the_honest_card_after_the_one_it_holds(how: str) -> None:
    """The queue's own worker, with a fake runner: 12 addresses x 3 cards, a worker computes the
    first; an honest card is published; the cards end one by one: the honest card is the next
    one started."""
    store = FakeStore(flood(FLOODERS[how]))
    started: list[int] = []

    async def scenario() -> None:
        queue = LabQueue(store, SimpleNamespace(lab_workers=1))  # type: ignore[arg-type]
        ends: dict[int, asyncio.Event] = {}

        async def fake_run(vid: int) -> None:  # a card: running until the test ends it
            i = next(k for k, j in enumerate(store.jobs) if j.id == vid)
            store.jobs[i] = replace(store.jobs[i], status="running")
            started.append(vid)
            ends[vid] = asyncio.Event()
            await ends[vid].wait()
            store.jobs = [j for j in store.jobs if j.id != vid]

        queue._run = fake_run  # type: ignore[method-assign]
        queue.start()
        while not started:
            await asyncio.sleep(0)
        store.jobs.append(Job(100, "queued", HONEST, 100))
        queue.poke()
        while 100 not in started and len(started) < 37:
            ends[started[-1]].set()  # the card being computed ends; the worker takes the next
            last = len(started)
            while len(started) == last and store.jobs:
                await asyncio.sleep(0)
        await queue.close()

    run_async(scenario())
    assert 100 in started
    assert started.index(100) == 1, started  # after the one card a worker held: N = 1


def test_the_fair_order_is_what_the_queue_shows(make_server: Any) -> None:
    """The gallery's queue positions (what a publisher sees) follow the same order: twelve
    addresses of one /24 publish two cards each, then an honest publisher of another /24 is
    first in line (no worker computes, no rate limit in the way)."""
    srv = make_server(
        lab_workers=0, publish_rate=Rate(0, 0), gallery_per_day=0, lab_queue_per_client=0
    )
    for n in range(2):
        for i in range(12):
            with http_from(srv.url, ipv4(i)) as http:
                r = http.post(GALLERY, json=card_body(f"Flood {i} {n}", 6 + n))
                assert r.status_code == 201, r.text
    with http_from(srv.url, ipv4(0, net=1)) as http:
        r = http.post(GALLERY, json=card_body("Honest", 9))
        assert r.status_code == 201, r.text
    lab = srv.http.get(f"{GALLERY}/honest").json()["lab"]
    assert lab["position_in_queue"] == 1, lab


FAKE_CARD = """
import json, sys, time
sys.stdin.read()
def say(**line):
    print(json.dumps(line), flush=True)
say(progress=0.0, games=0, message="starting")
time.sleep(float(sys.argv[1]))  # compiling
if sys.argv[2] != "never":
    say(progress=0.0, games=0, message="starting", warmed=True)
    time.sleep(float(sys.argv[2]))  # its games
    say(refused="these rules are not for the lab")
    sys.exit(1)
time.sleep(3600)
"""


def card_body(name: str, wool: int) -> dict[str, Any]:
    return {"name": name, "author": "ewe", "rules": {"wool": wool}}


def card_status(srv: Any, slug: str) -> dict[str, Any]:
    return wait_until(
        lambda: (
            (lab := srv.http.get(f"{GALLERY}/{slug}").json()["lab"])["status"]
            not in ("queued", "running")
            and lab
        ),
        what=f"the card of {slug} to end",
    )


@pytest.mark.parametrize(
    ("compiling", "games", "status"),
    [
        ("3600", "never", "failed"),  # never warmed: stopped after WARM_UP
        ("0", "3600", "failed"),  # warmed, then games that never end: stopped after the budget
        ("1", "0", "refused"),  # the warm-up's second is not spent of the games' budget
    ],
)
def test_a_card_is_stopped_by_its_deadlines(
    make_server: Any, monkeypatch: pytest.MonkeyPatch, compiling: str, games: str, status: str
) -> None:
    monkeypatch.setattr(gallery_lab, "CARD", ("-c", FAKE_CARD, compiling, games))
    monkeypatch.setattr(gallery_lab, "WARM_UP", 30.0 if compiling == "1" else 0.5)
    monkeypatch.setattr(gallery_lab, "GRACE", 0.5)
    srv = make_server(lab_seconds=0.25)
    r = srv.http.post(GALLERY, json=card_body("Slow", 9))
    assert r.status_code == 201, r.text
    lab = card_status(srv, "slow")
    assert lab["status"] == status, lab
    if status == "failed":
        assert lab["message"] == "the lab job took far longer than its budget"
    assert not srv.app.state.gallery.lab.procs  # its process is gone


def test_the_card_says_warmed_after_compiling_before_its_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real card's lines: starting, then ``warmed`` (one game of its base played: the
    simulator compiled), then its chunks of games; the server's deadline for the games starts
    at ``warmed``."""
    from sheepfold.lab import card, runner

    monkeypatch.setattr(runner, "resolve_engine", lambda job: "engine")  # no kernel compiled
    lines: list[dict[str, Any]] = []
    spec = {"game": "shave-a-sheep", "rules": {"wool": 6}, "games": 4, "seconds": 60.0}
    card.play({**spec, "players": 2, "exact_limit": 0}, lines.append)
    assert [line.get("warmed", False) for line in lines[:2]] == [False, True], lines
    assert lines[0]["games"] == lines[1]["games"] == 0 and lines[-1]["games"] == 4, lines
