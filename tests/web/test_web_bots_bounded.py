"""Bots a server can afford: options within each bot's declared limits, every decision in the
bounded pool with a deadline (a late bot plays a fallback move), and the perfect bot only with
solutions computed beforehand or by the one background job."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from polling import wait_until
from sheepfold.bots import check_options
from sheepfold.server.limits import Rate


def _create(srv: Any, bot: str, game: str = "dolly-crush", **extra: Any) -> Any:
    seats = [{"kind": "bot", "bot": bot}, {"kind": "human"}]
    return srv.http.post("/api/tables", json={"game": game, "seats": seats, **extra})


@pytest.mark.parametrize(
    "spec, words",
    [
        ("expert:iterations=2000000000,time=15", "iterations=2000000000 is out of bounds"),
        ("expert:time=0", "time=0 is out of bounds: from 0.05 to 2"),
        ("hard:threads=64", "takes no option 'threads' here (its options: time (0.05 to 2)"),
        ("random:x=1", "it takes no options"),
        ("easy:greedy=high", "greedy=high is out of bounds"),
    ],
)
def test_bot_options_over_the_limits_are_refused(live_server, spec, words):
    r = _create(live_server, spec)
    assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_bot_options_within_the_limits_are_taken(live_server):
    assert _create(live_server, "expert:iterations=2000,time=0.5").status_code == 201
    assert check_options("shave-a-sheep", "greedy") == "greedy"
    r = _create(live_server, "perfect:greedy,-", game="shave-a-sheep")
    assert r.status_code == 422 and "perfect bot takes no option" in r.json()["detail"]
    r = live_server.http.post(
        "/api/tables",
        json={"game": "dolly-crush", "seats": [{}, {}], "replacement_bot": "hard:iterations=999"},
    )
    assert r.status_code == 422 and "iterations=999" in r.json()["detail"]


def test_a_bot_past_its_deadline_plays_a_fallback_and_no_table_starves(
    make_server, ws_client, blocker, caplog
):
    # one worker, held by a bot that never answers: every other decision would wait for ever
    srv = make_server(bot_workers=1, bot_deadline=0.05)
    stuck = srv.create(  # Dolly Crush: a dog card, then its swaps, all decisions of one seat
        game="dolly-crush",
        seats=[{"kind": "bot", "bot": "blocker"}, {"kind": "bot", "bot": "blocker"}],
    )
    other = srv.create(
        game="shave-a-sheep",
        rules={"wool": 3},
        seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
    )
    with caplog.at_level(logging.WARNING, logger="sheepfold.server"):
        c = ws_client(f"{srv.ws_url}/ws/{other['id']}")
        assert c.wait_state(lambda m: m["view"]["finished"], timeout=60)
        c = ws_client(f"{srv.ws_url}/ws/{stuck['id']}")
        assert c.wait_state(lambda m: m["seq"] > 40, timeout=60)  # turn after turn
    events = srv.manager.get(stuck["id"]).events + srv.manager.get(other["id"]).events
    assert any("took too long" in e["text"] for e in events)
    slow = [r.getMessage() for r in caplog.records if "too slow" in r.getMessage()]
    assert any(stuck["id"] in line and "no decision within 0.05 s" in line for line in slow)
    assert any("still busy" in line for line in slow)  # a late bot is not asked again


@pytest.fixture
def solver_home(tmp_path: Any, monkeypatch: Any) -> Any:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))  # an empty solver cache
    return tmp_path / "home"


def test_perfect_is_solved_by_one_background_job_never_in_a_request(make_server, solver_home):
    srv = make_server(solve_limit=1_000, create_rate=Rate(0, 0), max_open_tables=0)
    spec = {
        "game": "shave-a-sheep",
        "rules": {"wool": 6},
        "seats": [{"kind": "bot", "bot": "perfect"}, {}],
    }
    r = srv.http.post("/api/tables", json=spec)
    assert r.status_code == 409, r.text
    assert "perfect bot is solving the 2-player game of these rules" in r.json()["detail"]
    assert "ready in about" in r.json()["detail"]
    other = {**spec, "rules": {"wool": 5}}
    r = srv.http.post("/api/tables", json=other)
    assert r.status_code in (201, 409)  # the job may be done already; else it is busy
    if r.status_code == 409:
        assert "busy with another rule set" in r.json()["detail"]

    def opened() -> Any:
        r = srv.http.post("/api/tables", json=spec)
        assert r.status_code in (201, 409), r.text  # a failed job says so (422): stop waiting
        return r.json() if r.status_code == 201 else None

    # generous: a cold numba cache makes the job compile the solver first (minutes on a busy machine)
    t = wait_until(opened, what="the background job to solve the rules", timeout=900)
    table = srv.manager.get(t["id"])
    assert table is not None
    big = srv.http.post("/api/tables", json={**spec, "rules": {"wool": 30}})
    assert big.status_code == 422
    assert "not available for these rules" in big.json()["detail"]
    assert "more than this server solves (1,000 positions)" in big.json()["detail"]


def test_perfect_plays_from_the_cache(make_server, ws_client, solver_home):
    from sheepfold.games import make
    from sheepfold.games.shave_a_sheep import solver

    solver.cached(make("shave-a-sheep", players=2, rules={"wool": 5}).rules, 2)  # as `solve` does
    srv = make_server(solve_limit=0)  # the server itself solves nothing
    t = srv.create(
        game="shave-a-sheep",
        rules={"wool": 5},
        seats=[{"kind": "bot", "bot": "perfect"}, {"kind": "bot", "bot": "random"}],
    )
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    c.wait_state(lambda m: m["view"]["finished"], timeout=60)
    assert not any("trouble" in e["text"] for e in srv.manager.get(t["id"]).events)
