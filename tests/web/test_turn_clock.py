"""Play over days: a table's turn clock (server/clock.py). The clock's "now" is moved by hand
and its check run directly: nothing here sleeps or waits for a real hour."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from test_profiles_api import join_as, make_profile

from polling import wait_until
from sheepfold.server.profiles import HEADER

HOUR = 3600.0
CLOCKED = {
    "game": "shave-a-sheep",
    "rules": {"wool": 6},
    "auto_roll": True,
    "own_pace": True,
    "first_player": 0,
    "seed": 3,
    "turn_clock_hours": 1,
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def on_loop(srv: Any, work: Any) -> Any:
    """``work()`` run on the server's event loop (where tables change), its answer."""

    async def run() -> Any:
        return work()

    loop = srv.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(run(), loop).result(10)


def clock_of(srv: Any) -> Any:
    return srv.app.state.turn_clock


def at(srv: Any, when: float) -> None:
    """The clock's now is ``when`` (epoch seconds)."""
    clock_of(srv).now = lambda: when


def sweep(srv: Any, when: float) -> int:
    at(srv, when)
    return on_loop(srv, clock_of(srv).sweep)  # type: ignore[no-any-return]


def info(srv: Any, tid: str) -> dict[str, Any]:
    r = srv.http.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def two_people(srv: Any, **spec: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    t = srv.create(**{**CLOCKED, **spec})
    return t["id"], srv.join(t["id"], "Ann", 0), srv.join(t["id"], "Ben", 1)


def moves(srv: Any, tid: str) -> int:
    return srv.manager.get(tid).stored  # type: ignore[no-any-return]


def test_a_missed_turn_is_played_for_them_and_others_see_away_since(make_server):
    srv = make_server(clock_tick=0)
    tid, _, _ = two_people(srv, out_of_time="skip")
    t0 = 1_000_000.0
    assert sweep(srv, t0) == 0  # Ann's clock starts (nobody is connected: it still runs)
    shown = info(srv, tid)["clock"]
    assert shown["per_move"] == HOUR and shown["seat"] == 0 and shown["out_of_time"] == "skip"
    before = moves(srv, tid)
    assert sweep(srv, t0 + HOUR - 1) == 0 and moves(srv, tid) == before  # in time
    assert sweep(srv, t0 + HOUR + 1) == 1  # past it: one move made for her
    wait_until(lambda: moves(srv, tid) > before, what="the missed turn's move")
    shown = info(srv, tid)["clock"]
    assert shown["away"][0] == t0 + HOUR and shown["away"][1] is None
    table = srv.manager.get(tid)
    assert table.seats[0].stand_in is None and table.seats[0].kind == "human"  # her seat
    said = [e["text"] for e in table.events if e["seat"] == 0]
    assert any("ran out of time: missed the turn" in s for s in said)


def test_a_bot_plays_for_them_until_they_come_back(make_server, ws_client):
    srv = make_server(clock_tick=0)
    tid, ann, _ = two_people(srv, out_of_time="bot")
    t0 = 2_000_000.0
    sweep(srv, t0)
    assert sweep(srv, t0 + HOUR) == 1
    table = srv.manager.get(tid)
    assert table.seats[0].stand_in == "random"
    assert info(srv, tid)["seats"][0]["stand_in"] == "random"
    # while the bot plays her seat, her clock does not run; when she is back it is hers again
    back = ws_client(f"{srv.ws_url}/ws/{tid}", ann["token"])
    wait_until(lambda: table.seats[0].stand_in is None, what="Ann to take her seat back")
    assert info(srv, tid)["clock"]["away"][0] is None
    back.close()


def test_no_clock_by_default_and_a_clock_is_checked(make_server):
    srv = make_server(clock_tick=0)
    plain = srv.create(game="shave-a-sheep", seats=[{"kind": "human"}, {"kind": "human"}])
    assert plain["clock"] is None
    for bad in (0, -1, 24 * 31, "soon"):
        r = srv.http.post("/api/tables", json={**CLOCKED, "turn_clock_hours": bad})
        assert r.status_code == 422 and "turn_clock_hours" in r.text, r.text
    r = srv.http.post("/api/tables", json={**CLOCKED, "out_of_time": "later"})
    assert r.status_code == 422 and "out_of_time" in r.text


def test_the_clock_survives_a_restart_and_an_older_database(make_server, tmp_path):
    db = str(tmp_path / "days.db")
    srv = make_server(db, clock_tick=0)
    tid, _, _ = two_people(srv)
    t0 = 3_000_000.0
    sweep(srv, t0)
    srv.stop()
    again = make_server(db, clock_tick=0)
    assert clock_of(again).turns[tid].started == t0  # stored: it runs on from where it was
    assert sweep(again, t0 + HOUR / 2) == 0
    assert sweep(again, t0 + HOUR) == 1
    again.stop()
    # a database made before the clock: its table is made when the server opens it
    with sqlite3.connect(db) as c:
        c.execute("DROP TABLE sf_turn_clock")
    older = make_server(db, clock_tick=0)
    assert clock_of(older).turns == {}
    sweep(older, t0)
    assert clock_of(older).turns[tid].seat in (0, 1)


def test_vacation_pauses_the_clock_and_your_tables_show_it(make_server):
    srv = make_server(clock_tick=0)
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    t = srv.create(**CLOCKED)
    join_as(srv, t["id"], mia, 0)
    join_as(srv, t["id"], leo, 1)
    t0 = 4_000_000.0
    sweep(srv, t0)
    mine = srv.http.get("/api/profiles/me/tables", headers={HEADER: mia["secret"]}).json()
    assert mine[0]["clock"]["seat"] == 0 and mine[0]["clock"]["per_move"] == HOUR
    away = {"vacation": True}
    r = srv.http.put("/api/profiles/me/notices", json=away, headers={HEADER: mia["secret"]})
    assert r.status_code == 200 and r.json()["vacation"] is True, r.text
    assert sweep(srv, t0 + 5 * HOUR) == 0  # on vacation: her clock waits
    assert "left" not in info(srv, t["id"])["clock"]
    back = {"vacation": False}
    srv.http.put("/api/profiles/me/notices", json=back, headers={HEADER: mia["secret"]})
    assert sweep(srv, t0 + 5 * HOUR + 10) == 0  # back: the whole hour again
    assert info(srv, t["id"])["clock"]["left"] == HOUR - 10
    assert sweep(srv, t0 + 6 * HOUR + 5) == 1


def test_the_clock_runs_faster_by_a_setting(make_server):
    srv = make_server(clock_tick=0, clock_scale=3600.0)  # a clock hour is a real second
    tid, _, _ = two_people(srv)
    t0 = 5_000_000.0
    sweep(srv, t0)
    assert info(srv, tid)["clock"]["scale"] == 3600.0
    assert sweep(srv, t0 + 0.5) == 0
    assert sweep(srv, t0 + 1.0) == 1
