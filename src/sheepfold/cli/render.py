"""Drawing a game state for a terminal (rich). Colour-blind safe: every sheep type has a letter."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sheepfold.core.protocol import State

TYPE_LETTERS = {"bell": "B", "lamb": "L", "butterfly": "Y", "flower": "F", "ram": "R"}
TYPE_STYLES = {"bell": "yellow", "lamb": "cyan", "butterfly": "magenta", "flower": "green", "ram": "red"}


def card_text(code: str | None) -> Text:
    """A card as a letter (type) with its colour; black sheep are upper-case on a dark cell."""
    if code is None:
        return Text(" . ", style="dim")
    t, colour = code.rsplit("-", 1)
    letter = TYPE_LETTERS[t]
    if colour == "black":
        return Text(f"[{letter}]", style=f"bold {TYPE_STYLES[t]} on grey23")
    return Text(f" {letter.lower()} ", style=TYPE_STYLES[t])


def render_state(state: State, names: Sequence[str] | None = None) -> RenderableType:
    view = state.observe(None)
    n = state.game.num_players
    names = list(names) if names else [f"seat {i}" for i in range(n)]
    if view["game"] == "dolly-crush":
        grid = Table(show_header=True, box=None, pad_edge=False)
        grid.add_column("")
        for c in range(1, 6):
            grid.add_column(str(c), justify="center")
        for r, row in zip("abc", view["flock"]):
            grid.add_row(r, *[card_text(code) for code in row])
        seats = Table(box=None)
        for col in ("seat", "breed", "dogs left", "points", "cards"):
            seats.add_column(col)
        for s in range(n):
            dogs = " ".join(f"{d}:{view['dog_swaps'][s][d]}" for d in view["dogs_left"][s])
            seats.add_row(names[s], view["breeds"][s], dogs or "-", str(int(view["scores"][s])),
                          str(len(view["collected"][s])))
        status = Text(f"deck: {view['deck_size']} cards")
        return Group(grid, seats, status, _result_line(view, names))
    seats = Table(box=None)
    for col in ("seat", "sheep", "safe pile", "wolf"):
        seats.add_column(col)
    for s in range(n):
        wool = "#" * view["sheep"][s] + "." * (view["max_wool"] - view["sheep"][s])
        seats.add_row(names[s], f"{wool} {view['sheep'][s]}", str(view["piles"][s]),
                      "W" if view["wolf"] == s else "")
    middle = Text(f"wool in the middle: {view['middle']}")
    return Group(middle, seats, _result_line(view, names))


def _result_line(view: dict, names: Sequence[str]) -> Text:
    if view.get("truncated"):
        return Text("The game was stopped (truncated): no result.", style="bold")
    if not view["finished"]:
        return Text("")
    w = view["winners"]
    who = " and ".join(names[s] for s in w)
    return Text(f"{who} win{'s' if len(w) == 1 else ''}!" if w else "No winner.", style="bold")
