"""Accessibility (issue 29): axe-core, injected into every page of the web app, finds no serious
or critical violation: the lobby, both tables (at a turn of the person), the gallery, a rule
set's lab card, the lessons and the rules pages, on a laptop and on a phone.

axe-core comes from the npm registry at the version scripts/install-system-packages.sh pins,
into the git-ignored .cache/axe-core/; it is run in the page through the DevTools protocol (the
pages' Content-Security-Policy allows no inline script, and needs not be loosened for it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_learn_browser import start_lesson
from test_web_browser import PHONE, new_page

pytestmark = pytest.mark.browser

AXE = Path(__file__).parents[2] / ".cache" / "axe-core" / "node_modules" / "axe-core"
LAPTOP = {"width": 1280, "height": 800}
#: a lab card of two metrics, in the lab's format (sheepfold.lab.card)
CARD: dict[str, Any] = {
    "games": 20,
    "engine": "kernel",
    "bots": ["greedy", "random"],
    "verdict": "Shorter games than the rulebook's: 41.0 turns instead of 63.5",
    "metrics": [
        {
            "key": "length_mean",
            "label": "game length (turns), mean",
            "rulebook": 63.5,
            "house": 41.0,
            "diff": -22.5,
            "lo": -25.0,
            "hi": -20.0,
            "p": 0.0001,
            "rel": -0.35,
            "kind": "num",
            "significant": True,
        },
        {
            "key": "balance",
            "label": "balance",
            "rulebook": 0.92,
            "house": 0.95,
            "diff": 0.03,
            "lo": -0.1,
            "hi": 0.16,
            "p": 0.6,
            "rel": 0.06,
            "kind": "pct",
            "significant": False,
        },
    ],
    "exact": {"first_player_advantage": 0.04},
}


def axe_source() -> str:
    assert (AXE / "axe.min.js").exists(), (
        f"axe-core is not installed ({AXE}): run scripts/install-system-packages.sh"
    )
    return (AXE / "axe.min.js").read_text(encoding="utf-8")


def serious(page: Any) -> list[str]:
    """axe's serious and critical violations on the page as it is now, one line each (the rule,
    its help and the elements it names)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(
        "async () => JSON.stringify(await axe.run(document, {resultTypes: ['violations']}))"
    )
    out = []
    for v in json.loads(result)["violations"]:
        if v["impact"] in ("serious", "critical"):
            where = "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
            out.append(f"{v['id']} ({v['impact']}): {v['help']}: {where}")
    return out


def check(page: Any, what: str, found: dict[str, list[str]]) -> None:
    problems = serious(page)
    if problems:
        found[what] = problems


def test_axe_is_the_pinned_version() -> None:
    axe_source()
    pinned = next(
        line.split("=")[1].split()[0]
        for line in (Path(__file__).parents[2] / "scripts" / "install-system-packages.sh")
        .read_text()
        .splitlines()
        if line.startswith("AXE_VERSION=")
    )
    assert json.loads((AXE / "package.json").read_text())["version"] == pinned


def test_the_scan_finds_a_serious_violation(browser, live_server) -> None:
    """The scan itself works: a button without a name is reported."""
    page = new_page(browser)
    page.goto(live_server.url + "/rules/dolly-crush")
    page.wait_for_selector(".rules-flock .cell svg")
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")
    assert any(p.startswith("button-name (critical)") for p in serious(page))


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_no_page_has_a_serious_accessibility_violation(browser, make_server, viewport):
    srv = make_server(bot_delay=0.0, lab_workers=0)  # the lab card: written below
    found: dict[str, list[str]] = {}
    page = new_page(browser, viewport)

    page.goto(srv.url)
    page.wait_for_function(
        "() => document.getElementById('rules-state').textContent.startsWith('✓')"
    )
    page.wait_for_function("() => document.querySelectorAll('#seats .seat-row').length === 2")
    check(page, "lobby", found)
    page.click("#rules-editor summary")
    page.click("#publish summary")
    check(page, "lobby, rules editor open", found)

    for game in ("dolly-crush", "shave-a-sheep"):
        t = srv.create(game=game, seats=[{}, {"kind": "bot"}])
        page.goto(srv.url + t["invite"])
        page.wait_for_selector("#join-name")
        check(page, f"{game} table, a free seat", found)
        page.fill("#join-name", "Ada")
        page.click(".sit")
        page.wait_for_selector("#controls:not([hidden]) button")
        check(page, f"{game} table, my turn", found)
        if game == "dolly-crush":
            page.click("#controls .dogcard")
            page.wait_for_selector("#swaps-left")
            page.click("#flock .cell[data-cell='a1']")
            check(page, f"{game} table, swapping", found)

        page.goto(srv.url + f"/rules/{game}")
        page.wait_for_selector("main.rules svg")
        check(page, f"{game} rules", found)
        page.goto(srv.url + f"/learn/{game}")
        page.wait_for_selector("#lesson-start")
        check(page, f"{game} lesson start", found)
        start_lesson(page, srv.url, game, 3)
        page.wait_for_selector(".coach-target")
        check(page, f"{game} lesson", found)

    r = srv.http.post(
        "/api/gallery/shave-a-sheep",
        json={"name": "Short wool", "author": "ewe", "description": "less", "rules": {"wool": 12}},
    )
    assert r.status_code == 201, r.text
    page.goto(srv.url + "/gallery")
    page.click("#game-tabs button[data-game='shave-a-sheep']")
    page.wait_for_selector(".entry")
    check(page, "gallery", found)
    # a finished card, as the lab writes it (computing one takes minutes on a cold machine)
    store = srv.app.state.gallery.store
    store.set_lab(
        store.versions("shave-a-sheep", "short-wool")[0].id, status="done", progress=1.0, card=CARD
    )
    page.goto(srv.url + "/gallery/shave-a-sheep/short-wool")
    page.wait_for_selector("#lab .verdict")
    check(page, "a rule set's lab card", found)

    assert not found, "\n".join(f"{page}: {p}" for page, ps in found.items() for p in ps)
    assert not page.errors
