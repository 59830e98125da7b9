"""One client key for every per-client limit (server/clients.py): an IPv4 client's address, an
IPv6 client's /64; and ``X-Forwarded-For`` believed only from a ``--trusted-proxy``.

The app is served in-process (Starlette's TestClient), each request from the peer address its
test header names: the ASGI scope's ``client``, as uvicorn sets it from the socket."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sheepfold.server.app import create_app
from sheepfold.server.clients import key_of
from sheepfold.server.connections import ConnectionLimits, Guard, trusted_networks, uvicorn_config
from sheepfold.server.limits import Rate
from sheepfold.server.tables import Settings

PEER = "x-test-peer"  # the test's header: the address the request comes from
NEVER = Rate(1e-6, 0)  # an empty bucket that practically never refills

#: five addresses of one IPv6 /64 (one host, one person), and one of another /64
ONE_64 = [f"2001:db8:aa:1::{i:x}" for i in (1, 2, 0xBEEF, 0xFFFF, 7)]
ONE_64 += ["2001:db8:aa:1:ffff:ffff:ffff:fffe"]
OTHER_64 = "2001:db8:aa:2::1"


class FromPeer:
    """ASGI: each request's ``client`` is the address of its PEER header (a socket's peer)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = dict(scope["headers"]).get(PEER.encode())
            if peer is not None:
                scope = {**scope, "client": (peer.decode(), 40000)}
        await self.app(scope, receive, send)


def served(tmp_path: Path, asgi: Any = None, **settings: Any) -> TestClient:
    return TestClient(FromPeer(asgi or create_app(str(tmp_path / "t.db"), Settings(**settings))))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with served(tmp_path, create_rate=Rate(1e-6, 2), profile_rate=Rate(1e-6, 2)) as c:
        yield c


def create(c: TestClient, peer: str, **headers: str) -> Any:
    spec = {"game": "dolly-crush", "seats": [{}, {}]}
    return c.post("/api/tables", json=spec, headers={PEER: peer, **headers})


def test_the_key_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert key_of(("203.0.113.9", 1)) == "203.0.113.9"
    assert {key_of((a, 1)) for a in ONE_64} == {"2001:db8:aa:1::/64"}
    assert key_of((OTHER_64, 1)) == "2001:db8:aa:2::/64"
    assert key_of(("::ffff:203.0.113.9", 1)) == "203.0.113.9"  # IPv4 on an IPv6 socket
    assert key_of(None) == "unknown"  # a Unix socket


def test_addresses_of_one_64_share_the_limits_a_handler_takes(client: TestClient) -> None:
    # "create" is taken by the handler (server/api_tables.py), through its client
    assert [create(client, a).status_code for a in ONE_64[:3]] == [201, 201, 429]
    assert "too many tables opened" in create(client, ONE_64[4]).json()["detail"]
    assert create(client, OTHER_64).status_code == 201  # another /64: another person
    tables = client.app.app.state.manager.tables.values()  # type: ignore[attr-defined]
    assert sorted({t.creator for t in tables}) == ["2001:db8:aa:1::/64", "2001:db8:aa:2::/64"]


def test_addresses_of_one_64_share_the_limits_the_guard_takes(client: TestClient) -> None:
    # "profile" is taken by the request guard before the body is read (app.ROUTES)
    made = [
        client.post("/api/profiles", json={"name": "ann"}, headers={PEER: a}).status_code
        for a in ONE_64[:4]
    ]
    assert made == [201, 201, 429, 429]
    other = client.post("/api/profiles", json={"name": "bob"}, headers={PEER: OTHER_64})
    assert other.status_code == 201


def test_a_seat_and_a_websocket_count_under_the_key(client: TestClient) -> None:
    t = create(client, ONE_64[0]).json()
    r = client.post(f"/api/tables/{t['id']}/join", json={"name": "ann"}, headers={PEER: ONE_64[1]})
    assert r.status_code == 200
    table = client.app.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    assert table.seats[0].client == "2001:db8:aa:1::/64"  # what the gallery's votes count
    with client.websocket_connect(f"/ws/{t['id']}", headers={PEER: ONE_64[5]}) as ws:
        ws.receive_json()
        (conn,) = [c for c in table.conns if c.client is not None]
        assert conn.client == "2001:db8:aa:1::/64"  # its messages' and chat lines' bucket


def proxied(tmp_path: Path, trusted: list[str]) -> tuple[TestClient, Any]:
    """The app as ``sheepfold serve --trusted-proxy ...`` serves it (uvicorn's stack), and the
    app."""
    app = create_app(str(tmp_path / "t.db"), Settings(create_rate=Rate(1e-6, 3)))
    config = uvicorn_config(app, "127.0.0.1", 0, ConnectionLimits(), trusted_proxies=trusted)
    config.load()
    return served(tmp_path, config.loaded_app), app


@pytest.mark.parametrize(
    "trusted, counted",
    [
        ([], "127.0.0.1"),  # a plain serve: nobody's X-Forwarded-For (uvicorn's own: 127.0.0.1's)
        (["192.0.2.1"], "127.0.0.1"),  # another proxy's
        (["127.0.0.1"], "203.0.113.9"),
        (["127.0.0.0/8", "::1"], "203.0.113.9"),
    ],
)
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(
    tmp_path: Path, trusted: list[str], counted: str
) -> None:
    c, app = proxied(tmp_path, trusted)
    with c:
        forwarded = {"x-forwarded-for": "203.0.113.9"}
        assert create(c, "127.0.0.1", **forwarded).status_code == 201
        (table,) = app.state.manager.tables.values()
        assert table.creator == counted


def test_a_trusted_proxy_names_its_client_but_not_one_a_client_made_up(tmp_path: Path) -> None:
    c, app = proxied(tmp_path, ["127.0.0.1"])
    with c:
        # haproxy's "option forwardfor" appends the address it saw to what the client sent
        for made_up in ("198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"):
            spoofed = {"x-forwarded-for": f"{made_up}, 203.0.113.9"}
            r = create(c, "127.0.0.1", **spoofed)
        assert r.status_code == 429  # all four from 203.0.113.9: three at most
        assert {t.creator for t in app.state.manager.tables.values()} == {"203.0.113.9"}


def test_a_trusted_proxys_connections_are_not_capped_as_one_client() -> None:
    guard = Guard(ConnectionLimits(per_client=2), trusted_networks(["127.0.0.1", "fd00::/64"]))
    assert guard.key(("127.0.0.1", 1)) is None and guard.key(("fd00::9", 1)) is None
    assert guard.key(("127.0.0.2", 1)) == "127.0.0.2"
    assert all(guard.admit(guard.key(("127.0.0.1", p))) is None for p in range(5))
    assert guard.admit("127.0.0.2") is None and guard.admit("127.0.0.2") is None
    assert guard.admit("127.0.0.2") is not None  # a client's own connections stay capped


def test_a_trusted_proxy_that_is_no_address_is_refused() -> None:
    with pytest.raises(ValueError, match=r"--trusted-proxy: 'haproxy' is not an IP address"):
        trusted_networks(["127.0.0.1", "haproxy"])


#: run in a network namespace (tests/web/addresses.py): ``sheepfold serve`` on an address of
#: the namespace's /64, and requests from addresses of that /64, of another /64, and from ::1
#: with a made-up X-Forwarded-For (uvicorn's own default believes ::1's); prints what each got
OVER_SOCKETS = """
import json, subprocess, sys, tempfile
import httpx
db = tempfile.mkdtemp() + "/t.db"
serve = [sys.executable, "-m", "sheepfold.cli.main", "serve", "--host", "fd00:1::1"]
serve += ["--port", "8765"]
p = subprocess.Popen([*serve, "--db", db], stdout=subprocess.PIPE, text=True)
try:
    for line in p.stdout:
        if "serving at" in line:
            break
    def post(address, path, body, **headers):
        at = httpx.HTTPTransport(local_address=address)
        with httpx.Client(base_url="http://[fd00:1::1]:8765", transport=at, timeout=30) as c:
            return c.post(path, json=body, headers=headers).status_code
    table = {"game": "dolly-crush", "seats": [{}, {}]}
    one = sys.argv[1:7]
    out = {
        "creates": [post(a, "/api/tables", table) for a in one],
        "other_64": post(sys.argv[7], "/api/tables", table),
        "profiles": [post(a, "/api/profiles", {"name": "ann"}) for a in one[:4]],
        "spoofed": [
            post("::1", "/api/tables", table, **{"x-forwarded-for": f"198.51.100.{i}"})
            for i in range(7)
        ],
    }
    print(json.dumps(out))
finally:
    p.terminate()
    p.wait(20)
"""


@pytest.mark.slow
def test_over_real_sockets_one_64_is_one_client_and_a_plain_serve_trusts_no_header() -> None:
    from addresses import NET6, OTHER6, in_namespace, ipv6, namespace_refusal

    refusal = namespace_refusal()
    if refusal is not None:
        pytest.skip(refusal)
    done = in_namespace(OVER_SOCKETS, *[ipv6(i, NET6) for i in range(6)], ipv6(0, OTHER6))
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["creates"] == [201] * 5 + [429]  # Settings.create_rate: 5 at once per client
    assert got["other_64"] == 201
    assert got["profiles"] == [201] * 3 + [429]  # profile_rate: 3 at once
    assert got["spoofed"] == [201] * 5 + [429] * 2  # all ::1's, whatever they said
