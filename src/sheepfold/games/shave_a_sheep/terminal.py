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
from sheepfold.games.shave_a_sheep import game as sg
from sheepfold.games.shave_a_sheep.game import ShaveGame, ShaveState

if TYPE_CHECKING:
    from rich.console import RenderableType


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


# -- drawing ------------------------------------------------------------------------------
def face_text(face: str, actions: Sequence[str], races: bool = False) -> str:
    """A die face and what it offers. Under Howling Wolf a face that shows gray always starts
    the race for the wolf (Shave a Sheep ruling 8), after which the roller may grow: it offers
    no choice."""
    if races:
        return f"{face} (the wolf race, then you may grow)"
    return f"{face} ({' or '.join(actions)})"


def wool_bar(wool: int, cap: int) -> str:
    return "#" * wool + "." * max(cap - wool, 0) + f" {wool}/{cap}"


def wolf_text(view: View, names: Sequence[str]) -> str:
    if view["wolf"] is None:
        return "the wolf is in the middle"
    return f"the wolf stands next to {names[view['wolf']]} (seat {view['wolf']})"


def draw(view: View, names: Sequence[str]) -> RenderableType:
    table = Table(box=None, padding=(0, 1))
    for col in ("", "seat", "player", "wool on the sheep", "safe pile", "wolf"):
        table.add_column(col)
    to_move = view["to_move"]
    for s in range(view["players"]):
        table.add_row(
            ">" if to_move == s else "",
            str(s),
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
    if view["roll"] is not None:
        roller = names[view["turn"]]
        acts = view["roll_actions"]
        races = "howling-wolf" in (view.get("variants") or []) and "wolf" in acts
        lines.append(Text(f"{roller} rolled {face_text(view['roll'], acts, races)}"))
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
_PLAIN = {"grow": sg.GROW, "double": sg.DOUBLE, "shear": sg.SHEAR, "raid": sg.RAID, "pass": sg.PASS}


def action_text(state: ShaveState, action: Action, names: Sequence[str]) -> str:
    """A decision in words, with whom it touches (``swap 1 (swap sheep with bob)``)."""
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
        w = state.wolf
        return f"raid (take up to two pieces of {names[w]}'s sheep)" if w is not None else "raid"
    if action == sg.PASS:
        return "pass (no wool added)" if state.phase == sg.HOWL_GROW else "pass"
    if action == sg.GROW and state.phase == sg.HOWL_GROW:
        return "grow (add a piece to the roller's sheep)"
    return str(sg.action_name(action))


def menu(state: ShaveState, names: Sequence[str]) -> list[tuple[Action, str]]:
    return [(a, action_text(state, a, names)) for a in state.legal_actions()]


def parse_move(state: ShaveState, text: str, names: Sequence[str]) -> Action:
    """A Shave a Sheep move: a menu number, or ``grow``, ``shear``, ``swap 1``, ``wolf ann``..."""
    words = text.lower().replace("-", " ").split()
    choices = menu(state, names)
    if len(words) == 1 and words[0].isdigit():
        k = int(words[0])
        if 1 <= k <= len(choices):
            return choices[k - 1][0]
        raise BadInput(f"choose a number from 1 to {len(choices)}, or type the action")
    if not words or words[0] not in _VERBS:
        raise BadInput(
            f"'{text}' is not a move: type a number from the menu, or grow, double, shear, "
            "swap N, wolf N, raid, pass (help for more)"
        )
    verb = _VERBS[words[0]]
    rest = [w for w in words[1:] if w not in ("seat", "with", "to", "on")]
    if verb in _PLAIN:
        if rest:
            raise BadInput(f"'{verb}' takes no seat")
        return _PLAIN[verb]
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

    def draw(
        self, view: View, names: Sequence[str], hide_scores: bool, highlight: Sequence[str]
    ) -> RenderableType:
        return draw(view, names)

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
        ctx.say(
            f"[bold]Howling Wolf![/] {escape(ctx.names[st.turn])} rolled "
            f"{self.shave.faces[st.face]} (the wolf race, then they may grow): "
            f"{ctx.who(st.grabber)} grabbed the wolf (drawn by chance) and picks another "
            "player's sheep to lose a piece."
        )

    def after_decision(
        self, ctx: TerminalContext, before: State, state: State, action: Action
    ) -> None:
        """The other sheep that a move filled up and the auto-shear shore."""
        st, was = _shave(state), _shave(before)
        for s in range(self.shave.num_players):
            if s == was.current_player():
                continue
            gained = st.piles[s] - was.piles[s]
            if gained > 0 and not st.is_terminal():
                ctx.say(
                    f"Auto-shear: {ctx.who(s)}'s full sheep is shorn, {gained} to the safe pile."
                )

    def describe(self, state: State, action: Action, names: Sequence[str]) -> str:
        return action_text(_shave(state), action, names)

    def roll_note(self, state: State) -> str:
        st = _shave(state)
        if st.phase != sg.CHOOSE:
            return ""
        g, i = self.shave, st.face
        return f" rolled {face_text(g.faces[i], g.face_actions[i], g.face_races[i])} and"

    def prompt(self, state: State, seat: Seat, who: str, names: Sequence[str]) -> str:
        st = _shave(state)
        items = "  ".join(f"{i}) {escape(t)}" for i, (_, t) in enumerate(menu(st, names), start=1))
        if st.phase == sg.HOWL_TARGET:
            head = f"{who}, you grabbed the wolf: whose sheep loses a piece?"
        elif st.phase == sg.HOWL_GROW:
            head = f"{who}, after the wolf you may add a piece to your sheep:"
        else:
            head = f"{who}, you rolled {self.shave.faces[st.face]}:"
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
    """Why a finished Shave a Sheep game ended (the engine notes it: ``ended_by``), and what
    the final shear paid back under a shear cost (so the middle it leaves need not be empty)."""
    r = state.game.rules
    if state.truncated:
        return f"The game ended at the turn limit ({r.max_turns} turns): no result."
    if state.ended_by == "middle":
        text = "The game ended because the last piece of wool left the middle"
        text += ": every sheep was shorn one last time." if r.final_shear else " (no final shear)."
    elif state.ended_by == "target":
        reached = [s for s, v in enumerate(state.piles) if v >= (r.target or 0)]
        who = " and ".join(names[s] for s in reached) or "a player"
        text = f"The game ended because {who}'s safe pile reached the target of {r.target}"
        text += ": every sheep was shorn one last time." if r.final_shear else " (no final shear)."
    else:
        text = "The game is over."
    if state.final_paid > 0:
        text += (
            f" The final shear paid {_plural(state.final_paid, 'piece')} back to the middle (a "
            f"shear costs {r.cost}), so the middle shows {state.middle}."
        )
    return text
