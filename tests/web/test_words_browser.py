"""A player sees words, never our identifiers: every page's visible text, scanned in a real
browser (issue 29, "Plain words"; issue 27: the house rules in the games' own words).

Each page is visited as a player finds it (the lobby of both games with bots and the perfect
bot chosen, both games' tables with the default rules and with house rules, a finished game,
the gallery's list and a rule set's page with its lab card, a gallery table, an old gallery
version whose stored lines were written per option) and its text is scanned: what the page
shows (``document.body.innerText``), the options of its visible lists, and the ``title``,
``aria-label``, ``placeholder`` and ``alt`` texts of its visible elements. Nothing may be a
snake_case key, a rule set's or a breed's id, bot option syntax or a lab bot's name.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import new_page

pytestmark = pytest.mark.browser

#: what a page shows a player: its text, its visible lists' options and labels
VISIBLE_TEXT = """() => {
  const shown = (el) => (el.tagName === "OPTION" ? el.closest("select") || el : el).checkVisibility({ visibilityProperty: true });
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("*")) {
    if (!shown(el)) continue;
    if (el.tagName === "OPTION") out.push(el.textContent);
    // what the rule editor's boxes hold (a built-in's name once read "dolly-graded")
    if ((el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.closest("#rules-editor")) out.push(el.value);
    for (const a of ["title", "aria-label", "placeholder", "alt"]) if (el.hasAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.join("\\n");
}"""

#: the lobby's note on the perfect bot says its words (a page without the note: at once)
NOTE_SAID = """() => { const n = document.getElementById("perfect-note");
  return !n || n.textContent.includes("about"); }"""

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
GAME_IDS = re.compile(r"\b(?:dolly|shave)-[a-z0-9]+(?:-[a-z0-9]+)*\b")
BOT_OPTIONS = re.compile(r"\b[a-z][a-z-]*:[a-z_]+=\S+")


def internal_names(text: str, ids: set[str]) -> list[str]:
    """Every identifier of ours in ``text``: snake_case keys, ids (rule sets, breeds, the lab's
    bots), bot option syntax."""
    found = SNAKE.findall(text) + GAME_IDS.findall(text) + BOT_OPTIONS.findall(text)
    found += [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    return sorted(set(found))


def test_internal_names_are_found() -> None:
    """The scan itself: today's slips are caught, plain words pass."""
    ids = {"greedy-wolf", "pastore-maremmano", "best-response"}
    slips = (
        "dog_swaps = pastore-maremmano: 1, 2, 3, 4",
        "Rules: dolly-rulebook",
        "easy — mostly random swaps (easy:greedy=0.25)",
        "bot: best-response",
        "Shave a Sheep · greedy-wolf",
    )
    for text in slips:
        assert internal_names(text, ids), text
    words = "Dolly Crush · Graded: Pastore Maremmano 1, 2, 3, 4 swaps; a cub-raid face; x2 (double)"
    assert internal_names(words, ids) == []


def ids_of(srv: Any) -> set[str]:
    """The ids a player must never read: the rule sets', the breeds', the bots' not offered."""
    games = srv.http.get("/api/games").json()
    out: set[str] = {"best-response"}
    for g in games.values():
        out |= {r["name"] for r in g["rulesets"] if "-" in r["name"]}
        out |= {b["name"] for b in g.get("breeds", [])}
    return out


def scan(page: Any, ids: set[str], where: str, seen: dict[str, list[str]]) -> None:
    found = internal_names(page.evaluate(VISIBLE_TEXT), ids)
    if found:
        seen[where] = found


def open_table(page: Any, srv: Any, **spec: Any) -> str:
    t = srv.create(**spec)
    page.goto(srv.url + t["invite"])
    page.wait_for_function("() => window.SF_LAST")
    return t["id"]


def publish(srv: Any, game: str, name: str, rules: dict[str, Any]) -> Any:
    r = srv.http.post(f"/api/gallery/{game}", json={"name": name, "author": "Mia", "rules": rules})
    assert r.status_code == 201, r.text
    slug = r.json()["url"].rsplit("/", 1)[1]
    return srv.app.state.gallery.store.version(game, slug, 1)


#: a lab card as the lab writes it (sheepfold.lab.card): its verdict is the lab's paragraph
CARD = {
    "games": 20,
    "engine": "fast",
    "bots": ["greedy"],
    "verdict": "The rulebook's games last 21.4 turns, this rule set's 17.0 (-20.6% ± 4.1%).",
    "metrics": [
        {
            "key": "length_mean",
            "label": "mean game length",
            "rulebook": 21.4,
            "house": 17.0,
            "diff": -4.4,
            "lo": -5.2,
            "hi": -3.6,
            "p": 0.0001,
            "rel": -0.206,
            "kind": "num",
            "significant": True,
        },
        {
            "key": "balance",
            "label": "balance",
            "rulebook": 0.9,
            "house": 0.91,
            "diff": 0.01,
            "lo": -0.02,
            "hi": 0.04,
            "p": 0.5,
            "rel": 0.01,
            "kind": "pct",
            "significant": False,
        },
    ],
    "exact": None,
}


def test_no_page_shows_an_internal_name(browser, make_server, shots):
    from sqlalchemy import update

    from sheepfold.server.limits import Rate
    from sheepfold.server.storage import versions_t

    srv = make_server(lab_workers=0, create_rate=Rate(0, 0), max_open_tables=0)
    ids = ids_of(srv)
    seen: dict[str, list[str]] = {}
    page = new_page(browser)

    # the lobby: both games, a bot at a seat, the perfect bot for two and for three players
    page.goto(srv.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#ruleset option').length > 1")
    page.locator(".seat-row .bot").first.wait_for()
    scan(page, ids, "lobby: Dolly Crush", seen)
    page.locator(".seat-row .bot").select_option("expert")
    scan(page, ids, "lobby: Dolly Crush, an expert bot", seen)
    page.click("#game-choice [data-game='shave-a-sheep']")
    page.wait_for_selector("#ruleset option[value='greedy-wolf']", state="attached")
    scan(page, ids, "lobby: Shave a Sheep", seen)
    bots = page.locator(".seat-row .bot")
    if "perfect" in bots.first.inner_html():
        bots.first.select_option("perfect")
    page.wait_for_function(NOTE_SAID)
    scan(page, ids, "lobby: Shave a Sheep, the perfect bot", seen)
    page.click("#add-seat")
    page.wait_for_function(NOTE_SAID.replace("about", "cannot"))
    scan(page, ids, "lobby: Shave a Sheep, three players", seen)
    page.screenshot(path=str(shots / "words-lobby.png"), full_page=True)

    # both games' tables, with the default rules and with house rules
    tables = {
        "Dolly Crush, default rules": dict(
            game="dolly-crush", seats=[{}, {"kind": "bot", "bot": "easy:greedy=0.25"}]
        ),
        "Dolly Crush, house rules": dict(
            game="dolly-crush",
            ruleset="dolly-graded",
            rules={"min_line": 4, "diagonals": True, "bonuses": [{"length": 5, "times": 2}]},
            seats=[{}, {"kind": "bot", "bot": "hard"}],
        ),
        "Shave a Sheep, default rules": dict(
            game="shave-a-sheep", seats=[{}, {"kind": "bot", "bot": "greedy"}]
        ),
        "Shave a Sheep, house rules": dict(
            game="shave-a-sheep",
            ruleset="my-friend-mr-wolf",
            rules={"wool": 24, "max_turns": 200, "rerolls": 1},
            seats=[{}, {"kind": "bot", "bot": "random"}],
        ),
        "Shave a Sheep, a rule of its own": dict(
            game="shave-a-sheep",
            rules={
                "die": ["white", "x2", "white/pink", "white/green", "gray/pink", "steal"],
                "verbs": {
                    "steal": {
                        "choose": "another player",
                        "when": ["target pile >= 1"],
                        "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
                    }
                },
            },
            seats=[{}, {"kind": "bot", "bot": "random"}],
        ),
    }
    for where, spec in tables.items():
        open_table(page, srv, **spec)
        page.wait_for_selector("#house-rules strong")
        scan(page, ids, f"table: {where}", seen)
    page.screenshot(path=str(shots / "words-table.png"), full_page=True)
    # a finished game: its log, its end
    open_table(page, srv, game="shave-a-sheep", seats=[{"kind": "bot"}, {"kind": "bot"}], seed=3)
    page.wait_for_selector(".banner.over")
    scan(page, ids, "table: a finished game", seen)

    # the gallery: its list, a rule set with its lab card, a table of it, an old version
    v = publish(srv, "shave-a-sheep", "Short Shear", {"wool": 12, "wolf_takes": "half"})
    srv.app.state.gallery.store.set_lab(v.id, status="done", progress=1.0, card=CARD)
    old = publish(srv, "dolly-crush", "Long Lines", {"min_line": 4, "match_colour": True})
    stored = ["min_line (the shortest line that counts): 3 → 4"]  # as published before words
    with srv.manager.storage.transaction() as c:
        c.execute(update(versions_t).where(versions_t.c.id == old.id).values(differences=stored))
    for game in ("shave-a-sheep", "dolly-crush"):
        page.goto(srv.url + f"/gallery?game={game}")
        page.wait_for_selector(".entry")
        scan(page, ids, f"gallery: {game}", seen)
    page.goto(srv.url + "/gallery/shave-a-sheep/short-shear")
    page.wait_for_selector("#lab .verdict")
    scan(page, ids, "gallery: a rule set and its lab card", seen)
    page.screenshot(path=str(shots / "words-gallery-card.png"), full_page=True)
    page.goto(srv.url + "/gallery/dolly-crush/long-lines")
    page.wait_for_selector("#about .differences")
    page.wait_for_selector(".seat-row .bot")
    scan(page, ids, "gallery: an old version", seen)
    page.click("#try-btn")  # its table
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#house-rules .differences li")
    scan(page, ids, "table: a gallery rule set", seen)

    assert not seen, "internal names a player sees:\n" + "\n".join(
        f"  {where}: {', '.join(found)}" for where, found in seen.items()
    )
    assert not page.errors


#: open every part of the rule editor a player can open: each optional part set, each example
#: taken (a round at a time: what one round opens is scanned after it)
OPEN_PARTS = """() => { const box = document.getElementById("rules-editor");
  const buttons = [...box.querySelectorAll("button[data-act='set'], button[data-act='example']")]
    .filter((b) => b.checkVisibility() && !b.closest(".rule-add"));
  buttons.forEach((b) => b.click());
  return buttons.length; }"""


def test_the_rule_editor_says_its_options_in_words(browser, live_server, shots):
    """The lobby's rule editor of both games, opened and every part of it opened: its labels,
    descriptions, what an unset option means and its choices are words, never an option's key
    (a description once read "colour by match_colour")."""
    from playwright.sync_api import expect

    ids = ids_of(live_server)
    seen: dict[str, list[str]] = {}
    page = new_page(browser)
    page.goto(live_server.url + "/")
    for game in ("dolly-crush", "shave-a-sheep"):
        page.click(f"#game-choice [data-game='{game}']")
        page.click("#rules-editor summary")
        expect(page.locator("#rules-editor .rule-field").first).to_be_visible()
        scan(page, ids, f"rule editor: {game}", seen)
        for round_ in range(3):  # the parts inside parts
            opened = page.evaluate(OPEN_PARTS)
            scan(page, ids, f"rule editor: {game}, parts opened ({round_ + 1})", seen)
            if not opened:
                break
        page.screenshot(path=str(shots / f"words-rule-editor-{game}.png"), full_page=True)
        page.click("#rules-editor summary")  # closed again
    assert not seen, "internal names a player sees:\n" + "\n".join(
        f"  {where}: {', '.join(found)}" for where, found in seen.items()
    )
    assert not page.errors


def test_done_says_take_the_sheep_only_when_the_swaps_take_some(browser, live_server):
    from playwright.sync_api import expect
    from test_web_browser import NEIGHBOURS, sit

    t = live_server.create(game="dolly-crush", seats=[{}, {}], seed=21)
    page = new_page(browser)
    sit(page, live_server.url + t["invite"], "Mia", 0)
    state = live_server.manager.get(t["id"]).state
    dog = state.observe(0)["dog_swaps"][0].index(1)  # a dog card of one swap

    def takes(a: str, b: str) -> bool:
        trial = state.clone()
        trial.apply(dog)
        trial.apply(trial.string_to_action(f"swap {a}-{b}"))
        return bool(trial.last_taken)

    none = next(s for s in NEIGHBOURS if not takes(*s))
    some = next(s for s in NEIGHBOURS if takes(*s))  # this deal has both
    page.click(f"#dog-{dog}")
    for cell in none:
        page.click(f"[data-cell='{cell}']")
    expect(page.locator("#preview")).to_have_text("With these swaps you take no sheep.")
    expect(page.locator("#confirm")).to_have_text("Done: end my turn (no sheep to take)")
    page.click("#undo")
    for cell in some:
        page.click(f"[data-cell='{cell}']")
    expect(page.locator("#preview")).to_contain_text("With these swaps you take")
    expect(page.locator("#confirm")).to_have_text("Done: take the sheep!")
    assert not page.errors


def test_the_perfect_bot_is_offered_where_it_plays_and_its_wait_said_first(
    browser, live_server, shots
):
    """The lobby asks before the click: three players of the rulebook (too many positions):
    the level is offered disabled, saying why; two players whose solution must be computed
    first: the wait is said, and Open the table waits for it and opens the table. (The
    server's solutions are a stand-in here: no solver runs.)"""
    from playwright.sync_api import expect

    from sheepfold.server.solutions import NotReady

    asked: list[tuple[int, bool]] = []

    def require(game: Any, seats: list[int], start: bool = True) -> None:
        asked.append((game.num_players, start))
        if game.num_players > 2:
            raise NotReady("too many positions", 422, why="too big")
        first = next((i for i, (_, s) in enumerate(asked) if s), None)
        if first is None or len(asked) - first < 3:  # ready at the second ask after its start
            raise NotReady("solving", 409, wait=2)

    live_server.manager.solutions.require = require
    page = new_page(browser)
    page.goto(live_server.url + "/")
    page.click("#game-choice [data-game='shave-a-sheep']")
    bot = page.locator(".seat-row .bot").first
    expect(bot.locator("option[value='perfect']")).to_have_text("Perfect")
    bot.select_option("perfect")
    note = page.locator("#perfect-note")
    expect(note).to_have_text(
        "The perfect bot first works out every position of these rules: about 2 s. "
        "The table opens when it is ready."
    )
    expect(page.locator("#create-btn")).to_be_enabled()
    assert asked and not any(s for _, s in asked)  # only asked: nothing started
    page.click("#add-seat")
    expect(note).to_contain_text("cannot play 3 players with these rules")
    expect(page.locator("#create-btn")).to_be_disabled()
    expect(
        page.locator(".seat-row .bot").nth(1).locator("option[value='perfect']")
    ).to_be_disabled()
    page.screenshot(path=str(shots / "words-perfect-three.png"), full_page=True)
    page.click("#remove-seat")
    expect(page.locator("#create-btn")).to_be_enabled()
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    assert sorted([s.bot or "" for s in table.seats]) == ["", "perfect"]  # who starts: drawn
    # asked (nothing started), started once at the click, followed until ready, then opened
    polls, opened = [s for n, s in asked if n == 2][:-1], asked[-1]
    assert polls.count(True) == 1 and polls[-2:] == [False, False] and opened == (2, True)
    assert not page.errors
