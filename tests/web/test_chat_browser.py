"""Table chat in two browsers (issue 29, "Table chat"): a line typed in one shows in the other as
text (a ``<script>`` is only words), a reaction from a phone's button, a watcher reads along,
and the host turns the chat off for everyone and on again."""

from __future__ import annotations

import pytest
from test_web_browser import new_page, sit

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_two_browsers_chat_as_text_and_the_host_turns_it_off(browser, live_server, shots):
    from playwright.sync_api import expect

    t = live_server.create(game="shave-a-sheep", seats=[{}, {}])
    url = live_server.url + t["invite"]
    mia, leo = new_page(browser), new_page(browser, PHONE)
    sit(mia, url, "Mia", 0)
    sit(leo, url, "Leo", 1)
    watcher = new_page(browser)
    watcher.goto(url)
    expect(watcher.locator("#chat-note")).to_have_text("Take a seat to chat; you can read along.")
    expect(watcher.locator("#chat-form")).to_be_hidden()

    # Mia types a line that would be a script as HTML: everyone reads it as words
    said = "<script>window.PWNED = 1</script><b>hi</b> Leo!"
    mia.fill("#chat-text", said)
    mia.press("#chat-text", "Enter")
    for page in (mia, leo, watcher):
        # the name, then the seat: what tells two look-alike names apart
        expect(page.locator("#chat-lines li").last).to_have_text(f"Mia (seat 1): {said}")
        assert page.locator("#chat-lines script").count() == 0
        assert page.locator("#chat-lines li b").count() == 1  # the name's only
        assert page.evaluate("window.PWNED") is None
    expect(mia.locator("#chat-text")).to_have_value("")  # sent: the box is empty again

    # Leo answers from his phone with a reaction button
    leo.locator("#chat-reacts button[aria-label='react: thumbs up']").click()
    for page in (mia, leo, watcher):
        expect(page.locator("#chat-lines li").last).to_have_text("Leo (seat 2): thumbs up")
    leo.screenshot(path=str(shots / "chat-phone.png"), full_page=True)

    # only the host (Mia, the first seat) has the switch; she turns the chat off
    expect(leo.locator("#chat-switch")).to_be_hidden()
    mia.locator("#chat-on").uncheck()
    for page in (mia, leo, watcher):
        expect(page.locator("#chat-note")).to_have_text("The host turned the chat off.")
        expect(page.locator("#chat-lines")).to_be_hidden()
    expect(leo.locator("#chat-form")).to_be_hidden()
    expect(leo.locator("#chat-reacts")).to_be_hidden()
    mia.locator("#chat-on").check()  # and on again: what was said is back
    expect(leo.locator("#chat-lines li")).to_have_count(2)
    leo.fill("#chat-text", "x" * 200)
    leo.click("#chat-send")
    expect(mia.locator("#chat-lines li")).to_have_count(3)
    mia.screenshot(path=str(shots / "chat-laptop.png"), full_page=True)
    for page in (mia, leo, watcher):
        assert not page.errors
