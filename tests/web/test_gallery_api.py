"""The rule-set gallery's HTTP API (server/gallery.py): publishing and versions, browsing,
hostile input, limits, try-it tables with their house, votes, lab cards, and a restart.

Every server here is a live uvicorn on port 0 (tests/web/conftest.py). Lab cards are made
small (``lab_games``) and are awaited by polling, never by sleeping; servers that do not need
cards run none (``lab_workers=0``: their cards stay queued).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from polling import wait_until
from sheepfold.core.words import from_data
from sheepfold.server.gallery import MAX_PUBLISH
from sheepfold.server.limits import Rate

GAME = "shave-a-sheep"
#: tables made and finished quickly: no limits, and a bot stands in at once for a person who left
NO_LIMITS = dict(create_rate=Rate(0, 0), join_rate=Rate(0, 0), max_open_tables=0, leave_grace=0.05)
QUICK = {"wool": 12}  # a short game: quick cards, quick tables, a small exact solve


def publish(srv: Any, name: str = "Short wool", rules: Any = None, **kw: Any) -> Any:
    body = {"name": name, "author": "ewe", "description": "less wool", "rules": rules or QUICK}
    return srv.http.post(f"/api/gallery/{GAME}", json={**body, **kw})


def published(srv: Any, name: str = "Short wool", rules: Any = None, **kw: Any) -> dict[str, Any]:
    r = publish(srv, name, rules, **kw)
    assert r.status_code == 201, r.text
    return r.json()


def entry(srv: Any, slug: str, version: int | None = None) -> dict[str, Any]:
    path = f"/api/gallery/{GAME}/{slug}" + (f"/{version}" if version else "")
    r = srv.http.get(path)
    assert r.status_code == 200, r.text
    return r.json()


def lab_done(srv: Any, slug: str, version: int = 1, status: str = "done") -> dict[str, Any]:
    lab = wait_until(
        lambda: (
            (e := entry(srv, slug, version)["lab"])["status"] not in ("queued", "running") and e
        ),
        what=f"the lab card of {slug} v{version}",
        timeout=300,  # a cold numba cache compiles the kernels first (minutes, once)
    )
    assert lab["status"] == status, lab
    return lab


def finished_table(srv: Any, ws_client: Any, slug: str, version: int = 1) -> tuple[str, str]:
    """A finished table of a gallery rule set: (its id, the token of the person's seat). The
    person connects and goes away; a greedy bot stands in for them to the end."""
    t = srv.create(
        game=GAME,
        gallery={"slug": slug, "version": version},
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        replacement_bot="greedy",
        auto_roll=True,
        seed=3,
    )
    token = srv.join(t["id"], "Ann")["token"]
    ws_client(f"{srv.ws_url}/ws/{t['id']}", token).close()
    wait_until(
        lambda: srv.http.get(f"/api/tables/{t['id']}").json()["finished"],
        what="the stand-in to finish the game",
    )
    return t["id"], token


# -- publishing --------------------------------------------------------------------------------
def test_publish_then_versions_with_the_token_and_older_versions_stay(make_server):
    srv = make_server(lab_workers=0)
    first = published(srv, "Short Wool!")
    assert first["slug"] == "short-wool" and first["version"] == 1
    assert first["url"] == f"/gallery/{GAME}/short-wool" and len(first["token"]) >= 24
    assert published(srv, "short  wool")["slug"] == "short-wool-2"  # a clash takes -2

    new = srv.http.post(
        f"/api/gallery/{GAME}/short-wool/versions",
        json={"token": first["token"], "rules": {"wool": 14}},
    )
    assert new.status_code == 201 and new.json()["version"] == 2
    wrong = srv.http.post(
        f"/api/gallery/{GAME}/short-wool/versions", json={"token": "nope", "rules": {"wool": 9}}
    )
    assert wrong.status_code == 403 and "token" in wrong.json()["detail"]

    e = entry(srv, "short-wool")
    assert (e["version"], e["name"], e["author"], e["description"]) == (
        2,
        "Short Wool!",
        "ewe",
        "less wool",
    )
    assert [v["version"] for v in e["versions"]] == [1, 2]
    assert e["changes"] == ["wool"] and e["differences"] == [  # the game's words (words.py)
        "setup: 30 pieces of wool in play, a sheep carries at most five pieces → 14 pieces of "
        "wool in play, a sheep carries at most five pieces"
    ]
    assert "token" not in json.dumps(e)
    v1 = entry(srv, "short-wool", 1)
    assert v1["rules"]["wool"] == 12 and v1["options"] == {"wool": 12} and "token" not in v1
    # one card per rule set waits: version 2's took the place of version 1's
    assert v1["lab"]["status"] == "skipped" and "version 2 took its place" in v1["lab"]["message"]
    assert e["lab"]["status"] == "queued" and e["lab"]["position_in_queue"] >= 1
    assert srv.http.get(f"/api/gallery/{GAME}/short-wool/9").status_code == 404
    assert srv.http.get(f"/api/gallery/{GAME}/nothing").status_code == 404
    assert srv.http.get("/api/gallery/chess").status_code == 404


#: a race to twelve without its shear cost and its reroll: nearer the rulebook than its base
FROM_RACE = {"from": "race-to-twelve", "shear_cost": 0, "rerolls": 0}


def test_a_rule_set_is_described_and_measured_against_the_base_it_names(make_server, monkeypatch):
    """Rules published with their ``from`` keep that base: their differences, the page's base
    and the lab card's base are it, not the closest rule set (the rulebook here); rules that
    name none, and versions, are described against the closest as before."""
    srv = make_server(lab_workers=0)
    published(srv, "No costs", FROM_RACE)
    e = entry(srv, "no-costs", 1)
    assert e["base"] == "the race to twelve rules"
    # the rules: the base's, with the changes the request gave
    assert e["options"]["target"] == 12 and "rerolls" not in e["options"]
    assert any(d.startswith("rolling again: you may roll again") for d in e["differences"])
    assert e["changes"] == ["shearing", "die"]  # its target is the base's: not a change
    v = srv.app.state.gallery.store.version(GAME, "no-costs", 1)
    assert v.base == "race-to-twelve"
    spec = srv.app.state.gallery.lab._spec(v.id)  # what the lab card plays the rules against
    assert from_data(spec["base_words"]) == "the race to twelve rules"
    assert spec["base"] == {"shear_cost": 1, "target": 12, "rerolls": 1}
    import sheepfold.lab.runner as lab_runner
    from sheepfold.lab import card

    monkeypatch.setattr(lab_runner, "resolve_engine", lambda job: "engine")  # no kernel to compile
    made = card.card({**spec, "games": 4, "exact_limit": 0}, progress=lambda _: None)["card"]
    assert from_data(made["base"]) == "the race to twelve rules"
    assert "the race to twelve rules" in from_data(made["verdict"])  # measured against it
    # the same rules without their base: the closest, the rulebook
    plain = published(srv, "No costs either", {"target": 12})
    e2 = entry(srv, plain["slug"])
    assert (
        e2["base"] == "the rulebook"
        and srv.app.state.gallery.store.version(GAME, plain["slug"], 1).base is None
    )
    # a new version names its own base, or none
    token = published(srv, "Costs", FROM_RACE)["token"]
    url = f"/api/gallery/{GAME}/costs/versions"
    assert srv.http.post(url, json={"token": token, "rules": {"wool": 14}}).status_code == 201
    assert entry(srv, "costs")["base"] == "the rulebook"
    assert entry(srv, "costs", 1)["base"] == "the race to twelve rules"
    bad = publish(srv, "Nowhere", {"from": "no-such-rules", "wool": 3})
    assert bad.status_code == 422 and "no-such-rules" in bad.json()["detail"]
    # a base this server no longer has (a rule set of its folder, since removed): the closest
    from sheepfold.server.gallery import base_of

    assert base_of(GAME, {"wool": 12}, "gone-rules") == ("rulebook", "the rulebook")


def test_list_searches_filters_and_sorts(make_server, ws_client):
    srv = make_server(lab_workers=0, **NO_LIMITS)
    published(srv, "Little wool", {"wool": 12}, description="quick games")
    published(srv, "Loaded die", {"die": ["white", "white", "x2", "gray/pink"]}, author="ram")
    published(srv, "Greedy wolf", {"wolf_to": "roller", "wool": 12})
    finished_table(srv, ws_client, "greedy-wolf")

    def slugs(**params: Any) -> list[str]:
        r = srv.http.get(f"/api/gallery/{GAME}", params=params)
        assert r.status_code == 200, r.text
        return [e["slug"] for e in r.json()["entries"]]

    listing = srv.http.get(f"/api/gallery/{GAME}").json()
    assert {"wool", "die", "wolf", "end"} <= set(listing["categories"])
    assert slugs() == ["greedy-wolf", "loaded-die", "little-wool"]  # newest first
    assert slugs(q="QUICK") == ["little-wool"]  # the description, any case
    assert slugs(q="ram") == ["loaded-die"]  # the author
    assert slugs(changes="wool") == ["greedy-wolf", "little-wool"]
    assert slugs(changes="wool,wolf") == ["greedy-wolf"]
    assert slugs(sort="played")[0] == "greedy-wolf"
    assert slugs(limit=1) == ["greedy-wolf"]
    played = srv.http.get(f"/api/gallery/{GAME}").json()["entries"][0]
    assert (played["played"], played["finished"]) == (1, 1)
    for bad in ({"sort": "best"}, {"changes": "colour"}, {"limit": 0}, {"q": "x" * 101}):
        r = srv.http.get(f"/api/gallery/{GAME}", params=bad)
        assert r.status_code == 400 and isinstance(r.json()["detail"], str), bad


# -- hostile input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"rules": {"wool": -1}}, "rules: wool"),
        ({"rules": {"woll": 3}}, "woll"),
        ({"rules": {"game": "dolly-crush"}}, "not shave-a-sheep"),
        ({"rules": {"die": ["white", "purple"]}}, "die"),
        ({"name": ""}, "name"),
        ({"name": "x" * 49}, "name"),
        ({"author": "a" * 33}, "author"),
        ({"description": "d" * 501}, "description"),
        ({"name": "bell\x07"}, "U+0007"),
        ({"author": "evil\u202eeve"}, "U+202E"),
        ({"name": "two\nlines"}, "U+000A"),
        ({"extra": 1}, "extra"),
    ],
)
def test_bad_publishes_are_refused_with_the_reason(make_server, body, says):
    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0))
    r = publish(srv, **body) if "rules" not in body else publish(srv, rules=body["rules"])
    assert r.status_code == 422, r.text
    assert says in r.json()["detail"]
    assert srv.http.get(f"/api/gallery/{GAME}").json()["entries"] == []


def test_hostile_text_is_stored_verbatim_and_never_put_in_a_page(make_server):
    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0))
    names = ['<script>alert("x")</script>', 'Tom\'s "best" & <b>', "羊の毛 🐑 é"]
    for name in names:
        published(srv, name, description=f"<img src=x onerror=alert(1)> {name}")
    entries = srv.http.get(f"/api/gallery/{GAME}").json()["entries"]
    assert sorted(e["name"] for e in entries) == sorted(names)
    assert {e["slug"] for e in entries} == {"script-alert-x-script", "tom-s-best-b", "e"}
    for e in entries:
        page = srv.http.get(e["url"])
        assert "<script>alert" not in page.text and "onerror" not in page.text
    big = srv.http.post(
        f"/api/gallery/{GAME}",
        content=json.dumps({"name": "big", "author": "a", "rules": {"x": "y" * MAX_PUBLISH}}),
        headers={"content-type": "application/json"},
    )
    assert big.status_code == 413


# -- limits ----------------------------------------------------------------------------------
def test_publishing_is_rate_limited_and_capped(make_server):
    srv = make_server(lab_workers=0, publish_rate=Rate(0.001, 2))
    published(srv, "one")
    published(srv, "two")
    r = publish(srv, "three")
    assert r.status_code == 429 and "try again in" in r.json()["detail"]

    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0), gallery_per_day=1)
    first = published(srv, "one")
    r = publish(srv, "two")
    assert r.status_code == 429 and "24 hours" in r.json()["detail"]

    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0), gallery_max_versions=2)
    first = published(srv, "one")
    url = f"/api/gallery/{GAME}/one/versions"
    assert srv.http.post(url, json={"token": first["token"], "rules": QUICK}).status_code == 201
    r = srv.http.post(url, json={"token": first["token"], "rules": QUICK})
    assert r.status_code == 409 and "2 versions" in r.json()["detail"]

    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0), lab_queue_max=1)
    published(srv, "one")
    r = publish(srv, "two")
    assert r.status_code == 503 and "lab queue is full" in r.json()["detail"]
    assert [e["slug"] for e in srv.http.get(f"/api/gallery/{GAME}").json()["entries"]] == ["one"]


# -- tables, votes, records ------------------------------------------------------------------
def test_a_table_plays_a_published_version_and_says_so_everywhere(make_server, ws_client, tmp_path):
    from typer.testing import CliRunner

    from sheepfold.cli.main import app as cli
    from sheepfold.core.records import replay

    srv = make_server(lab_workers=0, **NO_LIMITS)
    published(srv, "Little wool")
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    both = srv.http.post(
        "/api/tables",
        json={
            "game": GAME,
            "gallery": {"slug": "little-wool", "version": 1},
            "rules": {"wool": 5},
            "seats": seats,
        },
    )
    assert both.status_code == 400 and "not both" in both.json()["detail"]
    missing = srv.http.post(
        "/api/tables",
        json={"game": GAME, "gallery": {"slug": "little-wool", "version": 7}, "seats": seats},
    )
    assert missing.status_code == 404

    table_id, token = finished_table(srv, ws_client, "little-wool")
    info = srv.http.get(f"/api/tables/{table_id}").json()
    house = info["house"]
    assert house == {
        "slug": "little-wool",
        "version": 1,
        "name": "Little wool",
        "author": "ewe",
        "differences": [
            "setup: 30 pieces of wool in play, a sheep carries at most five pieces → 12 pieces "
            "of wool in play, a sheep carries at most five pieces"
        ],
        "url": f"/gallery/{GAME}/little-wool",
    }
    assert info["rules"] == {"wool": 12}
    assert [t["house"] for t in srv.http.get("/api/tables").json() if t["id"] == table_id] == [
        house
    ]
    assert srv.http.get(f"/api/tables/{table_id}/replay").json()["table"]["house"] == house
    watcher = ws_client(f"{srv.ws_url}/ws/{table_id}")
    assert watcher.last_state["table"]["house"] == house

    record = srv.http.get(f"/api/tables/{table_id}/record").json()
    assert record["house"] == house and record["rules"]["wool"] == 12
    done = replay(record)
    assert done.error is None and done.state.is_terminal()
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(record))
    out = CliRunner().invoke(cli, ["replay", str(saved), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["finished"] is True, out.output
    again = srv.http.post(f"/api/tables/{table_id}/again").json()
    assert again["house"] == house  # play again keeps the rule set


def test_votes_one_per_seat_token_after_the_end(make_server, ws_client):
    srv = make_server(lab_workers=0, **NO_LIMITS)
    published(srv, "Little wool")
    plain = srv.create(game=GAME, seats=[{"kind": "human"}, {"kind": "human"}])
    waiting = srv.create(
        game=GAME,
        gallery={"slug": "little-wool", "version": 1},
        seats=[{"kind": "human"}, {"kind": "human"}],
    )
    early = srv.join(waiting["id"], "Bo")["token"]
    r = srv.http.post(f"/api/tables/{waiting['id']}/vote", json={"token": early, "again": True})
    assert r.status_code == 409
    plain_token = srv.join(plain["id"], "Cy")["token"]
    r = srv.http.post(f"/api/tables/{plain['id']}/vote", json={"token": plain_token, "again": True})
    assert r.status_code == 400

    table_id, token = finished_table(srv, ws_client, "little-wool")
    url = f"/api/tables/{table_id}/vote"
    assert srv.http.post(url, json={"token": "not-a-seat", "again": True}).status_code == 403
    assert srv.http.post(url, json={"token": token, "again": True}).json() == {
        "votes_yes": 1,
        "votes_total": 1,
    }
    # a second vote of the same seat replaces the first
    assert srv.http.post(url, json={"token": token, "again": False}).json() == {
        "votes_yes": 0,
        "votes_total": 1,
    }
    e = entry(srv, "little-wool")
    assert (e["votes_yes"], e["votes_total"]) == (0, 1)


# -- lab cards and restarts ------------------------------------------------------------------
def check_card(srv: Any, lab: dict[str, Any]) -> None:
    """A finished card of ``QUICK`` (less wool): its metrics, verdict, plot and exact figures."""
    assert lab["progress"] == 1 and lab["games"] == 100
    keys = [m["key"] for m in lab["metrics"]]
    assert keys == ["length_mean", "balance", "tie_rate", "lead_changes", "decisiveness"]
    length = lab["metrics"][0]
    assert length["house"] < length["rulebook"] and length["lo"] <= length["diff"] <= length["hi"]
    assert "game length" in lab["verdict"] and "rulebook" in lab["verdict"]
    assert set(lab["exact"]) == {"first_player_advantage", "perfect_edge_over_greedy"}
    svg = srv.http.get(lab["plot"])
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert svg.text.lstrip().startswith("<?xml") and "<script" not in svg.text
    shorter = srv.http.get(f"/api/gallery/{GAME}", params={"sort": "shorter"}).json()
    assert shorter["entries"][0]["lab"] == lab


def test_a_lab_card_and_a_restart_that_loses_nothing(make_server, ws_client, tmp_path):
    """A card is computed (metrics, verdict, plot, exact figures); after a restart on the same
    file the rule set, its card, its table and its vote are all there, and a card the stopped
    server left running is computed again. (One test: each card is a process of its own.)"""
    from sheepfold.server.gallery_store import GalleryStore
    from sheepfold.server.storage import Storage

    db = str(tmp_path / "gallery.db")
    first = make_server(db, lab_games=100, **NO_LIMITS)
    token = published(first, "Little wool")["token"]
    card = lab_done(first, "little-wool")
    check_card(first, card)
    table_id, seat_token = finished_table(first, ws_client, "little-wool")
    first.http.post(f"/api/tables/{table_id}/vote", json={"token": seat_token, "again": True})
    first.stop()

    second = make_server(db, lab_workers=0, **NO_LIMITS)  # v2 waits in the queue
    r = second.http.post(
        f"/api/gallery/{GAME}/little-wool/versions", json={"token": token, "rules": {"wool": 10}}
    )
    assert r.status_code == 201
    second.stop()
    storage = Storage(db)  # as if a server had stopped in the middle of v2's card
    store = GalleryStore(storage)
    [job] = store.queue()
    store.set_lab(job.id, status="running", progress=0.5)
    storage.close()

    # a budget spent by any second chunk of games: the resumed card is capped, and says so
    third = make_server(db, lab_games=100, lab_seconds=1e-6, lab_exact_limit=0, **NO_LIMITS)
    v1 = entry(third, "little-wool", 1)
    assert v1["lab"] == card
    assert (v1["played"], v1["finished"], v1["votes_yes"], v1["votes_total"]) == (1, 1, 1, 1)
    assert third.http.get(card["plot"]).status_code == 200
    v2 = lab_done(third, "little-wool", 2)
    assert v2["games"] == 20 and v2["verdict"]  # chunks of 100 / 10 games
    assert "capped at 20 games a side (of 100)" in v2["message"]
    assert "no exact figures" in v2["message"] and v2["exact"] is None
    # rules that seat 3 players only (3 reaction weights): the card plays 3 players, and says so
    published(third, "Three howls", {"variants": ["howling-wolf"], "reaction_weights": [1, 1, 1]})
    three = lab_done(third, "three-howls")
    assert three["players"] == [3] and [p["players"] for p in three["by_players"]] == [3]
    # the newer rule set comes first, but not among the liked
    for sort, first_slug in (("newest", "three-howls"), ("liked", "little-wool")):
        listed = third.http.get(f"/api/gallery/{GAME}", params={"sort": sort}).json()["entries"]
        assert listed[0]["slug"] == first_slug, sort
    assert [v["version"] for v in entry(third, "little-wool")["versions"]] == [1, 2]


def test_the_gallery_on_postgresql(make_server, ws_client, postgres_url):
    """The same rows on PostgreSQL: publish, a slug clash, a version, the latest versions,
    a table, a vote, and all of it again after a restart."""
    srv = make_server(postgres_url, lab_workers=0, **NO_LIMITS)
    token = published(srv, "Pg wool")["token"]
    assert published(srv, "Pg wool", {"wool": 11})["slug"] == "pg-wool-2"
    url = f"/api/gallery/{GAME}/pg-wool/versions"
    assert srv.http.post(url, json={"token": token, "rules": QUICK}).status_code == 201
    table_id, seat_token = finished_table(srv, ws_client, "pg-wool", 2)
    vote = srv.http.post(f"/api/tables/{table_id}/vote", json={"token": seat_token, "again": True})
    assert vote.json() == {"votes_yes": 1, "votes_total": 1}
    srv.stop()

    again = make_server(postgres_url, lab_workers=0, **NO_LIMITS)
    latest = again.http.get(f"/api/gallery/{GAME}", params={"q": "pg wool"}).json()["entries"]
    assert [(e["slug"], e["version"]) for e in latest] == [("pg-wool", 2), ("pg-wool-2", 1)]
    assert (latest[0]["played"], latest[0]["votes_yes"]) == (1, 1)
    assert entry(again, "pg-wool", 1)["rules"]["wool"] == 12
    published(again, "Pg race", FROM_RACE)
    assert entry(again, "pg-race")["base"] == "the race to twelve rules"


def test_a_server_that_stops_stops_its_card_which_stays_to_resume(make_server, tmp_path):
    import gc
    import os
    import sys

    from sqlalchemy import text

    from sheepfold.server.gallery_store import GalleryStore
    from sheepfold.server.storage import Storage

    db = str(tmp_path / "stop.db")
    srv = make_server(db, lab_games=1_000_000, lab_seconds=600)
    published(srv, "Little wool")
    running = wait_until(
        lambda: (
            (lab := entry(srv, "little-wool")["lab"])["status"] == "running"
            and "message" in lab
            and lab
        ),
        what="the card's process to say it is starting",
    )
    assert running["message"].startswith("starting the simulator")
    [pid] = wait_until(lambda: [p.pid for p in srv.app.state.gallery.lab.procs], what="its process")
    left: list[Any] = []  # what is destroyed unclosed (a transport the stopped loop left)
    hook, sys.unraisablehook = sys.unraisablehook, left.append
    try:
        srv.stop()
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert not left, [str(u.exc_value) for u in left]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
    storage = Storage(db)
    assert [job.status for job in GalleryStore(storage).queue()] == ["running"]
    with storage.engine.connect() as c:  # a stop on purpose gives the card's start back
        assert c.execute(text("SELECT lab_attempts FROM sf_ruleset_versions")).scalar() == 0
    storage.close()
