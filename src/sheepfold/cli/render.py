"""Drawing a game for a terminal (rich), from a seat's view only: the game's own drawing (its
terminal driver, :mod:`sheepfold.core.drivers`), the result line and the final table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from sheepfold.cli.common import safe_text
from sheepfold.core.drivers import TerminalDriver, terminal_driver
from sheepfold.core.protocol import State
from sheepfold.core.registry import game_spec


def seat_names(n: int, names: Sequence[str] | None) -> list[str]:
    return list(names) if names else [f"seat {i}" for i in range(n)]


def display_names(names: Sequence[str]) -> list[str]:
    """The players' names as a terminal may show them (:func:`~sheepfold.cli.common.safe_text`:
    no control characters or bidi marks; rich markup is still escaped where markup is built),
    each bot by its level in words (:func:`bot_words`)."""
    return [safe_text(bot_words(n)) for n in names]


def bot_words(name: str) -> str:
    """A bot seat's name in words: a record names a bot by its spec (``bot:greedy``, a second
    one ``bot:greedy (2)``; the record keeps it so), a person reads its level ("Greedy bot",
    "Greedy bot (2)"). Any other name as it is."""
    from sheepfold.bots.levels import level_words

    if not name.lower().startswith("bot:"):
        return name
    spec, paren, rest = name[len("bot:") :].partition(" (")
    return f"{level_words(spec.strip())} bot{' (' if paren else ''}{rest}"


def render_view(
    driver: TerminalDriver,
    view: dict[str, Any],
    names: Sequence[str],
    hide_scores: bool = False,
    highlight: Sequence[str] = (),
) -> RenderableType:
    """Draw what ``view`` (a seat's ``observe``) shows, as the game's driver draws it
    (``highlight``: the parts a move changed, e.g. Dolly Crush's cells, are marked)."""
    names = display_names(names)
    body = driver.draw(view, names, hide_scores, highlight)
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
    return render_view(terminal_driver(state.game), view, names, hide_scores, highlight)


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
