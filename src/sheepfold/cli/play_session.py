"""A game at the terminal: the loop, a person's turn (the prompt, the commands, the move read
by the game's terminal driver), the end screen and the record.

What differs per game (how the table is drawn, how a move is typed and told) is the game's
:class:`~sheepfold.core.drivers.TerminalDriver`, from its spec; this module knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.markup import escape

from sheepfold.cli.common import console, prepare_bots, warm_bots
from sheepfold.cli.play_setup import SeatSpec
from sheepfold.cli.prompts import QUIT_WORDS, Quit, read_line
from sheepfold.core.drivers import BadInput, TerminalDriver, terminal_driver
from sheepfold.core.registry import game_spec
from sheepfold.core.words import for_players

COMMANDS_HELP = (
    "  help        this text\n  board       draw the table again\n"
    "  hint        what the greedy bot would play\n"
    "  save [FILE] save the game so far (whole turns); the game goes on\n"
    "  quit        stop (the record is saved with --save)"
)


@dataclass
class Session:
    """One game at this terminal: its seats (people and bots), the position, and what the
    game's terminal driver needs of it (:class:`~sheepfold.core.drivers.TerminalContext`)."""

    game: Any
    seats: list[SeatSpec]
    seed: int
    save: Path | None = None
    hide_scores: bool = False
    bots: dict[int, Any] = field(default_factory=dict)
    state: Any = None
    saved: bool = False
    #: the positions before each move of the person's turn in progress (undo)
    undo_stack: list[Any] = field(default_factory=list)
    #: where ``save`` without a file name writes (--save, else the --load file)
    save_default: Path | None = None
    #: files this session has written (``save`` may write them again)
    written: set[Path] = field(default_factory=set)
    #: --screen: a full screen per person's decision, what changed since they last looked
    screen: bool = False
    log: list[str] = field(default_factory=list)
    last_seen: dict[int, Any] = field(default_factory=dict)
    #: the game's terminal driver (its spec's, else the generic one)
    driver: TerminalDriver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = terminal_driver(self.game)

    # -- what a driver may ask (core.drivers.TerminalContext) ---------------------------
    @property
    def names(self) -> list[str]:
        """The names as the terminal shows them (``safe_text``, a bot by its level's words;
        the record keeps them as given)."""
        from sheepfold.cli.render import display_names

        return display_names([s.name for s in self.seats])

    def is_person(self, seat: int) -> bool:
        return seat not in self.bots

    def who(self, seat: int) -> str:
        return f"[bold]{escape(self.names[seat])}[/]"

    def say(self, text: str) -> None:
        console.print(text, highlight=False)
        if self.screen:
            self.log.append(text)

    def show(self, seat: int | None = None) -> None:
        from sheepfold.cli.render import render_view

        if self.screen:
            if seat is not None and seat not in self.bots:
                self.draw_screen(seat)
            return  # --screen: the bots' turns go to the log, the board waits for a person
        console.print()
        console.print(
            render_view(self.driver, self.state.observe(seat), self.names, self.hide_scores)
        )

    def draw_screen(self, seat: int) -> None:
        """``--screen``: the whole screen redrawn for a person: the board as their seat sees
        it, what changed since they last looked marked (the driver's parts) and in words,
        and what happened meanwhile."""
        from rich.text import Text

        from sheepfold.cli.render import render_view

        st = self.state
        last = self.last_seen.get(seat)
        d = self.driver
        changes = d.changes(last, st, self.names, self.hide_scores) if last is not None else []
        cells = d.changed_parts(last, st) if last is not None else []
        console.clear()
        title = game_spec(self.game.name).title
        console.rule(f"{escape(self.names[seat])} · {title} · seed {self.seed}")
        console.print(render_view(d, st.observe(seat), self.names, self.hide_scores, cells))
        if last is not None:
            console.print(Text("Since you last looked:", style="bold"))
            plain = [Text(t) for t in changes]  # names as typed
            said = [Text.from_markup(t.strip()) for t in self.log if t.strip()]  # markup
            for line in plain + said[-12:]:
                console.print(Text("  ") + line, highlight=False)
        self.log.clear()
        self.last_seen[seat] = st.clone()

    def settle(self) -> None:
        """Resolve the chance events (draws, rolls) up to the next decision, told as the game's
        driver tells them."""
        for text in self.driver.settle(self.state):
            self.say(text)

    # -- the game loop -----------------------------------------------------------------
    def run(self) -> None:
        from sheepfold.bots import make_bot

        for i, spec in enumerate(self.seats):
            if spec.bot is not None:
                self.bots[i] = make_bot(spec.bot, self.game, i, seed=self.seed * 31 + i)
        warm_bots([spec.bot for spec in self.seats if spec.bot is not None], self.game)
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
        if p == CHANCE:  # not reached after a decision: the driver settles right after it
            resolve_chance(st)
            return
        self.driver.before_decision(self, st, p)
        if p in self.bots:
            action = self.bots[p].act(st.observe(p))
            note = self.driver.roll_note(st)
            # its name says it is a bot ("Greedy bot": cli/render.py, bot_words)
            self.say(f"{self.who(p)}{note} plays: {escape(self.describe(action))}")
        else:
            action = self.ask_move(p)
            st = self.state  # an undo may have put an earlier position back
        before = st.clone()
        st.apply(action)
        told = self.driver.settle(st)
        if p not in self.bots and self.driver.turn_goes_on(before, st):
            self.undo_stack.append(before)  # the turn goes on: its moves can be taken back
        else:
            self.undo_stack.clear()
        self.driver.after_decision(self, before, st, action)
        for text in told:
            self.say(text)

    def describe(self, action: int) -> str:
        return self.driver.describe(self.state, action, self.names)

    # -- a person's move ---------------------------------------------------------------
    def ask_move(self, p: int) -> int:
        while True:
            line = read_line(self.driver.prompt(self.state, p, self.who(p), self.names))
            if not self.command(p, line):
                action = self.read_move(line)
                if action is not None:
                    self.say(f"{self.who(p)} plays: {escape(self.describe(action))}")
                    return action

    def command(self, p: int, line: str) -> bool:
        """Carry out a command typed instead of a move (True), or nothing (False: a move)."""
        low = line.lower()
        if low in QUIT_WORDS:
            raise Quit("quit")
        if low in ("help", "h", "?"):
            self.say(self.driver.help() + COMMANDS_HELP)
        elif low in ("board", "show", "b", "look"):
            self.show(p)
        elif low in ("hint", "suggest"):
            self.say(self.hint(p))
        elif low == "undo":
            self.undo(p)
        elif low == "save" or low.startswith("save "):
            self.save_now(line[4:].strip())
        else:
            return not line
        return True

    def read_move(self, line: str) -> int | None:
        """The legal move ``line`` names, or None once the player is told what is wrong."""
        st = self.state
        try:
            action = self.driver.parse(st, line, self.names)
        except BadInput as e:
            self.say(f"[red]Not a move:[/] {escape(str(e))}")
            return None
        reason = st.illegal_reason(action)
        if reason is not None:
            self.say(f"[red]Illegal:[/] {escape(for_players(reason))}")
            return None
        return int(action)

    def undo(self, p: int) -> None:
        """Take back the last move of the person's turn in progress (Dolly Crush: a swap,
        else the dog card), as the web app's Undo does; a finished turn is final."""
        if not self.undo_stack:
            self.say(self.driver.no_undo())
            return
        self.state = self.undo_stack.pop()
        self.say(f"Undone: {self.driver.undone(self.state)} is taken back.")
        self.show(p)

    def hint(self, p: int) -> str:
        from sheepfold.bots import available_bots, make_bot

        if "greedy" not in available_bots(self.game.name):
            return f"No hint: {game_spec(self.game.name).title} has no greedy bot."
        bot = make_bot("greedy", self.game, p, seed=0)
        st = self.state
        action = bot.act(st.observe(p))
        text = f"greedy would play: {self.describe(action)}"
        return escape(text + self.driver.hint_detail(st, p, action))

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

    # -- the end -----------------------------------------------------------------------
    def finish(self, stopped: bool) -> None:
        from sheepfold.cli.render import render_view, result_table

        st = self.state
        if st is not None and st.is_terminal():
            view = st.observe(None)
            console.print()
            console.rule("The game is over")
            console.print(render_view(self.driver, view, self.names, False))
            self.say(f"[bold]{escape(self.driver.end_reason(st, self.names))}[/]")
            console.print(result_table(view, self.names))
        self.save_record(stopped)

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
