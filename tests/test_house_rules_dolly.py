"""One test per Dolly Crush house rule (the options of ``DollyRules`` beyond the rulebook), on
hand-built positions: an explicit deck (top card first), dealt by the engine.

Notation as in ``test_rulings_dolly.py``: one letter per card, ``b`` bell, ``l`` lamb, ``y``
butterfly, ``f`` flower, ``r`` ram, ``c`` clover, ``s`` star, ``h`` heart; upper case = black.
Spaces separate rows for the reader only.
"""

from __future__ import annotations

import random

import pytest

from sheepfold.core.conformance import check_game
from sheepfold.core.play import resolve_chance
from sheepfold.core.protocol import IllegalAction
from sheepfold.games import make
from sheepfold.games.dolly_crush.game import DOG, OVER, SWAP, DollyGame, DollyState

LETTERS = {
    "b": "bell",
    "l": "lamb",
    "y": "butterfly",
    "f": "flower",
    "r": "ram",
    "c": "clover",
    "s": "star",
    "h": "heart",
}
# filler the refills draw from: no three of a kind in a row of it
FILLER = "ylfrbyflrb" * 4


def codes(text: str) -> list[str]:
    return [
        f"{LETTERS[ch.lower()]}-{'black' if ch.isupper() else 'white'}"
        for ch in text
        if not ch.isspace()
    ]


def deal(deck: str, players: int = 2, **rules: object) -> DollyState:
    game = make("dolly-crush", players, **rules)
    assert isinstance(game, DollyGame)
    s = game.new_initial_state(seed=0, deck=codes(deck))
    resolve_chance(s)
    return s


def text(s: DollyState) -> str:
    def letter(c: int) -> str:
        if c < 0:
            return "."
        ch = "blyfrcsh"[c >> 1]
        return ch.upper() if c & 1 else ch

    return " ".join("".join(letter(c) for c in row) for row in s.game.board.rows_of(s.flock))


def turn(s: DollyState, dog: int, *swaps: str, stop: bool = False) -> None:
    s.apply(dog)
    for sw in swaps:
        a, b = sw.split("-")
        s.apply(s.game.swap_action(a, b))
    if stop:
        s.apply(s.string_to_action("stop"))
    resolve_chance(s)


def test_house_rule_board_size_and_cell_names() -> None:
    g = make("dolly-crush", 2, rows=4, cols=6)
    assert isinstance(g, DollyGame)
    assert (g.board.rows, g.board.cols, g.board.cells) == (4, 6, 24)
    assert len(g.board.swaps) == 4 * 5 + 3 * 6
    assert g.swap0 == g.num_dogs == 4 and g.stop is None
    assert g.num_actions == g.info.num_distinct_actions == 4 + 38
    assert g.action_name(g.swap0) == "swap a1-a2" and g.action_name(g.swap0 + 1) == "swap a1-b1"
    assert g.swap_action("d6", "c6") == g.swap0 + g.board.swap_index[(17, 23)]
    with pytest.raises(IllegalAction, match="not adjacent"):
        g.swap_action("a1", "b2")
    s = g.new_initial_state(seed=3)
    resolve_chance(s)
    v = s.observe(0)
    assert (v["rows"], v["cols"], v["turns"]) == (4, 6, 0)
    assert len(v["flock"]) == 4 and all(len(r) == 6 for r in v["flock"])
    assert s.game.board.find_lines(s.flock) == []  # Dolly Crush ruling 6 on any board
    # the rulebook's ids are unchanged
    r = make("dolly-crush", 2)
    assert isinstance(r, DollyGame)
    assert (r.num_dogs, r.swap0, r.stop, r.num_actions) == (4, 4, None, 26)


def test_house_rule_min_line_four() -> None:
    flock = "bbblb lyfry yfrly"  # a row of three bells is no line with min_line 4
    s = deal(flock + FILLER, min_line=4)
    assert text(s) == "bbblb lyfry yfrly"  # dealt as is: no clean-up
    turn(s, 0, "a4-a5")  # bbbbl: four bells
    assert s.scores() == [4.0, 0.0]
    assert s.last_taken == (0, 1, 2, 3)


def test_house_rule_min_line_two() -> None:
    flock = "blyf fyrb"  # no two alike side by side
    s = deal(flock + "lrly" * 4, rows=2, cols=4, min_line=2)
    assert text(s) == "blyf fyrb"
    turn(s, 0, "a2-a3")  # a: bylf: the butterflies a2 and b2 make a line of two
    assert s.last_taken == (1, 5) and s.scores() == [2.0, 0.0]
    three = deal(flock + "lrly" * 4, rows=2, cols=4)
    turn(three, 0, "a2-a3")
    assert three.last_taken == () and three.scores() == [0.0, 0.0]


def test_house_rule_diagonals_count() -> None:
    flock = "bly fbr lby"  # swap c2-c3: c3 = bell on the diagonal a1 b2 c3
    s = deal(flock + FILLER, rows=3, cols=3, diagonals=True)
    turn(s, 0, "c2-c3")
    assert s.last_taken == (0, 4, 8) and s.scores() == [3.0, 0.0]
    plain = deal(flock + FILLER, rows=3, cols=3)
    turn(plain, 0, "c2-c3")
    assert plain.last_taken == () and plain.scores() == [0.0, 0.0]


def test_house_rule_match_colour() -> None:
    flock = "bBbly lbfry yfrlf"  # bell, black bell, bell: no line when colours must match
    s = deal(flock + FILLER, match_colour=True)
    assert text(s) == "bBbly lbfry yfrlf"  # no clean-up at the deal
    turn(s, 0, "a2-b2")  # a: bbbly (three white bells)
    assert s.last_taken == (0, 1, 2) and s.scores() == [3.0, 0.0]


def test_house_rule_types() -> None:
    g = make("dolly-crush", 2, types=8)
    assert isinstance(g, DollyGame)
    assert g.board.kinds == g.info.max_chance_outcomes == 16
    assert len(g.standard_deck()) == 8 * 20
    s = g.new_initial_state(seed=1)
    resolve_chance(s)
    v = s.observe(0)
    assert v["types"][-1] == "heart" and len(v["types"]) == 8
    assert sum(v["unseen"].values()) + 15 == 160
    assert "heart-black" in v["unseen"]
    two = make("dolly-crush", 2, types=2)
    assert two.info.max_chance_outcomes == 4
    with pytest.raises(ValueError):
        two.new_initial_state(deck=codes("r" * 20))  # rams are not in a two-type deck


def test_house_rule_dogs_per_player_and_swaps_per_card() -> None:
    rules = {"dogs_per_player": 2, "dog_swaps": {"pastore-maremmano": [1, 2], "bobtail": 0}}
    s = deal("ylfrb lfrby frbyl" + FILLER, breeds=["pastore-maremmano", "bobtail"], **rules)
    g = s.game
    assert (g.num_dogs, g.swap0, g.num_actions) == (2, 2, 24)
    assert g.dog_swaps == ((1, 2), (0, 0))
    assert s.legal_actions() == [0, 1]
    s.apply(1)
    assert s.swaps_left == 2
    s.apply(g.swap0)
    s.apply(g.swap0)
    resolve_chance(s)
    turn(s, 0)  # bobtail: no swaps
    turn(s, 0, "a1-a2")
    turn(s, 1)
    assert s.is_terminal() and s.turns == 4  # every dog card spent (Dolly Crush ruling 8)


def test_house_rule_up_to_swaps_may_stop() -> None:
    flock = "bblby lyfry yfrlf"
    s = deal(flock + FILLER, breeds=["australian-shepherd", "bobtail"], swaps="up-to")
    g = s.game
    assert g.stop == g.num_actions - 1 == 4 + 22
    s.apply(0)  # four swaps at most
    assert g.stop in s.legal_actions()
    assert "up to" in (s.illegal_reason(1) or "")
    s.apply(g.swap_action("a3", "a4"))
    assert s.phase == SWAP and s.swaps_left == 3
    assert s.string_to_action("done") == g.stop and s.action_to_string(g.stop) == "stop"
    s.apply(g.stop)
    resolve_chance(s)
    assert s.scores() == [3.0, 0.0] and s.phase == DOG and s.turn == 1
    exact = deal(flock + FILLER, breeds=["australian-shepherd", "bobtail"])
    assert exact.game.stop is None
    exact.apply(0)
    with pytest.raises(IllegalAction):
        exact.string_to_action("stop")
    assert "ruling 7: exactly as many swaps as it shows" in (exact.illegal_reason(1) or "")
    assert exact.illegal_reason(26) is not None


def test_house_rule_up_to_swaps_end_when_used_up() -> None:
    s = deal("ylfrb lfrby frbyl" + FILLER, swaps="up-to")
    s.apply(0)  # one swap: the turn ends by itself after it
    s.apply(s.game.swap0)
    assert s.phase != SWAP and s.turn == 1


CASCADE = "bbfby fyrly rlyfr" + "LLL" + "ybr" + FILLER  # a3-a4: bbbfy; refill a1-a3 with LLL


def test_house_rule_cascades_score_for_the_player() -> None:
    s = deal(CASCADE, cascades=True)
    turn(s, 0, "a3-a4")
    # the swap's bells (3), then the black lambs the refill lines up (6): all the player's
    assert s.scores() == [9.0, 0.0]
    assert s.last_taken == (0, 1, 2)
    assert s.game.board.find_lines(s.flock) == [] and s.phase == DOG
    plain = deal(CASCADE)
    turn(plain, 0, "a3-a4")
    assert plain.scores() == [3.0, 0.0]  # Dolly Crush ruling 6: the refill's lambs score for nobody
    assert s.total_cards() == plain.total_cards() == len(s.initial_deck)


def test_house_rule_cascades_do_not_reshuffle() -> None:
    s = deal(CASCADE, cascades=True)
    turn(s, 0, "a3-a4")
    assert s._shuffles == 0 and not s.returning


def test_house_rule_end_points() -> None:
    s = deal("bbfby fyrly rlyfr" + FILLER, end_points=3)
    turn(s, 0, "a3-a4")
    assert s.is_terminal() and s.winners() == [0] and s.turns == 1
    higher = deal("bbfby fyrly rlyfr" + FILLER, end_points=4)
    turn(higher, 0, "a3-a4")
    assert not higher.is_terminal()


def test_house_rule_rounds_take_dog_cards_back() -> None:
    one_swap = ["pastore-maremmano", "bobtail"]
    g = make("dolly-crush", 2, dogs_per_player=1, rounds=3, breeds=one_swap)
    assert isinstance(g, DollyGame)
    s = g.new_initial_state(seed=5)
    resolve_chance(s)
    plays = 0
    while not s.is_terminal():
        assert s.phase == DOG and s.legal_actions() == [0]  # the card is back every turn
        s.apply(0)
        s.apply(s.legal_actions()[0])  # the card's one swap
        resolve_chance(s)
        plays += 1
    assert s.turns == plays == 6  # 3 rounds of 2 players
    once = make("dolly-crush", 2, dogs_per_player=1, breeds=one_swap)
    t = once.new_initial_state(seed=5)
    resolve_chance(t)
    while not t.is_terminal():
        t.apply(0)
        t.apply(t.legal_actions()[0])
        resolve_chance(t)
    assert t.turns == 2  # without rounds, Dolly Crush ruling 8: every dog card spent


def test_house_rule_rounds_end_on_an_empty_deck_first() -> None:
    # a small deck runs out before the rounds are over (Dolly Crush ruling 8 still applies)
    g = make("dolly-crush", 2, rounds=50, white_per_type=4, black_per_type=0)
    s = g.new_initial_state(seed=2)
    resolve_chance(s)
    rng = random.Random(0)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        resolve_chance(s)
    assert s.phase == OVER and s.turns < 100 and not s.deck


HOUSE_RULE_SETS = [
    {"rows": 4, "cols": 4, "diagonals": True, "types": 4},
    {"rows": 2, "cols": 6, "min_line": 2, "types": 6, "swaps": "up-to"},
    {"rows": 5, "cols": 3, "match_colour": True, "cascades": True, "end_points": 20},
    {"dogs_per_player": 2, "rounds": 3, "dog_swaps": {"australian-shepherd": [2, 0]}},
    {"rows": 3, "cols": 4, "min_line": 4, "types": 2, "cascades": True, "swaps": "up-to"},
    {"types": 8, "rows": 6, "cols": 6, "diagonals": True, "min_line": 4, "rounds": 2},
]


@pytest.mark.parametrize("rules", HOUSE_RULE_SETS, ids=lambda r: "-".join(map(str, r)))
def test_house_rule_conformance(rules: dict) -> None:
    report = check_game(make("dolly-crush", 2, **rules), num_games=2, seed=7)
    assert report.games == report.terminal == 2


def test_house_rule_random_rule_sets_conform() -> None:
    rng = random.Random(13)
    for _ in range(4):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        rules = {
            "rows": rows,
            "cols": cols,
            "min_line": rng.randint(2, max(2, min(4, max(rows, cols)))),
            "diagonals": rng.random() < 0.5,
            "match_colour": rng.random() < 0.3,
            "types": rng.randint(2, 8),
            "swaps": rng.choice(["exact", "up-to"]),
            "cascades": rng.random() < 0.5,
            "rounds": rng.choice([None, 2]),
        }
        check_game(
            make("dolly-crush", rng.randint(2, 3), **rules), num_games=1, seed=rng.randrange(99)
        )


def test_the_engine_finds_the_boards_lines() -> None:
    """On the rulebook's geometry the engine uses the rulebook's ``cards.find_lines`` (faster):
    the same cells as the board's own, with any number of types."""
    from sheepfold.games.dolly_crush.cards import Board, find_lines

    rng = random.Random(2)
    for types in (2, 5, 8):
        board = Board(types=types)
        g = make("dolly-crush", 2, types=types)
        assert isinstance(g, DollyGame) and g.find_lines is find_lines
        for _ in range(300):
            f = [rng.randrange(-1, board.kinds) for _ in range(board.cells)]
            assert find_lines(f) == board.find_lines(f)
    odd = make("dolly-crush", 2, diagonals=True)
    assert isinstance(odd, DollyGame) and odd.find_lines == odd.board.find_lines
