"""Browser tests: Playwright driving Debian's Chromium against a live server on 127.0.0.1.

Screenshots go to tests/web/screenshots/ (git-ignored).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def new_page(browser: Any, viewport: dict[str, int] | None = None) -> Any:
    # reduced motion: views show at once (motion.js); the motion tests turn it off
    ctx = browser.new_context(
        viewport=viewport or {"width": 1000, "height": 900}, reduced_motion="reduce"
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # anything the Content-Security-Policy blocked (an inline style or script) is an error too
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.errors = errors  # type: ignore[attr-defined]
    return page


def sit(page: Any, url: str, name: str, seat: int | None = None) -> None:
    page.goto(url)
    page.wait_for_selector("#join-name")
    page.fill("#join-name", name)
    page.click(f".sit[data-seat='{seat}']" if seat is not None else ".sit")
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you !== null")


def last(page: Any) -> dict[str, Any]:
    return page.evaluate("window.SF_LAST")


def play_until_the_race(pages: list[Any]) -> None:
    """Roll and act at a Howling Wolf table, each page in its turn, until a gray face opens the
    race (every page has seen each move before the next)."""
    for _ in range(60):
        v = last(pages[0])["view"]
        if v["phase"] == "grab":
            return
        p = pages[v["turn"]]
        seq = last(p)["seq"]
        p.click("#roll" if v["phase"] == "roll" else ".act >> nth=0")
        for q in pages:
            q.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    raise AssertionError("no gray face came up")


NEIGHBOURS = [(f"{r}{c}", f"{r}{c + 1}") for r in "abc" for c in range(1, 5)] + [
    (f"{r}{c}", f"{s}{c}") for r, s in (("a", "b"), ("b", "c")) for c in range(1, 6)
]


def taking_swaps(state: Any, seat: int) -> list[tuple[str, str]]:
    """The swaps that, after the first dog card left (one swap), take sheep (the engine says)."""
    dog = state.observe(seat)["dogs_left"][seat][0]
    out = []
    for a, b in NEIGHBOURS:
        trial = state.clone()
        trial.apply(dog)
        trial.apply(trial.string_to_action(f"swap {a}-{b}"))
        if trial.current_player() != seat and trial.last_taken:
            out.append((a, b))
    return out


def test_two_browsers_play_dolly_crush_to_the_end(browser, live_server, shots):
    t = live_server.create(
        game="dolly-crush",
        seats=[{"kind": "human"}, {"kind": "human"}],
        breeds=["pastore-maremmano", "bobtail"],
        show_scores=False,
        seed=21,
    )
    url = live_server.url + t["invite"]
    pages = [new_page(browser, PHONE), new_page(browser)]
    sit(pages[0], url, "Mia", 0)
    sit(pages[1], url, "Leo", 1)
    rng = random.Random(5)
    table = live_server.manager.get(t["id"])
    lines_seen = 0
    for turn in range(8):
        seat = last(pages[0])["view"]["to_move"]
        assert seat == turn % 2
        p = pages[seat]
        other = pages[1 - seat]
        seq = last(p)["seq"]
        p.wait_for_selector(".dogcard")
        assert other.locator(".dogcard").count() == 0  # not your turn: no controls
        p.click(".dogcard >> nth=0")
        pairs = taking_swaps(table.state, seat)  # a swap that takes sheep, where there is one
        a, b = rng.choice(pairs or NEIGHBOURS)
        p.click(f"[data-cell='{a}']")
        p.click(f"[data-cell='{b}']")
        assert p.inner_text("#swaps-left") == "0"
        # the server's engine answers the preview: the dashed cards are the cells it sent
        p.wait_for_function(
            "() => document.querySelector('#preview').innerText.includes('With these swaps you take')"
        )
        text = p.inner_text("#preview")
        dashed = p.eval_on_selector_all(".cell.line", "els => els.map((e) => e.dataset.cell)")
        assert len(dashed) == (0 if "no sheep" in text else int(text.split("take ")[1].split()[0]))
        lines_seen += bool(dashed)
        if turn == 0:
            p.click("#undo")  # undo the swap before confirming: nothing was sent
            assert p.inner_text("#swaps-left") == "1"
            assert last(p)["seq"] == seq
            p.focus(f"[data-cell='{a}']")  # the keyboard works too
            p.keyboard.press("Enter")
            p.focus(f"[data-cell='{b}']")
            p.keyboard.press(" ")
            assert p.inner_text("#swaps-left") == "0"
            p.screenshot(path=str(shots / "dolly-phone-swap.png"), full_page=True)
        p.click("#confirm")
        for q in pages:
            q.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
        v = last(p)["view"]
        assert sorted(v["last_taken"]) == sorted(dashed)  # the turn took the dashed cards
        if turn == 0:
            p.screenshot(path=str(shots / "dolly-phone-after-turn.png"), full_page=True)
            # scores hidden: the other player's pile is face down and their score is not sent
            ov = last(other)["view"]
            assert ov["scores"][seat] is None and all(c is None for c in ov["collected"][seat])
        if v["finished"]:
            break
    assert lines_seen
    for q in pages:
        q.wait_for_selector("text=Game over")
    final = last(pages[1])["view"]
    assert final["finished"] and final["winners"] and None not in final["scores"]
    pages[1].screenshot(path=str(shots / "dolly-desktop-final.png"), full_page=True)
    # the finished game replays move by move
    pages[1].click("#replay-open")
    pages[1].wait_for_selector("#replay-range")
    pages[1].click("#replay-next")
    pages[1].click("#replay-next")
    assert pages[1].inner_text("#replay-pos") == "2"
    pages[1].screenshot(path=str(shots / "dolly-replay.png"), full_page=True)
    assert not pages[0].errors and not pages[1].errors


def test_shave_a_sheep_against_bots_in_the_browser(browser, make_server, shots):
    srv = make_server(bot_delay=0.05)
    t = srv.create(
        game="shave-a-sheep",
        rules={"wool": 7},
        seats=[
            {"kind": "human"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        seed=8,
    )
    page = new_page(browser, PHONE)
    sit(page, srv.url + t["invite"], "Ada")
    shot = False
    for _ in range(300):
        page.wait_for_selector("#roll, .act, .banner.over")
        if page.locator(".banner.over").count():
            break
        seq = last(page)["seq"]
        if page.locator("#roll").count():
            page.click("#roll")
        else:
            if not shot:
                page.screenshot(path=str(shots / "shave-phone-choose.png"), full_page=True)
                shot = True
            page.click(".act >> nth=0")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    else:
        raise AssertionError("the game did not end")
    v = last(page)["view"]
    assert v["finished"] and v["middle"] == 0 and sum(v["piles"]) == 7
    page.screenshot(path=str(shots / "shave-phone-final.png"), full_page=True)
    assert not page.errors


def test_howling_wolf_clicks_within_a_reaction_time_are_a_draw(browser, make_server, shots):
    """Two clicks a moment apart are a draw (Shave a Sheep ruling 8's note): one of the two
    wins, the pages say who, and neither click was refused."""
    srv = make_server(bot_delay=0.05, race_timeout=30.0)
    t = srv.create(
        game="shave-a-sheep",
        ruleset="howling-wolf",
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=3,
    )
    url = srv.url + t["invite"]
    pages = [new_page(browser), new_page(browser, PHONE)]
    sit(pages[0], url, "Ann", 0)
    sit(pages[1], url, "Ben", 1)
    play_until_the_race(pages)
    roller = last(pages[0])["view"]["turn"]
    first, second = 1 - roller, roller  # the one who did not roll is quicker this time
    for q in pages:
        q.wait_for_selector("#howl")
    pages[first].screenshot(path=str(shots / "howl-race.png"), full_page=True)
    seq = last(pages[0])["seq"]
    click = "(() => { const b = document.getElementById('howl'); if (!b) return false; b.click(); return true; })()"
    pages[first].click("#howl")
    assert pages[second].evaluate(click)  # right behind: within a person's reaction time
    for q in pages:
        q.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    v = last(pages[second])["view"]
    won = v["grabber"]
    assert won in (0, 1) and v["phase"] == "howl-target"
    names = {0: "Ann", 1: "Ben"}
    pages[1 - won].wait_for_selector(f"#banner >> text={names[won]} grabbed the wolf first!")
    pages[won].wait_for_selector("#banner >> text=You won the race: you grabbed the wolf!")
    assert any("won the draw" in e["text"] for e in last(pages[won])["events"])
    for q in pages:
        assert q.locator("text=too late").count() == 0
    pages[won].wait_for_selector("text=Whose sheep does it bite?")
    pages[won].screenshot(path=str(shots / "howl-won.png"), full_page=True)
    pages[won].click(".act >> nth=0")
    pages[roller].wait_for_selector("text=Add one piece of wool")
    assert not pages[0].errors and not pages[1].errors


def test_a_turn_started_elsewhere_is_finished_in_the_page(browser, live_server, ws_client, shots):
    t = live_server.create(
        game="dolly-crush",
        seats=[{}, {"kind": "bot"}],
        breeds=["australian-shepherd", "bobtail"],
        seed=30,
    )
    me = live_server.join(t["id"], "Ivy")
    page = new_page(browser, PHONE)
    page.goto(live_server.url + t["invite"])
    page.evaluate(f"localStorage.setItem('sheepfold:token:{t['id']}', '{me['token']}')")
    page.reload()
    page.wait_for_selector(".dogcard")
    other = ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])  # the same seat, elsewhere
    other.send({"type": "act", "action": "dog 0"})  # 4 swaps, to be made one by one now
    page.wait_for_selector("text=Finish your turn: 4 swaps left")
    for a, b in (("a1", "a2"), ("a2", "a3"), ("b1", "b2"), ("b2", "b3")):
        seq = last(page)["seq"]
        page.click(f"[data-cell='{a}']")
        page.click(f"[data-cell='{b}']")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    v = last(page)["view"]
    assert v["dogs_left"][0] == [1, 2, 3] and not (v["turn"] == 0 and v["phase"] == "swap")
    assert not page.errors


def test_an_unknown_table_says_so(browser, live_server):
    page = new_page(browser)
    page.goto(live_server.url + "/t/nope")
    page.wait_for_selector("text=does not exist")
    assert not page.errors


def test_a_seat_link_opens_the_seat_on_another_device(browser, live_server, shots):
    t = live_server.create(game="dolly-crush", seats=[{}, {"kind": "bot", "bot": "greedy"}])
    first = new_page(browser)
    sit(first, f"{live_server.url}/t/{t['id']}", "Ann")
    first.context.grant_permissions(["clipboard-read", "clipboard-write"])
    first.click("#copy-seat")
    link = first.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{live_server.url}/t/{t['id']}#seat=")
    phone = new_page(browser, PHONE)  # another device: nothing in its storage
    phone.goto(link)
    phone.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")
    assert "#" not in phone.url  # the token left the address bar
    phone.screenshot(path=str(shots / "seat_link.png"))
    assert not first.errors and not phone.errors
