"""Players' profiles over real HTTP and WebSockets: made with a name, known by a secret the
server keeps only hashed, bounded per address; a finished game joins its people's histories
and ratings (server/profiles.py, server/ratings.py)."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import httpx
import pytest

from polling import wait_until
from sheepfold.server.limits import Rate
from sheepfold.server.profiles import HEADER, secret_hash

SHORT_SHAVE = {"game": "shave-a-sheep", "rules": {"wool": 6}, "auto_roll": True}


def client_from(server: Any, address: str) -> httpx.Client:
    """An HTTP client whose requests come from ``address`` (127.0.0.x: the limits count it)."""
    return httpx.Client(
        base_url=server.url, timeout=10, transport=httpx.HTTPTransport(local_address=address)
    )


def make_profile(http: httpx.Client, name: str) -> dict[str, Any]:
    r = http.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def join_as(server: Any, table: str, profile: dict[str, Any], seat: int) -> dict[str, Any]:
    """``profile`` takes ``seat``, from an address of its own (127.0.0.(10 + seat)): a rated
    game asks for people from different addresses (server/ratings.py)."""
    with client_from(server, f"127.0.0.{10 + seat}") as http:
        r = http.post(
            f"/api/tables/{table}/join",
            json={"name": "ignored", "seat": seat},
            headers={HEADER: profile["secret"]},
        )
    assert r.status_code == 200, r.text
    return r.json()


def play_to_the_end(clients: dict[int, Any], rng: random.Random) -> dict[str, Any]:
    """Each seat's client plays random legal actions when it is to move (the server rolls):
    the final view."""
    any_client = next(iter(clients.values()))
    for _ in range(2000):
        st = any_client.last_state
        view = st["view"]
        if view["finished"]:
            return view
        seat = view["to_move"]
        seq = st["seq"]
        if seat in clients:
            c = clients[seat]
            c.wait_state(lambda m, seq=seq: m["seq"] >= seq)
            c.send({"type": "act", "action": rng.choice(c.last_state["view"]["legal_actions"])})
        any_client.wait_state(lambda m, seq=seq: m["seq"] > seq)
    raise AssertionError("the game did not end")


def test_a_profile_is_known_by_its_secret_and_only_its_hash_is_stored(live_server, tmp_path):
    p = make_profile(live_server.http, "  Mia  ")
    assert p["name"] == "Mia" and len(p["secret"]) == 43
    assert p["link"] == f"/profile#secret={p['secret']}"
    me = live_server.http.get("/api/profiles/me", headers={HEADER: p["secret"]}).json()
    assert me["id"] == p["id"] and me["name"] == "Mia" and me["history"] == []
    public = live_server.http.get(f"/api/profiles/{p['id']}").json()
    assert public["name"] == "Mia" and "secret" not in public
    with sqlite3.connect(tmp_path / "tables.db") as db:
        rows = db.execute("SELECT secret_hash FROM sf_profiles").fetchall()
        dump = "\n".join(db.iterdump())
    assert rows == [(secret_hash(p["secret"]),)]
    assert p["secret"] not in dump  # the secret itself is nowhere in the database
    # a new name
    r = live_server.http.patch(
        "/api/profiles/me", json={"name": "Mia B"}, headers={HEADER: p["secret"]}
    )
    assert r.status_code == 200 and r.json()["name"] == "Mia B"


@pytest.mark.parametrize(
    ("secret", "status", "words"),
    [
        (None, 401, "X-Sheepfold-Profile"),
        ("short", 400, "43 letters"),
        ("x" * 43 + "!", 400, "43 letters"),
        ("a" * 5000, 400, "43 letters"),
        ("A" * 43, 401, "no profile has this secret"),
    ],
)
def test_a_bad_secret_gets_a_clear_error(live_server, secret, status, words):
    headers = {HEADER: secret} if secret is not None else {}
    for path in ("/api/profiles/me", "/api/profiles/me/tables"):
        r = live_server.http.get(path, headers=headers)
        assert r.status_code == status and words in r.json()["detail"], r.text
    t = live_server.create(game="shave-a-sheep", seats=[{"kind": "human"}, {"kind": "human"}])
    if secret is not None:  # a join with a bad secret takes no seat
        r = live_server.http.post(
            f"/api/tables/{t['id']}/join", json={"name": "Eve"}, headers=headers
        )
        assert r.status_code == status
        assert all(
            s["free"] for s in live_server.http.get(f"/api/tables/{t['id']}").json()["seats"]
        )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 33}, "at most 32"),
        ({"name": "Mia\u202e"}, "U+202E"),
        ({"name": "Mia", "admin": True}, "admin"),
        ({}, "name"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_is_made(live_server, tmp_path, body, words):
    r = live_server.http.post("/api/profiles", json=body)
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    with sqlite3.connect(tmp_path / "tables.db") as db:
        assert db.execute("SELECT count(*) FROM sf_profiles").fetchone() == (0,)


def test_profiles_are_limited_per_address_and_per_day(make_server, tmp_path):
    db = str(tmp_path / "limits.db")
    srv = make_server(db, profile_rate=Rate(0.001, 2), profiles_per_day=3)
    two, three = client_from(srv, "127.0.0.2"), client_from(srv, "127.0.0.3")
    make_profile(two, "A")
    make_profile(two, "B")
    r = two.post("/api/profiles", json={"name": "C"})
    assert r.status_code == 429 and "profiles made" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) > 0
    make_profile(three, "D")  # another address has its own bucket
    two.close()
    three.close()
    srv.stop()
    # the day's cap is counted in the database: a restart does not reset it
    srv = make_server(db, profile_rate=Rate(0, 0), profiles_per_day=3)
    two = client_from(srv, "127.0.0.2")
    make_profile(two, "E")
    r = two.post("/api/profiles", json={"name": "F"})
    assert r.status_code == 429 and "in the last 24 hours (at most 3)" in r.json()["detail"]
    make_profile(client_from(srv, "127.0.0.4"), "G")
    two.close()


def test_two_profiles_play_and_get_a_history_a_rating_and_a_leaderboard(live_server, ws_client):
    mia, leo = make_profile(live_server.http, "Mia"), make_profile(live_server.http, "Leo")
    t = live_server.create(
        **SHORT_SHAVE, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], seed=3
    )
    a, b = join_as(live_server, t["id"], mia, 0), join_as(live_server, t["id"], leo, 1)
    info = live_server.http.get(f"/api/tables/{t['id']}").json()
    assert [s["name"] for s in info["seats"][:2]] == ["Mia", "Leo"]  # the profiles' names
    assert [s["profile"] for s in info["seats"]] == [mia["id"], leo["id"], None]
    # one profile takes one seat at a table
    r = live_server.http.post(
        f"/api/tables/{t['id']}/join", json={"name": "x"}, headers={HEADER: mia["secret"]}
    )
    assert r.status_code == 409 and "already plays seat 1" in r.json()["detail"]
    ca = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{live_server.ws_url}/ws/{t['id']}", b["token"])
    final = play_to_the_end({0: ca, 1: cb}, random.Random(4))
    got = {
        p["name"]: wait_until(
            lambda p=p: live_server.http.get(f"/api/profiles/{p['id']}").json()["history"],
            what="the game in the history",
        )[0]
        for p in (mia, leo)
    }
    entry = got["Mia"]
    assert entry["table"] == t["id"] and entry["title"] == "Shave a Sheep"
    assert entry["replay"] == f"/t/{t['id']}" and entry["rated"]
    assert [s["name"] for s in entry["seats"]] == ["Mia", "Leo", "Timmy"]
    assert [s["person"] for s in entry["seats"]] == [True, True, False]
    assert [s["score"] for s in entry["seats"]] == final["scores"]
    winners = final["winners"]
    for name, seat in (("Mia", 0), ("Leo", 1)):
        e = got[name]
        if winners == [seat]:
            assert e["result"] == "won" and e["place"] == 1
        elif seat in winners:
            assert e["result"] == "tied for first"
        else:
            assert e["place"] > 1 and e["result"].endswith("of 3")
        assert e["rating_before"] == 1000  # where everyone starts (server/ratings.py: shown)
    # ratings: the one ahead of the other rates above; the bot has none
    place = {n: got[n]["place"] for n in got}
    ratings = {
        n: live_server.http.get(f"/api/profiles/{p['id']}").json()["ratings"]
        for n, p in (("Mia", mia), ("Leo", leo))
    }
    assert all(r[0]["game"] == "shave-a-sheep" and r[0]["games"] == 1 for r in ratings.values())
    board = live_server.http.get("/api/leaderboard/shave-a-sheep").json()
    assert board["title"] == "Shave a Sheep"
    assert {row["name"] for row in board["rows"]} == {"Mia", "Leo"}
    first, second = board["rows"]
    assert first["rating"] >= second["rating"]
    if place["Mia"] != place["Leo"]:
        ahead = min(place, key=place.__getitem__)
        assert first["name"] == ahead and first["rating"] > second["rating"]
        assert first["place"] == 1 and second["place"] == 2
    assert live_server.http.get("/api/leaderboard/dolly-crush").json()["rows"] == []
    assert live_server.http.get("/api/leaderboard/no-such-game").status_code == 404
    assert live_server.http.get("/api/profiles/nobody").status_code == 404


def test_a_game_with_one_profile_is_in_its_history_but_not_rated(live_server, ws_client):
    zoe = make_profile(live_server.http, "Zoe")
    t = live_server.create(**SHORT_SHAVE, seats=[{"kind": "human"}, {"kind": "bot"}], seed=8)
    me = join_as(live_server, t["id"], zoe, 0)
    play_to_the_end(
        {0: ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])}, random.Random(1)
    )
    prof = wait_until(
        lambda: (p := live_server.http.get(f"/api/profiles/{zoe['id']}").json())["history"] and p,
        what="the game in the history",
    )
    assert not prof["history"][0]["rated"] and prof["history"][0]["rating_after"] is None
    assert prof["ratings"] == []  # bots do not count: one person is no rated game
    assert live_server.http.get("/api/leaderboard/shave-a-sheep").json()["rows"] == []


def test_a_result_the_server_did_not_write_is_written_at_the_next_start(
    make_server, ws_client, tmp_path, monkeypatch
):
    from sheepfold.server.profiles import Profiles

    db = str(tmp_path / "catch.db")
    srv = make_server(db)
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    t = srv.create(**SHORT_SHAVE, seats=[{"kind": "human"}, {"kind": "human"}], seed=2)
    a, b = join_as(srv, t["id"], mia, 0), join_as(srv, t["id"], leo, 1)

    def down(self: Any, table: Any) -> None:
        raise OSError("the disk is gone")

    monkeypatch.setattr(Profiles, "record", down)
    ca = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{t['id']}", b["token"])
    play_to_the_end({0: ca, 1: cb}, random.Random(2))
    assert srv.http.get(f"/api/tables/{t['id']}").json()["finished"]
    assert srv.http.get(f"/api/profiles/{mia['id']}").json()["history"] == []
    ca.close()
    cb.close()
    srv.stop()
    monkeypatch.undo()
    srv = make_server(db)
    for p in (mia, leo):
        prof = srv.http.get(f"/api/profiles/{p['id']}").json()
        assert [e["table"] for e in prof["history"]] == [t["id"]]
        assert prof["ratings"][0]["games"] == 1


def test_an_older_database_gets_the_seats_profile_column(tmp_path):
    from sheepfold.server.storage import Storage

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # sf_seats as it was before profiles
        db.execute(
            "CREATE TABLE sf_seats (table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, "
            "kind VARCHAR(8) NOT NULL, name VARCHAR(64), bot VARCHAR(64), "
            "token_hash VARCHAR(64), client VARCHAR(64), PRIMARY KEY (table_id, seat))"
        )
        db.execute("INSERT INTO sf_seats VALUES ('t1', 0, 'human', 'Ann', NULL, 'h', NULL)")
    Storage(str(path)).close()
    with sqlite3.connect(path) as db:
        cols = [r[1] for r in db.execute("PRAGMA table_info(sf_seats)")]
        indexes = [r[1] for r in db.execute("PRAGMA index_list(sf_seats)")]
        assert db.execute("SELECT name, profile FROM sf_seats").fetchall() == [("Ann", None)]
    assert "profile" in cols and "ix_sf_seats_profile" in indexes


@pytest.mark.postgres
def test_profiles_history_and_ratings_on_postgres(make_server, postgres_url, ws_client):
    srv = make_server(postgres_url)
    assert srv.http.get("/healthz").json()["db"] == "postgresql"
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    t = srv.create(**SHORT_SHAVE, own_pace=True, seats=[{"kind": "human"}] * 2, seed=9)
    a, b = join_as(srv, t["id"], mia, 0), join_as(srv, t["id"], leo, 1)
    mine = srv.http.get("/api/profiles/me/tables", headers={HEADER: mia["secret"]}).json()
    assert [(e["id"], e["your_turn"]) for e in mine] == [(t["id"], True)]
    ca = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{t['id']}", b["token"])
    final = play_to_the_end({0: ca, 1: cb}, random.Random(5))
    for p in (mia, leo):
        prof = wait_until(
            lambda p=p: (x := srv.http.get(f"/api/profiles/{p['id']}").json())["history"] and x,
            what="the game in the history",
        )
        assert prof["ratings"][0]["games"] == 1
    board = srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"]
    assert {r["name"] for r in board} == {"Mia", "Leo"}
    if len(final["winners"]) == 1:
        assert board[0]["name"] == ("Mia", "Leo")[final["winners"][0]]
    assert srv.http.get("/api/profiles/me/tables", headers={HEADER: mia["secret"]}).json() == []
