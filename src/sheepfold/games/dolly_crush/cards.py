"""Sheep cards, cells and the flock's lines (Dolly Crush rulings 1, 2 and 5).

A card is a small int: ``type * 2 + colour`` (colour 0 white, 1 black); an empty cell is -1.
Cells are indexes in row order: a1..a5, b1..b5, c1..c5 on the rulebook's 3 x 5 flock.

:class:`Board` is the geometry a rule set plays on (house rules: the flock's rows and columns,
the shortest line, diagonal lines, the number of sheep types, lines that must match in colour);
the module-level names (``ROWS``, ``SWAPS``, :func:`find_lines` ...) are the rulebook board's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: every sheep type a rule set may use, the rulebook's five first
TYPE_NAMES: tuple[str, ...] = (
    "bell",
    "lamb",
    "butterfly",
    "flower",
    "ram",
    "clover",
    "star",
    "heart",
)
TYPES: tuple[str, ...] = TYPE_NAMES[:5]
MAX_ROWS, MAX_COLS = 8, 8
ROW_LETTERS = "abcdefgh"
COLOURS: tuple[str, ...] = ("white", "black")
NUM_KINDS = len(TYPES) * len(COLOURS)  # 10 distinct cards
ROWS, COLS = 3, 5
NUM_CELLS = ROWS * COLS
EMPTY = -1

BREEDS: tuple[str, ...] = ("pastore-maremmano", "australian-shepherd", "bobtail", "border-collie")
BREED_TITLES: dict[str, str] = {
    "pastore-maremmano": "Pastore Maremmano",
    "australian-shepherd": "Australian Shepherd",
    "bobtail": "Bobtail",
    "border-collie": "Border Collie",
}


def card_code(card: int) -> str:
    """``ram-black`` style code of a card id."""
    return f"{TYPES[card >> 1]}-{COLOURS[card & 1]}"


def parse_card(code: str) -> int:
    """Card id of a code like ``ram-black``; ValueError naming the problem otherwise."""
    if not isinstance(code, str) or "-" not in code:
        raise ValueError(f"{code!r} is not a card code (TYPE-COLOUR, e.g. ram-black)")
    t, _, c = code.strip().lower().rpartition("-")
    if t not in TYPES:
        raise ValueError(f"{code!r}: unknown sheep type {t!r} (types: {', '.join(TYPES)})")
    if c not in COLOURS:
        raise ValueError(f"{code!r}: unknown colour {c!r} (white or black)")
    return TYPES.index(t) * 2 + COLOURS.index(c)


def cell_name(cell: int) -> str:
    return f"{'abc'[cell // COLS]}{cell % COLS + 1}"


def parse_cell(name: str) -> int:
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in "abc" or text[1] not in "12345":
        raise ValueError(f"{name!r} is not a cell (a1..c5: row a-c, column 1-5)")
    return "abc".index(text[0]) * COLS + int(text[1]) - 1


def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    pairs = []
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, COLS)
        if c + 1 < COLS:
            pairs.append((cell, cell + 1))
        if r + 1 < ROWS:
            pairs.append((cell, cell + COLS))
    return tuple(pairs)


#: every orthogonally adjacent pair of cells, (lower index, higher index); 22 of them
SWAPS: tuple[tuple[int, int], ...] = _adjacent_pairs()
SWAP_INDEX: dict[tuple[int, int], int] = {p: i for i, p in enumerate(SWAPS)}


def find_lines(flock: Sequence[int]) -> list[int]:
    """Cells of the combination: the union of all maximal runs of >= 3 same-type cards
    (Dolly Crush ruling 5).

    Colour never matters; empty cells never form a line. Returns sorted cells, empty if none.
    """
    hit = [False] * NUM_CELLS
    for r in range(ROWS):
        base = r * COLS
        start = 0
        while start < COLS:
            t = flock[base + start]
            end = start + 1
            if t >= 0:
                tt = t >> 1
                while end < COLS and flock[base + end] >= 0 and flock[base + end] >> 1 == tt:
                    end += 1
                if end - start >= 3:
                    for c in range(start, end):
                        hit[base + c] = True
            start = end
    for c in range(COLS):
        a, b, d = flock[c], flock[c + COLS], flock[c + 2 * COLS]
        if a >= 0 and b >= 0 and d >= 0 and a >> 1 == b >> 1 == d >> 1:
            hit[c] = hit[c + COLS] = hit[c + 2 * COLS] = True
    return [i for i in range(NUM_CELLS) if hit[i]]


def _runs(keys: Sequence[int], min_line: int) -> list[int]:
    """Positions (in ``keys``) of every maximal run of ``min_line`` or more equal keys >= 0."""
    out: list[int] = []
    start = 0
    n = len(keys)
    while start < n:
        end = start + 1
        if keys[start] >= 0:
            while end < n and keys[end] == keys[start]:
                end += 1
            if end - start >= min_line:
                out.extend(range(start, end))
        start = end
    return out


@dataclass(frozen=True)
class Board:
    """The geometry of a flock and what makes a line (Dolly Crush rulings 1 and 5, and their
    house rules). Cells are ``row * cols + col``; a cell is named by its row letter (``a`` at the
    top) and column number (``1`` at the left)."""

    rows: int = 3
    cols: int = 5
    min_line: int = 3
    diagonals: bool = False
    types: int = 5
    match_colour: bool = False
    swaps: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    swap_index: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    directions: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs = []
        for cell in range(self.cells):
            r, c = divmod(cell, self.cols)
            if c + 1 < self.cols:
                pairs.append((cell, cell + 1))
            if r + 1 < self.rows:
                pairs.append((cell, cell + self.cols))
        object.__setattr__(self, "swaps", tuple(pairs))
        object.__setattr__(self, "swap_index", {p: i for i, p in enumerate(pairs)})
        object.__setattr__(self, "directions", tuple(self._segments()))

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def rulebook_geometry(self) -> bool:
        """Whether lines are the rulebook's (Dolly Crush ruling 5): 3 x 5, three or more along rows and
        columns, colour ignored (any number of types)."""
        return (self.rows, self.cols, self.min_line, self.diagonals, self.match_colour) == (
            ROWS,
            COLS,
            3,
            False,
            False,
        )

    @property
    def kinds(self) -> int:
        """Distinct cards: each type in white and in black."""
        return self.types * 2

    @property
    def type_names(self) -> tuple[str, ...]:
        return TYPE_NAMES[: self.types]

    def _segments(self) -> list[tuple[int, ...]]:
        """Every straight run of cells a line can lie on, end to end: the rows, the columns and,
        with diagonal lines, both diagonal directions (only those long enough for a line)."""
        R, C = self.rows, self.cols
        segs = [tuple(r * C + c for c in range(C)) for r in range(R)]
        segs += [tuple(r * C + c for r in range(R)) for c in range(C)]
        if self.diagonals:
            for dc in (1, -1):
                starts = [(0, c) for c in range(C)] + [
                    (r, 0 if dc == 1 else C - 1) for r in range(1, R)
                ]
                for r0, c0 in starts:
                    seg = []
                    r, c = r0, c0
                    while 0 <= r < R and 0 <= c < C:
                        seg.append(r * C + c)
                        r, c = r + 1, c + dc
                    segs.append(tuple(seg))
        return [s for s in segs if len(s) >= self.min_line]

    def find_lines(self, flock: Sequence[int]) -> list[int]:
        """Cells of the combination: the union of every maximal run of ``min_line`` or more cards
        of one type (and one colour, when lines must match in colour) along a row, a column or,
        with diagonal lines, a diagonal. Empty cells never form a line. Sorted; empty if none."""
        hit = [False] * self.cells
        shift = 0 if self.match_colour else 1
        for seg in self.directions:
            keys = [flock[c] >> shift if flock[c] >= 0 else -1 for c in seg]
            for i in _runs(keys, self.min_line):
                hit[seg[i]] = True
        return [i for i in range(self.cells) if hit[i]]

    def cell_name(self, cell: int) -> str:
        return f"{ROW_LETTERS[cell // self.cols]}{cell % self.cols + 1}"

    def parse_cell(self, name: str) -> int:
        text = name.strip().lower()
        last = f"{ROW_LETTERS[self.rows - 1]}{self.cols}"
        if (
            len(text) < 2
            or text[0] not in ROW_LETTERS[: self.rows]
            or not text[1:].isdigit()
            or not 1 <= int(text[1:]) <= self.cols
        ):
            raise ValueError(
                f"{name!r} is not a cell (a1..{last}: row a-{ROW_LETTERS[self.rows - 1]}, "
                f"column 1-{self.cols})"
            )
        return ROW_LETTERS.index(text[0]) * self.cols + int(text[1:]) - 1

    def card_code(self, card: int) -> str:
        """``ram-black`` style code of a card id."""
        return f"{TYPE_NAMES[card >> 1]}-{COLOURS[card & 1]}"

    def parse_card(self, code: str) -> int:
        """Card id of a code like ``ram-black``; ValueError naming the problem otherwise."""
        if not isinstance(code, str) or "-" not in code:
            raise ValueError(f"{code!r} is not a card code (TYPE-COLOUR, e.g. ram-black)")
        t, _, c = code.strip().lower().rpartition("-")
        if t not in self.type_names:
            raise ValueError(
                f"{code!r}: unknown sheep type {t!r} (types: {', '.join(self.type_names)})"
            )
        if c not in COLOURS:
            raise ValueError(f"{code!r}: unknown colour {c!r} (white or black)")
        return self.type_names.index(t) * 2 + COLOURS.index(c)

    def rows_of(self, flock: Sequence[int]) -> list[list[int]]:
        """The flock as a list of rows, top first."""
        C = self.cols
        return [list(flock[r * C : r * C + C]) for r in range(self.rows)]


#: the rulebook's board: 3 x 5, lines of 3 along rows and columns, five types, colour ignored
RULEBOOK_BOARD = Board()
