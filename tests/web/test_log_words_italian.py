"""An Italian page reads its table in Italian to the last word (issue 51): the older log
entries it asks for (``{"type": "log", "since": n}``), not only the state's window, and the
error for a mistyped move."""

from __future__ import annotations

from typing import Any

BOTS_FIRST = [{"kind": "bot", "bot": "random"}] * 3 + [{}]


def log_of(c: Any, since: int = 0) -> list[dict[str, Any]]:
    c.send({"type": "log", "since": since, "ref": "log"})
    return c.wait(lambda m: m["type"] == "log")["events"]


def error_of(c: Any) -> str:
    return str(c.wait(lambda m: m["type"] == "error")["message"])


def test_older_log_entries_come_in_the_pages_language(live_server: Any, ws_client: Any) -> None:
    t = live_server.create(game="dolly-crush", seats=BOTS_FIRST, seed=4)
    url = f"{live_server.ws_url}/ws/{t['id']}"
    it, en = ws_client(f"{url}?lang=it"), ws_client(f"{url}?lang=en")
    window = it.wait_state(lambda s: s["view"]["to_move"] == 3)["events"]
    en.wait_state(lambda s: s["view"]["to_move"] == 3)
    italian, english = log_of(it), log_of(en)
    assert italian[-len(window) :] == window  # the same words as the state's window
    assert italian[0]["text"] == "il tavolo è aperto"
    assert len(italian) == len(english) > len(window)  # older entries than the window's
    for x, y in zip(italian, english, strict=True):
        assert x["n"] == y["n"] and x["text"] != y["text"], (x, y)
    swaps = [e["text"] for e in italian if e.get("move", "").startswith("swap")]
    assert swaps and all(x.startswith("ha scambiato ") for x in swaps), swaps
    assert log_of(it, italian[-3]["n"]) == italian[-2:]
    it.send({"type": "log", "since": "all", "ref": "log"})
    assert error_of(it) == "'since' deve essere il numero di una voce del registro (0: tutte)"


def test_a_mistyped_move_is_answered_in_italian(live_server: Any, ws_client: Any) -> None:
    dolly = live_server.create(game="dolly-crush", seats=[{}, {"kind": "bot"}], seed=2)
    shave = live_server.create(game="shave-a-sheep", seats=[{}, {}], auto_roll=True, seed=3)
    for t, said in (
        (
            dolly,
            "'nonsense' non è una mossa: scrivi 'dog D' (D = 0..3) o uno scambio come 'b2-b3'",
        ),
        (shave, "'nonsense' non è una mossa permessa adesso"),
    ):
        mia = live_server.join(t["id"], "Mia", 0)
        c = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang=it", mia["token"])
        c.wait_state(lambda s: s["view"]["to_move"] == 0)
        c.send({"type": "act", "action": "nonsense", "ref": "typo"})
        assert error_of(c) == said
