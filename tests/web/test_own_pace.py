"""Play over days: a table at your own pace keeps every seat for its person (no bot stands in),
"Your tables" lists a profile's open tables and marks where it is its turn, and the game goes
on after a restart, on any device that shows the profile."""

from __future__ import annotations

from typing import Any

from test_profiles_api import join_as, make_profile

from polling import wait_until
from sheepfold.server.profiles import HEADER

OWN_PACE = {"game": "shave-a-sheep", "rules": {"wool": 6}, "auto_roll": True, "own_pace": True}
TWO = [{"kind": "human"}, {"kind": "human"}]


def yours(server: Any, profile: dict[str, Any]) -> list[dict[str, Any]]:
    r = server.http.get("/api/profiles/me/tables", headers={HEADER: profile["secret"]})
    assert r.status_code == 200, r.text
    return r.json()


def act_once(client: Any) -> None:
    """The client's seat plays its first legal action; returns once the state moved on."""
    st = client.last_state
    client.send({"type": "act", "action": st["view"]["legal_actions"][0]})
    client.wait_state(lambda m: m["seq"] > st["seq"])


def test_an_own_pace_seat_waits_for_its_person(make_server, ws_client):
    srv = make_server(leave_grace=0.01)
    t = srv.create(**OWN_PACE, seats=TWO, replace_leavers=True)  # own pace wins
    assert t["own_pace"] is True and t["replace_leavers"] is False
    normal = srv.create(game="shave-a-sheep", seats=TWO)
    a, n = srv.join(t["id"], "Ann"), srv.join(normal["id"], "Ann")
    ca = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    cn = ws_client(f"{srv.ws_url}/ws/{normal['id']}", n["token"])
    ca.close()
    cn.close()
    m = srv.manager
    # the ordinary table's seat gets its stand-in after the grace; the own-pace one never
    wait_until(lambda: m.get(normal["id"]).seats[0].stand_in, what="the ordinary stand-in")
    own = m.get(t["id"])
    wait_until(lambda: not own.seats[0].conns, what="the disconnect")
    assert own.seats[0].leave_timer is None and own.seats[0].stand_in is None
    info = srv.http.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][0]["name"] == "Ann" and info["seats"][0]["stand_in"] is None
    # leaving an own-pace table frees the seat for someone else (no bot takes it)
    c2 = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    c2.send({"type": "leave"})
    c2.wait_state(lambda s: s["table"]["seats"][0]["free"])
    assert srv.http.get(f"/api/tables/{t['id']}").json()["seats"][0]["kind"] == "human"


def test_your_tables_marks_your_turn_and_survives_a_restart(make_server, ws_client, tmp_path):
    db = str(tmp_path / "days.db")
    srv = make_server(db)
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    first = srv.create(**OWN_PACE, seats=TWO, seed=1)  # Mia's turn (seat 0 starts)
    second = srv.create(**OWN_PACE, seats=TWO, seed=2)
    join_as(srv, first["id"], mia, 0)
    join_as(srv, first["id"], leo, 1)
    join_as(srv, second["id"], leo, 0)
    m2 = join_as(srv, second["id"], mia, 1)
    other = srv.create(**OWN_PACE, seats=TWO)  # not Mia's: not listed
    srv.join(other["id"], "Bob")
    listed = yours(srv, mia)
    assert [(e["id"], e["your_turn"], e["seat"]) for e in listed] == [
        (first["id"], True, 0),
        (second["id"], False, 1),
    ]
    assert listed[0]["title"] == "Shave a Sheep" and listed[0]["link"] == f"/t/{first['id']}"
    assert [s["name"] for s in listed[0]["seats"]] == ["Mia", "Leo"]
    assert "_" not in listed[0]["rules"]  # the rules in words
    # Mia plays on another device: her profile's secret, no seat token
    c = ws_client(f"{srv.ws_url}/ws/{first['id']}")
    c.send({"type": "hello", "profile": mia["secret"]})
    c.wait_state(lambda s: s["you"] == 0)
    while c.last_state["view"]["to_move"] == 0:
        act_once(c)
    seq = c.last_state["seq"]
    c.close()
    assert [e["your_turn"] for e in yours(srv, mia)] == [False, False]
    assert [e["your_turn"] for e in yours(srv, leo)] == [True, True]
    srv.stop()
    # days later: the server started again
    srv = make_server(db)
    assert [(e["id"], e["your_turn"]) for e in yours(srv, leo)] == [
        (second["id"], True),  # the newest first
        (first["id"], True),
    ]
    cl = ws_client(f"{srv.ws_url}/ws/{first['id']}")
    assert cl.last_state["seq"] == seq  # nothing lost, nothing played for them
    cl.send({"type": "hello", "profile": leo["secret"]})
    cl.wait_state(lambda s: s["you"] == 1)
    act_once(cl)
    # a secret that is not a profile's takes no seat (and a seat token still works)
    cx = ws_client(f"{srv.ws_url}/ws/{second['id']}")
    cx.send({"type": "hello", "profile": "A" * 43})
    cx.send({"type": "hello", "profile": {"not": "a secret"}})
    cx.send({"type": "state"})
    cx.wait(lambda msg: msg["type"] == "state")
    assert cx.last_state["you"] is None
    ct = ws_client(f"{srv.ws_url}/ws/{second['id']}", m2["token"])
    assert ct.last_state["you"] == 1


def test_your_tables_lists_a_table_another_process_serves(live_server):
    """In a cluster (server/cluster.py) another process may serve the table: it is listed as
    it is stored, whose turn it is included."""
    mia, leo = make_profile(live_server.http, "Mia"), make_profile(live_server.http, "Leo")
    t = live_server.create(**OWN_PACE, seats=TWO, seed=1)
    join_as(live_server, t["id"], mia, 0)
    join_as(live_server, t["id"], leo, 1)
    here = yours(live_server, mia)
    del live_server.manager.tables[t["id"]]  # as if another process held it
    assert yours(live_server, mia) == here and here[0]["your_turn"] is True
    assert yours(live_server, leo)[0]["your_turn"] is False
