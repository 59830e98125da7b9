"""The Italian lobby and table in a real browser (issue 29, "Languages"): the language from
``?lang=it`` (then remembered), from the browser's language, or from the switch; ``<html
lang>`` set; a game of each game played a few moves with no English text of ours left.

The scan: every text of the page (each element's own text, and its ``title``, ``aria-label``,
``placeholder`` and ``alt``) is compared with the catalog's English texts that Italian says
otherwise (a template's ``{name}`` stands for anything): one that is still English fails.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import NEIGHBOURS, new_page, sit

from sheepfold.server import i18n

pytestmark = pytest.mark.browser

#: every text the page shows, piece by piece: each element's own text nodes (spaces collapsed)
#: and its word attributes, for the visible elements
TEXTS = """() => {
  const out = [document.title];
  const shown = (el) => (el.tagName === "OPTION" ? el.closest("select") || el : el).checkVisibility({ visibilityProperty: true });
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.tagName === "SCRIPT") continue;
    for (const n of el.childNodes) {
      const s = n.nodeType === 3 ? n.textContent.replace(/\\s+/g, " ").trim() : "";
      if (s) out.push(s);
    }
    for (const a of ["title", "aria-label", "placeholder", "alt"]) if (el.hasAttribute(a)) out.push(el.getAttribute(a).trim());
  }
  return out;
}"""


#: every language served but English (each one a catalog of its own)
TRANSLATED = sorted(set(i18n.catalogs()) - {i18n.DEFAULT})


def english_patterns(lang: str = "it") -> list[tuple[str, re.Pattern[str]]]:
    """The catalog's English texts that ``lang`` words differently, each as a pattern of a whole
    text (its parameters: anything); not a template that only joins its parameters ("{some}
    and {last}": any text with an "and" in it), nor one whose own words are under three letters
    ("a {kind}": the Italian "a caso" would be its English)."""
    out = []
    for msgid, text in i18n.catalogs()[lang].items():
        if text == msgid:
            continue  # a name, the same in both ("Dolly Crush", "sheepfold")
        parts = re.split(r"\{\w+\}", msgid)
        if len(parts) > 2 and not parts[0] and not parts[-1]:
            continue
        if len(parts) > 1 and len(re.sub(r"\W", "", "".join(parts))) < 3:
            continue
        out.append((msgid, re.compile(".+?".join(re.escape(p) for p in parts), re.S)))
    return out


def english_left(page: Any, lang: str = "it") -> list[str]:
    """The page's texts that are still one of ``lang``'s catalog's English texts."""
    patterns = english_patterns(lang)
    left = []
    for text in page.evaluate(TEXTS):
        for t in (text, text.strip(" ·:▶★✓✗🔔↶+−")):
            hit = next((m for m, p in patterns if p.fullmatch(t)), None)
            if hit:
                left.append(f"{text!r} (the English of {hit!r})")
                break
    return left


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_scan_finds_english_left(browser: Any, live_server: Any, lang: str) -> None:
    """The scan itself: the English lobby is all English texts of ours, the lobby in every
    other language none."""
    page = new_page(browser)
    page.goto(live_server.url + "/?lang=en")
    page.wait_for_selector("#seats .seat-row")
    found = english_left(page, lang)
    assert any("Start a table" in f for f in found) and any("Player 1" in f for f in found)
    page.goto(live_server.url + f"/?lang={lang}")
    page.wait_for_selector("#seats .seat-row")
    assert page.evaluate("document.documentElement.lang") == lang
    assert english_left(page, lang) == []


def test_the_italian_lobby_from_the_link_and_the_switch(
    browser: Any, live_server: Any, shots: Any
) -> None:
    page = new_page(browser)
    page.goto(live_server.url + "/?lang=it")
    page.wait_for_selector("#seats .seat-row")
    page.wait_for_function("() => document.querySelector('#ruleset').options.length > 1")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("#create h2") == "Apri un tavolo"
    assert page.inner_text("#create-btn") == "Apri il tavolo"
    assert "Giocatore 1" in page.inner_text("#seats")
    assert page.title().startswith("sheepfold — gioca a Dolly Crush")
    # the bot levels' words are the server's, in Italian too
    page.select_option("#seats .seat-row[data-seat='1'] .bot", "easy")
    assert page.inner_text("#seats .level-about") == (
        "Gioca quasi sempre a caso; circa un turno su quattro fa la mossa migliore."
    )
    assert english_left(page) == []
    page.screenshot(path=str(shots / "i18n-lobby-it.png"), full_page=True)
    # remembered: the next page without ?lang is Italian too
    page.goto(live_server.url + "/your-tables")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("h1") == "I tuoi tavoli"
    # the switch: English, and that is remembered
    assert page.get_attribute(".lang-switch a[data-lang='it']", "aria-current") == "true"
    page.click(".lang-switch a[data-lang='en']")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.inner_text("h1") == "Your tables"
    page.goto(live_server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    assert page.inner_text("#create h2") == "Start a table"
    page.click(".lang-switch a[data-lang='it']")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    page.wait_for_selector("#seats .seat-row")
    assert page.inner_text("#create h2") == "Apri un tavolo"
    assert not page.errors


def test_the_browser_language_chooses_italian(browser: Any, live_server: Any) -> None:
    ctx = browser.new_context(locale="it-IT")  # Accept-Language: it-IT
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("#create h2") == "Apri un tavolo"
    assert english_left(page) == []
    page.goto(live_server.url + "/?lang=en")  # the link wins over the browser's language
    assert page.evaluate("document.documentElement.lang") == "en"
    assert not errors
    ctx.close()


def test_an_italian_dolly_crush_table(browser: Any, live_server: Any, shots: Any) -> None:
    t = live_server.create(
        game="dolly-crush",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        seed=21,
    )
    page = new_page(browser)
    page.goto(live_server.url + "/?lang=it")
    page.wait_for_selector("#seats .seat-row")
    sit(page, live_server.url + t["invite"], "Mia", 0)
    page.wait_for_selector(".dogcard")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("#controls h2") == "Tocca a te! Scegli una carta cane"
    assert "Campanella" in page.inner_text("#board") or "Agnello" in page.inner_text("#board")
    assert english_left(page) == []
    for turn in range(2):
        seq = page.evaluate("window.SF_LAST.seq")
        page.wait_for_selector(".dogcard")
        page.click(".dogcard >> nth=0")
        for a, b in NEIGHBOURS:  # every swap the card makes
            if page.inner_text("#swaps-left") == "0":
                break
            page.click(f"[data-cell='{a}']")
            page.click(f"[data-cell='{b}']")
        page.wait_for_function(
            "() => /Con questi scambi/.test(document.querySelector('#preview').innerText)"
        )
        assert english_left(page) == []
        if turn == 0:
            page.screenshot(path=str(shots / "i18n-dolly-it-swap.png"), full_page=True)
        page.click("#confirm")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
        # the bot's turn comes and goes: the page waits for its own again
        page.wait_for_function(
            "() => window.SF_LAST.view.to_move === 0 || window.SF_LAST.view.finished"
        )
    log = page.evaluate("document.getElementById('log').textContent")  # folded turns too
    assert "il tavolo è aperto" in log and "ha giocato la carta cane" in log
    assert english_left(page) == []
    page.screenshot(path=str(shots / "i18n-dolly-it.png"), full_page=True)
    assert not page.errors


def test_an_italian_shave_a_sheep_table(browser: Any, make_server: Any, shots: Any) -> None:
    srv = make_server(bot_delay=0.05)
    t = srv.create(
        game="shave-a-sheep",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        seed=8,
    )
    page = new_page(browser)
    page.goto(srv.url + "/?lang=it")
    page.wait_for_selector("#seats .seat-row")
    sit(page, srv.url + t["invite"], "Ada", 0)
    for _ in range(6):
        page.wait_for_selector("#roll, .act, .banner.over")
        if page.locator(".banner.over").count():
            break
        assert english_left(page) == []
        seq = page.evaluate("window.SF_LAST.seq")
        if page.locator("#roll").count():
            assert page.inner_text("#roll") == "Tira il dado"
            page.click("#roll")
        else:
            page.screenshot(path=str(shots / "i18n-shave-it-choose.png"), full_page=True)
            page.click(".act >> nth=0")
        page.wait_for_function(f"() => window.SF_LAST.seq > {seq}")
    assert "Lana al centro" in page.inner_text("#board")
    assert english_left(page) == []
    page.screenshot(path=str(shots / "i18n-shave-it.png"), full_page=True)
    assert not page.errors


def test_an_italian_lesson(browser: Any, live_server: Any, shots: Any) -> None:
    """The lesson's coach speaks Italian: its steps, what just happened, the page around it."""
    from test_learn_browser import NEXT, start_lesson

    page = new_page(browser)
    page.goto(live_server.url + "/learn/dolly-crush?lang=it")
    assert page.inner_text("h1") == "Impara a giocare a Dolly Crush"
    assert english_left(page) == []
    start_lesson(page, live_server.url, "dolly-crush", 5)
    said, last = [], None
    for _ in range(14):  # a dog card, its swaps, Done, what happened: each step in Italian
        if page.locator("#coach-log li").count():
            break
        step = page.wait_for_function(NEXT, arg=last, timeout=20_000).json_value()
        if step.get("done"):
            break
        assert english_left(page) == [], step["said"]
        said.append(step["said"])
        last = step["key"]
        page.click(step["sel"])
    assert said[0].startswith("Tocca a te. Scegli la carta cane"), said
    assert any(s.startswith("Tocca ") and " in " in s for s in said[1:]), said
    page.wait_for_selector("#coach-log li")
    assert english_left(page) == []
    page.screenshot(path=str(shots / "i18n-lesson-it.png"), full_page=True)
    assert not page.errors
