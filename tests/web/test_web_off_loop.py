"""Costly work never holds the event loop (issue 50: items 1, 2 and 5).

A new table's deal, a table read back from the database, a replay, the perfect bot's count of
positions: each runs in the server's work pool, so while one is held up (a test hook holds it
until the test lets it go) another table's moves are answered. Bot decisions are stopped at
their deadline, and a table has one decision in the bot pool at a time, so a table of slow
bots never starves another table's bots.

Each storm waits for the test, never for a guessed time: the control move's answer must arrive
while the storm is held. On a server that does the work on its loop the control move is not
answered (its wait fails) and the hook is let go by the test's ``finally``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from polling import wait_until
from sheepfold.core.deadline import OutOfTime, check
from sheepfold.server import solutions, tables
from sheepfold.server.limits import Rate

UNLIMITED = dict(create_rate=Rate(0, 0), read_rate=Rate(0, 0), max_open_tables=0)


class Hold:
    """Wraps a function so that its call waits until the test lets it go (``release``)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def held(*args: Any, **kw: Any) -> Any:
            if not self.entered.is_set():  # the first call is the storm's
                self.entered.set()
                self.release.wait(60)  # let go by the test (its finally, on a failure)
            return real(*args, **kw)

        return held


def _control(srv: Any, ws_client: Any) -> Any:
    """A control table: my seat and a bot's (Shave a Sheep), connected; a move of mine is
    answered by a new state."""
    t = srv.create(
        game="shave-a-sheep", rules={"wool": 30}, seats=[{}, {"kind": "bot", "bot": "random"}]
    )
    me = srv.join(t["id"], "ann", seat=0)
    return ws_client(f"{srv.ws_url}/ws/{t['id']}", me["token"])


def _move(c: Any) -> None:
    """One move of mine at the control table, and its answer (the next state)."""

    def mine(view: dict[str, Any]) -> bool:
        return (view["phase"] == "roll" and view["turn"] == 0) or (
            view["to_move"] == 0 and bool(view["legal_actions"])
        )

    c.wait_state(lambda m: mine(m["view"]), timeout=30)
    view, seq = c.last_state["view"], c.last_state["seq"]
    if view["phase"] == "roll":
        c.send({"type": "roll"})
    else:
        c.send({"type": "act", "action": view["legal_actions"][0]})
    c.wait(lambda m: m["type"] == "state" and m["seq"] != seq, timeout=20)


def _in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    th = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    th.start()
    return th, out


def _finished_table(srv: Any, ws_client: Any) -> str:
    t = srv.create(
        game="shave-a-sheep",
        rules={"wool": 3},
        seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
    )
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}")
    c.wait_state(lambda m: m["view"]["finished"], timeout=60)
    c.close()
    return str(t["id"])


@pytest.fixture
def solver_home(tmp_path: Any, monkeypatch: Any) -> Any:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))  # an empty solver cache
    return tmp_path / "home"


def _storm_deal(srv: Any, ws_client: Any, url: str) -> tuple[str, str, dict[str, Any]]:
    spec = {"game": "dolly-crush", "seats": [{}, {}]}
    return "post", "/api/tables", spec


def _storm_again(srv: Any, ws_client: Any, url: str) -> tuple[str, str, dict[str, Any]]:
    return "post", f"/api/tables/{_finished_table(srv, ws_client)}/again", {}


def _storm_replay(srv: Any, ws_client: Any, url: str) -> tuple[str, str, dict[str, Any]]:
    return "get", f"/api/tables/{_finished_table(srv, ws_client)}/replay", {}


def _storm_read_back(srv: Any, ws_client: Any, url: str) -> tuple[str, str, dict[str, Any]]:
    table = _finished_table(srv, ws_client)
    wait_until(lambda: table in srv.manager.archived, what="the finished table to be archived")
    return "get", f"/api/tables/{table}/record", {}


def _storm_perfect(srv: Any, ws_client: Any, url: str) -> tuple[str, str, dict[str, Any]]:
    spec = {
        "game": "shave-a-sheep",
        "rules": {"wool": 12},
        "seats": [{"kind": "bot", "bot": "perfect"}, {}],
    }
    return "post", "/api/tables/ready?start=true", spec


STORMS = {  # what is held, and the request that runs into it
    "a new table's deal": (tables, "deal", _storm_deal, 201),
    "play again's deal": (tables, "deal", _storm_again, 201),
    "a replay's frames": (tables, "replay_frames", _storm_replay, 200),
    "a table read back": (tables, "rebuild", _storm_read_back, 200),
    "the perfect bot's count": (solutions.Solutions, "_size", _storm_perfect, 200),
}


@pytest.mark.parametrize("storm", list(STORMS))
def test_a_control_table_moves_while_costly_work_is_held(
    storm, make_server, ws_client, monkeypatch, solver_home
):
    where, name, request, status = STORMS[storm]
    srv = make_server(archive_after=0.05, solve_limit=0, **UNLIMITED)
    c = _control(srv, ws_client)
    method, path, body = request(srv, ws_client, srv.url)
    hold = Hold()
    monkeypatch.setattr(where, name, hold.wrap(getattr(where, name)))
    with httpx.Client(base_url=srv.url, timeout=120) as http:
        th, out = _in_thread(lambda: http.request(method, path, json=body or None))
        try:
            assert hold.entered.wait(60), f"{storm}: the held work never started"
            _move(c)  # answered while the storm's work is held
            _move(c)
        finally:
            hold.release.set()
            th.join(120)
    assert out and out[0].status_code == status, out and out[0].text


def test_a_late_decision_is_stopped_and_tables_take_turns(make_server, ws_client, caplog):
    """Two slow bots (they think until stopped) at one table, two workers: the table has one
    decision in the pool at a time, each stopped at its deadline, and the other table's bots
    decide for themselves (never a fallback move)."""
    from sheepfold.bots import _LIMITS, _REGISTRY, register_bot

    lock = threading.Lock()
    thinking, most, stopped = [0], [0], [0]
    done = threading.Event()  # the end of the test: a bot nobody stops ends here

    class Thinker:
        def __init__(self, game: Any, seat: int) -> None:
            self.game = game

        def act(self, view: Any) -> int:
            with lock:
                thinking[0] += 1
                most[0] = max(most[0], thinking[0])
            try:
                while not done.wait(0.002):
                    check()  # the bots' search loops check the deadline like this
            except OutOfTime:
                with lock:
                    stopped[0] += 1
                raise
            finally:
                with lock:
                    thinking[0] -= 1
            return int(self.game.determinize(view, seed=0).legal_actions()[0])

    register_bot("dolly-crush", "thinker", "thinks until stopped")(
        lambda game, seat, seed, arg: Thinker(game, seat)  # type: ignore[arg-type,return-value]
    )
    try:
        srv = make_server(bot_workers=2, bot_deadline=0.3)
        slow = srv.create(
            game="dolly-crush",
            seats=[{"kind": "bot", "bot": "thinker"}, {"kind": "bot", "bot": "thinker"}],
        )
        other = srv.create(
            game="shave-a-sheep",
            rules={"wool": 6},
            seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
        )
        with caplog.at_level(logging.WARNING, logger="sheepfold.server"):
            s = ws_client(f"{srv.ws_url}/ws/{slow['id']}")
            s.wait_state(lambda m: m["seq"] > 6, timeout=60)  # fallback moves, turn after turn
            o = ws_client(f"{srv.ws_url}/ws/{other['id']}")
            o.wait_state(lambda m: m["view"]["finished"], timeout=60)
            wait_until(lambda: stopped[0] >= 2, what="two late decisions to be stopped")
        slow_log = [e["text"] for e in srv.manager.get(slow["id"]).events]
        other_log = [e["text"] for e in srv.manager.get(other["id"]).events]
        assert any("took too long" in t for t in slow_log)
        assert not any("took too long" in t or "trouble" in t for t in other_log), other_log
        assert most[0] == 1  # one decision of the slow table in the pool at a time
    finally:
        done.set()
        del _REGISTRY["dolly-crush"]["thinker"], _LIMITS[("dolly-crush", "thinker")]


def test_the_deal_is_stopped_at_its_deadline(make_server, monkeypatch):
    """A deal past the work pool's deadline is stopped (its chance loop checks the deadline):
    the table is refused in words, and nothing is opened."""
    started, stopped = threading.Event(), threading.Event()
    real = tables.resolve_now

    def endless(driver: Any, state: Any, config: Any) -> None:
        started.set()
        try:
            for _ in range(5000):  # a deal far past the deadline, that checks it as the real one
                check()
                stopped.wait(0.002)
        except OutOfTime:
            stopped.set()
            raise

    srv = make_server(work_deadline=1.0, **UNLIMITED)
    monkeypatch.setattr(tables, "resolve_now", endless)
    try:
        r = srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}, {}]})
    finally:
        monkeypatch.setattr(tables, "resolve_now", real)
    assert r.status_code == 400, r.text
    assert "the opening deal of these rules takes more than 1 s" in r.json()["detail"]
    # it stops at its next check of the deadline (the answer may come first), unless no worker
    # was free before the deadline: then it was cancelled and never ran
    assert stopped.wait(60) or not started.is_set()
    assert not srv.manager.tables
