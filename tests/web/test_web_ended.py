"""The table's end screen says why the game ended, in the words of the terminal's end screen
(the state message's ``ended``), and nothing while it goes on."""

from __future__ import annotations

import asyncio
import json

import pytest

from polling import run_async
from sheepfold.server.broadcast import Conn
from sheepfold.server.storage import Storage
from sheepfold.server.tables import Settings, TableManager

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def last_state(c: Conn) -> dict:
    out = None
    while not c.queue.empty():
        msg = json.loads(c.queue.get_nowait())
        if msg["type"] == "state":
            out = msg
    assert out is not None
    return out


@pytest.mark.parametrize(
    "game, rules, words",
    [
        (
            "shave-a-sheep",
            {"wool": 6},
            "The game ended because the last piece of wool left the middle",
        ),
        ("dolly-crush", {}, "dog card"),
    ],
)
def test_a_finished_table_says_why_its_game_ended(tmp_path, game, rules, words) -> None:
    async def run() -> None:
        m = TableManager(Storage(str(tmp_path / "t.db")), Settings.unlimited(bot_delay=0))
        t = m.create({"game": game, "seats": BOTS, "rules": rules})
        watcher = Conn(lambda text: None)
        t.attach(watcher)
        t.broadcast()
        await asyncio.sleep(0)
        assert last_state(watcher)["ended"] is None  # nothing while it goes on
        for _ in range(20_000):  # the bots play it out (bounded: a few hundred turns at most)
            if t.finished() and not t.dirty:
                break
            await asyncio.sleep(0.001)
        assert t.finished()
        t.broadcast()
        await asyncio.sleep(0)
        ended = last_state(watcher)["ended"]
        assert words in ended, ended
        await m.close()

    run_async(run())
