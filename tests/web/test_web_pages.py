"""The pages' papercuts and the lobby's fair Dolly Crush tables (issue 15, items 1 and 7).

Browser tests: Playwright driving Debian's Chromium against a live server on 127.0.0.1.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import new_page

in_browser = pytest.mark.browser


def expect(x: Any) -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect(x)


def open_lobby(browser: Any, url: str) -> Any:
    page = new_page(browser)
    page.goto(url)
    expect(page.locator("#rules-state")).to_have_text("✓ these rules can be played")
    return page


# -- item 1: fair Dolly Crush tables by default -------------------------------------------------
@in_browser
def test_the_lobbys_dolly_table_gives_every_seat_equal_dog_cards(browser, live_server, shots):
    page = open_lobby(browser, live_server.url)
    expect(page.locator("#ruleset")).to_have_value("dolly-graded")
    cards = page.locator(".dog-cards")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_have_text("dog cards: 1, 2, 3, 4 swaps")
    expect(cards.nth(1)).to_have_text("dog cards: 1, 2, 3, 4 swaps")
    expect(page.locator("#fairness")).to_contain_text("Every player's dog cards are equal")
    assert page.locator("#fairness .warning").count() == 0
    page.screenshot(path=str(shots / "lobby-fair.png"), full_page=True)
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    assert table.game.dog_swaps[0] == table.game.dog_swaps[1] == (1, 2, 3, 4)
    assert len(set(table.game.breeds)) == 2
    assert not page.errors


@in_browser
def test_the_breed_is_a_choice_per_seat_and_the_rulebook_warns(browser, live_server, shots):
    page = open_lobby(browser, live_server.url)
    breed = page.locator(".seat-row .breed")
    expect(breed.nth(0)).to_have_value("pastore-maremmano")
    expect(breed.nth(1)).to_have_value("australian-shepherd")
    breed.nth(0).select_option("australian-shepherd")  # the seats swap breeds
    expect(breed.nth(1)).to_have_value("pastore-maremmano")
    # the printed edition is one click away, and says that it decides the game
    page.click("#use-rulebook")
    expect(page.locator("#ruleset")).to_have_value("dolly-rulebook")
    warning = page.locator("#fairness .warning")
    expect(warning).to_contain_text(
        "The printed edition gives the Australian Shepherd 4 swaps a card against 1"
    )
    expect(warning).to_contain_text("Player 1 (Australian Shepherd): 4, 4, 4, 4")
    expect(page.locator(".dog-cards").nth(1)).to_have_text("dog cards: 1, 1, 1, 1 swaps")
    page.screenshot(path=str(shots / "lobby-rulebook-warning.png"), full_page=True)
    # Player 2 starts: each seat keeps the breed chosen for it
    page.select_option("#first", "1")
    expect(page.locator("#rules-state")).to_have_text("✓ these rules can be played")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    assert table.game.breeds == ("pastore-maremmano", "australian-shepherd")
    assert [s.kind for s in table.seats] == ["bot", "human"]
    # back to equal cards with one click
    page = open_lobby(browser, live_server.url)
    page.select_option("#ruleset", "")
    page.click("#use-equal")
    expect(page.locator("#ruleset")).to_have_value("dolly-graded")
    assert page.locator("#fairness .warning").count() == 0
    assert not page.errors


def test_breeds_follow_their_seats_when_another_seat_starts(live_server):
    t = live_server.create(
        game="dolly-crush",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        breeds=["bobtail", "border-collie"],
        first_player=1,
    )
    table = live_server.manager.get(t["id"])
    assert [s.kind for s in table.seats] == ["bot", "human"]
    assert table.game.breeds == ("border-collie", "bobtail")
    bad = live_server.http.post(
        "/api/tables", json={"game": "dolly-crush", "seats": [{}, {}], "breeds": ["bobtail"]}
    )
    assert bad.status_code == 400 and "breeds" in bad.json()["detail"]
