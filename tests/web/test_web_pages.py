"""The pages' papercuts and the lobby's fair Dolly Crush tables (issue 15, items 1 and 7).

Browser tests: Playwright driving Debian's Chromium against a live server on 127.0.0.1.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from test_web_browser import PHONE, last, new_page, sit

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
    expect(page.locator("#ruleset")).to_have_value("")  # the printed edition: the rulebook
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


# -- item 7: papercuts ---------------------------------------------------------------------------
def assert_in_viewport(page: Any, selector: str) -> None:
    """Every element ``selector`` finds lies inside the phone's screen, the page not scrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.eval_on_selector_all(
        selector,
        "els => els.map((e) => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })",
    )
    assert boxes, f"nothing matches {selector}"
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0, (selector, left, top)
        assert right <= PHONE["width"] and bottom <= PHONE["height"], (selector, right, bottom)


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")


@in_browser
def test_a_dolly_turn_fits_a_phone_and_errors_are_short_toasts(browser, live_server, shots):
    t = live_server.create(game="dolly-crush", seats=[{}, {}], seed=12)
    live_server.join(t["id"], "Leo", 1)  # the other player: never moves in this test
    page = new_page(browser, PHONE)
    sit(page, live_server.url + t["invite"], "Mia", 0)
    page.wait_for_selector(".dogcard")
    assert page.title().startswith("● Your turn — Dolly Crush")
    assert_in_viewport(page, "#flock")
    assert_in_viewport(page, ".dogcard")
    page.screenshot(path=str(shots / "phone-dolly-dogs.png"))
    page.click(".dogcard >> nth=0")  # the pastore: one swap
    page.click("[data-cell='a1']")
    page.click("[data-cell='a2']")
    for sel in ("#flock", "#confirm", "#undo", "#swaps-left"):
        assert_in_viewport(page, sel)
    page.screenshot(path=str(shots / "phone-dolly-done.png"))
    # an error is a toast of about 3 s (it was 6 s)
    page.click("[data-cell='b1']")  # no swaps left
    toast = page.locator("#error .error")
    expect(toast).to_contain_text("no swaps left")
    shown = time.monotonic()
    expect(page.locator("#error")).to_be_empty(timeout=8000)
    assert 2.5 <= time.monotonic() - shown <= 5.0
    # ... and a new position clears it at once
    page.click("[data-cell='b1']")
    expect(toast).to_contain_text("no swaps left")
    shown, seq = time.monotonic(), last(page)["seq"]
    page.click("#confirm")
    wait_seq(page, seq)
    expect(page.locator("#error")).to_be_empty(timeout=1000)
    assert time.monotonic() - shown < 2.5  # not the toast's own timer
    assert not page.title().startswith("●")  # Leo's turn now
    assert page.title() == "Dolly Crush — sheepfold"
    assert not page.errors


@in_browser
def test_a_tie_reads_as_a_tie(browser, live_server, ws_client, shots):
    t = live_server.create(game="dolly-crush", seats=[{}, {}], seed=4)
    state = ws_client(f"{live_server.ws_url}/ws/{t['id']}").last_state
    state["you"] = 0
    state["table"]["finished"] = True
    state["table"]["seats"][0]["name"], state["table"]["seats"][1]["name"] = "Mia", "Leo"
    state["view"].update(finished=True, winners=[0, 1], scores=[9, 9], to_move=None)
    page = new_page(browser)
    page.route_web_socket("**/ws/*", lambda ws: ws.send(json.dumps(state)))
    page.goto(live_server.url + t["invite"])
    banner = page.locator("#banner")
    expect(banner).to_have_text("A tie between Mia and Leo! Game over.")
    assert "won" not in banner.inner_text().lower()
    expect(page.locator(".player .pname").nth(0)).to_contain_text("★ tie")
    page.screenshot(path=str(shots / "tie.png"), full_page=True)
    assert not page.errors


def play_shave_to_the_end(page: Any, check_layout: bool = False) -> None:
    for _ in range(300):
        page.wait_for_selector("#roll, .act, .banner.over")
        if page.locator(".banner.over").count():
            return
        seq = last(page)["seq"]
        if page.locator("#roll").count():
            if check_layout:
                assert_in_viewport(page, "#roll")
            page.click("#roll")
        else:
            if check_layout:
                assert_in_viewport(page, "#die")
                assert_in_viewport(page, ".act")
            page.click(".act >> nth=0")
        wait_seq(page, seq)
    raise AssertionError("the game did not end")


@in_browser
def test_shave_fits_a_phone_and_play_again_keeps_settings_and_seats(browser, make_server, shots):
    srv = make_server(bot_delay=0.05)
    t = srv.create(
        game="shave-a-sheep",
        rules={"wool": 5},
        seats=[{}, {"kind": "bot", "bot": "greedy"}],
        auto_roll=False,
        seed=8,
    )
    page = new_page(browser, PHONE)
    sit(page, srv.url + t["invite"], "Ada")
    play_shave_to_the_end(page, check_layout=True)
    expect(page.locator("#again")).to_have_text("Play again")
    expect(page.locator("#to-lobby")).to_have_attribute("href", "/")
    assert_in_viewport(page, "#again")
    page.screenshot(path=str(shots / "phone-shave-end.png"))
    page.click("#again")
    page.wait_for_url(lambda u: t["id"] not in u)
    new_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")  # my seat again
    old, new = srv.manager.get(t["id"]), srv.manager.get(new_id)
    assert new.config == {**old.config, "again_of": old.id}  # and which table it follows
    assert new.game.rules == old.game.rules
    assert [(s.kind, s.bot, s.name) for s in new.seats] == [
        ("human", None, "Ada"),
        ("bot", "greedy", old.seats[1].name),
    ]
    # the old table points everyone to the same next table
    assert srv.http.get(f"/api/tables/{t['id']}").json()["next"] == new_id
    again = srv.http.post(f"/api/tables/{t['id']}/again")
    assert again.status_code == 200 and again.json()["id"] == new_id
    busy = srv.http.post(f"/api/tables/{new_id}/again")
    assert busy.status_code == 409
    # back to the lobby
    page.goto(srv.url + f"/t/{t['id']}")
    expect(page.locator("#again")).to_have_text("Join the next game")
    page.click("#to-lobby")
    page.wait_for_selector("#create-btn")
    assert not page.errors


def test_hidden_scores_send_nothing_that_gives_them_away(live_server, ws_client):
    t = live_server.create(game="dolly-crush", seats=[{}, {}], show_scores=False, seed=5)
    tokens = [live_server.join(t["id"], n, s)["token"] for s, n in enumerate(("Mia", "Leo"))]
    url = f"{live_server.ws_url}/ws/{t['id']}"
    mia, leo, watcher = ws_client(url, tokens[0]), ws_client(url, tokens[1]), ws_client(url)
    mia.send({"type": "turn", "dog": 0, "swaps": [["a1", "a2"]]})
    mia.wait_state(lambda m: m["view"]["to_move"] == 1 and m["seq"] > 0)
    leo.wait_state(lambda m: m["view"]["to_move"] == 1)
    watcher.wait_state(lambda m: m["view"]["to_move"] == 1)
    for c, seat in ((mia, 0), (leo, 1), (watcher, None)):
        v = c.last_state["view"]
        assert v["unseen"] is None
        assert [s is None for s in v["scores"]] == [i != seat for i in range(2)]
    shown = live_server.create(game="dolly-crush", seats=[{}, {}], seed=5)
    assert ws_client(f"{live_server.ws_url}/ws/{shown['id']}").last_state["view"]["unseen"]
