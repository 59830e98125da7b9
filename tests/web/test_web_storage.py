"""Storage on SQLite and on a real PostgreSQL server (started by the tests, never skipped)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from polling import run_async
from sheepfold.server.storage import SeatRow, Storage, TableRow
from sheepfold.server.tables import Conn, Settings, TableManager


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: Any, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "s.db")
    url = request.getfixturevalue("postgres_url")
    # a fresh schema per test: drop what an earlier test left
    s = Storage(url)
    from sheepfold.server.storage import metadata

    metadata.drop_all(s.engine)
    s.close()
    return url


def test_storage_round_trip(db_url):
    s = Storage(db_url)
    assert s.kind in ("sqlite", "postgresql")
    row = TableRow(
        "t1",
        "shave-a-sheep",
        2,
        {"rules": {"wool": 9}, "show_scores": True},
        2**40 + 7,
        123.0,
        False,
        [SeatRow(0, "human"), SeatRow(1, "bot", "b", "random")],
        [(-1, 3), (0, 1)],
    )
    s.create_table(row)
    s.append_actions("t1", 2, [(-1, 0), (1, 2)])
    s.update_seat("t1", SeatRow(0, "human", "Ann", None, "ab" * 32))
    s.append_actions("t1", 4, [], finished=True)
    with pytest.raises(IntegrityError):  # an action index is written once
        s.append_actions("t1", 3, [(0, 0)])
    s.close()
    s2 = Storage(db_url)
    again = s2.load_all()
    s2.close()
    assert len(again) == 1
    got = again[0]
    assert (got.id, got.game, got.players, got.seed, got.finished) == (
        "t1",
        "shave-a-sheep",
        2,
        2**40 + 7,
        True,
    )
    assert got.config == {"rules": {"wool": 9}, "show_scores": True}
    assert got.actions == [(-1, 3), (0, 1), (-1, 0), (1, 2)]
    assert got.seats[0] == SeatRow(0, "human", "Ann", None, "ab" * 32)
    assert got.seats[1] == SeatRow(1, "bot", "b", "random", None)


def _drive(manager: TableManager, rng: random.Random, steps: int) -> None:
    """Random intents from fake connections, as a client would send them."""
    import json

    conns: dict[tuple[str, int], Conn] = {}
    for _ in range(steps):
        for t in list(manager.tables.values()):
            if t.finished():
                continue
            st = t.state
            v = st.observe(None)
            seat = v["turn"] if v["to_move"] == "chance" else v["to_move"]
            if seat is None or t.seats[seat].kind == "bot":
                continue
            key = (t.id, seat)
            if key not in conns:
                c = Conn(lambda s: None)
                c.seat = seat
                conns[key] = c
            c = conns[key]
            if t.name == "shave-a-sheep" and v["phase"] == "roll":
                t.handle(c, json.dumps({"type": "roll"}))
            elif v["phase"] == "grab":
                t.handle(c, json.dumps({"type": "grab"}))
            elif v["legal_actions"]:
                t.handle(c, json.dumps({"type": "act", "action": rng.choice(v["legal_actions"])}))


def test_tables_rebuild_exactly_from_storage(db_url):
    async def run() -> None:
        settings = Settings(
            bot_delay=0, react_min=0, react_max=0.01, race_timeout=0.05, allow_seed=True
        )
        m = TableManager(Storage(db_url), settings)
        specs = [
            {
                "game": "dolly-crush",
                "rules": {},
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "seed": 1,
            },
            {
                "game": "shave-a-sheep",
                "rules": {"wool": 12, "variants": ["howling-wolf"]},
                "seats": [
                    {"kind": "human"},
                    {"kind": "human"},
                    {"kind": "bot", "bot": "random", "name": "B"},
                ],
                "seed": 2,
            },
            {
                "game": "shave-a-sheep",
                "rules": {"variants": ["my-friend-mr-wolf"]},
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "seed": 3,
            },
        ]
        for sp in specs:
            m.create(sp)
        rng = random.Random(4)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while not all(t.stored > 15 for t in m.tables.values()):  # poll, with a deadline
            assert loop.time() < deadline, "the tables did not get past 15 stored actions"
            _drive(m, rng, 5)
            await asyncio.sleep(0.01)  # give the loop a turn: bots and race timers run
        await m.close()  # flushes what is not stored yet: the tables as they are now
        before = {tid: (t.state.snapshot(), t.stored) for tid, t in m.tables.items()}
        m2 = TableManager(Storage(db_url), settings)
        assert m2.load() == 3
        for tid in before:  # a finished one is archived: read back when asked for
            t = m2.get(tid)
            assert t is not None and (t.state.snapshot(), t.stored) == before[tid]
            assert not m2.quarantined
        await m2.close()

    run_async(run())


@pytest.mark.postgres
def test_live_server_on_postgres_plays_a_game(make_server, postgres_url, ws_client):
    from sheepfold.server.storage import metadata

    s = Storage(postgres_url)
    metadata.drop_all(s.engine)
    s.close()
    srv = make_server(postgres_url)
    assert srv.http.get("/healthz").json()["db"] == "postgresql"
    t = srv.create(
        game="shave-a-sheep",
        rules={"wool": 6},
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        seed=12,
    )
    a = srv.join(t["id"], "Ann")
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    rng = random.Random(1)
    while not c.last_state["view"]["finished"]:
        v, seq = c.last_state["view"], c.last_state["seq"]
        if v["phase"] == "roll" and v["turn"] == 0:
            c.send({"type": "roll"})
        elif v["to_move"] == 0:
            c.send({"type": "act", "action": rng.choice(v["legal_actions"])})
        c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
    stored = Storage(postgres_url)
    rows = {r.id: r for r in stored.load_all()}
    assert rows[t["id"]].finished and len(rows[t["id"]].actions) == c.last_state["seq"]
    stored.close()
