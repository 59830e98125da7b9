"""Connections and what they are sent: the state message for a seat, and the broadcast.

Each connection has its own queue and writer task, so the messages of a connection keep their
order and a slow client delays nobody (one 256 messages behind is dropped). A table with
actions applied but not committed yet sends nothing: its broadcast waits for the commit.

A broadcast serialises each audience's message once (every connection of one seat, every
spectator, gets the same text), and what did not change since the last broadcast is not
serialised again: the table's public info (its set-up's part never again, the rest when a
seat changes), each entry of the log, the renderer's part. What decides is equality with the
value last serialised (compared in C, much cheaper than encoding it), never a flag some
change might forget to set.

The text is encoded by orjson where it is installed (the ``web`` extra: a well-kept Rust
encoder, about 6x faster than the standard library's on a view), by the standard library's
otherwise; both give the same JSON value (orjson writes non-ASCII characters as they are
where the standard library escapes them, and the page parses both alike).

A connection has a language (``Conn.lang``, its page's): the words the server made
(:class:`~sheepfold.core.words.Msg`: the log, the end, house rules) are translated where its
text is encoded, once per language and change: each language other than English has a
broadcaster of its own (``Broadcaster.speaking``), with the same memos, whose encoder
translates first (server/i18n.py); English encodes as it always did.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

std_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _encoder() -> Callable[[Any], str]:
    """JSON text without spaces: orjson's where it is installed, else the standard library's."""
    try:
        import orjson
    except ImportError:
        return std_dumps
    fast, option = orjson.dumps, orjson.OPT_NON_STR_KEYS  # {1: x} as {"1": x}, as json does

    def dumps(value: Any) -> str:
        try:
            return fast(value, option=option).decode()
        except TypeError:  # what orjson does not take (an integer past 64 bits) goes the slow way
            return std_dumps(value)

    return dumps


dumps = _encoder()


def _translating(lang: str) -> Callable[[Any], str]:
    """An encoder that translates the words in a value into ``lang`` first."""
    from sheepfold.server.i18n import localize

    return lambda value: dumps(localize(value, lang))


MAX_QUEUE = 256  # messages waiting for a slow client before it is dropped
DIRECT = "sheepfold.direct"
"""The ASGI scope's extension under which a WebSocket offers its direct side (``write`` and
``on_message``: server/connections.py's ``Direct``)."""


class Conn:
    """One WebSocket client: the seat it holds (None: watching) and its outgoing queue.

    A text is written at once by ``write`` (the socket's direct side, when it has one) when
    nothing waits before it; otherwise it is queued, and the connection's writer task sends
    it (``send``) in turn: the order of a connection's messages is kept either way.

    It counts the texts it was given and those written to its socket, so it knows whether the
    state that opened a Howling Wolf race has left for its client (:meth:`shown`): a grab
    from a client the race was not sent to yet is no reaction to it (server/intents.py)."""

    def __init__(
        self,
        send: Callable[[str], Any],
        close: Callable[[], Any] | None = None,
        write: Callable[[str], bool] | None = None,
    ) -> None:
        self._send = send
        self._close = close
        self._write = write
        self._sending = False  # the writer task holds a text it is sending
        self.seat: int | None = None
        self.client: str | None = None  # the address it came from (the chat's limit)
        self.lang = "en"  # the language its words are sent in (server/i18n.py)
        self.pushed = 0  # texts given to it
        self.sent = 0  # texts written to its socket
        self.race_at: tuple[int, int] | None = None  # the last race it was given: (key, text)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def push(self, text: str, race: int | None = None) -> None:
        """Send ``text`` (in turn); ``race``: the race (its position) this state shows open."""
        if self.closed:
            return
        self.pushed += 1
        if race is not None:
            self.race_at = (race, self.pushed)
        if self._write is not None and not self._sending and self.queue.empty():
            if self._write(text):
                self.sent += 1
                return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Close the connection once what is queued is sent (the client reconnects)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def error(self, message: str, **extra: Any) -> None:
        from sheepfold.server.i18n import localize

        self.push(json.dumps({"type": "error", "message": localize(message, self.lang), **extra}))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                if self._close is not None:
                    await self._close()
                return
            self._sending = True
            await self._send(text)
            self._sending = False
            self.sent += 1

    def shown(self, race: int) -> bool:
        """Whether the state that opened ``race`` (its position) was written to this client."""
        return self.race_at is not None and self.race_at[0] == race and self.sent >= self.race_at[1]


class Memo:
    """The JSON text of the last value given, encoded again only when the value changed.

    Equality decides (Python's: ``1 == 1.0 == True``), so a value whose fields change type
    between calls must not be given to one memo; the values here (a table's public info, the
    renderer's part of a view) keep one type per field."""

    __slots__ = ("value", "text", "encode")

    def __init__(self, encode: Callable[[Any], str] = dumps) -> None:
        self.value: Any = None
        self.text = "null"
        self.encode = encode

    def dumps(self, value: Any) -> str:
        if value != self.value:
            self.value, self.text = value, self.encode(value)
        return self.text


class Broadcaster:
    """The connections of one table and the state messages they receive."""

    def __init__(self, table: Table, lang: str = "en") -> None:
        self.table = table
        self.conns: set[Conn] = set()
        self.dumps = dumps if lang == "en" else _translating(lang)
        self._speaking: dict[str, Broadcaster] = {}  # the other languages' (speaking())
        self._fixed = Memo(self.dumps)  # the table's public info: what its set-up decides
        self._info = Memo(self.dumps)  # and what changes as it plays
        self._shown = Memo(self.dumps)
        # the log's window last encoded: copies of its entries, each one's JSON, and the whole
        self._window: list[dict[str, Any]] = []
        self._window_parts: list[str] = []
        self._window_text = "[]"
        self._ended: str | None = None  # why the finished game ended, encoded once

    def speaking(self, lang: str) -> Broadcaster:
        """The messages in ``lang`` (this one for English): their own memos, same table."""
        if lang == "en":
            return self
        if lang not in self._speaking:
            self._speaking[lang] = Broadcaster(self.table, lang)
        return self._speaking[lang]

    def view_for(self, seat: int | None) -> dict[str, Any]:
        t = self.table
        return t.driver.view(t.state, seat, t.show_scores)

    def shared_json(self) -> str:
        """The part of a state message that is the same for every connection (JSON text)."""
        bots = self.table.bots
        race = None
        if bots.race_key is not None:
            race = {
                "open": True,
                "ms_left": max(0, int((bots.race_deadline - self.table.manager.clock()) * 1000)),
            }
        fixed, live = (
            self._fixed.dumps(self.table.fixed_info()),
            self._info.dumps(self.table.live_info()),
        )
        info = fixed[:-1] + "," + live[1:]  # {fixed...} and {live...} as one object
        race_text = "null" if race is None else self.dumps(race)
        return (
            f',"table":{info},"race":{race_text},"events":{self.events_json()},'
            f'"ended":{self.ended_json()}}}'
        )

    def ended_json(self) -> str:
        """Why the finished game ended, in the words of the terminal's end screen (the game's
        driver: ``end_reason``), as JSON; ``null`` while it goes on."""
        t = self.table
        if not t.state.is_terminal():
            return "null"
        if self._ended is None:
            from sheepfold.core.drivers import terminal_driver

            names = [t.seating.who(s) for s in range(t.game.num_players)]
            self._ended = self.dumps(terminal_driver(t.game).end_reason(t.state, names))
        return self._ended

    def events_json(self) -> str:
        """The log's last 8 entries as JSON, each entry encoded once (again if it changed).

        The log moves on by an entry or two a move: the entries the new window shares with the
        last one (the longest run of the last one's end equal to the new one's start) keep
        their text; only the others are encoded."""
        events = self.table.log.events[-8:]
        old = self._window
        if events == old:
            return self._window_text
        kept = _overlap(old, events)
        new = events[kept:]
        self._window = old[len(old) - kept :] + [dict(e) for e in new]
        self._window_parts = self._window_parts[len(old) - kept :] + [self.dumps(e) for e in new]
        self._window_text = "[" + ",".join(self._window_parts) + "]"
        return self._window_text

    def message_for(self, seat: int | None, shared: str) -> str:
        view = self.view_for(seat)
        shown = self._shown.dumps(self.table.driver.shown(view))  # how the page draws it
        you = "null" if seat is None else str(int(seat))
        return (
            f'{{"type":"state","seq":{self.table.stored},"you":{you},'
            f'"view":{self.dumps(view)},"shown":{shown}' + shared
        )

    def send_state(self, conn: Conn) -> None:
        if self.table.dirty:  # the commit in progress ends with a broadcast to everyone
            self.table.manager.writer.after_commit(self.table)
            return
        speaking = self.speaking(conn.lang)
        conn.push(speaking.message_for(conn.seat, speaking.shared_json()), self.table.bots.race_key)

    def broadcast(self) -> None:
        if self.table.dirty:
            self.table.manager.writer.after_commit(self.table)
            return
        if not self.conns:
            return
        shared: dict[str, str] = {}
        cache: dict[tuple[int | None, str], str] = {}
        race = self.table.bots.race_key
        for c in list(self.conns):
            key = (c.seat, c.lang)
            if key not in cache:
                speaking = self.speaking(c.lang)
                if c.lang not in shared:
                    shared[c.lang] = speaking.shared_json()
                cache[key] = speaking.message_for(c.seat, shared[c.lang])
            c.push(cache[key], race)


def _overlap(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> int:
    """The length of the longest run of ``old``'s end equal to ``new``'s start.

    Entries are numbered (``n``): the run can only start where ``old`` holds ``new``'s first
    number, so that one is compared first (one comparison a move); if it differs (an entry
    changed), every shorter run is tried."""
    if new and old:
        first = new[0].get("n")
        at: int | None = None
        guess = first - old[0].get("n", first) if isinstance(first, int) else -1
        if 0 <= guess < len(old) and old[guess].get("n") == first:  # numbered one by one
            at = guess
        else:
            at = next((i for i, e in enumerate(old) if e.get("n") == first), None)
        if at is not None and new[: len(old) - at] == old[at:]:
            return len(old) - at
    kept = min(len(new), len(old))
    while kept and new[:kept] != old[len(old) - kept :]:
        kept -= 1
    return kept
