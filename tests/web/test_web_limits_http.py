"""Issue 26, the HTTP limits: every body bounded before it is read (one guard for every route),
every text a stranger sets checked by one check, rate limits on the routes that cost CPU
(from several client addresses), and the documented 503 when the disk is full."""

from __future__ import annotations

import socket
import sqlite3

import httpx
import pytest

from polling import run_async
from sheepfold.server.limits import Rate, RequestGuard, Route
from sheepfold.server.texts import char_problem, text_problem

MB = 1 << 20


def _client(srv, address: str) -> httpx.Client:
    """An HTTP client of ``srv`` from another loopback address (127.0.0.x)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=srv.url, transport=transport, timeout=10)


def _create(http, **extra):
    return http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}], **extra})


# -- bodies ----------------------------------------------------------------------------------
def _run_guard(guard: RequestGuard, path: str, total: int, chunk: int = 64 * 1024, length=None):
    """Send a body of ``total`` bytes in chunks through ``guard``: (status, bytes it read)."""
    read = [0]
    sent: list[dict] = []

    async def receive():
        left = total - read[0]
        n = min(chunk, left)
        read[0] += n
        return {"type": "http.request", "body": b"x" * n, "more_body": read[0] < total}

    async def send(msg):
        sent.append(msg)

    headers = [(b"content-length", str(length).encode())] if length is not None else []
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers, "client": None}
    run_async(guard(scope, receive, send))
    return sent[0]["status"], read[0]


def _reading_app():
    async def app(scope, receive, send):  # reads the whole body, as a JSON route would
        body = b""
        while True:
            msg = await receive()
            body += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 201, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


def test_a_50_mb_chunked_body_is_refused_after_reading_at_most_the_limit():
    guard = RequestGuard(
        _reading_app(),
        [Route("POST", r"/api/gallery/.+", body=20_000)],
        default_body=16 * 1024,
        limiters=lambda: None,
    )
    status, read = _run_guard(guard, "/api/tables", 50 * MB)
    assert status == 413 and read <= 16 * 1024 + 64 * 1024  # the limit and one chunk
    status, read = _run_guard(guard, "/api/gallery/dolly-crush", 50 * MB, chunk=1000)
    assert status == 413 and read <= 21_000  # the route's own limit
    assert _run_guard(guard, "/api/tables", 10_000) == (201, 10_000)  # within: untouched
    # a Content-Length over the limit: refused before a single byte is read
    assert _run_guard(guard, "/api/tables", 50 * MB, length=50 * MB) == (413, 0)


def _to_the_end(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (it does after a 413)."""
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def test_a_50_mb_create_is_refused_by_the_live_server_and_others_play_on(make_server):
    srv = make_server()
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        head = (
            "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {50 * MB}\r\n\r\n"
        )
        s.sendall(head.encode() + b'{"game": "dolly-crush", "rules": {"description": "')
        answer = _to_the_end(s).decode()
    assert answer.startswith("HTTP/1.1 413") and "too large (at most 68 KB here)" in answer
    assert "content-security-policy" in answer.lower()  # the guard's answers carry the headers
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        # chunked, no length given: refused once the chunks pass the limit (all of it sent,
        # so that the closing server has nothing unread to reset the connection for)
        chunk = b"%x\r\n%s\r\n" % (12 * 1024, b" " * 12 * 1024)
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunk * 7 + b"0\r\n\r\n"
        )
        answer = _to_the_end(s)
    assert answer.startswith(b"HTTP/1.1 413") and b"connection: close" in answer.lower()
    with _client(srv, "127.0.0.2") as other:
        assert _create(other).status_code == 201


def test_the_rules_check_keeps_its_message(make_server):
    from sheepfold.server.rules_api import MAX_BODY, TOO_BIG

    srv = make_server()
    r = srv.http.post("/api/rules/shave-a-sheep/check", content=b"{}" + b" " * MAX_BODY)
    assert r.status_code == 413 and r.json()["detail"] == TOO_BIG == (
        "a rule set is at most 64 KiB, as a rule file is"
    )


# -- texts -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [
        "\u202eevil",
        "a\u2066b",
        "a\u2069b",
        "line\u2028sep",
        "para\u2029sep",
        "\x1b[31mred",
        "a\ue000",
    ],
)
def test_the_one_text_check_refuses_what_is_not_plain_text(bad):
    assert "is not allowed" in (char_problem(bad, newlines=True) or "")
    assert text_problem("name", bad, newlines=True).startswith("name: the character U+")


def test_the_one_text_check_keeps_words_and_emoji():
    assert char_problem("Zoë 羊 🐑 \U0001f468\u200d\U0001f469\u200d\U0001f467") is None
    assert char_problem("two\nlines", newlines=True) is None
    assert "no line breaks" in (char_problem("two\nlines") or "")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Ann\u202e", "name: the character U+202E at position 4"),
        ("Ann\u2028Bob", "name: the character U+2028"),
        ("Ann\nBob", "no line breaks"),
        ("x" * 33, "name: "),
    ],
)
def test_seat_names_are_checked_like_gallery_names(make_server, name, words):
    srv = make_server()
    t = srv.create(game="dolly-crush", seats=[{}, {}])
    r = srv.http.post(f"/api/tables/{t['id']}/join", json={"name": name})
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert srv.http.get(f"/api/tables/{t['id']}").json()["seats"][0]["free"]  # nothing taken
    r = _create(srv.http, seats=[{"kind": "bot", "name": name}, {}])
    assert r.status_code == 422 and r.json()["detail"].startswith("seats.0.name: "), r.text
    assert words.removeprefix("name: ") in r.json()["detail"]
    assert srv.manager.tables.keys() == {t["id"]}


def test_a_table_description_is_bounded_and_checked(make_server):
    srv = make_server()
    r = _create(srv.http, rules={"description": "x" * 501})
    assert r.status_code == 422 and "rules.description: at most 500 characters" in r.text
    r = _create(srv.http, rules={"description": "bad \u202e text"})
    assert r.status_code == 422 and "rules.description: the character U+202E" in r.text
    r = _create(srv.http, rules={"name": "two\nlines"})
    assert r.status_code == 422 and "rules.name: the character U+000A" in r.text
    assert not srv.manager.tables
    ok = _create(srv.http, rules={"description": "short\nand sweet"})
    assert ok.status_code == 201 and ok.json()["rules"]["description"] == "short\nand sweet"


# -- rate limits on what costs CPU -----------------------------------------------------------
def test_the_rules_check_is_rate_limited_per_client(make_server):
    srv = make_server(check_rate=Rate(1e-6, 3))
    for _ in range(3):
        assert srv.http.post("/api/rules/shave-a-sheep/check", json={}).status_code == 200
    r = srv.http.post("/api/rules/shave-a-sheep/check", json={})
    assert r.status_code == 429 and "too many rule sets checked" in r.json()["detail"]
    assert int(r.headers["retry-after"]) > 0
    with _client(srv, "127.0.0.2") as other:  # another address has its own bucket
        assert other.post("/api/rules/shave-a-sheep/check", json={}).status_code == 200


def test_costly_reads_are_rate_limited_per_client(make_server):
    srv = make_server(read_rate=Rate(1e-6, 2), lobby_rate=Rate(1e-6, 2))
    bots = srv.create(
        game="shave-a-sheep", rules={"wool": 3}, seats=[{"kind": "bot"}, {"kind": "bot"}]
    )
    for path in (
        f"/api/tables/{bots['id']}/replay",
        "/api/rules/dolly-crush",
        "/api/gallery/dolly-crush",
        "/api/games",
    ):
        with _client(srv, "127.0.0.3") as c:
            answers = [c.get(path).status_code for _ in range(3)]
        assert answers[2] == 429, (path, answers)
        srv.manager.limits["read"] = type(srv.manager.limits["read"])(
            Rate(1e-6, 2), "requests for replays, records and rule sets"
        )
    assert [srv.http.get("/api/tables").status_code for _ in range(3)][2] == 429
    with _client(srv, "127.0.0.4") as other:
        assert other.get("/api/tables").status_code == 200
    # what costs nothing is never limited
    assert all(srv.http.get(f"/api/tables/{bots['id']}").status_code == 200 for _ in range(5))


def test_no_limits_lifts_the_new_rates():
    from sheepfold.server.tables import Settings

    off = Settings.unlimited()
    assert off.check_rate.unlimited and off.read_rate.unlimited and off.lobby_rate.unlimited


# -- the documented status codes -------------------------------------------------------------
def test_a_full_disk_answers_503_and_nothing_is_half_saved(make_server, monkeypatch):
    from sqlalchemy.exc import OperationalError

    srv = make_server()
    t = srv.create(game="dolly-crush", seats=[{}, {}])

    def full(*_a, **_k):
        raise OperationalError(
            "INSERT ...", {}, sqlite3.OperationalError("database or disk is full")
        )

    monkeypatch.setattr(srv.manager.storage, "create_table", full)
    monkeypatch.setattr(srv.manager.storage, "update_seat", full)
    r = _create(srv.http)
    assert r.status_code == 503, r.text
    assert r.json()["detail"] == (
        "nothing was saved: the database does not accept a write (database or disk is full)"
    )
    assert list(srv.manager.tables) == [t["id"]]
    r = srv.http.post(f"/api/tables/{t['id']}/join", json={"name": "Ann"})
    assert r.status_code == 503 and "disk is full" in r.json()["detail"]
    assert srv.http.get(f"/api/tables/{t['id']}").json()["seats"][0]["free"]


# -- the live set and the lobby --------------------------------------------------------------
def _finished_bot_table(srv):
    from polling import wait_until

    t = srv.create(
        game="shave-a-sheep", rules={"wool": 3}, seats=[{"kind": "bot"}, {"kind": "bot"}]
    )
    wait_until(lambda: srv.http.get(f"/api/tables/{t['id']}").json()["finished"], what="the end")
    return t["id"]


def test_finished_tables_leave_memory_and_are_read_back_when_asked(make_server, ws_client):
    from polling import wait_until

    srv = make_server(archive_after=0.05)
    done = _finished_bot_table(srv)
    waiting = srv.create(game="dolly-crush", seats=[{}, {}])["id"]  # unfinished: stays live
    record = srv.http.get(f"/api/tables/{done}/record").json()
    wait_until(lambda: done not in srv.manager.tables, what="the finished table archived")
    assert waiting in srv.manager.tables and done in srv.manager.archived
    assert [t["id"] for t in srv.http.get("/api/tables").json()] == [waiting]
    # its page, replay and record still work, read back from the database
    assert srv.http.get(f"/api/tables/{done}/record").json() == record
    wait_until(lambda: done not in srv.manager.tables, what="archived again")
    frames = srv.http.get(f"/api/tables/{done}/replay").json()["frames"]
    assert frames[0]["event"] == "start" and len(frames) > 2
    wait_until(lambda: done not in srv.manager.tables, what="archived again")
    c = ws_client(f"{srv.ws_url}/ws/{done}")
    assert c.last_state["table"]["finished"] and done in srv.manager.tables
    # watched: it stays in memory while someone looks at it
    assert srv.manager.archive_finished() == 0
    c.close()
    wait_until(lambda: done not in srv.manager.tables, what="archived once nobody watches")
    assert srv.http.get("/api/tables/nope").status_code == 404  # no database read for it
    assert srv.manager.summaries()[-1].finished()  # the gallery still counts it


def test_a_restart_keeps_finished_tables_out_of_memory(make_server, tmp_path):
    db = str(tmp_path / "kept.db")
    srv = make_server(db)
    done = _finished_bot_table(srv)
    srv.stop()
    again = make_server(db)
    assert done not in again.manager.tables and done in again.manager.archived
    assert again.http.get(f"/api/tables/{done}").json()["finished"]


def test_the_lobby_is_built_once_for_many_requests(make_server):
    srv = make_server(lobby_refresh=3600.0)
    m = srv.manager
    for _ in range(3):
        srv.create(game="dolly-crush", seats=[{}, {}])
    built = []
    real = m.lobby
    m.lobby = lambda limit=100: built.append(1) or real(limit)
    with _client(srv, "127.0.0.5") as a, _client(srv, "127.0.0.6") as b:
        lists = [c.get("/api/tables").json() for c in (a, b, a, b)]
    assert len(built) == 1 and all(x == lists[0] for x in lists) and len(lists[0]) == 3
    m.lobby_changed()  # a table's news: rebuilt after lobby_refresh at most, not per request
    assert srv.http.get("/api/tables").json() == lists[0] and len(built) == 1
    new = srv.create(game="dolly-crush", seats=[{}, {}])  # a new table: listed at once
    assert new["id"] in [t["id"] for t in srv.http.get("/api/tables").json()]
    assert len(built) == 2
