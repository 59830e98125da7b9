"""Dolly Crush at the terminal (:class:`~sheepfold.core.drivers.TerminalDriver`): the flock
drawn from a seat's view, typed moves read (``dog 2``, ``b2-b3``), the turns told in words.

Colour-blind safe: every sheep type has a letter as well as a colour, and a black sheep is an
upper-case letter in brackets (``[R]``) while a white one is a lower-case letter (`` r ``), so
the flock reads the same with colours off (a pipe, a log file, ``NO_COLOR``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from sheepfold.core.drivers import BadInput, GenericTerminal, TerminalContext
from sheepfold.core.protocol import CHANCE, Action, Game, IllegalAction, Seat, State, View
from sheepfold.core.words import Msg, joined
from sheepfold.games.dolly_crush import words
from sheepfold.games.dolly_crush.cards import BREED_TITLES, EMPTY, HOLE, ROW_LETTERS
from sheepfold.games.dolly_crush.game import DOG, DollyGame, DollyState
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.games.dolly_crush.spec import FAIR_RULESET

if TYPE_CHECKING:
    from rich.console import RenderableType

#: one letter per sheep type (every type a rule set may use: the rulebook's five, then the
#: house rules' clover, star and heart)
TYPE_LETTERS = {
    "bell": "B",
    "lamb": "L",
    "butterfly": "Y",
    "flower": "F",
    "ram": "R",
    "clover": "C",
    "star": "S",
    "heart": "H",
}
TYPE_STYLES = {
    "bell": "yellow",
    "lamb": "cyan",
    "butterfly": "magenta",
    "flower": "green",
    "ram": "red",
    "clover": "blue",
    "star": "bright_yellow",
    "heart": "bright_magenta",
}


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _pts(k: int) -> str:
    return f"{k} pt{'s' * (k != 1)}"


def _swaps(k: int) -> str:
    return f"{k} swap{'s' * (k != 1)}"


# -- drawing ------------------------------------------------------------------------------
def card_text(code: str | None) -> Text:
    """A card as a letter (type) with its colour; black sheep are ``[X]``, white ones `` x ``."""
    if code is None:
        return Text(" . ", style="dim")
    t, colour = code.rsplit("-", 1)
    letter = TYPE_LETTERS[t]
    if colour == "black":
        return Text(f"[{letter}]", style=f"bold {TYPE_STYLES[t]} reverse")
    return Text(f" {letter.lower()} ", style=TYPE_STYLES[t])


def legend(rules: DollyRules | None = None) -> Text:
    """The key to the flock: one letter per type in play, how black sheep look, and the
    points each card scores under ``rules`` (None: the printed rules): when the types score
    differently, each type's own (white/black) after its word."""
    rules = rules or DollyRules()
    points = words.type_points(rules)
    by_type = words.points_by_type(rules)
    out = Text("key: ")
    for i, (t, (white, black)) in enumerate(points.items()):
        out.append(TYPE_LETTERS[t].lower(), style=TYPE_STYLES[t])
        out.append(f" {words.type_word(t)}")
        if by_type:
            out.append(f" {white}/{black}")
        out.append("  " if i < len(points) - 1 else "")
    if by_type:
        said = "lower case = white sheep, [X] = black sheep (after each type: white/black pts)"
    else:
        white, black = next(iter(points.values()))
        said = f"lower case = white sheep ({_pts(white)}), [X] = black sheep ({_pts(black)})"
    out.append(f"\n     {said} · dogs left: card:swaps")
    return out


def flock_table(view: View, highlight: Sequence[str] = ()) -> Table:
    """The flock at its rule set's size: rows ``a``.. top to bottom, columns ``1``.. left to
    right (the cells' names)."""
    flock = view["flock"]
    cols = len(flock[0]) if flock else 0
    grid = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
    grid.add_column("", style="bold")
    for c in range(1, cols + 1):
        grid.add_column(str(c), justify="center")
    shape = view.get("shape")  # a shaped flock: its holes are blank
    for i, (r, row) in enumerate(zip(ROW_LETTERS, flock, strict=False)):
        cells = []
        for c, code in enumerate(row, start=1):
            t = Text("   ") if shape and shape[i][c - 1] == HOLE else card_text(code)
            if f"{r}{c}" in highlight:
                t.stylize("underline")
            cells.append(t)
        grid.add_row(r, *cells)
    return grid


def seats_table(view: View, names: Sequence[str], hide_scores: bool = False) -> Table:
    table = Table(box=None, padding=(0, 1))
    for col in ("", "seat", "player", "breed", "dogs left", "points", "taken"):
        table.add_column(col)
    to_move = view["to_move"]
    for s in range(view["players"]):
        # the dog cards numbered from 1, as the table's page shows them
        dogs = " ".join(f"{d + 1}:{view['dog_swaps'][s][d]}" for d in view["dogs_left"][s])
        pts = "hidden" if hide_scores and not view["finished"] else str(int(view["scores"][s]))
        table.add_row(
            ">" if to_move == s else "",
            str(s + 1),
            escape(names[s]),
            BREED_TITLES.get(view["breeds"][s], view["breeds"][s]),
            dogs or "-",
            pts,
            str(len(view["collected"][s])),
        )
    return table


def status(view: View, names: Sequence[str]) -> Text:
    parts = [f"deck: {_plural(view['deck_size'], 'card')}"]
    if view["to_move"] is not None and view["phase"] == "swap":
        s = view["turn"]
        left = _plural(view["swaps_left"], "swap")
        if view.get("swaps") == "up-to" or "stop" in (view.get("legal_actions") or ()):
            left = f"up to {left} left ('stop' ends the turn)"
        else:
            left += " left"
        parts.append(f"{names[s]} plays dog {view['dog'] + 1}: {left}")
    return Text(" · ".join(parts))


def house_rules(rules: DollyRules) -> list[str]:
    """The house rules in play, in a few words each (empty for the rulebook's game), generated
    from the rule set's parts (:func:`~sheepfold.games.dolly_crush.words.summary`)."""
    return words.summary(rules)


def dog_cards_note(g: DollyGame, rules_name: str) -> str:
    """The header's word on the dog cards: fair (every seat the same cards), or a warning that
    they decide the game (the printed cards give some breeds 4 swaps, others 1)."""

    def cards(seat: int) -> str:
        counts = g.dog_swaps[seat]
        if len(set(counts)) == 1:
            return f"{counts[0]} swap{'s' * (counts[0] != 1)} a card"
        return f"{', '.join(str(k) for k in counts)} swaps"

    if len({tuple(s) for s in g.dog_swaps}) == 1:
        what = f"every seat's dog cards: {cards(0)}"
        if str(rules_name).startswith(FAIR_RULESET):
            return (
                f"Fair dog cards: the graded edition ({FAIR_RULESET}), {what}. "
                "The printed cards: --rules dolly-rulebook."
            )
        return f"Dog cards: {what}."
    seats = "; ".join(f"{BREED_TITLES.get(b, b)} {cards(i)}" for i, b in enumerate(g.breeds))
    return (
        f"[bold yellow]Warning:[/] unequal dog cards ({escape(seats)}) decide the game; "
        f"--rules {FAIR_RULESET} is fair."
    )


def help_text(game: DollyGame) -> str:
    """The moves of a Dolly Crush game, in its own rule set's words."""
    board = game.board
    last = ROW_LETTERS[board.rows - 1]
    lines = [
        "Dolly Crush moves:",
        f"  dog 2, d2, 2     play dog card 2 (at the start of your turn; cards 1 to "
        f"{game.num_dogs})",
        f"  b2-b3, b2 b3     swap two {board.adjacency_words()} cards (rows a-{last}, columns "
        f"1-{board.cols})",
        "  undo             take back your last swap, then the dog card (the turn's last swap "
        "is final)",
    ]
    if game.stop is not None:
        lines.append("  stop             end your swaps early (up-to swaps)")
        count = "at most as many swaps as the dog card shows"
    else:
        count = "exactly as many swaps as the dog card shows"
    told = words.describe(game.rules)
    lines.append(f"You make {count}. {told['combinations']}")
    lines.append(told["scoring"])
    lines.append(told["refill"])
    return "\n".join(lines) + "\n"


# -- reading typed moves --------------------------------------------------------------------
_CELL = r"[a-h]\d"
_CELL_PAIR = re.compile(rf"^(?:swap\s+|s\s+)?({_CELL})\s*[-,/ ]?\s*({_CELL})$")
_DOG = re.compile(r"^(?:dog|d)\s*(\d+)$")
_STOP = {"stop", "done", "end"}


def parse_move(state: DollyState, text: str) -> Action:
    """A Dolly Crush move from friendly text: ``dog 2``, ``d2``, ``2``, ``b2-b3``, ``b2 b3``;
    ``stop`` under "up-to" swaps. Cells are the game's own (``d7`` on a larger flock)."""
    game = state.game
    low = " ".join(text.lower().split())
    if low in _STOP:
        if game.stop is None:
            raise BadInput(
                f"'{text}': these rules want exactly as many swaps as the dog card shows; "
                "there is no stopping early"
            )
        if state.phase == DOG:
            raise BadInput(f"'{text}': choose a dog card first, then swap or stop")
        return int(game.stop)
    m = _DOG.match(low)
    if m or (low.isdigit() and state.phase == DOG):
        digits = m.group(1) if m else low
        if len(digits) > 3 or not 1 <= int(digits) <= game.num_dogs:
            raise BadInput(
                f"there is no dog card {digits}: a player has dog cards 1 to {game.num_dogs}"
            )
        dog = int(digits) - 1  # typed as the table shows them, from 1
        # the engine's reasons name its action ids (from 0): said here as the table numbers them
        if state.phase != DOG:
            raise BadInput(
                f"dog card {state.dog + 1} is in play: make its {state.swaps_left} remaining "
                "swap(s) first, e.g. b2-b3"
            )
        if state.dogs_played[state.turn] >> dog & 1:
            raise BadInput(f"dog card {digits} has already been played: a dog card is spent")
        return dog
    if low.isdigit():
        raise BadInput(
            f"'{text}': a dog card is already in play; make its {state.swaps_left} remaining "
            "swap(s), e.g. b2-b3"
        )
    m = _CELL_PAIR.match(low)
    if m:
        try:
            return int(game.swap_action(m.group(1), m.group(2)))
        except (IllegalAction, ValueError) as e:
            raise BadInput(str(e)) from None
    try:
        return int(state.string_to_action(low))
    except IllegalAction as e:
        raise BadInput(str(e)) from None


# -- the driver -----------------------------------------------------------------------------
def _dolly(state: State) -> DollyState:
    assert isinstance(state, DollyState)
    return state


class DollyTerminal(GenericTerminal):
    """Dolly Crush at the terminal."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, DollyGame)
        super().__init__(game)
        self.dolly = game

    def intro(self, rules_name: str) -> list[str]:
        house = self.house_rules()
        lines = [f"House rules: {escape('; '.join(house))}."] if house else []
        return [*lines, dog_cards_note(self.dolly, rules_name)]

    def house_rules(self) -> list[str]:
        return house_rules(self.dolly.rules)

    def draw(
        self, view: View, names: Sequence[str], hide_scores: bool, highlight: Sequence[str]
    ) -> RenderableType:
        return Group(
            flock_table(view, highlight),
            legend(self.dolly.rules),
            Text(""),
            seats_table(view, names, hide_scores),
            status(view, names),
        )

    def settle(self, state: State) -> list[str]:
        """Resolve the draws up to the next decision; the refill's clean-ups
        (Dolly Crush ruling 6), whose cards score for nobody, told as they happened."""
        st = _dolly(state)
        board = self.dolly.board
        said = []
        while st.current_player() == CHANCE:
            flock = st.flock[:]
            rounds = st.cleanup_rounds
            card = st.sample_chance(None)
            drawn = flock.index(EMPTY) if EMPTY in flock else -1
            if drawn >= 0:
                flock[drawn] = card
            st.apply_unchecked(card)
            if st.cleanup_rounds > rounds:  # lines out for nobody, cards back into the deck
                removed = [
                    board.cell_name(c)
                    for c in range(len(flock))
                    if st.flock[c] == EMPTY and flock[c] != EMPTY
                ]
                said.append(
                    f"[bold]Clean-up:[/] the refill made lines at "
                    f"{escape(' '.join(removed))}. These {len(removed)} cards score for "
                    "nobody: they are shuffled back into the deck and the cells are refilled."
                )
        return said

    def before_decision(self, ctx: TerminalContext, state: State, seat: Seat) -> None:
        st = _dolly(state)
        if st.phase == DOG:
            ctx.show(seat)
            breed = self.dolly.breeds[seat]
            ctx.say(f"\n{ctx.who(seat)}'s turn ({BREED_TITLES.get(breed, breed)}).")
        elif ctx.is_person(seat):
            ctx.show(seat)

    def after_decision(
        self, ctx: TerminalContext, before: State, state: State, action: Action
    ) -> None:
        """What the turn took, once it is over (cascades' lines apart from the swaps')."""
        st, was = _dolly(state), _dolly(before)
        seat = was.turn
        if st.turns == was.turns:  # the turn goes on (a dog card in play, swaps to make)
            return
        got = st.collected[seat][len(was.collected[seat]) :]
        if not got:
            ctx.say(f"{ctx.who(seat)} made no line and takes nothing; the dog card is spent.")
            return
        cells = " ".join(st.observe(None)["last_taken"])
        combination, more = got[: len(st.last_taken)], got[len(st.last_taken) :]
        points = self.dolly.points

        def sheep(cards: list[int]) -> str:
            black = sum(1 for c in cards if c & 1)
            return f"{len(cards)} sheep{f' ({black} black)' if black else ''}"

        what = f"{sheep(combination)} at {cells}"
        if self.dolly.board.bonuses:  # the points with the bonuses by length, all together
            if not ctx.hide_scores:
                gain = st.scores()[seat] - was.scores()[seat]
                what += f": +{words.points_words(int(gain))} (bonuses by length included)"
            if more:
                what += f"; the refill's lines (cascades): {sheep(more)}"
            ctx.say(f"{ctx.who(seat)} takes {what}.")
            return
        if not ctx.hide_scores:
            what += f": +{words.points_words(sum(points[c] for c in combination))}"
        if more:  # cascades (house rule): lines the refill made, taken too
            what += f"; the refill's lines (cascades): {sheep(more)}"
            if not ctx.hide_scores:
                what += f", +{words.points_words(sum(points[c] for c in more))}"
        ctx.say(f"{ctx.who(seat)} takes {what}.")

    def turn_goes_on(self, before: State, state: State) -> bool:
        return _dolly(state).turns == _dolly(before).turns

    def describe(self, state: State, action: Action, names: Sequence[str]) -> str:
        st = _dolly(state)
        if st.phase == DOG:
            return f"dog {action + 1} ({_swaps(self.dolly.dog_swaps[st.turn][action])})"
        return st.action_to_string(action)

    def move_words(self, before: State, after: State, names: Sequence[str]) -> str:
        """A whole turn (a record's move) as a player types it: ``dog 2 (3 swaps), a1-a2,
        b2-b3`` (the dog cards numbered from 1, as the table shows them)."""
        probe = _dolly(before).clone()
        said: list[str] = []
        for who, a in after.history[len(before.history) :]:
            if who != CHANCE:
                said.append(self.describe(probe, a, names))
            probe.apply_unchecked(a)
        return ", ".join(said)

    def prompt(self, state: State, seat: Seat, who: str, names: Sequence[str]) -> str:
        st = _dolly(state)
        swaps = self.dolly.dog_swaps[seat]
        if st.phase == DOG:
            dogs = ", ".join(f"dog {d + 1} ({_swaps(swaps[d])})" for d in st.dogs_left(seat))
            return f"{who}, choose a dog card: {dogs}\n> "
        total = swaps[st.dog]
        k = total - st.swaps_left + 1
        if self.dolly.stop is not None:
            return f"{who}, swap {k} of up to {total} (e.g. b2-b3), or stop:\n> "
        return f"{who}, swap {k} of {total} (e.g. b2-b3):\n> "

    def parse(self, state: State, text: str, names: Sequence[str]) -> Action:
        return parse_move(_dolly(state), text)

    def help(self) -> str:
        return help_text(self.dolly)

    def hint_detail(self, state: State, seat: Seat, action: Action) -> str:
        """The swaps the exhaustive search plans for the dog card (or the swaps left)."""
        from sheepfold.games.dolly_crush import search

        st = _dolly(state)
        g = self.dolly
        board = g.board
        n = g.dog_swaps[seat][action] if st.phase == DOG else st.swaps_left
        pts, plan = search.best_swaps(st.flock, n, g.points, board, g.stop is not None)
        swaps = ", ".join(
            f"{board.cell_name(board.swaps[i][0])}-{board.cell_name(board.swaps[i][1])}"
            for i in plan
        )
        return f" (plan: {swaps or 'no swap'}; {pts} points)"

    def no_undo(self) -> str:
        return (
            "Nothing to undo: undo takes back the swaps of your turn in progress "
            "(and then its dog card); a finished turn is final."
        )

    def undone(self, state: State) -> str:
        return "the dog card" if _dolly(state).phase == DOG else "the last swap"

    def end_reason(self, state: State, names: Sequence[str]) -> str:
        return end_reason(_dolly(state), names)

    def mover(self, before: State, after: State) -> Seat:
        return _dolly(before).turn

    def changed_parts(self, before: State, after: State) -> list[str]:
        """The cells whose card the move changed (swapped, taken, refilled)."""
        board = self.dolly.board
        return [
            board.cell_name(c)
            for c, (a, b) in enumerate(zip(_dolly(before).flock, _dolly(after).flock, strict=True))
            if a != b
        ]

    def changes(
        self, before: State, after: State, names: Sequence[str], hide_scores: bool
    ) -> list[str]:
        """The cards taken, the points (unless ``hide_scores``: the piles are face down,
        Dolly Crush ruling 9) and the deck."""
        out: list[str] = []
        b, a = before.observe(None), after.observe(None)
        cells = self.changed_parts(before, after)
        if cells:
            out.append(f"changed cells (underlined): {' '.join(cells)}")
        for s in range(a["players"]):
            got = len(a["collected"][s]) - len(b["collected"][s])
            if got:
                pts = a["scores"][s] - b["scores"][s]
                score = "" if hide_scores else f": +{words.points_words(int(pts))}"
                out.append(f"{names[s]} takes {got} sheep{score}")
        if a["deck_size"] != b["deck_size"]:
            out.append(f"deck: {b['deck_size']} -> {a['deck_size']} cards")
        return out


def end_reason(state: DollyState, names: Sequence[str]) -> str:
    """Why a finished Dolly Crush game ended, in the order the engine checks (Dolly Crush ruling
    6's clean-up, Dolly Crush ruling 8, then the house rules ``rounds`` and ``end_points``), in
    a player's words (no ruling's number, no rule's key)."""
    g = state.game
    r = g.rules
    if state.aborted:  # Dolly Crush ruling 6: said in the ruling's words
        return Msg("The game ended because {why}.", why=words.RAN_OUT)
    if state.turns == 0 and EMPTY in state.flock:
        return Msg("The game ended before it began: the deck could not fill the flock.")
    if not state.deck:
        return Msg("The game ended because the deck ran out.")
    if g.max_turns is None:
        if all(d == state._all_dogs() for d in state.dogs_played):
            return Msg("The game ended because every dog card has been played.")
    elif state.turns >= g.max_turns:
        n = r.rounds or 0
        return (
            Msg("The game ended after 1 round.")
            if n == 1
            else Msg("The game ended after {n} rounds.", n=n)
        )
    target = r.end_points
    scores = state.scores()
    if target is not None and max(scores) >= target:
        who = joined([names[s] for s, v in enumerate(scores) if v >= target])
        return Msg(
            "The game ended because {who} reached the points target of {target}.",
            who=who,
            target=target,
        )
    return Msg("The game is over.")
