"""Dolly Crush's rules in words, generated from a rule set part by part (docs/spec/rule-language.md):
what the terminal, the table and the gallery say about a rule set. No identifier of ours
appears: every sentence is built from the parts' values.

* :func:`describe`: every part of a rule set, in plain sentences (``{part title: sentences}``);
* :func:`differences`: the parts in which a rule set differs from another (the printed rules
  by default), each with both descriptions: what the gallery shows;
* :func:`summary`: a few words per part that differs from the printed rules (a header line).
"""

from __future__ import annotations

from sheepfold.games.dolly_crush.cards import (
    BREED_TITLES,
    CELL,
    LINE_DIRECTIONS,
    ROW_LETTERS,
    TYPE_NAMES,
    Line,
    Pattern,
)
from sheepfold.games.dolly_crush.rules import DollyRules

#: the parts of a rule set, in the order they are described
PARTS = ("flock", "swaps", "combinations", "scoring", "refill", "deck", "dog cards", "end")

_TIMES = {2: "double", 3: "triple"}
_DIRECTION_WORDS = {"rows": "a row", "columns": "a column", "diagonals": "a diagonal"}


def _plural(k: int, word: str, many: str | None = None) -> str:
    return f"{k} {word if k == 1 else many or word + 's'}"


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _spans(cols: list[int]) -> str:
    """Column numbers (0-based, sorted) as runs: ``1-3, 5``."""
    out, start = [], 0
    for i in range(1, len(cols) + 1):
        if i == len(cols) or cols[i] != cols[i - 1] + 1:
            a, b = cols[start] + 1, cols[i - 1] + 1
            out.append(f"{a}-{b}" if b > a else str(a))
            start = i
    return ", ".join(out)


def _flock(r: DollyRules) -> str:
    board = r.board()
    if not board.holes:
        return f"The flock is {r.rows} rows by {r.cols} columns ({board.cells} cards)."
    rows: list[tuple[list[int], str]] = []  # (row indexes, their columns), alike rows together
    for row in range(r.rows):
        cols = _spans([c for c in range(r.cols) if (row, c) in board.index])
        if rows and rows[-1][1] == cols:
            rows[-1][0].append(row)
        else:
            rows.append(([row], cols))
    parts = []
    for group, cols in rows:
        first, last = ROW_LETTERS[group[0]], ROW_LETTERS[group[-1]]
        which = f"row {first}" if len(group) == 1 else f"rows {first}-{last}"
        parts.append(f"{which} columns {cols}" if cols else f"{which} none")
    return (
        f"The flock has {board.cells} cells on a grid of {r.rows} rows by {r.cols} columns "
        f"({', '.join(parts)}); the other places are holes that never hold a card, and the "
        "cells keep their row letter and column number."
    )


def _swaps(r: DollyRules) -> str:
    how = r.board().adjacency_words()
    count = (
        "exactly as many swaps as your dog card shows"
        if r.swaps == "exact"
        else "up to as many swaps as your dog card shows, and may stop earlier"
    )
    return f"A swap exchanges two {how} cards. You make {count}."


def _pattern_words(p: Pattern) -> str:
    size = f"{len(p.cells)} by {len(p.cells[0])}"
    full = all(set(row) == {CELL} for row in p.cells)
    if full:
        square = len(p.cells) == len(p.cells[0])
        return f"a {size} {'square' if square else 'block'} of cards"
    return f"cards in the shape {' / '.join(p.cells)} (X a card, . any cell)"


def _combination_words(part: Line | Pattern) -> str:
    what = "of one type and one colour" if part.colour else "of one type"
    if isinstance(part, Line):
        ways = _or([_DIRECTION_WORDS[d] for d in LINE_DIRECTIONS if d in part.directions])
        return f"a line of {part.length} or more cards {what} along {ways} (a longer line counts whole)"
    return f"{_pattern_words(part)} {what}, anywhere it fits on the cells, not turned"


def _combinations(r: DollyRules) -> str:
    parts = [_combination_words(p) for p in r.board().parts]
    colour = "" if any(p.colour for p in r.board().parts) else " Colour never matters."
    if len(parts) == 1:
        head = f"A combination is {parts[0]}."
    else:
        head = "A combination is any of: " + "; ".join(parts) + "."
    return (
        f"{head}{colour} Combinations are taken after your last swap; a card in several is "
        "taken once."
    )


def _scoring(r: DollyRules) -> str:
    out = [
        f"A white sheep scores {_plural(r.white_points, 'point')}, a black sheep "
        f"{_plural(r.black_points, 'point')}."
    ]
    for t, pts in r.points.items():
        own = []
        if pts.white is not None:
            own.append(f"white {_plural(pts.white, 'point')}")
        if pts.black is not None:
            own.append(f"black {_plural(pts.black, 'point')}")
        if own:
            out.append(f"A {t} card scores {' and '.join(own)} instead.")
    for b in sorted(r.bonuses, key=lambda b: b.length):
        times = _TIMES.get(b.times, f"{b.times} times its points")
        out.append(f"A card taken in a line of {b.length} or more scores {times}.")
    if r.bonuses:
        out.append("A card counts once, at the largest bonus of the lines it lies in.")
    return " ".join(out)


def _refill(r: DollyRules) -> str:
    if r.refill == "gravity":
        out = (
            "The cards above a taken card fall down its column (over the holes, to the next "
            "cell below); new cards from the top of the deck fill the empty cells at the top, "
            "row a first, left to right."
        )
    else:
        out = "The empty cells are refilled from the top of the deck, row a first, left to right."
    if r.cascades:
        out += (
            " Lines the refill makes go to the player whose turn it was, again and again "
            "(the first deal is cleaned up for nobody)."
        )
    else:
        out += (
            " Lines the refill makes are put aside for nobody, refilled, and shuffled back into "
            f"the deck (at most {_plural(r.max_cleanup_rounds, 'time')}, then the game ends)."
        )
    return out


def _deck(r: DollyRules) -> str:
    types = _and(list(TYPE_NAMES[: r.types]))
    return (
        f"The deck holds {r.types} sheep types ({types}): {r.white_per_type} white and "
        f"{r.black_per_type} black cards of each, {r.deck_size()} cards."
    )


def _dogs(r: DollyRules) -> str:
    out = [f"Each player has {_plural(r.dogs_per_player, 'dog card')} of their breed"]
    for breed, counts in r.dog_swaps.items():
        if len(set(counts)) == 1:
            shows = f"{_plural(counts[0], 'swap')} each"
        else:
            shows = ", ".join(str(k) for k in counts) + " swaps"
        out.append(f"{BREED_TITLES[breed]} {shows}")
    return out[0] + ": " + "; ".join(out[1:]) + ". A dog card is spent once played."


def _end(r: DollyRules) -> str:
    if r.rounds is None:
        out = "The game ends when the deck runs out or every dog card has been played"
    else:
        out = (
            f"The game ends after {_plural(r.rounds, 'round')} (a player whose dog cards are "
            "all spent takes them back) or when the deck runs out"
        )
    if r.end_points is not None:
        out += f", or after a turn that gives a player {r.end_points} points"
    return out + ". The most points wins."


_WRITERS = {
    "flock": _flock,
    "swaps": _swaps,
    "combinations": _combinations,
    "scoring": _scoring,
    "refill": _refill,
    "deck": _deck,
    "dog cards": _dogs,
    "end": _end,
}


def describe(rules: DollyRules) -> dict[str, str]:
    """Every part of ``rules`` in plain sentences, in :data:`PARTS` order."""
    return {part: _WRITERS[part](rules) for part in PARTS}


def differences(rules: DollyRules, base: DollyRules | None = None) -> dict[str, tuple[str, str]]:
    """The parts in which ``rules`` differ from ``base`` (None: the printed rules): part ->
    (``base``'s words, ``rules``' words), in :data:`PARTS` order. Empty when they play alike."""
    mine, theirs = describe(rules), describe(base or DollyRules())
    return {p: (theirs[p], mine[p]) for p in PARTS if mine[p] != theirs[p]}


def summary(rules: DollyRules) -> list[str]:
    """A few words for each part in which ``rules`` differ from the printed rules (empty for
    the printed rules): a header's line."""
    r = rules
    board = r.board()
    out: list[str] = []
    if board.holes:
        out.append(f"shaped flock of {board.cells} cells")
    elif (r.rows, r.cols) != (3, 5):
        out.append(f"{r.rows} x {r.cols} flock")
    if r.adjacent != ("orthogonal",):
        out.append(f"{board.adjacency_words()} swaps")
    if r.combinations is None:
        if r.min_line != 3:
            out.append(f"lines of {r.min_line}")
        if r.diagonals:
            out.append("diagonal lines")
        if r.match_colour:
            out.append("lines match in colour")
    else:
        out += [_combination_words(p).split(" (")[0].split(",")[0] for p in board.parts]
    if r.points:
        out.append("points by type")
    for b in r.bonuses:
        out.append(f"lines of {b.length}+ score x{b.times}")
    if r.types != 5:
        out.append(f"{r.types} sheep types")
    if r.dogs_per_player != 4:
        out.append(f"{r.dogs_per_player} dog cards each")
    if r.swaps == "up-to":
        out.append("up-to swaps")
    if r.refill == "gravity":
        out.append("gravity refill")
    if r.cascades:
        out.append("cascades")
    if r.end_points is not None:
        out.append(f"game to {r.end_points} points")
    if r.rounds is not None:
        out.append(f"{r.rounds} rounds")
    return out
