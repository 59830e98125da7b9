"""Play over days in the browser (server/clock.py, static/clock.js, static/notices.js): two
people at a clocked table, one on a laptop and one on a phone; each sees whose clock runs and
how long it has; one leaves and runs out of time, and the other sees "away since"; the phone's
profile page keeps the e-mail settings and vacation. The clock is moved by hand (its "now"),
and its check called directly: nothing waits for it."""

from __future__ import annotations

from typing import Any

import pytest
from test_axe_pages import LAPTOP, serious
from test_profiles_api import make_profile
from test_turn_clock import CLOCKED, HOUR, sweep
from test_turn_notice_browser import play_turn
from test_web_browser import PHONE, new_page, sit

pytestmark = pytest.mark.browser


def fits(page: Any) -> bool:
    """Nothing sticks out sideways once the page settled (the page's width is the screen's)."""
    page.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth")
    return True


def test_the_clock_and_away_since_on_two_screens(browser, make_server, shots):
    from playwright.sync_api import expect

    srv = make_server(clock_tick=0)
    t = srv.create(**{**CLOCKED, "out_of_time": "skip"})
    url = srv.url + t["invite"]
    ann, ben = new_page(browser, LAPTOP), new_page(browser, PHONE)
    sit(ann, url, "Ann", 0)
    sit(ben, url, "Ben", 1)
    t0 = 1_800_000_000.0
    sweep(srv, t0)  # Ann's turn: her clock starts
    expect(ann.locator("#clock-line")).to_have_text("1 hour left for your move")
    expect(ben.locator("#clock-line")).to_have_text("Ann: 1 hour left to move")
    sweep(srv, t0 + HOUR / 4)  # a quarter of it gone (the pages are told at the next state)
    play_turn(ann, 0)  # Ben's turn: his own hour
    expect(ann.locator("#clock-line")).to_have_text("Ben: 1 hour left to move")
    expect(ben.locator("#clock-line")).to_have_text("1 hour left for your move")
    assert fits(ben) and not ben.errors and not ann.errors  # type: ignore[attr-defined]
    ben.screenshot(path=str(shots / "turn-clock-phone.png"))

    ben.context.close()  # Ben goes away and his hour runs out: a random move is his turn
    assert sweep(srv, t0 + 2 * HOUR) == 1
    expect(ann.locator(".player[data-seat='1'] .tag")).to_have_text("away")
    play_turn(ann, 0)
    expect(ann.locator("#banner")).to_contain_text("Ben is away since")
    assert serious(ann) == [] and not ann.errors  # type: ignore[attr-defined]
    ann.screenshot(path=str(shots / "turn-clock-away-laptop.png"))

    # the phone's profile page: e-mail notices and vacation (this server sends no mail)
    leo = make_profile(srv.http, "Leo")
    phone = new_page(browser, PHONE)
    phone.goto(f"{srv.url}/profile#secret={leo['secret']}")
    expect(phone.locator("#notices")).to_be_visible()
    phone.fill("#notice-email", "not an address")
    phone.click("#notice-save")
    expect(phone.locator("#notice-said")).to_contain_text("is not an e-mail address")
    phone.fill("#notice-email", "leo@example.org")
    phone.check("#notice-turn")
    phone.check("#notice-vacation")
    phone.click("#notice-save")
    expect(phone.locator("#notice-said")).to_have_text("Saved, but this server sends no e-mail.")
    expect(phone.locator("#notice-confirmed")).to_contain_text("not confirmed yet")
    phone.reload()
    expect(phone.locator("#notice-vacation")).to_be_checked()
    assert fits(phone) and serious(phone) == [] and not phone.errors  # type: ignore[attr-defined]
    phone.locator("#notices").screenshot(path=str(shots / "notices-phone.png"))
