"""The server's hot path (issue 32): what a broadcast reuses from the last one is exactly what
encoding everything again gives, and the group commit's driver-level writes are all or nothing."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from polling import run_async, run_off_loop
from sheepfold.server.broadcast import Conn, Memo
from sheepfold.server.storage import SeatRow, Storage, TableRow
from sheepfold.server.tables import Settings, Table, TableManager


def expected(t: Table, seat: int | None) -> dict[str, Any]:
    """A state message for ``seat`` built from nothing, encoded and decoded once."""
    view = t.driver.view(t.state, seat, t.show_scores)
    return json.loads(
        json.dumps(
            {
                "type": "state",
                "seq": t.stored,
                "you": seat,
                "view": view,
                "shown": t.driver.shown(view),
                "table": t.public_info(),
                "race": None,
                "events": t.log.events[-8:],
                "ended": ended(t),
            }
        )
    )


def ended(t: Table) -> str | None:
    """Why the game ended, as the terminal's end screen says it (None while it goes on)."""
    from sheepfold.core.drivers import terminal_driver

    if not t.state.is_terminal():
        return None
    names = [t.seating.who(s) for s in range(t.game.num_players)]
    return terminal_driver(t.game).end_reason(t.state, names)


def last_state(c: Conn) -> dict[str, Any]:
    out = None
    while not c.queue.empty():
        text = c.queue.get_nowait()
        assert text is not None
        out = json.loads(text)
    assert out is not None and out["type"] == "state"
    return out


@pytest.mark.parametrize("game", ["shave-a-sheep", "dolly-crush"])
def test_every_broadcast_equals_the_message_encoded_from_nothing(tmp_path, game):
    from sheepfold.server.intents import SEATED

    async def run() -> None:
        m = TableManager(Storage(str(tmp_path / "t.db")), Settings.unlimited(bot_delay=0))
        t = m.create({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
        conns: list[Conn] = []
        for s in range(2):
            _, token = t.take_seat(f"p{s}")
            c = Conn(lambda text: None)
            t.attach(c)
            t.handle(c, json.dumps({"type": "hello", "token": token}))
            conns.append(c)
        watcher = Conn(lambda text: None)
        t.attach(watcher)
        t.broadcast()  # everyone's last message is of the table as it is now
        await asyncio.sleep(0)
        rng = random.Random(3)
        for step in range(40):
            if t.finished():
                break
            for c in [*conns, watcher]:
                got = last_state(c)
                assert got == expected(t, c.seat), f"step {step}, seat {c.seat}"
            if step == 5:  # a seat changes hands: the table's info is encoded again
                t.seating.seats[1].name = "someone else"
                t.broadcast()
                assert last_state(conns[0])["table"]["seats"][1]["name"] == "someone else"
            if step == 7:  # a log entry changed in place is encoded again too
                t.log.events[-1]["text"] = "said otherwise"
                t.broadcast()
                assert last_state(watcher)["events"][-1]["text"] == "said otherwise"
            p = t.state.current_player()
            seat = p if p >= 0 else t.state.turn  # type: ignore[attr-defined]
            view = t.driver.view(t.state, seat, True)
            if game == "dolly-crush":
                dog = rng.choice(view["dogs_left"][seat])
                swaps = [["a1", "a2"]] * view["dog_swaps"][seat][dog]
                msg: dict[str, Any] = {"type": "turn", "dog": dog, "swaps": swaps}
            elif view["phase"] == "roll":
                msg = {"type": "roll"}
            else:
                msg = {"type": "act", "action": rng.choice(view["legal_actions"])}
            assert msg["type"] in (*SEATED, *t.driver.messages)
            t.handle(conns[seat], json.dumps(msg))
            await asyncio.sleep(0)  # the group commit, then the broadcast
        await m.close()

    run_async(run())


def test_a_memo_encodes_again_only_what_changed():
    memo = Memo()
    assert memo.dumps(None) == "null"
    first = {"a": [1, 2], "b": "x"}
    text = memo.dumps(first)
    assert json.loads(text) == first
    assert memo.dumps({"a": [1, 2], "b": "x"}) is text  # equal: the same text, not encoded
    assert json.loads(memo.dumps({"a": [1, 3], "b": "x"})) == {"a": [1, 3], "b": "x"}
    assert memo.dumps(None) == "null"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: Any, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "s.db")
    return str(request.getfixturevalue("postgres_url"))


def test_a_group_commit_that_fails_writes_nothing_of_any_table(db_url):
    s = Storage(db_url)
    for tid in ("a", "b"):
        seats = [SeatRow(0, "human"), SeatRow(1, "human")]
        s.create_table(TableRow(tid, "shave-a-sheep", 2, {}, 1, 1.0, False, seats))
    s.append_actions("b", 0, [(-1, 0)])
    with pytest.raises(IntegrityError):  # b's index 0 is there: the whole batch is refused
        s.append_many([("a", 0, [(-1, 1), (0, 2)], False), ("b", 0, [(-1, 0)], True)])
    s.append_many([("a", 0, [(-1, 3)], True)])  # the connection still writes afterwards
    rows = {r.id: r for r in s.load_all()}
    s.close()
    assert rows["a"].actions == [(-1, 3)] and rows["a"].finished
    assert rows["b"].actions == [(-1, 0)] and not rows["b"].finished


@pytest.mark.parametrize("made_before", [False, True])
def test_the_actions_table_is_one_tree_in_a_new_sqlite_database_and_an_older_one_still_works(
    tmp_path, made_before
):
    """A new SQLite database keeps actions WITHOUT ROWID (a commit writes one page less); one
    made before, a rowid table with its key's index, is left as it is and works the same."""
    import sqlite3

    path = tmp_path / "s.db"
    if made_before:
        with sqlite3.connect(path) as db:
            db.execute(
                "CREATE TABLE sf_actions (table_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, "
                "seat INTEGER NOT NULL, action INTEGER NOT NULL, PRIMARY KEY (table_id, idx))"
            )
    s = Storage(str(path))
    seats = [SeatRow(0, "human"), SeatRow(1, "human")]
    for tid in ("b", "a"):
        s.create_table(TableRow(tid, "shave-a-sheep", 2, {}, 1, 1.0, False, seats))
    s.append_many([("b", 0, [(-1, 4), (1, 7)], False), ("a", 0, [(-1, 2)], False)])
    s.append_many([("a", 1, [(0, 5)], True)])
    rows = {r.id: r for r in s.load_all()}
    s.close()
    assert rows["a"].actions == [(-1, 2), (0, 5)] and rows["a"].finished
    assert rows["b"].actions == [(-1, 4), (1, 7)] and not rows["b"].finished
    with sqlite3.connect(path) as db:
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'sf_actions'").fetchone()
    assert sql.rstrip().endswith("WITHOUT ROWID") is not made_before


@pytest.mark.parametrize(
    "value",
    [
        {"name": "Agnès🐑", "note": 'naïve\n"quoted"\\\u2028'},  # non-ASCII, escapes
        {1: "seat-one", 2: [None, True, 1.5, -0.0]},  # integer keys become strings
        {"big": 1 << 70, "list": [(1, 2), (3,)]},  # past 64 bits: the standard library's way
        [{"nested": {"deeper": [[]]}}, 1e16, 1e-7, 0.1],
    ],
)
def test_the_messages_encoder_gives_what_the_standard_library_gives(value):
    from sheepfold.server.broadcast import dumps, std_dumps

    text = dumps(value)
    assert json.loads(text) == json.loads(std_dumps(value))
    assert " " not in text  # no spaces between items


def test_the_messages_encoder_is_orjson_where_it_is_installed():
    orjson = pytest.importorskip("orjson")
    from sheepfold.server.broadcast import dumps, std_dumps

    assert dumps is not std_dumps
    assert dumps({"a": [1, "é"]}) == orjson.dumps({"a": [1, "é"]}).decode()


def test_serve_runs_on_the_event_loop_its_configuration_names():
    """``sheepfold serve`` runs uvicorn on the configuration's event loop (uvloop where it is
    installed: less CPU per move)."""
    import uvicorn

    from sheepfold.cli.serve import _run

    seen: dict[str, Any] = {}

    class Server:  # uvicorn.Server's face, enough for _run
        def __init__(self, loop: str) -> None:
            self.config = uvicorn.Config(app=None, loop=loop)
            self.started = False
            self.servers: list[Any] = []

        async def serve(self) -> None:
            seen["loop"] = type(asyncio.get_running_loop()).__module__
            self.started = True
            await asyncio.sleep(0.2)  # announce prints the address meanwhile

    def serve(loop: str) -> str:  # off the test thread's loop (a browser test may hold one)
        run_off_loop(lambda: _run(Server(loop), "sqlite:///x.db", "127.0.0.1", 1), 60)
        return str(seen.pop("loop"))

    assert serve("asyncio").startswith("asyncio")
    pytest.importorskip("uvloop")
    for loop in ("uvloop", "auto"):
        assert serve(loop).startswith("uvloop"), loop


def test_serve_refuses_an_event_loop_it_does_not_know(tmp_path):
    from typer.testing import CliRunner

    from sheepfold.cli.main import app

    out = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "t.db"), "--loop", "tokio"])
    assert out.exit_code != 0
    assert "--loop: 'tokio' is not an event loop here (auto, uvloop or asyncio)" in out.output


def test_a_broadcast_encodes_only_the_log_entries_and_info_that_are_new(tmp_path, monkeypatch):
    """The log's window moves on by an entry a move: the entries it shares with the last
    window keep their text, and the table's set-up is encoded once for its whole life."""
    import sheepfold.server.broadcast as broadcast

    encoded: list[Any] = []

    def counting(value: Any) -> str:
        encoded.append(value)
        return real(value)

    real = broadcast.dumps
    monkeypatch.setattr(broadcast, "dumps", counting)

    async def run() -> None:
        m = TableManager(Storage(str(tmp_path / "t.db")), Settings.unlimited(bot_delay=0))
        t = m.create({"game": "shave-a-sheep", "seats": [{"kind": "human"}, {"kind": "human"}]})
        watcher = Conn(lambda text: None)
        t.attach(watcher)
        for i in range(12):  # past the window of 8
            t.log.note(None, f"note {i}")
            if i == 5:  # a seat changes: the live part of the info is encoded again, not the rest
                t.seating.seats[1].name = "someone"
            encoded.clear()
            t.broadcast()
            entries = [v for v in encoded if isinstance(v, dict) and "text" in v]
            assert [e["text"] for e in entries] == [f"note {i}"], i
            assert not any(isinstance(v, dict) and "title" in v for v in encoded), i
            seats = [v for v in encoded if isinstance(v, dict) and "seats" in v]
            assert len(seats) == (i == 5), i
            assert last_state(watcher)["events"] == t.log.events[-8:]
        await m.close()

    run_async(run())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_the_direct_text_frame_is_the_frame_websockets_serializes(size):
    from websockets.frames import Frame, Opcode

    from sheepfold.server.connections import text_frame

    data = ("é" * size).encode()[:size]
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


def test_shave_views_and_words_built_once_are_what_the_engine_says():
    """The Shave driver's view (one spectator's view a position, the seat's fields set) is
    ``observe(seat)`` for every seat, and its log's kept words are the words built anew."""
    from sheepfold.core.protocol import CHANCE
    from sheepfold.games import make
    from sheepfold.games.shave_a_sheep.game import ROLL
    from sheepfold.games.shave_a_sheep.table import (
        ShaveTable,
        _told_words,
        end_notes,
        labels,
        player,
        words,
    )

    driver = ShaveTable()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = make("shave-a-sheep", players=players)
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            for seat in [None, *range(players), None]:
                view = driver.view(state, seat, True)
                said = view.pop("labels", None)  # the buttons' words: whoever may act sees them
                assert view == state.observe(seat)
                assert said == (labels(state) if view["legal_actions"] else None)
            if state.is_terminal():
                break
            p = state.current_player()
            a = state.sample_chance() if p == CHANCE else rng.choice(state.legal_actions())
            fresh = state.clone()
            if p != CHANCE:
                want = [(p, _told_words(fresh, a, p))]  # built anew, never kept
                seats = [player(k) for k in range(players)]
                want += [(p, line) for line in words.told(fresh, [a], seats)]  # the triggers
            elif fresh.phase == ROLL:
                program = fresh.game.program
                face = words.face(program.faces[a], program, player(fresh.turn))
                want = [(fresh.turn, f"rolled {face}")]
            else:
                want = []
            fresh.apply_unchecked(a)
            if fresh.is_terminal():
                want += end_notes(fresh)
            assert driver.narrate(state, p, a, True) == want
        assert state.is_terminal()


@pytest.mark.parametrize("game", ["shave-a-sheep", "dolly-crush", "pig-pen"])
def test_a_move_told_from_the_state_after_it_is_the_move_told_by_applying_it(game):
    """The table tells its last move from its new state (``after``: the move is not applied a
    second time): the same words as the driver applying it to the probe, and the probe is
    left as it was."""
    from sheepfold.core.drivers import table_driver
    from sheepfold.core.protocol import CHANCE
    from sheepfold.games import make

    driver = table_driver(game)
    for players, seed in ((2, 1), (3, 2)):
        state = make(game, players=players).new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            p = state.current_player()
            a = state.sample_chance() if p == CHANCE else rng.choice(state.legal_actions())
            after = state.clone()
            after.apply(a)
            for show in (True, False):
                probe = state.clone()
                told = driver.narrate(probe, p, a, show, after)
                assert probe == state  # not applied
                assert told == driver.narrate(state.clone(), p, a, show)
            state = after
        assert state.is_terminal()
