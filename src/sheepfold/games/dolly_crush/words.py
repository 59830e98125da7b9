"""Dolly Crush's rules in words, generated from a rule set part by part (docs/spec/rule-language.md):
what the terminal, the table and the gallery say about a rule set. No identifier of ours
appears: every sentence is built from the parts' values.

* :func:`describe`: every part of a rule set, in plain sentences (``{part title: sentences}``);
* :func:`differences`: the parts in which a rule set differs from another (the printed rules
  by default), each with both descriptions: what the gallery shows;
* :func:`summary`: a few words per part that differs from the printed rules (a header line).
"""

from __future__ import annotations

from collections.abc import Sequence

from sheepfold.core.words import Msg, chained, joined
from sheepfold.games.dolly_crush.cards import (
    BREED_TITLES,
    CELL,
    LINE_DIRECTIONS,
    ROW_LETTERS,
    TYPE_NAMES,
    Board,
    Line,
    Pattern,
)
from sheepfold.games.dolly_crush.rules import DollyRules

#: the parts of a rule set, in the order they are described
PARTS = ("flock", "swaps", "combinations", "scoring", "refill", "deck", "dog cards", "end")

_DIRECTION_WORDS = {
    "rows": Msg("a row"),
    "columns": Msg("a column"),
    "diagonals": Msg("a diagonal"),
}
#: the sheep types in sentences (cards.TYPE_NAMES), each its word
_TYPE_WORDS = {
    "bell": Msg("bell"),
    "lamb": Msg("lamb"),
    "butterfly": Msg("butterfly"),
    "flower": Msg("flower"),
    "ram": Msg("ram"),
    "clover": Msg("clover"),
    "star": Msg("star"),
    "heart": Msg("heart"),
}


def _type(name: str) -> str:
    return _TYPE_WORDS.get(name, name)


def _points(k: int) -> str:
    return Msg("1 point") if k == 1 else Msg("{k} points", k=k)


def _commas(items: Sequence[str]) -> str:
    return chained(items, lambda a, b: Msg("{a}, {b}", a=a, b=b))


def _or(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return Msg("{some} or {last}", some=_commas(items[:-1]), last=items[-1])


def _and(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return Msg("{some} and {last}", some=_commas(items[:-1]), last=items[-1])


def _spans(cols: list[int]) -> str:
    """Column numbers (0-based, sorted) as runs: ``1-3, 5``."""
    out, start = [], 0
    for i in range(1, len(cols) + 1):
        if i == len(cols) or cols[i] != cols[i - 1] + 1:
            a, b = cols[start] + 1, cols[i - 1] + 1
            out.append(f"{a}-{b}" if b > a else str(a))
            start = i
    return ", ".join(out)


def _adjacency(board: Board) -> str:
    """How a swap's two cards touch, in words (``orthogonally adjacent``)."""
    both = {"orthogonal": Msg("orthogonally"), "diagonal": Msg("diagonally")}
    how = chained([both[a] for a in board.adjacent], lambda a, b: Msg("{a} or {b}", a=a, b=b))
    return Msg("{how} adjacent", how=how)


def _flock(r: DollyRules) -> str:
    board = r.board()
    if not board.holes:
        return Msg(
            "The flock is {rows} rows by {cols} columns ({cells} cards).",
            rows=r.rows,
            cols=r.cols,
            cells=board.cells,
        )
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
        if len(group) == 1:
            parts.append(
                Msg("row {row} columns {cols}", row=first, cols=cols)
                if cols
                else Msg("row {row} none", row=first)
            )
        else:
            parts.append(
                Msg("rows {first}-{last} columns {cols}", first=first, last=last, cols=cols)
                if cols
                else Msg("rows {first}-{last} none", first=first, last=last)
            )
    return Msg(
        "The flock has {cells} cells on a grid of {rows} rows by {cols} columns ({parts}); the "
        "other places are holes that never hold a card, and the cells keep their row letter and "
        "column number.",
        cells=board.cells,
        rows=r.rows,
        cols=r.cols,
        parts=_commas(parts),
    )


def _swaps(r: DollyRules) -> str:
    how = _adjacency(r.board())
    if r.swaps == "exact":
        return Msg(
            "A swap exchanges two {how} cards. You make exactly as many swaps as your dog card "
            "shows.",
            how=how,
        )
    return Msg(
        "A swap exchanges two {how} cards. You make up to as many swaps as your dog card shows, "
        "and may stop earlier.",
        how=how,
    )


def _pattern_words(p: Pattern) -> str:
    full = all(set(row) == {CELL} for row in p.cells)
    if full:
        rows, cols = len(p.cells), len(p.cells[0])
        if rows == cols:
            return Msg("a {rows} by {cols} square of cards", rows=rows, cols=cols)
        return Msg("a {rows} by {cols} block of cards", rows=rows, cols=cols)
    return Msg("cards in the shape {shape} (X a card, . any cell)", shape=" / ".join(p.cells))


def _combination_words(part: Line | Pattern) -> str:
    if isinstance(part, Line):
        ways = _or([_DIRECTION_WORDS[d] for d in LINE_DIRECTIONS if d in part.directions])
        if part.colour:
            return Msg(
                "a line of {n} or more cards of one type and one colour along {ways} (a longer "
                "line counts whole)",
                n=part.length,
                ways=ways,
            )
        return Msg(
            "a line of {n} or more cards of one type along {ways} (a longer line counts whole)",
            n=part.length,
            ways=ways,
        )
    if part.colour:
        return Msg(
            "{pattern} of one type and one colour, anywhere it fits on the cells, not turned",
            pattern=_pattern_words(part),
        )
    return Msg(
        "{pattern} of one type, anywhere it fits on the cells, not turned",
        pattern=_pattern_words(part),
    )


def _combinations(r: DollyRules) -> str:
    parts = [_combination_words(p) for p in r.board().parts]
    if len(parts) == 1:
        head = Msg("A combination is {part}.", part=parts[0])
    else:
        head = Msg(
            "A combination is any of: {parts}.",
            parts=chained(parts, lambda a, b: Msg("{a}; {b}", a=a, b=b)),
        )
    if not any(p.colour for p in r.board().parts):
        head = Msg("{combinations} Colour never matters.", combinations=head)
    return Msg(
        "{combinations} Combinations are taken after your last swap; a card in several is "
        "taken once.",
        combinations=head,
    )


def _scoring(r: DollyRules) -> str:
    out = [
        Msg(
            "A white sheep scores {white}, a black sheep {black}.",
            white=_points(r.white_points),
            black=_points(r.black_points),
        )
    ]
    for t, pts in r.points.items():
        own = []
        if pts.white is not None:
            own.append(Msg("white {points}", points=_points(pts.white)))
        if pts.black is not None:
            own.append(Msg("black {points}", points=_points(pts.black)))
        if own:
            out.append(
                Msg(
                    "A {type} card scores {points} instead.",
                    type=_type(t),
                    points=chained(own, lambda a, b: Msg("{a} and {b}", a=a, b=b)),
                )
            )
    for b in sorted(r.bonuses, key=lambda b: b.length):
        if b.times == 2:
            out.append(Msg("A card taken in a line of {n} or more scores double.", n=b.length))
        elif b.times == 3:
            out.append(Msg("A card taken in a line of {n} or more scores triple.", n=b.length))
        else:
            out.append(
                Msg(
                    "A card taken in a line of {n} or more scores {times} times its points.",
                    n=b.length,
                    times=b.times,
                )
            )
    if r.bonuses:
        out.append(Msg("A card counts once, at the largest bonus of the lines it lies in."))
    return _sentences(out)


def _sentences(items: Sequence[str]) -> str:
    return chained(items, lambda a, b: Msg("{a} {b}", a=a, b=b))


def _refill(r: DollyRules) -> str:
    if r.refill == "gravity":
        out = Msg(
            "The cards above a taken card fall down its column (over the holes, to the next "
            "cell below); new cards from the top of the deck fill the empty cells at the top, "
            "row a first, left to right."
        )
    else:
        out = Msg(
            "The empty cells are refilled from the top of the deck, row a first, left to right."
        )
    if r.cascades:
        return _sentences(
            [
                out,
                Msg(
                    "Lines the refill makes go to the player whose turn it was, again and again "
                    "(the first deal is cleaned up for nobody)."
                ),
            ]
        )
    rounds = r.max_cleanup_rounds
    return _sentences(
        [
            out,
            Msg(
                "Lines the refill makes are put aside for nobody, refilled, and shuffled back "
                "into the deck (at most 1 time, then the game ends)."
            )
            if rounds == 1
            else Msg(
                "Lines the refill makes are put aside for nobody, refilled, and shuffled back "
                "into the deck (at most {n} times, then the game ends).",
                n=rounds,
            ),
        ]
    )


def _deck(r: DollyRules) -> str:
    types = _and([_type(t) for t in TYPE_NAMES[: r.types]])
    return Msg(
        "The deck holds {n} sheep types ({types}): {white} white and {black} black cards of "
        "each, {cards} cards.",
        n=r.types,
        types=types,
        white=r.white_per_type,
        black=r.black_per_type,
        cards=r.deck_size(),
    )


def _dogs(r: DollyRules) -> str:
    k = r.dogs_per_player
    head = (
        Msg("Each player has 1 dog card of their breed")
        if k == 1
        else Msg("Each player has {k} dog cards of their breed", k=k)
    )
    breeds = []
    for breed, counts in r.dog_swaps.items():
        if len(set(counts)) == 1:
            if counts[0] == 1:
                breeds.append(Msg("{breed} 1 swap each", breed=BREED_TITLES[breed]))
            else:
                breeds.append(Msg("{breed} {k} swaps each", breed=BREED_TITLES[breed], k=counts[0]))
        else:
            breeds.append(
                Msg(
                    "{breed} {counts} swaps",
                    breed=BREED_TITLES[breed],
                    counts=", ".join(str(k) for k in counts),
                )
            )
    return Msg(
        "{head}: {breeds}. A dog card is spent once played.",
        head=head,
        breeds=chained(breeds, lambda a, b: Msg("{a}; {b}", a=a, b=b)),
    )


def _end(r: DollyRules) -> str:
    if r.rounds is None:
        out = Msg("The game ends when the deck runs out or every dog card has been played")
    elif r.rounds == 1:
        out = Msg(
            "The game ends after 1 round (a player whose dog cards are all spent takes them "
            "back) or when the deck runs out"
        )
    else:
        out = Msg(
            "The game ends after {n} rounds (a player whose dog cards are all spent takes "
            "them back) or when the deck runs out",
            n=r.rounds,
        )
    if r.end_points is not None:
        out = Msg("{end}, or after a turn that gives a player {n} points", end=out, n=r.end_points)
    return Msg("{end}. The most points wins.", end=out)


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


# -- the cards' points: the terminal's key, the table's stars, the log -------------------------
def type_word(name: str) -> str:
    """A sheep type's word (``ram``)."""
    return _type(name)


def points_words(k: int) -> str:
    """``1 point``, ``3 points``."""
    return _points(k)


def card_words(code: str, n: int = 1) -> str:
    """A card in words from its code (``ram-black``: ``a black ram``); ``n`` alike cards:
    ``2 black ram cards``."""
    t, _, colour = code.rpartition("-")
    black = colour == "black"
    if n == 1:
        return (
            Msg("a black {type}", type=_type(t)) if black else Msg("a white {type}", type=_type(t))
        )
    if black:
        return Msg("{n} black {type} cards", n=n, type=_type(t))
    return Msg("{n} white {type} cards", n=n, type=_type(t))


def cards_words(codes: Sequence[str]) -> str:
    """Cards in words, alike ones counted together, in their first order (``a black ram,
    a white flower and 2 white lamb cards``)."""
    counts: dict[str, int] = {}
    for code in codes:
        counts[code] = counts.get(code, 0) + 1
    items = [card_words(c, n) for c, n in counts.items()]
    return joined(items) if items else Msg("no card")


#: Dolly Crush ruling 6's end, in the ruling's words: the clean-up cannot leave a flock without
#: lines (the terminal's and the table's end reason, the log, the lab's endings)
RAN_OUT = Msg("the sheep cards ran out: the last cards in the deck kept making lines")


def type_points(rules: DollyRules) -> dict[str, tuple[int, int]]:
    """Each sheep type's points under ``rules``: type -> (a white card's, a black card's)."""
    pts = rules.card_points()
    return {t: (pts[2 * i], pts[2 * i + 1]) for i, t in enumerate(TYPE_NAMES[: rules.types])}


def points_by_type(rules: DollyRules) -> bool:
    """Whether the types' cards score differently (else a colour's points are every type's)."""
    return len(set(type_points(rules).values())) > 1


def _points_phrase(rules: DollyRules) -> str:
    """The points in a few words: ``points: white 1 point, black 2 points``; by type, each type's
    white/black points (``points (white/black): bell 0/2, ram 2/4, other types 1/2``)."""
    points = type_points(rules)
    colours = (rules.white_points, rules.black_points)
    if not points_by_type(rules):
        white, black = next(iter(points.values()))
        return Msg(
            "points: white {white}, black {black}", white=_points(white), black=_points(black)
        )
    own = [
        Msg("{type} {white}/{black}", type=_type(t), white=w, black=b)
        for t, (w, b) in points.items()
        if (w, b) != colours
    ]
    if len(own) < len(points):
        own.append(Msg("other types {white}/{black}", white=colours[0], black=colours[1]))
    return Msg("points (white/black): {types}", types=_commas(own))


def _dogs_phrase(rules: DollyRules) -> str:
    """Each breed's dog cards in a few words (``every breed's dog cards 1, 2, 3, 4 swaps``)."""
    counts = {tuple(c) for c in rules.dog_swaps.values()}
    if len(counts) == 1:
        return Msg(
            "every breed's dog cards {swaps} swaps", swaps=", ".join(map(str, next(iter(counts))))
        )
    return _and(
        [
            Msg("{breed} {swaps} swaps", breed=BREED_TITLES[b], swaps=", ".join(map(str, c)))
            for b, c in rules.dog_swaps.items()
        ]
    )


def _summary_part(part: str, r: DollyRules, base: DollyRules) -> list[str]:
    """A few words on ``part`` of ``r`` (a part that differs from ``base``)."""
    board = r.board()
    out: list[str] = []
    if part == "flock":
        if board.holes:
            out.append(Msg("shaped flock of {n} cells", n=board.cells))
        else:
            out.append(Msg("{rows} x {cols} flock", rows=r.rows, cols=r.cols))
    elif part == "swaps":
        if r.adjacent != base.adjacent:
            out.append(Msg("{how} swaps", how=_adjacency(board)))
        if r.swaps != base.swaps:
            out.append(Msg("up-to swaps") if r.swaps == "up-to" else Msg("exact swaps"))
    elif part == "combinations":
        if r.combinations is None:  # the shorthand's one line
            if r.min_line != base.min_line:
                out.append(Msg("lines of {n}", n=r.min_line))
            if r.diagonals:
                out.append(Msg("diagonal lines"))
            if r.match_colour:
                out.append(Msg("lines match in colour"))
        else:
            out += [_combination_words(p).split(" (")[0].split(",")[0] for p in board.parts]
    elif part == "scoring":
        if type_points(r) != type_points(base):
            out.append(_points_phrase(r))
        for b in r.bonuses:
            out.append(Msg("lines of {n}+ score x{times}", n=b.length, times=b.times))
    elif part == "refill":
        if r.refill != base.refill:
            out.append(Msg("gravity refill") if r.refill == "gravity" else Msg("refill in place"))
        if r.cascades != base.cascades:
            out.append(Msg("cascades") if r.cascades else Msg("no cascades"))
        if not r.cascades and r.max_cleanup_rounds != base.max_cleanup_rounds:
            out.append(Msg("clean-up at most {n} times", n=r.max_cleanup_rounds))
    elif part == "deck":
        if r.types != base.types:
            out.append(Msg("{n} sheep types", n=r.types))
        if (r.white_per_type, r.black_per_type) != (base.white_per_type, base.black_per_type):
            out.append(
                Msg(
                    "{white} white and {black} black cards a type",
                    white=r.white_per_type,
                    black=r.black_per_type,
                )
            )
    elif part == "dog cards":
        if r.dogs_per_player != base.dogs_per_player:
            out.append(Msg("{n} dog cards each", n=r.dogs_per_player))
        if r.dog_swaps != base.dog_swaps:
            out.append(_dogs_phrase(r))
    elif part == "end":
        if r.end_points is not None:
            out.append(Msg("game to {n} points", n=r.end_points))
        if r.rounds is not None:
            out.append(Msg("{n} rounds", n=r.rounds))
    # a part that differs is always said: its whole description when no short words fit
    return out or [_WRITERS[part](r)]


def summary(rules: DollyRules) -> list[str]:
    """A few words for each part in which ``rules`` differ from the printed rules (empty for
    the printed rules): a header's line. Every part :func:`differences` names is said."""
    base = DollyRules()
    return [w for part in differences(rules, base) for w in _summary_part(part, rules, base)]
