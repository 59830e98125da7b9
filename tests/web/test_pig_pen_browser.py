"""A game added inside games/ alone plays in the web app: Pig Pen, which no file of the server
names, at a table created through the API with a bot, played to its end by clicking the
buttons the generic renderer draws from the view (issue 25, "One seam per game"; that no
file outside games/ names it: tests/test_pig_pen_everywhere.py)."""

from __future__ import annotations

import pytest
from test_web_browser import last, new_page, sit

pytestmark = pytest.mark.browser

#: the decisions this page is ready to see (Pig Pen's, by their names)
MY_TURN = (
    "() => { const m = window.SF_LAST; return m.view.finished || (m.view.to_move === m.you"
    " && document.querySelectorAll('#controls .act:not([disabled])').length > 0); }"
)


def test_a_pig_pen_table_plays_to_the_end_by_clicking(browser, live_server, shots):
    assert "pig-pen" not in live_server.http.get("/api/games").json()  # not offered (listed=False)
    t = live_server.create(
        game="pig-pen",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        rules={"target": 12},
        seed=7,
    )
    page = new_page(browser)
    sit(page, live_server.url + t["invite"], "Mia", 0)
    seen: set[str] = set()
    for _ in range(300):  # a bound: the turn limit ends the game long before
        page.wait_for_function(MY_TURN)
        m = last(page)
        if m["view"]["finished"]:
            break
        labels = page.eval_on_selector_all("#controls .act", "els => els.map((e) => e.innerText)")
        assert set(labels) <= {"Roll", "Pen"} and "Roll" in labels  # the actions' names
        lines = page.inner_text("#lines")
        assert f"Turn wool: {m['view']['turn_wool']}" in lines  # the view's fields, in words
        assert "_" not in lines  # words, never our identifiers
        action = "pen" if m["view"]["turn_wool"] >= 4 and "Pen" in labels else "roll"
        seen.add(action)
        page.click(f"#controls .act[data-action='{action}']")
        page.wait_for_function(f"() => window.SF_LAST.seq > {m['seq']}")
    else:
        raise AssertionError("the game did not end in 300 decisions")
    view = last(page)["view"]
    assert view["finished"] and seen == {"roll", "pen"}
    page.wait_for_selector("#end:not([hidden]) #again")  # the end screen: play again
    banner = page.inner_text("#banner")
    assert "Game over" in banner or "tie" in banner
    if view["winners"] == [0]:
        assert "You won!" in banner
    scores = page.eval_on_selector_all(".player .score", "els => els.map((e) => e.innerText)")
    assert scores == [str(int(s)) for s in view["scores"]]  # each seat's pen
    assert page.locator(".player >> text=Pen:").count() == 2  # the game's word for a score
    page.click("#replay-open")  # the replay draws every frame with the same renderer
    page.wait_for_selector("#replay-range")
    page.fill("#replay-range", "1")
    page.dispatch_event("#replay-range", "input")
    assert "Mia" in page.inner_text("#replay-event")
    page.screenshot(path=str(shots / "pig-pen-end.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
