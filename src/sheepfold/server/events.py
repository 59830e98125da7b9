"""The table's log: what happened, in plain words (never a card drawn from the deck)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import CHANCE

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
        """Notes for actions about to be applied to the table's state."""
        t = self.table
        probe = t.state.clone()
        for who, a in new:
            if who == CHANCE:
                text = probe.action_to_string(a)
                if not t.dolly and text.startswith("roll "):
                    self.note(probe.turn, f"rolled {text[5:]}")  # type: ignore[attr-defined]
            else:
                self.note(who, probe.action_to_string(a))
            before = len(probe.collected[who]) if t.dolly and who != CHANCE else 0  # type: ignore[attr-defined]
            probe.apply_unchecked(a)
            if t.dolly and who != CHANCE:
                took = probe.collected[who][before:]  # type: ignore[attr-defined]
                if took:
                    what = ""
                    if t.show_scores:
                        board = probe.game.board  # type: ignore[attr-defined]
                        what = ": " + ", ".join(board.card_code(c) for c in took)
                    self.note(who, f"took {len(took)} sheep{what}")
        if probe.is_terminal():
            win = probe.winners()
            if win:
                names = " and ".join(t.seating.who(w) for w in win)
                self.note(None, "game over: " + names + " won!")
            else:
                self.note(None, "game over")
