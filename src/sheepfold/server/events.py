"""The table's log: what happened, in plain words (never a card drawn from the deck)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


class EventLog:
    """The last few things that happened at a table (``events`` in the state message)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[dict[str, Any]] = []

    def note(self, seat: int | None, text: str) -> None:
        who = self.table.seating.who(seat) if seat is not None else None
        self.events.append({"seat": seat, "who": who, "text": text})
        del self.events[:-20]

    def describe(self, new: Sequence[tuple[int, int]]) -> None:
        """Notes for actions about to be applied to the table's state (in the game's words:
        its driver's)."""
        t = self.table
        probe = t.state.clone()
        for who, a in new:
            for seat, text in t.driver.narrate(probe, who, a, t.show_scores):
                self.note(seat, text)
        if probe.is_terminal():
            win = probe.winners()
            names = " and ".join(t.seating.who(w) for w in win)
            if len(win) > 1:  # the banner's words: a tie is nobody's win
                self.note(None, f"game over: a tie between {names}")
            elif win:
                self.note(None, f"game over: {names} won!")
            else:
                self.note(None, "game over")
