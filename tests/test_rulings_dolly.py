"""One test per Dolly Crush ruling (docs/spec/rulings.md), on hand-built positions.

Positions are made the honest way: an explicit deck (top card first), dealt by the engine. The
notation below: one letter per card, ``b`` bell, ``l`` lamb, ``y`` butterfly, ``f`` flower,
``r`` ram; upper case = black. Spaces separate rows for the reader only.
"""

from __future__ import annotations

import json

import pytest

from sheepfold.core.play import resolve_chance
from sheepfold.core.protocol import CHANCE, IllegalAction, RulesError
from sheepfold.core.records import RecordError, replay, summary, to_record
from sheepfold.games import make
from sheepfold.games.dolly_crush.cards import (
    SWAPS,
    card_code,
    cell_name,
    find_lines,
    parse_card,
    parse_cell,
)
from sheepfold.games.dolly_crush.game import DOG, SWAP, DollyGame, DollyState, swap_action
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.rulesets import find_ruleset

LETTERS = {"b": "bell", "l": "lamb", "y": "butterfly", "f": "flower", "r": "ram"}


def codes(text: str) -> list[str]:
    return [
        f"{LETTERS[ch.lower()]}-{'black' if ch.isupper() else 'white'}"
        for ch in text
        if not ch.isspace()
    ]


def ids(text: str) -> list[int]:
    return [parse_card(c) for c in codes(text)]


def flock_text(state: DollyState) -> str:
    def letter(c: int) -> str:
        if c < 0:
            return "."
        ch = "blyfr"[c >> 1]
        return ch.upper() if c & 1 else ch

    return " ".join("".join(letter(c) for c in state.flock[r * 5 : r * 5 + 5]) for r in range(3))


def deal(
    deck: str, players: int = 2, breeds: list[str] | None = None, seed: int = 0, **rules: object
) -> DollyState:
    game = (
        make("dolly-crush", players, breeds=breeds, **rules)
        if breeds
        else make("dolly-crush", players, **rules)
    )
    s = game.new_initial_state(seed=seed, deck=codes(deck))
    resolve_chance(s)
    return s


def turn(s: DollyState, dog: int, *swaps: str) -> None:
    s.apply(dog)
    for sw in swaps:
        a, b = sw.split("-")
        s.apply(swap_action(a, b))
    resolve_chance(s)


def rec(
    deck: str,
    moves: list[dict],
    breeds: tuple[str, ...] = ("pastore-maremmano", "australian-shepherd"),
    **extra: object,
) -> dict:
    return {
        "format": "sheepfold-record/1",
        "game": "dolly-crush",
        "players": [{"name": f"p{i}", "breed": b} for i, b in enumerate(breeds)],
        "deck": codes(deck),
        "moves": moves,
        **extra,
    }


# The rulebook's figure-7 kind of take: a row of 5 and a row of 3 after one swap (8 cards).
FLOCK_8 = "fybfy rrlrr llRbf"  # swap b3-c3 -> b: rrRrr, c: lllbf
REFILL_8 = "lfrlb ybl"  # b1..b5 then c1..c3: no new line
# A row of 5 crossed by a column of 3 after four swaps (7 cards): Australian Shepherd.
FLOCK_7 = "lfBBy BbrbB fyblr"
CROSS_SWAPS = ("a1-a2", "a2-a1", "b3-b4", "a4-b4")  # the first two swap back
REFILL_7 = "y rlfyb b"  # a3, b1..b5, c3


def test_dolly_ruling_1_flock_cells() -> None:
    assert [cell_name(c) for c in range(15)] == [f"{r}{c}" for r in "abc" for c in range(1, 6)]
    assert all(parse_cell(cell_name(c)) == c for c in range(15))
    assert parse_cell("B3") == 7
    for bad in ("d1", "a6", "a0", "a", "a12"):
        with pytest.raises(ValueError):
            parse_cell(bad)
    # 22 orthogonally adjacent pairs; action ids 0..3 dogs, 4 + i the i-th pair (stable ids)
    assert len(SWAPS) == 22 and SWAPS[0] == (0, 1) and SWAPS[1] == (0, 5)
    assert swap_action("a1", "a2") == 4 and swap_action("b1", "a1") == 5
    assert swap_action("c4", "c5") == 4 + 21
    # the deal goes row by row, a1..a5, b1..b5, c1..c5, from the top of the deck
    s = deal(FLOCK_8 + REFILL_8 + "lyrfb")
    assert flock_text(s) == FLOCK_8
    assert s.flock_codes()[0] == codes("fybfy") and s.flock_codes()[2][2] == "ram-black"


def test_dolly_ruling_2_deck() -> None:
    g = make("dolly-crush", 2)
    deck = g.standard_deck()
    assert len(deck) == 100
    for t in LETTERS.values():
        assert sum(1 for c in deck if card_code(c) == f"{t}-white") == 15
        assert sum(1 for c in deck if card_code(c) == f"{t}-black") == 5
    assert g.points == tuple(2 if k & 1 else 1 for k in range(10))  # white 1, black 2
    a, b, a2 = (g.new_initial_state(seed=x) for x in (1, 2, 1))
    assert a.initial_deck == a2.initial_deck != b.initial_deck  # shuffled with the seed
    assert sorted(a.initial_deck) == sorted(deck)
    resolve_chance(a)
    assert a.total_cards() == 100
    # the composition and the points are options (a house rule)
    h = make("dolly-crush", 2, white_per_type=2, black_per_type=1, black_points=3)
    assert len(h.standard_deck()) == 15 and h.points[1] == 3
    with pytest.raises(RulesError, match="flock alone needs 15"):
        make("dolly-crush", 2, white_per_type=1, black_per_type=1)


def test_dolly_ruling_3_dog_cards() -> None:
    g = DollyGame(
        4, breeds=["pastore-maremmano", "australian-shepherd", "bobtail", "border-collie"]
    )
    assert g.dog_swaps == ((1, 1, 1, 1), (4, 4, 4, 4), (1, 1, 1, 1), (1, 1, 1, 1))
    with pytest.raises(RulesError, match="one player at most"):
        DollyGame(2, breeds=["bobtail", "bobtail"])
    graded = make("dolly-crush", 3, rules=find_ruleset("dolly-graded", "dolly-crush").rules)
    assert graded.dog_swaps == ((1, 2, 3, 4),) * 3
    custom = make(
        "dolly-crush", 2, dog_swaps={"bobtail": [2, 2, 3, 0]}, breeds=["bobtail", "border-collie"]
    )
    assert custom.dog_swaps == ((2, 2, 3, 0), (1, 1, 1, 1))
    with pytest.raises(RulesError, match="bobtail lists 3 cards, but a breed has 4"):
        make("dolly-crush", 2, dog_swaps={"bobtail": [1, 2, 3]})
    assert DollyRules(dog_swaps={"bobtail": 2}).dog_swaps["bobtail"] == (2, 2, 2, 2)
    # a dog card asks for exactly the swaps it shows
    s = deal(FLOCK_7 + REFILL_7 + "lyrfb", breeds=["australian-shepherd", "bobtail"])
    s.apply(2)
    assert (s.phase, s.swaps_left) == (SWAP, 4)
    # a record may not seat one breed twice
    with pytest.raises(RecordError, match="already taken by seat 0"):
        replay(rec(FLOCK_8 + REFILL_8, [], breeds=("bobtail", "bobtail")))


def test_dolly_ruling_4_players() -> None:
    for n in (2, 3, 4):
        s = make("dolly-crush", n).new_initial_state(seed=n)
        resolve_chance(s)
        assert s.current_player() == 0  # seat 0 starts
    for n in (1, 5):
        with pytest.raises(RulesError, match="2 to 4 players"):
            make("dolly-crush", n)
    # clockwise: 0, 1, 2, 0 ...
    s = make("dolly-crush", 3).new_initial_state(seed=9)
    resolve_chance(s)
    seen = []
    for _ in range(4):
        seen.append(s.current_player())
        s.apply(0 if 0 in s.legal_actions() else s.legal_actions()[0])
        while s.current_player() == seen[-1] and s.phase == SWAP:
            s.apply(s.legal_actions()[0])
        resolve_chance(s)
    assert seen == [0, 1, 2, 0]


def _lines(text: str) -> list[str]:
    """The cells find_lines takes from a flock written in the letter notation ('.' = empty)."""
    cells = text.replace(" ", "")
    flock = [-1 if ch == "." else ids(ch)[0] for ch in cells]
    return [cell_name(c) for c in find_lines(flock)]


def test_dolly_ruling_5_lines() -> None:
    # a row of 5 crossed by a column of 3 is 7 cards, colour never matters
    assert _lines("lfByr bBbBB fybyr") == ["a3", "b1", "b2", "b3", "b4", "b5", "c3"]
    assert _lines("bbbfy lrLyf fyrbl") == ["a1", "a2", "a3"]  # a row of 3
    assert _lines("bBbBf lrLyf fyrbl") == ["a1", "a2", "a3", "a4"]  # a row of 4, mixed colours
    assert _lines("bflfy Brlyf byrbl") == ["a1", "b1", "c1"]  # a column
    assert _lines("bbbfy brlyf byrbl") == ["a1", "a2", "a3", "b1", "c1"]  # corner shared: 5
    assert _lines("bbfby lrLyf fyrbl") == []  # 2 + 1 is no line
    assert _lines("bb.bb lrLyf fyrbl") == []  # empty cells never join
    assert _lines("rrrrr lllll fffff") == [cell_name(c) for c in range(15)]
    # in play: four swaps make the cross, the player takes exactly those 7 cards (11 points)
    s = deal(FLOCK_7 + REFILL_7 + "lyrfb", breeds=["australian-shepherd", "bobtail"])
    turn(s, 0, *CROSS_SWAPS)
    assert s.last_taken == tuple(parse_cell(c) for c in ("a3", "b1", "b2", "b3", "b4", "b5", "c3"))
    assert sorted(card_code(c) for c in s.collected[0]) == sorted(codes("BbbBBBb"))
    assert s.scores() == [11.0, 0.0]
    # the row of 5 and the row of 3 of one swap: 8 cards (rulebook figure 7 kind), 9 points
    s = deal(FLOCK_8 + REFILL_8 + "lyrfb")
    turn(s, 0, "b3-c3")
    assert len(s.collected[0]) == 8 and s.scores() == [9.0, 0.0]


def test_dolly_ruling_5_rulebook_scoring_example() -> None:
    g = make("dolly-crush", 2)
    s = g.new_initial_state(seed=0)
    pts = {1: parse_card("lamb-white"), 2: parse_card("lamb-black")}
    s.collected = [
        [pts[p] for p in (1, 1, 2, 1, 1, 1, 1, 1)],
        [pts[p] for p in (2, 1, 1, 2, 1, 2, 2)],
    ]
    assert s.scores() == [9.0, 11.0]


def test_dolly_ruling_6_setup_cleanup() -> None:
    # the deal holds a line (a1..a3, colours mixed): removed, refilled from the top in a1..c5
    # order, then shuffled back into the deck; nobody scores them
    setup = "bbBfy lfrlr fylyf"
    s = deal(setup + "rlf" + "ryfly", seed=4)
    assert flock_text(s) == "rlffy lfrlr fylyf"
    assert sum(1 for who, _ in s.history if who == CHANCE) == 18
    assert sorted(s.deck) == sorted(ids("ryfly" + "bbB"))  # the removed cards are back
    assert s.collected == [[], []] and s.phase == DOG
    # the reshuffle shuffles the whole deck with the seed
    orders = {tuple(deal(setup + "rlf" + "ryfly", seed=k).deck) for k in range(6)}
    assert len(orders) > 1
    assert deal(setup + "rlf" + "ryfly", seed=4).deck == s.deck

    # the short deck: 2 cards for 3 cells -> the last cell is filled from the reshuffled deck
    s = deal("bbbfy lfrlr fylyf" + "rl", seed=1)
    assert flock_text(s) == "rlbfy lfrlr fylyf" and sorted(s.deck) == ids("bb")

    # refill clean-up: the refill makes a line b1..b3: removed, refilled, shuffled back
    s = deal(FLOCK_8 + "lllfb" + "ybl" + "rfr" + "yyfff", seed=2)
    turn(s, 0, "b3-c3")
    assert flock_text(s) == "fybfy rfrfb yblbf"
    assert len(s.collected[0]) == 8 and s.scores() == [9.0, 0.0]  # the clean-up scored nothing
    assert sorted(s.deck) == sorted(ids("yyfff" + "lll")) and s.current_player() == 1

    # a degenerate deck: the clean-up gives up after 1,000 rounds and the game ends
    s = deal("b" * 15)
    assert s.is_terminal() and s.aborted and s.cleanup_rounds == 1000
    assert sum(1 for who, _ in s.history if who == CHANCE) == 15 + 15 * 1000
    assert s.winners() == [0, 1]
    s = deal("b" * 15, max_cleanup_rounds=3)
    assert s.aborted and sum(1 for who, _ in s.history if who == CHANCE) == 15 + 45


def test_dolly_ruling_7_turn() -> None:
    s = deal(FLOCK_7 + REFILL_7 + "lyrfb", breeds=["australian-shepherd", "bobtail"])
    s.apply(1)
    for sw in CROSS_SWAPS[:3]:
        s.apply(swap_action(*sw.split("-")))
    # three of four swaps made: still seat 0, no dog card, no early end
    assert s.current_player() == 0 and s.swaps_left == 1 and s.collected == [[], []]
    reason = s.illegal_reason(2)
    assert reason and "ruling 7" in reason and "exactly" in reason
    with pytest.raises(IllegalAction):
        s.apply(2)
    # swap back allowed: a1-a2 twice left the flock as it was on row a (a4 is still to come)
    assert flock_text(s).split()[0] == "lfBBy"
    s.apply(swap_action("a4", "b4"))
    resolve_chance(s)
    assert s.scores() == [11.0, 0.0] and s.dogs_left(0) == [0, 2, 3]

    # a line made mid-turn and broken again is not taken; the dog is spent anyway
    s = deal(FLOCK_7 + REFILL_7 + "lyrfb", breeds=["australian-shepherd", "bobtail"])
    before = flock_text(s)
    turn(s, 3, "b3-b4", "a4-b4", "a4-b4", "b3-b4")  # the cross appears after 2, then undone
    assert flock_text(s) == before and s.collected == [[], []]
    assert s.dogs_left(0) == [0, 1, 2] and s.current_player() == 1
    # the spent dog cannot come back
    turn(s, 0, "a1-a2")
    assert "already been played" in (s.illegal_reason(3) or "")
    # swaps are between orthogonally adjacent cells only
    for a, b in (("a1", "a3"), ("a1", "b2"), ("a1", "a1")):
        with pytest.raises(IllegalAction, match="not adjacent"):
            swap_action(a, b)
    # a record with too few or too many swaps is refused, naming the rule
    for swaps in (CROSS_SWAPS[:3], CROSS_SWAPS + ("a1-a2",)):
        r = replay(
            rec(
                FLOCK_7 + REFILL_7 + "lyrfb",
                [{"dog": 0, "swaps": [s.split("-") for s in swaps]}],
                breeds=("australian-shepherd", "bobtail"),
            )
        )
        assert r.error is not None and r.error.move == 0 and r.moves_applied == 0
        assert "shows 4 swaps" in r.error.message and "ruling 7" in r.error.message


def test_dolly_ruling_8_end() -> None:
    # (a) every player has played all 4 dog cards
    for n in (2, 3):
        s = make("dolly-crush", n).new_initial_state(seed=5)
        resolve_chance(s)
        for _t in range(4 * n):
            assert not s.is_terminal()
            s.apply(s.legal_actions()[0])
            while s.phase == SWAP:
                s.apply(s.legal_actions()[0])
            resolve_chance(s)
        assert s.is_terminal() and all(s.dogs_left(k) == [] for k in range(n))
        assert len(s.deck) > 0
    # (b) the deck is empty after a turn's refill: the game ends with dog cards left
    s = deal(FLOCK_8 + REFILL_8)
    turn(s, 0, "b3-c3")
    assert s.is_terminal() and s.dogs_left(1) == [0, 1, 2, 3] and not s.deck
    assert s.winners() == [0] and flock_text(s) == "fybfy lfrlb yblbf"
    # ... and when the refill could not fill the flock: empty cells, the game is over
    s = deal(FLOCK_8 + "lfrlb")
    turn(s, 0, "b3-c3")
    assert s.is_terminal() and flock_text(s) == "fybfy lfrlb ...bf"
    assert summary(s, 1)["flock"][2][:3] == [None, None, None]
    # lead decision: a full flock with an empty deck after setup is still played; it ends
    # after the next turn's refill
    s = deal(FLOCK_8)
    assert s.current_player() == 0 and not s.deck
    turn(s, 0, "a1-a2")
    assert s.is_terminal() and s.scores() == [0.0, 0.0]
    # lead decision: a flock the deck could not fill at setup ends the game (only reachable
    # below the record format's 15-card minimum)
    short = DollyState(make("dolly-crush", 2), 0, ids("fybfy rrlrr"))  # type: ignore[arg-type]
    resolve_chance(short)
    assert short.is_terminal() and flock_text(short).endswith(".....")
    with pytest.raises(RulesError, match="at least 15"):
        make("dolly-crush", 2).new_initial_state(deck=codes("fybfy rrlrr"))


def test_dolly_ruling_9_winner() -> None:
    # nobody takes anything: a shared win, half a win each
    s = deal(FLOCK_8)
    turn(s, 0, "a1-a2")
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5]
    # equal top scores share the win; scores are part of every seat's view
    g = make("dolly-crush", 3)
    s = g.new_initial_state(seed=1)
    s.collected = [ids("lL"), ids("lll"), ids("R")]
    s.phase = 3  # OVER
    assert s.scores() == [3.0, 3.0, 2.0] and s.winners() == [0, 1]
    assert s.returns() == [0.5, 0.5, 0.0]
    assert s.observe(2)["scores"] == [3.0, 3.0, 2.0]
    assert s.observe(2)["collected"][0] == codes("lL")
    # the replay summary reports the same result
    s = deal(FLOCK_7 + REFILL_7 + "lyrfb", breeds=["australian-shepherd", "bobtail"])
    turn(s, 0, *CROSS_SWAPS)
    out = replay(json.dumps(to_record(s)))
    assert out.error is None and summary(out.state, out.moves_applied)["scores"] == [11, 0]
