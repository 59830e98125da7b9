"""Tables: one game each, with seats (people or bots), connections, bots and the wolf race.

The server is the only authority. A client sends an *intent* (a whole Dolly Crush turn, one
named decision, a roll, a grab); the table tries it on a clone of its state, and only when the
engine accepts all of it are the new engine actions written to the database (committed) and
the new views sent out. Each connection receives ``observe(seat)`` for the seat it holds, or the
public view ``observe(None)``; the deck order and the seed never leave this module.

Everything here runs on the server's one event loop. Handling an intent is synchronous (no
``await`` between checking, committing and switching the state), so two intents never
interleave; sending is done by one writer task per connection reading its own queue, so the
messages of a connection keep their order and a slow client delays nobody.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheepfold.bots import warmup
from sheepfold.core.protocol import CHANCE, Game, IllegalAction, SheepfoldError, State, new_seed
from sheepfold.core.registry import game_spec
from sheepfold.games.dolly_crush.game import DollyGame
from sheepfold.server.storage import SeatRow, Storage, TableRow

_dumps = json.JSONEncoder(separators=(",", ":")).encode

MAX_MESSAGE = 16_384  # bytes of one client message
MAX_QUEUE = 256  # messages waiting for a slow client before it is dropped


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Settings:
    """Timings of a server (tests and the bench make bots instant)."""

    bot_delay: float = 0.7  # seconds a bot "thinks" before each decision
    react_min: float = 0.6  # a bot's reaction to the wolf's howl, seconds
    react_max: float = 1.5
    race_timeout: float = 8.0  # nobody grabbed: the reaction weights decide
    leave_grace: float = 90.0  # a disconnected player is replaced by a bot after this
    allow_seed: bool = False  # tests: a table may be created with a given seed


class Conn:
    """One WebSocket client: the seat it holds (None: watching) and its outgoing queue."""

    def __init__(self, send: Callable[[str], Any], close: Callable[[], Any] | None = None) -> None:
        self._send = send
        self._close = close
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def error(self, message: str, **extra: Any) -> None:
        self.push(json.dumps({"type": "error", "message": message, **extra}))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    await self._close()
                return
            await self._send(text)


@dataclass
class Seat:
    seat: int
    kind: str  # "human" | "bot"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    bot_obj: Any = None
    leave_timer: asyncio.TimerHandle | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "free": self.kind == "human" and self.token_hash is None,
            "online": self.kind == "bot" or bool(self.conns),
        }


class Table:
    def __init__(self, manager: TableManager, row: TableRow, game: Game, state: State) -> None:
        self.manager = manager
        self.id = row.id
        self.game = game
        self.config = row.config
        self.seed = row.seed
        self.created = row.created
        self.state = state
        self.stored = len(state.history)  # actions committed to the database
        self.applied = self.stored  # actions in self.state (more while a commit is pending)
        self._sender: tuple[Conn, Any] | None = None  # who sent the intent being handled
        self.seats = [Seat(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in row.seats]
        self.conns: set[Conn] = set()
        self.race_key: int | None = None
        self.race_deadline = 0.0
        self.race_loser_note: dict[int, str] = {}
        self.task_key: int | None = None  # the position a bot/roll task was scheduled for
        self.events: list[dict[str, Any]] = []  # the last few things that happened
        self.rng = random.Random()
        self.broken: str | None = None

    # -- facts -------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.game.name

    @property
    def dolly(self) -> bool:
        return isinstance(self.game, DollyGame)

    @property
    def show_scores(self) -> bool:
        return bool(self.config.get("show_scores", True))

    def finished(self) -> bool:
        return self.state.is_terminal()

    def public_info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.info.title,
            "ruleset": self.config.get("ruleset"),
            "rules": self.config.get("rules", {}),
            "players": self.game.num_players,
            "seats": [s.public() for s in self.seats],
            "show_scores": self.show_scores,
            "replace_leavers": bool(self.config.get("replace_leavers", True)),
            "auto_roll": bool(self.config.get("auto_roll", False)),
            "finished": self.finished() and not self.dirty,  # told only once committed
            "created": self.created,
            "spectators": sum(1 for c in self.conns if c.seat is None),
        }

    def seat_of_token(self, token: str | None) -> int | None:
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    # -- views -------------------------------------------------------------------------------
    def view_for(self, seat: int | None) -> dict[str, Any]:
        view = self.state.observe(seat)
        if self.dolly and not self.show_scores and not view["finished"]:
            # Collected piles are face down (Dolly Crush ruling 9): the table chose to hide them.
            view["scores"] = [v if s == seat else None for s, v in enumerate(view["scores"])]
            view["collected"] = [
                pile if s == seat else [None] * len(pile)
                for s, pile in enumerate(view["collected"])
            ]
        return view

    def _shared_json(self, info: dict[str, Any]) -> str:
        """The part of a state message that is the same for every connection (JSON text)."""
        race = None
        if self.race_key is not None:
            race = {
                "open": True,
                "ms_left": max(0, int((self.race_deadline - time.monotonic()) * 1000)),
            }
        return (
            f',"table":{_dumps(info)},"race":{_dumps(race)},"events":{_dumps(self.events[-8:])}}}'
        )

    def message_for(self, seat: int | None, shared: str) -> str:
        return (
            f'{{"type":"state","seq":{self.stored},"you":{_dumps(seat)},'
            f'"view":{_dumps(self.view_for(seat))}' + shared
        )

    @property
    def dirty(self) -> bool:
        """Actions applied but not committed yet: nobody may see this state now."""
        return self.applied != self.stored

    def send_state(self, conn: Conn) -> None:
        if self.dirty:  # the commit in progress ends with a broadcast to everyone
            self.manager.later.add(self)
            return
        conn.push(self.message_for(conn.seat, self._shared_json(self.public_info())))

    def broadcast(self) -> None:
        if self.dirty:
            self.manager.later.add(self)
            return
        if not self.conns:
            return
        shared = self._shared_json(self.public_info())
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            if c.seat not in cache:
                cache[c.seat] = self.message_for(c.seat, shared)
            c.push(cache[c.seat])

    # -- connections -------------------------------------------------------------------------
    def attach(self, conn: Conn) -> None:
        self.conns.add(conn)
        self.send_state(conn)

    def detach(self, conn: Conn) -> None:
        self.conns.discard(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.conns.discard(conn)
            if not s.conns and s.kind == "human" and not self.finished():
                self._start_leave_timer(s)
        conn.seat = None
        self.broadcast()

    def hello(self, conn: Conn, token: Any) -> None:
        seat = self.seat_of_token(token) if token is not None else None
        if token is not None and seat is None:
            conn.error("this seat token is not valid at this table: you are watching")
        if conn.seat is not None:
            self.seats[conn.seat].conns.discard(conn)
        conn.seat = seat
        if seat is not None:
            s = self.seats[seat]
            s.conns.add(conn)
            if s.leave_timer is not None:
                s.leave_timer.cancel()
                s.leave_timer = None
        self.broadcast()

    def _start_leave_timer(self, s: Seat) -> None:
        if not self.config.get("replace_leavers", True) or s.leave_timer is not None:
            return
        loop = asyncio.get_event_loop()
        s.leave_timer = loop.call_later(
            self.manager.settings.leave_grace, self._leave_timeout, s.seat
        )

    def _leave_timeout(self, seat: int) -> None:
        s = self.seats[seat]
        s.leave_timer = None
        if s.kind == "human" and not s.conns and s.token_hash is not None and not self.finished():
            self.leave(seat)

    # -- seats -------------------------------------------------------------------------------
    def take_seat(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """A person sits down: returns (seat, secret token). SheepfoldError if no seat is free."""
        free = [s for s in self.seats if s.kind == "human" and s.token_hash is None]
        if seat is not None:
            free = [s for s in free if s.seat == seat]
            if not free:
                raise SheepfoldError(f"seat {seat} is not free")
        if not free:
            raise SheepfoldError("every seat at this table is taken: you can watch")
        s = free[0]
        token = secrets.token_urlsafe(24)
        new = Seat(s.seat, "human", name, None, token_hash(token))
        self.manager.storage.update_seat(self.id, new.row())
        s.name, s.token_hash = name, new.token_hash
        self.broadcast()
        return s.seat, token

    def leave(self, seat: int) -> None:
        """A player leaves: a bot takes the seat if the table decided so, else it becomes free."""
        s = self.seats[seat]
        if self.config.get("replace_leavers", True) and not self.finished():
            bot = self.config.get("replacement_bot", "random")
            new = Seat(seat, "bot", f"{s.name or 'player'} (bot)", bot, None)
        else:
            new = Seat(seat, "human", None, None, None)
        self.manager.storage.update_seat(self.id, new.row())
        for c in list(s.conns):
            c.seat = None
        s.conns.clear()
        s.kind, s.name, s.bot, s.token_hash, s.bot_obj = new.kind, new.name, new.bot, None, None
        self._note(seat, "left the table" + (" (a bot plays on)" if new.kind == "bot" else ""))
        self.broadcast()
        self.schedule()

    # -- intents -----------------------------------------------------------------------------
    def handle(self, conn: Conn, text: str) -> None:
        """One message from a client. Errors go to that client only; nothing changes."""
        if len(text) > MAX_MESSAGE:
            conn.error(f"message too large ({len(text)} bytes; at most {MAX_MESSAGE})")
            return
        try:
            msg = json.loads(text)
        except ValueError:
            conn.error("not JSON: a message is a JSON object with a 'type'")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.error("a message is a JSON object with a 'type'")
            return
        kind = msg["type"]
        ref = msg.get("ref") if isinstance(msg.get("ref"), (int, str)) else None
        self._sender = (conn, ref)
        try:
            if kind == "hello":
                self.hello(conn, msg.get("token"))
            elif kind == "ping":
                conn.push(json.dumps({"type": "pong", "ref": ref}))
            elif kind == "state":
                self.send_state(conn)
            elif kind in ("turn", "act", "roll", "grab", "leave"):
                seat = conn.seat
                if seat is None:
                    raise IllegalAction("you are watching: take a seat to play")
                if "token" in msg and self.seat_of_token(msg["token"]) != seat:
                    raise IllegalAction("this token does not hold your seat")
                if kind == "leave":
                    self.leave(seat)
                elif kind == "turn":
                    self.intent_turn(seat, msg)
                elif kind == "act":
                    self.intent_act(seat, msg)
                elif kind == "roll":
                    self.intent_roll(seat)
                else:
                    self.intent_grab(seat)
            else:
                raise IllegalAction(f"unknown message type {kind!r}")
        except SheepfoldError as e:
            conn.error(str(e), ref=ref)
        finally:
            self._sender = None

    def _check_turn(self, seat: int) -> None:
        if self.finished():
            raise IllegalAction("the game is over")
        p = self.state.current_player()
        if p != seat:
            who = "the dice" if p == CHANCE else self._who(p)
            raise IllegalAction(f"it is not your turn (waiting for {who})")

    def intent_turn(self, seat: int, msg: dict[str, Any]) -> None:
        """Dolly Crush: a whole turn, dog card + swaps, checked all at once on a clone."""
        from sheepfold.games.dolly_crush.game import DOG, swap_action

        if not self.dolly:
            raise IllegalAction("'turn' is a Dolly Crush message; send 'act' or 'roll'")
        self._check_turn(seat)
        trial = self.state.clone()
        if trial.phase != DOG:  # type: ignore[attr-defined]
            raise IllegalAction(
                "a dog card is already in play: send its swaps one by one with 'act'"
            )
        dog, swaps = msg.get("dog"), msg.get("swaps")
        if not isinstance(dog, int) or isinstance(dog, bool):
            raise IllegalAction("'dog' must be the index of one of your dog cards (0..3)")
        if not isinstance(swaps, list) or len(swaps) > 40:
            raise IllegalAction('\'swaps\' must be a list of cell pairs like ["a1", "a2"]')
        need = self.game.dog_swaps[seat][dog] if 0 <= dog < 4 else 0  # type: ignore[attr-defined]
        trial.apply(dog)
        if len(swaps) != need:
            raise IllegalAction(
                f"dog card {dog} makes exactly {need} swap(s), not {len(swaps)} (ruling 7)"
            )
        for pair in swaps:
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(x, str) for x in pair)
            ):
                raise IllegalAction('a swap is a pair of cell names like ["b2", "b3"]')
            try:
                action = swap_action(pair[0], pair[1])
            except ValueError as e:
                raise IllegalAction(str(e)) from None
            trial.apply(action)
        self.accept(trial)

    def intent_act(self, seat: int, msg: dict[str, Any]) -> None:
        """One named decision (``grow``, ``wolf seat 1``, ``dog 2``, ``swap b2-b3``...)."""
        self._check_turn(seat)
        action = msg.get("action")
        trial = self.state.clone()
        if isinstance(action, str) and len(action) <= 40:
            a = trial.string_to_action(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            a = action
        else:
            raise IllegalAction("'action' must be an action name like 'grow' or 'swap b2-b3'")
        trial.apply(a)
        self.accept(trial)

    def intent_roll(self, seat: int) -> None:
        from sheepfold.games.shave_a_sheep.game import ROLL

        st = self.state
        if self.dolly:
            raise IllegalAction("there is no die in Dolly Crush")
        if self.finished():
            raise IllegalAction("the game is over")
        if st.phase != ROLL:  # type: ignore[attr-defined]
            raise IllegalAction("the die has been rolled already")
        if st.turn != seat:  # type: ignore[attr-defined]
            raise IllegalAction(f"it is {self._who(st.turn)}'s turn to roll")  # type: ignore[attr-defined]
        trial = st.clone()
        trial.apply(trial.sample_chance())  # the state's own seeded die
        self.accept(trial)

    def intent_grab(self, seat: int) -> None:
        from sheepfold.games.shave_a_sheep.game import GRAB

        st = self.state
        if self.dolly or st.phase != GRAB or self.race_key is None:  # type: ignore[attr-defined]
            raise IllegalAction(
                "too late: the wolf has been grabbed already"
                if not self.dolly
                else "there is no wolf in Dolly Crush"
            )
        trial = st.clone()
        trial.apply(seat)  # the chance outcome "seat grabs": the first grab that arrives
        self._note(seat, "grabbed the wolf first!")
        self.accept(trial)

    # -- applying ----------------------------------------------------------------------------
    def _auto_chance(self, state: State) -> None:
        """Chance the server resolves at once: Dolly Crush's draws (the deck's top card)."""
        from sheepfold.games.shave_a_sheep.game import ROLL

        while state.current_player() == CHANCE:
            if self.dolly:
                state.apply_unchecked(state.sample_chance())
            elif state.phase == ROLL and self.config.get("auto_roll", False):  # type: ignore[attr-defined]
                state.apply_unchecked(state.sample_chance())
            else:
                return

    def accept(self, trial: State) -> None:
        """Make ``trial`` the table's state; its new actions are committed (group commit, at
        the end of this turn of the event loop) before anyone is told about them."""
        self._auto_chance(trial)
        new = list(trial.history[self.applied :])
        self._describe(new)
        start = self.applied
        self.state = trial
        self.applied += len(new)
        self.race_key = None
        self.manager.queue_write(self, start, new, trial.is_terminal(), self._sender)

    def committed(self) -> None:
        """The manager committed every pending action of this table."""
        self.stored = self.applied

    def roll_back(self) -> None:
        """The commit failed: back to the last committed position (replayed from the start)."""
        hist = list(self.state.history[: self.stored])
        state = self.manager.new_state(self.game, self.seed)
        for _, a in hist:
            state.apply_unchecked(a)
        self.state = state
        self.applied = self.stored
        self.race_key = None
        self.task_key = None
        self._note(None, "server trouble: the last move could not be saved, so it did not happen")

    def _describe(self, new: Sequence[tuple[int, int]]) -> None:
        """Plain-words events for the log (never a card drawn from the deck)."""
        probe = self.state.clone()
        for who, a in new:
            if who == CHANCE:
                text = probe.action_to_string(a)
                if not self.dolly:
                    if text.startswith("roll "):
                        self._note(probe.turn, f"rolled {text[5:]}")  # type: ignore[attr-defined]
            else:
                self._note(who, probe.action_to_string(a))
            before = len(probe.collected[who]) if self.dolly and who != CHANCE else 0  # type: ignore[attr-defined]
            probe.apply_unchecked(a)
            if self.dolly and who != CHANCE:
                took = probe.collected[who][before:]  # type: ignore[attr-defined]
                if took:
                    what = ""
                    if self.show_scores:
                        from sheepfold.games.dolly_crush.cards import card_code

                        what = ": " + ", ".join(card_code(c) for c in took)
                    self._note(who, f"took {len(took)} sheep{what}")
        if probe.is_terminal():
            win = probe.winners()
            if win:
                self._note(None, "game over: " + " and ".join(self._who(w) for w in win) + " won!")
            else:
                self._note(None, "game over")

    def _note(self, seat: int | None, text: str) -> None:
        self.events.append(
            {"seat": seat, "who": self._who(seat) if seat is not None else None, "text": text}
        )
        del self.events[:-20]

    def _who(self, seat: int) -> str:
        s = self.seats[seat]
        return s.name or f"seat {seat + 1}"

    # -- bots, dice and the race -------------------------------------------------------------
    def schedule(self) -> None:
        """Start what the position needs next: a bot's decision, a bot's roll, the wolf race."""
        if self.finished() or self.broken:
            return
        st = self.state
        p = st.current_player()
        loop = asyncio.get_event_loop()
        key = self.applied
        settings = self.manager.settings
        if p == CHANCE:
            from sheepfold.games.shave_a_sheep.game import GRAB, ROLL

            if st.phase == GRAB:  # type: ignore[attr-defined]
                if self.race_key != key:
                    self.race_key = key
                    self.race_deadline = time.monotonic() + settings.race_timeout
                    loop.call_later(settings.race_timeout, self._race_timeout, key)
                    for s in self.seats:
                        if s.kind == "bot" and self.game.grab_probs[s.seat] > 0:  # type: ignore[attr-defined]
                            delay = self.rng.uniform(settings.react_min, settings.react_max)
                            loop.call_later(delay, self._bot_grab, key, s.seat)
                    self.broadcast()
            elif st.phase == ROLL and self.seats[st.turn].kind == "bot":  # type: ignore[attr-defined]
                if self.task_key != key:
                    self.task_key = key
                    loop.call_later(settings.bot_delay, self._bot_roll, key)
            return
        s = self.seats[p]
        if s.kind == "bot" and self.task_key != key:
            self.task_key = key
            self.manager.spawn(self._bot_move(key, p))

    def _race_timeout(self, key: int) -> None:
        if self.race_key == key and self.applied == key:
            trial = self.state.clone()
            seat = trial.sample_chance()  # reaction weights decide (Shave a Sheep ruling 8)
            trial.apply(seat)
            self._note(seat, "grabbed the wolf (nobody howled in time)")
            self._safe_accept(trial)

    def _bot_grab(self, key: int, seat: int) -> None:
        if self.race_key == key and self.applied == key and self.seats[seat].kind == "bot":
            trial = self.state.clone()
            trial.apply(seat)
            self._note(seat, "grabbed the wolf first!")
            self._safe_accept(trial)

    def _bot_roll(self, key: int) -> None:
        if self.applied == key and self.seats[self.state.turn].kind == "bot":  # type: ignore[attr-defined]
            trial = self.state.clone()
            trial.apply(trial.sample_chance())
            self._safe_accept(trial)

    def _bot(self, seat: int) -> Any:
        from sheepfold.bots import make_bot

        s = self.seats[seat]
        if s.bot_obj is None:
            s.bot_obj = make_bot(
                s.bot or "random", self.game, seat, seed=(self.seed * 31 + seat) & 0x7FFFFFFF
            )
        return s.bot_obj

    async def _bot_move(self, key: int, seat: int) -> None:
        await asyncio.sleep(self.manager.settings.bot_delay)
        if self.applied != key or self.seats[seat].kind != "bot":
            return
        view = self.state.observe(seat)
        if not warmup.ready(warmup.kernels([self.seats[seat].bot or "random"])):
            # never charged to its move: it compiles first, then thinks for its whole budget
            self._note(seat, "is warming up (compiling its playouts): it plays in a moment")
            self.broadcast()
        # made and asked in a worker thread: a strong bot may think (or solve) for a while
        try:
            action = await asyncio.to_thread(lambda: self._bot(seat).act(view))
        except Exception as e:  # a broken bot must not stall the table: it plays a random move
            action = None
            self._note(seat, f"(the bot had trouble: {type(e).__name__}; it plays a random move)")
        if self.applied != key or self.seats[seat].kind != "bot":
            return
        trial = self.state.clone()
        if action is None or trial.illegal_reason(action) is not None:
            action = self.rng.choice(trial.legal_actions())
        trial.apply(action)
        self._safe_accept(trial)

    def _safe_accept(self, trial: State) -> None:
        try:
            self.accept(trial)
        except SheepfoldError as e:  # retried by the next schedule()
            self.task_key = None
            self._note(None, f"server trouble: {e}")

    # -- replay ------------------------------------------------------------------------------
    def replay_frames(self) -> list[dict[str, Any]]:
        """The public view after every decision, from the start (a finished game's replay)."""
        probe = self.manager.new_state(self.game, self.seed)
        hist = list(self.state.history)
        i = 0

        def eat_chance() -> None:  # Dolly Crush's draws are not frames of their own
            nonlocal i
            while self.dolly and i < len(hist) and hist[i][0] == CHANCE:
                probe.apply_unchecked(hist[i][1])
                i += 1

        eat_chance()
        frames = [{"event": "start", "view": probe.observe(None)}]
        while i < len(hist):
            who, a = hist[i]
            text = probe.action_to_string(a)
            if who == CHANCE:  # a roll (the roller) or a grab (the grabber)
                who = probe.turn if text.startswith("roll") else a  # type: ignore[attr-defined]
            probe.apply_unchecked(a)
            i += 1
            eat_chance()
            frames.append(
                {
                    "event": f"{self._who(who)}: {text}",
                    "who": self._who(who),
                    "text": text,
                    "view": probe.observe(None),
                }
            )
        return frames


class TableManager:
    """Every table of a server, their storage, and the background tasks of bots."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.pending: list[tuple[Table, int, list[tuple[int, int]], bool, Any]] = []
        self.later: set[Table] = set()  # tables whose broadcast waits for the commit
        self._flush_soon = False
        self.closed = False
        self.commits = 0  # transactions (a batch of tables each)

    def queue_write(
        self, table: Table, start: int, actions: list[tuple[int, int]], finished: bool, sender: Any
    ) -> None:
        if self.closed:
            raise SheepfoldError("the server is shutting down")
        self.pending.append((table, start, actions, finished, sender))
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_event_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit every pending action of every table in one transaction, then tell everyone.

        Group commit: the intents that arrived in the same turn of the event loop share one
        transaction. Nothing is broadcast before the commit returns; if it fails, the tables
        go back to their last committed position and the senders get an error.
        """
        self._flush_soon = False
        batch, self.pending = self.pending, []
        tables: dict[str, Table] = {}
        if batch:
            try:
                self.storage.append_many(
                    [(t.id, start, acts, fin) for t, start, acts, fin, _ in batch]
                )
                self.commits += 1
            except Exception as e:
                for t, *_ in batch:
                    if t.dirty:
                        t.roll_back()
                for *_, sender in batch:
                    if sender is not None:
                        conn, ref = sender
                        conn.error(
                            f"the move could not be saved, so it did not happen "
                            f"({type(e).__name__}); try again",
                            ref=ref,
                        )
            else:
                for t, *_ in batch:
                    t.committed()
            for t, *_ in batch:
                tables[t.id] = t
        for t in self.later:
            tables[t.id] = t
        self.later = set()
        for t in tables.values():
            if not t.dirty:
                t.broadcast()
                t.schedule()

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
        """Rebuild every stored table by replaying its actions (start-up, after a crash too)."""
        for row in self.storage.load_all():
            game = self.make_game(row.game, row.players, row.config)
            state = self.new_state(game, row.seed)
            table = Table(self, row, game, state)
            try:
                for _, a in row.actions:
                    state.apply(a)
            except SheepfoldError as e:
                table.broken = f"stored action {len(state.history)} does not replay: {e}"
            table.stored = table.applied = len(state.history)
            self.tables[row.id] = table
        return len(self.tables)

    def start(self) -> None:
        """Resume every table: bots, rolls and races that were pending (after a restart)."""
        for t in self.tables.values():
            t.schedule()

    def create(self, spec: dict[str, Any]) -> Table:
        """A new table from a validated spec (see app.CreateTable)."""
        game_name = spec["game"]
        seats = spec["seats"]
        config = {
            k: spec[k]
            for k in (
                "rules",
                "ruleset",
                "breeds",
                "show_scores",
                "replace_leavers",
                "replacement_bot",
                "auto_roll",
            )
            if spec.get(k) is not None
        }
        game = self.make_game(game_name, len(seats), config)
        given = spec.get("seed")
        if given is not None and not self.settings.allow_seed:
            raise SheepfoldError(
                "seed: this server chooses the seeds (only a test server, "
                "started with --dev-seeds, takes one)"
            )
        seed: int = int(given) if self.settings.allow_seed and given is not None else new_seed()
        state = self.new_state(game, seed)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        row = TableRow(
            table_id,
            game_name,
            len(seats),
            config,
            seed,
            time.time(),
            False,
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
        )
        table = Table(self, row, game, state)
        table._auto_chance(state)  # Dolly Crush: deal the flock
        row.actions = list(state.history)
        row.finished = state.is_terminal()
        self.storage.create_table(row)
        table.stored = table.applied = len(state.history)
        self.tables[table_id] = table
        table._note(None, "the table is open")
        table.schedule()
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    async def close(self) -> None:
        self.flush()
        self.closed = True
        for t in list(self.tasks):
            t.cancel()
        self.storage.close()
