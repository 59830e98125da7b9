"""Two people with profiles play a game at their own pace in two browsers, across a server
restart (on the same address: the browsers keep what they stored), one of them moving to
another device with the transfer link; then their histories, ratings and the leaderboard.

Screenshots go to tests/web/screenshots/ (git-ignored)."""

from __future__ import annotations

import socket
import sqlite3
import threading
from typing import Any

import pytest
from test_axe_pages import check
from test_web_browser import PHONE, last, new_page

from polling import wait_until

pytestmark = pytest.mark.browser


class SamePortServer:
    """A server on a listening socket the test keeps: a later server on the same socket is the
    same address (the browsers' stored profiles and seats belong to an address)."""

    def __init__(self, db: str, sock: socket.socket) -> None:
        import httpx
        import uvicorn

        from sheepfold.server.app import create_app
        from sheepfold.server.connections import ConnectionLimits, uvicorn_config
        from sheepfold.server.tables import Settings

        self.app = create_app(db, Settings(bot_delay=0.0, allow_seed=True))
        config = uvicorn_config(self.app, "127.0.0.1", 0, ConnectionLimits())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock.dup()]}, daemon=True
        )
        self.thread.start()
        wait_until(
            lambda: self.server.started or not self.thread.is_alive(), what="the server to start"
        )
        assert self.server.started
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.http = httpx.Client(base_url=self.url, timeout=10)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive()


@pytest.fixture
def listening() -> Any:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    yield sock
    sock.close()


def make_profile(page: Any, url: str, name: str) -> str:
    """Make a profile on the page's device by typing a name: its transfer link."""
    page.goto(url + "/profile")
    page.wait_for_selector("#make-name")
    page.fill("#make-name", name)
    page.click("#make-btn")
    page.wait_for_selector("#me:not([hidden])")
    assert page.inner_text("#me-name") == name
    link = page.input_value("#transfer")
    assert link.startswith(url + "/profile#secret=")
    return link


def sit_with_profile(page: Any, url: str, name: str, seat: int) -> None:
    page.goto(url)
    page.wait_for_selector("#join-name")
    assert page.input_value("#join-name") == name  # the profile's name, filled in
    page.click(f".sit[data-seat='{seat}']")
    page.wait_for_function(f"() => window.SF_LAST && window.SF_LAST.you === {seat}")


def play(pages: dict[int, Any], moves: int | None = None) -> None:
    """The seat to move clicks its first choice, ``moves`` times or to the end."""
    done = 0
    while moves is None or done < moves:
        view = last(pages[0])["view"]
        if view["finished"]:
            return
        p = pages[view["to_move"]]
        seq = last(p)["seq"]
        p.wait_for_function(f"() => window.SF_LAST.seq >= {last(pages[0])['seq']}")
        p.wait_for_selector(".act")
        p.click(".act >> nth=0")
        for q in pages.values():
            q.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
        done += 1
        assert done < 500, "the game did not end"


def test_two_profiles_play_over_days_and_see_history_rating_and_leaderboard(
    browser, listening, tmp_path, shots
):
    db = str(tmp_path / "days.db")
    srv = SamePortServer(db, listening)
    mia = new_page(browser)
    leo = new_page(browser, PHONE)
    make_profile(mia, srv.url, "Mia")
    leo_link = make_profile(leo, srv.url, "Leo")
    mia.screenshot(path=str(shots / "profile-new.png"), full_page=True)
    t = srv.http.post(
        "/api/tables",
        json={
            "game": "shave-a-sheep",
            "rules": {"wool": 6},
            "auto_roll": True,
            "own_pace": True,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 9,  # Leo wins (when each plays the first choice offered)
        },
    ).json()
    table_url = srv.url + t["invite"]
    sit_with_profile(mia, table_url, "Mia", 0)
    sit_with_profile(leo, table_url, "Leo", 1)
    play({0: mia, 1: leo}, moves=3)
    before = last(mia)["seq"]
    to_move = last(mia)["view"]["to_move"]
    srv.stop()
    # both browsers are at 127.0.0.1: Leo's seat as if taken from his own address (a rated game
    # asks for people from two addresses, server/ratings.py)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sf_seats SET client = '10.0.0.2' WHERE seat = 1")

    # days later: the server was restarted; Leo opens the game on another device
    srv = SamePortServer(db, listening)
    leo.context.close()
    leo = new_page(browser, PHONE)
    leo.goto(leo_link)
    leo.wait_for_selector("#me:not([hidden])")
    assert "#secret=" not in leo.url  # the secret left the address at once
    leo.goto(srv.url + "/your-tables")
    leo.wait_for_selector("#yours li a.btn")
    row = leo.locator("#yours li").first
    assert ("Your turn" in row.inner_text()) == (to_move == 1)
    if to_move == 1:
        assert leo.title().startswith("(1) ")
    leo.screenshot(path=str(shots / "your-tables-phone.png"), full_page=True)
    row.locator("a.btn").click()
    leo.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 1")  # the profile's seat
    mia.goto(table_url)
    mia.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")
    assert last(mia)["seq"] == before  # nothing lost, nobody played for them
    assert not any(s["stand_in"] for s in last(mia)["table"]["seats"])
    play({0: mia, 1: leo})
    final = last(mia)["view"]
    assert final["finished"] and final["winners"] == [1]

    # the history and rating of each, and the leaderboard
    mia.goto(srv.url + "/profile")
    mia.wait_for_selector("#history li.game")
    entry = mia.inner_text("#history li.game")
    assert "Shave a Sheep" in entry and "Mia" in entry and "Leo" in entry
    assert "Shave a Sheep: 2nd of 2" in entry and "Replay" in entry
    assert "rating 1000 → 9" in entry  # Mia lost to Leo: below where everyone starts (1000)
    assert "Shave a Sheep" in mia.inner_text("#ratings")
    assert "new player" in mia.inner_text("#ratings")  # its level in words (issue 51)
    assert mia.inner_text("#reliability") == "finished 1 of 1 game (100%)"
    mia.screenshot(path=str(shots / "profile-history.png"), full_page=True)
    mia.goto(srv.url + "/leaderboard")  # the first game's: Dolly Crush, nobody rated
    mia.wait_for_selector("#empty:not([hidden])")
    assert mia.inner_text("#title") == "Dolly Crush leaderboard"
    mia.click("#game-tabs >> text=Shave a Sheep")
    mia.wait_for_selector("#rows tr")
    rows = [tr.locator("td").all_inner_texts() for tr in mia.locator("#rows tr").all()]
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("1", "Leo\nnew player", "1"),  # the player, and their level in words (issue 51)
        ("2", "Mia\nnew player", "1"),
    ]
    assert int(rows[0][2]) > 1000 > int(rows[1][2]) > 0
    mia.screenshot(path=str(shots / "leaderboard.png"), full_page=True)
    # the ratings' pages (issue 51: levels, reliability), axe clean on a laptop and a phone
    found: dict[str, list[str]] = {}
    check(mia, "the leaderboard, laptop", found)
    leo.goto(srv.url + "/leaderboard/shave-a-sheep")
    leo.wait_for_selector("#rows tr")
    check(leo, "the leaderboard, phone", found)
    fits = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    assert leo.evaluate(fits), "the leaderboard is wider than a phone"
    leo.screenshot(path=str(shots / "leaderboard-phone.png"), full_page=True)
    leo.goto(srv.url + "/profile")
    leo.wait_for_selector("#history li.game")
    assert "new player" in leo.inner_text("#ratings")
    assert leo.inner_text("#reliability") == "finished 1 of 1 game (100%)"
    check(leo, "Leo's profile, phone", found)
    assert leo.evaluate(fits), "the profile is wider than a phone"
    assert not found, "\n".join(f"{page}: {p}" for page, ps in found.items() for p in ps)
    mia.click("#rows a >> nth=0")  # Leo's public page
    mia.wait_for_selector("#history li.game")
    assert "Shave a Sheep: won" in mia.inner_text("#history li.game")
    assert mia.inner_text("#title") == "Leo"
    assert mia.locator("#me").is_hidden() and mia.locator("#transfer").is_hidden()
    leo.goto(srv.url + "/your-tables")
    leo.wait_for_selector("#yours li")
    assert "No open table" in leo.inner_text("#yours")
    # the lobby: the profile's name in its link; an own-pace table opened by clicking
    mia.goto(srv.url + "/")
    mia.wait_for_selector("#create-btn")
    assert mia.inner_text("#profile-link") == "Mia"
    mia.check("#own-pace")
    assert mia.is_disabled("#replace") and not mia.is_checked("#replace")
    mia.click("#create-btn")
    mia.wait_for_url("**/t/*")
    opened = srv.http.get("/api/tables/" + mia.url.rsplit("/", 1)[1]).json()
    assert opened["own_pace"] is True and opened["replace_leavers"] is False
    assert not mia.errors and not leo.errors
    srv.stop()
