"""The end screen (issue 51): when a game ends, each player's page shows at the top, without
scrolling, why it ended, the results (place, name, points, the rating before and after) and the
moments that decided it, and "Play again"; on a phone (390x844) and on a laptop (1280x800),
axe clean (static/results.js); "Play again" seats each person where the new draw turned
their seat."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_axe_pages import LAPTOP, serious
from test_profiles_api import SHORT_SHAVE, join_as, make_profile, play_to_the_end
from test_web_browser import PHONE, new_page

pytestmark = pytest.mark.browser

TOP = ("#ended", "#results .results-table", "#results .moments", "#again")


def assert_seen_without_scrolling(page: Any, size: dict[str, int]) -> None:
    """Every part of the end screen lies inside the screen, the page not scrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    for selector in TOP:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= size["width"], (selector, box)
        assert box["y"] + box["height"] <= size["height"], (selector, box)


def test_each_player_sees_the_results_at_the_top(browser, live_server, ws_client, shots):
    srv = live_server
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    t = srv.create(**SHORT_SHAVE, seats=[{"kind": "human"}] * 2, seed=3, first_player="random")
    seats = {0: join_as(srv, t["id"], mia, 0), 1: join_as(srv, t["id"], leo, 1)}
    sizes = {0: PHONE, 1: LAPTOP}
    pages = {}
    for seat, joined in seats.items():  # each on a device of their own, by their seat link
        pages[seat] = new_page(browser, sizes[seat])
        pages[seat].goto(srv.url + joined["seat_link"])
        pages[seat].wait_for_function(f"() => window.SF_LAST && window.SF_LAST.you === {seat}")
    clients = {s: ws_client(f"{srv.ws_url}/ws/{t['id']}", j["token"]) for s, j in seats.items()}
    final = play_to_the_end(clients, random.Random(4))
    names = {0: "Mia", 1: "Leo"}
    for seat, page in pages.items():
        page.wait_for_selector("#results .results-table")
        rows = page.locator("#results tbody tr")
        assert rows.count() == 2
        me = page.locator("#results tr.me th")
        assert me.inner_text() == f"{names[seat]} (you)"
        table = page.inner_text("#results .results-table")
        for s in (0, 1):
            assert str(int(final["scores"][s])) in table
        assert table.count("→") == 2  # a rated game: each person's rating before → after
        assert page.locator("#results .moments li").count() >= 1
        assert page.inner_text("#ended")  # why it ended
        assert_seen_without_scrolling(page, sizes[seat])
        page.screenshot(path=str(shots / f"end-screen-{'phone' if seat == 0 else 'laptop'}.png"))
        # what each took, folded: opened, it reads as words
        page.click("#results details.took summary")
        assert "in the safe pile" in page.inner_text("#results details.took")
        assert serious(page) == []
        assert not page.errors
    # "Play again": who starts is drawn again; Mia sits at her seat there, wherever it turned
    mia_page = pages[0]
    mia_page.click("#again")
    mia_page.wait_for_url(lambda u: t["id"] not in u)
    new = srv.http.get(f"/api/tables/{mia_page.url.rsplit('/', 1)[1]}").json()
    assert new["first"]["how"] == "random"
    mine = (0 - new["first"]["turned"]) % 2
    mia_page.wait_for_function(f"() => window.SF_LAST && window.SF_LAST.you === {mine}")
    assert [s["name"] for s in new["seats"]][mine] == "Mia"
    starter = "Mia" if mine == 0 else "Seat 1"  # Leo has not come back yet
    assert mia_page.inner_text("#starts") == f"{starter} starts (drawn at random)"
    assert not mia_page.errors
