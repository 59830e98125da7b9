"""Play over days: a table's turn clock, and who is away.

A table may have a turn clock (``turn_clock``: seconds per move, chosen when it is made; off by
default). The clock of a turn starts when a seat's turn starts (a commit hands the turn to
another seat) and runs only while a person holds the seat and plays it themselves: a free seat,
a bot, a stand-in, or a person on vacation (server/mail.py) stops it, and it starts again from
the whole time when it runs again. A person past their clock is dealt with as the table says
(``out_of_time``):

- ``"bot"``: a bot plays for them until they come back (the table's replacement bot stands in,
  as for a person who left; opening the table again gives them the seat back);
- ``"skip"``: they miss the turn. Neither game has a "pass", so a missed turn is played by the
  simplest bot there is: one random legal move (or their roll), one a tick, until the turn has
  passed; they keep their seat, and their clock starts again at their next turn.

Others then see "away since <time>" for them (also for a person disconnected longer than
``Settings.away_after``), instead of "is playing".

The turn's start is stored (``sf_turn_clock``, one row a clocked table): after a restart every
clock runs on from where it was. The clock's "now" is :attr:`TurnClock.now` (injectable), its
speed ``Settings.clock_scale`` (a clock second is ``1 / clock_scale`` real seconds: tests and
demos run a day in seconds), and a job checks every clock each ``Settings.clock_tick`` seconds
(:meth:`TurnClock.sweep`, which tests call directly).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Column, Float, Integer, String, delete, insert, select
from sqlalchemy import Table as SqlTable

from sheepfold.core.protocol import CHANCE
from sheepfold.core.words import Msg
from sheepfold.server.storage import metadata

if TYPE_CHECKING:
    from sheepfold.server.mail import Notices
    from sheepfold.server.tables import Table, TableManager

log = logging.getLogger("sheepfold.server")

HOUR = 3600
OUT_OF_TIME = ("bot", "skip")

clock_t = SqlTable(
    "sf_turn_clock",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),  # whose turn it is
    Column("started", Float, nullable=False),  # when its clock started (epoch seconds)
    Column("away", JSON, nullable=True),  # seat (as text) -> when it ran out of time
)


@dataclass
class Turn:
    """A clocked table's turn: whose, since when (real epoch seconds), and who ran out."""

    seat: int
    started: float
    away: dict[int, float] = field(default_factory=dict)


def read_away(stored: dict[str, float] | None) -> dict[int, float]:
    """A stored row's away seats (JSON: the seats as text)."""
    return {int(k): float(v) for k, v in (stored or {}).items()}


def waited_seat(table: Table) -> int | None:
    """The one seat the table waits for now (None: a race, the server, or the end)."""
    from sheepfold.server.profiles import waiting_for

    seats = waiting_for(table.state, table.driver, table.config)
    return next(iter(seats)) if len(seats) == 1 else None


class TurnClock:
    """The turn clocks of a server's tables, and the turn changes the notices hear of."""

    def __init__(self, manager: TableManager, notices: Notices | None = None) -> None:
        self.manager = manager
        self.notices = notices
        self.now: Callable[[], float] = time.time  # injectable: tests move it
        self.scale = manager.settings.clock_scale
        self.turns: dict[str, Turn] = {}  # clocked tables' turns
        self.turn_seat: dict[str, int] = {}  # every table's seat whose turn it is
        metadata.create_all(manager.storage.engine, tables=[clock_t])  # an older database too
        with manager.storage.engine.connect() as c:
            for r in c.execute(select(clock_t)):
                self.turns[r.table_id] = Turn(r.seat, r.started, read_away(r.away))
        for t in manager.tables.values():
            seat = waited_seat(t) if not t.finished() else None
            if seat is not None:
                self.turn_seat[t.id] = seat
        manager.on_commit.append(self.committed)
        manager.clock_info = self.info

    def start(self) -> None:
        """The job that checks every clock each ``clock_tick`` seconds."""
        tick = self.manager.settings.clock_tick
        if tick > 0:
            self.manager.spawn(self._ticker(tick))

    async def _ticker(self, tick: float) -> None:
        while True:
            await asyncio.sleep(tick)
            try:
                self.sweep()
            except Exception:  # the next tick tries again; no table stops for it
                log.exception("the turn clocks' check failed")

    # -- a table's facts ----------------------------------------------------------------------
    @staticmethod
    def per_move(table: Table) -> int | None:
        """The table's seconds per move (None: no clock)."""
        per = table.config.get("turn_clock")
        return int(per) if per else None

    def _runs_for(self, table: Table, seat: int) -> bool:
        """A person holds ``seat`` and plays it themselves, and is not on vacation."""
        s = table.seats[seat]
        if s.kind != "human" or s.token_hash is None or s.stand_in is not None:
            return False
        return not (self.notices and s.profile and self.notices.on_vacation(s.profile))

    def info(self, table: Table) -> dict[str, Any] | None:
        """What a table's page shows of its clock (None: no clock and nobody away): seconds
        per move, whose turn's clock runs and the clock seconds it has ``left`` (at ``scale``
        clock seconds a real second), and when each away seat went away (None: here)."""
        per = self.per_move(table)
        turn = self.turns.get(table.id)
        now = self.now()
        away: list[float | None] = []
        for s in table.seats:
            since = turn.away.get(s.seat) if turn else None
            if since is None and s.gone is not None and s.kind == "human" and s.token_hash:
                if (now - s.gone) * self.scale >= self.manager.settings.away_after:
                    since = s.gone
            away.append(None if s.conns or table.finished() else since)
        if per is None and not any(away):
            return None
        out: dict[str, Any] = {"away": away, "per_move": per, "scale": self.scale}
        if per is not None:
            out["out_of_time"] = table.config.get("out_of_time", "bot")
            running = turn is not None and not table.finished() and self._runs_for(table, turn.seat)
            if turn is not None and running:
                out["seat"] = turn.seat
                out["left"] = max(0.0, per - (now - turn.started) * self.scale)
        return out

    # -- turns change -------------------------------------------------------------------------
    def committed(self, table: Table) -> None:
        """A commit of ``table``: a new turn starts its clock (stored) and its notice; an end
        sends the game-over notices. A failure is logged, never raised into the game."""
        try:
            self._committed(table)
        except Exception:
            log.exception("table %s: its turn clock or notices failed after a commit", table.id)

    def _committed(self, table: Table) -> None:
        if table.finished():
            self.turn_seat.pop(table.id, None)
            if self.turns.pop(table.id, None) is not None:
                self._forget(table.id)
            if self.notices is not None:
                self.notices.game_over(table)
            return
        seat = waited_seat(table)
        if seat is None or self.turn_seat.get(table.id) == seat:
            return  # a race, the server's step, or the same turn going on
        self.turn_seat[table.id] = seat
        if self.per_move(table) is not None:
            turn = self.turns.get(table.id)
            away = turn.away if turn else {}
            self.turns[table.id] = Turn(seat, self.now(), away)
            self._store([table.id])
        if self.notices is not None:
            self.notices.your_turn(table, seat)

    def sweep(self) -> int:
        """Check every clocked table's clock (on the event loop): a stopped clock starts
        again from now, a person past their clock is dealt with as the table says. The
        number of tables where someone ran out of time."""
        now, late, moved = self.now(), 0, []
        for t in list(self.manager.tables.values()):
            per = self.per_move(t)
            if per is None or t.finished() or t.dirty:
                continue
            seat = waited_seat(t)
            turn = self.turns.get(t.id) or self._stored(t.id)
            for s, _ in list(turn.away.items()) if turn else []:
                if t.seats[s].conns:  # back: no longer away
                    del turn.away[s]  # type: ignore[union-attr]
                    moved.append(t.id)
            if seat is None:
                continue
            if turn is None or turn.seat != seat:  # a table's first turn: its clock shows
                self.turns[t.id] = Turn(seat, now, turn.away if turn else {})
                self.turn_seat[t.id] = seat
                moved.append(t.id)
                t.broadcast()
            elif not self._runs_for(t, seat):
                turn.started = now  # stopped: the whole time again when it runs
                moved.append(t.id)
            elif (now - turn.started) * self.scale >= per:
                turn.away.setdefault(seat, turn.started + per / self.scale)
                moved.append(t.id)
                self._out_of_time(t, seat)
                late += 1
        if moved:
            self._store(sorted(set(moved)))
        return late

    def _out_of_time(self, table: Table, seat: int) -> None:
        s = table.seats[seat]
        if table.config.get("out_of_time", "bot") == "bot":
            s.stand_in = table.config.get("replacement_bot", "random")
            s.bot_obj = None
            table.bots.task_key = None
            table.log.note(seat, Msg("ran out of time: a bot plays for them until they come back"))
            table.broadcast()
            table.schedule()
            return
        trial = table.state.clone()
        if trial.current_player() == CHANCE:
            trial.apply(trial.sample_chance())  # their roll
        else:
            trial.apply(random.choice(trial.legal_actions()))
        table.log.note(seat, Msg("ran out of time: missed the turn (a random move was made)"))
        table.bots._safe_accept(trial)

    # -- storage ------------------------------------------------------------------------------
    def _stored(self, table_id: str) -> Turn | None:
        """The stored turn of a table this process did not have at its start (another process
        of a cluster served it: server/cluster.py), kept; None if none is stored."""
        with self.manager.storage.engine.connect() as c:
            r = c.execute(select(clock_t).where(clock_t.c.table_id == table_id)).first()
        if r is None:
            return None
        turn = self.turns[table_id] = Turn(r.seat, r.started, read_away(r.away))
        return turn

    def _store(self, table_ids: list[str]) -> None:
        """The turns of ``table_ids`` written (one transaction; a failure is logged: the clock
        runs on in memory)."""
        try:
            with self.manager.storage.transaction() as c:
                c.execute(delete(clock_t).where(clock_t.c.table_id.in_(table_ids)))
                rows = [
                    {
                        "table_id": tid,
                        "seat": turn.seat,
                        "started": turn.started,
                        "away": {str(k): v for k, v in turn.away.items()},
                    }
                    for tid in table_ids
                    if (turn := self.turns.get(tid)) is not None
                ]
                if rows:
                    c.execute(insert(clock_t), rows)
        except Exception:
            log.exception("the turn clocks of %s were not stored", ", ".join(table_ids))

    def _forget(self, table_id: str) -> None:
        try:
            with self.manager.storage.transaction() as c:
                c.execute(delete(clock_t).where(clock_t.c.table_id == table_id))
        except Exception:
            log.exception("the turn clock of table %s was not forgotten", table_id)
