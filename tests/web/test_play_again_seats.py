""" "Play again" (issue 51): a seat free at the next table for a person who does not come back
waits for them the leave grace, then the table's replacement bot plays it until someone takes
it; it blocked the game for good (server/seating.py's wait_for_people, server/tables.py)."""

from __future__ import annotations

import random
from typing import Any

from test_profiles_api import SHORT_SHAVE, play_to_the_end

from polling import wait_until

FREE = "Seat 2 is free: a bot plays it until someone takes it"


def played_again(srv: Any, ws_client: Any) -> tuple[str, Any]:
    """Ann and Ben finish a game; Ann plays again and sits: the next table and her client."""
    old = srv.create(**SHORT_SHAVE, seats=[{"kind": "human"}] * 2, seed=11)
    a, b = srv.join(old["id"], "Ann", 0), srv.join(old["id"], "Ben", 1)
    ca = ws_client(f"{srv.ws_url}/ws/{old['id']}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{old['id']}", b["token"])
    play_to_the_end({0: ca, 1: cb}, random.Random(3))
    r = srv.http.post(f"/api/tables/{old['id']}/again")
    assert r.status_code == 201, r.text
    new = r.json()["id"]
    return new, ws_client(f"{srv.ws_url}/ws/{new}", srv.join(new, "Ann", 0)["token"])


def log_of(srv: Any, table: str) -> list[str]:
    return [e["text"] for e in srv.manager.get(table).log.events]


def test_a_seat_nobody_comes_back_for_is_played_by_the_tables_bot(make_server, ws_client):
    srv = make_server(leave_grace=0.2)
    new, ann = played_again(srv, ws_client)
    # Ben does not come back: after the grace a bot plays his seat, and Ann's game goes on
    assert play_to_the_end({0: ann}, random.Random(4))["finished"]
    assert FREE in log_of(srv, new)


def test_a_late_comer_takes_the_seat_from_its_bot(make_server, ws_client):
    srv = make_server(leave_grace=0.2)
    new, ann = played_again(srv, ws_client)
    wait_until(lambda: FREE in log_of(srv, new), what="a bot on the free seat")
    token = srv.join(new, "Ben", 1)["token"]
    seat = srv.http.get(f"/api/tables/{new}").json()["seats"][1]  # his, before he connects
    assert (seat["name"], seat["free"], seat["stand_in"]) == ("Ben", False, None)
    ben = ws_client(f"{srv.ws_url}/ws/{new}", token)
    assert play_to_the_end({0: ann, 1: ben}, random.Random(5))["finished"]


def test_after_a_restart_the_free_seat_still_waits_then_its_bot_plays_and_play_again_leads_there(
    make_server, ws_client, tmp_path
):
    # the grace timer lived in memory only: after a restart the free seat blocked the game,
    # and "Play again" at the finished table opened a second next table
    db = str(tmp_path / "again.db")
    srv = make_server(db, leave_grace=0.2)
    old_id = srv.create(**SHORT_SHAVE, seats=[{"kind": "human"}] * 2, seed=11)["id"]
    a, b = srv.join(old_id, "Ann", 0), srv.join(old_id, "Ben", 1)
    ca = ws_client(f"{srv.ws_url}/ws/{old_id}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{old_id}", b["token"])
    play_to_the_end({0: ca, 1: cb}, random.Random(3))
    ca.close(), cb.close()
    r = srv.http.post(f"/api/tables/{old_id}/again")
    assert r.status_code == 201, r.text
    new = r.json()["id"]
    ann_token = srv.join(new, "Ann", 0)["token"]
    srv.stop()
    srv = make_server(db, leave_grace=0.2)
    again = srv.http.post(f"/api/tables/{old_id}/again")
    assert again.json()["id"] == new
    ann = ws_client(f"{srv.ws_url}/ws/{new}", ann_token)
    assert play_to_the_end({0: ann}, random.Random(4))["finished"]
    assert FREE in log_of(srv, new)
