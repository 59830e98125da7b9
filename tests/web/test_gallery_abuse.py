"""The gallery against visitors who try to slow or fool the others (issue 26): a lab queue no
publisher can fill (fair per client address, one waiting card per rule set, new versions under
the daily cap), votes that count once per person, and older databases that still open.

Visitors come from several addresses: a client bound to 127.0.0.x (any loopback address
reaches the server on 127.0.0.1), which the server sees as that client's address.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from polling import wait_until
from sheepfold.server.limits import Rate

GAME = "shave-a-sheep"
QUICK = {"wool": 12}
#: a costly Dolly Crush rule set: the biggest flock, deck and dog cards the model allows
COSTLY = {
    "rows": 8,
    "cols": 8,
    "types": 8,
    "white_per_type": 1000,
    "black_per_type": 1000,
    "diagonals": True,
    "cascades": True,
    "dogs_per_player": 8,
    "swaps": "up-to",
    "rounds": 100,
    "max_cleanup_rounds": 500,  # the costliest deal a gallery card accepts (games/costs.py)
}
NO_LIMITS = dict(create_rate=Rate(0, 0), join_rate=Rate(0, 0), max_open_tables=0, leave_grace=0.05)


@pytest.fixture
def at() -> Iterator[Any]:
    """``at(srv, "127.0.0.7")``: an HTTP client of ``srv`` from that address."""
    made: list[httpx.Client] = []

    def make(srv: Any, address: str) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address)
        c = httpx.Client(base_url=srv.url, timeout=10, transport=transport)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def publish(http: httpx.Client, name: str, rules: Any, game: str = GAME) -> httpx.Response:
    body = {"name": name, "author": "ewe", "description": "", "rules": rules}
    return http.post(f"/api/gallery/{game}", json=body)


def lab_of(srv: Any, game: str, slug: str, version: int) -> dict[str, Any]:
    r = srv.http.get(f"/api/gallery/{game}/{slug}/{version}")
    assert r.status_code == 200, r.text
    return r.json()["lab"]


# -- the lab queue ---------------------------------------------------------------------------
def test_a_flood_from_twelve_addresses_leaves_the_next_place_to_an_honest_publisher(
    make_server, at
):
    srv = make_server(lab_workers=0)  # the server's own limits; no card runs: they wait
    game = "dolly-crush"
    floods = [at(srv, f"127.0.0.{10 + i}") for i in range(12)]
    answers: list[httpx.Response] = []
    for i, http in enumerate(floods):  # each address publishes its five, one after the other
        answers += [publish(http, f"big {i} {k}", COSTLY, game) for k in range(5)]
    codes = [r.status_code for r in answers]
    assert codes.count(201) == 36 and codes.count(429) == 24, codes  # three cards an address
    refused = next(r for r in answers if r.status_code == 429).json()["detail"]
    assert (
        "3 rule sets waiting for their lab card" in refused and "nothing was published" in refused
    )
    listed = srv.http.get(f"/api/gallery/{game}", params={"limit": 200}).json()["entries"]
    assert len(listed) == 36  # a refused publish stored nothing

    honest = publish(at(srv, "127.0.1.99"), "honest", {"rows": 4}, game)
    assert honest.status_code == 201, honest.text
    # served round-robin across ranges (the twelve are one /24), a range of fewer cards first:
    # the newcomer's card, then the range's addresses' first cards, then their seconds
    # (issue 50: it came thirteenth; tests/web/test_lab_queue_fair.py)
    assert lab_of(srv, game, honest.json()["slug"], 1)["position_in_queue"] == 1
    lab = srv.app.state.gallery.lab
    by_id = {job.id: job.client for job in lab.store.queue()}
    served = [by_id[vid] for vid in lab.order()]
    assert served[:13] == ["127.0.1.99"] + [f"127.0.0.{10 + i}" for i in range(12)]
    assert served[13:25] == served[1:13] and len(served) == 37
    first = [r.json()["slug"] for r in answers if r.status_code == 201][0]
    assert lab_of(srv, game, first, 1)["position_in_queue"] == 2


def test_one_card_per_rule_set_waits_and_versions_count_toward_the_daily_cap(make_server, at):
    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0), gallery_per_day=4)
    http = at(srv, "127.0.0.20")
    token = publish(http, "Short", QUICK).json()["token"]
    url = f"/api/gallery/{GAME}/short/versions"
    for wool in (11, 10):
        assert http.post(url, json={"token": token, "rules": {"wool": wool}}).status_code == 201
    labs = [lab_of(srv, GAME, "short", v) for v in (1, 2, 3)]
    assert [lab["status"] for lab in labs] == ["skipped", "skipped", "queued"]
    assert labs[0]["message"] == "not computed: version 2 took its place in the lab queue"
    assert labs[2]["position_in_queue"] == 1
    assert srv.app.state.gallery.lab.waiting() == 1

    # a fourth version is the address's fourth publish in 24 hours: the last it may make
    assert http.post(url, json={"token": token, "rules": {"wool": 9}}).status_code == 201
    late = http.post(url, json={"token": token, "rules": {"wool": 8}})
    assert late.status_code == 429, late.text
    said = late.json()["detail"]
    assert "4 rule sets or versions in the last 24 hours (at most 4)" in said
    assert "try again in about 24 hours" in said
    assert publish(http, "Another", QUICK).status_code == 429
    assert publish(at(srv, "127.0.0.21"), "Another", QUICK).status_code == 201  # not its cap
    assert len(srv.http.get(f"/api/gallery/{GAME}/short").json()["versions"]) == 4


# -- votes -----------------------------------------------------------------------------------
def finish_tables(
    srv: Any, ws_client: Any, at: Any, slug: str, seatings: list[list[str | None]]
) -> list[tuple[str, list[str]]]:
    """Tables of ``slug``, one per seating (a seat's address, or None for a greedy bot), each
    seat joined from its address; the people leave and bots stand in for them to the end.
    [(table id, the people's seat tokens)], once every table is over."""
    made = []
    for addresses in seatings:
        seats = [{"kind": "human"} if a else {"kind": "bot", "bot": "greedy"} for a in addresses]
        t = srv.create(
            game=GAME,
            gallery={"slug": slug, "version": 1},
            seats=seats,
            replacement_bot="greedy",
            auto_roll=True,
        )
        tokens = []
        for seat, address in enumerate(addresses):
            if address:
                r = at(srv, address).post(
                    f"/api/tables/{t['id']}/join", json={"name": f"Ann {seat}", "seat": seat}
                )
                assert r.status_code == 200, r.text
                tokens.append(r.json()["token"])
        for token in tokens:  # connected once, then gone: a bot stands in
            ws_client(f"{srv.ws_url}/ws/{t['id']}", token).close()
        made.append((t["id"], tokens))
    for table_id, _ in made:
        wait_until(
            lambda: srv.http.get(f"/api/tables/{table_id}").json()["finished"],  # noqa: B023
            what="the stand-ins to finish the game",
            timeout=60,
        )
    return made


def vote(srv: Any, table_id: str, token: str, again: bool = True) -> httpx.Response:
    return srv.http.post(f"/api/tables/{table_id}/vote", json={"token": token, "again": again})


def counts(srv: Any, slug: str) -> tuple[int, int]:
    e = srv.http.get(f"/api/gallery/{GAME}/{slug}").json()
    return e["votes_yes"], e["votes_total"]


def test_votes_count_once_per_person_and_never_from_one_address_holding_every_seat(
    make_server, ws_client, at
):
    srv = make_server(lab_workers=0, publish_rate=Rate(0, 0), **NO_LIMITS)
    for name in ("Stuffed", "Four", "Liked"):
        assert publish(srv.http, name, QUICK).status_code == 201

    # one address, twenty tables against a bot, twenty "yes": one person, one vote
    stuffer = "127.0.0.30"
    tables = finish_tables(srv, ws_client, at, "stuffed", [[stuffer, None]] * 20)
    for table_id, [token] in tables:
        assert vote(srv, table_id, token).status_code == 200
    assert counts(srv, "stuffed") == (1, 1)
    # a later vote replaces the earlier one
    last_id, [last_token] = tables[-1]
    assert vote(srv, last_id, last_token, again=False).json() == {"votes_yes": 0, "votes_total": 1}
    # a table where one address held every seat: no vote counts
    [(alone_id, alone_tokens)] = finish_tables(srv, ws_client, at, "stuffed", [[stuffer] * 2])
    for token in alone_tokens:
        r = vote(srv, alone_id, token)
        assert r.status_code == 403 and "one address held every seat" in r.json()["detail"]
    assert counts(srv, "stuffed") == (0, 1)

    # four addresses, three tables each: four people
    four = [f"127.0.0.{40 + i}" for i in range(4)]
    for table_id, [token] in finish_tables(
        srv, ws_client, at, "four", [[a, None] for a in four] * 3
    ):
        assert vote(srv, table_id, token).status_code == 200
    assert counts(srv, "four") == (4, 4)

    # two people at one table (two addresses), both liked it
    [(liked_id, liked_tokens)] = finish_tables(
        srv, ws_client, at, "liked", [["127.0.0.50", "127.0.0.51"]]
    )
    assert [vote(srv, liked_id, t).status_code for t in liked_tokens] == [200, 200]
    assert counts(srv, "liked") == (2, 2)
    liked = srv.http.get(f"/api/gallery/{GAME}", params={"sort": "liked"}).json()["entries"]
    assert [e["slug"] for e in liked] == ["four", "liked", "stuffed"]


def test_a_seats_address_is_kept_over_a_restart(make_server, ws_client, at, tmp_path):
    db = str(tmp_path / "votes.db")
    srv = make_server(db, lab_workers=0, publish_rate=Rate(0, 0), **NO_LIMITS)
    assert publish(srv.http, "Kept", QUICK).status_code == 201
    [(table_id, [token])] = finish_tables(srv, ws_client, at, "kept", [["127.0.0.60", None]])
    srv.stop()
    again = make_server(db, lab_workers=0, **NO_LIMITS)
    assert again.manager.get(table_id).seats[0].client == "127.0.0.60"
    assert vote(again, table_id, token).json() == {"votes_yes": 1, "votes_total": 1}


# -- an older database -----------------------------------------------------------------------
def test_a_database_from_before_the_new_columns_opens_with_them(tmp_path):
    from sqlalchemy import text

    from sheepfold.server.gallery_store import GalleryStore
    from sheepfold.server.storage import SeatRow, Storage, TableRow

    db = str(tmp_path / "old.db")
    s = Storage(db)
    s.create_table(
        TableRow("t1", GAME, 2, {}, 7, 1.0, False, [SeatRow(0, "human"), SeatRow(1, "human")])
    )
    s.update_seat("t1", SeatRow(0, "human", "Ann", None, "ab" * 32))
    GalleryStore(s).publish(
        GAME,
        "old",
        {"name": "Old", "author": "ewe", "token_hash": "cd" * 32, "client": "127.0.0.1"},
        {
            "description": "",
            "rules": QUICK,
            "changes": [],
            "differences": [],
            "client": "127.0.0.1",
        },
    )
    with s.engine.begin() as c:  # as the database was before
        c.execute(text("ALTER TABLE sf_seats DROP COLUMN client"))
        c.execute(text("ALTER TABLE sf_ruleset_versions DROP COLUMN lab_attempts"))
        c.execute(text("ALTER TABLE sf_votes DROP COLUMN client"))
        c.execute(text("ALTER TABLE sf_ruleset_versions DROP COLUMN base"))
    s.close()

    s = Storage(db)
    [row] = s.load_all()
    assert row.seats[0] == SeatRow(0, "human", "Ann", None, "ab" * 32, None)
    store = GalleryStore(s)
    [job] = store.queue()
    store.started(job.id)
    with s.engine.connect() as c:
        assert c.execute(text("SELECT lab_attempts FROM sf_ruleset_versions")).scalar() == 1
    [old] = store.versions(GAME, "old")
    assert old.base is None  # no base named: described against the closest, the rulebook
    from sheepfold.server.gallery import version_base

    assert version_base(old) == ("rulebook", "the rulebook")
    s.close()
