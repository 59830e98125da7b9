"""The lobby's rule editor builds the rule language's parts in the browser: a verb of one's own
with an effect, the server's message next to the very field it names, the fix, a die face that
names the verb, and a table that plays it."""

from __future__ import annotations

import pytest

from sheepfold.games import parse_rules

pytestmark = pytest.mark.browser


def test_add_a_verb_with_an_effect_fix_it_and_play_it(browser, live_server, shots):
    from playwright.sync_api import expect
    from test_web_browser import new_page

    page = new_page(browser)
    page.goto(live_server.url)
    page.click("#game-choice [data-game='shave-a-sheep']")
    page.click("#rules-editor summary")
    field = lambda where: page.locator(f"[data-field='{where}']")  # noqa: E731
    error = lambda where: field(where).locator(":scope > .field-error")  # noqa: E731
    # labels are words, never the model's keys
    expect(field("max_wool").locator(":scope > label")).to_have_text("Max wool")
    expect(field("verbs").locator(":scope > legend")).to_have_text("Verbs")

    # a verb of one's own: named, then added
    field("verbs").locator(":scope > .rule-add input").fill("steal")
    field("verbs").locator(":scope > .rule-add button").click()
    expect(field("verbs.steal")).to_be_visible()
    expect(error("verbs.steal")).to_contain_text("a verb needs effects")
    field("verbs.steal.choose").locator("select").select_option(label="another player")
    # one effect, its place mistyped
    field("verbs.steal.effects").locator(":scope > button[data-act='add']").click()
    effect = "verbs.steal.effects.0"
    expect(field(effect)).to_be_visible()
    field(f"{effect}.move").locator("input").fill("1")
    field(f"{effect}.from").locator("input").fill("target pocket")
    field(f"{effect}.to").locator("input").fill("my pile")
    # the message is the server's, next to the field it names, and nowhere else
    bad = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        json={
            "verbs": {
                "steal": {
                    "choose": "another player",
                    "effects": [{"move": 1, "from": "target pocket", "to": "my pile"}],
                }
            }
        },
    ).json()
    said = next(e["message"] for e in bad["errors"] if e["where"] == f"{effect}.from")
    expect(error(f"{effect}.from")).to_have_text(said)
    expect(error(f"{effect}.to")).to_be_empty()
    expect(page.locator("#create-btn")).to_be_disabled()
    page.screenshot(path=str(shots / "rules-editor-verb.png"), full_page=True)
    # fixed: the next problem is the verb's, at the verb (no face shows it)
    field(f"{effect}.from").locator("input").fill("target pile")
    expect(error(f"{effect}.from")).to_be_empty()
    expect(error("verbs.steal")).to_contain_text("no face of the die shows it")
    # the die: the faces in use, and one more that names the verb
    field("die").locator(":scope > .rule-tools button[data-act='example']").click()
    expect(field("die.5").locator("input")).to_have_value("gray/green")
    field("die").locator(":scope > button[data-act='add']").click()
    field("die.6").locator("input").fill("steal")
    expect(error("verbs.steal")).to_be_empty()
    expect(page.locator("#rules-state")).to_have_text("✓ these rules can be played")
    expect(page.locator("#create-btn")).to_be_enabled()

    # the table plays them
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    steal = {
        "choose": "another player",
        "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
    }
    die = [*table.game.rules.faces[:-1], "steal"]
    assert table.game.rules == parse_rules("shave-a-sheep", {"die": die, "verbs": {"steal": steal}})
    assert table.game.program.faces[-1].verbs == ("steal",)
    # the table says the new face and its verb in the game's words
    expect(
        page.locator("#house-rules li", has_text="steal: none → choose another player")
    ).to_be_visible()
    assert not page.errors


def test_lists_reorder_and_unset_parts_go_away(browser, live_server):
    """Rows move up and down and are removed; a part removed is unset again (null), and the
    rules that remain are the rulebook's."""
    from playwright.sync_api import expect
    from test_web_browser import new_page

    page = new_page(browser)
    page.goto(live_server.url)
    page.click("#game-choice [data-game='shave-a-sheep']")
    page.click("#rules-editor summary")
    field = lambda where: page.locator(f"[data-field='{where}']")  # noqa: E731
    for face in ("white", "x2"):
        field("die").locator(":scope > button[data-act='add']").click()
        field(f"die.{page.locator('[data-field=die] .rule-row').count() - 1}").locator(
            "input"
        ).fill(face)
    field("die.1").locator("button[data-act='up']").click()
    expect(field("die.0").locator("input")).to_have_value("x2")
    expect(field("die.1").locator("input")).to_have_value("white")
    expect(page.locator("#create-btn")).to_be_enabled()
    # a part set, then removed: unset again
    field("end").locator(":scope > .rule-tools button[data-act='set']").click()
    field("end.turns_each").locator("input").fill("30")
    expect(page.locator("#create-btn")).to_be_enabled()
    field("end").locator(":scope > .rule-tools button[data-act='unset']").click()
    expect(field("end.turns_each")).to_have_count(0)
    for _ in range(2):
        field("die.0").locator("button[data-act='remove']").click()
    expect(field("die").locator(".rule-row")).to_have_count(0)
    expect(page.locator("#rules-state")).to_have_text("✓ these rules can be played")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    assert table.game.rules.end is None and table.game.rules.die is None
    assert not page.errors
