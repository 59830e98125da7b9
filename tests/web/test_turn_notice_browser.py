"""Your turn, said (issue 29, "Play over days"): the tab's title says when it is your turn, and a
browser notice says it while the tab is hidden, once the player asked for notices (a button).
The browser's Notification API is a recording stand-in here, and the tab's hiddenness is set
by the test: what is checked is when the page asks for a notice."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import last, new_page, sit

pytestmark = pytest.mark.browser

#: Notification, recorded; the page's visibility set by ``window.HIDDEN``
FAKES = """
window.NOTICES = [];
window.ASKED = 0;
class FakeNotification {
  constructor(title, options) { window.NOTICES.push({ title, body: (options || {}).body }); }
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => { window.ASKED += 1; FakeNotification.permission = "granted"; return "granted"; };
window.Notification = FakeNotification;
window.HIDDEN = false;
Object.defineProperty(document, "hidden", { get: () => window.HIDDEN });
Object.defineProperty(document, "visibilityState", { get: () => (window.HIDDEN ? "hidden" : "visible") });
"""


def mover(page: Any) -> int:
    v = last(page)["view"]
    who = v["turn"] if v["to_move"] == "chance" else v["to_move"]
    return -1 if who is None else int(who)  # -1: nobody's (between two steps)


def play_turn(page: Any, seat: int) -> None:
    """Click through ``seat``'s turn of Shave a Sheep (the die, then a choice if any), once the
    page knows it is that seat's turn."""
    page.wait_for_function(
        "(seat) => { const v = window.SF_LAST.view;"
        " return (v.to_move === 'chance' ? v.turn : v.to_move) === seat; }",
        arg=seat,
    )
    while mover(page) == seat and not last(page)["view"]["finished"]:
        seq = last(page)["seq"]
        page.wait_for_selector("#roll, .act")
        page.click("#roll" if page.locator("#roll").count() else ".act >> nth=0")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")


def test_the_title_and_a_notice_say_it_is_your_turn(browser, live_server, shots):
    from playwright.sync_api import expect

    t = live_server.create(game="shave-a-sheep", seats=[{}, {}], seed=5)
    url = live_server.url + t["invite"]
    mia, leo = new_page(browser), new_page(browser)
    mia.add_init_script(FAKES)
    sit(mia, url, "Mia", 0)
    sit(leo, url, "Leo", 1)
    expect(mia).to_have_title("● Your turn — Shave a Sheep — sheepfold")
    expect(leo).to_have_title("Shave a Sheep — sheepfold")
    button = mia.locator("#notify")
    expect(button).to_have_text("Tell me when it is my turn")
    button.click()  # opting in: the browser is asked once
    expect(button).to_have_text("Turn notices on")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert mia.evaluate("window.ASKED") == 1

    # Mia's turn, with the tab shown: no notice; then Leo's, while Mia's tab is hidden
    play_turn(mia, 0)
    expect(mia).to_have_title("Shave a Sheep — sheepfold")
    expect(leo).to_have_title("● Your turn — Shave a Sheep — sheepfold")
    mia.evaluate("window.HIDDEN = true")
    play_turn(leo, 1)
    expect(mia).to_have_title("● Your turn — Shave a Sheep — sheepfold")
    mia.wait_for_function("() => window.NOTICES.length === 1")
    assert mia.evaluate("window.NOTICES") == [
        {"title": "Your turn — Shave a Sheep", "body": "It is your turn at the table."}
    ]
    mia.screenshot(path=str(shots / "turn-notice.png"))

    # shown: her turn comes back with no notice; opted out, hidden: none either
    mia.evaluate("window.HIDDEN = false")
    play_turn(mia, 0)
    play_turn(leo, 1)
    expect(mia).to_have_title("● Your turn — Shave a Sheep — sheepfold")
    button.click()
    expect(button).to_have_text("Tell me when it is my turn")
    play_turn(mia, 0)
    mia.evaluate("window.HIDDEN = true")
    play_turn(leo, 1)
    expect(mia).to_have_title("● Your turn — Shave a Sheep — sheepfold")
    assert mia.evaluate("window.NOTICES.length") == 1
    assert not mia.errors and not leo.errors
