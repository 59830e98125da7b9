"""Table chat: short lines of text and quick reactions between the people at a table.

* Text only: a line is at most :data:`MAX_CHARS` characters, control characters are dropped,
  and the page shows it as text (never as HTML). A reaction is one of :data:`REACTIONS`.
* Only a seated person chats (a watcher reads); each seat and each client key (an address, an
  IPv6 /64: server/clients.py) has a token bucket (``Settings.chat_rate``), so neither a seat
  nor an address floods the table. The
  WebSocket message that carries a line is bounded before it is parsed (``max_message``).
* The host (the lowest seat a person holds) may turn the chat off and on again; while it is
  off nobody's line is taken and the page hides the chat box.
* A line carries its seat beside its speaker's name (``seat``, ``who``), and the page shows
  both ("Ann (seat 2)"): no two seats share a name that looks alike (server/seating.py), and
  the seat tells apart what a name alone might not.
* The chat lives with the live table, in memory: the last :data:`KEEP` lines are sent to each
  connection as it arrives. It is never part of the game's record (not stored, not in replays
  or records), and a restart of the server starts every table's chat afresh (on, empty).

Messages (client to server): ``{"type": "chat", "text": "..."}``, ``{"type": "chat",
"react": "👍"}``, ``{"type": "chat_switch", "on": false}`` (the host only). Server to client:
``{"type": "chat", "line": {...}}`` for each new line, ``{"type": "chat_log", "on", "host",
"lines": [...], "reactions": [{"react", "words"}]}`` on arrival and after each switch.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections import deque
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import IllegalAction
from sheepfold.core.words import Msg, text_of
from sheepfold.server.clients import UNKNOWN
from sheepfold.server.limits import RateLimited, RateLimiter

if TYPE_CHECKING:
    from sheepfold.server.broadcast import Conn
    from sheepfold.server.tables import Table

MAX_CHARS = 200  # characters of one line
KEEP = 50  # lines a table keeps (and sends to a newcomer)
#: the quick reactions (a phone's buttons), each with its words (what a screen reader says)
REACTIONS = {
    "👍": Msg("thumbs up"),
    "😂": Msg("laughing"),
    "😮": Msg("surprised"),
    "👏": Msg("applause"),
    "🐑": Msg("a sheep"),
    "😢": Msg("sad"),
}
MESSAGES = ("chat", "chat_switch")
ZWJ = "\u200d"  # the zero-width joiner: 👩‍🌾 is one emoji of three characters


def clean(text: str) -> str:
    """A line as it is shown: control and format characters dropped (a newline, a bidi
    override; not the joiner of an emoji made of several), runs of spaces made one, the ends
    trimmed."""
    spaced = (" " if c.isspace() else c for c in text)
    kept = "".join(c for c in spaced if c == ZWJ or unicodedata.category(c)[0] != "C")
    return " ".join(kept.split())


class Chat:
    """The chat of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.on = True
        self.lines: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.count = 0  # lines ever said here (each line's number)
        self.per_seat = RateLimiter(table.manager.settings.chat_rate, Msg("chat lines"))

    def host(self) -> int | None:
        """The seat that may turn the chat off: the lowest a person holds (None: none)."""
        return next((s.seat for s in self.table.seats if s.kind == "human" and s.token_hash), None)

    def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A chat message from ``conn``: a line or a reaction, or the host's switch. A refused
        message raises (its words go to the sender only) and changes nothing."""
        seat = conn.seat
        if seat is None:
            raise IllegalAction(Msg("you are watching: take a seat to chat"))
        if msg["type"] == "chat_switch":
            self.switch(seat, msg.get("on"))
            return
        if not self.on:
            raise IllegalAction(Msg("the chat is off at this table (the host turned it off)"))
        react, text = msg.get("react"), msg.get("text")
        if react is not None:
            if react not in REACTIONS:
                raise IllegalAction(
                    Msg("a reaction is one of {reactions}", reactions=" ".join(REACTIONS))
                )
            line = {"react": react}
        elif isinstance(text, str):
            said = clean(text)
            if not said:
                raise IllegalAction(Msg("a chat line needs some words"))
            if len(said) > MAX_CHARS:
                raise IllegalAction(
                    Msg(
                        "a chat line is at most {most} characters (this one has {n})",
                        most=MAX_CHARS,
                        n=len(said),
                    )
                )
            line = {"text": said}
        else:
            raise IllegalAction(Msg("a chat message has 'text' (words) or 'react' (a reaction)"))
        self.take(seat, conn.client)
        self.count += 1
        who = self.table.seating.who(seat)
        self.lines.append({"n": self.count, "seat": seat, "who": who, "at": time.time(), **line})
        text_out = json.dumps({"type": "chat", "line": self.lines[-1]})
        for c in list(self.table.conns):
            c.push(text_out)

    def take(self, seat: int, client: str | None) -> None:
        """A token of the seat's bucket and of the client key's (the connection's ``client``),
        or IllegalAction saying the wait (and neither is taken)."""
        try:
            self.per_seat.check(str(seat))
        except RateLimited as e:
            raise IllegalAction(Msg("you are chatting fast: try again in {s} s", s=e.wait)) from e
        try:
            self.table.manager.limits["chat"].take(client or UNKNOWN)
        except RateLimited as e:
            raise IllegalAction(text_of(e)) from e
        self.per_seat.take(str(seat))  # checked above: the bucket only fills meanwhile

    def switch(self, seat: int, on: Any) -> None:
        if not isinstance(on, bool):
            raise IllegalAction(Msg("'on' must be true or false"))
        if seat != self.host():
            raise IllegalAction(
                Msg("only the host (the first seat a person holds) turns the chat on or off")
            )
        self.on = on
        for c in list(self.table.conns):
            self.welcome(c)

    def welcome(self, conn: Conn) -> None:
        """What a connection is told as it arrives (or after a switch): the chat so far."""
        lines = list(self.lines) if self.on else []
        from sheepfold.server.i18n import localize

        conn.push(
            json.dumps(
                {
                    "type": "chat_log",
                    "on": self.on,
                    "host": self.host(),
                    "lines": lines,
                    "reactions": [
                        {"react": r, "words": localize(w, conn.lang)} for r, w in REACTIONS.items()
                    ],
                }
            )
        )
