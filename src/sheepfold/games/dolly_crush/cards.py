"""Sheep cards, cells and the flock's lines (Dolly Crush rulings 1, 2 and 5).

A card is a small int: ``type * 2 + colour`` (colour 0 white, 1 black); an empty cell is -1.
Cells are indexes in row order: a1..a5, b1..b5, c1..c5 on the rulebook's 3 x 5 flock.

:class:`Board` is the geometry a rule set plays on (house rules: the flock's rows and columns,
the shortest line, diagonal lines, the number of sheep types, lines that must match in colour);
the module-level names (``ROWS``, ``SWAPS``, :func:`find_lines` ...) are the rulebook board's.
:class:`Board` also carries the rule language's geometric parts (docs/spec/rule-language.md):
the shape (holes), the allowed swaps, the combinations (:class:`Line`, :class:`Pattern`), the
bonuses by length (:class:`Bonus`) and the gravity refill, with the engine's function for each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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


#: the directions a line may lie along, and the (row, column) step of each (a diagonal line lies
#: along either diagonal direction)
LINE_DIRECTIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "rows": ((0, 1),),
    "columns": ((1, 0),),
    "diagonals": ((1, 1), (1, -1)),
}
#: the swaps a rule set may allow, and the (row, column) steps to a cell's later neighbours
ADJACENCY: dict[str, tuple[tuple[int, int], ...]] = {
    "orthogonal": ((0, 1), (1, 0)),
    "diagonal": ((1, 1), (1, -1)),
}
HOLE = "."
CELL = "X"


@dataclass(frozen=True)
class Line:
    """A combination part: ``length`` or more cards in a row along one of ``directions``, of
    one type (and one colour with ``colour``); a longer run counts whole."""

    length: int = 3
    directions: tuple[str, ...] = ("rows", "columns")
    colour: bool = False


@dataclass(frozen=True)
class Pattern:
    """A combination part: cards on the ``X`` cells of ``cells`` (rows of ``X`` and ``.``),
    placed anywhere it fits on the flock's cells (not rotated), all of one type (and one colour
    with ``colour``)."""

    cells: tuple[str, ...] = ("XX", "XX")
    colour: bool = False

    def offsets(self) -> tuple[tuple[int, int], ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.cells) for c, ch in enumerate(row) if ch == CELL
        )


Combination = Line | Pattern


@dataclass(frozen=True)
class Bonus:
    """A scoring part: a card taken in a line of ``length`` or more cards scores ``times`` its
    points (a card counts once, at the largest bonus of the lines it lies in)."""

    length: int
    times: int


@dataclass(frozen=True)
class Board:
    """The geometry of a flock and what makes a combination (Dolly Crush rulings 1 and 5, and the
    rule language's parts: docs/spec/rule-language.md). A flock is ``rows`` x ``cols`` with the
    holes of ``shape`` (rows of ``X`` a cell, ``.`` a hole; None: every cell); cells are numbered
    in row order over the cells only (on a full rectangle ``row * cols + col``) and named by
    their row letter (``a`` at the top) and column number (``1`` at the left).

    ``combinations`` (None: one :class:`Line` of ``min_line`` along the rows, the columns and
    with ``diagonals`` the diagonals, colour with ``match_colour``), ``adjacent`` (the swaps),
    ``bonuses`` and ``gravity`` (the refill) are the language's parts; the engine's functions
    for them are here (:meth:`find_lines`, :meth:`score`, :meth:`fall`), the kernel's in
    :mod:`.kernel.grid`."""

    rows: int = 3
    cols: int = 5
    min_line: int = 3
    diagonals: bool = False
    types: int = 5
    match_colour: bool = False
    shape: tuple[str, ...] | None = None
    adjacent: tuple[str, ...] = ("orthogonal",)
    combinations: tuple[Combination, ...] | None = None
    bonuses: tuple[Bonus, ...] = ()
    gravity: bool = False
    coords: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    index: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    parts: tuple[Combination, ...] = field(init=False, repr=False, compare=False)
    swaps: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    swap_index: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    segments: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)
    placements: tuple[tuple[tuple[int, ...], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    columns: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shape = self.shape or tuple(CELL * self.cols for _ in range(self.rows))
        coords = tuple(
            (r, c) for r in range(self.rows) for c in range(self.cols) if shape[r][c] == CELL
        )
        index = {rc: i for i, rc in enumerate(coords)}
        parts = self.combinations
        if parts is None:
            dirs = ("rows", "columns", "diagonals") if self.diagonals else ("rows", "columns")
            parts = (Line(self.min_line, dirs, self.match_colour),)
        pairs = []
        for cell, (r, c) in enumerate(coords):  # each cell's later neighbours, in this order
            for kind in self.adjacent:
                for dr, dc in ADJACENCY[kind]:
                    other = index.get((r + dr, c + dc))
                    if other is not None:
                        pairs.append((cell, other))
        segments: list[tuple[tuple[int, ...], ...]] = []
        placements: list[tuple[tuple[int, ...], ...]] = []
        for part in parts:
            if isinstance(part, Line):
                segs = self._segments(index, part.directions)
                segments.append(tuple(s for s in segs if len(s) >= part.length))
                placements.append(())
            else:
                segments.append(())
                placements.append(self._placements(index, part))
        columns = tuple(
            tuple(index[(r, c)] for r in range(self.rows) if (r, c) in index)
            for c in range(self.cols)
        )
        set_ = object.__setattr__
        set_(self, "coords", coords)
        set_(self, "index", index)
        set_(self, "parts", parts)
        set_(self, "swaps", tuple(pairs))
        set_(self, "swap_index", {p: i for i, p in enumerate(pairs)})
        set_(self, "segments", tuple(segments))
        set_(self, "placements", tuple(placements))
        set_(self, "columns", tuple(c for c in columns if c))

    def _segments(
        self, index: dict[tuple[int, int], int], directions: Sequence[str]
    ) -> list[tuple[int, ...]]:
        """Every straight run of cells a line can lie on along ``directions``, end to end (a
        hole ends a run): rows first, then columns, then both diagonal directions."""
        out = []
        for name in ("rows", "columns", "diagonals"):
            if name not in directions:
                continue
            for dr, dc in LINE_DIRECTIONS[name]:
                for r0 in range(self.rows):
                    for c0 in range(self.cols):
                        if (r0, c0) not in index or (r0 - dr, c0 - dc) in index:
                            continue  # not a cell, or not the first cell of its run
                        seg = []
                        r, c = r0, c0
                        while (r, c) in index:
                            seg.append(index[(r, c)])
                            r, c = r + dr, c + dc
                        out.append(tuple(seg))
        return out

    def _placements(
        self, index: dict[tuple[int, int], int], pattern: Pattern
    ) -> tuple[tuple[int, ...], ...]:
        """The cells of every placement of ``pattern`` that lies on cells only, in row order."""
        offs = pattern.offsets()
        out = []
        for r in range(self.rows):
            for c in range(self.cols):
                cells = [index.get((r + dr, c + dc)) for dr, dc in offs]
                if all(x is not None for x in cells):
                    out.append(tuple(x for x in cells if x is not None))
        return tuple(out)

    @property
    def cells(self) -> int:
        return len(self.coords)

    @property
    def holes(self) -> bool:
        """Whether the flock's shape has holes."""
        return self.cells < self.rows * self.cols

    @property
    def rulebook_geometry(self) -> bool:
        """Whether this is the rulebook's geometry (Dolly Crush rulings 1, 5, 6 and 7): 3 x 5
        with no hole, orthogonal swaps, lines of three or more along rows and columns, colour
        ignored, no bonus, refilled in place (any number of types)."""
        return (
            (self.rows, self.cols) == (ROWS, COLS)
            and not self.holes
            and self.adjacent == ("orthogonal",)
            and self.parts == (Line(),)
            and not self.bonuses
            and not self.gravity
        )

    @property
    def kinds(self) -> int:
        """Distinct cards: each type in white and in black."""
        return self.types * 2

    @property
    def type_names(self) -> tuple[str, ...]:
        return TYPE_NAMES[: self.types]

    @property
    def line_parts(self) -> tuple[tuple[Line, tuple[tuple[int, ...], ...]], ...]:
        """Each line combination with the runs of cells it may lie on."""
        return tuple(
            (p, s) for p, s in zip(self.parts, self.segments, strict=True) if isinstance(p, Line)
        )

    def find_lines(self, flock: Sequence[int]) -> list[int]:
        """Cells of the combination: the union of every part's cells. A line part: every
        maximal run of ``length`` or more cards of one type (and one colour) along its
        directions; a pattern part: every placement whose cards are all of one type (and one
        colour). A card in several counts once; empty cells never count. Sorted; empty if none."""
        hit = [False] * self.cells
        for part, segs, places in zip(self.parts, self.segments, self.placements, strict=True):
            shift = 0 if part.colour else 1
            if isinstance(part, Line):
                for seg in segs:
                    keys = [flock[c] >> shift if flock[c] >= 0 else -1 for c in seg]
                    for i in _runs(keys, part.length):
                        hit[seg[i]] = True
            else:
                for cells in places:
                    first = flock[cells[0]]
                    if first >= 0 and all(
                        flock[c] >= 0 and flock[c] >> shift == first >> shift for c in cells
                    ):
                        for c in cells:
                            hit[c] = True
        return [i for i in range(self.cells) if hit[i]]

    def multipliers(self, flock: Sequence[int]) -> dict[int, int]:
        """The bonuses by length: cell -> times, for every card in a line (of a line part, of at
        least its length) of a bonus's length or more (the largest bonus of its lines)."""
        out: dict[int, int] = {}
        for bonus in self.bonuses:
            for part, segs in self.line_parts:
                shift = 0 if part.colour else 1
                for seg in segs:
                    keys = [flock[c] >> shift if flock[c] >= 0 else -1 for c in seg]
                    for i in _runs(keys, max(bonus.length, part.length)):
                        out[seg[i]] = max(out.get(seg[i], 1), bonus.times)
        return out

    def score(self, flock: Sequence[int], points: Sequence[int]) -> int:
        """The points of the combination of ``flock`` (``points`` by card id), bonuses
        included: each card once."""
        times = self.multipliers(flock) if self.bonuses else {}
        return sum(points[flock[c]] * times.get(c, 1) for c in self.find_lines(flock))

    def fall(self, flock: list[int]) -> None:
        """Gravity (in place): the cards of each column fall down to its lowest cells, in their
        order (over the shape's holes: a card falls to the next cell of its column below); the
        empty cells are then at the top of each column. Nothing moves when refilled in place."""
        if not self.gravity:
            return
        for col in self.columns:
            cards = [flock[c] for c in col if flock[c] >= 0]
            gap = len(col) - len(cards)
            for i, c in enumerate(col):
                flock[c] = EMPTY if i < gap else cards[i - gap]

    def adjacency_words(self) -> str:
        """How a swap's two cards touch, in words."""
        both = {"orthogonal": "orthogonally", "diagonal": "diagonally"}
        return " or ".join(both[a] for a in self.adjacent) + " adjacent"

    def cell_name(self, cell: int) -> str:
        r, c = self.coords[cell]
        return f"{ROW_LETTERS[r]}{c + 1}"

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
        rc = (ROW_LETTERS.index(text[0]), int(text[1:]) - 1)
        if rc not in self.index:
            raise ValueError(f"{text} is a hole of this flock's shape: no card lies there")
        return self.index[rc]

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

    def rows_of(self, flock: Sequence[int]) -> list[list[int | None]]:
        """The flock as a list of rows, top first (None at a hole of the shape)."""
        out: list[list[int | None]] = [[None] * self.cols for _ in range(self.rows)]
        for cell, (r, c) in enumerate(self.coords):
            out[r][c] = flock[cell]
        return out

    def from_rows(self, rows: Sequence[Sequence[Any]]) -> list[Any]:
        """The cells of a flock given as rows (the inverse of :meth:`rows_of`: holes skipped)."""
        return [rows[r][c] for r, c in self.coords]


#: the rulebook's board: 3 x 5, lines of 3 along rows and columns, five types, colour ignored
RULEBOOK_BOARD = Board()
