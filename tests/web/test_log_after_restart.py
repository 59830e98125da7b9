"""After a restart an unfinished table's "What happened" keeps the moves made before it, in
the reader's language (issue 51: the server's start-up read every unfinished table back with an
empty log; only finished tables, read back when asked for, told theirs again)."""

from __future__ import annotations

from typing import Any

LANGS = ("en", "it")


def log_of(c: Any) -> list[dict[str, Any]]:
    c.send({"type": "log", "since": 0, "ref": "log"})
    return c.wait(lambda m: m["type"] == "log")["events"]


def said(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(e["n"], e["seat"], e["text"], e["turn"], e.get("move")) for e in events]


def read(srv: Any, ws_client: Any, table: str, lang: str) -> tuple[list[Any], list[Any]]:
    """The log a page of ``lang`` is sent: the state's window, and the whole log asked for."""
    c = ws_client(f"{srv.ws_url}/ws/{table}?lang={lang}")
    window = c.wait_state(lambda s: True)["events"]
    whole = log_of(c)
    c.close()
    return window, whole


def test_people_moves_at_an_unfinished_table_are_in_its_log_after_a_restart(
    make_server: Any, ws_client: Any, tmp_path: Any
) -> None:
    db = str(tmp_path / "restart.db")
    srv = make_server(db)
    t = srv.create(game="shave-a-sheep", seats=[{}, {}], auto_roll=True, seed=3)
    mia, leo = srv.join(t["id"], "Mia", 0), srv.join(t["id"], "Leo", 1)
    url = f"{srv.ws_url}/ws/{t['id']}"
    a, b = ws_client(url, mia["token"]), ws_client(url, leo["token"])
    for c, seat in ((a, 0), (b, 1)):  # Mia's move, then Leo's (each after its rolled die)
        view = c.wait_state(lambda s, seat=seat: s["view"]["to_move"] == seat)["view"]
        c.send({"type": "act", "action": view["legal_actions"][0]})
        c.wait_state(
            lambda s, seat=seat: any(e["seat"] == seat and "move" in e for e in s["events"])
        )
    before = {lang: read(srv, ws_client, t["id"], lang) for lang in LANGS}
    a.close()
    b.close()
    srv.stop()

    srv = make_server(db)
    for lang in LANGS:
        window, whole = read(srv, ws_client, t["id"], lang)
        # the same entries (an entry's name is the seat's when it is told: the opening roll's
        # was "seat 1" before Mia sat down, and is hers when told again)
        assert said(window) == said(before[lang][0]) and said(whole) == said(before[lang][1])
        assert {e["who"] for e in whole} == {None, "Mia", "Leo"}  # both people's moves
    en, it = (read(srv, ws_client, t["id"], lang)[1] for lang in LANGS)
    assert en[0]["text"] == "the table is open" and it[0]["text"] == "il tavolo è aperto"
    assert len(en) == len(it) >= 6  # the opening, and two rolls and two moves at least
    for x, y in zip(en, it, strict=True):  # each entry in its reader's language
        assert x["n"] == y["n"] and x["text"] != y["text"], (x, y)


def test_bot_moves_at_an_unfinished_table_are_in_its_log_after_a_restart(
    make_server: Any, ws_client: Any, tmp_path: Any
) -> None:
    db = str(tmp_path / "restart.db")
    srv = make_server(db)
    seats = [{"kind": "bot", "bot": "random"}] * 3 + [{}]  # the free seat's turn: it waits
    t = srv.create(game="dolly-crush", seats=seats, seed=4)
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    c.wait_state(lambda s: s["view"]["to_move"] == 3)
    c.close()
    before = {lang: read(srv, ws_client, t["id"], lang) for lang in LANGS}
    srv.stop()

    srv = make_server(db)
    for lang in LANGS:
        assert read(srv, ws_client, t["id"], lang) == before[lang], lang
    swaps = [e["text"] for e in before["it"][1] if e.get("move", "").startswith("swap")]
    assert swaps and all(x.startswith("ha scambiato") for x in swaps), swaps
