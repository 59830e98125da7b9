"""Front-end drivers: what the layers above ``games`` do differently per game.

A game's :class:`~sheepfold.core.registry.GameSpec` may register a driver for a front end (its
``table`` field: a :class:`TableDriver`, the web server's tables). A game that registers none
is served by the generic driver here (:class:`GenericTable`), which needs nothing but the
protocol: ``observe``, the legal actions by name, ``action_to_string``, the scores. Drivers
live inside their game (``games/<game>/table.py``) and import only ``core`` and the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from sheepfold.core.protocol import CHANCE, Seat, State, View

#: a line of a table's log: the seat it is about (None: the table) and what happened
Note = tuple[Seat | None, str]

#: the view's fields every game has (the generic page shows them in its own way, not as lines)
COMMON_FIELDS = frozenset(
    {
        "game",
        "seat",
        "players",
        "to_move",
        "turn",
        "phase",
        "finished",
        "truncated",
        "scores",
        "winners",
        "legal_actions",
    }
)


@dataclass(frozen=True)
class ChanceStep:
    """Who resolves the chance node a table's state stands at.

    ``now``: the server samples it at once (a draw, a die nobody rolls by hand). ``roll``: the
    seat in ``seats`` rolls (a ``roll`` message; a bot's roll after its delay). ``race``: the
    seats in ``seats`` race to grab (a ``grab`` message; the first that arrives wins; bots
    react; after the race's time the chance weights decide). ``won`` and ``unclaimed`` are the
    log's words for a race's winner: grabbed first, and picked when nobody grabbed in time.
    """

    kind: Literal["now", "roll", "race"]
    seats: tuple[Seat, ...] = ()
    won: str = "grabbed it first!"
    unclaimed: str = "got it (nobody grabbed in time)"


NOW = ChanceStep("now")


class TableDriver(Protocol):
    """A game at a web table: its chance steps, messages, log, views and page renderer."""

    #: the page's renderer for this game's views (``static/table.js``; ``generic``: from the
    #: driver's text lines and the legal actions' names)
    renderer: str
    #: the client message types a seat of this game sends besides ``act`` and ``leave``:
    #: its own (``turn``, ``preview``: :meth:`message` answers them) and ``roll`` and ``grab``
    #: where its chance steps ask for them (the table answers those)
    messages: tuple[str, ...]

    def chance(self, state: State, config: Mapping[str, Any]) -> ChanceStep:
        """How the chance node ``state`` stands at is resolved, at a table set up by
        ``config`` (its stored options: ``auto_roll``...)."""
        ...

    def message(self, state: State, seat: Seat, msg: dict[str, Any]) -> State | dict[str, Any]:
        """One of this game's own ``messages`` (not ``roll``, ``grab``) from ``seat`` (whose turn it is): the new state
        to accept (played on a clone; ``state`` is never changed), or the answer for the sender
        alone. :class:`~sheepfold.core.protocol.IllegalAction` says what is wrong."""
        ...

    def narrate(self, probe: State, who: Seat, action: int, show_scores: bool) -> list[Note]:
        """Apply ``action`` (by ``who``, or chance) to ``probe`` (a scratch copy of the table's
        state) and say what happened, for the table's log (never what no seat may see)."""
        ...

    def chance_actor(self, state: State, action: int) -> Seat | None:
        """The seat a replay shows as making chance ``action`` at ``state`` (the roller, the
        grabber), or None: the outcome is no frame of its own (it shows in the next one)."""
        ...

    def view(self, state: State, seat: Seat | None, show_scores: bool) -> View:
        """What ``seat`` (None: a spectator) is sent: ``observe(seat)``, less what the table's
        options hide (``show_scores``)."""
        ...

    def shown(self, view: View) -> dict[str, Any]:
        """What the page needs to draw ``view`` besides it: ``{"renderer": ...}`` and, for the
        generic renderer, its ``lines`` (the position in words) and ``score_label``."""
        ...


def words(key: str) -> str:
    """A view field's name as words (``turn_wool``: ``turn wool``)."""
    return key.replace("_", " ").strip()


def value_text(value: Any) -> str | None:
    """A view value as text (a list: its items), or None when a line does not show it (nested
    data, nothing)."""
    if isinstance(value, (list, tuple)):
        items = [value_text(v) for v in value]
        if any(v is None or isinstance(v, (list, tuple, dict)) for v in value):
            return None
        return ", ".join(t for t in items if t is not None) or "none"
    if value is None or isinstance(value, dict):
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class GenericTable:
    """Any game, from the protocol alone: the server resolves every chance node at once, a
    seat plays by action names (``act``), the log says each decision's name (and, in a game
    of perfect information, each chance outcome's), and the page shows the view's plain
    fields as lines (the name in words, the value). A game's own
    driver may subclass it and override what differs."""

    renderer = "generic"
    messages: tuple[str, ...] = ()

    def __init__(self, score_label: str = "score") -> None:
        self.score_label = score_label  # what the page calls a seat's score

    def chance(self, state: State, config: Mapping[str, Any]) -> ChanceStep:
        return NOW

    def message(self, state: State, seat: Seat, msg: dict[str, Any]) -> State | dict[str, Any]:
        from sheepfold.core.protocol import IllegalAction

        raise IllegalAction(f"{state.game.info.title} has no {msg.get('type')!r} message")

    def narrate(self, probe: State, who: Seat, action: int, show_scores: bool) -> list[Note]:
        text = probe.action_to_string(action)
        public = who != CHANCE or probe.game.info.perfect_information
        probe.apply_unchecked(action)
        return [(None if who == CHANCE else who, text)] if public else []

    def chance_actor(self, state: State, action: int) -> Seat | None:
        return None

    def view(self, state: State, seat: Seat | None, show_scores: bool) -> View:
        return state.observe(seat)

    def shown(self, view: View) -> dict[str, Any]:
        lines = []
        for key, value in view.items():
            text = None if key in COMMON_FIELDS else value_text(value)
            if text is not None:
                lines.append(f"{words(key)}: {text}")
        return {"renderer": self.renderer, "score_label": self.score_label, "lines": lines}


def table_driver(game: str) -> TableDriver:
    """The table driver of a registered game: its own, or the generic one."""
    from sheepfold.core.registry import game_spec

    spec = game_spec(game)
    return spec.table or GenericTable(spec.score_label)
