"""Dolly Crush's compiled kernel (games/dolly_crush/kernel/) against the rules engine, position by
position, in the spirit of OpenSpiel's consistency tests.

Every position the engine reaches from short custom decks (every refill and clean-up path: a deck
that runs out, a clean-up that refills from the cards it took out, cells left empty, a clean-up
that gives up after the rule set's ``max_cleanup_rounds``) is walked exhaustively for a bounded
number of turns, every dog card and every swap, and at each the kernel must agree with the
engine on: the legal swaps; the combination (cells and points) after every swap; the best swaps
(the reference search) and the greedy turn; and at the end of every turn the take, the refill
with clean-up given the same deck order (the engine's reshuffle is made the kernel's, the one
free choice of Dolly Crush ruling 6) and whether the game ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sheepfold.bots.dolly import choose_dog
from sheepfold.core.protocol import CHANCE
from sheepfold.games.dolly_crush import game as engine
from sheepfold.games.dolly_crush.cards import EMPTY, SWAPS, find_lines
from sheepfold.games.dolly_crush.game import DOG, OVER, SWAP, SWAP0, DollyGame
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.games.dolly_crush.search import (
    apply_swaps,
    combination_points,
    reference_best_swaps,
)

pytest.importorskip("numba")

from sheepfold.games.dolly_crush.kernel import lines, policy, refill, search  # noqa: E402
from sheepfold.games.dolly_crush.kernel.layout import pack, tables, unpack  # noqa: E402

# card ids: type * 2 + colour; three types (bell, lamb, butterfly) in most decks
B, b, L, m, F, f = 0, 1, 2, 3, 4, 5  # bell, lamb (m: black), butterfly; capitals white

CASES: list[tuple[str, list[int], dict[str, Any], int]] = [
    # (what it hits, the deck top card first, rule options, turns walked)
    (
        # 15 cards, no line: the deal fills the flock; the first take empties the deck: game over
        "exact deck",
        [B, L, F, B, L, L, F, B, L, F, F, B, L, F, B],
        {},
        2,
    ),
    (
        # a line at the deal: clean-up; one card short at the deal's refill, the reshuffled
        # cards fill it; after a take the deck runs out and cells stay empty
        "deal clean-up",
        [B, B, B, L, F, L, F, B, F, L, F, B, L, F, m, f, b, L],
        {"max_cleanup_rounds": 6},
        2,
    ),
    (
        # mostly one type: long clean-ups that reshuffle into a deck still holding cards
        "long clean-ups",
        [B, L, B, L, F, L, F, B, F, B, m, b, f, L, F, B, B, B, L, L, b, b, f, F, m, B],
        {"max_cleanup_rounds": 40},
        3,
    ),
    (
        # one type only: the clean-up never ends, it gives up after max_cleanup_rounds
        "endless clean-up",
        [B, b] * 10,
        {"max_cleanup_rounds": 3},
        1,
    ),
    (
        # lines everywhere after a few swaps: takes, clean-ups in play, a card in two lines
        "crossing lines",
        [B, B, L, B, B, L, L, B, L, L, B, L, B, L, B, F, f, F, B, m, L, b, F, f, B, L],
        {"white_points": 1, "black_points": 3, "max_cleanup_rounds": 10},
        3,
    ),
]
DOGS = {"pastore-maremmano": [1, 0, 2, 1], "bobtail": [1, 1, 2, 1]}  # 0, 1 and 2 swaps


class KernelShuffle:
    """The engine's clean-up reshuffle made the kernel's (a shared splitmix64 state)."""

    def __init__(self) -> None:
        self.rng = np.zeros(1, dtype=np.uint64)

    def __call__(self, *seed: Any) -> KernelShuffle:  # stands for seeded_random(seed, k)
        return self

    def shuffle(self, deck: list[int]) -> None:
        arr = np.array(deck, dtype=np.int64)
        refill.shuffle(arr, len(arr), self.rng)
        deck[:] = [int(c) for c in arr]


def _cells(mask: int) -> list[int]:
    return [c for c in range(15) if mask >> c & 1]


def _kernel_refill(
    x: int, mask: int, deck: list[int], rules: DollyRules, seed: int, tabs: Any
) -> tuple[list[int], list[int], bool]:
    arr = np.zeros(len(deck) + 15, dtype=np.int64)
    arr[: len(deck)] = deck
    rng = np.array([seed], dtype=np.uint64)
    y, n, aborted = refill.refill(
        np.uint64(x), mask, arr, len(deck), rules.max_cleanup_rounds, rng, tabs
    )
    return unpack(int(y)), [int(c) for c in arr[:n]], bool(aborted)


def _resolve(state: Any) -> None:
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance())  # the top card: the deck's real order


class Walk:
    def __init__(self, game: DollyGame, shuffler: KernelShuffle) -> None:
        self.game = game
        self.rules = game.rules
        self.points = game.points
        self.tabs = tables(tuple(game.points))
        self.shuffler = shuffler
        self.counts = dict.fromkeys(("positions", "swaps", "turns", "clean-ups", "aborted"), 0)
        self.counts["over"] = 0
        self.seed = 0

    def next_seed(self) -> int:
        self.seed += 1
        self.shuffler.rng[0] = np.uint64(self.seed)
        return self.seed

    def check_setup(self, deck: list[int]) -> Any:
        state = self.game.new_initial_state(seed=0, deck=deck)
        start = state.deck[:]
        seed = self.next_seed()
        _resolve(state)
        flock, rest, aborted = _kernel_refill(0, 0, start, self.rules, seed, self.tabs)
        assert (state.flock, state.deck, state.aborted) == (flock, rest, aborted)
        assert (state.phase == OVER) == (aborted or EMPTY in flock)  # Dolly Crush ruling 8
        return state

    def check_position(self, state: Any) -> None:
        self.counts["positions"] += 1
        flock = state.flock
        x = pack(flock)
        if state.phase == SWAP:
            legal = [a - SWAP0 for a in state.legal_actions()]
            assert list(search.legal(np.uint64(x))) == legal
            for j in legal:  # the combination after every swap: cells and points
                g = apply_swaps(flock, (j,))
                y = lines.apply_swap(np.uint64(x), j)
                assert int(y) == pack(g)
                assert _cells(int(lines.taken(y, self.tabs))) == find_lines(g)
                assert int(lines.points(y, self.tabs)) == combination_points(g, self.points)
                self.counts["swaps"] += 1
            pts, j = search.best_one(x, self.tabs)
            assert (int(pts), (int(j),)) == reference_best_swaps(flock, 1, self.points)
            if state.swaps_left >= 2:
                seq = np.zeros(state.swaps_left, dtype=np.int64)
                best = search.search_swaps(np.uint64(x), state.swaps_left, seq, self.tabs)
                want = reference_best_swaps(flock, state.swaps_left, self.points)
                assert (int(best), tuple(int(s) for s in seq)) == want
        elif state.phase == DOG:
            me = state.turn
            swaps_of = self.game.dog_swaps[me]
            left = state.dogs_left(me)
            hand = np.zeros(max(swaps_of) + 1, dtype=np.int64)
            for d in left:
                hand[swaps_of[d]] += 1
            seq = np.zeros(len(hand), dtype=np.int64)
            pts, y, n = policy.greedy_turn(np.uint64(x), hand, seq, self.tabs)
            dog = choose_dog(flock, left, swaps_of, self.points)
            assert n == swaps_of[dog]
            want = reference_best_swaps(flock, n, self.points)
            assert (int(pts), tuple(int(s) for s in seq[:n])) == want
            assert unpack(int(y)) == apply_swaps(flock, want[1])

    def check_turn_end(self, state: Any, action: int) -> Any:
        """Play ``action``, the last of a turn: the take, the refill, the end."""
        me = state.turn
        flock = state.flock if state.phase == DOG else apply_swaps(state.flock, (action - SWAP0,))
        x = pack(flock)
        mask = int(lines.taken(np.uint64(x), self.tabs))
        deck = state.deck[:]
        played = state.dogs_played[:]
        if state.phase == DOG:
            played[me] |= 1 << action
        before = len(state.collected[me])
        child = state.clone()
        seed = self.next_seed()
        child.apply(action)
        _resolve(child)
        assert list(child.last_taken) == _cells(mask)
        assert child.collected[me][before:] == [flock[c] for c in _cells(mask)]
        if mask:
            got, rest, aborted = _kernel_refill(x, mask, deck, self.rules, seed, self.tabs)
        else:
            got, rest, aborted = flock, deck, False  # nothing taken: nothing drawn
        assert (child.flock, child.deck, child.aborted) == (got, rest, aborted)
        all_played = all(p == 15 for p in played)
        assert (child.phase == OVER) == (aborted or not rest or all_played)  # Dolly Crush ruling 8
        self.counts["turns"] += 1
        self.counts["clean-ups"] += child._shuffles > state._shuffles
        self.counts["aborted"] += aborted
        self.counts["over"] += child.phase == OVER
        return child

    def walk_turn(self, state: Any) -> list[Any]:
        """Every position of the turn starting at ``state`` (a dog decision): every dog card (one
        of each swap count) and every sequence of its swaps; the dog decisions that follow."""
        out: list[Any] = []
        todo = [state]
        while todo:
            s = todo.pop()
            self.check_position(s)
            actions = s.legal_actions()
            if s.phase == DOG:
                counts = self.game.dog_swaps[s.turn]
                first = {counts[a]: a for a in reversed(actions)}  # the first dog of each count
                actions = sorted(first.values())
            for a in actions:
                n = self.game.dog_swaps[s.turn][a] if s.phase == DOG else s.swaps_left
                if (s.phase == DOG and n == 0) or (s.phase == SWAP and n == 1):
                    child = self.check_turn_end(s, a)
                    if child.phase != OVER:
                        out.append(child)
                else:
                    child = s.clone()
                    child.apply(a)
                    todo.append(child)
        return out

    def walk(self, state: Any, turns: int, keep: int = 12) -> None:
        """Every position of the first turn; then of ``keep`` distinct positions per turn after
        it (those after a take first: they were refilled)."""
        level = [state]
        for _ in range(turns):
            nxt = [c for s in level for c in self.walk_turn(s)]
            nxt.sort(key=lambda c: not c.last_taken)
            seen: set[tuple[Any, ...]] = set()
            level = []
            for c in nxt:
                key = (tuple(c.flock), tuple(c.deck), c.turn)
                if key not in seen and len(level) < keep:
                    seen.add(key)
                    level.append(c)


@pytest.mark.parametrize("name,deck,options,turns", CASES, ids=[c[0] for c in CASES])
def test_the_kernel_agrees_with_the_engine_everywhere(name, deck, options, turns, monkeypatch):  # type: ignore[no-untyped-def]
    shuffler = KernelShuffle()
    monkeypatch.setattr(engine, "seeded_random", shuffler)
    rules = DollyRules(dog_swaps=DOGS, **options)
    game = DollyGame(2, rules, breeds=list(DOGS))
    w = Walk(game, shuffler)
    state = w.check_setup(deck)
    if name == "endless clean-up":
        assert state.phase == OVER and state.aborted  # the deal's clean-up gave up
        # a flock without lines, the rest of the deck one type: every refill gives up
        no_line = [B, L, F, B, L, L, F, B, L, F, F, B, L, F, B]
        state = game.new_initial_state(seed=0, deck=no_line + [B, b] * 6)
        _resolve(state)
    assert state.phase == DOG
    w.walk(state, turns)
    c = w.counts
    assert c["positions"] > 20 and c["turns"] > 20, c
    if name == "deal clean-up":
        assert state._shuffles > 0  # the deal's clean-up reshuffled
    if name in ("long clean-ups", "crossing lines"):
        assert c["clean-ups"] > c["aborted"] > 0, c  # some clean-ups settle, some give up
    if name == "endless clean-up":
        assert c["aborted"] > 0, c
    if name in ("exact deck", "deal clean-up"):
        assert c["over"] > 0, c


def test_the_swap_table_is_the_engines() -> None:
    flock = list(range(10)) + [0, 1, 2, 3, 4]
    x = pack(flock)
    for j in range(len(SWAPS)):
        assert unpack(int(lines.apply_swap(np.uint64(x), j))) == apply_swaps(flock, (j,))


# -- the grid kernel (any board, every house rule) against the engine ---------------------------
from sheepfold.games.dolly_crush.kernel import grid  # noqa: E402
from sheepfold.games.dolly_crush.kernel.layout import geometry  # noqa: E402

GRID_RULES: list[dict[str, Any]] = [
    {},  # the rulebook's, on the grid kernel too
    {"rows": 4, "cols": 4, "diagonals": True, "types": 3},
    {"rows": 2, "cols": 6, "min_line": 2, "types": 6, "swaps": "up-to"},
    {"rows": 5, "cols": 3, "match_colour": True, "types": 2, "cascades": True},
    {"rows": 3, "cols": 4, "min_line": 4, "types": 2, "cascades": True, "swaps": "up-to"},
    {"rows": 6, "cols": 5, "types": 8, "diagonals": True, "min_line": 4, "end_points": 12},
    {"rows": 3, "cols": 3, "types": 3, "rounds": 3, "dogs_per_player": 2, "max_cleanup_rounds": 4},
    {"rows": 4, "cols": 5, "types": 4, "min_line": 3, "match_colour": True, "diagonals": True},
    {"rows": 2, "cols": 2, "min_line": 2, "types": 5, "cascades": True, "end_points": 9},
    # the rule language's parts (docs/spec/rule-language.md); test_dolly_language checks that
    # these rule sets exercise every part of the rules model
    {"shape": ["XXX.", "XXXX", ".XXX"], "types": 3, "adjacent": ["diagonal"]},
    {"shape": [".XX", "XXX", "X.X"], "types": 3, "refill": "gravity", "cascades": True},
    {"rows": 4, "cols": 4, "types": 4, "adjacent": ["orthogonal", "diagonal"], "swaps": "up-to"},
    {
        "rows": 4,
        "cols": 4,
        "types": 3,
        "combinations": [{"kind": "pattern", "cells": ["XX", "XX"]}],
        "points": {"bell": {"white": 3}, "lamb": {"black": 5}},
    },
    {
        "shape": ["XXXX.", "XXXXX", "XXXXX"],
        "types": 3,
        "combinations": [
            {"kind": "pattern", "cells": ["X.", "XX"], "colour": True},
            {"kind": "line", "length": 4, "directions": ["columns", "diagonals", "rows"]},
        ],
        "refill": "gravity",
    },
    {
        "rows": 4,
        "cols": 6,
        "types": 3,
        "combinations": [
            {"kind": "line", "length": 3, "directions": ["rows"]},
            {"kind": "line", "length": 2, "directions": ["columns"], "colour": True},
        ],
        "bonuses": [{"length": 4, "times": 2}, {"length": 5, "times": 3}],
        "cascades": True,
    },
    {
        "rows": 3,
        "cols": 5,
        "types": 3,
        "bonuses": [{"length": 4, "times": 2}],
        "points": {"butterfly": {"white": 0, "black": 4}},
        "white_points": 2,
        "black_points": 3,
        "white_per_type": 8,
        "black_per_type": 3,
        "refill": "gravity",
        "max_cleanup_rounds": 5,
    },
]
GRID_DOGS = {"pastore-maremmano": [1, 2, 0, 1], "bobtail": [2, 1, 1, 1]}


def _grid_dogs(rules: dict[str, Any]) -> dict[str, list[int]]:
    k = rules.get("dogs_per_player", 4)
    return {b: c[:k] for b, c in GRID_DOGS.items()}


def _check_grid_position(state: Any, geo: Any) -> int:
    """The kernel's legal swaps, combinations and best swaps are the engine's; swaps checked."""
    game = state.game
    board = game.board
    f = np.array(state.flock, dtype=np.int8)
    hit = np.zeros(board.cells, dtype=np.bool_)
    legal = [a - game.swap0 for a in state.legal_actions() if a != game.stop]
    assert list(grid.legal(f, geo)) == legal
    for j in legal:
        g = apply_swaps(state.flock, (j,), board)
        grid.swap(f, j, geo)
        assert f.tolist() == g
        assert int(grid.points(f, geo, hit)) == combination_points(g, game.points, board)
        assert [c for c in range(board.cells) if hit[c]] == board.find_lines(g)
        grid.swap(f, j, geo)
    n = state.swaps_left
    if 1 <= n <= 2:
        up_to = game.stop is not None
        want = reference_best_swaps(state.flock, n, game.points, board, up_to)
        assert grid.best_swaps(state.flock, n, game.points, board, up_to) == want
    return len(legal)


def _check_grid_turn_end(state: Any, action: int, geo: Any, shuffler: KernelShuffle) -> Any:
    """Play ``action``, the last of a turn: the kernel's take, refill (clean-up or cascades)
    and end are the engine's, given the engine's deck order and reshuffles."""
    game = state.game
    me = state.turn
    f = list(state.flock)
    if state.phase == SWAP and action != game.stop:
        f = apply_swaps(f, (action - game.swap0,), game.board)
    x = np.array(f, dtype=np.int8)
    hit = np.zeros(x.size, dtype=np.bool_)
    deck = np.zeros(len(state.deck) + x.size, dtype=np.int64)
    deck[: len(state.deck)] = state.deck
    seed = 1000 + len(state.history)
    shuffler.rng[0] = np.uint64(seed)
    child = state.clone()
    child.apply(action)
    _resolve(child)
    pts = int(grid.take(x, geo, hit))
    n, aborted, gained = len(state.deck), False, 0
    if hit.any():  # a combination, even of cards worth no points
        rng = np.array([seed], dtype=np.uint64)
        n, aborted, gained = grid.settle(
            x, deck, n, game.rules.max_cleanup_rounds, rng, game.rules.cascades, geo, hit
        )
    assert child.flock == x.tolist()
    assert child.deck == deck[:n].tolist() and child.aborted == bool(aborted)
    assert child.scores()[me] - state.scores()[me] == pts + gained
    if aborted or n == 0:
        assert child.phase == OVER  # Dolly Crush ruling 8
    target = game.rules.end_points
    if target is not None and max(child.scores()) >= target:
        assert child.phase == OVER
    return child


def _walk_random_games(
    options: dict[str, Any], games: int, seed: int, monkeypatch: Any
) -> tuple[int, int]:
    """Random games under ``options``: every swap position and every turn end checked."""
    import random

    shuffler = KernelShuffle()
    monkeypatch.setattr(engine, "seeded_random", shuffler)
    rules = DollyRules(dog_swaps=_grid_dogs(options), **options)
    game = DollyGame(2, rules, breeds=list(GRID_DOGS))
    geo = geometry(game.board, tuple(game.points))
    rng = random.Random(seed)
    swaps = turns = 0
    for g in range(games):
        state = game.new_initial_state(seed=g)
        _resolve(state)
        while not state.is_terminal():
            if state.phase == SWAP:
                swaps += _check_grid_position(state, geo)
            action = rng.choice(state.legal_actions())
            ends = (
                (state.phase == DOG and game.dog_swaps[state.turn][action] == 0)
                or action == game.stop
                or (state.phase == SWAP and state.swaps_left == 1)
            )
            if ends:
                state = _check_grid_turn_end(state, action, geo, shuffler)
                turns += 1
            else:
                state.apply(action)
                _resolve(state)
    return swaps, turns


@pytest.mark.parametrize("options", GRID_RULES, ids=lambda r: "-".join(map(str, r)) or "rulebook")
def test_the_grid_kernel_agrees_with_the_engine(options, monkeypatch):  # type: ignore[no-untyped-def]
    swaps, turns = _walk_random_games(options, 6, len(options), monkeypatch)
    assert swaps > 50 and turns > 10


@pytest.mark.parametrize("seed", range(6))
def test_the_grid_kernel_agrees_with_the_engine_on_random_rules(seed, monkeypatch):  # type: ignore[no-untyped-def]
    import random

    rng = random.Random(seed)
    rows, cols = rng.randint(1, 6), rng.randint(2, 6)
    options: dict[str, Any] = {
        "rows": rows,
        "cols": cols,
        "min_line": rng.randint(2, min(4, max(rows, cols))),
        "diagonals": rng.random() < 0.5,
        "match_colour": rng.random() < 0.3,
        "types": rng.randint(2, 8),
        "swaps": rng.choice(["exact", "up-to"]),
        "cascades": rng.random() < 0.5,
        "white_per_type": rng.randint(3, 12),
        "black_per_type": rng.randint(0, 4),
        "max_cleanup_rounds": rng.choice([3, 50]),
    }
    if options["min_line"] == 2:  # pairs are everywhere: a deal may need many clean-ups
        options["max_cleanup_rounds"] = 10_000
    if rng.random() < 0.4:
        options["rounds"] = rng.randint(1, 4)
    if rng.random() < 0.4:
        options["end_points"] = rng.randint(5, 20)
    try:
        DollyRules(dog_swaps=_grid_dogs(options), **options)
    except ValueError:  # a deck too small for the flock, a target out of reach
        options.pop("end_points", None)
        options["white_per_type"] = 40
    swaps, turns = _walk_random_games(options, 4, seed, monkeypatch)
    assert turns > 0, options


@pytest.mark.parametrize("options", GRID_RULES[1:], ids=lambda r: "-".join(map(str, r)))
def test_the_grid_greedy_turn_is_the_greedy_bots(options):  # type: ignore[no-untyped-def]
    """The lab's fast greedy turn (grid kernel) is the greedy bot's choice (``choose_dog`` and
    the reference search)."""
    from sheepfold.lab.fastsim_dolly import greedy_turn

    rules = DollyRules(dog_swaps=_grid_dogs(options), **options)
    game = DollyGame(2, rules, breeds=list(GRID_DOGS))
    up_to = game.stop is not None
    for g in range(3):
        state = game.new_initial_state(seed=g)
        _resolve(state)
        while not state.is_terminal():
            me = state.turn
            counts = game.dog_swaps[me]
            left = state.dogs_left(me)
            dog = choose_dog(state.flock, left, counts, game.points, game.board, up_to)
            n = counts[dog]
            _, seq = reference_best_swaps(state.flock, n, game.points, game.board, up_to)
            stop = [game.stop] if up_to and len(seq) < n and n else []
            want = [dog] + [game.swap0 + s for s in seq] + stop
            plan = greedy_turn(state)
            assert plan == want
            for a in plan:
                state.apply(a)
            _resolve(state)
