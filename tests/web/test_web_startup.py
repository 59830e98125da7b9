"""Start-up that survives bad data (damaged tables are quarantined, the others served), the
``sheepfold db check`` command, the seed column's migration, and a /healthz that writes."""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from test_web_api import dolly_turn

from sheepfold.server.storage import Storage


def _play_turns(clients: list[Any], rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        st = clients[0].last_state
        seq, seat = st["seq"], st["view"]["to_move"]
        c = clients[seat]
        if c.last_state["seq"] < seq:
            c.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] >= seq)
        c.send(dolly_turn(c.last_state["view"], seat, rng))
        for x in clients:
            x.wait(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)


def _played_tables(srv: Any, ws_client: Any, n: int) -> list[str]:
    """``n`` Dolly Crush tables, each played a few turns by two people."""
    ids = []
    for i in range(n):
        t = srv.create(game="dolly-crush", seats=[{}, {}], seed=100 + i)
        a, b = srv.join(t["id"], "Ann"), srv.join(t["id"], "Bob")
        clients = [ws_client(f"{srv.ws_url}/ws/{t['id']}", x["token"]) for x in (a, b)]
        _play_turns(clients, random.Random(i), 3)
        ids.append(t["id"])
    return ids


def _damage(db: str, ok: str, bad_json: str, bad_game: str, bad_action: str) -> None:
    c = sqlite3.connect(db)
    c.execute("UPDATE sf_tables SET config = '{\"rules\": ' WHERE id = ?", (bad_json,))
    c.execute("UPDATE sf_tables SET game = 'chess' WHERE id = ?", (bad_game,))
    c.execute("UPDATE sf_actions SET action = 9999 WHERE table_id = ? AND idx = 20", (bad_action,))
    c.commit()
    c.close()


def _db_check(db: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", "db", "check", "--db", db],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_damaged_tables_are_quarantined_and_the_others_served(
    make_server, ws_client, tmp_path, caplog
):
    db = str(tmp_path / "t.db")
    srv = make_server(db)
    ok, bad_json, bad_game, bad_action = _played_tables(srv, ws_client, 4)
    srv.stop()
    assert _db_check(db).returncode == 0
    _damage(db, ok, bad_json, bad_game, bad_action)

    with caplog.at_level(logging.ERROR, logger="sheepfold.server"):
        srv2 = make_server(db)
    assert srv2.http.get("/healthz").json()["quarantined"] == 3
    assert srv2.http.get(f"/api/tables/{ok}").status_code == 200
    listed = [t["id"] for t in srv2.http.get("/api/tables").json()]
    assert listed == [ok]
    for tid, why in ((bad_json, "config"), (bad_game, "chess"), (bad_action, "action 20")):
        r = srv2.http.get(f"/api/tables/{tid}")
        assert r.status_code == 503 and "quarantined" in r.json()["detail"]
        line = next(r.getMessage() for r in caplog.records if tid in r.getMessage())
        assert "quarantined" in line and why in line, line
    # the healthy table plays on
    c = ws_client(f"{srv2.ws_url}/ws/{ok}")
    assert c.last_state["seq"] > 15

    out = _db_check(db)
    assert out.returncode == 1, out.stdout + out.stderr
    damaged = [line for line in out.stdout.splitlines() if line.startswith("damaged")]
    assert sorted(line.split()[2].rstrip(":") for line in damaged) == sorted(
        [bad_json, bad_game, bad_action]
    )
    assert "4 tables, 3 damaged" in out.stdout


def test_a_missing_action_row_is_damage(make_server, ws_client, tmp_path):
    db = str(tmp_path / "t.db")
    srv = make_server(db)
    (tid,) = _played_tables(srv, ws_client, 1)
    srv.stop()
    c = sqlite3.connect(db)
    c.execute("DELETE FROM sf_actions WHERE table_id = ? AND idx = 16", (tid,))
    c.commit()
    c.close()
    out = _db_check(db)
    assert out.returncode == 1 and "action 16 is missing" in out.stdout


def test_healthz_fails_when_the_database_file_is_gone_or_read_only(make_server, tmp_path):
    db = tmp_path / "t.db"
    srv = make_server(str(db))
    assert srv.http.get("/healthz").json()["ok"] is True
    db.chmod(0o444)
    r = srv.http.get("/healthz")
    assert r.status_code == 503 and "read-only" in r.json()["detail"]
    db.chmod(0o644)
    assert srv.http.get("/healthz").status_code == 200
    db.unlink()
    r = srv.http.get("/healthz")
    assert r.status_code == 503 and "gone" in r.json()["detail"]
    # and a move is not acknowledged: it would be lost with the file
    r = srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}]})
    assert r.status_code == 503 and "gone" in r.json()["detail"]


def test_healthz_fails_when_the_database_refuses_writes(make_server, tmp_path):
    db = tmp_path / "t.db"
    Storage(str(db)).close()
    srv = make_server(f"sqlite:///file:{db}?mode=ro&uri=true")
    r = srv.http.get("/healthz")
    assert r.status_code == 503 and "does not accept a write" in r.json()["detail"]


OLD_SCHEMA = """
CREATE TABLE sf_tables (id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(32) NOT NULL,
  players INTEGER NOT NULL, config JSON NOT NULL, seed BIGINT NOT NULL, created FLOAT NOT NULL,
  finished BOOLEAN NOT NULL);
CREATE TABLE sf_seats (table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,
  kind VARCHAR(8) NOT NULL, name VARCHAR(64), bot VARCHAR(64), token_hash VARCHAR(64),
  PRIMARY KEY (table_id, seat));
CREATE TABLE sf_actions (table_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL,
  seat INTEGER NOT NULL, action INTEGER NOT NULL, PRIMARY KEY (table_id, idx));
INSERT INTO sf_tables VALUES ('old', 'shave-a-sheep', 2, '{}', 4611686018427387903, 1.0, false);
INSERT INTO sf_seats VALUES ('old', 0, 'human', NULL, NULL, NULL);
INSERT INTO sf_seats VALUES ('old', 1, 'human', NULL, NULL, NULL);
"""


def _old_database(url: str) -> None:
    from sheepfold.server.storage import metadata

    s = Storage(url)
    metadata.drop_all(s.engine)
    with s.engine.begin() as c:
        for stmt in filter(str.strip, OLD_SCHEMA.split(";")):
            c.execute(text(stmt))
    s.close()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_database_with_integer_seeds_is_migrated(kind, tmp_path, request):
    url = str(tmp_path / "old.db") if kind == "sqlite" else request.getfixturevalue("postgres_url")
    _old_database(url)
    s = Storage(url)  # migrates
    (old,) = s.load_all()
    assert old.seed == 2**62 - 1 and old.damage is None
    s.close()
    from sheepfold.server.storage import metadata

    big = Storage(url)
    with big.engine.begin() as c:  # a 129-bit seed is stored and read back exactly
        c.execute(text("UPDATE sf_tables SET seed = :s"), {"s": str(2**128 + 12345)})
    assert big.load_all()[0].seed == 2**128 + 12345
    if kind == "postgres":
        metadata.drop_all(big.engine)
    big.close()


def test_a_seed_that_is_no_integer_is_damage(tmp_path: Path):
    s = Storage(str(tmp_path / "t.db"))
    with s.engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO sf_tables (id, game, players, config, seed, created, finished) "
                "VALUES ('x', 'dolly-crush', 2, '{}', 'abc', 1.0, false)"
            )
        )
    (row,) = s.load_all()
    s.close()
    assert row.damage and "seed" in row.damage
