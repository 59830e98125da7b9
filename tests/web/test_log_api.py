"""The table's log keeps the whole game, turn by turn (issue 29, "See what happened"): every
entry numbered and marked with its turn, what a page missed sent when it asks, and the log
told again from the actions after a restart."""

from __future__ import annotations

from typing import Any

from sheepfold.server.events import MAX_SENT

BOTS_FIRST = [{"kind": "bot", "bot": "random"}] * 3 + [{}]


def log_of(c: Any, since: int = 0) -> list[dict[str, Any]]:
    c.send({"type": "log", "since": since, "ref": "log"})
    return c.wait(lambda m: m["type"] == "log")["events"]


def test_three_bot_turns_are_all_in_the_log(live_server: Any, ws_client: Any) -> None:
    t = live_server.create(game="dolly-crush", seats=BOTS_FIRST, seed=4)
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}")
    c.wait_state(lambda s: s["view"]["to_move"] == 3)
    events = log_of(c)
    assert [e["n"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) >= 7  # the opening, and a dog card and a swap at least a turn
    turns: dict[int, set[Any]] = {}
    for e in events:
        turns.setdefault(e["turn"], set()).add(e["seat"])
    assert [turns[k] - {None} for k in sorted(turns)] == [set(), {0}, {1}, {2}]
    assert c.last_state["events"] == events[-8:]  # the state's window: the log's last entries
    assert log_of(c, events[-3]["n"]) == events[-2:]
    c.send({"type": "log", "since": "all", "ref": "log"})
    err = c.wait(lambda m: m["type"] == "error")
    assert err["ref"] == "log" and "'since'" in err["message"]


def test_the_log_is_told_again_after_a_restart(make_server: Any, ws_client: Any, tmp_path) -> None:
    db = str(tmp_path / "log.db")
    srv = make_server(db)
    t = srv.create(game="shave-a-sheep", seats=[{"kind": "bot"}, {"kind": "bot"}], seed=3)
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    c.wait_state(lambda s: s["view"]["finished"])
    before = log_of(c)
    c.close()
    srv.stop()
    srv = make_server(db)
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    after = log_of(c)
    said = lambda events: [(e["seat"], e["text"], e["turn"]) for e in events]  # noqa: E731
    assert said(after) == said(before)[-MAX_SENT:] and after[-1]["text"].startswith("game over")
