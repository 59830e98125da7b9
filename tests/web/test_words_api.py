"""Plain words from the server (issue 29, "Plain words"; issue 27: the house rules in the games'
own words): a table's house rules, the rule sets and bot levels the lobby offers, the perfect
bot's wait before a table opens, the gallery's differences made at read time, the lab card's
lead sentence, and the log's words at a game's end."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from sheepfold.server.limits import Rate

ID = re.compile(r"\b[a-z0-9]+(?:[_-][a-z0-9]+)+\b")  # snake_case or a hyphenated id


@pytest.fixture
def srv(make_server: Any) -> Any:
    return make_server(lab_workers=0, create_rate=Rate(0, 0), max_open_tables=0)


def rules_of(srv: Any, **spec: Any) -> dict[str, Any]:
    t = srv.create(seats=[{}, {}], **spec)
    r = srv.http.get(f"/api/tables/{t['id']}/rules")
    assert r.status_code == 200, r.text
    return r.json()


# -- a table's house rules -------------------------------------------------------------------
def test_a_default_dolly_table_says_its_dog_cards_in_words(srv: Any) -> None:
    words = rules_of(srv, game="dolly-crush")
    assert words["ruleset"] == "Graded"
    [line] = words["house_rules"]
    assert "Pastore Maremmano 1, 2, 3, 4 swaps" in line
    assert "dog_swaps" not in line and "pastore-maremmano" not in line


def test_a_shave_table_says_its_house_rules(srv: Any) -> None:
    assert rules_of(srv, game="shave-a-sheep")["house_rules"] == []
    words = rules_of(srv, game="shave-a-sheep", ruleset="race-to-twelve", rules={"max_turns": 80})
    lines = words["house_rules"]
    assert words["ruleset"] == "Race to Twelve"
    assert any("a safe pile holds 12 pieces" in x for x in lines)
    assert any("you may roll again once a turn" in x for x in lines)
    # an option no part of the game describes: its description, never its key
    assert "Simulations only: stop and report a truncated game: 80." in lines
    assert not [x for x in lines if "max_turns" in x or "rerolls" in x]


def test_a_rule_of_its_own_is_said_once_in_the_games_words(srv: Any) -> None:
    steal = {
        "die": ["white", "x2", "white/pink", "white/green", "gray/pink", "steal"],
        "verbs": {
            "steal": {
                "choose": "another player",
                "effects": [{"move": 1, "from": "target pile", "to": "my pile"}],
            }
        },
    }
    lines = rules_of(srv, game="shave-a-sheep", rules=steal)["house_rules"]
    assert len(lines) == 2, lines  # the die, the verb: no line per option on top
    assert lines[1].startswith("steal: none → choose another player: take one piece")


def test_house_rules_are_made_once_per_rule_set() -> None:
    from sheepfold.server.plain_words import _house_rules, house_rules

    _house_rules.cache_clear()
    for _ in range(3):
        house_rules("shave-a-sheep", {"wool": 20})
    assert _house_rules.cache_info().hits == 2


# -- what the lobby offers ---------------------------------------------------------------------
@pytest.mark.parametrize("game", ["dolly-crush", "shave-a-sheep"])
def test_the_rule_editor_describes_its_options_in_words(srv: Any, game: str) -> None:
    """An option's description that names another option says its label, not its key
    (Dolly Crush's combinations once read "colour by match_colour"), and so do the words for
    an option left unset, also after a check."""
    spec = srv.http.get(f"/api/rules/{game}").json()
    texts: list[str] = []

    def walk(ctl: dict[str, Any]) -> None:
        texts.extend(ctl.get(k) or "" for k in ("description", "about"))
        for sub in (*ctl.get("fields", ()), ctl.get("item"), ctl.get("value")):
            if sub:
                walk(sub)

    for f in spec["fields"]:
        walk(f)
    checked = srv.http.post(f"/api/rules/{game}/check", json={}).json()
    texts += [meaning for meaning, _ in (*spec["unset"].values(), *checked["unset"].values())]
    keys = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
    assert [t for t in texts if keys.search(t)] == []
    said = " ".join(texts)
    if game == "dolly-crush":
        assert "of one colour when \u201cMatch colour\u201d is set" in said
    else:
        assert "at most \u201cMax wool\u201d" in said and "cutting costs variant" in said


def test_the_lobby_offers_rule_sets_and_bots_in_words(srv: Any) -> None:
    games = srv.http.get("/api/games").json()
    for g in games.values():
        offered = [r for r in g["rulesets"] if not r["rulebook"]]
        assert all(not ID.search(r["title"]) for r in offered), offered
        assert all(r["title"][0].isupper() for r in offered)
        for level in g["levels"]:
            assert level["about"].endswith(".") and ":" not in level["title"]
            assert "=" not in level["about"]
        assert "best-response" not in [lv["name"] for lv in g["levels"]]
    dolly = games["dolly-crush"]
    # the printed edition is "the rulebook" itself: not offered a second time
    assert [r["name"] for r in dolly["rulesets"] if r["rulebook"]] == ["dolly-rulebook"]
    assert [lv["name"] for lv in dolly["levels"]] == ["random", "easy", "medium", "hard", "expert"]
    assert [lv["title"] for lv in games["shave-a-sheep"]["levels"]] == [
        "Random",
        "Greedy",
        "Perfect",
    ]
    assert "best-response" in games["shave-a-sheep"]["bots"]  # programs still find it


def test_the_perfect_bot_says_its_wait_before_the_table_opens(srv: Any) -> None:
    def ready(n: int, bot: str = "perfect", **extra: Any) -> dict[str, Any]:
        seats = [{"kind": "bot", "bot": bot}] * n
        r = srv.http.post("/api/tables/ready", json={"game": "shave-a-sheep", "seats": seats})
        assert r.status_code == 200, r.text
        return r.json()

    assert ready(2, "greedy") == {"ready": True, "wait": None, "message": ""}
    two = ready(2)
    assert two["ready"] is False and two["wait"] >= 1
    assert f"about {two['wait']} s" in two["message"]
    assert srv.manager.solutions.job is None  # only asked: nothing started
    three = ready(3)
    assert three["ready"] is False and three["wait"] is None
    assert "cannot play 3 players" in three["message"] and "1,465,695" not in three["message"]
    assert srv.manager.tables == {}  # nothing opened


def test_the_readiness_check_is_bounded(srv: Any) -> None:
    bad = srv.http.post("/api/tables/ready", json={"game": "shave-a-sheep", "seats": [{}]})
    assert bad.status_code == 422 and "seats" in bad.json()["detail"]
    big = srv.http.post(
        "/api/tables/ready", content=b"{" + b" " * 80_000 + b"}", headers={"content-type": "x"}
    )
    assert big.status_code == 413


# -- the gallery ------------------------------------------------------------------------------
def test_an_old_gallery_version_is_read_in_todays_words(srv: Any) -> None:
    from sqlalchemy import update

    from sheepfold.server.storage import versions_t

    r = srv.http.post(
        "/api/gallery/dolly-crush",
        json={"name": "Long Lines", "author": "Mia", "rules": {"min_line": 4}},
    )
    assert r.status_code == 201, r.text
    store = srv.app.state.gallery.store
    v = store.version("dolly-crush", "long-lines", 1)
    stored = ["min_line (the shortest line that counts): 3 → 4"]  # as published before words
    with srv.manager.storage.transaction() as c:
        c.execute(update(versions_t).where(versions_t.c.id == v.id).values(differences=stored))
    entry = srv.http.get("/api/gallery/dolly-crush/long-lines/1").json()
    assert entry["stored_differences"] == stored  # nothing lost
    [line] = entry["differences"]
    assert "a line of 4 or more cards" in line and "min_line" not in line
    found = srv.http.get("/api/gallery/dolly-crush", params={"q": "shortest line"}).json()
    assert [e["slug"] for e in found["entries"]] == ["long-lines"]  # the stored text searched
    t = srv.http.post(
        "/api/tables",
        json={
            "game": "dolly-crush",
            "gallery": {"slug": "long-lines", "version": 1},
            "seats": [{}, {}],
        },
    ).json()
    assert t["house"]["differences"] == [line]


def test_a_lab_card_is_led_by_one_plain_sentence() -> None:
    from sheepfold.server.gallery import headline

    length = {"key": "length_mean", "rel": -0.206, "significant": True}
    even = {"key": "balance", "diff": 0.01, "significant": False}
    assert headline([length, even]) == (
        "With these rules games get 21% shorter, and every seat wins about as often as with "
        "the rulebook."
    )
    worse = {"key": "balance", "diff": -0.2, "significant": True}
    same = {"key": "length_mean", "rel": 0.01, "significant": False}
    assert headline([same, worse]) == (
        "With these rules games last about as long, but the seats win less evenly than with "
        "the rulebook."
    )
    # a card without one of the two figures gets no sentence: it would claim what it never
    # measured ("about as long" of a length it has not)
    assert headline([worse]) is None and headline([length]) is None


# -- the log at a game's end --------------------------------------------------------------------
class _Ended:
    """A state whose next action ends the game with these winners."""

    def __init__(self, winners: list[int]) -> None:
        self.winners_ = winners
        self.over = False

    def clone(self) -> _Ended:
        return _Ended(self.winners_)

    def is_terminal(self) -> bool:
        return self.over

    def winners(self) -> list[int]:
        return self.winners_

    def action_to_string(self, action: int) -> str:
        return f"move {action}"


def _log_of(winners: list[int]) -> list[str]:
    from sheepfold.server.events import EventLog

    def narrate(probe: _Ended, who: int, action: int, show: bool, after: Any = None) -> list[Any]:
        probe.over = True
        return []

    names = ["Mia", "Leo"]
    table = SimpleNamespace(
        state=_Ended(winners),
        driver=SimpleNamespace(narrate=narrate),
        show_scores=True,
        seating=SimpleNamespace(who=lambda s: names[s]),
    )
    log = EventLog(table)  # type: ignore[arg-type]
    log.describe([(0, 0)])
    return [e["text"] for e in log.events]


def test_a_tie_is_a_tie_in_the_log() -> None:
    assert _log_of([0, 1]) == ["game over: a tie between Mia and Leo"]
    assert _log_of([1]) == ["game over: Leo won!"]


def test_the_final_shear_is_in_the_log() -> None:
    import random

    from sheepfold.core.drivers import table_driver
    from sheepfold.core.protocol import CHANCE
    from sheepfold.games import make

    game = make("shave-a-sheep", players=2)
    driver = table_driver("shave-a-sheep")
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    notes: list[Any] = []
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        notes = driver.narrate(state, who, action, True)
    assert notes[-1] == (
        None,
        "the game ends: the final shear moves the wool of every sheep onto its safe pile",
    )


def test_names_become_words() -> None:
    from sheepfold.server.plain_words import level_title, ruleset_title, value_words

    assert ruleset_title("dolly-crush", "dolly-graded") == "Graded"
    assert ruleset_title("shave-a-sheep", "my-friend-mr-wolf") == "My Friend Mr Wolf"
    assert ruleset_title("shave-a-sheep", "shave") == "Shave"  # never empty
    assert level_title("expert:iterations=2000,time=0.5") == "Expert"
    assert level_title("best-response:policy.npz") == "a bot"
    assert value_words({"border-collie": [1, 2], "on": True}) == "border collie: 1, 2; on: yes"
    assert value_words([1.0, 2.5]) == "1, 2.5"
