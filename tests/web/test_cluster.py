"""Many processes on one PostgreSQL database behind haproxy (docs/web.md, "Many processes"):
a table is served through any process, and survives its owner's kill -9 and a rolling restart
with every acknowledged move kept, never owned twice, every game finished.

One cluster (a temporary PostgreSQL, three ``sheepfold serve`` processes, haproxy) is shared by
the module's tests; each test plays its own tables."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web_crash import intent, state_at, view_at

from polling import wait_until
from sheepfold.cli.cluster import LocalCluster
from sheepfold.server.cluster import HELD, PREFIX, key_of, table_key
from sheepfold.server.storage import SCHEMA_KEY, Storage, normalise_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: bots at a short delay: the games of bots alone end soon after the kills and the restarts
#: (the human seats are held there by turn budgets, Player.allow, whatever the pace)
#: (and no per-client limits: every table and seat of these tests comes from this one address;
#: the cluster's limits are test_cluster_limits.py's)
OPTIONS = ["--bot-delay", "0.05", "--dev-seeds", "--race-timeout", "0.5", "--no-limits"]
PACE = 0.03  # seconds a player takes before each move


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    c = LocalCluster(3, options=OPTIONS).start()
    try:
        yield c
    finally:
        c.close()


class Watcher:
    """Every holder of every advisory lock, sampled in a thread while a test runs: a table is
    never held by two sessions, and its holder is always a process of the cluster."""

    def __init__(self, db: str) -> None:
        from sqlalchemy import create_engine

        self.engine = create_engine(normalise_url(db))
        self.stop = threading.Event()
        self.samples = 0
        self.problems: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            with self.engine.connect() as c:
                rows = list(c.execute(HELD))
            held: dict[int, list[str]] = {}
            for r in rows:
                if key_of(r.hi, r.lo) == SCHEMA_KEY:  # a process making the schema, a moment
                    continue
                held.setdefault(key_of(r.hi, r.lo), []).append(r.who)
            for key, who in held.items():
                if len(who) > 1:
                    self.problems.append(f"key {key} held by {who}")
                if any(w is None or not w.startswith(PREFIX) for w in who):
                    self.problems.append(f"key {key} held by {who}")
            self.samples += 1
            self.stop.wait(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.engine.dispose()
        assert self.samples > 3
        assert not self.problems, self.problems[:5]


@pytest.fixture
def watcher(cluster: LocalCluster) -> Iterator[Watcher]:
    w = Watcher(cluster.db)
    yield w
    w.close()


def owners(db: str) -> dict[str, int]:
    """Table id -> the process id of the server that holds it now."""
    from sqlalchemy import create_engine, text

    engine = create_engine(normalise_url(db))
    with engine.connect() as c:
        who = {key_of(r.hi, r.lo): r.who for r in c.execute(HELD)}
        pids = {PREFIX + r.id: r.pid for r in c.execute(text("SELECT id, pid FROM sf_processes"))}
        ids = [r.id for r in c.execute(text("SELECT id FROM sf_tables"))]
    engine.dispose()
    return {t: pids[who[table_key(t)]] for t in ids if who.get(table_key(t)) in pids}


class Player(threading.Thread):
    """A seat (``token``; None: a spectator) of one table, through ``first`` and then, after its
    connection ends, through ``then`` (the balancer): it plays its turns (random legal moves)
    until the game ends, reconnecting whenever its connection ends. Every state it receives
    is kept, with when it came."""

    def __init__(
        self,
        first: str,
        table: str,
        seat: int | None,
        token: str | None,
        seed: int,
        then: str | None = None,
        turns: int | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.urls = [first, then or first]
        self.table, self.seat, self.token = table, seat, token
        self.rng = random.Random(seed)
        self.states: list[tuple[float, dict[str, Any]]] = []
        self.connected: list[float] = []  # when each connection was opened
        self.connects = 0
        self.halt = threading.Event()
        self.turns = 0  # turns of its own begun
        self.in_turn = False
        self.budget = turns  # the most turns it may begin (None: no limit); see allow()
        self.start()

    def allow(self, more: int | None) -> None:
        """Let it begin ``more`` turns beyond those begun (None: play to the end): a test that
        kills an owner mid-game holds the games there, whatever the machine's speed."""
        self.budget = None if more is None else self.turns + more

    def held(self) -> bool:
        """A seat that began the turns it was allowed (its next one waits for allow())."""
        return self.seat is not None and self.budget is not None and self.turns >= self.budget

    @property
    def last(self) -> dict[str, Any] | None:
        return self.states[-1][1] if self.states else None

    def seq(self) -> int:
        return self.last["seq"] if self.last else -1

    def finished(self) -> bool:
        return bool(self.last and self.last["view"]["finished"])

    def run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        while not self.halt.is_set() and not self.finished():
            url = self.urls[min(self.connects, 1)].replace("http", "ws", 1)
            try:
                with connect(f"{url}/ws/{self.table}", open_timeout=5, proxy=None) as ws:
                    self.connects += 1
                    self.connected.append(time.monotonic())
                    if self.token:
                        ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self._play(ws)
            except (OSError, TimeoutError, WebSocketException):
                self.halt.wait(0.1)  # it reconnects (through the balancer)

    def _play(self, ws: Any) -> None:
        while not self.halt.is_set() and not self.finished():
            try:
                text = ws.recv(timeout=0.5)
            except TimeoutError:
                text = None  # nothing new: the last intent is sent again (it may be lost)
            if text is not None:
                msg = json.loads(text)
                if msg["type"] != "state":
                    continue
                self.states.append((time.monotonic(), msg))
            last = self.last
            if last is None or self.seat is None or last["you"] != self.seat:
                continue
            move = intent(last["view"], self.seat, self.rng)
            if move is None:  # not its turn
                self.in_turn = False
                continue
            if not self.in_turn:  # a turn of its own begins, unless it waits for allow()
                if self.held():
                    continue
                self.in_turn, self.turns = True, self.turns + 1
            self.halt.wait(PACE)  # a player's moment: the games last past the kills
            ws.send(json.dumps(move))


def create(url: str, spec: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/tables", json=spec, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def join(url: str, table: str, name: str) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/tables/{table}/join", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def check_against_the_database(db: str, players: list[Player]) -> None:
    """Every state any client saw is the state rebuilt from the database at its position, seen
    from its seat; every game is over, in the database too."""
    st = Storage(db)
    rows = {r.id: r for r in st.load_all()}
    st.close()
    for p in players:
        row = rows[p.table]
        assert row.finished, f"table {p.table} did not finish"
        assert p.states and p.finished()
        for _, m in p.states:
            assert len(row.actions) >= m["seq"], "an acknowledged action is missing"
            assert view_at(row, m["seq"], m["you"]) == m["view"]
        end = state_at(row, len(row.actions))
        assert end.is_terminal()


def server_of(c: LocalCluster, pid: int) -> int:
    return next(s.index for s in c.servers if s.alive() and s.pid == pid)


def test_a_table_made_on_one_process_is_joined_played_and_watched_through_the_others(
    cluster, watcher
):
    c = cluster
    s0, s1, s2 = (f"http://127.0.0.1:{s.port}" for s in c.servers)
    t = create(s0, {"game": "shave-a-sheep", "seats": [{}, {}], "seed": 7})
    assert owners(c.db)[t["id"]] == c.servers[0].pid  # its creator holds it
    a, b = join(s1, t["id"], "ann"), join(s2, t["id"], "bob")
    assert {a["seat"], b["seat"]} == {0, 1}  # one seat each, never one twice
    refused = httpx.post(f"{s1}/api/tables/{t['id']}/join", json={"name": "eve"}, timeout=10)
    assert refused.status_code == 409
    # every process lists it, seats taken (the lobby is read from the database)
    for url in (s0, s1, s2):
        wait_until(
            lambda url=url: any(
                x["id"] == t["id"] and not any(s["free"] for s in x["seats"])
                for x in httpx.get(f"{url}/api/tables", timeout=10).json()
            ),
            what="every process to list the table with its seats taken",
        )
        info = httpx.get(f"{url}/api/tables/{t['id']}", timeout=10).json()
        names = {a["seat"]: "ann", b["seat"]: "bob"}
        assert [s["name"] for s in info["seats"]] == [names[0], names[1]]
    players = [
        Player(s1, t["id"], a["seat"], a["token"], 1),
        Player(s2, t["id"], b["seat"], b["token"], 2),
        Player(s2, t["id"], None, None, 3),  # a spectator on the third process
    ]
    wait_until(lambda: all(p.finished() for p in players), what="the game to end", timeout=120)
    for p in players:
        p.halt.set()
    assert all(p.connects == 1 for p in players)  # nobody had to reconnect
    check_against_the_database(c.db, players)
    replay = httpx.get(f"{s2}/api/tables/{t['id']}/replay", timeout=10)
    assert replay.status_code == 200 and replay.json()["frames"]
    assert httpx.get(f"{s1}/api/tables/nosuchtable", timeout=10).status_code == 404


def relayed(headers: Any) -> bool:
    """An answer another process relayed from the table's owner (``Via``), not the owner's own."""
    return "via" in {k.lower() for k in headers.keys()}


def get_info(url: str, table: str) -> httpx.Response:
    r = httpx.get(f"{url}/api/tables/{table}", timeout=10)
    assert r.status_code == 200, r.text
    return r


def owner_answers(url: str, table: str) -> bool:
    """The table's owner answered a request about it itself (False while it moves: a 502 or
    503 from a process that died under it or is taking it over, a relayed answer)."""
    r = httpx.get(f"{url}/api/tables/{table}", timeout=10)
    return r.status_code == 200 and not relayed(r.headers)


def test_the_balancer_sends_a_tables_requests_to_its_owner_also_after_a_takeover(cluster):
    from websockets.sync.client import connect

    c = cluster
    c.wait_up()  # every process in the balancer's round (a test before may have restarted one)
    # made round-robin until two processes hold some: any other request through the balancer
    # takes a turn of the round too (under load, once, four creates in a row, with every process
    # up and haproxy's choices even, all landed on one)
    made: list[dict[str, Any]] = []
    while len(made) < 4 or len({owners(c.db)[t["id"]] for t in made}) < 2:
        assert len(made) < 12, f"12 tables made on one process; haproxy's stats: {c.stat()}"
        made.append(create(c.url, {"game": "shave-a-sheep", "seats": [{}, {}]}))
    held = owners(c.db)
    for t in made:  # every request about a table is answered by its owner itself, no relay
        assert not any(relayed(get_info(c.url, t["id"]).headers) for _ in range(4))
        r = httpx.post(f"{c.url}/api/tables/{t['id']}/join", json={"name": "ann"}, timeout=10)
        assert r.status_code == 200 and not relayed(r.headers)
        for _ in range(3):
            with connect(f"{c.url.replace('http', 'ws', 1)}/ws/{t['id']}", proxy=None) as ws:
                assert ws.response is not None and not relayed(ws.response.headers)
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
    # its owner dies: the table is taken over, and the balancer learns the new owner
    pid = held[made[0]["id"]]
    victim = server_of(c, pid)
    os.kill(pid, signal.SIGKILL)
    c.servers[victim].proc.wait()  # type: ignore[union-attr]
    try:
        wait_until(
            lambda: (
                get_info(c.url, made[0]["id"]).status_code == 200
                and owners(c.db).get(made[0]["id"]) not in (None, pid)
            ),
            what="the table to be taken over",
            timeout=30,
        )
        # at most a few answers relayed (another process took it over first, before one of
        # its requests reached it), then only the new owner's own
        wait_until(
            lambda: not relayed(get_info(c.url, made[0]["id"]).headers),
            what="an answer from the new owner itself",
            timeout=10,
        )
        assert not any(relayed(get_info(c.url, made[0]["id"]).headers) for _ in range(6))
    finally:
        c.restart(victim)


def _tables(c: LocalCluster, seed: int, turns: int | None = None) -> tuple[list[Player], list[str]]:
    """Tables made through the balancer (round-robin: spread over the processes), each seat
    played and one table watched through it; and a table of bots only. ``turns``: each seat
    begins at most that many turns until allowed more (Player.allow)."""
    specs: list[dict[str, Any]] = [
        {"game": "shave-a-sheep", "seats": [{}, {}]},
        {"game": "shave-a-sheep", "ruleset": "howling-wolf", "seats": [{}, {}, {"kind": "bot"}]},
        {"game": "dolly-crush", "seats": [{}, {}]},
        {"game": "shave-a-sheep", "seats": [{}, {"kind": "bot"}]},
        {"game": "shave-a-sheep", "seats": [{"kind": "bot"}, {"kind": "bot"}]},
    ]
    players: list[Player] = []
    bots_only: list[str] = []
    for i, spec in enumerate(specs):
        t = create(c.url, {**spec, "seed": seed + i})
        humans = [s for s in t["seats"] if s["kind"] == "human"]
        if not humans:
            bots_only.append(t["id"])
            players.append(Player(c.url, t["id"], None, None, seed + 50 + i))
        for s in humans:
            j = join(c.url, t["id"], f"p{s['seat']}")
            players.append(
                Player(
                    c.url, t["id"], j["seat"], j["token"], seed + 10 * i + s["seat"], turns=turns
                )
            )
    players.append(Player(c.url, players[0].table, None, None, seed + 99))
    return players, bots_only


def _back_in_play(players: list[Player], since: float) -> float:
    """Seconds from ``since`` until each of ``players`` (or its game ended) got a state on a
    connection opened after ``since`` (every client of a dead owner's table reconnects)."""

    def playing(p: Player) -> float | None:
        if p.finished():
            return 0.0
        opened = [t for t in p.connected if t > since]
        later = [t for t, _ in p.states if opened and t > opened[0]]
        return later[0] - since if later else None

    wait_until(
        lambda: all(playing(p) is not None for p in players),
        what="every client to play again after the kill",
        timeout=60,
    )
    return max(playing(p) or 0.0 for p in players)


def _seated(players: list[Player]) -> dict[str, list[Player]]:
    """The seats of each table played by people (Player), by table id."""
    seated: dict[str, list[Player]] = {}
    for p in players:
        if p.seat is not None:
            seated.setdefault(p.table, []).append(p)
    return seated


def _all_held(seated: dict[str, list[Player]]) -> None:
    """Until every table played by people waits for a seat's next turn (Player.allow), or its
    game is over: the games are there whatever the machine's speed."""

    def waiting(at: list[Player]) -> bool:
        return any(p.held() for p in at) or all(p.finished() for p in at)

    wait_until(
        lambda: all(waiting(at) for at in seated.values()),
        what="every table to get going",
        timeout=60,
    )


def test_kill_9_of_owners_mid_game_loses_nothing_and_every_game_finishes(cluster, watcher):
    c = cluster
    players, bots_only = _tables(c, 1000, turns=2)
    recoveries = []
    seated = _seated(players)
    for kill in range(2):  # the owner of a table still playing is killed, twice
        for p in players if kill else ():  # a few turns more, then the games wait there
            p.allow(2)
        _all_held(seated)
        held = owners(c.db)
        playing = [p for p in players if not p.finished() and p.table in held]
        assert playing, "every game ended before the kill"
        pid = held[playing[0].table]
        victim = server_of(c, pid)
        hit = [p for p in playing if held[p.table] == pid]
        before = {id(p): p.seq() for p in hit}
        killed_at = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        c.servers[victim].proc.wait()  # type: ignore[union-attr]
        for p in players:
            p.allow(2)
        # its tables are taken over, their clients reconnect (through the balancer) and play on
        wait_until(
            lambda hit=hit, before=before: all(
                p.seq() > before[id(p)] or p.finished() for p in hit
            ),
            what="the dead owner's tables to move on",
            timeout=60,
        )
        recoveries.append(_back_in_play(hit, killed_at))
        assert all(owners(c.db).get(p.table) != pid for p in hit if not p.finished())
        c.restart(victim)  # the cluster is three processes again
    for p in players:
        p.allow(None)
    wait_until(lambda: all(p.finished() for p in players), what="every game to end", timeout=180)
    for p in players:
        p.halt.set()
    check_against_the_database(c.db, players)
    assert bots_only and all(any(p.table == t and p.finished() for p in players) for t in bots_only)
    assert any(p.connects > 1 for p in players)  # some clients had to reconnect, and did
    print(f"kill -9 to every client playing again: {', '.join(f'{r:.2f}' for r in recoveries)} s")


def test_a_rolling_restart_of_every_process_while_games_run(cluster, watcher):
    c = cluster
    players, _ = _tables(c, 2000, turns=2)
    seated = _seated(players)
    for s in c.servers:  # one by one: stopped (SIGTERM), then started again on its port
        _all_held(seated)  # the games wait mid-game (a few turns each), then it stops
        assert any(not p.finished() for p in players), "every game ended before the stop"
        marks = {id(p): p.seq() for p in players}
        s.stop()
        for p in players:  # a few turns more, played while it is down
            p.allow(2)
        wait_until(
            lambda marks=marks: all(p.seq() > marks[id(p)] or p.finished() for p in players),
            what="every table to move on while a process is down",
            timeout=60,
        )
        c.restart(s.index)
    for p in players:
        p.allow(None)
    wait_until(lambda: all(p.finished() for p in players), what="every game to end", timeout=180)
    for p in players:
        p.halt.set()
    check_against_the_database(c.db, players)
