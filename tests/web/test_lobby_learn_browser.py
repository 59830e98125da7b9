"""Issue 51 in the browser: the lobby's "Learn to play" and "How to play" open the chosen game's
lesson and rules (they always opened Dolly Crush's: static/lobby.js), and "Your tables" names a
bot as a bot with its level, a free seat as free (it called every bot "a free seat":
server/profiles.py, static/yours.js).

Browser tests: Playwright driving Debian's Chromium against a live server on 127.0.0.1."""

from __future__ import annotations

import pytest
from test_profiles_api import SHORT_SHAVE, join_as
from test_profiles_browser import make_profile
from test_web_browser import PHONE, new_page

pytestmark = pytest.mark.browser


def test_the_lobby_links_to_the_chosen_games_lesson_and_rules(browser, live_server):
    page = new_page(browser, PHONE)
    page.goto(live_server.url)
    page.click("#game-choice button[data-game='shave-a-sheep']")
    assert page.get_attribute("#learn-link", "href") == "/learn/shave-a-sheep"
    assert page.get_attribute("#rules-link", "href") == "/rules/shave-a-sheep"
    page.click("#learn-link")
    page.wait_for_url("**/learn/shave-a-sheep")
    page.go_back()
    page.click("#game-choice button[data-game='dolly-crush']")
    assert page.get_attribute("#learn-link", "href") == "/learn/dolly-crush"
    assert not page.errors


def test_your_tables_name_a_bot_with_its_level_and_a_free_seat_as_free(browser, live_server):
    page = new_page(browser, PHONE)
    secret = make_profile(page, live_server.url, "Mia").split("#secret=")[1]
    t = live_server.create(
        **SHORT_SHAVE,
        own_pace=True,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Shaun"}, {}],
        seed=4,
    )
    join_as(live_server, t["id"], {"secret": secret}, 0)
    page.goto(live_server.url + "/your-tables")
    page.wait_for_selector("#yours li a.btn")
    assert "you, Shaun (bot: Greedy), a free seat" in page.inner_text("#yours")
    assert not page.errors
