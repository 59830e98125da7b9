"""The gallery of house rules in the browser (issue 14): publish from the lobby's rule editor,
find the rule set in the gallery, read its lab card, try it at a table, vote; and a stranger's
text never becomes markup.

Browser tests: Playwright driving Debian's Chromium against a live server on 127.0.0.1.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import PHONE, last, new_page

from sheepfold.rulesets import read_ruleset_file

pytestmark = pytest.mark.browser

#: the lab's budgets for these tests: a card in a few games (the server's Settings)
TINY_LAB: dict[str, Any] = {"lab_games": 20}
#: the lab card's wait: a bound for a loaded machine with a cold numba cache, not a budget
LAB_WAIT_MS = 300_000
EVIL = "<img src=x onerror=alert(1)>"


def expect(x: Any) -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect(x)


def watch_dialogs(page: Any) -> list[str]:
    """Every alert/confirm the page opens (an injected script would open one)."""
    seen: list[str] = []
    page.on("dialog", lambda d: (seen.append(d.message), d.dismiss()))
    return seen


def no_horizontal_scroll(page: Any) -> None:
    """Nothing scrolls sideways on a phone: neither the page nor a part of it (the lab card's
    table showed its last columns only to a sideways swipe)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide on a phone"
    scrolled = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className || e.tagName)"""
    )
    assert scrolled == [], f"these scroll sideways on a phone: {scrolled}"


def edit_a_house_rule(page: Any, url: str) -> None:
    """The lobby's rule editor: Shave a Sheep with 12 wool in the middle; its Publish form open."""
    page.goto(url)
    page.click("#game-choice button[data-game='shave-a-sheep']")
    wool = page.locator("[data-field='wool'] input")
    page.click("#rules-editor summary")
    expect(wool).to_be_visible()
    wool.fill("12")
    expect(page.locator("#rules-state")).to_have_text("✓ these rules can be played")
    page.click("#publish summary")


def publish(page: Any, name: str, author: str) -> dict[str, str]:
    """The edited rules published: the token and the rule set's address, as the page shows them."""
    page.fill("#pub-name", name)
    page.fill("#pub-author", author)
    page.fill("#pub-description", "A shorter game: twelve wool in the middle.")
    page.click("#publish-btn")
    token = page.locator("#publish-token")
    expect(token).not_to_be_empty()
    expect(page.locator("#publish-result")).to_contain_text("shown only this once")
    return {"token": token.inner_text(), "url": page.get_attribute("#published-link", "href")}


def play_shave_to_the_end(page: Any) -> None:
    """Roll and pick the first action until the game is over (the other seats are bots)."""
    for _ in range(400):
        page.wait_for_selector("#roll, .act, .banner.over")
        if page.locator(".banner.over").count():
            return
        seq = last(page)["seq"]
        page.click("#roll" if page.locator("#roll").count() else ".act >> nth=0")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    raise AssertionError("the game did not end in 400 decisions")


def test_publish_find_read_the_lab_card_try_it_and_vote(browser, make_server, shots, tmp_path):
    srv = make_server(bot_delay=0.0, **TINY_LAB)
    author = new_page(browser)
    edit_a_house_rule(author, srv.url)
    published = publish(author, "Short Shear", "Mia")
    assert published["url"] == "/gallery/shave-a-sheep/short-shear"
    author.screenshot(path=str(shots / "gallery-published.png"), full_page=True)

    # someone else, on a phone, finds it
    page = new_page(browser, PHONE)
    page.goto(srv.url + "/")
    page.click("#gallery-link")
    page.click("#game-tabs button[data-game='shave-a-sheep']")
    page.fill("#q", "short")
    entry = page.locator(".entry", has_text="Short Shear")
    expect(entry).to_have_count(1)
    expect(entry.locator(".author")).to_have_text("Mia")
    expect(entry.locator(".differences")).to_contain_text("12")
    expect(entry.locator(".votes")).to_have_text("no votes yet")
    # the filters by what a rule set changes: it changes the wool, not the die
    page.click(".chip[data-category='die']")
    expect(page.locator(".entry")).to_have_count(0)
    page.click(".chip[data-category='die']")
    page.click(".chip[data-category='wool']")
    expect(page.locator(".chip[data-category='wool']")).to_have_attribute("aria-pressed", "true")
    expect(entry).to_have_count(1)
    page.select_option("#sort", "liked")
    expect(entry).to_have_count(1)
    assert "changes=wool" in page.url and "sort=liked" in page.url
    no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "gallery-phone.png"), full_page=True)

    # its page: the lab card, followed until it is done
    entry.locator("a.entry-name").click()
    page.wait_for_url("**/gallery/shave-a-sheep/short-shear")
    verdict = page.locator("#lab .verdict").first
    expect(verdict).to_be_visible(timeout=LAB_WAIT_MS)
    card = srv.http.get("/api/gallery/shave-a-sheep/short-shear/1").json()
    assert card["lab"]["status"] == "done"
    expect(verdict).to_have_text(card["lab"]["verdict"])
    # played at 2 and 4 players, each count with its own heading, verdict and figures
    counts = card["lab"]["by_players"]
    assert [c["players"] for c in counts] == card["lab"]["players"] == [2, 4]
    expect(page.locator("#lab h3.lab-players")).to_have_count(2)
    for i, part in enumerate(counts):
        expect(page.locator("#lab .verdict").nth(i + 1)).to_have_text(part["verdict"])
        rows = page.locator("table.metrics").nth(i).locator("tbody tr")
        expect(rows).to_have_count(len(part["metrics"]))
    expect(page.locator("#about .differences")).to_contain_text("12")
    # Shave a Sheep with 12 wool is small enough to solve: the exact figures, in points
    exact = counts[0]["exact"]
    figures = page.locator("#lab .exact").first.locator("li")
    expect(figures).to_have_count(2)
    expect(figures.nth(0)).to_contain_text(f"{100 * exact['first_player_advantage']:+.1f} pp")
    expect(figures.nth(1)).to_contain_text(f"{100 * exact['perfect_edge_over_greedy']:+.1f} pp")
    # the plot of the page's language (drawn per language: tests/web/test_i18n_server_words.py)
    expect(page.locator("#lab img.lab-plot")).to_have_attribute(
        "src", card["lab"]["plot"] + "?lang=en"
    )
    assert page.evaluate("document.querySelector('#lab img.lab-plot').naturalWidth") > 0
    no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "gallery-ruleset-phone.png"), full_page=True)

    # the rule file, as published
    with page.expect_download() as d:
        page.click("#download")
    assert d.value.suggested_filename == "short-shear-v1.json"
    saved = tmp_path / d.value.suggested_filename
    d.value.save_as(saved)
    assert read_ruleset_file(saved, "shave-a-sheep").rules.options() == {"wool": 12}

    # try it: a person (this page) against a bot
    expect(page.locator(".seat-row .kind").nth(1)).to_have_value("bot")
    page.select_option("#first", "0")  # the person starts (by default who starts is drawn)
    page.click("#try-btn")
    page.wait_for_url("**/t/*")
    house = page.locator("#house-rules")
    expect(house).to_have_class("house-rules house-gallery panel before-start")
    expect(house.locator(".house-name")).to_have_text("Short Shear")
    expect(house.locator(".house-author")).to_have_text("Mia")
    expect(house.locator(".differences")).to_contain_text("12")
    page.screenshot(path=str(shots / "gallery-table-rules.png"), full_page=True)
    page.fill("#join-name", "Leo")
    page.click(".sit[data-seat='0']")
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")
    assert last(page)["table"]["house"]["slug"] == "short-shear"
    play_shave_to_the_end(page)
    assert last(page)["view"]["finished"] and sum(last(page)["view"]["piles"]) == 12

    # the vote, and the gallery counts it
    page.click("#vote-yes")
    expect(page.locator("#vote-counts")).to_contain_text("1 of 1 would play it again")
    page.screenshot(path=str(shots / "gallery-vote.png"), full_page=True)
    page.goto(srv.url + "/gallery?game=shave-a-sheep&q=short")
    expect(entry.locator(".votes")).to_have_text("1 of 1 would play it again")
    expect(entry.locator(".played")).to_have_text("played 1, finished 1")
    assert not page.errors and not author.errors


def test_a_strangers_name_is_text_everywhere(browser, make_server):
    srv = make_server(bot_delay=0.0, lab_workers=0)  # no lab: the card waits in the queue
    page = new_page(browser)
    dialogs = watch_dialogs(page)
    edit_a_house_rule(page, srv.url)
    # the server's refusal (422) is said next to the form, and nothing is published
    page.fill("#pub-name", "Zero\u200bWidth")
    page.fill("#pub-author", "Mia")
    page.click("#publish-btn")
    expect(page.locator("#publish-error")).to_contain_text("U+200B")
    assert srv.http.get("/api/gallery/shave-a-sheep").json()["entries"] == []
    publish(page, EVIL, EVIL)
    expect(page.locator("#published-link")).to_contain_text(EVIL)

    page.goto(srv.url + "/gallery?game=shave-a-sheep")
    entry = page.locator(".entry").first
    expect(entry.locator(".entry-name")).to_have_text(EVIL)
    expect(entry.locator(".author")).to_have_text(EVIL)
    expect(entry.locator(".lab")).to_have_text("Lab: queued, position 1 in the queue")
    assert page.locator("img[src='x']").count() == 0

    entry.locator(".entry-name").click()
    expect(page.locator("#about .entry-name")).to_have_text(EVIL)
    expect(page.locator("#title")).to_have_text(EVIL)
    assert page.locator("img[src='x']").count() == 0
    page.click("#try-btn")
    page.wait_for_url("**/t/*")
    expect(page.locator("#house-rules .house-name")).to_have_text(EVIL)
    expect(page.locator("#house-rules .house-author")).to_have_text(EVIL)
    assert page.locator("img[src='x']").count() == 0
    page.goto(srv.url + "/gallery/shave-a-sheep/nope")  # a rule set nobody published
    expect(page.locator("#about .error")).to_contain_text("no rule set 'nope'")
    page.goto(srv.url)  # the lobby's list of tables names the house rules too
    expect(page.locator("#tables .house-link")).to_have_text(f"house rules: {EVIL}")
    # no element was made of the text, and nothing ran
    assert page.locator("img[src='x']").count() == 0
    assert not dialogs and not page.errors


def test_try_it_seats_people_and_bots_as_the_lobby_does(browser, make_server):
    srv = make_server(bot_delay=0.0, lab_workers=0)
    r = srv.http.post(
        "/api/gallery/dolly-crush",
        json={"name": "Three Dogs", "author": "Ann", "rules": {"dogs_per_player": 3}},
    )
    assert r.status_code == 201, r.text
    page = new_page(browser, PHONE)
    page.goto(srv.url + r.json()["url"])
    # each seat's breed and its dog cards under these rules (three a player)
    expect(page.locator(".dog-cards").nth(0)).to_have_text("dog cards: 1, 1, 1 swaps")
    expect(page.locator(".dog-cards").nth(1)).to_have_text("dog cards: 4, 4, 4 swaps")
    page.locator(".seat-row .kind").nth(1).select_option("human")
    page.click("#add-seat")
    page.locator(".seat-row .bot").select_option("medium")  # Dolly Crush's greedy bot, by its level
    page.select_option("#first", "1")
    no_horizontal_scroll(page)
    page.click("#try-btn")
    page.wait_for_url("**/t/*")
    table = srv.manager.get(page.url.rsplit("/", 1)[1])
    # Player 2 starts: the table's seats are players 2, 3 and 1
    assert [(s.kind, s.bot) for s in table.seats] == [
        ("human", None),
        ("bot", "medium"),
        ("human", None),
    ]
    assert table.game.rules.dogs_per_player == 3
    assert table.public_info()["house"]["slug"] == "three-dogs"
    expect(page.locator("#house-rules .house-name")).to_have_text("Three Dogs")
    assert not page.errors
