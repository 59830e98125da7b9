"""A turn fits the screen (issue 29): at 1280x800 everything a turn needs (the banner, the flock or
the die, the turn's buttons, every player's panel) is inside the viewport without scrolling, in
both games, with 2 and 4 players; on a phone (390x844) nothing scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_i18n_browser import TRANSLATED
from test_web_browser import new_page

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: the boxes of what a turn needs, and the page's scroll sizes
MEASURE = """(sel) => {
  const boxes = {};
  for (const s of sel) document.querySelectorAll(s).forEach((el, i) => {
    const r = el.getBoundingClientRect();
    boxes[s + "#" + i] = [r.left, r.top, r.right, r.bottom];
  });
  return { boxes, scrollY: window.scrollY, scrollWidth: document.documentElement.scrollWidth,
           width: window.innerWidth, height: window.innerHeight };
}"""

#: the cards' words that do not fit their card (the ellipsis shows instead of their end)
CUT_WORDS = """() => [...document.querySelectorAll('.cell .word')]
  .filter((w) => w.scrollWidth > w.clientWidth).map((w) => w.textContent)"""

NEEDED = ["#banner", "#board", "#controls button", "#players .player"]


def my_table(srv: Any, game: str, players: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table where seat 0 (a person, "Mia") plays first against bots."""
    seats = [{}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    t = srv.create(game=game, seats=seats, first_player=0, seed=3)
    return t, srv.join(t["id"], "Mia", 0)


def open_seat(
    browser: Any, srv: Any, t: dict[str, Any], me: dict[str, Any], size: Any, lang: str = "en"
) -> Any:
    page = new_page(browser, size)
    page.add_init_script(f"localStorage.setItem('sheepfold:token:{t['id']}', {me['token']!r})")
    page.goto(srv.url + t["invite"] + ("&" if "?" in t["invite"] else "?") + f"lang={lang}")
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 0")
    return page


def outside(m: dict[str, Any]) -> list[str]:
    w, h = m["width"], m["height"]
    return [k for k, (x0, y0, x1, y1) in m["boxes"].items() if x0 < 0 or y0 < 0 or x1 > w or y1 > h]


def turn_states(page: Any, game: str) -> Iterator[tuple[str, list[str]]]:
    """Each step of my turn and what it needs on screen, measured after it: the turn's start,
    then its next step (a dog card picked: the flock and Done; the die rolled: the die and the
    choices, none when the face plays itself)."""
    if game == "dolly-crush":
        page.wait_for_selector("#controls .dogcard")
        yield "a dog card to pick", [*NEEDED, "#flock", "#controls .dogcard"]
        page.locator("#controls .dogcard").last.click()
        page.wait_for_selector("#confirm")
        yield "swaps to make", [*NEEDED, "#flock", "#undo", "#confirm"]
    else:
        page.wait_for_selector("#roll")
        yield "the die to roll", [*NEEDED, "#middle", "#roll"]
        page.click("#roll")
        page.wait_for_selector("#die")
        page.wait_for_function("() => window.SF_LAST.view.phase !== 'roll'")
        needed = [*NEEDED, "#middle", "#die"]
        choices = page.locator("#controls button").count()
        yield "what to do", needed if choices else [s for s in needed if "#controls" not in s]


#: the players at the table, and the page's language (every other language's words are the
#: longer: each one at a full table)
SEATINGS = [(2, "en"), *((4, lang) for lang in TRANSLATED)]


@pytest.mark.parametrize(("players", "lang"), SEATINGS)
@pytest.mark.parametrize("game", ["dolly-crush", "shave-a-sheep"])
def test_a_turn_fits_a_laptop_without_scrolling(browser, live_server, shots, game, players, lang):
    t, me = my_table(live_server, game, players)
    page = open_seat(browser, live_server, t, me, LAPTOP, lang)
    for n, (what, needed) in enumerate(turn_states(page, game)):
        page.screenshot(path=str(shots / f"fit-laptop-{game}-{players}-{lang}-{n}.png"))
        m = page.evaluate(MEASURE, needed)
        assert m["scrollY"] == 0
        for sel in needed:
            assert any(k.startswith(sel + "#") for k in m["boxes"]), f"{sel} is missing ({what})"
        assert outside(m) == [], f"below the fold at 1280x800 ({game}, {players} players, {what})"
        assert m["scrollWidth"] <= m["width"]
    assert not page.errors


@pytest.mark.parametrize(("players", "lang"), SEATINGS)
@pytest.mark.parametrize("game", ["dolly-crush", "shave-a-sheep"])
def test_nothing_scrolls_sideways_on_a_phone(browser, live_server, shots, game, players, lang):
    t, me = my_table(live_server, game, players)
    page = open_seat(browser, live_server, t, me, PHONE, lang)
    for _what, needed in turn_states(page, game):
        m = page.evaluate(MEASURE, needed)
        assert m["scrollWidth"] <= m["width"], f"the page scrolls sideways ({game}, {players})"
        wide = [k for k, (x0, _, x1, _) in m["boxes"].items() if x0 < 0 or x1 > m["width"]]
        assert wide == []
        cut = page.evaluate(CUT_WORDS)
        assert cut == [], f"words cut short on the cards ({game}, {lang})"
    page.screenshot(path=str(shots / f"fit-phone-{game}-{players}-{lang}.png"), full_page=True)
    assert not page.errors
