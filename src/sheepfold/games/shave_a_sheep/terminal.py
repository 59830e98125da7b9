"""Shave a Sheep at the terminal (:class:`~sheepfold.core.drivers.TerminalDriver`): the sheep
and the piles drawn from a seat's view, the rolled face's choices as a menu, typed moves read
(``grow``, ``swap 1``, ``wolf ann``), the Howling Wolf's race told in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from sheepfold.core.drivers import BadInput, GenericTerminal, TerminalContext
from sheepfold.core.protocol import CHANCE, Action, Game, Seat, State, View
from sheepfold.core.words import Msg, chained
from sheepfold.games.shave_a_sheep import game as sg
from sheepfold.games.shave_a_sheep import words
from sheepfold.games.shave_a_sheep.game import ShaveGame, ShaveState
from sheepfold.games.shave_a_sheep.table import named_seats

if TYPE_CHECKING:
    from rich.console import RenderableType


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


# -- drawing ------------------------------------------------------------------------------
def face_text(game: ShaveGame, i: int) -> str:
    """A die face and what it offers, in the program's words (:func:`.words.face`): a face
    that starts the race for the wolf (Shave a Sheep ruling 8) offers no choice."""
    return words.face(game.program.faces[i], game.program)


def wool_bar(wool: int, cap: int) -> str:
    return "#" * wool + "." * max(cap - wool, 0) + f" {wool}/{cap}"


def wolf_text(view: View, names: Sequence[str]) -> str:
    wolves = view.get("wolves") or [view["wolf"]]
    out = []
    for i, w in enumerate(wolves):
        which = "the wolf" if len(wolves) == 1 else f"the {('first', 'second')[i]} wolf"
        out.append(
            f"{which} is in the middle" if w is None else f"{which} stands next to {names[w]}"
        )
    return "; ".join(out)


def draw(view: View, names: Sequence[str], game: ShaveGame | None = None) -> RenderableType:
    table = Table(box=None, padding=(0, 1))
    for col in ("", "seat", "player", "wool on the sheep", "safe pile", "wolf"):
        table.add_column(col)
    to_move = view["to_move"]
    for s in range(view["players"]):
        table.add_row(
            ">" if to_move == s else "",
            str(s + 1),  # seats counted from 1, as the web counts them
            escape(names[s]),
            wool_bar(view["sheep"][s], view["max_wool"]),
            str(view["piles"][s]),
            "WOLF" if view["wolf"] == s else "",
        )
    lines: list[RenderableType] = [
        Text(f"wool in the middle: {view['middle']}", style="bold"),
        table,
        Text(wolf_text(view, names)),
    ]
    variants = ", ".join(view.get("variants") or []) or "none"
    lines.append(Text(f"die: {', '.join(view['die'])} · variants: {variants}", style="dim"))
    if view.get("teams"):
        teams = "; ".join(" and ".join(names[s] for s in t) for t in view["teams"])
        lines.append(Text(f"teams: {teams} (partners' safe piles count together)"))
    if view["roll"] is not None:
        roller = names[view["turn"]]
        if game is not None:
            rolled = face_text(game, game.faces.index(view["roll"]))
        else:
            rolled = f"{view['roll']} ({' or '.join(view['roll_actions'])})"
        lines.append(Text(f"{roller} rolled {rolled}"))
    return Group(*lines)


# -- reading typed moves --------------------------------------------------------------------
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


def action_text(state: ShaveState, action: Action, names: Sequence[str], told: bool = False) -> str:
    """A decision in words, with whom it touches: the verb's name and seat (what a player
    types) and what it does in the program's words
    (``wolf 1 (take all the wool from bob's sheep back to the middle)``): to the player who
    decides ("onto your sheep"); ``told``: to everyone, once it is made, each player by name
    ("onto ann's sheep")."""
    g = state.game
    verb, k = g.by_id[action]

    def name_of(seat: int) -> str:
        return names[seat] if seat < len(names) else f"player {seat + 1}"

    who = None if k is None else name_of(k)
    said = words.verb_name(verb.name)
    typed = said if who is None else f"{said} {who}"
    wolves = g.program.setup.wolves
    if state.phase == sg.HOWL_TARGET:
        race = g.face_race_verbs[state.face]
        assert race is not None and race.race is not None
        lost = words.amount(race.race.take).removesuffix(",")
        return f"{typed} ({who}'s sheep loses {lost})"
    if action == sg.PASS:
        return "pass (no wool added)" if state.phase == sg.HOWL_GROW else "pass"
    if action == sg.REROLL:
        return "reroll (roll the die again)"
    if verb.words:
        return f"{typed} ({verb.words})"
    if told:  # every player of the move by name (issue 51): never "your" for another's move
        named = named_seats(state, state.current_player(), k, name_of)
        return f"{typed} ({words.effects(verb.effects, named, wolves)})"
    return f"{typed} ({words.effects(verb.effects, who, wolves)})"


def menu(state: ShaveState, names: Sequence[str]) -> list[tuple[Action, str]]:
    return [(a, action_text(state, a, names)) for a in state.legal_actions()]


def parse_move(state: ShaveState, text: str, names: Sequence[str]) -> Action:
    """A Shave a Sheep move: a menu number, or ``grow``, ``shear``, ``swap 1``, ``wolf ann``,
    a rule set's own verb (``steal 1``)..."""
    words_ = text.lower().replace("-", " ").split()
    choices = menu(state, names)
    if len(words_) == 1 and words_[0].isdigit():
        k = int(words_[0])
        if 1 <= k <= len(choices):
            return choices[k - 1][0]
        raise BadInput(f"choose a number from 1 to {len(choices)}, or type the action")
    g = state.game
    own = {v.name.replace("-", " "): v.name for v in g.program.verbs}
    joined = " ".join(words_)
    name = next((own[o] for o in sorted(own, key=len, reverse=True) if joined.startswith(o)), None)
    if name is not None:
        words_ = [name, *joined[len(name.replace("-", " ")) :].split()]
    if not words_ or (words_[0] not in _VERBS and words_[0] not in g.verbs):
        typed = ", ".join(v.name for v in g.program.verbs if v.name not in ("reroll",))
        raise BadInput(
            f"'{text}' is not a move: type a number from the menu, or one of {typed} "
            "(with a seat where it chooses a player; help for more)"
        )
    verb = g.verbs[_VERBS.get(words_[0], words_[0])]
    rest = [w for w in words_[1:] if w not in ("seat", "with", "to", "on")]
    if state.phase == sg.HOWL_TARGET:  # the race's verb picks the seat
        race = g.face_race_verbs[state.face]
        assert race is not None
        verb = race if verb.name == "wolf" or verb is race else verb
    if not verb.targeted:
        if rest:
            raise BadInput(f"'{verb.name}' takes no seat")
        return verb.base
    base = verb.base
    if not rest:
        options = [a for a in state.legal_actions() if base <= a < base + sg.MAX_PLAYERS]
        if len(options) == 1:
            return options[0]
        if not options:
            return base  # let the engine say why this verb is not allowed now
        raise BadInput(
            f"whose sheep? e.g. '{verb.name} {options[0] - base + 1}' (a seat number or a name)"
        )
    target = " ".join(rest)
    if target.isdigit():
        k = int(target)  # seats counted from 1, as the web counts them
        if not 1 <= k <= len(names):
            raise BadInput(f"there is no seat {k} (seats 1 to {len(names)})")
        return base + k - 1
    lowered = [n.lower() for n in names]
    if target in lowered:
        return base + lowered.index(target)
    raise BadInput(f"no player called '{target}' (players: {', '.join(names)})")


HELP = (
    "Shave a Sheep moves (only what the rolled face offers):\n"
    "  1, 2, ...        a number from the menu\n"
    "  grow, double, shear, pass\n"
    "  swap 1, wolf 2   with a seat number (or a player's name)\n"
    "  raid             My friend Mr. Wolf, option B\n"
)


# -- the driver -----------------------------------------------------------------------------
def _shave(state: State) -> ShaveState:
    assert isinstance(state, ShaveState)
    return state


class ShaveTerminal(GenericTerminal):
    """Shave a Sheep at the terminal."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, ShaveGame)
        super().__init__(game)
        self.shave = game
        self.race_explained = False

    def house_rules(self) -> list[str]:
        """What differs from the rulebook, part by part, in the program's words."""
        rulebook = ShaveGame(self.shave.num_players).program
        return words.changed(rulebook, self.shave.program)

    def intro(self, rules_name: str) -> list[str]:
        house = self.house_rules()
        return [f"House rules: {escape('; '.join(house))}."] if house else []

    def draw(
        self, view: View, names: Sequence[str], hide_scores: bool, highlight: Sequence[str]
    ) -> RenderableType:
        return draw(view, names, self.shave)

    def settle(self, state: State) -> list[str]:
        while state.current_player() == CHANCE:
            state.apply_unchecked(state.sample_chance(None))
        return []

    def before_decision(self, ctx: TerminalContext, state: State, seat: Seat) -> None:
        st = _shave(state)
        if st.phase == sg.HOWL_TARGET:
            self.tell_the_race(ctx, st)
        elif st.phase in (sg.CHOOSE, sg.HOWL_GROW) and ctx.is_person(seat):
            ctx.show(seat)

    def tell_the_race(self, ctx: TerminalContext, st: ShaveState) -> None:
        """Howling Wolf: who grabbed the wolf (drawn by the engine's chance at a terminal)."""
        if not self.race_explained:
            self.race_explained = True
            w = self.shave.rules.reaction_weights
            weights = (
                "equal"
                if w is None
                else ", ".join(f"{escape(ctx.names[i])} {x:g}" for i, x in enumerate(w))
            )
            ctx.say(
                "[bold]Howling Wolf:[/] a face showing gray starts the race for the wolf. "
                "At this terminal nobody can be faster than the keyboard, so the grabber "
                f"is drawn by the engine's chance (reaction weights: {weights})."
            )
        race = self.shave.face_race_verbs[st.face]
        assert race is not None and race.race is not None
        lost = words.amount(race.race.take).removesuffix(",")
        then = " or ".join(race.race.then)
        ctx.say(
            f"[bold]Howling Wolf![/] {escape(ctx.names[st.turn])} rolled "
            f"{self.shave.faces[st.face]} (the wolf race, then they may {then}): "
            f"{ctx.who(st.grabber)} grabbed the wolf (drawn by chance) and picks another "
            f"player's sheep to lose {lost}."
        )

    def after_decision(
        self, ctx: TerminalContext, before: State, state: State, action: Action
    ) -> None:
        """What the rules did after the move, as the engine reports it: the auto-shear (with
        its threshold) and each house rule's trigger that changed something, with the wool
        it moved."""
        for line in self.happened(before, state, ctx.names):
            ctx.say(escape(line))

    def happened(self, before: State, after: State, names: Sequence[str]) -> list[str]:
        """The triggers that fired between ``before`` and ``after`` (the engine's report,
        ``ShaveState.fired``), in the program's words."""
        actions = [a for _, a in after.history[len(before.history) :]]
        return words.told(_shave(before), actions, names)

    def describe(self, state: State, action: Action, names: Sequence[str]) -> str:
        return action_text(_shave(state), action, names, told=True)

    def move_words(self, before: State, after: State, names: Sequence[str]) -> str:
        """A whole move (a record's: the rolls, the race, the decisions) in the program's
        words: ``rolled white/pink (grow or shear), shear (shear your sheep onto your safe
        pile)``; what the rules did after it: :meth:`happened`."""
        probe = _shave(before).clone()
        said: list[str] = []
        for _, a in after.history[len(before.history) :]:
            if probe.phase == sg.ROLL:
                said.append(f"rolled {face_text(self.shave, a)}")
            elif probe.phase == sg.GRAB:
                said.append(f"{names[a]} grabbed the wolf")
            else:
                said.append(action_text(probe, a, names, told=True))
            probe.apply_unchecked(a)
        return ", ".join(said)

    def roll_note(self, state: State) -> str:
        st = _shave(state)
        if st.phase != sg.CHOOSE:
            return ""
        return f" rolled {face_text(self.shave, st.face)} and"

    def prompt(self, state: State, seat: Seat, who: str, names: Sequence[str]) -> str:
        st = _shave(state)
        items = "  ".join(f"{i}) {escape(t)}" for i, (_, t) in enumerate(menu(st, names), start=1))
        if st.phase == sg.HOWL_TARGET:
            head = f"{who}, you grabbed the wolf: whose sheep loses a piece?"
        elif st.phase == sg.HOWL_GROW:
            head = f"{who}, after the wolf you may add a piece to your sheep:"
        else:
            head = f"{who}, you rolled {face_text(self.shave, st.face)}:"
        return f"{head} {items}\n> "

    def parse(self, state: State, text: str, names: Sequence[str]) -> Action:
        return parse_move(_shave(state), text, names)

    def help(self) -> str:
        return HELP

    def no_undo(self) -> str:
        return "Nothing to undo: a Shave a Sheep move is final once the die is rolled."

    def end_reason(self, state: State, names: Sequence[str]) -> str:
        return end_reason(_shave(state), names)

    def mover(self, before: State, after: State) -> Seat:
        return _shave(before).turn

    def changes(
        self, before: State, after: State, names: Sequence[str], hide_scores: bool
    ) -> list[str]:
        """The wool in the middle, on each sheep and in each safe pile, and the wolf."""
        out: list[str] = []
        b, a = before.observe(None), after.observe(None)
        if a["middle"] != b["middle"]:
            out.append(f"wool in the middle: {b['middle']} -> {a['middle']}")
        for s in range(a["players"]):
            for key, label in (("sheep", "wool on the sheep"), ("piles", "safe pile")):
                if a[key][s] != b[key][s]:
                    out.append(f"{names[s]}: {label} {b[key][s]} -> {a[key][s]}")
        if a["wolf"] != b["wolf"]:
            where = "the middle" if a["wolf"] is None else f"next to {names[a['wolf']]}"
            out.append(f"the wolf goes to {where}")
        return out


def end_reason(state: ShaveState, names: Sequence[str]) -> str:
    """Why a finished Shave a Sheep game ended (the engine notes it: ``ended_by``), in the
    words of the program's end, and what the final shear paid back under a shear cost (so the
    middle it leaves need not be empty)."""
    prog = state.game.program
    end = prog.end
    text: str
    if state.truncated:
        return Msg("The game ended at the turn limit ({n} turns): no result.", n=prog.max_turns)
    if state.ended_by == "middle":
        if end.final_shear:
            text = Msg(
                "The game ended because the last piece of wool left the middle: every sheep "
                "was shorn one last time."
            )
        else:
            text = Msg(
                "The game ended because the last piece of wool left the middle (no final shear)."
            )
    elif state.ended_by == "target":
        scores = state.scores()
        reached = [names[s] for s, v in enumerate(scores) if v >= (end.target or 0)]
        who = _and(reached) if reached else Msg("a player")
        if prog.teams and end.final_shear:
            text = Msg(
                "The game ended because {who}'s team's safe piles reached the target of "
                "{n}: every sheep was shorn one last time.",
                who=who,
                n=end.target,
            )
        elif prog.teams:
            text = Msg(
                "The game ended because {who}'s team's safe piles reached the target of "
                "{n} (no final shear).",
                who=who,
                n=end.target,
            )
        elif end.final_shear:
            text = Msg(
                "The game ended because {who}'s safe pile reached the target of {n}: every "
                "sheep was shorn one last time.",
                who=who,
                n=end.target,
            )
        else:
            text = Msg(
                "The game ended because {who}'s safe pile reached the target of {n} (no "
                "final shear).",
                who=who,
                n=end.target,
            )
    elif state.ended_by == "turns":
        if end.final_shear:
            text = Msg(
                "The game ended because every player has had {n} turns: every sheep was shorn "
                "one last time.",
                n=end.turns_each,
            )
        else:
            text = Msg(
                "The game ended because every player has had {n} turns (no final shear).",
                n=end.turns_each,
            )
    else:
        text = Msg("The game is over.")
    if state.final_paid > 0:
        paid = Msg("1 piece") if state.final_paid == 1 else Msg("{n} pieces", n=state.final_paid)
        text = Msg(
            "{ended} The final shear paid {paid} back to the middle (a shear costs {cost}), so "
            "the middle shows {middle}.",
            ended=text,
            paid=paid,
            cost=end.final_cost,
            middle=state.middle,
        )
    if prog.teams and state.ended_by:
        scores = state.scores()
        teams = chained(
            [
                Msg("{names}: {n}", names=_and([names[s] for s in t]), n=int(scores[t[0]]))
                for t in prog.teams
            ],
            lambda a, b: Msg("{a}; {b}", a=a, b=b),
        )
        text = Msg(
            "{ended} Teams (partners' safe piles together): {teams}.", ended=text, teams=teams
        )
    return text


def _and(items: list[str]) -> str:
    return chained(items, lambda a, b: Msg("{a} and {b}", a=a, b=b))
