"""Drawing a game for a terminal (rich), from a seat's view only.

Colour-blind safe: every sheep type has a letter as well as a colour, and a black sheep is an
upper-case letter in brackets (``[R]``) while a white one is a lower-case letter (`` r ``), so
the flock reads the same with colours off (a pipe, a log file, ``NO_COLOR``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from sheepfold.cli.common import safe_text
from sheepfold.core.protocol import State
from sheepfold.core.registry import game_spec

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
RULEBOOK_TYPES = ("bell", "lamb", "butterfly", "flower", "ram")
BREED_TITLES = {
    "pastore-maremmano": "Pastore Maremmano",
    "australian-shepherd": "Australian Shepherd",
    "bobtail": "Bobtail",
    "border-collie": "Border Collie",
}


def card_text(code: str | None) -> Text:
    """A card as a letter (type) with its colour; black sheep are ``[X]``, white ones `` x ``."""
    if code is None:
        return Text(" . ", style="dim")
    t, colour = code.rsplit("-", 1)
    letter = TYPE_LETTERS[t]
    if colour == "black":
        return Text(f"[{letter}]", style=f"bold {TYPE_STYLES[t]} reverse")
    return Text(f" {letter.lower()} ", style=TYPE_STYLES[t])


def legend(points: Sequence[int] | None = None, types: Sequence[str] = RULEBOOK_TYPES) -> Text:
    """The key to the flock: one letter per type in play, and how black sheep look."""
    out = Text("key: ")
    for i, t in enumerate(types):
        out.append(TYPE_LETTERS[t].lower(), style=TYPE_STYLES[t])
        out.append(f" {t}  " if i < len(types) - 1 else f" {t}")
    white, black = (points[0], points[1]) if points else (1, 2)
    out.append(
        f"\n     lower case = white sheep ({white} pt), [X] = black sheep ({black} pts)"
        " · dogs left: card:swaps"
    )
    return out


def seat_names(n: int, names: Sequence[str] | None) -> list[str]:
    return list(names) if names else [f"seat {i}" for i in range(n)]


def display_names(names: Sequence[str]) -> list[str]:
    """The players' names as a terminal may show them (:func:`~sheepfold.cli.common.safe_text`:
    no control characters or bidi marks; rich markup is still escaped where markup is built)."""
    return [safe_text(n) for n in names]


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


# -- Dolly Crush --------------------------------------------------------------------------
def flock_table(view: dict[str, Any], highlight: Sequence[str] = ()) -> Table:
    """The flock at its rule set's size: rows ``a``.. top to bottom, columns ``1``.. left to
    right (the cells' names)."""
    from sheepfold.games.dolly_crush.cards import ROW_LETTERS

    flock = view["flock"]
    cols = len(flock[0]) if flock else 0
    grid = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
    grid.add_column("", style="bold")
    for c in range(1, cols + 1):
        grid.add_column(str(c), justify="center")
    for r, row in zip(ROW_LETTERS, flock, strict=False):
        cells = []
        for c, code in enumerate(row, start=1):
            t = card_text(code)
            if f"{r}{c}" in highlight:
                t.stylize("underline")
            cells.append(t)
        grid.add_row(r, *cells)
    return grid


def dolly_seats_table(
    view: dict[str, Any], names: Sequence[str], hide_scores: bool = False
) -> Table:
    names = display_names(names)
    table = Table(box=None, padding=(0, 1))
    for col in ("", "seat", "player", "breed", "dogs left", "points", "taken"):
        table.add_column(col)
    to_move = view["to_move"]
    for s in range(view["players"]):
        dogs = " ".join(f"{d}:{view['dog_swaps'][s][d]}" for d in view["dogs_left"][s])
        pts = "hidden" if hide_scores and not view["finished"] else str(int(view["scores"][s]))
        table.add_row(
            ">" if to_move == s else "",
            str(s),
            escape(names[s]),
            BREED_TITLES.get(view["breeds"][s], view["breeds"][s]),
            dogs or "-",
            pts,
            str(len(view["collected"][s])),
        )
    return table


def dolly_status(view: dict[str, Any], names: Sequence[str]) -> Text:
    names = display_names(names)
    parts = [f"deck: {_plural(view['deck_size'], 'card')}"]
    if view["to_move"] is not None and view["phase"] == "swap":
        s = view["turn"]
        left = _plural(view["swaps_left"], "swap")
        if view.get("swaps") == "up-to" or "stop" in (view.get("legal_actions") or ()):
            left = f"up to {left} left ('stop' ends the turn)"
        else:
            left += " left"
        parts.append(f"{names[s]} plays dog {view['dog']}: {left}")
    return Text(" · ".join(parts))


def dolly_house_rules(rules: Any) -> list[str]:
    """The house rules in play, in a few words each (empty for the rulebook's game)."""
    out: list[str] = []
    if (rules.rows, rules.cols) != (3, 5):
        out.append(f"{rules.rows} x {rules.cols} flock")
    if rules.min_line != 3:
        out.append(f"lines of {rules.min_line}")
    if rules.diagonals:
        out.append("diagonal lines")
    if rules.match_colour:
        out.append("lines match in colour")
    if rules.types != 5:
        out.append(f"{rules.types} sheep types")
    if rules.dogs_per_player != 4:
        out.append(f"{rules.dogs_per_player} dog cards each")
    if rules.swaps == "up-to":
        out.append("up-to swaps")
    if rules.cascades:
        out.append("cascades")
    if rules.end_points is not None:
        out.append(f"game to {rules.end_points} points")
    if rules.rounds is not None:
        out.append(f"{rules.rounds} rounds")
    return out


def render_dolly(
    view: dict[str, Any],
    names: Sequence[str],
    hide_scores: bool = False,
    points: Sequence[int] | None = None,
    highlight: Sequence[str] = (),
) -> RenderableType:
    return Group(
        flock_table(view, highlight),
        legend(points, view.get("types") or RULEBOOK_TYPES),
        Text(""),
        dolly_seats_table(view, names, hide_scores),
        dolly_status(view, names),
    )


# -- Shave a Sheep ------------------------------------------------------------------------
FACE_WORDS = {"grow": "grow", "double": "double", "swap": "swap", "wolf": "wolf", "shear": "shear"}


def face_text(face: str, actions: Sequence[str], races: bool = False) -> str:
    """A die face and what it offers. Under Howling Wolf a face that shows gray always starts
    the race for the wolf (Shave a Sheep ruling 8), after which the roller may grow: it offers no choice."""
    if races:
        return f"{face} (the wolf race, then you may grow)"
    return f"{face} ({' or '.join(actions)})"


def wool_bar(wool: int, cap: int) -> str:
    return "#" * wool + "." * max(cap - wool, 0) + f" {wool}/{cap}"


def wolf_text(view: dict[str, Any], names: Sequence[str]) -> str:
    names = display_names(names)
    if view["wolf"] is None:
        return "the wolf is in the middle"
    return f"the wolf stands next to {names[view['wolf']]} (seat {view['wolf']})"


def render_shave(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    names = display_names(names)
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


# -- both ---------------------------------------------------------------------------------
#: each game's drawing of a view: (view, names, hide_scores, points)
RENDERERS: dict[str, Callable[..., RenderableType]] = {
    "dolly-crush": render_dolly,
    "shave-a-sheep": lambda view, names, hide_scores, points: render_shave(view, names),
}


def render_view(
    view: dict[str, Any],
    names: Sequence[str],
    hide_scores: bool = False,
    points: Sequence[int] | None = None,
    highlight: Sequence[str] = (),
) -> RenderableType:
    """Draw what ``view`` (a seat's ``observe``) shows; Dolly Crush's ``highlight`` cells are
    underlined (what changed)."""
    names = display_names(names)
    if highlight and "flock" in view:  # Dolly Crush: its cells can be underlined
        body = render_dolly(view, names, hide_scores, points, highlight)
    else:
        body = RENDERERS[view["game"]](view, names, hide_scores, points)
    if view["finished"]:
        return Group(body, result_line(view, names))
    return body


def render_state(
    state: State,
    names: Sequence[str] | None = None,
    seat: int | None = None,
    hide_scores: bool = False,
    highlight: Sequence[str] = (),
) -> RenderableType:
    """Draw a state as ``seat`` sees it (default: a spectator)."""
    view = state.observe(seat)
    names = seat_names(state.game.num_players, names)
    points = getattr(state.game, "points", None)
    return render_view(view, names, hide_scores, points, highlight)


def result_line(view: dict[str, Any], names: Sequence[str]) -> Text:
    names = display_names(names)
    if view.get("truncated"):
        return Text("The game was stopped (truncated): no result.", style="bold")
    if not view["finished"]:
        return Text("")
    w = view["winners"]
    if not w:
        return Text("No winner.", style="bold")
    if len(w) == 1:
        return Text(f"{names[w[0]]} wins!", style="bold")
    return Text(f"{' and '.join(names[s] for s in w)} share the win!", style="bold")


def result_table(view: dict[str, Any], names: Sequence[str]) -> Table:
    """The final scores, best first."""
    names = display_names(names)
    label = game_spec(view["game"]).score_label
    table = Table(title="Final result", box=None, padding=(0, 1))
    for col in ("", "seat", "player", label):
        table.add_column(col)
    order = sorted(range(view["players"]), key=lambda s: (-view["scores"][s], s))
    for s in order:
        mark = "WINNER" if s in view["winners"] else ""
        sc = view["scores"][s]
        table.add_row(
            mark, str(s), escape(names[s]), str(int(sc) if float(sc).is_integer() else sc)
        )
    return table


# -- why the game ended -------------------------------------------------------------------
def dolly_end_reason(state: Any, names: Sequence[str]) -> str:
    """Why a finished Dolly Crush game ended, in the order the engine checks (Dolly Crush ruling 6's
    clean-up, Dolly Crush ruling 8, then the house rules ``rounds`` and ``end_points``)."""
    from sheepfold.games.dolly_crush.cards import EMPTY

    names = display_names(names)
    g = state.game
    r = g.rules
    if state.aborted:
        return (
            "The game ended because the refill's clean-up gave up after "
            f"{_plural(r.max_cleanup_rounds, 'round')} of lines (ruling 6)."
        )
    if state.turns == 0 and EMPTY in state.flock:
        return "The game ended before it began: the deck could not fill the flock (ruling 8)."
    if not state.deck:
        return "The game ended because the deck ran out (ruling 8)."
    if g.max_turns is None:
        if all(d == state._all_dogs() for d in state.dogs_played):
            return "The game ended because every dog card has been played (ruling 8)."
    elif state.turns >= g.max_turns:
        return f"The game ended after {_plural(r.rounds, 'round')} (house rule rounds)."
    target = r.end_points
    scores = state.scores()
    if target is not None and max(scores) >= target:
        who = " and ".join(names[s] for s, v in enumerate(scores) if v >= target)
        return f"The game ended because {who} reached the points target of {target}."
    return "The game is over."


def shave_end_reason(state: Any, names: Sequence[str]) -> str:
    """Why a finished Shave a Sheep game ended (the engine notes it: ``ended_by``), and what
    the final shear paid back under a shear cost (so the middle it leaves need not be empty)."""
    names = display_names(names)
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
