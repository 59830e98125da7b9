"""Differential tests: the engines against a plain, independent re-statement of the rulings.

The reference below is written straight from docs/spec/rulings.md (the rulings, and the
project's decisions where they are silent), turn by turn, with card codes and plain lists,
sharing no code with the engines except the seeded generator of the clean-up reshuffle (the
project's decision: the whole deck is shuffled with the seed; the engine keeps the deck's top at
the end of its list, so the removed cards are put on top before the shuffle). Random games,
played by the engines, are replayed by the reference and compared after every turn.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from sheepfold.core.protocol import seeded_random
from sheepfold.core.records import to_record
from sheepfold.games import make
from sheepfold.games.dolly_crush.cards import card_code
from sheepfold.games.shave_a_sheep.rules import VARIANTS


# -- Dolly Crush ----------------------------------------------------------------------------
def kind(code: str | None) -> str | None:
    return None if code is None else code.split("-")[0]


def ref_lines(f: list[str | None]) -> list[int]:
    """Dolly Crush ruling 5: maximal horizontal or vertical runs of >= 3 of a type, the union."""
    hit: set[int] = set()
    for r in range(3):
        c = 0
        while c < 5:
            e = c
            while (
                e + 1 < 5
                and f[r * 5 + c] is not None
                and kind(f[r * 5 + e + 1]) == kind(f[r * 5 + c])
            ):
                e += 1
            if f[r * 5 + c] is not None and e - c + 1 >= 3:
                hit |= {r * 5 + x for x in range(c, e + 1)}
            c = e + 1
    for c in range(5):
        col = [f[c], f[5 + c], f[10 + c]]
        if None not in col and len({kind(x) for x in col}) == 1:
            hit |= {c, 5 + c, 10 + c}
    return sorted(hit)


class RefDolly:
    def __init__(
        self,
        deck: list[str],
        seed: int,
        swaps: list[list[int]],
        points: dict[str, int],
        max_rounds: int = 1000,
    ) -> None:
        self.deck = list(deck)  # top card first
        self.seed, self.swaps, self.points, self.max_rounds = seed, swaps, points, max_rounds
        self.n = len(swaps)
        self.flock: list[str | None] = [None] * 15
        self.collected: list[list[str]] = [[] for _ in range(self.n)]
        self.dogs = [set(range(4)) for _ in range(self.n)]
        self.turn, self.over, self.shuffles = 0, False, 0
        self.refill(setup=True)  # Dolly Crush ruling 1: the deal fills the empty flock

    def fill(self) -> None:  # a1..c5 order, from the top
        for c in range(15):
            if self.flock[c] is None and self.deck:
                self.flock[c] = self.deck.pop(0)

    def shuffle_back(self, removed: list[str]) -> None:
        internal = self.deck[::-1] + removed
        seeded_random(self.seed, 1_000_000 + self.shuffles).shuffle(internal)
        self.shuffles += 1
        self.deck = internal[::-1]

    def refill(self, setup: bool) -> None:  # Dolly Crush ruling 6
        self.fill()
        rounds = 0
        while lines := ref_lines(self.flock):
            if rounds >= self.max_rounds:
                self.over = True
                return
            rounds += 1
            removed = [self.flock[c] for c in lines]
            for c in lines:
                self.flock[c] = None
            self.fill()
            self.shuffle_back(removed)  # type: ignore[arg-type]
            self.fill()
        if setup:
            self.over = None in self.flock
            return
        if not self.deck or not any(self.dogs):  # Dolly Crush ruling 8
            self.over = True
            return
        self.turn = (self.turn + 1) % self.n

    def play(self, dog: int, swaps: list[list[str]]) -> None:  # Dolly Crush ruling 7
        s = self.turn
        assert not self.over and dog in self.dogs[s]
        assert len(swaps) == self.swaps[s][dog]
        self.dogs[s].discard(dog)
        for a, b in swaps:
            x, y = "abc".index(a[0]) * 5 + int(a[1]) - 1, "abc".index(b[0]) * 5 + int(b[1]) - 1
            assert abs(x - y) in (1, 5) and (abs(x - y) == 5 or x // 5 == y // 5)
            self.flock[x], self.flock[y] = self.flock[y], self.flock[x]
        for c in ref_lines(self.flock):
            self.collected[s].append(self.flock[c])  # type: ignore[arg-type]
            self.flock[c] = None
        self.refill(setup=False)

    def scores(self) -> list[int]:
        return [sum(self.points[c.split("-")[1]] for c in pile) for pile in self.collected]


def dolly_view(state: Any) -> tuple:
    return (
        [None if c < 0 else card_code(c) for c in state.flock],
        [[card_code(c) for c in p] for p in state.collected],
        [card_code(c) for c in reversed(state.deck)],
        state.is_terminal(),
    )


def ref_view(ref: RefDolly) -> tuple:
    return (list(ref.flock), [list(p) for p in ref.collected], list(ref.deck), ref.over)


DECK_TYPES = st.sampled_from(
    [
        ("bell", "lamb", "ram"),
        ("bell", "lamb", "butterfly", "flower", "ram"),
        ("flower", "ram", "lamb", "bell"),
    ]
)


@given(st.integers(2, 4), st.integers(0, 2**31 - 1), DECK_TYPES, st.integers(15, 60), st.booleans())
def test_dolly_engine_matches_the_reference(
    players: int, seed: int, types: tuple[str, ...], size: int, graded: bool
) -> None:
    rng = random.Random(seed)
    deck = [f"{rng.choice(types)}-{rng.choice(['white', 'white', 'black'])}" for _ in range(size)]
    rules = (
        {
            "dog_swaps": {
                b: [1, 2, 3, 4]
                for b in ("pastore-maremmano", "australian-shepherd", "bobtail", "border-collie")
            }
        }
        if graded
        else {}
    )
    game = make("dolly-crush", players, rules=rules, max_cleanup_rounds=50)
    s = game.new_initial_state(seed=seed, deck=deck)
    boundaries = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance())
            continue
        if s.phase == 1:  # a turn starts
            boundaries.append(dolly_view(s))
        s.apply(rng.choice(s.legal_actions()))
    boundaries.append(dolly_view(s))
    rec = to_record(s)
    ref = RefDolly(
        deck, seed, [list(c) for c in game.dog_swaps], {"white": 1, "black": 2}, max_rounds=50
    )
    assert ref_view(ref) == boundaries[0]
    for k, move in enumerate(rec["moves"]):
        ref.play(move["dog"], move["swaps"])
        assert ref_view(ref) == boundaries[k + 1], f"after move {k}"
    assert ref.over and ref.scores() == [int(x) for x in s.scores()]


# -- Shave a Sheep ---------------------------------------------------------------------------
class RefShave:
    def __init__(
        self, n: int, wool: int, cap: int, variants: list[str], max_turns: int | None = None
    ) -> None:
        self.n, self.cap, self.max_turns = n, cap, max_turns
        self.cc, self.hw, self.mw = (
            "cutting-costs" in variants,
            "howling-wolf" in variants,
            "my-friend-mr-wolf" in variants,
        )
        self.middle, self.sheep, self.piles = wool, [0] * n, [0] * n
        self.wolf: int | None = None
        self.turn, self.turns, self.over, self.truncated = 0, 0, False, False

    def put(self, seat: int, pieces: int) -> None:  # Shave a Sheep ruling 4: never above the cap
        k = min(pieces, self.cap - self.sheep[seat], self.middle)
        self.sheep[seat] += k
        self.middle -= k

    def shear(self, seat: int) -> None:  # Shave a Sheep rulings 4 and 7
        w, self.sheep[seat] = self.sheep[seat], 0
        if w and self.cc:
            w, self.middle = w - 1, self.middle + 1
        self.piles[seat] += w

    def play(self, m: dict) -> None:
        me = self.turn
        colours = m["roll"].split("/")
        if self.hw and "gray" in colours:  # Shave a Sheep ruling 8
            t = m["target"]
            assert t != m["grabber"]
            if self.sheep[t]:
                self.sheep[t] -= 1
                self.middle += 1
            if m["grow"]:
                self.put(me, 1)
        else:
            a = m["action"]
            if a == "grow":
                self.put(me, 1)
            elif a == "double":
                self.put(me, 2)
            elif a == "shear":
                self.shear(me)
            elif a == "swap":
                t = m["target"]
                self.sheep[me], self.sheep[t] = self.sheep[t], self.sheep[me]
            elif self.mw and m["mode"] == "send":  # Shave a Sheep ruling 9, option A
                t = m["target"]
                self.wolf = t
                if self.sheep[t]:
                    self.sheep[t] -= 1
                    self.piles[me] += 1
            elif self.mw:  # option B
                t = self.wolf
                assert t is not None and t != me
                k = min(2, self.sheep[t])
                self.sheep[t] -= k
                self.piles[me] += k
                self.wolf = None
            else:  # the wolf: all of it back to the middle
                t = m["target"]
                self.middle += self.sheep[t]
                self.sheep[t] = 0
        if self.middle == 0:  # Shave a Sheep ruling 6, also on the turn limit's turn
            for seat in range(self.n):
                self.shear(seat)
            self.over = True
            return
        self.turns += 1
        if self.max_turns is not None and self.turns >= self.max_turns:
            # the turn limit (docs/engine.md): no next turn begins, so no auto-shear either
            self.over = self.truncated = True
            return
        self.turn = (me + 1) % self.n
        if self.sheep[self.turn] >= self.cap:  # Shave a Sheep ruling 5
            self.shear(self.turn)

    def winners(self) -> list[int]:
        if not self.over or self.truncated:
            return []
        return [seat for seat, v in enumerate(self.piles) if v == max(self.piles)]

    def position(self) -> tuple:
        sheep, piles = list(self.sheep), list(self.piles)
        return (self.middle, sheep, piles, self.wolf, self.turn, self.over, self.truncated)


SHAVE_SETS = [
    list(c)
    for r in range(4)
    for c in __import__("itertools").combinations(VARIANTS, r)
    if not {"howling-wolf", "my-friend-mr-wolf"} <= set(c)
]


def shave_position(s: Any) -> tuple:
    """An engine state in the order of :meth:`RefShave.position`."""
    return (s.middle, list(s.sheep), list(s.piles), s.wolf, s.turn, s.is_terminal(), s.truncated)


MAX_TURNS = 400


@given(
    st.integers(2, 4),
    st.integers(0, 2**31 - 1),
    st.sampled_from(SHAVE_SETS),
    st.integers(1, 40),
    st.integers(1, 6),
)
# truncated at the turn limit while the next seat's sheep is full (it is not shorn)
@example(players=3, seed=265770, variants=["cutting-costs"], wool=17, cap=1)
def test_shave_engine_matches_the_reference(
    players: int, seed: int, variants: list[str], wool: int, cap: int
) -> None:
    s = make(
        "shave-a-sheep", players, variants=variants, wool=wool, max_wool=cap, max_turns=MAX_TURNS
    ).new_initial_state(seed=seed)
    rng = random.Random(seed)
    boundaries = []
    while not s.is_terminal():
        if s.phase == 0:
            boundaries.append(shave_position(s))
        s.apply(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    ref = RefShave(players, wool, cap, variants, MAX_TURNS)
    for k, move in enumerate(to_record(s)["moves"]):
        assert ref.position() == boundaries[k], f"before move {k}"
        ref.play(move)
    assert ref.position() == shave_position(s)
    assert ref.winners() == s.winners()
