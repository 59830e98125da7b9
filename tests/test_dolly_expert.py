"""The expert's compiled playouts (bots/dolly_mc.py, on the Dolly Crush kernel) against the rules
engine."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheepfold.bots import dolly_mc, make_bot
from sheepfold.bots.dolly import ExpertDollyBot, view_flock
from sheepfold.core.play import resolve_chance
from sheepfold.core.protocol import TERMINAL
from sheepfold.games import make
from sheepfold.games.dolly_crush import search
from sheepfold.games.dolly_crush.cards import NUM_CELLS, SWAPS, find_lines, parse_card
from sheepfold.games.dolly_crush.game import SWAP0
from sheepfold.games.dolly_crush.kernel import refill
from sheepfold.games.dolly_crush.kernel.layout import pack, tables, unpack
from sheepfold.games.dolly_crush.search import apply_swaps

ONE_SWAP = ["pastore-maremmano", "bobtail"]


def _to_dog_decision(game, seed: int, turns: int):  # type: ignore[no-untyped-def]
    """A game between medium bots at the dog decision of turn ``turns`` (0 = the first)."""
    s = game.new_initial_state(seed=seed)
    bots = [make_bot("medium", game, p, p) for p in range(game.num_players)]
    resolve_chance(s)
    while True:
        p = s.current_player()
        v = s.observe(p)
        if v["phase"] == "dog" and sum(4 - len(d) for d in v["dogs_left"]) == turns:
            return s
        s.apply(bots[p].act(v))
        resolve_chance(s)


def _pool(view) -> np.ndarray:  # type: ignore[no-untyped-def]
    pool = np.zeros(10, dtype=np.int64)
    for code, k in view["unseen"].items():
        pool[parse_card(code)] += k
    return pool


def _engine_value(game, state, seat: int, swap: int, draws: int) -> float:  # type: ignore[no-untyped-def]
    """The mean share of ``seat`` when it plays ``swap`` and then everyone plays the playout
    policy, over ``draws`` decks shuffled by the engine (``determinize``)."""
    view = state.observe(seat)
    total = 0.0
    for k in range(draws):
        d = game.determinize(view, seed=k)
        d.apply_unchecked(view["dogs_left"][seat][0])
        d.apply_unchecked(SWAP0 + swap)
        resolve_chance(d)
        while d.current_player() != TERMINAL:  # one-swap turns: the most points, else deny
            p = d.current_player()
            pts, seq = search.best_swaps(d.flock, 1, game.points)
            if pts == 0 and sum(len(h) for h in d.observe(p)["dogs_left"]) > 1:  # a next turn
                replies = [
                    search.best_swaps(apply_swaps(d.flock, (j,)), 1, game.points)[0]
                    for j in range(len(SWAPS))
                ]
                seq = (int(np.argmin(replies)),)
            d.apply_unchecked(d.observe(p)["dogs_left"][p][0])
            d.apply_unchecked(SWAP0 + seq[0])
            resolve_chance(d)
        sc = d.scores()
        total += d.returns()[seat] + dolly_mc.MARGIN * (
            sc[seat] - max(sc[q] for q in range(len(sc)) if q != seat)
        )
    return total / draws


def test_the_last_turn_of_the_game_is_valued_exactly() -> None:
    game = make("dolly-crush", breeds=ONE_SWAP)
    for seed in range(6):
        s = _to_dog_decision(game, seed, turns=7)
        view = s.observe(1)
        bot = ExpertDollyBot(game, 1, seed=0)
        seats, hands = bot._table(view, 1)
        assert list(seats) == [1] and hands.sum() == 0
        flock = view_flock(view)
        ys = np.array([pack(apply_swaps(flock, (j,))) for j in range(len(SWAPS))], dtype=np.uint64)
        got = (
            dolly_mc.playouts(
                ys,
                _pool(view),
                np.array(view["scores"]),
                (seats, hands),
                1,
                np.array([1, 2]),
                game.points,
                game.rules.max_cleanup_rounds,
            )
            / 2
        )
        want = [_engine_value(game, s, 1, j, draws=1) for j in range(len(SWAPS))]
        assert got == pytest.approx(want, abs=1e-9)


def test_playouts_agree_with_the_engine_two_turns_from_the_end() -> None:
    """Seat 0's last turn: its take is refilled at random, then seat 1 replies. The compiled
    playouts and the engine's decks give the same mean share (within 4 standard errors)."""
    game = make("dolly-crush", breeds=ONE_SWAP)
    checked = 0
    for seed in range(12):
        s = _to_dog_decision(game, seed, turns=6)
        view = s.observe(0)
        flock = view_flock(view)
        scoring = [j for j in range(len(SWAPS)) if find_lines(apply_swaps(flock, (j,)))]
        if not scoring:
            continue
        bot = ExpertDollyBot(game, 0, seed=0)
        seats, hands = bot._table(view, 1)
        assert list(seats) == [0, 1]
        for j in scoring[:2]:
            y = np.array([pack(apply_swaps(flock, (j,)))], dtype=np.uint64)
            n = 600
            got = (
                dolly_mc.playouts(
                    y,
                    _pool(view),
                    np.array(view["scores"]),
                    (seats, hands),
                    0,
                    np.arange(n),
                    game.points,
                    game.rules.max_cleanup_rounds,
                )[0]
                / n
            )
            want = _engine_value(game, s, 0, j, draws=n)
            se = max(0.5 / np.sqrt(n), 1e-3)
            assert abs(got - want) < 4 * se * np.sqrt(2), (seed, j, got, want)
            checked += 1
    assert checked >= 4


@given(seed=st.integers(0, 10_000), swap=st.integers(0, len(SWAPS) - 1))
def test_a_compiled_refill_draws_only_unseen_cards_and_leaves_no_line(seed: int, swap: int) -> None:
    game = make("dolly-crush", breeds=ONE_SWAP)
    s = game.new_initial_state(seed=seed)
    resolve_chance(s)
    view = s.observe(0)
    flock = apply_swaps(view_flock(view), (swap,))
    taken = find_lines(flock)
    tabs = tables(tuple(game.points))
    before = _pool(view)
    deck = np.zeros(int(before.sum()) + 15, dtype=np.int64)
    n = int(before.sum())
    deck[:n] = np.repeat(np.arange(10), before)
    mask = sum(1 << c for c in taken)
    rng = np.array([seed], dtype=np.uint64)
    refill.shuffle(deck, n, rng)
    x, left, over = refill.refill(
        np.uint64(pack(flock)), mask, deck, n, game.rules.max_cleanup_rounds, rng, tabs
    )
    after = unpack(int(x))
    pool = np.bincount(deck[:left], minlength=10)
    assert not over and left == pool.sum() and -1 not in after
    assert find_lines(after) == []
    # cards are conserved (a clean-up may also send kept cards back to the pool)
    kept = Counter(c for i, c in enumerate(flock) if i not in taken)
    now = Counter(after)
    assert all(now[k] + pool[k] == kept[k] + before[k] for k in range(10))
    assert len(after) == NUM_CELLS


def test_the_expert_takes_the_swap_that_wins_on_the_last_turn() -> None:
    game = make("dolly-crush", breeds=ONE_SWAP)
    seen = 0
    for seed in range(30):
        s = _to_dog_decision(game, seed, turns=7)
        view = s.observe(1)
        flock = view_flock(view)
        lead = view["scores"][1] - view["scores"][0]
        pts = [
            search.combination_points(apply_swaps(flock, (j,)), game.points)
            for j in range(len(SWAPS))
        ]
        if lead + max(pts) <= 0 or lead > 0:  # only positions where the right swap decides
            continue
        bot = make_bot("expert:time=0", game, 1, seed=3)  # its playout budget, no clock
        s.apply(bot.act(view))
        s.apply(bot.act(s.observe(1)))
        resolve_chance(s)
        assert s.is_terminal() and s.returns()[1] > 0.5 - 1e-9
        seen += 1
    assert seen >= 2
