"""See what happened (issue 29): with three bots before you, the log shows every one of their
turns since your last, open, turn by turn (newest first); what came before is folded."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import new_page

from polling import wait_until

pytestmark = pytest.mark.browser

BOTS_FIRST = [{"kind": "bot", "bot": "random"}] * 3 + [{}]


def server_log(srv: Any, table: str) -> list[dict[str, Any]]:
    return list(srv.manager.get(table).log.events)


def play_her_turn(srv: Any, table_id: str, c: Any) -> None:
    """Mia (seat 3) plays her one turn on another device (the client ``c``, her seat's token),
    then the three bots play theirs. Only her one turn: on a loaded machine the bots can play
    theirs and hand the turn back to her before the loop looks again."""
    table = srv.manager.get(table_id)

    def last_turn() -> int:
        return max(e["turn"] for e in server_log(srv, table_id))

    her_turn = last_turn() + 1
    while table.state.current_player() == 3 and last_turn() <= her_turn:
        state, seq = table.state, c.last_state["seq"]
        c.send({"type": "act", "action": state.action_to_string(state.legal_actions()[0])})
        c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
    wait_until(
        lambda: table.state.current_player() == 3 or table.finished(), what="three bot turns"
    )


def friendly_text(e: dict[str, Any]) -> str:
    """An entry as the log shows it (Dolly Crush's first entry of a turn: its dog card)."""
    n = int(e["text"].split()[-1]) + 1 if e["text"].startswith("dog ") else None
    return f"played dog card {n}" if n is not None else e["text"]


#: every error the page shows (they clear themselves after a while)
TOASTS = """
window.SF_TOASTS = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("error");
  new MutationObserver(() => { if (box.textContent) window.SF_TOASTS.push(box.textContent); })
    .observe(box, { childList: true, subtree: true, characterData: true });
});
"""


def test_every_bot_turn_since_yours_is_shown(browser, live_server, ws_client, shots):
    from playwright.sync_api import expect

    t = live_server.create(game="dolly-crush", seats=BOTS_FIRST, seed=4)
    me = live_server.join(t["id"], "Mia", 3)
    key = f"sheepfold:token:{t['id']}"
    page = new_page(browser)
    page.add_init_script(f"localStorage.setItem({key!r}, {me['token']!r})")
    page.add_init_script(TOASTS)
    page.goto(live_server.url + t["invite"])
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 3")
    table = live_server.manager.get(t["id"])
    wait_until(lambda: table.state.current_player() == 3, what="the bots' first turns")
    # before Mia's first turn: everything so far is open (the opening and three bot turns),
    # newest first, each turn's entries in their order
    log = page.locator("#log")
    expect(log.locator("details.turn[open] > summary b")).to_have_text(
        ["Timmy's turn", "Shaun's turn", "Dolly's turn", "At the table"]
    )
    # Mia plays her turn on another device (her seat's token), then the bots play theirs
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])
    play_her_turn(live_server, t["id"], c)
    entries = server_log(live_server, t["id"])
    my_turn = max(e["turn"] for e in entries if e["seat"] == 3)
    since = [e for e in entries if e["turn"] > my_turn]  # the bots' turns after Mia's
    assert len({e["turn"] for e in since}) == 3
    assert len(entries) > 8  # more than a state message's window: all of it is on the page
    expect(log.locator("li")).to_have_count(len(entries))
    open_turns = log.locator("details.turn[open]")
    expect(open_turns.locator("> summary b")).to_have_text(
        ["Timmy's turn", "Shaun's turn", "Dolly's turn"]
    )
    expect(open_turns.locator("li")).to_have_count(len(since))
    expect(open_turns.last.locator("li").first).to_have_text(friendly_text(since[0]))
    folded = log.locator("details.turn:not([open])")
    expect(folded.locator("> summary b")).to_have_text(
        ["Your turn", "Timmy's turn", "Shaun's turn", "Dolly's turn", "At the table"]
    )
    mine = log.locator("details.turn").nth(3)  # a folded turn opens on a click
    mine.locator("summary").click()
    expect(mine.locator("li").first).to_be_visible()
    page.screenshot(path=str(shots / "log-since-your-turn.png"), full_page=True)
    assert not page.errors
    # her turn played elsewhere left this page's swap preview behind: no error for that
    assert page.evaluate("window.SF_TOASTS") == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_new_entries_arrive_in_order_unless_motion_is_reduced(
    browser, live_server, ws_client, motion
):
    """What happens while the page looks arrives entry by entry, in order (each arrival starts
    after the one before it, whatever the broadcasts it came in); with reduced motion nothing
    moves. The page records each arrival it schedules (``SF_ARRIVALS``: entry, start)."""
    t = live_server.create(game="dolly-crush", seats=BOTS_FIRST, seed=4)
    me = live_server.join(t["id"], "Mia", 3)
    page = new_page(browser)
    page.emulate_media(reduced_motion=motion)
    page.add_init_script(f"localStorage.setItem('sheepfold:token:{t['id']}', {me['token']!r})")
    page.goto(live_server.url + t["invite"])
    table = live_server.manager.get(t["id"])
    wait_until(lambda: table.state.current_player() == 3, what="the bots' first turns")
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.view.to_move === 3")
    page.wait_for_selector("#log details.turn")
    before = len(server_log(live_server, t["id"]))
    assert page.evaluate("window.SF_ARRIVALS || []") == []  # the first draw: nothing arrives
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])
    play_her_turn(live_server, t["id"], c)
    last_n = server_log(live_server, t["id"])[-1]["n"]
    page.wait_for_function(f"() => window.SF_LAST.events.at(-1).n === {last_n}")
    arrived = page.evaluate("window.SF_ARRIVALS || []")
    if motion == "reduce":
        assert arrived == [] and page.locator("#log li.arrived").count() == 0
    else:
        assert [n for n, _ in arrived] == list(range(before + 1, last_n + 1))  # each, once
        starts = [start for _, start in arrived]
        assert starts == sorted(starts) and starts[1] - starts[0] >= 300  # one after another
    assert not page.errors
