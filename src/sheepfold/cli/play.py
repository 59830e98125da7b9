"""``sheepfold play [GAME]``: play at the terminal, people at this keyboard and bots.

Input is read line by line from standard input (a keyboard or a pipe); the end of input counts
as ``quit``. Every typed move goes through the engine: an illegal or unreadable one gets the
engine's reason and a new prompt. With ``--save FILE`` the record is written when the game ends
and also when the players quit, so nothing is lost.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from sheepfold.cli.common import (
    console,
    fail,
    friendly_errors,
    prepare_bots,
    safe_markup,
    safe_text,
    set_option,
    variant_option,
    warm_bots,
)
from sheepfold.core.registry import game_names, game_spec
from sheepfold.games.dolly_crush.game import DollyGame
from sheepfold.games.dolly_crush.spec import FAIR_RULESET as DOLLY_FAIR_RULESET

GAMES = {name: game_spec(name).title for name in game_names()}
#: what a player may answer to "Which game?"
GAME_ANSWERS = {
    **dict.fromkeys(("1", "dolly", "dolly-crush", "dolly crush", "d"), "dolly-crush"),
    **dict.fromkeys(("2", "shave", "shave-a-sheep", "shave a sheep", "s"), "shave-a-sheep"),
}
QUIT_WORDS = {"quit", "exit", "q", ":q", "bye"}
#: Dolly Crush's rule set at the terminal when none is asked for: every breed's dog cards show
#: 1, 2, 3 and 4 swaps, so nobody gets 1-swap cards against an Australian Shepherd (the game
#: spec's default rule set, which every front end plays)
FAIR_DOLLY = DOLLY_FAIR_RULESET


class Quit(Exception):
    """The players asked to stop (``quit``, end of input, Ctrl-C)."""


class BadInput(Exception):
    """Input that is not a move: the message says what to type instead."""


# -- reading input ----------------------------------------------------------------------
_line_editing: bool | None = None


def line_editing() -> bool:
    """Line editing and history for typed moves (Python's ``readline``: arrow keys, the
    session's earlier lines) when standard input is a terminal; nothing on a pipe."""
    global _line_editing
    if _line_editing is None:
        _line_editing = False
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                import readline

                readline.set_history_length(500)
                _line_editing = True
            except ImportError:  # a Python without readline: plain input
                pass
    return _line_editing


def read_line(prompt: str) -> str:
    """One line of input (prompt shown first). End of input or Ctrl-C raises :class:`Quit`."""
    last = ""
    if line_editing():  # readline redraws the prompt's last line: give it to input() as text
        from rich.text import Text

        head, _, tail = prompt.rpartition("\n")
        if head:
            console.print(head, highlight=False)
        last = Text.from_markup(tail).plain
    else:
        console.print(prompt, end="", highlight=False)
    sys.stdout.flush()
    try:
        line = input(last)
    except EOFError:
        console.print()
        raise Quit("end of input") from None
    except KeyboardInterrupt:
        console.print()
        raise Quit("interrupted") from None
    if not sys.stdin.isatty():  # a pipe: echo, so that the transcript reads like a session
        console.print(escape(line), highlight=False)
    return line.strip()


def ask(prompt: str, default: str) -> str:
    text = read_line(f"{prompt} [dim]\\[{escape(default)}][/]: ")
    if text.lower() in QUIT_WORDS:
        raise Quit("quit")
    return text or default


# -- seats ------------------------------------------------------------------------------
@dataclass
class SeatSpec:
    name: str  # shown on screen and written in the record
    bot: str | None = None  # a bot spec (``greedy``, ``mcts:500``) or None for a person


def parse_seat(text: str, game: str) -> SeatSpec:
    """``ann`` = a person; ``bot:greedy`` or a registered bot's name = that bot."""
    from sheepfold.bots import available_bots
    from sheepfold.core.protocol import SheepfoldError

    text = text.strip()
    if not text:
        raise SheepfoldError("a seat needs a name (a person) or a bot (bot:greedy, bot:random)")
    bots = available_bots(game)
    if text.lower().startswith("bot:"):
        spec = text[4:].strip()
        if spec.partition(":")[0] not in bots:
            raise SheepfoldError(
                f"no bot named {spec.partition(':')[0]!r} for {game} (bots: {', '.join(sorted(bots))})"
            )
        return SeatSpec(f"bot:{spec}", spec)
    if text.partition(":")[0] in bots:
        return SeatSpec(f"bot:{text}", text)
    return SeatSpec(text, None)


def unique_names(specs: list[SeatSpec]) -> None:
    seen: dict[str, int] = {}
    for s in specs:
        k = seen.get(s.name, 0) + 1
        seen[s.name] = k
        if k > 1:
            s.name = f"{s.name} ({k})"


# -- the session ------------------------------------------------------------------------
@dataclass
class Session:
    game: Any
    seats: list[SeatSpec]
    seed: int
    save: Path | None = None
    hide_scores: bool = False
    bots: dict[int, Any] = field(default_factory=dict)
    state: Any = None
    saved: bool = False
    race_explained: bool = False
    #: Dolly Crush: the positions before each move of the person's turn in progress (undo)
    undo_stack: list[Any] = field(default_factory=list)
    #: where ``save`` without a file name writes (--save, else the --load file)
    save_default: Path | None = None
    #: files this session has written (``save`` may write them again)
    written: set[Path] = field(default_factory=set)
    #: --screen: a full screen per person's decision, what changed since they last looked
    screen: bool = False
    log: list[str] = field(default_factory=list)
    last_seen: dict[int, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The names as the terminal shows them (``safe_text``; the record keeps them as given)."""
        return [safe_text(s.name) for s in self.seats]

    @property
    def is_dolly(self) -> bool:
        return isinstance(self.game, DollyGame)

    def who(self, seat: int) -> str:
        return f"[bold]{escape(self.names[seat])}[/]"

    def say(self, text: str) -> None:
        console.print(text, highlight=False)
        if self.screen:
            self.log.append(text)

    # -- drawing -----------------------------------------------------------------------
    def show(self, seat: int | None = None) -> None:
        from sheepfold.cli.render import render_view

        if self.screen:
            if seat is not None and seat not in self.bots:
                self.draw_screen(seat)
            return  # --screen: the bots' turns go to the log, the board waits for a person
        view = self.state.observe(seat)
        console.print()
        console.print(
            render_view(view, self.names, self.hide_scores, getattr(self.game, "points", None))
        )

    def draw_screen(self, seat: int) -> None:
        """``--screen``: the whole screen redrawn for a person: the board as their seat sees
        it, what changed since they last looked underlined (Dolly Crush's cells) and in words,
        and what happened meanwhile."""
        from rich.text import Text

        from sheepfold.cli.render import render_view
        from sheepfold.cli.replay import changed_cells, what_changed

        st = self.state
        last = self.last_seen.get(seat)
        changes = what_changed(last, st, self.names, self.hide_scores) if last is not None else []
        cells = changed_cells(last, st) if last is not None else []
        view = st.observe(seat)
        console.clear()
        console.rule(f"{escape(self.names[seat])} · {GAMES[self.game.name]} · seed {self.seed}")
        console.print(
            render_view(
                view, self.names, self.hide_scores, getattr(self.game, "points", None), cells
            )
        )
        if last is not None:
            console.print(Text("Since you last looked:", style="bold"))
            plain = [Text(t) for t in changes if t != "nothing changed"]  # names as typed
            said = [Text.from_markup(t.strip()) for t in self.log if t.strip()]  # markup
            for line in plain + said[-12:]:
                console.print(Text("  ") + line, highlight=False)
        self.log.clear()
        self.last_seen[seat] = st.clone()

    def settle(self, announce: bool = True) -> list[list[tuple[str, str]]]:
        """Resolve the chance events (draws, rolls) up to the next decision. Dolly Crush:
        return the refill's clean-ups (Dolly Crush ruling 6), each as its (cell, card) pairs, which score
        for nobody; ``announce`` prints them at once."""
        from sheepfold.core.protocol import CHANCE

        st = self.state
        cleanups: list[list[tuple[str, str]]] = []
        while st.current_player() == CHANCE:
            if not self.is_dolly:
                st.apply_unchecked(st.sample_chance(None))
                continue
            from sheepfold.games.dolly_crush.cards import EMPTY

            board = self.game.board
            flock = st.flock[:]
            rounds = st.cleanup_rounds
            card = st.sample_chance(None)
            drawn = flock.index(EMPTY) if EMPTY in flock else -1
            if drawn >= 0:
                flock[drawn] = card
            st.apply_unchecked(card)
            if st.cleanup_rounds > rounds:  # lines out for nobody, cards back into the deck
                cleanups.append(
                    [
                        (board.cell_name(c), board.card_code(flock[c]))
                        for c in range(len(flock))
                        if st.flock[c] == EMPTY and flock[c] != EMPTY
                    ]
                )
        if announce:
            self.announce_cleanups(cleanups)
        return cleanups

    def announce_cleanups(self, cleanups: list[list[tuple[str, str]]]) -> None:
        for removed in cleanups:
            cells = " ".join(cell for cell, _ in removed)
            self.say(
                f"[bold]Clean-up (ruling 6):[/] the refill made lines at {escape(cells)}. "
                f"These {len(removed)} cards score for nobody: they are shuffled back into the "
                "deck and the cells are refilled."
            )

    # -- the game loop -----------------------------------------------------------------
    def run(self) -> None:
        from sheepfold.bots import make_bot

        for i, spec in enumerate(self.seats):
            if spec.bot is not None:
                self.bots[i] = make_bot(spec.bot, self.game, i, seed=self.seed * 31 + i)
        warm_bots([spec.bot for spec in self.seats if spec.bot is not None])
        prepare_bots(list(self.bots.values()))
        if self.state is None:  # else a loaded game (--load): it goes on from its last whole turn
            self.state = self.game.new_initial_state(seed=self.seed)
            self.settle()
        try:
            while not self.state.is_terminal():
                self.step()
        except (Quit, KeyboardInterrupt) as e:
            self.say(f"\nGame stopped ({e or 'interrupted'}).")
            self.finish(stopped=True)
            return
        except Exception:
            self.save_record(stopped=True)  # whatever went wrong, the game so far is kept
            raise
        self.finish(stopped=False)

    def step(self) -> None:
        from sheepfold.core.play import resolve_chance
        from sheepfold.core.protocol import CHANCE

        st = self.state
        p = st.current_player()
        if p == CHANCE:  # not reached after a decision: resolve_chance runs right after it
            resolve_chance(st)
            return
        self.before_decision(p)
        if p in self.bots:
            action = self.bots[p].act(st.observe(p))
            self.say(
                f"{self.who(p)} (bot){self.roll_note()} plays: {escape(self.describe(action))}"
            )
        else:
            action = self.ask_move(p)
            st = self.state  # an undo may have put an earlier position back
        before = st.clone()
        st.apply(action)
        start = len(st.history)
        cleanups = self.settle(announce=False)
        if self.is_dolly and p not in self.bots and st.turns == before.turns:
            self.undo_stack.append(before)  # the turn goes on: its moves can be taken back
        else:
            self.undo_stack.clear()
        self.after_decision(before, action, start)
        self.announce_cleanups(cleanups)

    # -- per-game hooks ----------------------------------------------------------------
    def before_decision(self, p: int) -> None:
        st = self.state
        if self.is_dolly:
            from sheepfold.games.dolly_crush.game import DOG

            if st.phase == DOG:
                self.show(p)
                self.say(f"\n{self.who(p)}'s turn ({self._breed(p)}).")
            elif p not in self.bots:
                self.show(p)
        else:
            from sheepfold.games.shave_a_sheep import game as sg

            if st.phase == sg.CHOOSE and p not in self.bots:
                self.show(p)
            elif st.phase == sg.HOWL_TARGET:
                face = self.game.faces[st.face]
                if not self.race_explained:
                    self.race_explained = True
                    self.say(
                        "[bold]Howling Wolf:[/] a face showing gray starts the race for the wolf. "
                        "At this terminal nobody can be faster than the keyboard, so the grabber "
                        f"is drawn by the engine's chance (reaction weights: {self._weights()})."
                    )
                self.say(
                    f"[bold]Howling Wolf![/] {escape(self.names[st.turn])} rolled {face} "
                    "(the wolf race, then they may grow): "
                    f"{self.who(st.grabber)} grabbed the wolf (drawn by chance) and picks another "
                    "player's sheep to lose a piece."
                )
            elif st.phase == sg.HOWL_GROW and p not in self.bots:
                self.show(p)

    def after_decision(self, before: Any, action: int, start: int) -> None:
        if self.is_dolly:
            self._after_dolly(before, action)
        else:
            self._after_shave(before, action)

    def roll_note(self) -> str:
        """`` rolled white/pink (grow or shear) and`` before a Shave a Sheep roller's choice."""
        st = self.state
        if self.is_dolly:
            return ""
        from sheepfold.games.shave_a_sheep import game as sg

        if st.phase != sg.CHOOSE:
            return ""
        from sheepfold.cli.render import face_text

        i = st.face
        g = self.game
        return f" rolled {face_text(g.faces[i], g.face_actions[i], g.face_races[i])} and"

    def _breed(self, seat: int) -> str:
        from sheepfold.cli.render import BREED_TITLES

        b = self.game.breeds[seat]
        return BREED_TITLES.get(b, b)

    def _weights(self) -> str:
        w = self.game.rules.reaction_weights
        return (
            "equal"
            if w is None
            else ", ".join(f"{escape(self.names[i])} {x:g}" for i, x in enumerate(w))
        )

    def _after_dolly(self, before: Any, action: int) -> None:
        st = self.state
        seat = before.turn
        if st.turns == before.turns:  # the turn goes on (a dog card in play, swaps to make)
            return
        got = st.collected[seat][len(before.collected[seat]) :]
        if not got:
            self.say(f"{self.who(seat)} made no line and takes nothing; the dog card is spent.")
            return
        cells = " ".join(st.observe(None)["last_taken"])
        combination, more = got[: len(st.last_taken)], got[len(st.last_taken) :]
        points = self.game.points

        def sheep(cards: list[int]) -> str:
            black = sum(1 for c in cards if c & 1)
            return f"{len(cards)} sheep{f' ({black} black)' if black else ''}"

        what = f"{sheep(combination)} at {cells}"
        if not self.hide_scores:
            what += f": +{sum(points[c] for c in combination)} points"
        if more:  # cascades (house rule): lines the refill made, taken too
            what += f"; the refill's lines (cascades): {sheep(more)}"
            if not self.hide_scores:
                what += f", +{sum(points[c] for c in more)} points"
        self.say(f"{self.who(seat)} takes {what}.")

    def _after_shave(self, before: Any, action: int) -> None:
        st = self.state
        n = self.game.num_players
        for s in range(n):
            if s == before.current_player():
                continue
            gained = st.piles[s] - before.piles[s]
            if gained > 0 and not st.is_terminal():
                self.say(
                    f"Auto-shear: {self.who(s)}'s full sheep is shorn, {gained} to the safe pile."
                )

    # -- describing actions ------------------------------------------------------------
    def describe(self, action: int) -> str:
        st = self.state
        if self.is_dolly:
            from sheepfold.games.dolly_crush.game import DOG

            if st.phase == DOG:
                k = self.game.dog_swaps[st.turn][action]
                return f"dog {action} ({k} swap{'s' * (k != 1)})"
            return st.action_to_string(action)
        return shave_action_text(st, action, self.names)

    # -- a person's move ---------------------------------------------------------------
    def ask_move(self, p: int) -> int:
        st = self.state
        while True:
            line = read_line(self.prompt(p))
            low = line.lower()
            if low in QUIT_WORDS:
                raise Quit("quit")
            if low in ("help", "h", "?"):
                self.say(self.help_text())
                continue
            if low in ("board", "show", "b", "look"):
                self.show(p)
                continue
            if low in ("hint", "suggest"):
                self.say(self.hint(p))
                continue
            if low == "undo":
                self.undo(p)
                st = self.state
                continue
            if low == "save" or low.startswith("save "):
                self.save_now(line[4:].strip())
                continue
            if not line:
                continue
            try:
                action = (
                    parse_dolly(st, line) if self.is_dolly else parse_shave(st, line, self.names)
                )
            except BadInput as e:
                self.say(f"[red]Not a move:[/] {escape(str(e))}")
                continue
            reason = st.illegal_reason(action)
            if reason is not None:
                self.say(f"[red]Illegal:[/] {escape(reason)}")
                continue
            self.say(f"{self.who(p)} plays: {escape(self.describe(action))}")
            return action

    def undo(self, p: int) -> None:
        """Take back the last move of the person's Dolly Crush turn in progress (a swap, else
        the dog card), as the web app's Undo does; a finished turn is final."""
        if not self.undo_stack:
            if self.is_dolly:
                self.say(
                    "Nothing to undo: undo takes back the swaps of your turn in progress "
                    "(and then its dog card); a finished turn is final."
                )
            else:
                self.say("Nothing to undo: a Shave a Sheep move is final once the die is rolled.")
            return
        self.state = self.undo_stack.pop()
        from sheepfold.games.dolly_crush.game import DOG

        what = "the dog card" if self.state.phase == DOG else "the last swap"
        self.say(f"Undone: {what} is taken back.")
        self.show(p)

    def save_now(self, name: str) -> None:
        """``save [FILE]`` during the game: the record so far (whole turns); the game goes on."""
        from sheepfold.core.records import save_record

        path = Path(name).expanduser() if name else self.save_default
        if path is None:
            self.say("Save where? Type [bold]save FILE[/] (e.g. save game.json).")
            return
        if path.is_dir():
            self.say(f"[red]{escape(str(path))} is a folder:[/] give a file name.")
            return
        if path.exists() and path.resolve() not in self.written and path != self.save_default:
            self.say(
                f"[red]{escape(str(path))} exists already:[/] choose another name "
                "(a game's own --save or --load file may be saved again)."
            )
            return
        try:
            written = save_record(self.state, path, [s.name for s in self.seats])
        except OSError as e:
            self.say(f"[red]Could not save to {escape(str(path))}:[/] {escape(str(e))}")
            return
        self.written.add(written.resolve())
        part = "; your turn in progress is not in it" if self.undo_stack else ""
        self.say(
            f"Saved the game so far (whole turns{part}) in {escape(str(written))}; continue it "
            f"later with: sheepfold play --load {escape(str(written))}"
        )

    def prompt(self, p: int) -> str:
        st = self.state
        name = self.who(p)
        if self.is_dolly:
            from sheepfold.games.dolly_crush.game import DOG

            if st.phase == DOG:
                dogs = ", ".join(
                    f"dog {d} ({self.game.dog_swaps[p][d]} swap{'s' * (self.game.dog_swaps[p][d] != 1)})"
                    for d in st.dogs_left(p)
                )
                return f"{name}, choose a dog card: {dogs}\n> "
            total = self.game.dog_swaps[p][st.dog]
            k = total - st.swaps_left + 1
            if self.game.stop is not None:
                return f"{name}, swap {k} of up to {total} (e.g. b2-b3), or stop:\n> "
            return f"{name}, swap {k} of {total} (e.g. b2-b3):\n> "
        menu = shave_menu(st, self.names)
        items = "  ".join(f"{i}) {escape(t)}" for i, (_, t) in enumerate(menu, start=1))
        from sheepfold.games.shave_a_sheep import game as sg

        if st.phase == sg.HOWL_TARGET:
            head = f"{name}, you grabbed the wolf: whose sheep loses a piece?"
        elif st.phase == sg.HOWL_GROW:
            head = f"{name}, after the wolf you may add a piece to your sheep:"
        else:
            face = self.game.faces[st.face]
            head = f"{name}, you rolled {face}:"
        return f"{head} {items}\n> "

    def help_text(self) -> str:
        common = (
            "  help        this text\n  board       draw the table again\n"
            "  hint        what the greedy bot would play\n"
            "  save [FILE] save the game so far (whole turns); the game goes on\n"
            "  quit        stop (the record is saved with --save)"
        )
        if self.is_dolly:
            return dolly_help(self.game) + common
        return (
            "Shave a Sheep moves (only what the rolled face offers):\n"
            "  1, 2, ...        a number from the menu\n"
            "  grow, double, shear, pass\n"
            "  swap 1, wolf 2   with a seat number (or a player's name)\n"
            "  raid             My friend Mr. Wolf, option B\n" + common
        )

    def hint(self, p: int) -> str:
        from sheepfold.bots import make_bot

        bot = make_bot("greedy", self.game, p, seed=0)
        st = self.state
        action = bot.act(st.observe(p))
        text = f"greedy would play: {self.describe(action)}"
        if self.is_dolly:
            from sheepfold.games.dolly_crush import search
            from sheepfold.games.dolly_crush.game import DOG

            g = self.game
            board = g.board
            n = g.dog_swaps[p][action] if st.phase == DOG else st.swaps_left
            pts, plan = search.best_swaps(st.flock, n, g.points, board, g.stop is not None)
            swaps = ", ".join(
                f"{board.cell_name(board.swaps[i][0])}-{board.cell_name(board.swaps[i][1])}"
                for i in plan
            )
            text += f" (plan: {swaps or 'no swap'}; {pts} points)"
        return escape(text)

    # -- the end -----------------------------------------------------------------------
    def finish(self, stopped: bool) -> None:
        from sheepfold.cli.render import render_view, result_table

        st = self.state
        if st is not None and st.is_terminal():
            view = st.observe(None)
            console.print()
            console.rule("The game is over")
            console.print(render_view(view, self.names, False, getattr(self.game, "points", None)))
            self.say(f"[bold]{escape(self.end_reason())}[/]")
            console.print(result_table(view, self.names))
        self.save_record(stopped)

    def end_reason(self) -> str:
        from sheepfold.cli.render import dolly_end_reason, shave_end_reason

        if self.is_dolly:
            return dolly_end_reason(self.state, self.names)
        return shave_end_reason(self.state, self.names)

    def save_record(self, stopped: bool) -> None:
        from sheepfold.core.records import save_record

        if self.save is None or self.state is None:
            return
        try:
            path = save_record(self.state, self.save, [s.name for s in self.seats])
        except OSError as e:
            self.say(
                f"[red]Could not save the record to {escape(str(self.save))}:[/] {escape(str(e))}"
            )
            return
        self.saved = True
        what = "The game so far (whole turns)" if stopped else "The record"
        self.say(f"{what} is saved in {escape(str(path))} (sheepfold replay {escape(str(path))}).")


def dolly_help(game: Any) -> str:
    """The moves of a Dolly Crush game, in its own rule set's words."""
    from sheepfold.games.dolly_crush.cards import ROW_LETTERS

    board = game.board
    r = game.rules
    last = ROW_LETTERS[board.rows - 1]
    lines = [
        "Dolly Crush moves:",
        f"  dog 2, d2, 2     play dog card 2 (at the start of your turn; cards 0 to "
        f"{game.num_dogs - 1})",
        f"  b2-b3, b2 b3     swap two orthogonally adjacent cards (rows a-{last}, columns "
        f"1-{board.cols})",
        "  undo             take back your last swap, then the dog card (the turn's last swap "
        "is final)",
    ]
    if game.stop is not None:
        lines.append("  stop             end your swaps early (up-to swaps)")
        count = "at most as many swaps as the dog card shows"
    else:
        count = "exactly as many swaps as the dog card shows"
    ways = "along a row, a column or a diagonal" if board.diagonals else "along a row or a column"
    what = (
        "of one type and one colour" if board.match_colour else "of a type (colour never matters)"
    )
    text = (
        f"You make {count}; lines are taken only after the last swap, and every line "
        f"{ways} of {board.min_line}+ cards {what} counts."
    )
    if r.cascades:
        text += " Lines the refill makes are yours too (cascades)."
    lines.append(text)
    return "\n".join(lines) + "\n"


# -- parsing typed moves ----------------------------------------------------------------
_CELL = r"[a-h]\d"
_CELL_PAIR = re.compile(rf"^(?:swap\s+|s\s+)?({_CELL})\s*[-,/ ]?\s*({_CELL})$")
_DOG = re.compile(r"^(?:dog|d)\s*(\d+)$")
_STOP = {"stop", "done", "end"}


def parse_dolly(state: Any, text: str) -> int:
    """A Dolly Crush move from friendly text: ``dog 2``, ``d2``, ``2``, ``b2-b3``, ``b2 b3``;
    ``stop`` under "up-to" swaps. Cells are the game's own (``d7`` on a larger flock)."""
    from sheepfold.core.protocol import IllegalAction
    from sheepfold.games.dolly_crush.game import DOG

    game = state.game
    low = " ".join(text.lower().split())
    if low in _STOP:
        if game.stop is None:
            raise BadInput(
                f"'{text}': these rules want exactly as many swaps as the dog card shows "
                "(ruling 7); there is no stopping early"
            )
        if state.phase == DOG:
            raise BadInput(f"'{text}': choose a dog card first, then swap or stop")
        return int(game.stop)
    m = _DOG.match(low)
    if m or (low.isdigit() and state.phase == DOG):
        digits = m.group(1) if m else low
        if len(digits) > 3 or int(digits) >= game.num_dogs:
            raise BadInput(
                f"there is no dog card {digits}: a player has dog cards 0 to {game.num_dogs - 1}"
            )
        return int(digits)
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


_VERBS = {
    "grow": "grow",
    "white": "grow",
    "g": "grow",
    "double": "double",
    "x2": "double",
    "d": "double",
    "shear": "shear",
    "pink": "shear",
    "s": "shear",
    "swap": "swap",
    "green": "swap",
    "wolf": "wolf",
    "gray": "wolf",
    "grey": "wolf",
    "send": "wolf",
    "w": "wolf",
    "raid": "raid",
    "b": "raid",
    "pass": "pass",
    "no": "pass",
    "skip": "pass",
    "p": "pass",
    "yes": "grow",
}


def shave_action_text(state: Any, action: int, names: list[str]) -> str:
    from sheepfold.games.shave_a_sheep import game as sg

    if sg.SWAP0 <= action < sg.WOLF0:
        k = action - sg.SWAP0
        return f"swap {k} (swap sheep with {names[k]})" if k < len(names) else f"swap {k}"
    if sg.WOLF0 <= action < sg.RAID:
        k = action - sg.WOLF0
        who = names[k] if k < len(names) else f"seat {k}"
        if state.phase == sg.HOWL_TARGET:
            return f"wolf {k} ({who}'s sheep loses a piece)"
        if state.game.rules.mr_wolf:
            return f"wolf {k} (send the wolf to {who}, take a piece)"
        return f"wolf {k} (all wool of {who}'s sheep back to the middle)"
    if action == sg.RAID:
        k = state.wolf
        return f"raid (take up to two pieces of {names[k]}'s sheep)" if k is not None else "raid"
    if action == sg.PASS:
        return "pass (no wool added)" if state.phase == sg.HOWL_GROW else "pass"
    if action == sg.GROW and state.phase == sg.HOWL_GROW:
        return "grow (add a piece to the roller's sheep)"
    return str(sg.action_name(action))


def shave_menu(state: Any, names: list[str]) -> list[tuple[int, str]]:
    return [(a, shave_action_text(state, a, names)) for a in state.legal_actions()]


def parse_shave(state: Any, text: str, names: list[str]) -> int:
    """A Shave a Sheep move: a menu number, or ``grow``, ``shear``, ``swap 1``, ``wolf ann``..."""
    from sheepfold.games.shave_a_sheep import game as sg

    words = text.lower().replace("-", " ").split()
    menu = shave_menu(state, names)
    if len(words) == 1 and words[0].isdigit():
        k = int(words[0])
        if 1 <= k <= len(menu):
            return menu[k - 1][0]
        raise BadInput(f"choose a number from 1 to {len(menu)}, or type the action")
    if not words or words[0] not in _VERBS:
        raise BadInput(
            f"'{text}' is not a move: type a number from the menu, or grow, double, shear, "
            "swap N, wolf N, raid, pass (help for more)"
        )
    verb = _VERBS[words[0]]
    rest = [w for w in words[1:] if w not in ("seat", "with", "to", "on")]
    if verb in ("grow", "double", "shear", "raid", "pass"):
        if rest:
            raise BadInput(f"'{verb}' takes no seat")
        return {
            "grow": sg.GROW,
            "double": sg.DOUBLE,
            "shear": sg.SHEAR,
            "raid": sg.RAID,
            "pass": sg.PASS,
        }[verb]
    base = sg.SWAP0 if verb == "swap" else sg.WOLF0
    if not rest:
        options = [a for a in state.legal_actions() if base <= a < base + sg.MAX_PLAYERS]
        if len(options) == 1:
            return options[0]
        if not options:
            return base  # let the engine say why this verb is not allowed now
        raise BadInput(f"whose sheep? e.g. '{verb} {options[0] - base}' (a seat number or a name)")
    target = " ".join(rest)
    if target.isdigit():
        k = int(target)
        if k >= sg.MAX_PLAYERS:
            raise BadInput(f"there is no seat {k} (seats 0..{len(names) - 1})")
        return base + k
    lowered = [n.lower() for n in names]
    if target in lowered:
        return base + lowered.index(target)
    raise BadInput(f"no player called '{target}' (players: {', '.join(names)})")


# -- set-up -----------------------------------------------------------------------------
def resolve_breed(text: str) -> str:
    """A breed from its name or a unique start of it (``bob`` -> ``bobtail``)."""
    from sheepfold.games.dolly_crush.cards import BREEDS

    t = text.strip().lower().replace(" ", "-")
    if t in BREEDS:
        return t
    hits = [b for b in BREEDS if b.startswith(t)] if t else []
    return hits[0] if len(hits) == 1 else t  # an unknown name: the engine says which exist


def choose_game() -> str:
    console.print("Which game?  1) Dolly Crush   2) Shave a Sheep", highlight=False)
    while True:
        text = ask("game", "1").lower()
        if text in GAME_ANSWERS:
            return GAME_ANSWERS[text]
        console.print("Type 1 (Dolly Crush) or 2 (Shave a Sheep).")


def choose_players(default: int = 2) -> int:
    while True:
        text = ask("How many players (2-4)?", str(default))
        if text.isdigit() and 2 <= int(text) <= 4:
            return int(text)
        console.print("A game has 2 to 4 players.")


def choose_seats(game: str, n: int) -> list[SeatSpec]:
    from sheepfold.bots import available_bots
    from sheepfold.core.protocol import SheepfoldError

    bots = ", ".join(f"bot:{b}" for b in sorted(available_bots(game)))
    console.print(
        f"Who sits where? Type a name for a person at this keyboard, or a bot ({bots}).",
        highlight=False,
    )
    specs = []
    for i in range(n):
        default = "player" if i == 0 else "bot:greedy"
        while True:
            try:
                specs.append(parse_seat(ask(f"seat {i}", default), game))
                break
            except SheepfoldError as e:
                console.print(f"[red]{escape(str(e))}[/]")
    return specs


def choose_breeds(n: int, names: list[str]) -> list[str]:
    from sheepfold.cli.render import BREED_TITLES
    from sheepfold.games.dolly_crush.cards import BREEDS

    console.print(
        "Dog breeds: " + ", ".join(f"{i + 1}) {BREED_TITLES[b]}" for i, b in enumerate(BREEDS)),
        highlight=False,
    )
    chosen: list[str] = []
    for i in range(n):
        free = [b for b in BREEDS if b not in chosen]
        while True:
            text = ask(f"breed for {safe_markup(names[i])}", str(BREEDS.index(free[0]) + 1)).lower()
            pick = None
            if text.isdigit() and 1 <= int(text) <= len(BREEDS):
                pick = BREEDS[int(text) - 1]
            else:
                for b in BREEDS:
                    if text.replace(" ", "-") in (b, b.split("-")[0]):
                        pick = b
            if pick is None:
                console.print("Type a number from the list or a breed's name.")
            elif pick in chosen:
                console.print("That breed is taken: a breed is used by one player at most.")
            else:
                chosen.append(pick)
                break
    return chosen


def choose_rules(game: str) -> str | None:
    from sheepfold.rulesets import all_rulesets

    names = [rs.name for rs in all_rulesets(game)]
    console.print("Rule sets: " + ", ".join(safe_markup(n) for n in names), highlight=False)
    fair = game_spec(game).default_ruleset  # Dolly Crush: fair dog cards unless asked otherwise
    while True:
        text = ask("rules", fair or "rulebook")
        if text == "rulebook" and fair:
            return "dolly-rulebook"
        if text in ("rulebook", ""):
            return None
        if text in names or Path(text).exists():
            return text
        console.print(
            "Type one of the names above, a rule-set file, or press Enter for the rulebook."
        )


def starting_seat(first: str, names: list[str], seed: int | None) -> int:
    """The seat that starts, from --first (a name, a seat number or 'random')."""
    import random

    text = first.strip()
    if text.lower() == "random":
        return (
            random.Random(seed).randrange(len(names))
            if seed is not None
            else random.randrange(len(names))
        )
    if text.isdigit() and int(text) < len(names):
        return int(text)
    if text in names:
        return names.index(text)
    raise fail(
        f"--first {first!r}: not a player's name ({', '.join(names)}), a seat number or 'random'"
    )


# -- the command ------------------------------------------------------------------------
@friendly_errors
def play_command(
    game: str = typer.Argument(None, help="dolly-crush or shave-a-sheep (asked when left out)"),
    seat: list[str] = typer.Option(
        [],
        "--seat",
        metavar="NAME",
        help="one per seat, in seat order: a name = a person at this keyboard; bot:greedy, "
        "bot:random (or any bot's name) = a bot",
    ),
    players: int = typer.Option(
        None,
        "--players",
        min=2,
        max=4,
        metavar="N",
        help="number of players (without --seat: you are asked who sits where)",
    ),
    seed: int = typer.Option(
        None, "--seed", metavar="N", help="seed of the deal / dice (default: a fresh one, shown)"
    ),
    rules: str = typer.Option(
        None, "--rules", metavar="NAME|FILE", help="a rule set's name or a .toml/.json file"
    ),
    sets: list[str] = set_option(),
    variants: list[str] = variant_option(),
    save: Path = typer.Option(
        None,
        "--save",
        metavar="FILE",
        help="write the game's record here at the end (or when you quit)",
    ),
    breed: list[str] = typer.Option(
        [],
        "--breed",
        metavar="BREED",
        help="Dolly Crush: one dog breed per seat, in order (pastore-maremmano, "
        "australian-shepherd, bobtail, border-collie; default: in that order)",
    ),
    hide_scores: bool = typer.Option(
        False, "--hide-scores", help="Dolly Crush: keep running scores hidden (ruling 9)"
    ),
    first: str = typer.Option(
        None,
        "--first",
        metavar="NAME|SEAT|random",
        help="who starts (ruling 4): a player's name, a seat number, or "
        "'random'; the order stays clockwise (default: the first --seat)",
    ),
    force: bool = typer.Option(False, "--force", help="let --save replace an existing file"),
    screen: bool = typer.Option(
        False,
        "--screen",
        help="redraw the whole screen for each of a person's decisions, with what changed "
        "since they last looked highlighted",
    ),
    load: Path = typer.Option(
        None,
        "--load",
        metavar="FILE",
        help="continue a saved game (a record: its game, rules, seed and seats; names "
        "written bot:NAME are bots, the others people at this keyboard)",
    ),
) -> None:
    """Play Dolly Crush or Shave a Sheep at the terminal, people and bots.

    Examples: sheepfold play dolly-crush --seat ann --seat bot:greedy;
    sheepfold play dolly-crush --set rows=4 --set cols=6 --set swaps=up-to --seat ann --seat bot:greedy;
    sheepfold play shave-a-sheep --players 3 (you are asked who sits where).
    """
    from sheepfold.core.protocol import new_seed

    if save is not None:
        _check_save(save, force)
    if load is not None:
        given = [
            flag
            for flag, value in (
                ("GAME", game),
                ("--seat", seat),
                ("--players", players),
                ("--seed", seed),
                ("--rules", rules),
                ("--set", sets),
                ("--variant", variants),
                ("--breed", breed),
                ("--first", first),
            )
            if value
        ]
        if given:
            raise fail(
                f"--load takes the game, rules, seed and seats from the record: drop {', '.join(given)}"
            )
        session = _load_session(load, save, hide_scores)
        session.screen = screen
        session.run()
        if save is not None and not session.saved:
            raise typer.Exit(1)
        return
    opts = PlayOptions(game, seat, players, seed, rules, breed, hide_scores, first, sets, variants)
    try:
        game, g, specs, rules_name = _new_game(opts)
    except Quit:
        console.print("No game started.")
        raise typer.Exit(0) from None
    if seed is None:
        seed = new_seed()
    session = Session(g, specs, seed, save, hide_scores, screen=screen)
    title = GAMES[game]
    console.print(
        f"[bold]{title}[/] · {len(specs)} players · rules: {escape(str(rules_name))} · seed {seed} "
        f"(--seed {seed} deals this game again). Type [bold]help[/] for the moves.",
        highlight=False,
    )
    if session.is_dolly:
        from sheepfold.cli.render import dolly_house_rules

        house = dolly_house_rules(g.rules)
        if house:
            console.print(f"House rules: {escape(', '.join(house))}.", highlight=False)
        console.print(dog_cards_note(g, rules_name), highlight=False)
    session.run()
    if save is not None and not session.saved:
        raise typer.Exit(1)  # said already: the record could not be written


def _load_session(path: Path, save: Path | None, hide_scores: bool) -> Session:
    """A session that goes on from a saved record: the same game, rules, seed and seats (a
    name written ``bot:SPEC`` is that bot; any other name is a person at this keyboard)."""
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.records import RecordError, parse_record, replay

    try:
        data = path.read_bytes()
    except OSError as e:
        raise fail(f"--load {path}: {e.strerror or e}") from None
    try:
        result = replay(data)
        seed = parse_record(data).seed
    except (RecordError, SheepfoldError) as e:
        raise fail(f"--load {path}: not a record sheepfold can continue: {e}") from None
    if result.error is not None:
        raise fail(f"--load {path}: move {result.error.move}: {result.error}")
    st = result.state
    game = st.game.name
    specs: list[SeatSpec] = []
    for name in result.names:
        if name.lower().startswith("bot:"):
            try:
                specs.append(parse_seat(name, game))
            except SheepfoldError as e:
                raise fail(f"--load {path}: seat {name!r}: {e}") from None
            specs[-1].name = name
        else:
            specs.append(SeatSpec(name, None))
    session = Session(st.game, specs, int(seed or 0), save, hide_scores)
    session.state = st
    session.save_default = path
    session.written.add(path.resolve())
    console.print(
        f"[bold]{GAMES[game]}[/] · {len(specs)} players · continued from "
        f"{escape(str(path))} after {result.moves_applied} moves · seats: "
        f"{escape(', '.join(session.names))}. Type [bold]help[/] for the moves.",
        highlight=False,
    )
    if session.is_dolly:
        from sheepfold.cli.render import dolly_house_rules

        house = dolly_house_rules(st.game.rules)
        if house:
            console.print(f"House rules: {escape(', '.join(house))}.", highlight=False)
        console.print(dog_cards_note(st.game, str(st.game.rules.name or "")), highlight=False)
    return session


def dog_cards_note(g: Any, rules_name: str) -> str:
    """The header's word on the dog cards: fair (every seat the same cards), or a warning that
    they decide the game (the printed cards give some breeds 4 swaps, others 1)."""
    from sheepfold.cli.render import BREED_TITLES

    def cards(seat: int) -> str:
        counts = g.dog_swaps[seat]
        if len(set(counts)) == 1:
            return f"{counts[0]} swap{'s' * (counts[0] != 1)} a card"
        return f"{', '.join(str(k) for k in counts)} swaps"

    if len({tuple(s) for s in g.dog_swaps}) == 1:
        what = f"every seat's dog cards: {cards(0)}"
        if str(rules_name).startswith(FAIR_DOLLY):
            return (
                f"Fair dog cards: the graded edition ({FAIR_DOLLY}), {what}. "
                "The printed cards: --rules dolly-rulebook."
            )
        return f"Dog cards: {what}."
    seats = "; ".join(f"{BREED_TITLES.get(b, b)} {cards(i)}" for i, b in enumerate(g.breeds))
    return (
        f"[bold yellow]Warning:[/] unequal dog cards ({escape(seats)}) decide the game; "
        f"--rules {FAIR_DOLLY} is fair."
    )


def _check_save(path: Path, force: bool) -> None:
    """Before the game, not after it: --save must not replace a file unless --force, and its
    folder must be one a file can be written in."""
    if path.is_dir():
        raise fail(f"--save {path}: that is a folder; give a file name")
    if path.exists() and not force:
        raise fail(f"--save {path}: the file exists already; add --force to replace it")
    folder = path.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise fail(f"--save {path}: cannot write in {folder}")


@dataclass
class PlayOptions:
    """``sheepfold play``'s options as typed (``None``: left out, asked or the default)."""

    game: str | None
    seat: list[str]
    players: int | None
    seed: int | None
    rules: str | None
    breed: list[str]
    hide_scores: bool
    first: str | None
    sets: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)


def _new_game(opts: PlayOptions) -> tuple[str, Any, list[SeatSpec], str]:
    """(game name, the game, its seats in playing order, the rule set's name) from the options;
    what they leave out is asked (:class:`Quit` when the player quits instead)."""
    from sheepfold.cli.common import default_rules
    from sheepfold.games import make

    interactive = opts.game is None
    game = _game_name(opts)
    spec = game_spec(game)
    rules = opts.rules
    if rules is None and interactive:
        rules = choose_rules(game)
    # the game's default rule set when none is asked for (Dolly Crush: fair dog cards; the
    # printed ones: --rules dolly-rulebook, or --breed, and the header then warns about
    # unequal cards)
    rules, rules_obj = default_rules(game, rules, opts.sets, opts.variants, bool(opts.breed))
    specs = _seat_specs(game, opts.seat, opts.players)
    unique_names(specs)
    options: dict[str, Any] = {}
    if spec.breeds:
        if opts.breed:
            if len(opts.breed) != len(specs):
                raise fail(
                    f"{len(opts.breed)} --breed options for {len(specs)} seats: give one per seat"
                )
            options["breeds"] = [resolve_breed(b) for b in opts.breed]
        elif interactive:
            options["breeds"] = choose_breeds(len(specs), [s.name for s in specs])
    if opts.first is not None:
        k = starting_seat(opts.first, [s.name for s in specs], opts.seed)
        specs = specs[k:] + specs[:k]
        if "breeds" in options:
            options["breeds"] = options["breeds"][k:] + options["breeds"][:k]
    g = make(game, players=len(specs), rules=rules_obj, **options)
    rules_name = getattr(rules_obj, "name", None) or ("rulebook" if rules is None else rules)
    return game, g, specs, rules_name


def _game_name(opts: PlayOptions) -> str:
    """The game asked for (or chosen now), checked against the options that are one game's."""
    if opts.game is None:
        game = choose_game()
    elif opts.game not in GAMES:
        raise fail(f"unknown game {opts.game!r} (games: {', '.join(GAMES)})")
    else:
        game = opts.game
    spec = game_spec(game)
    if opts.breed and not spec.breeds:
        raise fail("--breed is for Dolly Crush only")
    if opts.hide_scores and not spec.hidden_scores:
        raise fail("--hide-scores is for Dolly Crush (Shave a Sheep's piles are in plain sight)")
    return game


def _seat_specs(game: str, seat: list[str], players: int | None) -> list[SeatSpec]:
    """The seats given with ``--seat`` (checked against ``--players``), else asked for."""
    if seat:
        specs = [parse_seat(s, game) for s in seat]
        if players is not None and players != len(specs):
            raise fail(
                f"--players {players} but {len(specs)} --seat options: give one --seat per player"
            )
        if not 2 <= len(specs) <= 4:
            raise fail(f"a game has 2 to 4 seats, not {len(specs)} (one --seat per player)")
        return specs
    n = players if players is not None else choose_players()
    return choose_seats(game, n)


def register(app: typer.Typer) -> None:
    """Add the play command to the app."""
    app.command("play")(play_command)
