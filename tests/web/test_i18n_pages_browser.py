"""The rest of the web app in Italian, illustrated, and with no symbol a font may lack (issue 29).

- Every page a player reaches besides the lobby and the tables (test_i18n_browser.py) is
  scanned in Italian for English texts of ours (the catalog's, ``english_left``): the gallery,
  a rule set with its lab card, a profile (its history and ratings), someone else's profile,
  the leaderboard, "Your tables" and both rules pages. The words the scripts build there
  (counts, plurals, places, dates, buttons, labels) are ``t()`` templates.
- The rules pages draw the table's pictures (static/art.js): each sheep type's card, the die,
  the Shave a Sheep sheep.
- No page shows a character that needs an emoji font (Debian's Chromium has none: a box), nor
  one that no installed font has: every text character the pages show, in their texts, word
  attributes and CSS ``::before``/``::after``, is drawn on a canvas and compared with a
  character no font has; a chat reaction is a drawing with its words.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_axe_pages import CARD
from test_fit_browser import CUT_WORDS
from test_i18n_browser import TRANSLATED, english_left
from test_profiles_api import SHORT_SHAVE, join_as, make_profile, play_to_the_end
from test_web_browser import new_page, sit

from polling import wait_until
from sheepfold.server.limits import Rate

pytestmark = pytest.mark.browser

#: the characters beyond ASCII a page shows, each with the first text it is in: texts, word
#: attributes and the content of ::before and ::after, of the visible elements
SHOWN_CHARS = r"""() => {
  const found = {};
  const take = (s) => { for (const ch of s || "") if (ch.codePointAt(0) > 126 && !(ch in found)) found[ch] = s.trim().slice(0, 80); };
  take(document.title);
  const shown = (el) => (el.tagName === "OPTION" ? el.closest("select") || el : el).checkVisibility({ visibilityProperty: true });
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    for (const n of el.childNodes) if (n.nodeType === 3) take(n.textContent);
    for (const a of ["title", "aria-label", "placeholder", "alt"]) if (el.hasAttribute(a)) take(el.getAttribute(a));
    for (const p of ["::before", "::after"]) {
      const c = getComputedStyle(el, p).content;
      if (c && c !== "none" && c !== "normal" && c.startsWith('"')) take(JSON.parse(c));
    }
  }
  return found;
}"""

#: which of these characters would not read: one that asks for an emoji font (its default
#: presentation is an emoji), or one drawn as a character no font has (the box of a missing
#: glyph), in the pages' own font
UNREADABLE = r"""(chars) => {
  const c = document.createElement("canvas");
  c.width = 48; c.height = 48;
  const g = c.getContext("2d", { willReadFrequently: true });
  const font = getComputedStyle(document.body).fontFamily;
  const draw = (ch) => {
    g.clearRect(0, 0, 48, 48);
    g.font = `32px ${font}`;
    g.fillText(ch, 4, 36);
    return g.getImageData(0, 0, 48, 48).data.join(",");
  };
  const missing = draw("\u{10FFFD}"); // a private-use character: no font has it
  return chars.filter((ch) => !/[\p{Z}\p{Cf}]/u.test(ch))
    .filter((ch) => /\p{Emoji_Presentation}/u.test(ch) || draw(ch) === missing);
}"""


def unreadable(page: Any) -> list[str]:
    """The page's characters that would show as a box here (or elsewhere: an emoji)."""
    found = page.evaluate(SHOWN_CHARS)
    bad = page.evaluate(UNREADABLE, list(found))
    return [f"{ch!r} U+{ord(ch[0]):04X} in {found[ch]!r}" for ch in bad]


def check(page: Any, what: str, problems: dict[str, list[str]], lang: str = "it") -> None:
    """The page as it is now: no character that would not read and, in a language but
    English, no English text of ours left."""
    left = (english_left(page, lang) if lang != "en" else []) + unreadable(page)
    if left:
        problems[what] = left


def says(problems: dict[str, list[str]], what: str, ok: bool, text: str) -> None:
    """A page's own words, checked: a miss joins the problems (every page is still scanned)."""
    if not ok:
        problems.setdefault(what, []).append(text)


def test_the_glyph_check_finds_a_box(browser: Any, live_server: Any) -> None:
    """The check itself: an emoji, and a character no font has, are found; the page's own
    symbols are not."""
    page = new_page(browser)
    page.goto(live_server.url + "/rules/dolly-crush")
    page.wait_for_selector(".rules-flock .cell svg")
    assert unreadable(page) == []
    page.evaluate(
        """() => {
          const p = document.createElement("p");
          p.textContent = "\\u{1F514} ring \\u{E000}";
          document.querySelector("main").append(p);
        }"""
    )
    found = unreadable(page)
    assert len(found) == 2 and "U+1F514" in found[0] and "U+E000" in found[1], found


@pytest.fixture
def played(make_server: Any, ws_client: Any) -> dict[str, Any]:
    """A server with a published rule set whose lab card is done, two profiles that finished a
    rated game (with a bot), and an open table where it is Mia's turn."""
    srv = make_server(bot_delay=0.0, lab_workers=0)  # the lab card: written below
    r = srv.http.post(
        "/api/gallery/shave-a-sheep",
        json={"name": "Short wool", "author": "ewe", "description": "less", "rules": {"wool": 12}},
    )
    assert r.status_code == 201, r.text
    store = srv.app.state.gallery.store
    store.set_lab(
        store.versions("shave-a-sheep", "short-wool")[0].id, status="done", progress=1.0, card=CARD
    )
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
    t = srv.create(**SHORT_SHAVE, seats=seats, seed=3)
    a, b = join_as(srv, t["id"], mia, 0), join_as(srv, t["id"], leo, 1)
    ca = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{t['id']}", b["token"])
    play_to_the_end({0: ca, 1: cb}, random.Random(4))
    wait_until(
        lambda: srv.http.get(f"/api/profiles/{mia['id']}").json()["history"],
        what="the game in Mia's history",
    )
    open_table = srv.create(game="dolly-crush", seats=[{"kind": "human"}, {"kind": "bot"}])
    join_as(srv, open_table["id"], mia, 0)
    return {"srv": srv, "mia": mia, "leo": leo}


def test_the_other_pages_in_italian(browser: Any, played: dict[str, Any], shots: Any) -> None:
    srv, mia, leo = played["srv"], played["mia"], played["leo"]
    problems: dict[str, list[str]] = {}
    page = new_page(browser)
    # Mia's device: her profile from its transfer link, Italian from the address
    page.goto(srv.url + "/profile?lang=it#secret=" + mia["secret"])
    page.wait_for_selector("#history li.game")
    check(page, "my profile", problems)
    title, history = page.inner_text("#title"), page.inner_text("#history")
    says(problems, "my profile", title == "Il tuo profilo", title)
    says(problems, "my profile", "(bot, " in history and "punteggio 1000 → " in history, history)
    says(problems, "my profile", "partita a punteggio" in page.inner_text("#ratings"), "ratings")
    page.screenshot(path=str(shots / "i18n-profile-it.png"), full_page=True)

    page.goto(srv.url + f"/players/{leo['id']}")
    page.wait_for_selector("#history li.game")
    check(page, "Leo's profile", problems)

    page.goto(srv.url + "/leaderboard/shave-a-sheep")
    page.wait_for_selector("#rows tr")
    check(page, "the leaderboard", problems)
    says(
        problems,
        "the leaderboard",
        page.title() == "Classifica di Shave a Sheep — sheepfold",
        page.title(),
    )

    page.goto(srv.url + "/your-tables")
    page.wait_for_selector("#yours li.your-turn")
    check(page, "your tables", problems)
    turns = page.inner_text("#turns")
    says(problems, "your tables", turns == "Tocca a te a 1 tavolo.", turns)
    says(problems, "your tables", page.title() == "(1) I tuoi tavoli — sheepfold", page.title())
    page.screenshot(path=str(shots / "i18n-yours-it.png"), full_page=True)

    page.goto(srv.url + "/gallery?game=shave-a-sheep")
    page.wait_for_selector(".entry")
    check(page, "the gallery", problems)
    count, played = page.inner_text("#count"), page.inner_text(".entry .played")
    says(problems, "the gallery", count == "1 insieme di regole", count)
    says(problems, "the gallery", played == "giocate 0, finite 0", played)
    page.screenshot(path=str(shots / "i18n-gallery-it.png"), full_page=True)

    page.goto(srv.url + "/gallery/shave-a-sheep/short-wool")
    page.wait_for_selector("#lab .verdict")
    page.wait_for_selector("#seats .seat-row")
    check(page, "a rule set and its lab card", problems)
    head = page.inner_text("#lab table.metrics thead")
    says(problems, "a rule set and its lab card", "Differenza" in head, head)
    page.screenshot(path=str(shots / "i18n-ruleset-it.png"), full_page=True)

    for game in ("dolly-crush", "shave-a-sheep"):
        page.goto(srv.url + f"/rules/{game}")
        page.wait_for_selector("main.rules svg")
        check(page, f"the {game} rules", problems)
        cut = page.evaluate(CUT_WORDS)  # the Italian names are the longer: each fits its card
        says(problems, f"the {game} rules", cut == [], f"words cut short: {cut}")
    page.screenshot(path=str(shots / "i18n-rules-shave-it.png"), full_page=True)

    assert not problems, "\n".join(f"{w}: {p}" for w, ps in problems.items() for p in ps)
    assert not page.errors


def test_the_other_pages_in_every_other_language(browser: Any, played: dict[str, Any]) -> None:
    """The pages above in every language served but English and Italian (whose words are
    checked above): no English text of ours left, every character reads, the rules pages'
    card words fit their cards."""
    srv, mia, leo = played["srv"], played["mia"], played["leo"]
    problems: dict[str, list[str]] = {}
    page = new_page(browser)
    pages = {
        "my profile": ("/profile", "#history li.game"),
        "Leo's profile": (f"/players/{leo['id']}", "#history li.game"),
        "the leaderboard": ("/leaderboard/shave-a-sheep", "#rows tr"),
        "your tables": ("/your-tables", "#yours li.your-turn"),
        "the gallery": ("/gallery?game=shave-a-sheep", ".entry"),
        "a rule set and its lab card": ("/gallery/shave-a-sheep/short-wool", "#lab .verdict"),
        "the dolly-crush rules": ("/rules/dolly-crush", "main.rules svg"),
        "the shave-a-sheep rules": ("/rules/shave-a-sheep", "main.rules svg"),
    }
    for lang in (other for other in TRANSLATED if other != "it"):
        page.goto(srv.url + f"/profile?lang={lang}#secret=" + mia["secret"])
        for what, (path, ready) in pages.items():
            page.goto(srv.url + path)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.lang") == lang
            check(page, f"{what} ({lang})", problems, lang)
            cut = page.evaluate(CUT_WORDS)
            says(problems, f"{what} ({lang})", cut == [], f"words cut short: {cut}")
    assert not problems, "\n".join(f"{w}: {p}" for w, ps in problems.items() for p in ps)
    assert not page.errors


def test_the_scan_finds_the_english_of_these_pages(browser: Any, played: dict[str, Any]) -> None:
    """The same pages in English: the scan finds the texts the scripts build (it would find
    them in the Italian pages if they were still English)."""
    srv, mia = played["srv"], played["mia"]
    page = new_page(browser)
    page.goto(srv.url + "/your-tables?lang=en#")
    page.evaluate(f"localStorage.setItem('sheepfold:profile', {mia['secret']!r})")
    page.goto(srv.url + "/your-tables")
    page.wait_for_selector("#yours li.your-turn")
    found = english_left(page)
    assert any("It is your turn at 1 table." in f for f in found), found
    page.goto(srv.url + "/gallery/shave-a-sheep/short-wool")
    page.wait_for_selector("#lab .verdict")
    found = english_left(page)
    assert any("Difference" in f for f in found) and any("What it changes" in f for f in found)
    page.goto(srv.url + "/profile")
    page.wait_for_selector("#history li.game")
    assert any("rated game" in f for f in english_left(page))


#: each sheep type's card on the page: its type's word, and whether its picture is art.js's
CARD_PICTURES = """() => [...document.querySelectorAll(".rules-cards .cell, .rules-flock .cell")].map((c) => {
  const svg = c.querySelector("svg.art");
  const type = c.dataset.type || "";
  const tpl = document.createElement("template");
  tpl.innerHTML = SF.art.card(type, c.classList.contains("black") ? "black" : "white");
  return [c.querySelector(".word").textContent, !!svg && svg.isEqualNode(tpl.content.firstElementChild)];
})"""


def test_the_rules_pages_draw_the_tables_pictures(browser: Any, live_server: Any) -> None:
    page = new_page(browser)
    page.goto(live_server.url + "/rules/dolly-crush?lang=en")
    page.wait_for_selector(".rules-cards .cell")
    assert page.evaluate("typeof SF.art") == "object", "the rules page has no art.js"
    cards = page.evaluate(CARD_PICTURES)
    assert all(drawn for _, drawn in cards), cards
    assert {w for w, _ in cards} == {"Bell", "Lamb", "Butterfly", "Flower", "Ram"}
    # the five kinds of sheep, a picture each: five different pictures
    kinds = page.locator("figure[aria-label='the five kinds of sheep'] svg.art")
    assert kinds.count() == 5
    assert len({kinds.nth(i).inner_html() for i in range(5)}) == 5
    # each card still says what it is in words (the picture is decoration)
    label = page.get_attribute(".rules-cards .cell.black", "aria-label")
    assert label == "Lamb, a black card, 2 points"

    page.goto(live_server.url + "/rules/shave-a-sheep?lang=en")
    page.wait_for_selector(".rules-sheep .sheep")
    sides = page.locator(".rules-faces .die")
    assert sides.count() == 6
    assert page.locator(".rules-faces .die svg.lego-die").count() == 6
    same = page.evaluate(
        """() => [...document.querySelectorAll(".rules-sheep .sheep")].map((s) => {
          const n = (s.getAttribute("aria-label").match(/\\d+/) || ["0"])[0];
          const tpl = document.createElement("template");
          tpl.innerHTML = SF.art.shaveSheep(+n, 5);
          return s.querySelector("svg").isEqualNode(tpl.content.firstElementChild);
        })"""
    )
    assert same == [True, True, True, True], same
    assert not page.errors


def test_no_table_page_shows_a_box(browser: Any, make_server: Any, shots: Any) -> None:
    """The lobby, the lessons and both tables (seated, the chat's reactions and the turn notices'
    button shown, a reaction said): every character reads, in English and in every other
    language served."""
    # two tables in every language, from one address: no cap on the tables it opens
    off = Rate(0, 0)
    srv = make_server(bot_delay=0.0, create_rate=off, join_rate=off, max_open_tables=0)
    problems: dict[str, list[str]] = {}
    page = new_page(browser)
    # Italian last: its chat is read below
    for lang in ("en", *(other for other in TRANSLATED if other != "it"), "it"):
        page.goto(srv.url + f"/?lang={lang}")
        page.wait_for_selector("#seats .seat-row")
        check(page, f"the lobby ({lang})", problems, lang)
        for game in ("dolly-crush", "shave-a-sheep"):
            page.goto(srv.url + f"/learn/{game}")
            page.wait_for_selector("#lesson-start")
            check(page, f"the {game} lesson ({lang})", problems, lang)
            t = srv.create(game=game, seats=[{"kind": "human"}, {"kind": "human"}])
            sit(page, srv.url + t["invite"], "Ada", 0)
            page.wait_for_selector("#chat-reacts button")
            page.wait_for_selector("#notify:not([hidden])")
            page.click("#chat-reacts button >> nth=0")
            page.wait_for_selector("#chat-lines li")
            check(page, f"a {game} table ({lang})", problems, lang)
    said = " ".join(page.text_content("#chat-lines li").split())
    # the name, the seat and the reaction's words
    says(problems, "the chat", said == "Ada (posto 1): pollice in su", said)
    drawn = page.locator("#chat-lines li svg.react-art").count()
    says(problems, "the chat", drawn == 1, f"{drawn} drawings")  # and its drawing
    page.screenshot(path=str(shots / "i18n-table-chat-it.png"), full_page=True)
    assert not problems, "\n".join(f"{w}: {p}" for w, ps in problems.items() for p in ps)
    assert not page.errors


def test_a_lab_card_made_by_the_lab_reads_in_italian(
    browser: Any, make_server: Any, monkeypatch: Any, shots: Any
) -> None:
    """A lab card as the card's process writes it (its verdict, base and labels stored as
    data) and the server stores it, read on the rule set's page in Italian: no English of
    ours, the verdict Italian, the table's figures with a decimal comma, the plot Italian's;
    in English, the lab's own paragraph and figures."""
    import json
    import re

    import sheepfold.lab.runner as lab_runner
    from sheepfold.core.words import from_data
    from sheepfold.lab import card

    srv = make_server(lab_workers=0)  # the card: made below, as its process makes it
    rules = {"from": "race-to-twelve", "shear_cost": 0, "rerolls": 0}
    body = {"name": "No costs", "author": "ewe", "description": "free shears", "rules": rules}
    assert srv.http.post("/api/gallery/shave-a-sheep", json=body).status_code == 201
    gallery = srv.app.state.gallery
    version = gallery.store.version("shave-a-sheep", "no-costs", 1)
    spec = json.loads(json.dumps(gallery.lab._spec(version.id)))
    monkeypatch.setattr(lab_runner, "resolve_engine", lambda job: "engine")  # no kernel compiled
    made = json.loads(json.dumps(card.card({**spec, "games": 4, "exact_limit": 0}, lambda _: None)))
    gallery.lab._finish(version.id, made, 0, "")  # as the server stores it
    stored = made["card"]

    page = new_page(browser)
    page.goto(srv.url + "/gallery/shave-a-sheep/no-costs?lang=it")
    page.wait_for_selector("#lab .verdict")
    problems: dict[str, list[str]] = {}
    check(page, "a card the lab made", problems)
    said = page.inner_text("#lab .verdict")
    for english in ("this rule set", "race to twelve", "measurabl", "games", "turns", "then,"):
        says(problems, "its verdict", english not in said.lower(), said)
    says(problems, "its verdict", "le regole «Corsa al dodici»" in said, said)
    base = page.inner_text("p.base")  # no "da le regole": the base is said after a colon
    says(problems, "its base", base.startswith("Punto di partenza: le regole «Corsa al"), base)
    figures = page.inner_text("#lab table.metrics tbody")
    says(problems, "its figures", bool(re.search(r"\d,\d", figures)), figures)
    says(problems, "its figures", not re.search(r"\d\.\d", figures), figures)
    plot = page.locator("#lab img.lab-plot")
    says(problems, "its plot", plot.get_attribute("src").endswith("plot.svg?lang=it"), "src")
    page.wait_for_function("document.querySelector('#lab img.lab-plot').naturalWidth > 0")
    page.screenshot(path=str(shots / "i18n-lab-card-it.png"), full_page=True)
    assert not problems, "\n".join(f"{w}: {p}" for w, ps in problems.items() for p in ps)

    page.goto(srv.url + "/gallery/shave-a-sheep/no-costs?lang=en")
    page.wait_for_selector("#lab .verdict")
    assert page.inner_text("#lab .verdict") == from_data(stored["verdict"])
    figures = page.inner_text("#lab table.metrics tbody")
    assert re.search(r"\d\.\d", figures) and not re.search(r"\d,\d", figures), figures
    assert not page.errors
