"""Front-end drivers: what the layers above ``games`` do differently per game.

A front end (the terminal, the web app's tables) speaks the game protocol
(:mod:`sheepfold.core.protocol`); what it shows and asks differently for one game (how a view
is drawn, how a typed move is read, what a move is called, how a table resolves its chance
nodes) is that game's driver, registered in its :class:`~sheepfold.core.registry.GameSpec`
(``terminal``: a :class:`TerminalDriver`; ``table``: a :class:`TableDriver`). A game that
registers none is played through the generic drivers here (:class:`GenericTerminal`,
:class:`GenericTable`), which need nothing but the protocol: the view, the legal actions and
their names, the scores and the winners. Drivers live inside each game
(``games/<game>/terminal.py``, ``games/<game>/table.py``) and import only ``core``, the game
itself and ``rich``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sheepfold.core.protocol import CHANCE, Action, Game, IllegalAction, Seat, State, View
from sheepfold.core.words import Msg

if TYPE_CHECKING:
    from rich.console import RenderableType

#: the keys every view has (:meth:`State.observe`): drawn as the seats' table and the result
STANDARD_KEYS = frozenset(
    {"game", "seat", "to_move", "finished", "scores", "winners", "legal_actions"}
)


class BadInput(Exception):
    """Typed text that is not a move: the message says what to type instead."""


class TerminalContext(Protocol):
    """The terminal's session as a driver sees it: who sits where, and a way to speak."""

    hide_scores: bool

    @property
    def names(self) -> list[str]:
        """The players' names, safe to print (no control characters; markup not escaped)."""

    def is_person(self, seat: Seat) -> bool:
        """Whether a person at this keyboard decides for ``seat`` (else a bot)."""

    def who(self, seat: Seat) -> str:
        """The seat's name as rich markup, in bold."""

    def say(self, text: str) -> None:
        """Print a line of rich markup (and keep it for the ``--screen`` log)."""

    def show(self, seat: Seat | None) -> None:
        """Draw the table as ``seat`` sees it."""


class TerminalDriver(Protocol):
    """One game at the terminal (``sheepfold play``, ``sheepfold replay``). Names given to a
    driver are safe to print; text it returns as markup escapes what it quotes."""

    def intro(self, rules_name: str) -> list[str]:
        """Lines (markup) after the game's header line: house rules, warnings."""

    def house_rules(self) -> list[str]:
        """The house rules in play, a few plain words each (empty: the rulebook's game)."""

    def draw(
        self, view: View, names: Sequence[str], hide_scores: bool, highlight: Sequence[str]
    ) -> RenderableType:
        """A seat's view drawn for a terminal (``highlight``: parts to mark as changed)."""

    def settle(self, state: State) -> list[str]:
        """Resolve the chance events up to the next decision (the state's own randomness);
        what happened that the players must be told (markup), in order."""

    def before_decision(self, ctx: TerminalContext, state: State, seat: Seat) -> None:
        """Before ``seat`` decides: draw the table, say what the decision is about."""

    def after_decision(
        self, ctx: TerminalContext, before: State, state: State, action: Action
    ) -> None:
        """After a decision (and the chance events it led to): say what it did."""

    def turn_goes_on(self, before: State, state: State) -> bool:
        """Whether the seat's turn goes on after the move (its moves can then be undone)."""

    def describe(self, state: State, action: Action, names: Sequence[str]) -> str:
        """A decision in a few plain words (``dog 2 (3 swaps)``)."""

    def roll_note(self, state: State) -> str:
        """Plain words after a bot's name before its decision (`` rolled white (grow) and``)."""

    def prompt(self, state: State, seat: Seat, who: str, names: Sequence[str]) -> str:
        """The question a person answers (markup; ``who``: their name as markup)."""

    def parse(self, state: State, text: str, names: Sequence[str]) -> Action:
        """The action typed text names; :class:`BadInput` saying what to type instead."""

    def help(self) -> str:
        """The game's moves, as ``help`` shows them (plain text, ending in a new line)."""

    def hint_detail(self, state: State, seat: Seat, action: Action) -> str:
        """More about a suggested decision (a plan, its points), or nothing."""

    def no_undo(self) -> str:
        """Why there is nothing to undo."""

    def undone(self, state: State) -> str:
        """What an undo took back, the state now being the position before it."""

    def end_reason(self, state: State, names: Sequence[str]) -> str:
        """Why a finished game ended, in plain words."""

    def mover(self, before: State, after: State) -> Seat:
        """The seat whose move (a record's move) led from ``before`` to ``after``."""

    def changed_parts(self, before: State, after: State) -> list[str]:
        """The parts of the table a move changed, as :meth:`draw` highlights them."""

    def changes(
        self, before: State, after: State, names: Sequence[str], hide_scores: bool
    ) -> list[str]:
        """A move's effect in plain words (empty: nothing changed)."""


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value) or "none"
    return str(value)


class GenericTerminal:
    """A terminal driver for any game, from the protocol alone: the view's entries drawn as
    text (those with one value per seat as columns of the seats' table), the legal actions
    as a numbered menu of the game's own action names, the chance events announced by name.
    A game's own driver may subclass it and change what it draws or says."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._per_seat: list[str] | None = None

    def intro(self, rules_name: str) -> list[str]:
        return []

    def house_rules(self) -> list[str]:
        return []

    def draw(
        self, view: View, names: Sequence[str], hide_scores: bool, highlight: Sequence[str]
    ) -> RenderableType:
        from rich.console import Group
        from rich.markup import escape
        from rich.table import Table
        from rich.text import Text

        players = len(view["scores"])
        per_seat = [k for k in self.per_seat_keys() if k in view]
        others = [k for k in view if k not in STANDARD_KEYS | {"players"} and k not in per_seat]
        table = Table(box=None, padding=(0, 1))
        for col in ("", "seat", "player", *(words(k) for k in per_seat), "score"):
            table.add_column(col)
        for s in range(players):
            table.add_row(
                ">" if view["to_move"] == s else "",
                str(s),
                escape(names[s]),
                *(escape(_shown(view[k][s])) for k in per_seat),
                _shown(view["scores"][s]),
            )
        lines = [Text(f"{words(k)}: {_shown(view[k])}") for k in others]
        return Group(table, *lines)

    def per_seat_keys(self) -> list[str]:
        """The view's entries that hold one value per seat (a list as long as the seats in a
        new game's view), drawn as columns of the seats' table."""
        if self._per_seat is None:
            view = self.game.new_initial_state(seed=0).observe(None)
            n = self.game.num_players
            self._per_seat = [
                k
                for k, v in view.items()
                if k not in STANDARD_KEYS and isinstance(v, list) and len(v) == n
            ]
        return self._per_seat

    def settle(self, state: State) -> list[str]:
        from rich.markup import escape

        said = []
        while state.current_player() == CHANCE:
            outcome = state.sample_chance(None)
            said.append(f"Chance: {escape(state.action_to_string(outcome))}.")
            state.apply_unchecked(outcome)
        return said

    def before_decision(self, ctx: TerminalContext, state: State, seat: Seat) -> None:
        if ctx.is_person(seat):
            ctx.show(seat)

    def after_decision(
        self, ctx: TerminalContext, before: State, state: State, action: Action
    ) -> None:
        return None

    def turn_goes_on(self, before: State, state: State) -> bool:
        return False

    def describe(self, state: State, action: Action, names: Sequence[str]) -> str:
        return state.action_to_string(action)

    def roll_note(self, state: State) -> str:
        return ""

    def menu(self, state: State, names: Sequence[str]) -> list[tuple[Action, str]]:
        """The legal actions, each with its words, in the order the menu numbers them."""
        return [(a, self.describe(state, a, names)) for a in state.legal_actions()]

    def prompt(self, state: State, seat: Seat, who: str, names: Sequence[str]) -> str:
        from rich.markup import escape

        menu = self.menu(state, names)
        items = "  ".join(f"{i}) {escape(t)}" for i, (_, t) in enumerate(menu, start=1))
        return f"{who}, your move: {items}\n> "

    def parse(self, state: State, text: str, names: Sequence[str]) -> Action:
        menu = self.menu(state, names)
        low = text.strip().lower()
        if low.isdigit():
            k = int(low)
            if 1 <= k <= len(menu):
                return menu[k - 1][0]
            raise BadInput(f"choose a number from 1 to {len(menu)}, or type the move's name")
        try:
            return state.string_to_action(text)
        except IllegalAction:
            words = ", ".join(state.action_to_string(a) for a in state.legal_actions())
            raise BadInput(
                f"'{text}' is not a move now: type a number from the menu or one of: {words}"
            ) from None

    def help(self) -> str:
        return (
            f"{self.game.info.title} moves:\n"
            "  1, 2, ...   a number from the menu\n"
            "  a move's name, as the menu shows it\n"
        )

    def hint_detail(self, state: State, seat: Seat, action: Action) -> str:
        return ""

    def no_undo(self) -> str:
        return f"Nothing to undo: a {self.game.info.title} move is final."

    def undone(self, state: State) -> str:
        return "the last move"

    def end_reason(self, state: State, names: Sequence[str]) -> str:
        outcome = state.outcome()
        if outcome is not None and outcome.truncated:
            return "The game ended at its turn limit: no result."
        return "The game is over."

    def mover(self, before: State, after: State) -> Seat:
        seats = [seat for seat, _ in after.history[len(before.history) :] if seat != CHANCE]
        if seats:
            return seats[0]
        turn = before.observe(None).get("turn")  # a move of chance alone (a turn lost at once)
        return turn if isinstance(turn, int) else -1

    def changed_parts(self, before: State, after: State) -> list[str]:
        return []

    def changes(
        self, before: State, after: State, names: Sequence[str], hide_scores: bool
    ) -> list[str]:
        b, a = before.observe(None), after.observe(None)
        out: list[str] = []
        for key in a:
            if key in STANDARD_KEYS - {"scores"} or a[key] == b.get(key):
                continue
            if key in self.per_seat_keys() or key == "scores":
                old = b.get(key) or [None] * len(names)
                label = "score" if key == "scores" else words(key)
                out.extend(
                    f"{names[s]}: {label} {_shown(old[s])} -> {_shown(a[key][s])}"
                    for s in range(len(names))
                    if a[key][s] != old[s]
                )
            else:
                out.append(f"{words(key)}: {_shown(b.get(key))} -> {_shown(a[key])}")
        return out


def terminal_driver(game: Game) -> TerminalDriver:
    """The game's terminal driver (its spec's ``terminal``), else :class:`GenericTerminal`."""
    from sheepfold.core.registry import find_game

    spec = find_game(game.name)
    factory = spec.terminal if spec is not None else None
    return factory(game) if factory is not None else GenericTerminal(game)


# -- the web server's tables ---------------------------------------------------------------
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
    won: str = Msg("grabbed it first!")
    unclaimed: str = Msg("got it (nobody grabbed in time)")


NOW = ChanceStep("now")


def player(k: int) -> str:
    """Seat ``k``'s player in a table's words: a mark the page writes as the player's name
    (static/table.js: ``named``), so that a line made once per game names whoever sits there."""
    return f"{{player {k}}}"


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

    def narrate(
        self, probe: State, who: Seat, action: int, show_scores: bool, after: State | None = None
    ) -> list[Note]:
        """Apply ``action`` (by ``who``, or chance) to ``probe`` (a scratch copy of the table's
        state) and say what happened, for the table's log (never what no seat may see).

        ``after``: the state ``action`` leads to from ``probe``, when the caller holds it (the
        table's new state): what happened is read from it, and ``probe`` is left as it is
        (the move is not applied a second time)."""
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

    def gathered(self, view: View, seat: Seat) -> str | None:
        """What ``seat`` gathered by the end of the game ``view`` (a finished game's public
        view) shows, in words, for the end's results table (None: the game has no such words)."""
        ...


def words(key: str) -> str:
    """A view field's name as words (``turn_wool``: ``turn wool``)."""
    return key.replace("_", " ").replace("-", " ").strip()


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

    def narrate(
        self, probe: State, who: Seat, action: int, show_scores: bool, after: State | None = None
    ) -> list[Note]:
        text = probe.action_to_string(action)
        public = who != CHANCE or probe.game.info.perfect_information
        if after is None:
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

    def gathered(self, view: View, seat: Seat) -> str | None:
        return None


def table_driver(game: str) -> TableDriver:
    """The table driver of a registered game: its own, or the generic one."""
    from sheepfold.core.registry import game_spec

    spec = game_spec(game)
    return spec.table or GenericTable(spec.score_label)
