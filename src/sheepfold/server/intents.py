"""Client messages: parsed, checked and turned into engine actions on a clone of the state.

Errors go to the sending client only and change nothing. An intent the engine accepts in
full is handed to ``Table.accept`` (which commits it before anyone is told).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sheepfold.core.drivers import table_driver
from sheepfold.core.protocol import CHANCE, IllegalAction, SheepfoldError, State
from sheepfold.core.words import Msg, chained, text_of
from sheepfold.server.broadcast import Conn
from sheepfold.server.chat import MESSAGES as CHAT

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

MAX_MESSAGE = 16_384  # bytes of one client message
SEATED = ("act", "leave")  # messages that need a seat (and the game driver's own)


def parse(conn: Conn, text: str) -> dict[str, Any] | None:
    """A client message as a dict with a string 'type', or None (the client got an error)."""
    if len(text) > MAX_MESSAGE:
        conn.error(
            Msg(
                "message too large ({size} bytes; at most {most})", size=len(text), most=MAX_MESSAGE
            )
        )
        return None
    try:
        msg = json.loads(text)
    except ValueError:
        conn.error(Msg("not JSON: a message is a JSON object with a 'type'"))
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.error(Msg("a message is a JSON object with a 'type'"))
        return None
    return msg


class Intents:
    """What the clients of one table ask for."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sender: tuple[Conn, Any] | None = None  # who sent the intent being handled

    def handle(self, conn: Conn, text: str) -> None:
        """One message from a client. Errors go to that client only; nothing changes."""
        msg = parse(conn, text)
        if msg is None:
            return
        t = self.table
        kind = msg["type"]
        ref = msg.get("ref") if isinstance(msg.get("ref"), (int, str)) else None
        self.sender = (conn, ref)
        try:
            if kind == "hello":
                t.seating.hello(conn, msg.get("token"), msg.get("profile"))
            elif kind == "ping":
                conn.push(json.dumps({"type": "pong", "ref": ref}))
            elif kind == "state":
                t.send_state(conn)
            elif kind == "log":
                t.log.send(conn, msg.get("since"), ref)
            elif kind in CHAT:
                t.chat.handle(conn, msg)
            elif kind in SEATED or kind in t.driver.messages:
                self._seated(conn, kind, msg, ref)
            else:
                raise IllegalAction(self._unknown(kind))
        except SheepfoldError as e:
            conn.error(text_of(e), ref=ref)  # its Msg kept: translated for the client
        finally:
            self.sender = None

    def _seated(self, conn: Conn, kind: str, msg: dict[str, Any], ref: Any) -> None:
        t = self.table
        seat = conn.seat
        if seat is None:
            raise IllegalAction(Msg("you are watching: take a seat to play"))
        if "token" in msg and t.seat_of_token(msg["token"]) != seat:
            raise IllegalAction(Msg("this token does not hold your seat"))
        if kind == "leave":
            t.seating.leave(seat)
        elif kind == "act":
            self.act(seat, msg)
        elif kind == "roll":
            self.roll(seat)
        elif kind == "grab":
            self.grab(seat, conn)
        else:  # the game's own message (Dolly Crush: a whole turn, its preview)
            self.check_turn(seat)
            out = t.driver.message(t.state, seat, msg)
            if isinstance(out, State):
                t.accept(out)
            else:
                conn.push(json.dumps({"type": kind, "ref": ref, **out}))

    def _unknown(self, kind: str) -> str:
        """What a message this table does not take is answered with: whose message it is."""
        from sheepfold.core.registry import game_names, game_spec

        title = self.table.game.info.title
        takes = ", ".join(repr(k) for k in (*SEATED, *self.table.driver.messages))
        games = [game_spec(g).title for g in game_names() if kind in table_driver(g).messages]
        if games:
            return Msg(
                "{kind} is a {games} message; a {title} table takes {takes}",
                kind=repr(kind),
                games=chained(games, lambda a, b: Msg("{a} and {b}", a=a, b=b)),
                title=title,
                takes=takes,
            )
        return Msg(
            "unknown message type {kind} (a {title} table takes 'hello', 'state', {takes})",
            kind=repr(kind),
            title=title,
            takes=takes,
        )

    def check_turn(self, seat: int) -> None:
        t = self.table
        if t.finished():
            raise IllegalAction(Msg("the game is over"))
        p = t.state.current_player()
        if p != seat:
            who = Msg("the dice") if p == CHANCE else t.seating.who(p)
            raise IllegalAction(Msg("it is not your turn (waiting for {who})", who=who))

    # -- one decision, the die, the wolf ----------------------------------------------------
    def act(self, seat: int, msg: dict[str, Any]) -> None:
        """One named decision (``grow``, ``wolf seat 1``, ``dog 2``, ``swap b2-b3``...)."""
        self.check_turn(seat)
        action = msg.get("action")
        trial = self.table.state.clone()
        if isinstance(action, str) and len(action) <= 40:
            trial.apply_named(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            trial.apply(action)
        else:
            raise IllegalAction(Msg("'action' must be an action name like 'grow' or 'swap b2-b3'"))
        self.table.accept(trial)

    def roll(self, seat: int) -> None:
        """The roller rolls: the state's own seeded die (a chance step the driver calls a
        roll)."""
        t = self.table
        if t.finished():
            raise IllegalAction(Msg("the game is over"))
        step = t.driver.chance(t.state, t.config)
        if t.state.current_player() != CHANCE or step.kind != "roll":
            raise IllegalAction(Msg("the die has been rolled already"))
        if seat not in step.seats:
            raise IllegalAction(Msg("it is {who}'s turn to roll", who=t.seating.who(step.seats[0])))
        trial = t.state.clone()
        trial.apply_unchecked(trial.sample_chance())  # an outcome of this chance node: legal
        t.accept(trial)

    def grab(self, seat: int, conn: Conn) -> None:
        """A seat grabs in a race (the chance outcome "seat grabs"), from a connection the race
        was shown to; the race decides between the grabs (``BotSeats.grab``: the first, or a
        draw between those that came within a reaction time of it)."""
        t = self.table
        t.bots.settle_due()  # a race whose window has closed is decided before this grab
        step = t.driver.chance(t.state, t.config) if not t.finished() else None
        race = t.bots.race_key
        racing = step is not None and step.kind == "race" and t.state.current_player() == CHANCE
        if not racing and conn.race_at is not None:  # the last race it was shown is over
            raise IllegalAction(Msg("too late: somebody grabbed it first"))
        if step is None or not racing or race is None or not conn.shown(race):
            raise IllegalAction(Msg("the wolf has not howled for you yet: grab when you see it"))
        if seat not in step.seats:
            raise IllegalAction(Msg("your seat is not in this race"))
        t.bots.grab(seat, step)
