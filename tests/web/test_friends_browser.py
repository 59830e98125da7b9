"""Friends in two browsers (a laptop and a phone): Ann adds Ben from his public page, Ben adds
her back from his profile page; at a table for friends only Ann saves a seat for Ben, who
accepts it from "Your tables" and sits; the lobby opens a table for friends. Axe finds no
serious problem on the pages with the friends' parts.

Screenshots go to tests/web/screenshots/ (git-ignored)."""

from __future__ import annotations

import pytest
from test_axe_pages import serious
from test_profiles_browser import make_profile
from test_web_browser import PHONE, last, new_page

from sheepfold.server.profiles import HEADER

pytestmark = pytest.mark.browser

#: where the rightmost thing of the page's friends' parts ends (px)
FRIENDS_RIGHT = (
    "() => Math.max(...[...document.querySelectorAll('.friends, .friends *')]"
    ".map((e) => e.getBoundingClientRect().right))"
)


def secret_of(link: str) -> str:
    return link.split("#secret=", 1)[1]


def test_friends_save_a_seat_for_each_other_at_a_table_for_friends(browser, live_server, shots):
    url = live_server.url
    ann, ben = new_page(browser), new_page(browser, PHONE)
    ann_secret = secret_of(make_profile(ann, url, "Ann"))
    ben_secret = secret_of(make_profile(ben, url, "Ben"))
    ben_id = live_server.http.get("/api/profiles/me", headers={HEADER: ben_secret}).json()["id"]

    # someone without a profile on Ben's public page is told how to add a friend
    stranger = new_page(browser, PHONE)
    stranger.goto(f"{url}/players/{ben_id}")
    stranger.wait_for_selector("#friend-box >> text=To add a friend, make your profile first.")
    assert serious(stranger) == []
    stranger.context.close()

    # Ann adds Ben from his public page; Ben adds her back from his profile page
    ann.goto(f"{url}/players/{ben_id}")
    ann.click("#friend-box button >> text=Add as friend")
    ann.wait_for_selector("#friend-box >> text=Waiting for them to add you back")
    ben.goto(url + "/profile")
    ben.wait_for_selector("#friends-box >> text=Friend requests")
    ben.click("#friends-box li:has-text('Ann') >> text=Add as friend")
    ben.wait_for_selector("#friends-box >> text=Your friends")
    assert "Ann" in ben.inner_text("#friends-box")
    assert serious(ben) == []
    ben.screenshot(path=str(shots / "friends-profile-phone.png"), full_page=True)
    assert ben.evaluate(FRIENDS_RIGHT) <= PHONE["width"]  # the friends' part fits the phone

    # a table for Ann's friends: Ann sits and saves seat 2 for Ben
    r = live_server.http.post(
        "/api/tables",
        json={
            "game": "shave-a-sheep",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "who_may_sit": "friends",
        },
        headers={HEADER: ann_secret},
    )
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    ann.goto(f"{url}/t/{table}")
    ann.click(".sit[data-seat='0']")
    ann.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")
    ann.click("#save-seat summary")
    ann.select_option("#save-seat-n", "1")
    ann.select_option("#save-seat-friend", label="Ben")
    ann.click("#save-seat >> text=Save the seat")
    ann.wait_for_selector("#save-seat >> text=Seat 2 is saved for Ben")
    ann.wait_for_selector("#players >> text=saved for Ben")
    assert serious(ann) == []
    ann.screenshot(path=str(shots / "friends-seat-saved.png"), full_page=True)

    # Ben sees the invitation in "Your tables", accepts it, and plays seat 2
    ben.goto(url + "/your-tables")
    ben.wait_for_selector("#invitations-box >> text=Ann saved seat 2 for you at Shave a Sheep")
    assert serious(ben) == []
    assert ben.evaluate(FRIENDS_RIGHT) <= PHONE["width"]
    ben.click("#invitations-box >> text=Accept")
    ben.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 1")
    ann.wait_for_function("() => window.SF_LAST.table.seats[1].name === 'Ben'")
    assert last(ben)["table"]["seats"][1]["held_for"] is None
    # nothing is wider than the phone
    # the lobby opens a table for friends (with Ann's profile), listed to Ben among his
    # friends' tables, not in the lobby's list
    ann.goto(url + "/")
    ann.wait_for_selector("#create-btn")
    ann.select_option("#who-may-sit", "friends")
    ann.click("#create-btn")
    ann.wait_for_url("**/t/*")
    opened = ann.url.rsplit("/", 1)[1]
    assert live_server.http.get(f"/api/tables/{opened}").json()["friends_only"] is True
    ann.click(".sit >> nth=0")
    ann.wait_for_function("() => window.SF_LAST && window.SF_LAST.you !== null")
    ben.goto(url + "/")
    ben.wait_for_selector(f"#friends-tables a[href='/t/{opened}']")
    assert ben.locator(f"#tables a[href='/t/{opened}']").count() == 0
    assert serious(ben) == []
    assert not ann.errors and not ben.errors
