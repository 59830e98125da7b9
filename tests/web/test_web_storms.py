"""Issue 50's storms against a live server, while a control table is played (items 1, 2, 5, 10).

Each storm comes from addresses of its own (the server's limits count per client), each is
refused in words that say why, and the control table's moves are answered between its
requests: every control move's answer arrives before the next storm request is sent.

- (a) item 1: a Dolly Crush flock whose opening deal took 565,075 chance steps in the request;
- (b) item 2: 30 "is the perfect bot ready? start it" asks on Shave a Sheep with 1,000 wool;
- (c) item 5: 20-swap dog cards on an 8x8 flock with diagonal swaps, an expert bot at the table;
- (d) item 10: a die of pink faces only: no game can end.

(a) to (c) are refused by their cost, counted from the rules alone, before any of their work
runs (no deal is dealt, no positions are counted, no solving starts). (d) is refused by the one
ending check, which plays and solves (a second here): it runs off the event loop, so it is held
(the test lets it go) while the control table moves, and its words come after. The order is the
test's, never a guessed time.
"""

from __future__ import annotations

from typing import Any

import httpx
from addresses import http_from, ipv4
from test_web_off_loop import Hold, _in_thread, _move

from sheepfold.games import endings
from sheepfold.server import tables
from storms import DEAL_STORM, PERFECT_STORM, SWAP_STORM

EXPERT = {"kind": "bot", "bot": "expert"}
RANDOM = {"kind": "bot", "bot": "random"}
DEAL = {  # (a)
    "game": "dolly-crush",
    "seats": [{}, {}],
    "rules": DEAL_STORM,
}
PERFECT = {  # (b)
    "game": "shave-a-sheep",
    "seats": [{}, {"kind": "bot", "bot": "perfect"}],
    "rules": PERFECT_STORM,
}
SWAPS = {  # (c)
    "game": "dolly-crush",
    "seats": [{}, EXPERT],
    "rules": SWAP_STORM,
}
ENDLESS = {"game": "shave-a-sheep", "seats": [RANDOM, RANDOM], "rules": {"die": ["pink"]}}  # (d)


def _refused(r: httpx.Response, *words: str) -> str:
    """The refusal's words (a 422 that says each of ``words``)."""
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and all(w in detail for w in words), detail
    return detail


def test_the_storms_are_refused_in_words_and_the_control_table_keeps_moving(
    live_server: Any, ws_client: Any, monkeypatch: Any
) -> None:
    srv = live_server
    t = srv.create(game="shave-a-sheep", rules={"wool": 100}, seats=[{}, RANDOM])
    control = ws_client(f"{srv.ws_url}/ws/{t['id']}", srv.join(t["id"], "ann", seat=0)["token"])
    _move(control)
    dealt: list[Any] = []
    real_deal = tables.deal
    monkeypatch.setattr(tables, "deal", lambda *a: dealt.append(a) or real_deal(*a))
    # no timeout of their own: the ending check may compile the solver first (a cold cache:
    # minutes); a hang is pytest's timeout
    storm = [http_from(srv.url, ipv4(n, net=7), timeout=None) for n in range(4)]
    try:
        # (a) the opening deal's chance steps, over a web table's
        _refused(storm[0].post("/api/tables", json=DEAL), "chance steps", "a web table allows")
        _move(control)
        # (b) 30 asks that would start the perfect bot's solving, from 3 addresses
        for i in range(30):
            r = storm[i % 3].post("/api/tables/ready?start=true", json=PERFECT)
            _refused(r, "the perfect bot would solve", "a web table allows", "another bot")
            _move(control)
        assert srv.manager.solutions.job is None  # nothing solves, nothing was counted
        assert not srv.manager.solutions.sizes
        # (c) the expert's search per decision, over a web table's
        _refused(storm[3].post("/api/tables", json=SWAPS), "Expert bot", "choose an easier bot")
        _move(control)
        assert not dealt  # refused before any deal ran

        # (d) the ending check runs off the loop: held while the control table moves
        hold = Hold()
        monkeypatch.setattr(endings, "ending_refusal", hold.wrap(endings.ending_refusal))
        th, out = _in_thread(lambda: storm[0].post("/api/tables", json=ENDLESS))
        try:
            assert hold.entered.wait(60), "the ending check never started"
            _move(control)  # answered while the check is held
            _move(control)
        finally:
            hold.release.set()
            th.join()
        assert out, "the endless storm got no answer"
        _refused(out[0], "no game can end under these rules with 2 players")
        _move(control)
    finally:
        for c in storm:
            c.close()
    assert not control.last_state["view"]["finished"]  # every move above was a move of a game
    assert [tb.id for tb in srv.manager.tables.values()] == [t["id"]]  # no storm opened a table
