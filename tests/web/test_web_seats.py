"""A seat belongs to its token until the table ends: a bot stands in for an absent player, the
player takes the seat back with the token (however often), and the seat link carries it."""

from __future__ import annotations

from typing import Any

from polling import wait_until


def test_the_seat_comes_back_as_often_as_its_player(make_server, ws_client, blocker):
    # the stand-in thinks until released: the player comes back before it has played
    srv = make_server(leave_grace=0.05, bot_deadline=60)
    t = srv.create(game="dolly-crush", seats=[{}, {}], replacement_bot="blocker")
    ann = srv.join(t["id"], "Ann")
    assert ann["seat_link"] == f"/t/{t['id']}#seat={ann['token']}"
    srv.join(t["id"], "Bob")
    url = f"{srv.ws_url}/ws/{t['id']}"

    def seat0() -> dict[str, Any]:
        return srv.http.get(f"/api/tables/{t['id']}").json()["seats"][0]

    for _ in range(2):  # away, back, away again at the same position
        ws_client(url, ann["token"]).close()
        wait_until(lambda: seat0()["stand_in"] == "blocker", what="a stand-in for Ann")
        back = ws_client(url, ann["token"])  # another connection: a reload, another device
        assert back.last_state["you"] == 0 and seat0()["stand_in"] is None
        back.close()
    wait_until(lambda: seat0()["stand_in"] == "blocker", what="the stand-in again")
    watcher = ws_client(url)
    blocker.release.set()  # the first stand-ins' answers are dropped; the last one plays
    msg = watcher.wait_state(lambda m: m["view"]["to_move"] == 0 and m["view"]["phase"] == "swap")
    assert msg["seq"] > 15 and msg["table"]["seats"][0]["name"] == "Ann"
    mine = ws_client(url, ann["token"])  # and the seat is still Ann's to take back
    assert mine.last_state["you"] == 0
