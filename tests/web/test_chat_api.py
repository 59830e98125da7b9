"""Table chat over the WebSocket (issue 29, "Table chat"): text only, bounded in length and
rate per seat and per address, a reaction from a fixed few, the host's switch, and nothing of
it in the game's record."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.server.chat import MAX_CHARS, REACTIONS, clean
from sheepfold.server.limits import Rate

FIRST = next(iter(REACTIONS))


def chat_lines(c: Any) -> list[dict[str, Any]]:
    import json

    msgs = [json.loads(t) for t in c.received]
    return [m["line"] for m in msgs if m["type"] == "chat"]


def error_of(c: Any, ref: str = "chat") -> str:
    return c.wait(lambda m: m["type"] == "error" and m.get("ref") == ref)["message"]


@pytest.fixture
def two(make_server: Any, ws_client: Any) -> Any:
    """A table of two people, Mia at 127.0.0.2 and Leo at 127.0.0.3, and a watcher."""
    srv = make_server(chat_rate=Rate(0.01, 3))  # 3 lines, then one per 100 s
    t = srv.create(game="shave-a-sheep", seats=[{}, {}])
    mia, leo = srv.join(t["id"], "Mia", 0), srv.join(t["id"], "Leo", 1)
    url = f"{srv.ws_url}/ws/{t['id']}"
    a = ws_client(url, mia["token"], source="127.0.0.2")
    b = ws_client(url, leo["token"], source="127.0.0.3")
    watcher = ws_client(url, source="127.0.0.4")
    return srv, t, url, a, b, watcher


def test_a_line_reaches_everyone_as_text(two: Any) -> None:
    srv, t, url, a, b, watcher = two
    a.send({"type": "chat", "text": "  <script>alert(1)</script>\n  hello\u202e  ", "ref": "chat"})
    for c in (a, b, watcher):
        line = c.wait(lambda m: m["type"] == "chat")["line"]
        assert line["text"] == "<script>alert(1)</script> hello"  # as typed, cleaned of controls
        assert (line["seat"], line["who"], line["n"]) == (0, "Mia", 1)
    b.send({"type": "chat", "react": FIRST, "ref": "chat"})
    assert a.wait(lambda m: m["type"] == "chat")["line"]["react"] == FIRST
    # a newcomer gets the chat so far
    late = type(a)(url, source="127.0.0.5")
    try:
        log = late.wait(lambda m: m["type"] == "chat_log")
        assert log["on"] and log["host"] == 0
        assert [ln.get("text") or ln.get("react") for ln in log["lines"]] == [
            "<script>alert(1)</script> hello",
            FIRST,
        ]
    finally:
        late.close()


def test_bad_lines_are_refused_with_words_and_change_nothing(two: Any) -> None:
    srv, t, url, a, b, watcher = two
    a.send({"type": "chat", "text": "x" * (MAX_CHARS + 1), "ref": "chat"})
    assert error_of(a) == f"a chat line is at most {MAX_CHARS} characters (this one has 201)"
    a.send({"type": "chat", "text": " \n\t ", "ref": "chat"})
    assert error_of(a) == "a chat line needs some words"
    a.send({"type": "chat", "react": "<b>", "ref": "chat"})
    assert error_of(a).startswith("a reaction is one of")
    a.send({"type": "chat", "text": ["a list"], "ref": "chat"})
    assert "'text'" in error_of(a)
    watcher.send({"type": "chat", "text": "hi", "ref": "chat"})
    assert error_of(watcher) == "you are watching: take a seat to chat"
    # a message past the WebSocket cap is refused before it is parsed
    a.send('{"type": "chat", "text": "' + "y" * srv.settings.max_message + '"}')
    assert error_of(a, None).startswith("message too large")  # type: ignore[arg-type]
    a.drain()
    b.drain()
    assert chat_lines(a) == chat_lines(b) == []
    assert srv.manager.get(t["id"]).chat.lines == type(srv.manager.get(t["id"]).chat.lines)()


def test_the_rate_is_limited_per_seat_and_per_address(make_server: Any, ws_client: Any) -> None:
    srv = make_server(chat_rate=Rate(0.01, 3))
    t = srv.create(game="dolly-crush", seats=[{}, {}, {}])
    tokens = [srv.join(t["id"], n, i)["token"] for i, n in enumerate(("Mia", "Leo", "Ada"))]
    url = f"{srv.ws_url}/ws/{t['id']}"
    # Mia on two devices at two addresses: her seat's bucket holds for both
    mia, mia_phone = ws_client(url, tokens[0], "127.0.0.2"), ws_client(url, tokens[0], "127.0.0.3")
    for i in range(3):
        (mia if i % 2 else mia_phone).send({"type": "chat", "text": f"line {i}", "ref": "chat"})
        mia.wait(lambda m, i=i: m["type"] == "chat" and m["line"]["text"] == f"line {i}")
    mia_phone.send({"type": "chat", "text": "one more", "ref": "chat"})
    assert error_of(mia_phone).startswith("you are chatting fast: try again in")
    # Leo and Ada behind one address: its bucket holds for both seats
    leo, ada = ws_client(url, tokens[1], "127.0.0.4"), ws_client(url, tokens[2], "127.0.0.4")
    for i in range(3):
        (leo if i % 2 else ada).send({"type": "chat", "react": FIRST, "ref": "chat"})
        leo.wait(lambda m, n=4 + i: m["type"] == "chat" and m["line"]["n"] == n)
    leo.send({"type": "chat", "text": "hello", "ref": "chat"})
    assert error_of(leo).startswith("too many chat lines from your address")
    # another address is not slowed by theirs: Ada's seat still has its own lines... from .5
    ada_phone = ws_client(url, tokens[2], "127.0.0.5")
    ada_phone.send({"type": "chat", "text": "from my phone", "ref": "chat"})
    ada_phone.wait(lambda m: m["type"] == "chat" and m["line"]["text"] == "from my phone")
    assert [ln["n"] for ln in srv.manager.get(t["id"]).chat.lines] == list(range(1, 8))


def test_a_line_the_address_refuses_costs_the_seat_nothing(
    make_server: Any, ws_client: Any
) -> None:
    """Refused by its address's bucket, a line takes no token of the seat's own: Leo, behind
    a busy address, still has all his seat's lines from another one."""
    srv = make_server(chat_rate=Rate(0.01, 3))
    t = srv.create(game="shave-a-sheep", seats=[{}, {}])
    tokens = [srv.join(t["id"], n, i)["token"] for i, n in enumerate(("Mia", "Leo"))]
    url = f"{srv.ws_url}/ws/{t['id']}"
    mia, leo = ws_client(url, tokens[0], "127.0.0.2"), ws_client(url, tokens[1], "127.0.0.2")
    for i in range(3):  # Mia empties the address's bucket
        mia.send({"type": "chat", "text": f"line {i}", "ref": "chat"})
        mia.wait(lambda m, i=i: m["type"] == "chat" and m["line"]["text"] == f"line {i}")
    for _ in range(3):
        leo.send({"type": "chat", "text": "hello", "ref": "chat"})
        assert error_of(leo).startswith("too many chat lines from your address")
    leo_phone = ws_client(url, tokens[1], "127.0.0.3")
    for i in range(3):
        leo_phone.send({"type": "chat", "text": f"phone {i}", "ref": "chat"})
        leo_phone.wait(lambda m, i=i: m["type"] == "chat" and m["line"]["text"] == f"phone {i}")
    assert [ln["seat"] for ln in srv.manager.get(t["id"]).chat.lines] == [0, 0, 0, 1, 1, 1]


def test_the_host_turns_the_chat_off_and_on(two: Any) -> None:
    srv, t, url, a, b, watcher = two
    b.send({"type": "chat_switch", "on": False, "ref": "chat"})
    assert error_of(b) == "only the host (the first seat a person holds) turns the chat on or off"
    watcher.send({"type": "chat_switch", "on": False, "ref": "chat"})
    assert error_of(watcher) == "you are watching: take a seat to chat"
    a.send({"type": "chat", "text": "before", "ref": "chat"})
    b.wait(lambda m: m["type"] == "chat")
    a.send({"type": "chat_switch", "on": False, "ref": "chat"})
    for c in (a, b, watcher):
        told = c.wait(lambda m: m["type"] == "chat_log" and not m["on"])
        assert told["lines"] == []  # hidden while it is off
    b.send({"type": "chat", "text": "still there?", "ref": "chat"})
    assert error_of(b) == "the chat is off at this table (the host turned it off)"
    a.send({"type": "chat_switch", "on": "yes", "ref": "chat"})
    assert error_of(a) == "'on' must be true or false"
    a.send({"type": "chat_switch", "on": True, "ref": "chat"})
    told = b.wait(lambda m: m["type"] == "chat_log" and m["on"])
    assert [ln["text"] for ln in told["lines"]] == ["before"]
    b.send({"type": "chat", "text": "back", "ref": "chat"})
    a.wait(lambda m: m["type"] == "chat" and m["line"]["text"] == "back")


def test_the_chat_is_no_part_of_the_game_record(two: Any, tmp_path: Any) -> None:
    srv, t, url, a, b, watcher = two
    a.send({"type": "chat", "text": "a secret about sheep", "ref": "chat"})
    b.wait(lambda m: m["type"] == "chat")
    srv.manager.flush()
    for path in ("record", "replay"):
        r = srv.http.get(f"/api/tables/{t['id']}/{path}")
        assert "secret about sheep" not in r.text, path
    stored = b"".join(p.read_bytes() for p in tmp_path.rglob("*.db*"))
    assert stored and b"secret about sheep" not in stored


def test_clean_keeps_words_and_drops_controls() -> None:
    assert clean("a\tb\n\nc") == "a b c"
    assert clean("\u200bzero\u2066width") == "zerowidth"
    assert clean("Ciao 🐑 pecora") == "Ciao 🐑 pecora"
    assert clean("\u202eevil\u202c 👩\u200d🌾") == "evil 👩\u200d🌾"  # no bidi override
