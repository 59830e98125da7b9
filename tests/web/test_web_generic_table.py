"""A game with no table driver of its own (Pig Pen) at a table: the generic driver, over the
WebSocket and the HTTP API (issue 25, "One seam per game")."""

from __future__ import annotations

from sheepfold.core.drivers import GenericTable, table_driver, value_text


def test_the_generic_driver_says_a_view_in_words() -> None:
    from sheepfold.games import make

    driver = table_driver("pig-pen")
    assert isinstance(driver, GenericTable) and driver.score_label == "pen"
    state = make("pig-pen", players=3).new_initial_state(seed=4)
    shown = driver.shown(driver.view(state, None, True))
    assert shown["renderer"] == "generic" and shown["score_label"] == "pen"
    assert "pens: 0, 0, 0" in shown["lines"] and "target: 30" in shown["lines"]
    assert not any("_" in line or line.startswith(("turn:", "scores")) for line in shown["lines"])
    assert [value_text(v) for v in (True, 2.0, [], [[1]], None)] == ["yes", "2", "none", None, None]


def test_a_pig_pen_table_over_the_websocket(live_server, ws_client) -> None:
    t = live_server.create(
        game="pig-pen", seats=[{"kind": "human"}, {"kind": "human"}], seed=1, private=True
    )
    a = live_server.join(t["id"], "Ann")
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", a["token"])
    st = c.last_state
    assert st["shown"]["renderer"] == "generic" and st["view"]["to_move"] == 0  # rolled at once
    for kind, words in [
        ("roll", "'roll' is a Shave a Sheep message; a Pig Pen table takes 'act', 'leave'"),
        ("turn", "'turn' is a Dolly Crush message; a Pig Pen table takes 'act', 'leave'"),
        ("wave", "unknown message type 'wave' (a Pig Pen table takes 'hello', 'state', 'act'"),
    ]:
        c.send({"type": kind, "ref": kind})
        err = c.wait(lambda m: m["type"] == "error")
        assert words in err["message"] and err["ref"] == kind
    seq = st["seq"]
    c.send({"type": "act", "action": "pen"})
    after = c.wait(lambda m: m["type"] == "state" and m["seq"] > seq)
    assert after["view"]["pens"][0] == st["view"]["turn_wool"]
    said = [{k: e[k] for k in ("seat", "who", "text")} for e in after["events"]]
    assert {"seat": 0, "who": "Ann", "text": "pen"} in said  # the decision's name
    assert any(e["seat"] is None and e["text"].startswith("roll ") for e in after["events"])
    bad = live_server.http.post(
        "/api/tables", json={"game": "pig-pens", "seats": [{"kind": "human"}] * 2}
    )
    assert bad.status_code == 422 and "no game 'pig-pens'" in bad.text
