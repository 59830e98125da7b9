"""Ratings a family understands (issue 51), over the server: a friendly number from 1000 that is
never negative, a level in words per game, reliability (games finished of those played with
another person), and leaving a rated game with the Leave button costs more than losing it
(server/ratings.py, server/profiles.py). A database of an older version keeps its ratings."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from test_fair_ratings import LONGER, OPEN, history, seat
from test_profiles_api import SHORT_SHAVE, join_as, make_profile, play_to_the_end

from polling import wait_until
from sheepfold.server.ratings import MIN_OWN_MOVES, START, Rating, rate, shown


def profile_of(srv: Any, who: dict[str, Any]) -> dict[str, Any]:
    return srv.http.get(f"/api/profiles/{who['id']}").json()  # type: ignore[no-any-return]


def leave_after(
    srv: Any, table: str, clients: dict[int, Any], rng: random.Random, seat: int, moves: int
) -> None:
    """Everyone plays random legal moves until ``seat``'s person made ``moves`` of their own;
    then that person presses Leave (a bot takes the seat)."""
    made = 0
    watcher = next(c for s, c in clients.items() if s != seat)
    while made < moves:
        st = watcher.last_state
        mover, seq = st["view"]["to_move"], st["seq"]
        assert not st["view"]["finished"], "the game ended before the leaver left"
        if mover in clients:
            c = clients[mover]
            c.wait_state(lambda m, seq=seq: m["seq"] >= seq)
            c.send({"type": "act", "action": rng.choice(c.last_state["view"]["legal_actions"])})
            made += mover == seat
        watcher.wait_state(lambda m, seq=seq: m["seq"] > seq)
    clients.pop(seat).send({"type": "leave"})
    wait_until(
        lambda: srv.http.get(f"/api/tables/{table}").json()["seats"][seat]["kind"] == "bot",
        what="a bot in the seat of the person who left",
    )


def test_leaving_a_rated_game_costs_more_than_losing_it_and_counts_as_abandoned(
    make_server, ws_client
):
    """Ann plays her moves and presses Leave; Bob plays to the end. The bug: her seat became a
    bot's and her profile left with it, so the game was neither hers nor rated (leaving before
    a loss cost nothing). Now she is rated as last, minus the leaving penalty, and her profile
    says she finished 0 of 1 game; Bob's says 1 of 1."""
    srv = make_server(**OPEN)
    ann = make_profile(srv.http, "Ann")
    bob = make_profile(srv.http, "Bob")
    table, tokens = seat(srv, LONGER, (ann, "127.0.0.50"), (bob, "127.0.0.51"))
    clients = {i: ws_client(f"{srv.ws_url}/ws/{table}", tok) for i, tok in enumerate(tokens)}
    rng = random.Random(5)
    leave_after(srv, table, clients, rng, 0, MIN_OWN_MOVES)
    play_to_the_end(clients, rng)  # Bob, against the bot in Ann's seat

    entries = {p["name"]: history(srv, p, 1)[0] for p in (ann, bob)}
    assert all(e["table"] == table and e["rated"] for e in entries.values())
    assert entries["Ann"]["rating_note"] == (
        "rated as last, and 40 points more for leaving: a bot finished the game for you"
    )
    fair_loss, winner = rate([Rating(), Rating()], [2, 1])
    left, _ = rate([Rating(), Rating()], [2, 1], [True, False])
    assert entries["Ann"]["rating_before"] == entries["Bob"]["rating_before"] == START
    assert entries["Ann"]["rating_after"] == shown(left) < shown(fair_loss) < START
    assert entries["Bob"]["rating_after"] == shown(winner) > START
    me = profile_of(srv, ann)
    assert me["ratings"][0]["rating"] == shown(left) and me["ratings"][0]["level"] == "new player"
    assert me["reliability"] == {"finished": 0, "left": 1, "words": "finished 0 of 1 game (0%)"}
    assert profile_of(srv, bob)["reliability"]["words"] == "finished 1 of 1 game (100%)"
    board = srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"]
    assert [(r["name"], r["rating"], r["level"]) for r in board] == [
        ("Bob", shown(winner), "new player"),
        ("Ann", shown(left), "new player"),
    ]


def test_a_game_alone_with_bots_is_not_counted_in_reliability(live_server, ws_client):
    zoe = make_profile(live_server.http, "Zoe")
    t = live_server.create(**SHORT_SHAVE, seats=[{"kind": "human"}, {"kind": "bot"}], seed=8)
    me = join_as(live_server, t["id"], zoe, 0)
    play_to_the_end(
        {0: ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])}, random.Random(1)
    )
    prof = wait_until(lambda: (p := profile_of(live_server, zoe))["history"] and p, what="the game")
    assert prof["reliability"] == {"finished": 0, "left": 0, "words": None}


def test_an_older_database_keeps_its_ratings_shown_on_the_new_scale(make_server, tmp_path):
    """Ratings and results written by the version before (the careful estimate, 0 at the start,
    negative after a first loss): the same stored mu and sigma, shown from 1000, never
    negative; the table of leavers and the reliability column are added."""
    from sheepfold.server.storage import Storage

    db = tmp_path / "old.db"
    Storage(str(db)).close()
    lost = rate([Rating(), Rating()], [2, 1])[0]
    with sqlite3.connect(db) as c:  # as the version before made it, and wrote to it
        c.execute("DROP TABLE sf_left_seats")
        c.execute("ALTER TABLE sf_profile_games DROP COLUMN left_early")
        c.execute("INSERT INTO sf_profiles VALUES ('ann1', 'Ann', 'h', '10.0.0.1', 1.0)")
        c.execute(
            "INSERT INTO sf_ratings VALUES ('ann1', 'shave-a-sheep', ?, ?, 1, 2.0)",
            (lost.mu, lost.sigma),
        )
        summary = (
            '{"title": "Shave a Sheep", "rules": "the rulebook", "seats": ['
            '{"name": "Ann", "person": true, "profile": "ann1", "place": 2, "score": 1}, '
            '{"name": "Bob", "person": true, "profile": null, "place": 1, "score": 2}]}'
        )
        c.execute(
            "INSERT INTO sf_profile_games VALUES "
            "('t1', 0, 'ann1', 'shave-a-sheep', ?, 2, 0.0, ?, 3.0, '10.0.0.1')",
            (summary, lost.careful),
        )
    assert lost.careful < 0  # what the page showed then
    srv = make_server(str(db))
    me = srv.http.get("/api/profiles/ann1").json()
    assert me["ratings"][0]["rating"] == shown(lost) == 968
    assert me["ratings"][0]["level"] == "new player" and me["ratings"][0]["new"]
    entry = me["history"][0]
    assert (entry["rating_before"], entry["rating_after"]) == (START, 968)
    assert me["reliability"]["words"] is None  # an older game is not counted: nobody knows
    assert srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"][0]["rating"] == 968
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT mu, sigma FROM sf_ratings").fetchall() == [(lost.mu, lost.sigma)]
        assert "left_early" in [r[1] for r in c.execute("PRAGMA table_info(sf_profile_games)")]
        assert c.execute("SELECT count(*) FROM sf_left_seats").fetchone() == (0,)


def test_the_leaderboard_page_says_the_scale_and_the_levels_the_server_applies():
    """The page's words are written by hand: they say the numbers of server/ratings.py."""
    from pathlib import Path

    import sheepfold.server
    from sheepfold.server.i18n import page_texts
    from sheepfold.server.ratings import FLOOR, LEAVE_PENALTY, LEVELS, PROVISIONAL_GAMES, SCALE

    page = (Path(sheepfold.server.__file__).parent / "static" / "leaderboard.html").read_text()
    said = " ".join(words for _, words in page_texts(page))
    assert f"it starts at {START}," in said and f"is never below {FLOOR}," in said
    assert f"comes last, and loses {round(SCALE * LEAVE_PENALTY)} points more" in said
    assert f"new player for the first {PROVISIONAL_GAMES} rated games" in said
    levels = {words: lowest for lowest, words in LEVELS}
    assert f"beginner below {levels['novice']}" in said
    for words, lowest in levels.items():
        assert f"{words} from {lowest}" in said
