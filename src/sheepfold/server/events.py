"""The table's log: what happened, in plain words (never a card drawn from the deck).

The log keeps the whole game (up to :data:`MAX_EVENTS` entries), each entry numbered (``n``)
and marked with its turn (``turn``: a run of entries by one seat; an entry of nobody's, the
table opening or the game's end, belongs to the turn it falls in), so that a page shows
everything since its player's last turn, turn by turn. The state message carries the last few
entries; a page that missed some asks for them (``{"type": "log", "since": n}``, answered by
``{"type": "log", "events": [...]}``, at most :data:`MAX_SENT` entries). A table read back
from the database (a restart) tells its log again from its actions when it is first asked
for it: what the bots and seats said (a bot warming up, a player away) is not kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import CHANCE, IllegalAction
from sheepfold.core.words import Msg, joined
from sheepfold.server.seating import who_starts_words

if TYPE_CHECKING:
    from sheepfold.server.broadcast import Conn
    from sheepfold.server.tables import Table

MAX_EVENTS = 1000  # entries a table keeps (the oldest go first)
MAX_SENT = 500  # entries one answer to "log" carries


class EventLog:
    """What happened at a table (the last few are ``events`` in the state message)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._events: list[dict[str, Any]] | None = []  # None: to be told from the actions
        self.count = 0  # entries ever noted (each entry's number)
        self.turn = 0
        self.turn_seat: int | None = None

    @property
    def events(self) -> list[dict[str, Any]]:
        if self._events is None:
            self._events = []
            self.retell()
        return self._events

    def note(self, seat: int | None, text: str, move: str | None = None) -> None:
        """An entry: ``text`` in words for people; ``move``: the decision's name in the game's
        notation (``swap b2-b3``, ``wolf seat 1``), for the page's animations, never shown."""
        events = self.events
        if seat is not None and seat != self.turn_seat:
            self.turn, self.turn_seat = self.turn + 1, seat
        who = self.table.seating.who(seat) if seat is not None else None
        self.count += 1
        event = {"seat": seat, "who": who, "text": text, "n": self.count, "turn": self.turn}
        if move is not None:
            event["move"] = move
        events.append(event)
        del events[:-MAX_EVENTS]

    def describe(self, new: Sequence[tuple[int, int]]) -> None:
        """Notes for actions about to be applied to the table's state (in the game's words:
        its driver's)."""
        self.tell(self.table.state.clone(), new)

    def tell(self, probe: Any, new: Sequence[tuple[int, int]], after: Any = None) -> None:
        """Notes for ``new`` applied to ``probe`` (a scratch state), and the end if they end it.

        ``after``: the state ``new`` leads to, when the caller holds it (the table's new
        state): the last action is told from it, not applied to ``probe`` again."""
        t = self.table
        last = len(new) - 1
        for i, (who, a) in enumerate(new):
            done = after if i == last else None
            # a decision's name goes with its first entry (a chance outcome's never: a deal)
            move = probe.action_to_string(a) if who != CHANCE else None
            for seat, text in t.driver.narrate(probe, who, a, t.show_scores, done):
                self.note(seat, text, move)
                move = None
        end = probe if after is None else after
        if end.is_terminal():
            win = end.winners()
            names = joined([t.seating.who(w) for w in win])
            if len(win) > 1:  # the banner's words: a tie is nobody's win
                self.note(None, Msg("game over: a tie between {names}", names=names))
            elif win:
                self.note(None, Msg("game over: {names} won!", names=names))
            else:
                self.note(None, Msg("game over"))

    def retell_later(self) -> None:
        """A table read back from the database: its log is told from its actions when first
        asked for (a table nobody looks at costs nothing)."""
        self._events = None

    def retell(self) -> None:
        t = self.table
        history = list(t.state.history)
        self.note(None, Msg("the table is open"))
        starts = who_starts_words(t)  # drawn at random (server/seating.py)
        if starts is not None:
            self.note(None, starts)
        if history:
            self.tell(t.manager.new_state(t.game, t.seed), history)

    def send(self, conn: Conn, since: Any, ref: Any = None) -> None:
        """The entries after number ``since``, to ``conn`` (the last MAX_SENT of them), in its
        language (its broadcaster's encoder, as the state message's window)."""
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            raise IllegalAction(Msg("'since' must be the number of an entry of the log (0: all)"))
        events = [e for e in self.events[-MAX_SENT:] if e["n"] > since]
        encode = self.table.out.speaking(conn.lang).dumps
        conn.push(encode({"type": "log", "ref": ref, "events": events}))
