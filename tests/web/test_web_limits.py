"""Limits per client (tiny configured limits): rate limits with 429, a cap on open tables,
private tables, the lobby's order, WebSocket messages too large or too deep, and the headers."""

from __future__ import annotations

import json

from polling import wait_until
from sheepfold.server.limits import Rate, RateLimited, RateLimiter, nesting_depth

NEVER = Rate(1e-6, 0)  # an empty bucket that practically never refills


def _create(srv, **extra):
    return srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}], **extra})


def test_a_token_bucket_refills_at_its_rate():
    now = [0.0]
    lim = RateLimiter(Rate(0.5, 2), "tables opened", clock=lambda: now[0])
    lim.take("a")
    lim.take("a")
    try:
        lim.take("a")
        raise AssertionError("a third request at once must be refused")
    except RateLimited as e:
        assert "at most 2 at once, then one every 2 s" in str(e) and "in 2 s" in str(e)
    lim.take("b")  # another client has its own bucket
    now[0] = 2.0  # one token back
    lim.take("a")
    assert Rate(0, 0).unlimited


def test_creating_tables_is_rate_limited_per_client(make_server):
    srv = make_server(create_rate=Rate(1e-6, 2), max_open_tables=0)
    assert _create(srv).status_code == 201
    assert _create(srv).status_code == 201
    r = _create(srv)
    assert r.status_code == 429 and "too many tables opened" in r.json()["detail"]


def test_open_tables_are_capped_per_client(make_server):
    srv = make_server(max_open_tables=2)
    bots = srv.create(
        game="shave-a-sheep", rules={"wool": 3}, seats=[{"kind": "bot"}, {"kind": "bot"}]
    )
    wait_until(
        lambda: srv.http.get(f"/api/tables/{bots['id']}").json()["finished"],
        what="the bots' game to end",
    )
    assert _create(srv).status_code == 201  # a finished table does not count
    assert _create(srv).status_code == 201
    r = _create(srv)
    assert r.status_code == 429 and "2 open tables (at most 2)" in r.json()["detail"]


def test_taking_seats_is_rate_limited(make_server):
    srv = make_server(join_rate=Rate(1e-6, 1))
    t = srv.create(game="dolly-crush", seats=[{}, {}])
    srv.join(t["id"], "Ann")
    r = srv.http.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"})
    assert r.status_code == 429 and "too many seats taken" in r.json()["detail"]
    assert srv.http.get(f"/api/tables/{t['id']}").json()["seats"][1]["free"]


def test_websocket_messages_are_rate_limited_and_the_socket_lives(make_server, ws_client):
    srv = make_server(message_rate=Rate(1e-6, 3))
    t = srv.create(game="dolly-crush", seats=[{}, {}])
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    for i in range(3):
        c.send({"type": "ping", "ref": i})
        assert c.wait(lambda m: m["type"] == "pong")["ref"] == i
    c.send({"type": "ping"})
    assert "too many messages" in c.wait(lambda m: m["type"] == "error")["message"]
    srv.join(t["id"], "Ann")  # the connection still receives the table's news
    assert c.wait(lambda m: m["type"] == "state")["table"]["seats"][0]["name"] == "Ann"


def test_a_message_too_large_or_too_deep_gets_an_error_not_a_dead_socket(make_server, ws_client):
    srv = make_server(max_message=4096, max_depth=8)
    t = srv.create(game="dolly-crush", seats=[{}, {}])
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    c.send("[" * 8000 + "]" * 8000)  # 16 KB of nesting
    assert (
        "too large (16000 bytes; at most 4096)" in c.wait(lambda m: m["type"] == "error")["message"]
    )
    c.send(json.dumps({"type": "ping", "x": [[[[[[[[[1]]]]]]]]]}))
    assert "nested too deeply" in c.wait(lambda m: m["type"] == "error")["message"]
    c.send({"type": "ping", "ref": "alive", "x": '[[[[[[[[[["'})  # brackets in a string: fine
    assert c.wait(lambda m: m["type"] == "pong")["ref"] == "alive"
    assert nesting_depth('{"a": [1, {"b": "]]"}]}') == 3


def test_private_tables_are_not_listed_and_real_tables_come_first(make_server):
    srv = make_server()
    real = srv.create(game="dolly-crush", seats=[{}, {}])
    srv.join(real["id"], "Ann")
    empty = srv.create(game="dolly-crush", seats=[{}, {}])  # newer, nobody there
    secret = srv.create(game="dolly-crush", seats=[{}, {}], private=True)
    listed = [t["id"] for t in srv.http.get("/api/tables").json()]
    assert listed == [real["id"], empty["id"]]
    assert secret["private"] and len(secret["id"]) == 16  # 96 bits: nobody guesses it
    assert srv.http.get(f"/api/tables/{secret['id']}").json()["private"] is True
    assert srv.join(secret["id"], "Zoe")["seat"] == 0  # the invite link works


def test_every_answer_has_the_security_headers(make_server):
    srv = make_server()
    for path in ("/", "/t/abc", "/static/table.js", "/api/tables", "/api/tables/nope", "/healthz"):
        h = srv.http.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"], path
        assert "script-src 'self';" in h["content-security-policy"], path
        assert h["x-content-type-options"] == "nosniff", path
    assert srv.http.get("/api/docs").status_code == 404  # off by default (a CDN's scripts)
    on = make_server(api_docs=True)
    r = on.http.get("/api/docs")
    assert r.status_code == 200 and "cdn.jsdelivr.net" in r.headers["content-security-policy"]
