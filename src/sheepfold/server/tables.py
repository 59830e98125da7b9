"""Tables: one game each, composed of its seats, intents, bots, log and broadcast.

The server is the only authority. A client sends an *intent* (a whole Dolly Crush turn, one
named decision, a roll, a grab); the table tries it on a clone of its state, and only when the
engine accepts all of it are the new engine actions written to the database (committed) and
the new views sent out. Each connection receives ``observe(seat)`` for the seat it holds, or the
public view ``observe(None)``; the deck order and the seed never leave the server.

Everything here runs on the server's one event loop. Handling an intent is synchronous (no
``await`` between checking, committing and switching the state), so two intents never
interleave.

The pieces: ``seating`` (seats, tokens, joining and leaving), ``intents`` (client messages),
``bot_seats`` (bots, rolls and the wolf race), ``events`` (the log), ``broadcast``
(connections and state messages), ``persistence`` (group commit), ``storage`` (the database),
``replay``.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sheepfold.core.deadline import check
from sheepfold.core.drivers import TableDriver, table_driver
from sheepfold.core.protocol import CHANCE, Game, SheepfoldError, State, secret_seed
from sheepfold.core.registry import game_spec
from sheepfold.core.words import Msg
from sheepfold.server.bot_pool import TooSlow, Workers
from sheepfold.server.bot_seats import BotSeats
from sheepfold.server.broadcast import Broadcaster, Conn
from sheepfold.server.chat import Chat
from sheepfold.server.events import EventLog
from sheepfold.server.intents import MAX_MESSAGE, Intents
from sheepfold.server.limits import Rate, RateLimited, RateLimiter
from sheepfold.server.persistence import GroupCommit
from sheepfold.server.ratings import MIN_OWN_MOVES
from sheepfold.server.replay import replay_frames
from sheepfold.server.seating import (
    DRAWN,
    Seat,
    Seating,
    draw_who_starts,
    names_problem,
    token_hash,
)
from sheepfold.server.solutions import Solutions
from sheepfold.server.storage import SeatRow, Storage, TableRow

__all__ = [
    "MAX_MESSAGE",
    "Conn",
    "Damaged",
    "Seat",
    "Settings",
    "Table",
    "TableManager",
    "rebuild",
    "token_hash",
]

log = logging.getLogger("sheepfold.server")

#: what a table's stored config keeps of the spec it was created from
CONFIG_KEYS = (
    "rules",
    "ruleset",
    "breeds",
    "show_scores",
    "replace_leavers",
    "replacement_bot",
    "auto_roll",
    "private",
    "gallery",  # the published rule set it plays: the "house" of its info (server/gallery.py)
    "own_pace",  # played over days: seats wait for their people, no bot stands in
    "friends_only",  # only the host's friends sit (server/friends.py)
    "host",  # the profile that opened a table for its friends
    "turn_clock",  # seconds per move (server/clock.py); None: no clock
    "out_of_time",  # past the clock: "bot" (plays for them) or "skip" (server/clock.py)
    "first",  # who starts: drawn at random, or chosen (server/seating.py); None: the rules'
    "turned",  # how far its seats turned for the draw ("Play again": a page's seat there)
    "again_of",  # the finished table "Play again" opened this one after (kept over restarts)
)


@dataclass
class Settings:
    """Timings and limits of a server (tests and the bench make bots instant)."""

    bot_delay: float = 0.7  # seconds a bot "thinks" before each decision
    react_min: float = 0.6  # a bot's reaction to the wolf's howl, seconds
    react_max: float = 1.5
    race_timeout: float = 8.0  # nobody grabbed: the reaction weights decide
    # grabs within this many seconds of the race's first grab are a draw between them (a
    # person's reaction time: a script's instant grab cannot beat it; docs/spec/rulings.md)
    race_window: float = 0.4
    leave_grace: float = 90.0  # a disconnected player's seat: a bot stands in after this
    allow_seed: bool = False  # tests: a table may be created with a given seed
    # bots: one pool of worker threads for every table, and a deadline per decision
    bot_workers: int = 2
    bot_deadline: float = 3.0  # seconds from asking (a free worker included) to the answer
    # the other costly work, off the event loop (a new table's deal, a table read back, a
    # replay, a record): a pool of worker threads, each job stopped after its deadline
    work_workers: int = 2
    work_deadline: float = 20.0  # seconds from asking (a free worker included)
    # the perfect bot: rule sets up to this many positions are solved by one background job
    solve_limit: int = 1_000_000
    solve_rate: float = 20_000.0  # positions per second, for the "ready in about N s"
    # per client address (a token bucket each; Rate(0, 0): no limit)
    create_rate: Rate = field(default=Rate(0.1, 5))  # tables created: 5, then one per 10 s
    join_rate: Rate = field(default=Rate(0.5, 10))  # seats taken
    message_rate: Rate = field(default=Rate(20.0, 60))  # WebSocket messages
    chat_rate: Rate = field(default=Rate(0.5, 5))  # chat lines, per seat and per address
    check_rate: Rate = field(default=Rate(4.0, 30))  # rule sets checked (the rule editor)
    read_rate: Rate = field(default=Rate(2.0, 30))  # costly reads: replays, records, rules, gallery
    profile_rate: Rate = field(default=Rate(1 / 60, 3))  # profiles made: 3, then one a minute
    invite_rate: Rate = field(default=Rate(20 / 3600, 20))  # friend requests and invitations
    profiles_per_day: int = 10  # profiles one address may make in 24 hours (0: any)
    lobby_rate: Rate = field(
        default=Rate(1.0, 10)
    )  # the lobby's listing (a page polls it every 5 s)
    max_body: int = 16 * 1024
    # finished tables leave memory this many seconds after their end (their records, replays
    # and pages are read back from the database when asked for); 0: never
    archive_after: float = 600.0
    lobby_refresh: float = 1.0  # the lobby's listing is rebuilt at most this often (seconds)  # bytes of an HTTP request's body (the gallery's publish: its own)
    max_open_tables: int = 5  # unfinished tables one address opened in the last hour (0: any)
    open_table_window: float = 3600.0
    max_message: int = 4096  # bytes of one WebSocket message
    max_depth: int = 8  # nesting of arrays and objects in one WebSocket message
    api_docs: bool = False  # Swagger UI at /api/docs (its scripts come from a CDN)
    # the gallery (server/gallery.py): publishing, and the lab cards (server/gallery_lab.py)
    publish_rate: Rate = field(default=Rate(0.05, 5))  # publishes: 5, then one per 20 s
    gallery_per_day: int = 20  # new rule sets one address may publish in 24 hours (0: any)
    gallery_max_versions: int = 50  # versions of one rule set
    lab_workers: int = 1  # cards computed at once, each in its own process (0: none)
    lab_queue_max: int = 50  # cards waiting at most: a publish beyond is refused (503)
    lab_queue_per_client: int = 3  # cards of one address waiting at most (429 beyond; 0: any)
    lab_games: int = 2000  # games a side (rulebook and rule set, the same seeds)
    lab_seconds: float = 60.0  # a card's time budget: it is capped (and says so) after it
    lab_exact_limit: int = 200_000  # Shave a Sheep: positions the exact figures may take
    # many processes on one PostgreSQL database (server/cluster.py): every this many seconds
    # each takes its share of the tables nobody holds (their owner died or stopped)
    cluster_sweep: float = 0.5
    # play over days (server/clock.py, server/mail.py): a clock second is 1 / clock_scale real
    # seconds; every clock is checked each clock_tick seconds (0: never, tests check by hand)
    clock_scale: float = 1.0
    clock_tick: float = 30.0
    away_after: float = 600.0  # clock seconds a person is disconnected before "away since"
    smtp: str | None = None  # smtp://host:port, smtps://..., smtp+starttls://user:pass@host:587
    mail_from: str = "Sheepfold <sheepfold@localhost>"
    site_url: str = "http://127.0.0.1:8000"  # the address the e-mails' links start with
    mail_rate: Rate = field(default=Rate(1 / 600, 6))  # e-mails to one address: 6, then 1/10 min

    @classmethod
    def unlimited(cls, **kw: Any) -> Settings:
        """No rate limits and no cap on open tables (a benchmark, a trusted LAN)."""
        off = Rate(0, 0)
        return cls(
            create_rate=off,
            join_rate=off,
            message_rate=off,
            chat_rate=off,
            publish_rate=off,
            check_rate=off,
            read_rate=off,
            lobby_rate=off,
            profile_rate=off,
            invite_rate=off,
            profiles_per_day=0,
            max_open_tables=0,
            gallery_per_day=0,
            lab_queue_per_client=0,
            **kw,
        )


class Table:
    """One game: its state and commit position, composed with the pieces that serve it."""

    def __init__(self, manager: TableManager, row: TableRow, game: Game, state: State) -> None:
        self.manager = manager
        self.id = row.id
        self.game = game
        self.config = row.config
        self.seed = row.seed
        self.created = row.created
        self.state = state
        self.driver: TableDriver = table_driver(game.name)  # what the game does its own way
        self.stored = len(state.history)  # actions committed to the database
        self.applied = self.stored  # actions in self.state (more while a commit is pending)
        self.creator: str | None = None  # the client address that opened it (kept in memory)
        self.next_id: str | None = None  # the table "Play again" opened after this one
        self.finished_at: float | None = None  # when its end was committed (manager.clock)
        self._fixed_info: dict[str, Any] | None = None  # fixed_info(), once built
        self.moved_by: set[int] = set()  # seats whose person moved in the pending commit
        self.seating = Seating(self, row.seats)
        self.out = Broadcaster(self)
        self.log = EventLog(self)
        self.intents = Intents(self)
        self.bots = BotSeats(self)
        self.chat = Chat(self)
        self.rank = self.lobby_rank()

    # -- facts -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.game.name

    @property
    def show_scores(self) -> bool:
        return bool(self.config.get("show_scores", True))

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def conns(self) -> set[Conn]:
        return self.out.conns

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.log.events

    @property
    def dirty(self) -> bool:
        """Actions applied but not committed yet: nobody may see this state now."""
        return self.applied != self.stored

    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def private(self) -> bool:
        """Reached by its invite link only: not listed in the lobby."""
        return bool(self.config.get("private", False))

    def has_people(self) -> bool:
        """Someone holds a seat (a person, not only bots and free seats)."""
        for s in self.seating.seats:  # a loop, not any(): every broadcast asks (lobby_rank)
            if s.kind == "human" and s.token_hash is not None:
                return True
        return False

    def public_info(self) -> dict[str, Any]:
        return {**self.fixed_info(), **self.live_info()}

    def fixed_info(self) -> dict[str, Any]:
        """The part of the public info its set-up decides (built once: a broadcast's hot path)."""
        if self._fixed_info is None:
            self._fixed_info = {
                "id": self.id,
                "game": self.game.name,
                "title": self.game.info.title,
                "ruleset": self.config.get("ruleset"),
                "rules": self.config.get("rules", {}),
                "players": self.game.num_players,
                "show_scores": self.show_scores,
                "replace_leavers": bool(self.config.get("replace_leavers", True)),
                "auto_roll": bool(self.config.get("auto_roll", False)),
                "private": self.private,
                "created": self.created,
                "house": self.config.get("gallery"),  # the gallery rule set it plays, or None
                "own_pace": bool(self.config.get("own_pace", False)),
                "friends_only": bool(self.config.get("friends_only", False)),
                "first": {  # who starts, and how it was chosen (server/seating.py)
                    "seat": self.game.first_seat,
                    "how": self.config.get("first"),
                    "turned": self.config.get("turned", 0),
                },
            }
        return self._fixed_info

    def live_info(self) -> dict[str, Any]:
        """The part of the public info that changes while the table plays."""
        spectators = 0
        for c in self.out.conns:
            if c.seat is None:
                spectators += 1
        return {
            "seats": [s.public() for s in self.seating.seats],
            "finished": self.applied == self.stored and self.state.is_terminal(),  # committed
            "spectators": spectators,
            "next": self.next_id,
            "clock": self.manager.clock_info(self),  # server/clock.py: the turn clock, who is away
        }

    def seat_of_token(self, token: str | None) -> int | None:
        return self.seating.seat_of_token(token)

    def lobby_rank(self) -> tuple[int, float]:
        """Where the lobby lists it: unfinished with people first, then the other unfinished
        tables, then finished ones; newest first in each."""
        return (2 if self.state.is_terminal() else 0 if self.has_people() else 1), -self.created

    # -- what the pieces offer (the names the app, the manager and the tests use) -----------
    def handle(self, conn: Conn, text: str) -> None:
        self.intents.handle(conn, text)

    def attach(self, conn: Conn) -> None:
        self.seating.attach(conn)
        self.chat.welcome(conn)

    def detach(self, conn: Conn) -> None:
        self.seating.detach(conn)

    def take_seat(
        self,
        name: str,
        seat: int | None = None,
        client: str | None = None,
        profile: str | None = None,
    ) -> tuple[int, str]:
        return self.seating.take_seat(name, seat, client, profile)

    def leave(self, seat: int) -> None:
        self.seating.leave(seat)

    def send_state(self, conn: Conn) -> None:
        self.out.send_state(conn)

    def broadcast(self) -> None:
        self.out.broadcast()
        self.rank = self.lobby_rank()  # whatever changes the rank is broadcast
        self.manager.lobby_changed()

    def schedule(self) -> None:
        self.bots.schedule()

    def replay_frames(self) -> list[dict[str, Any]]:
        return replay_frames(self)

    async def replay_frames_async(self) -> list[dict[str, Any]]:
        """:meth:`replay_frames` in the manager's work pool (stopped at its deadline)."""
        return await self.manager.off_loop(  # type: ignore[no-any-return]
            self.replay_frames,
            Msg(
                "this game's replay takes more than {seconds} s to rebuild, so this server "
                "stopped it",
                seconds=f"{self.manager.settings.work_deadline:g}",
            ),
        )

    async def record(self) -> dict[str, Any]:
        """The finished game's record (docs/spec/records.md; ``house``: the gallery rule set
        it plays), built in the manager's work pool."""
        from sheepfold.core.records import to_record

        names = [s.name or f"seat {s.seat}" for s in self.seats]
        rec: dict[str, Any] = await self.manager.off_loop(
            lambda: to_record(self.state, names),
            Msg(
                "this game's record takes more than {seconds} s to write, so this server "
                "stopped it",
                seconds=f"{self.manager.settings.work_deadline:g}",
            ),
        )
        house = self.config.get("gallery")
        if house:
            rec["house"] = house
        return rec

    # -- applying and committing -------------------------------------------------------------
    def auto_chance(self, state: State) -> None:
        """Chance the server resolves at once (the driver's ``now`` steps: Dolly Crush's draws,
        the deck's top card; a die rolled automatically)."""
        resolve_now(self.driver, state, self.config)

    def accept(self, trial: State) -> None:
        """Make ``trial`` the table's state; its new actions are committed (group commit, at
        the end of this turn of the event loop) before anyone is told about them."""
        self.auto_chance(trial)
        new = list(trial.history[self.applied :])
        # told on the state left behind (the log's probe: ``EventLog.describe`` on a clone of
        # it), which nothing else holds once ``trial`` takes its place: one clone less a move;
        # the last action is told from ``trial`` itself (not applied to the probe again)
        old, self.state = self.state, trial
        self.log.tell(old, new, trial)
        start = self.applied
        self.applied += len(new)
        self.bots.race_key = None
        sender = self.intents.sender  # None: a bot's move, a stand-in's, the server's
        if sender is not None and sender[0].seat is not None:
            self.moved_by.add(sender[0].seat)
        self.manager.queue_write(self, start, new, trial.is_terminal(), self.intents.sender)

    def committed(self) -> None:
        """The manager committed every pending action of this table."""
        self.stored = self.applied
        self.count_own_moves()
        if self.finished_at is None and self.state.is_terminal():
            self.finished_at = self.manager.clock()
            self.manager.game_ended(self)
        for hook in self.manager.on_commit:  # server/clock.py: the turn clock, the notices
            hook(self)

    def count_own_moves(self) -> None:
        """The seats whose person moved themselves in the commit count it (stored up to
        ``ratings.MIN_OWN_MOVES``: what a rated game asks of each person, server/ratings.py)."""
        moved, self.moved_by = self.moved_by, set()
        for seat in moved:
            s = self.seats[seat]
            if s.kind == "human" and s.moves < MIN_OWN_MOVES:
                s.moves += 1
                try:
                    self.manager.storage.update_seat(self.id, s.row())
                except Exception:  # the move stands; only its count is not kept
                    log.exception("table %s: seat %d's own moves were not stored", self.id, seat)

    def roll_back(self) -> None:
        """The commit failed: back to the last committed position (replayed from the start)."""
        hist = list(self.state.history[: self.stored])
        state = self.manager.new_state(self.game, self.seed)
        for _, a in hist:
            state.apply_unchecked(a)
        self.state = state
        self.applied = self.stored
        self.moved_by.clear()
        self.bots.race_key = None
        self.bots.task_key = None
        self.log.note(
            None, Msg("server trouble: the last move could not be saved, so it did not happen")
        )


@dataclass
class Archived:
    """What stays in memory of a finished table archived out of the live set: what the
    gallery counts (its game and rule set), and the table "Play again" opened after it."""

    id: str
    name: str
    config: dict[str, Any]
    next_id: str | None = None

    def finished(self) -> bool:
        return True


class TableManager:
    """Every table of a server, their storage, group commit, and the background tasks of bots.

    The live set (``tables``) holds the unfinished tables and the recently finished ones; a
    table finished ``Settings.archive_after`` seconds ago with nobody watching leaves it for
    ``archived`` and comes back from the database when it is asked for (``get``)."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        self.quarantined: dict[str, str] = {}  # table id -> what is damaged
        self.archived: dict[str, Archived] = {}  # finished tables out of memory
        self.clock = time.monotonic
        self._lobby: bytes | None = None  # the listing's JSON, and when it was built
        self._lobby_built = 0.0
        self._lobby_dirty = True
        self.tasks: set[asyncio.Task[Any]] = set()
        self.writer = GroupCommit(storage)
        st = self.settings
        self.bot_pool = Workers(st.bot_workers, st.bot_deadline)
        self.work = Workers(st.work_workers, st.work_deadline, "sheepfold-work")
        # tables being opened ("Play again") or read back, each once: (what, table id) -> task
        self._opening: dict[tuple[str, str], asyncio.Future[Any]] = {}
        self.solutions = Solutions(st.solve_limit, st.solve_rate)
        self.limits = {
            "create": RateLimiter(st.create_rate, Msg("tables opened")),
            "join": RateLimiter(st.join_rate, Msg("seats taken")),
            "message": RateLimiter(st.message_rate, Msg("messages")),
            "chat": RateLimiter(st.chat_rate, Msg("chat lines")),
            "publish": RateLimiter(st.publish_rate, Msg("rule sets published")),
            "check": RateLimiter(st.check_rate, Msg("rule sets checked")),
            "read": RateLimiter(st.read_rate, Msg("requests for replays, records and rule sets")),
            "lobby": RateLimiter(st.lobby_rate, Msg("requests for the list of tables")),
            "profile": RateLimiter(st.profile_rate, Msg("profiles made")),
            "invite": RateLimiter(st.invite_rate, Msg("friend requests and invitations")),
        }
        # players' profiles (server/profiles.py sets these): the profile id of a secret, and
        # what is done when a game ends (its people's history and ratings)
        self.profile_of: Callable[[Any], str | None] = lambda secret: None
        self.game_ended: Callable[[Table], None] = lambda table: None
        self.seat_left: Callable[[Table, Any], None] = lambda table, seat: None  # before the end
        # why a profile (None: no profile) may not sit at a table (server/friends.py), or None
        self.sit_refusal: Callable[[Table, str | None], str | None] = lambda table, profile: None
        # play over days (server/clock.py sets these): what a commit tells it, the clock's info
        self.on_commit: list[Callable[[Table], None]] = []
        self.clock_info: Callable[[Table], dict[str, Any] | None] = lambda table: None

    @property
    def commits(self) -> int:
        """Transactions so far (a batch of tables each)."""
        return self.writer.commits

    def queue_write(
        self, table: Table, start: int, actions: list[tuple[int, int]], finished: bool, sender: Any
    ) -> None:
        self.writer.queue_write(table, start, actions, finished, sender)

    def flush(self) -> None:
        self.writer.flush()

    async def off_loop(self, work: Callable[[], Any], too_long: str) -> Any:
        """``work()`` in the work pool, stopped at ``work_deadline``: its answer, or
        SheepfoldError(``too_long``) (and it stops at its next check of the deadline)."""
        try:
            return await self.work.decide(None, work)
        except TooSlow:
            log.warning("stopped after %g s: %s", self.settings.work_deadline, too_long)
            raise SheepfoldError(too_long) from None

    def spawn(self, coro: Any) -> None:
        t = asyncio.get_event_loop().create_task(coro)
        self.tasks.add(t)
        t.add_done_callback(self.tasks.discard)

    @staticmethod
    def make_game(game: str, players: int, config: dict[str, Any]) -> Game:
        from sheepfold.games import make

        extra = (
            {"breeds": config["breeds"]} if game_spec(game).breeds and config.get("breeds") else {}
        )
        return make(game, players=players, rules=config.get("rules") or None, **extra)

    @staticmethod
    def new_state(game: Game, seed: int) -> State:
        return game.new_initial_state(seed=seed)

    def load(self) -> int:
        """Rebuild every stored unfinished table by replaying its actions (start-up, after a
        crash too); finished ones are archived (read back when asked for). A damaged table
        is quarantined (logged, kept in ``quarantined``, not served); every other table is
        served. The number of tables served, live or archived."""
        after: dict[str, str] = {}  # a finished table -> the one "Play again" opened after it
        for row in self.storage.load_all(finished_actions=False):
            if row.config.get("again_of"):
                after[row.config["again_of"]] = row.id
            if row.finished and row.damage is None:  # read back when asked for
                self.archived[row.id] = archived(row.id, row.game, row.config)
                continue
            try:
                game, state = rebuild(row)
            except Damaged as e:
                self._quarantine(row.id, e)
                continue
            self.tables[row.id] = self._rebuilt(row, game, state, None)
        for table_id, next_id in after.items():
            before = self.tables.get(table_id) or self.archived.get(table_id)
            if before is not None:
                before.next_id = next_id
        return len(self.tables) + len(self.archived)

    def start(self) -> None:
        """Resume every table: bots, rolls and races that were pending (after a restart); every
        person's seat waits for them (a bot stands in after the grace)."""
        for t in self.tables.values():
            t.seating.arm_timers()
            t.schedule()
        if self.settings.archive_after > 0:
            self.spawn(self._archiver())

    # -- the live set ------------------------------------------------------------------------
    async def _archiver(self) -> None:
        period = min(30.0, max(0.02, self.settings.archive_after / 4))
        while True:
            await asyncio.sleep(period)
            self.archive_finished()

    def archive_finished(self) -> int:
        """Archive every table finished ``archive_after`` seconds ago that nobody watches
        (nothing uncommitted): the number archived."""
        since = self.clock() - self.settings.archive_after
        done = [
            t
            for t in self.tables.values()
            if t.finished_at is not None and t.finished_at <= since and not t.conns and not t.dirty
        ]
        for t in done:
            for s in t.seats:
                if s.leave_timer is not None:
                    s.leave_timer.cancel()
            del self.tables[t.id]
            self.archived[t.id] = archived(t.id, t.name, t.config, t.next_id)
            self.storage.release(t.id)
        if done:
            self.lobby_changed()
        return len(done)

    def _revive(self, table_id: str) -> Table | None:
        """An archived table read back from the database (quarantined if it is damaged)."""
        rows = self.storage.load_all(table_id)
        if not rows:
            self.archived.pop(table_id)
            return None
        return self.adopt(rows[0])

    def adopt(self, row: TableRow) -> Table | None:
        """A stored table into the live set, rebuilt by replaying its actions (None: it is
        damaged, and quarantined). A finished one is archived again after a while."""
        kept = self.archived.pop(row.id, None)
        try:
            game, state = rebuild(row)
        except Damaged as e:
            self._quarantine(row.id, e)
            return None
        return self._serve(self._rebuilt(row, game, state, kept))

    def _quarantine(self, table_id: str, e: Damaged) -> None:
        self.quarantined[table_id] = str(e)
        log.error("table %s is damaged and quarantined (not served): %s", table_id, e)

    def _rebuilt(self, row: TableRow, game: Game, state: State, kept: Archived | None) -> Table:
        """The table of a stored ``row`` rebuilt (``state``), not served yet."""
        table = Table(self, row, game, state)
        table.stored = table.applied = len(state.history)
        table.log.retell_later()  # told from its actions when first asked for
        if kept is not None:
            table.next_id = kept.next_id
        return table

    def _serve(self, table: Table) -> Table:
        """A rebuilt table into the live set (a finished one is archived again after a while)."""
        if table.finished():
            table.finished_at = self.clock()
        self.tables[table.id] = table
        self.lobby_changed()
        return table

    def summaries(self) -> list[Table | Archived]:
        """Every table the server knows, live or archived (what the gallery counts)."""
        return [*self.tables.values(), *self.archived.values()]

    def check_open_tables(self, client: str) -> None:
        """RateLimited if ``client`` has as many unfinished tables (opened in the last
        ``open_table_window`` seconds) as a client may."""
        cap = self.settings.max_open_tables
        if cap <= 0:
            return
        since = time.time() - self.settings.open_table_window
        mine = [
            t
            for t in self.tables.values()
            if t.creator == client and t.created >= since and not t.finished()
        ]
        if len(mine) >= cap:
            raise RateLimited(
                f"you have {len(mine)} open tables (at most {cap}): play or finish one "
                "before opening another"
            )

    def lobby(self, limit: int = 100) -> list[Table]:
        """The tables the lobby lists: never private ones; unfinished tables with people
        first, then the other unfinished ones, then finished ones; newest first in each
        (``Table.rank``, kept up to date by each table's broadcast)."""
        listed = (t for t in self.tables.values() if not t.private)
        return heapq.nsmallest(limit, listed, key=lambda t: t.rank)

    def lobby_changed(self, now: bool = False) -> None:
        """A table's public info changed: the listing is rebuilt when next asked for (at
        once if ``now``, else at most every ``lobby_refresh`` seconds)."""
        self._lobby_dirty = True
        if now:
            self._lobby = None

    def lobby_listing(self) -> bytes:
        """The lobby's listing as JSON: built once for every request that asks while nothing
        changed, and at most every ``lobby_refresh`` seconds while tables play."""
        now = self.clock()
        fresh = not self._lobby_dirty or now - self._lobby_built < self.settings.lobby_refresh
        if self._lobby is None or not fresh:
            self._lobby = json.dumps([t.public_info() for t in self.lobby()]).encode()
            self._lobby_built, self._lobby_dirty = now, False
        return self._lobby

    def create(self, spec: dict[str, Any]) -> Table:
        """A new table from a validated spec (see app.CreateTable), dealt here (a front end's
        own process; a server calls :meth:`create_async`)."""
        game, config, seed, perfect = self._set_up(spec)
        if perfect:
            self.solutions.require(game, perfect)  # never solved here: cached, or a job
        state = deal(game, seed, config)
        row = self._new_row(spec, config, seed, state)
        self.storage.create_table(row)
        return self._open(spec, row, game, state)

    async def create_async(self, spec: dict[str, Any]) -> Table:
        """:meth:`create` off the event loop: the perfect bot's count of positions and the
        opening deal run in the work pool, each stopped at ``work_deadline`` (refused then,
        nothing opened); other tables play meanwhile."""
        game, config, seed, perfect = self._set_up(spec)
        if perfect:
            await self.solutions.require_async(game, perfect, self.work)
        state = await self.off_loop(
            lambda: deal(game, seed, config),
            Msg(
                "the opening deal of these rules takes more than {seconds} s, so this server "
                "stopped it: fewer cards or fewer clean-up rounds make it shorter",
                seconds=f"{self.settings.work_deadline:g}",
            ),
        )
        row = self._new_row(spec, config, seed, state)
        if self.storage.writes_in_threads:  # its dealt actions: many rows for a long deal
            await self.off_loop(
                lambda: self.storage.create_table(row),
                Msg(
                    "storing the opening deal of these rules takes more than {seconds} s, so "
                    "this server stopped it",
                    seconds=f"{self.settings.work_deadline:g}",
                ),
            )
        else:
            self.storage.create_table(row)
        return self._open(spec, row, game, state)

    def _set_up(self, spec: dict[str, Any]) -> tuple[Game, dict[str, Any], int, list[int]]:
        """A new table's game, config, seed and perfect bot's seats (its spec checked)."""
        game_name = spec["game"]
        seats = spec["seats"]
        clash = names_problem([s.get("name") if s["kind"] == "bot" else None for s in seats])
        if clash:
            raise SheepfoldError(clash)
        given = spec.get("seed")
        if given is not None and not self.settings.allow_seed:
            raise SheepfoldError(
                "seed: this server chooses the seeds (only a test server, "
                "started with --dev-seeds, takes one)"
            )
        seed: int = int(given) if self.settings.allow_seed and given is not None else secret_seed()
        if spec.get("first") == DRAWN:  # who starts, drawn from the seed (server/seating.py)
            starts = self.make_game(game_name, len(seats), {"rules": spec.get("rules")}).first_seat
            draw_who_starts(spec, seed, starts)  # the spec's seats turned (in place)
            seats = spec["seats"]
        config = {k: spec[k] for k in CONFIG_KEYS if spec.get(k) is not None}
        game = self.make_game(game_name, len(seats), config)
        perfect = perfect_seats(seats, config.get("replacement_bot", "random"))
        return game, config, seed, perfect

    @staticmethod
    def _new_row(spec: dict[str, Any], config: dict[str, Any], seed: int, state: State) -> TableRow:
        """The stored row of a new table of ``spec``, dealt (``state``), with a new id."""
        seats = spec["seats"]
        # an invite link is the only way into a private table: 96 bits nobody guesses
        table_id = secrets.token_urlsafe(12 if spec.get("private") else 6)
        table_id = table_id.replace("-", "x").replace("_", "y")
        return TableRow(
            table_id,
            spec["game"],
            len(seats),
            config,
            seed,
            time.time(),
            state.is_terminal(),
            [
                SeatRow(
                    i,
                    s["kind"],
                    s.get("name") if s["kind"] == "bot" else None,
                    s.get("bot") if s["kind"] == "bot" else None,
                    None,
                )
                for i, s in enumerate(seats)
            ],
            actions=list(state.history),
        )

    def _open(self, spec: dict[str, Any], row: TableRow, game: Game, state: State) -> Table:
        """The new table of ``spec`` (its ``row`` stored) into the live set, its bots started."""
        table = Table(self, row, game, state)
        table.creator = spec.get("creator")
        table.stored = table.applied = len(state.history)
        self.tables[row.id] = table
        self.lobby_changed(now=True)  # its creator finds it listed at once
        table.log.retell()  # "the table is open", and a roll its set-up made (as after a restart)
        table.schedule()
        return table

    async def again(self, old: Table, creator: str | None) -> Table:
        """The table after a finished one ("Play again"): the same game, rules, settings and
        seats (people's seats free for them, the same bots), opened once (two calls at once
        open one table; later calls get the same table), dealt off the event loop
        (:meth:`create_async`). The old table points to it (``next``, kept in memory)."""
        nxt = await self.get_async(old.next_id) if old.next_id else None
        if nxt is not None:
            return nxt

        async def open_next() -> Table:
            return self._played_again(old, await self.create_async(again_spec(old, creator)))

        return await self._once(("again", old.id), open_next)  # type: ignore[no-any-return]

    def _played_again(self, old: Table, new: Table) -> Table:
        old.next_id = new.id
        new.seating.wait_for_people()  # a seat nobody comes back for does not block the game
        old.broadcast()
        return new

    def get(self, table_id: str) -> Table | None:
        """A table of the live set, or an archived one read back from the database (here: a
        server calls :meth:`get_async`)."""
        t = self.tables.get(table_id)
        if t is None and table_id in self.archived:
            return self._revive(table_id)
        return t

    async def get_async(self, table_id: str) -> Table | None:
        """:meth:`get`, an archived table read back off the event loop: its rows read, its
        actions replayed and its log told again in the work pool (stopped at
        ``work_deadline``: SheepfoldError); every other table plays meanwhile. Two calls at
        once read it once."""
        t = self.tables.get(table_id)
        if t is not None or table_id not in self.archived:
            return t
        return await self._once(("revive", table_id), lambda: self._revive_async(table_id))  # type: ignore[no-any-return]

    async def _once(self, what: tuple[str, str], work: Callable[[], Any]) -> Any:
        """The answer of the coroutine ``work()``, run once for ``what`` however many callers
        ask while it runs (each waits for it; one that stops waiting does not stop it)."""
        running = self._opening.get(what)
        if running is None:
            running = self._opening[what] = asyncio.ensure_future(work())
            running.add_done_callback(lambda _: self._opening.pop(what, None))
        return await asyncio.shield(running)

    async def _revive_async(self, table_id: str) -> Table | None:
        too_long = Msg(
            "reading this table back takes more than {seconds} s, so this server stopped it",
            seconds=f"{self.settings.work_deadline:g}",
        )
        rows = await self.off_loop(lambda: self.storage.load_all(table_id), too_long)
        if not rows:
            self.archived.pop(table_id, None)
            return None
        row = rows[0]
        try:
            game, state = await self.off_loop(lambda: rebuild(row), too_long)
        except Damaged as e:
            self.archived.pop(table_id, None)
            self._quarantine(row.id, e)
            return None
        table = self._rebuilt(row, game, state, self.archived.get(table_id))
        await self.off_loop(lambda: table.log.events, too_long)  # told before anyone asks
        if table_id in self.tables:  # read back by get() meanwhile
            return self.tables[table_id]
        self.archived.pop(table_id, None)
        return self._serve(table)

    async def close(self) -> None:
        self.flush()
        self.writer.closed = True
        for t in list(self.tasks):
            t.cancel()
        for table in self.tables.values():
            for s in table.seats:
                if s.leave_timer is not None:
                    s.leave_timer.cancel()
        self.bot_pool.close()
        self.work.close()
        self.solutions.close()
        self.storage.close()


def archived(
    table_id: str, game: str, config: dict[str, Any], next_id: str | None = None
) -> Archived:
    """A finished table's summary (only the gallery rule set of its config is kept)."""
    house = config.get("gallery")
    return Archived(table_id, game, {"gallery": house} if house else {}, next_id)


def perfect_seats(seats: list[dict[str, Any]], replacement_bot: str) -> list[int]:
    """The seats the perfect bot may play: its own, and every person's if it stands in."""

    def is_perfect(spec: str | None) -> bool:
        return (spec or "").partition(":")[0] == "perfect"

    people = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    mine = [i for i, s in enumerate(seats) if s["kind"] == "bot" and is_perfect(s.get("bot"))]
    return sorted(mine + (people if is_perfect(replacement_bot) else []))


def again_spec(old: Table, creator: str | None) -> dict[str, Any]:
    """The spec of the table after ``old`` ("Play again"): its game, rules, settings and
    seats (people's seats free for them, the same bots; a first player drawn is drawn again,
    everyone keeping their neighbours: server/seating.py)."""
    seats = [
        {"kind": s.kind, "bot": s.bot, "name": s.name if s.kind == "bot" else None}
        for s in old.seats
    ]
    spec = {k: old.config[k] for k in CONFIG_KEYS if k in old.config}
    return {**spec, "game": old.name, "seats": seats, "creator": creator, "again_of": old.id}


def resolve_now(driver: TableDriver, state: State, config: dict[str, Any]) -> None:
    """Resolve the chance steps the server resolves at once (the driver's ``now`` steps: Dolly
    Crush's draws and deal, the deck's top card, a die rolled automatically); in a worker, it
    stops at the worker's deadline (OutOfTime)."""
    while state.current_player() == CHANCE:
        if driver.chance(state, config).kind != "now":
            return
        check()
        state.apply_unchecked(state.sample_chance())


def deal(game: Game, seed: int, config: dict[str, Any]) -> State:
    """A new table's state: ``game`` from ``seed``, its opening chance resolved (the deal)."""
    state = TableManager.new_state(game, seed)
    resolve_now(table_driver(game.name), state, config)
    return state


class Damaged(Exception):
    """A stored table that cannot be rebuilt (the message says what is wrong with it)."""


def rebuild(row: TableRow) -> tuple[Game, State]:
    """A stored table's game and its state after every stored action, each checked by the
    engine (and stored for the seat that was to move). Damaged says why it cannot be."""
    if row.damage:
        raise Damaged(row.damage)
    try:
        game = TableManager.make_game(row.game, row.players, row.config)
    except Exception as e:
        raise Damaged(f"its set-up (game {row.game!r}) does not make a game: {e}") from None
    if len(row.seats) != row.players:
        raise Damaged(f"it has {len(row.seats)} stored seats for {row.players} players")
    state = TableManager.new_state(game, row.seed)
    for i, (seat, action) in enumerate(row.actions):
        check()  # read back in a worker: stopped at its deadline
        mover = state.current_player() if not state.is_terminal() else None
        if seat != mover:
            raise Damaged(f"stored action {i} is for seat {seat}, but seat {mover} was to move")
        try:
            state.apply(action)
        except Exception as e:
            raise Damaged(f"stored action {i} ({action}) does not replay: {e}") from None
    return game, state
