"""Sheep cards, cells and the flock's lines (Dolly Crush rulings 1, 2 and 5).

A card is a small int: ``type * 2 + colour`` (colour 0 white, 1 black); an empty cell is -1.
Cells are indexes 0..14 in a1..a5, b1..b5, c1..c5 order.
"""

from __future__ import annotations

from collections.abc import Sequence

TYPES: tuple[str, ...] = ("bell", "lamb", "butterfly", "flower", "ram")
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


def card_type(card: int) -> int:
    return card >> 1


def card_is_black(card: int) -> bool:
    return bool(card & 1)


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
