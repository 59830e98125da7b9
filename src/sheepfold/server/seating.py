"""Seats: who sits where (a person with a secret token, or a bot), who is connected, leaving.

The seat token is the only proof of a seat; only its SHA-256 is kept (and stored). A seat
belongs to its token until the table ends (or its player leaves it): when the player is away
longer than the grace, a bot *stands in* (plays for them), and the player takes the seat back
the moment a connection shows the token again (a reload, another network, another device with
the seat link). Only an explicit "leave" gives the seat away for good.

No two seats of a table have names that pass for each other (``texts.skeleton``: "Ann",
"ann" and "Аnn" with a Cyrillic A are one name), bots' names included: a name a person types
that looks like another seat's is refused with words naming that seat; a name the server
gives (a bot that plays on for a leaver, a profile's name) is numbered ("Ann 2") instead.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from sheepfold.core.drivers import player
from sheepfold.core.play import seats_starting_with
from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg
from sheepfold.server.broadcast import Conn
from sheepfold.server.storage import SeatRow
from sheepfold.server.texts import MAX_NAME, skeleton

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def look_alike(name: str, names: Mapping[int, str | None]) -> int | None:
    """The seat among ``names`` (seat -> its name, None: nobody's) whose name passes for
    ``name`` (the same skeleton), or None."""
    key = skeleton(name)
    return next((seat for seat, other in names.items() if other and skeleton(other) == key), None)


def clash_words(name: str, seat: int, other: str) -> str:
    """Why ``name`` is refused: it looks like ``other``, the name of ``seat`` (from 0)."""
    return Msg(
        '"{name}" looks like the name of seat {n} at this table ("{other}"): choose another name',
        name=name,
        n=seat + 1,
        other=other,
    )


# -- who starts ---------------------------------------------------------------------------------
#: how a table's first player was chosen (its config's ``first``): drawn at random (the default,
#: the rulebook's "best bleat" at a table of strangers) or chosen by whoever opened it; absent:
#: the rules' own first seat (a rule file's ``[setup] first``, or seat 0 at an older table)
DRAWN: Final = "random"
CHOSEN: Final = "chosen"


def rules_say_who_starts(rules: Any) -> bool:
    """Whether ``rules`` (a game's rules model) name the seat that starts (a rule file's
    ``[setup] first``): then that seat starts, not one drawn at random."""
    return "first" in getattr(getattr(rules, "setup", None), "model_fields_set", ())


def turn_seats(spec: dict[str, Any], starter: int, starts: int) -> int:
    """Turn a new table's ``spec`` (in place: its seats and their breeds) so that the seat
    ``starter`` sits at ``starts``, the seat the rules let start; everyone keeps their
    neighbours. How far they turned: seat ``i`` of ``spec`` before is seat ``i - turned``."""
    seats = spec["seats"]
    spec["seats"] = seats_starting_with(seats, starter, starts)
    if spec.get("breeds"):
        spec["breeds"] = seats_starting_with(spec["breeds"], starter, starts)
    return (starter - starts) % len(seats)


def drawn_starter(seed: int, players: int) -> int:
    """The seat drawn to start a table of ``players`` dealt from ``seed``: from the table's own
    seed (a test server's seeded table starts the same way every time), through a hash, so that
    who starts tells nothing of the deal."""
    digest = hashlib.sha256(b"sheepfold: who starts %d" % seed).digest()
    return int.from_bytes(digest[:8], "big") % players


def draw_who_starts(spec: dict[str, Any], seed: int, starts: int) -> None:
    """A new table whose first player is drawn (``spec["first"]`` is :data:`DRAWN`, a "Play
    again" table's too): its seats turned so that the seat drawn from ``seed`` starts;
    ``spec["turned"]`` says how far (a "Play again" page finds its seat by it)."""
    spec["turned"] = turn_seats(spec, drawn_starter(seed, len(spec["seats"])), starts)


def who_starts_words(table: Table) -> str | None:
    """The log's line on who starts a table whose first player was drawn (None: chosen, or the
    rules' own first seat: nothing to tell), naming whoever sits there (the page's mark)."""
    if table.config.get("first") != DRAWN:
        return None
    return Msg("{name} starts (drawn at random)", name=player(table.game.first_seat))


def names_problem(names: Sequence[str | None]) -> str | None:
    """Why a new table's seats' names (None: a person's, given as they sit down) cannot sit
    together: the later of two that look alike, by the request's fields (``seats.K.name``,
    from 0), or None."""
    for i, name in enumerate(names):
        seat = look_alike(name, dict(enumerate(names[:i]))) if name else None
        if name and seat is not None:
            return Msg(
                '{where}: "{name}" looks like {other_where} ("{other}"): '
                "each seat needs a name of its own",
                where=f"seats.{i}.name",
                name=name,
                other_where=f"seats.{seat}.name",
                other=names[seat],
            )
    return None


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
    stand_in: str | None = None  # the bot playing for its absent person (kept in memory)
    client: str | None = None  # the client address that took the seat (the gallery's votes)
    profile: str | None = None  # the profile of the person holding it (server/profiles.py)
    moves: int = 0  # moves its person made themselves (Table.committed; a rated game's)
    gone: float | None = None  # when its person's last connection closed (server/clock.py)
    # a free seat saved for an invited friend (server/friends.py): their profile and name
    guest: str | None = None
    held_for: str | None = None

    @property
    def bot_spec(self) -> str | None:
        """The bot that makes this seat's decisions now (None: a person does)."""
        return self.bot if self.kind == "bot" else self.stand_in

    def row(self) -> SeatRow:
        return SeatRow(
            self.seat,
            self.kind,
            self.name,
            self.bot,
            self.token_hash,
            self.client,
            self.profile,
            self.moves,
        )

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "free": self.kind == "human" and self.token_hash is None and self.guest is None,
            "held_for": self.held_for,  # the friend invited to this free seat, or None
            "online": self.kind == "bot" or bool(self.conns),
            "stand_in": self.stand_in,  # a bot plays for this person until they come back
            "profile": self.profile,  # the profile page's id (public), or None
        }


class Seating:
    """The seats of one table and the connections that hold them."""

    def __init__(self, table: Table, rows: Sequence[SeatRow]) -> None:
        self.table = table
        self.seats = [
            Seat(
                s.seat,
                s.kind,
                s.name,
                s.bot,
                s.token_hash,
                client=s.client,
                profile=s.profile,
                moves=s.moves,
            )
            for s in rows
        ]

    def who(self, seat: int) -> str:
        s = self.seats[seat]
        return s.name or f"seat {seat + 1}"

    def others(self, seat: int) -> dict[int, str | None]:
        """Every other seat's name (None: a free seat's)."""
        return {s.seat: s.name for s in self.seats if s.seat != seat}

    def free_name(self, name: str, seat: int) -> str:
        """``name`` for ``seat``, or the first of ``name 2``, ``name 3``... that no other
        seat's name looks like (cut to fit :data:`MAX_NAME`)."""
        others, out, k = self.others(seat), name, 1
        while look_alike(out, others) is not None:
            k += 1
            out = f"{name[: MAX_NAME - len(str(k)) - 1].rstrip()} {k}"
        return out

    def seat_of_token(self, token: str | None) -> int | None:
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    # -- connections -------------------------------------------------------------------------
    def attach(self, conn: Conn) -> None:
        self.table.conns.add(conn)
        self.table.send_state(conn)

    def detach(self, conn: Conn) -> None:
        self.table.conns.discard(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.conns.discard(conn)
            if not s.conns and s.kind == "human" and not self.table.finished():
                s.gone = time.time()  # "away since" once it is long (server/clock.py)
                self._start_leave_timer(s)
        conn.seat = None
        self.table.broadcast()

    def seat_of_profile(self, profile: str | None) -> int | None:
        """The seat the profile ``profile`` (its id) holds here, or None."""
        if profile is None:
            return None
        return next((s.seat for s in self.seats if s.profile == profile), None)

    def hello(self, conn: Conn, token: Any, profile: Any = None) -> None:
        """``conn`` shows a seat's token, or a profile's secret (its seat on any device)."""
        seat = self.seat_of_token(token) if token is not None else None
        if seat is None and profile is not None:
            seat = self.seat_of_profile(self.table.manager.profile_of(profile))
        if token is not None and seat is None:
            conn.error(Msg("this seat token is not valid at this table: you are watching"))
        if conn.seat is not None:
            self.seats[conn.seat].conns.discard(conn)
        conn.seat = seat
        if seat is not None:
            s = self.seats[seat]
            s.conns.add(conn)
            s.gone = None
            if s.leave_timer is not None:
                s.leave_timer.cancel()
                s.leave_timer = None
            if s.stand_in is not None:
                self._take_back(s)
        self.table.broadcast()

    def arm_timers(self) -> None:
        """Start-up: every person's seat waits for them as if they had just disconnected, and
        a "Play again" table's free seats wait for the people of the game before again."""
        for s in self.seats:
            if s.kind == "human" and s.token_hash is not None and not s.conns:
                self._start_leave_timer(s)
        if self.table.config.get("again_of"):
            self.wait_for_people()

    def wait_for_people(self) -> None:
        """A "Play again" table: a seat free for a person of the game before waits for them
        the leave grace, as a seat whose person is away does; then the table's replacement bot
        plays it until someone takes it (a table that keeps leavers' seats free waits)."""
        for s in self.seats:
            if s.kind == "human" and s.token_hash is None:
                self._start_leave_timer(s)

    def _start_leave_timer(self, s: Seat) -> None:
        t = self.table
        if not t.config.get("replace_leavers", True) or s.leave_timer is not None or t.finished():
            return
        loop = asyncio.get_event_loop()
        s.leave_timer = loop.call_later(t.manager.settings.leave_grace, self._away, s.seat)

    def _away(self, seat: int) -> None:
        """The grace is over and the person is still away (or nobody came for a free seat of
        :meth:`wait_for_people`): a bot plays for them."""
        t = self.table
        s = self.seats[seat]
        s.leave_timer = None
        if s.kind != "human" or s.conns or t.finished():
            return
        s.stand_in = t.config.get("replacement_bot", "random")
        self._new_player(s)
        if s.token_hash is not None:
            t.log.note(seat, Msg("is away: a bot plays for them until they come back"))
        else:
            t.log.note(
                None, Msg("Seat {n} is free: a bot plays it until someone takes it", n=seat + 1)
            )
        t.broadcast()
        t.schedule()

    def _take_back(self, s: Seat) -> None:
        """The person is back: the stand-in stops (an answer it is still thinking of is dropped)."""
        s.stand_in = None
        self._new_player(s)
        self.table.log.note(s.seat, Msg("is back and plays again"))
        self.table.schedule()

    def _new_player(self, s: Seat) -> None:
        """Someone else makes this seat's decisions from now on: the old bot's answer (if it
        is thinking) is dropped, and the position is scheduled again for the new player."""
        s.bot_obj = None
        self.table.bots.task_key = None

    # -- sitting down and leaving ------------------------------------------------------------
    def take_seat(
        self,
        name: str,
        seat: int | None = None,
        client: str | None = None,
        profile: str | None = None,
    ) -> tuple[int, str]:
        """A person sits down (from the address ``client``, kept with the seat; with their
        ``profile`` if they have one): returns (seat, secret token). SheepfoldError if no seat
        is free, the profile holds a seat here already, or ``name`` looks like another seat's
        name (a profile's name is numbered instead: it was not chosen for this table)."""
        t = self.table
        held = self.seat_of_profile(profile)
        if held is not None:
            raise SheepfoldError(f"your profile already plays seat {held + 1} at this table")
        refusal = t.manager.sit_refusal(t, profile)
        if refusal is not None:
            raise SheepfoldError(refusal)
        free = [s for s in self.seats if s.kind == "human" and s.token_hash is None]
        if seat is not None:
            free = [s for s in free if s.seat == seat]
            if not free:
                raise SheepfoldError(f"seat {seat} is not free")
        free = [s for s in free if s.guest in (None, profile)]  # a saved seat: its friend's
        if not free and seat is not None:
            guest = self.seats[seat].held_for
            raise SheepfoldError(Msg("seat {n} is saved for {name}", n=seat + 1, name=guest))
        if not free:
            raise SheepfoldError("every seat at this table is taken: you can watch")
        s = free[0]
        if profile is not None:
            name = self.free_name(name, s.seat)
        clash = look_alike(name, self.others(s.seat))
        if clash is not None:
            raise SheepfoldError(clash_words(name, clash, self.seats[clash].name or ""))
        token = secrets.token_urlsafe(24)
        new = Seat(s.seat, "human", name, None, token_hash(token), client=client, profile=profile)
        t.manager.storage.update_seat(t.id, new.row())
        s.name, s.token_hash, s.client, s.profile = name, new.token_hash, client, profile
        s.moves = 0  # a new person: their own moves from now
        s.guest = s.held_for = None
        if s.leave_timer is not None:  # a free seat of wait_for_people: taken in time
            s.leave_timer.cancel()
            s.leave_timer = None
        if s.stand_in is not None:  # ... or late: its stand-in stops
            s.stand_in = None
            self._new_player(s)
            t.schedule()
        t.broadcast()
        return s.seat, token

    def leave(self, seat: int) -> None:
        """A player leaves: a bot takes the seat if the table decided so, else it becomes free."""
        t = self.table
        s = self.seats[seat]
        if s.profile is not None and not t.finished():
            t.manager.seat_left(t, s)  # their rating and reliability (server/profiles.py)
        if t.config.get("replace_leavers", True) and not t.finished():
            bot = t.config.get("replacement_bot", "random")
            name = self.free_name(f"{s.name or 'player'} (bot)", seat)
            new = Seat(seat, "bot", name, bot, None)
        else:
            new = Seat(seat, "human", None, None, None)
        t.manager.storage.update_seat(t.id, new.row())
        for c in list(s.conns):
            c.seat = None
        s.conns.clear()
        s.kind, s.name, s.bot, s.token_hash, s.bot_obj = new.kind, new.name, new.bot, None, None
        s.client = s.profile = None
        s.moves = 0
        s.stand_in = None
        if s.leave_timer is not None:
            s.leave_timer.cancel()
            s.leave_timer = None
        t.log.note(
            seat,
            Msg("left the table (a bot plays on)") if new.kind == "bot" else Msg("left the table"),
        )
        t.broadcast()
        t.schedule()
