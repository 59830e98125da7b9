"""``sheepfold cluster`` keeps the limits of ``sheepfold serve``, one set for the whole cluster
(the HTTP rate limits' buckets are rows of its database, server/cluster.py's DatabaseBuckets),
and believes haproxy's ``X-Forwarded-For``, nobody else's, so that each server sees the real
client's address and a client cannot name another one."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from polling import run_async
from sheepfold.cli.cluster import BALANCER, LocalCluster, server_command
from sheepfold.server.cluster import SHARED_LIMITS, DatabaseBuckets
from sheepfold.server.limits import Rate, RateLimited, RateLimiter, SharedRateLimiter
from sheepfold.server.storage import normalise_url
from sheepfold.server.tables import Settings

SPEC = {"game": "dolly-crush", "seats": [{}, {}]}


def test_each_server_keeps_its_limits_and_trusts_only_the_balancer() -> None:
    cmd = server_command(8001, "postgresql://x@/db", ["--bot-delay", "0"])
    assert "--no-limits" not in cmd
    at = cmd.index("--trusted-proxy")
    assert cmd[at + 1] == BALANCER == "127.0.0.1"
    assert cmd.count("--trusted-proxy") == 1
    assert cmd[-2:] == ["--bot-delay", "0"]  # the cluster's options, as given


def passed(codes: list[int]) -> int:
    """How many requests the limits let through (any answer but 429)."""
    assert set(codes) <= {200, 201, 422, 429}, codes
    return len(codes) - codes.count(429)


@pytest.mark.postgres
@pytest.mark.slow
def test_a_running_cluster_limits_one_address_as_one_server_does_whatever_it_says() -> None:
    c = LocalCluster(2).start()
    st = Settings()
    try:
        for s in c.servers:  # what each server was started with
            args = Path(f"/proc/{s.pid}/cmdline").read_bytes().split(b"\0")
            assert b"--no-limits" not in args and b"--trusted-proxy" in args
        # a client at 127.0.0.2 (not the balancer's address), each request with another
        # made-up address, which haproxy appends the real one to; the balancer deals the
        # requests round-robin to both servers
        at = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=c.url, transport=at, timeout=30) as http:

            def send(n: int, method: str, path: str, body: object) -> tuple[int, float]:
                start = time.monotonic()
                codes = []
                for i in range(n):
                    forged = {"x-forwarded-for": f"198.51.100.{i % 250 + 1}"}
                    r = http.request(method, path, json=body, headers=forged)
                    codes.append(r.status_code)
                return passed(codes), time.monotonic() - start

            # as many as one server lets through: its burst, and what refills meanwhile
            # (each server counting its own let through twice the burst: 10 tables, 6
            # profiles, 60 checks; with --no-limits all of them)
            for n, path, body, rate in (
                (20, "/api/tables", SPEC, st.create_rate),
                (12, "/api/profiles", {"name": "ann"}, st.profile_rate),
                (80, "/api/rules/dolly-crush/check", {}, st.check_rate),
            ):
                got, took = send(n, "POST", path, body)
                most = rate.burst + int(took * rate.per_second) + 1
                assert rate.burst <= got <= min(most, 2 * rate.burst - 1), (path, got, took)
        # another client (127.0.0.3) has buckets of its own: each server counts the real
        # address haproxy names, not haproxy's own (which every client would share)
        other = httpx.HTTPTransport(local_address="127.0.0.3")
        with httpx.Client(base_url=c.url, transport=other, timeout=30) as http:
            assert http.post("/api/tables", json=SPEC).status_code == 201
            assert http.post("/api/profiles", json={"name": "bob"}).status_code == 201
            assert http.post("/api/rules/dolly-crush/check", json={}).status_code == 200
    finally:
        c.close()


class Store:
    """A shared store of buckets as a test wants it: one bucket of ``tokens``, or down."""

    def __init__(self, tokens: float | None) -> None:
        self.tokens = tokens
        self.asked: list[tuple[str, str]] = []

    def take(self, kind: str, client: str, rate: Rate) -> float | None:
        self.asked.append((kind, client))
        return self.tokens

    def peek(self, kind: str, client: str, rate: Rate) -> float | None:
        return self.tokens


def test_a_shared_limiter_counts_in_the_store_and_on_its_own_while_the_store_is_down() -> None:
    local = RateLimiter(Rate(1.0, 2), "rule sets checked", clock=lambda: 0.0)
    store = Store(0.5)
    shared = SharedRateLimiter(local, "check", store)
    with pytest.raises(RateLimited) as refused:  # the store's bucket is empty: whatever here
        shared.take("198.51.100.7")
    assert refused.value.wait == 1 and "rule sets checked" in str(refused.value)
    with pytest.raises(RateLimited):
        shared.check("198.51.100.7")
    assert store.asked == [("check", "198.51.100.7")]
    store.tokens = 3.0
    shared.take("198.51.100.7")  # the store had some: taken
    store.tokens = None  # down: this server's own buckets count (burst 2), not none, not all
    shared.take("198.51.100.7")
    shared.take("198.51.100.7")
    with pytest.raises(RateLimited):
        shared.take("198.51.100.7")
    shared.take("198.51.100.8")


def buckets(url: str, **kw: Any) -> DatabaseBuckets:
    from sheepfold.server.cluster import ClusterStorage

    ClusterStorage(url).close()  # the cluster's schema, sf_buckets among it
    return DatabaseBuckets(normalise_url(url), **kw)


@pytest.mark.postgres
def test_the_database_buckets_are_one_set_for_every_server(postgres_url: str) -> None:
    rate = Rate(0.01, 5)  # nothing refills during the test (one every 100 s)
    one, two = buckets(postgres_url), buckets(postgres_url)  # two servers
    try:
        got = [s.take("create", "198.51.100.7", rate) or -1.0 for s in (one, two) * 4]
        assert [t >= 1 for t in got] == [True] * 5 + [False] * 3, got
        assert got[0] == pytest.approx(5, abs=0.01) and 0 <= got[-1] < 1  # what refilled too
        assert two.peek("create", "198.51.100.7", rate) == pytest.approx(0, abs=0.01)
        # another client, another kind: buckets of their own
        assert (one.take("create", "198.51.100.8", rate) or 0) >= 1
        assert (two.take("check", "198.51.100.7", rate) or 0) >= 1
        assert one.peek("join", "198.51.100.7", rate) == 5  # no row: a full bucket
        assert one.forget_full([Rate(1000.0, 1)]) == 3  # all refilled in 1 ms: forgotten
    finally:
        one.close()
        two.close()


@pytest.mark.postgres
def test_a_database_that_does_not_answer_leaves_each_server_its_own_limits(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from sqlalchemy import create_engine, text

    now = [0.0]
    store = buckets(postgres_url, timeout=0.25, pause=5.0, most=60.0, clock=lambda: now[0])
    shared = SharedRateLimiter(RateLimiter(Rate(0.01, 2), "tables opened"), "create", store)
    rate = shared.rate
    assert store.take("create", "198.51.100.7", rate) == pytest.approx(2, abs=0.01)
    other = create_engine(normalise_url(postgres_url))
    stuck = other.connect()
    try:
        stuck.begin()  # another session holds the bucket's row: the statement waits, then
        stuck.execute(text("SELECT * FROM sf_buckets FOR UPDATE"))  # gives up (0.25 s)
        with caplog.at_level(logging.ERROR, "sheepfold.server"):
            shared.take("198.51.100.7")  # counted here (2 at once), and said once
            shared.take("198.51.100.7")
            with pytest.raises(RateLimited):
                shared.take("198.51.100.7")
        said = [r.getMessage() for r in caplog.records if "shared rate limits" in r.getMessage()]
        assert len(said) == 1 and "its own for 5 s" in said[0], said
        now[0] = 4.9  # not asked again during the pause
        assert store.take("create", "198.51.100.7", rate) is None
        assert len(caplog.records) == 1
        now[0] = 5.0  # asked again after it: still stuck, left alone twice as long
        assert store.take("create", "198.51.100.7", rate) is None
        assert "its own for 10 s" in caplog.records[-1].getMessage()
        stuck.rollback()
        now[0] = 14.9
        assert store.take("create", "198.51.100.7", rate) is None
        now[0] = 15.0  # it answers again: the cluster's bucket counts
        assert store.take("create", "198.51.100.7", rate) == pytest.approx(1, abs=0.01)
        assert store.pause == 5.0
    finally:
        stuck.close()
        other.dispose()
        store.close()


@pytest.mark.postgres
def test_a_cluster_servers_http_limits_are_the_databases_and_its_websockets_its_own(
    postgres_url: str,
) -> None:

    from sheepfold.server.cluster import make_manager

    m = make_manager(postgres_url, Settings())
    try:
        shared = {k for k, lim in m.limits.items() if isinstance(lim, SharedRateLimiter)}
        assert shared == set(SHARED_LIMITS) == set(m.limits) - {"message", "chat"}
        assert m.limits["check"].rate == Settings().check_rate  # the same rates as alone
    finally:
        run_async(m.close())
