"""See what happened (issue 29): every change moves, in order, at a speed you can follow and skip
(static/motion.js). These tests turn reduced motion off (every other browser test runs with it
on: views show at once); one turns it on and sees nothing move.

No wall-clock budgets: the page records each view it shows (``SF_MOTION``: seq, the seat that
moved, kinds, start, end), and a test that must look at an animation while it runs pauses it first (the
predicate that finds it pauses it), so nothing depends on how fast this machine is."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import new_page, play_until_the_race

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
#: a server whose blocker bots wait for the test however slow the machine (no fallback move)
HELD = {"bot_delay": 0.05, "bot_deadline": 60.0}

#: the largest number of animations seen in any frame, and their ids
WATCH = """
window.SF_SEEN = { max: 0, ids: [] };
(function watch() {
  const all = document.getAnimations();
  window.SF_SEEN.max = Math.max(window.SF_SEEN.max, all.length);
  for (const a of all) { const id = a.id || a.animationName || "css"; if (window.SF_SEEN.ids.indexOf(id) < 0) window.SF_SEEN.ids.push(id); }
  requestAnimationFrame(watch);
})();
"""

#: true once an animation of motion.js runs; then every running one is paused where it is
FREEZE = """() => {
  const mine = document.getAnimations().filter((a) => a.id.startsWith("sf-"));
  if (!mine.length) return false;
  mine.forEach((a) => a.pause());
  return true;
}"""

MOTION = "() => document.getAnimations().filter((a) => a.id.startsWith('sf-')).map((a) => a.id)"


def seat_page(browser: Any, srv: Any, t: dict[str, Any], me: dict[str, Any], **opts: Any) -> Any:
    """Mia's page at her seat: motion on unless told (``motion``), at ``speed``."""
    page = new_page(browser, LAPTOP)
    page.emulate_media(reduced_motion=opts.get("motion", "no-preference"))
    page.add_init_script(f"localStorage.setItem('sheepfold:token:{t['id']}', {me['token']!r})")
    page.add_init_script(
        f"localStorage.setItem('sheepfold:motion-speed', {opts.get('speed', 'normal')!r})"
    )
    if opts.get("sound"):
        page.add_init_script("localStorage.setItem('sheepfold:sound', '1')")
    page.add_init_script(WATCH)
    page.goto(srv.url + t["invite"])
    page.wait_for_function(f"() => window.SF_LAST && window.SF_LAST.you === {me['seat']}")
    return page


def table_of(srv: Any, game: str, bots: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """``bots`` blocker bots (they play when the test lets them) first, then Mia."""
    seats = [{"kind": "bot", "bot": "blocker"}] * bots + [{}]
    t = srv.create(game=game, seats=seats, first_player=0, seed=11)
    me = srv.join(t["id"], "Mia", bots)
    me["seat"] = bots
    return t, me


def server_seq(srv: Any, ws_client: Any, table: str) -> int:
    return int(ws_client(f"{srv.ws_url}/ws/{table}").last_state["seq"])


def flock_of(view: dict[str, Any]) -> list[str | None]:
    return [c for row in view["flock"] for c in row]


def shown_flock(page: Any) -> list[str | None]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#flock .cell')].map((c) => c.dataset.code || null)"
    )


def wait_shown(page: Any, seq: int) -> None:
    """The page heard everything up to ``seq`` and has shown it, nothing still moving."""
    page.wait_for_function(
        f"() => window.SF_HEARD_SEQ === {seq} && window.SF_LAST.seq === {seq} && SF.motion.idle()"
    )


def bots_play_until_mine(srv: Any, blocker: Any, table: str, seat: int) -> Any:
    from polling import wait_until

    blocker.release.set()
    t = srv.manager.get(table)

    def mine() -> bool:  # Shave a Sheep: the seat's turn starts with its roll (a chance step)
        v = t.state.observe(None)
        return bool(v["turn"] == seat and v["to_move"] in (seat, "chance"))

    wait_until(mine, what="the bots' turns")
    return t


def test_a_bot_swap_slides_the_two_cards_then_the_board_is_the_servers(
    browser, make_server, ws_client, blocker, shots
):
    srv = make_server(**HELD)
    t, me = table_of(srv, "dolly-crush", 1)
    page = seat_page(browser, srv, t, me, speed="slow")
    assert page.evaluate("SF_MOTION.every((r) => !r.kinds.length)"), page.evaluate("SF_MOTION")
    table = bots_play_until_mine(srv, blocker, t["id"], 1)
    page.wait_for_function(FREEZE)  # the first move, paused where it is
    page.screenshot(path=str(shots / "motion-swap.png"))
    ids = page.evaluate(MOTION)
    assert "sf-swap" in ids and "sf-hold" in ids, ids
    swap = page.evaluate("SF_MOTION.filter((r) => r.kinds.length).at(-1)")
    assert swap["kinds"][0] == "swap" and swap["end"] is None  # still moving
    moving = page.evaluate(
        """() => document.getAnimations().filter((a) => a.id === "sf-swap")
             .map((a) => a.effect.target.dataset.cell)"""
    )
    # the real cards under them wait (hidden) until the moving ones land
    under = page.evaluate(
        """() => document.getAnimations().filter((a) => a.effect.target.closest("#flock"))
             .map((a) => a.effect.target.dataset.cell)"""
    )
    assert len(moving) == 2 and set(moving) <= set(under), (moving, under)
    page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
    seq = server_seq(srv, ws_client, t["id"])
    wait_shown(page, seq)
    assert page.evaluate(MOTION) == []
    assert page.locator(".motion-layer > *").count() == 0  # no clone left behind
    assert shown_flock(page) == flock_of(table.state.observe(1))
    assert page.evaluate("SF_LAST.view.to_move") == 1
    assert page.locator("#controls .dogcard").count() > 0  # my turn, ready to play
    assert not page.errors


@pytest.mark.parametrize("how", ["button", "key", "board"])
def test_skip_ends_every_animation_at_once(browser, make_server, ws_client, blocker, how):
    srv = make_server(**HELD)
    t, me = table_of(srv, "dolly-crush", 2)
    page = seat_page(browser, srv, t, me, speed="slow")
    table = bots_play_until_mine(srv, blocker, t["id"], 2)
    page.wait_for_function(FREEZE)  # held: the rest of the bots' turns wait behind it
    seq = server_seq(srv, ws_client, t["id"])
    page.wait_for_function(f"() => window.SF_HEARD_SEQ === {seq}")
    assert page.evaluate("SF_LAST.seq") < seq and page.locator("#skip-motion").is_visible()
    if how == "button":
        page.click("#skip-motion")
    elif how == "key":
        page.keyboard.press("Escape")
    else:
        page.click("#flock")
    assert page.evaluate(MOTION) == []
    assert page.evaluate("SF_LAST.seq") == seq and page.evaluate("SF.motion.idle()")
    assert shown_flock(page) == flock_of(table.state.observe(2))
    assert page.locator("#skip-motion").is_hidden()
    assert page.evaluate("SF_MOTION.some((r) => r.skipped)")
    assert not page.errors


def test_reduced_motion_moves_nothing(browser, make_server, ws_client, blocker):
    srv = make_server(**HELD)
    t, me = table_of(srv, "dolly-crush", 2)
    page = seat_page(browser, srv, t, me, motion="reduce", speed="slow")
    table = bots_play_until_mine(srv, blocker, t["id"], 2)
    wait_shown(page, server_seq(srv, ws_client, t["id"]))
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    assert page.evaluate("SF_SEEN") == {"max": 0, "ids": []}
    assert page.evaluate("SF_MOTION.every((r) => !r.kinds.length)"), page.evaluate("SF_MOTION")
    assert len(page.evaluate("SF_MOTION")) >= 3  # every view shown, at once
    assert shown_flock(page) == flock_of(table.state.observe(2))
    assert not page.errors


def test_three_bot_turns_play_one_after_another(browser, make_server, ws_client, blocker):
    srv = make_server(**HELD)
    t, me = table_of(srv, "dolly-crush", 3)
    page = seat_page(browser, srv, t, me, speed="fast")
    table = bots_play_until_mine(srv, blocker, t["id"], 3)
    wait_shown(page, server_seq(srv, ws_client, t["id"]))
    moved = page.evaluate("SF_MOTION.filter((r) => r.kinds.length)")
    runs: list[int] = []  # the seats, in the order their moves played
    for r in moved:
        if not runs or runs[-1] != r["seat"]:
            runs.append(r["seat"])
    assert runs == [0, 1, 2], moved
    for before, after in zip(moved, moved[1:], strict=False):
        assert after["start"] >= before["end"], (before, after)  # one after another
    assert not any(r.get("skipped") for r in moved)
    assert shown_flock(page) == flock_of(table.state.observe(3))
    assert not page.errors


#: Shave a Sheep, seat 0's first roll: seed 1 white/green (she grows), seed 0 gray/green (she sends the wolf)
SHAVE = [(1, "grow", "sf-wool", "wool"), (0, "wolf seat 1", "sf-wolf", "wolf")]


@pytest.mark.parametrize(("seed", "action", "anim", "kind"), SHAVE)
def test_shave_a_sheep_rolls_the_die_then_wool_or_wolf_moves(
    browser, make_server, ws_client, blocker, shots, seed, action, anim, kind
):
    """Mia rolls and plays: the die tumbles, then a wool piece flies from the middle onto her
    sheep, or the wolf walks to the other sheep."""
    srv = make_server(**HELD)
    t = srv.create(
        game="shave-a-sheep",
        seats=[{}, {"kind": "bot", "bot": "blocker"}],
        first_player=0,
        seed=seed,
    )
    me = srv.join(t["id"], "Mia", 0)
    me["seat"] = 0
    page = seat_page(browser, srv, t, me, speed="slow")
    page.click("#roll")
    page.wait_for_function(FREEZE)
    assert page.evaluate(MOTION) == ["sf-roll"]
    page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
    page.wait_for_function("() => SF.motion.idle()")
    page.click(f".act[data-action='{action}']")
    page.wait_for_function(FREEZE)
    page.screenshot(path=str(shots / f"motion-{kind}.png"))
    assert set(page.evaluate(MOTION)) == {anim}
    page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
    # the bot's turn goes on (a face with one action plays itself): all of it shown, in turn
    page.wait_for_function("() => SF.motion.idle() && SF_LAST.seq === SF_HEARD_SEQ")
    kinds = [k for r in page.evaluate("SF_MOTION") for k in r["kinds"]]
    assert kinds[:2] == ["roll", kind], kinds  # (then the bot rolls: it thinks until released)
    assert page.locator("#middle").inner_text() == str(page.evaluate("SF_LAST.view.middle"))
    assert page.locator(".motion-layer > *").count() == 0
    assert not page.errors


def test_sound_is_off_until_turned_on_and_remembered(browser, make_server, ws_client, blocker):
    srv = make_server(**HELD)
    t, me = table_of(srv, "dolly-crush", 1)
    page = seat_page(browser, srv, t, me, speed="fast")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('sheepfold:sound')") is None
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('sheepfold:sound')") == "1"
    page.reload()
    page.wait_for_function("() => window.SF_LAST && window.SF_LAST.you === 1")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    bots_play_until_mine(srv, blocker, t["id"], 1)
    wait_shown(page, server_seq(srv, ws_client, t["id"]))
    page.wait_for_function("() => (window.SF_SOUNDS || []).includes('turn')")
    assert "swap" in page.evaluate("SF_SOUNDS")
    page.locator("#sound-toggle").click()  # off again: nothing more is heard
    assert page.evaluate("localStorage.getItem('sheepfold:sound')") is None
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert not page.errors


def test_speed_is_remembered(browser, live_server):
    t = live_server.create(game="dolly-crush", seats=[{}, {}])
    page = new_page(browser, LAPTOP)
    page.goto(live_server.url + t["invite"])
    page.wait_for_selector("#motion-speed")
    assert page.locator("#motion-speed").input_value() == "normal"
    page.select_option("#motion-speed", "slow")
    page.reload()
    page.wait_for_selector("#motion-speed")
    assert page.locator("#motion-speed").input_value() == "slow"
    assert not page.errors


#: every animation of motion.js paused the moment it starts: this page's queue never moves on
HOLD = """
(function hold() {
  document.getAnimations().filter((a) => a.id.startsWith("sf-")).forEach((a) => a.pause());
  requestAnimationFrame(hold);
})();
"""


def test_a_howling_wolf_race_shows_at_once_whatever_is_moving(browser, make_server):
    """The race is fair only if everyone sees it open: a page still showing earlier moves (here
    held still for good) shows the race the moment it is told."""
    from test_web_browser import last, sit

    srv = make_server(bot_delay=0.05, race_timeout=30.0)
    t = srv.create(game="shave-a-sheep", ruleset="howling-wolf", seats=[{}, {}], seed=1)
    url = srv.url + t["invite"]
    pages = [new_page(browser), new_page(browser)]  # the players: reduced motion
    sit(pages[0], url, "Ann", 0)
    sit(pages[1], url, "Ben", 1)
    watcher = new_page(browser, LAPTOP)
    watcher.emulate_media(reduced_motion="no-preference")
    watcher.add_init_script(HOLD)
    watcher.goto(url)
    watcher.wait_for_function("() => window.SF_LAST")
    play_until_the_race(pages)
    seq = last(pages[0])["seq"]
    watcher.wait_for_function(f"() => window.SF_HEARD_SEQ === {seq}")
    assert watcher.evaluate("SF_LAST.view.phase") == "grab"
    assert watcher.evaluate("SF_MOTION.some((r) => r.skipped)")  # it was held, then skipped
    assert not watcher.errors
