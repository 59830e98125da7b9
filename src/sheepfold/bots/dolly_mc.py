"""The expert's playouts, compiled with numba.

A candidate is the flock its player leaves with the swaps of this turn (before the take). One
playout of it: the player takes the combination, the flock is refilled from the unseen cards
(drawn at random: the deck's composition is known, its order is not) with the clean-up of
Dolly Crush ruling 6, and the game is played to its end, every player following the playout
policy:

* a player picks the card of their hand that takes the most points (ties: fewer swaps) and
  plays the swaps that take them (the exhaustive search; one swap: the first best of the 22);
* a player with a card of one swap who can take nothing denies: the swap that leaves the next
  player the fewest points with one swap (when the next player plays one-swap cards).

The playout's value is the candidate's player's win share at the end (ties share) plus a trace of
the final margin. Playout ``k`` of every candidate draws the same random numbers (its own seed):
common random numbers, so candidates are compared on the same luck.

Everything but the playout loop is Dolly Crush's compiled kernel
(:mod:`sheepfold.games.dolly_crush.kernel`): the combination, the refill with the clean-up (the
rule set's ``max_cleanup_rounds``), the greedy turn and the denial; a flock is packed as in
:mod:`~sheepfold.games.dolly_crush.kernel.layout` (nibble ``c`` = card + 1). The unseen cards are
shuffled into a deck at the start of each playout.

:func:`grid_playouts` are the same playouts on any board and under every house rule (the grid
kernel, :mod:`sheepfold.games.dolly_crush.kernel.grid`: int8 flocks, cascades, a points target,
rounds); the expert uses them whenever the rules are not the packed path's.

:func:`warm` compiles the playouts a game's rules take (or loads them from numba's cache folder)
on a tiny real input: the packed ones or the grid ones (:func:`paths`), both when no game is
named; front ends call it through :mod:`sheepfold.bots.warmup` before the first game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheepfold.core.words import Msg
from sheepfold.games.dolly_crush.kernel import grid, layout
from sheepfold.games.dolly_crush.kernel.lines import jit, points, taken
from sheepfold.games.dolly_crush.kernel.policy import deny, greedy_turn
from sheepfold.games.dolly_crush.kernel.refill import refill, shuffle

MARGIN = 1e-3  # weight of the final margin beside the win share (breaks ties between sure things)
LABEL = Msg("the expert's playouts")  # this module's kernels, for a progress line


@jit
def _deal(pool, deck, rng, seed):  # type: ignore[no-untyped-def]
    """The unseen cards (``pool[card]`` of each) into ``deck`` in a random order from ``seed``;
    how many."""
    n = 0
    for card in range(pool.shape[0]):
        for _ in range(pool[card]):
            deck[n] = card
            n += 1
    rng[0] = np.uint64(seed)
    shuffle(deck, n, rng)
    return n


@jit
def _share(scores, me):  # type: ignore[no-untyped-def]
    """``me``'s win share at the end (equal top scores share), plus a trace of the margin."""
    top = scores.max()
    n_top = 0
    second = -(1 << 30)
    for s in range(scores.shape[0]):
        if scores[s] == top:
            n_top += 1
        if s != me and scores[s] > second:
            second = scores[s]
    share = 1.0 / n_top if scores[me] == top else 0.0
    return share + MARGIN * (scores[me] - second)


@jit
def _turn(x, hand, next_one, seq, tabs):  # type: ignore[no-untyped-def]
    """The playout policy's turn: (points, flock after the swaps, swap count of the card)."""
    best, by, bn = greedy_turn(x, hand, seq, tabs)
    if best == 0 and bn == 1 and next_one:  # nothing to take: leave the next player the least
        by, _ = deny(x, tabs)
    return best, by, bn


@jit
def _playout(y, draw, total, scores, table, me, seq, rules):  # type: ignore[no-untyped-def]
    """Turn 0's player leaves ``y``; play to the end. ``draw`` = (deck, random stream): the deck's
    first ``total`` cards are drawn; ``table`` = (who plays each turn, hands[seat, swaps]);
    ``rules`` = (clean-up rounds, tables). The deck, ``scores`` and the hands change."""
    deck, rng = draw
    seat, hands = table
    max_rounds, tabs = rules
    mover = seat[0]
    pts = points(y, tabs)
    x = y
    t = 0
    while True:
        cells = taken(x, tabs)
        if cells != 0:  # a combination, even of cards worth no points (house rules)
            scores[mover] += pts
            x, total, aborted = refill(x, cells, deck, total, max_rounds, rng, tabs)
            if aborted:
                return _share(scores, me)
        if total == 0:  # the deck is empty once the turn's refill is done (Dolly Crush ruling 8)
            return _share(scores, me)
        t += 1
        if t >= seat.shape[0]:
            return _share(scores, me)
        mover = seat[t]
        next_one = False
        if t + 1 < seat.shape[0]:
            h = hands[seat[t + 1]]
            next_one = h[1] > 0 and h.sum() == h[1]
        pts, x, n = _turn(x, hands[mover], next_one, seq, tabs)
        hands[mover, n] -= 1


@jit
def _evaluate(ys, pool, scores, table, me, seeds, rules):  # type: ignore[no-untyped-def]
    """The sum over the playouts (one per seed) of each candidate's value. ``table`` = (who plays
    each turn, hands[seat, swaps]); ``rules`` = (clean-up rounds, tables)."""
    seat, hands = table
    out = np.zeros(ys.shape[0])
    total = pool.sum()
    deck = np.empty(total + 15, dtype=np.int64)
    sc, h = scores.copy(), hands.copy()
    rng = np.zeros(1, dtype=np.uint64)
    seq = np.zeros(hands.shape[1] + 1, dtype=np.int64)
    draw, played = (deck, rng), (seat, h)  # the records, built once: the loop only refills them
    for i in range(ys.shape[0]):
        for k in range(seeds.shape[0]):
            n = _deal(pool, deck, rng, seeds[k])
            sc[:] = scores
            h[:] = hands
            out[i] += _playout(ys[i], draw, n, sc, played, me, seq, rules)
    return out


def playouts(
    ys: np.ndarray,
    pool: np.ndarray,
    scores: np.ndarray,
    table: tuple[np.ndarray, np.ndarray],
    me: int,
    seeds: np.ndarray,
    points: tuple[int, ...],
    max_cleanup_rounds: int,
) -> np.ndarray:
    """Sum, over one playout per seed, of the value of each candidate flock ``ys`` (packed).

    ``pool``: the unseen cards per card id; ``scores``: every seat's points; ``table``: (``seat``,
    ``hands``), as :meth:`~sheepfold.bots.dolly.ExpertDollyBot._table` gives it: ``seat`` is who
    plays each turn from this one (turn 0, whose player leaves ``ys``) to the end of the game,
    ``hands[s, n]`` the cards of ``n`` swaps seat ``s`` holds after this turn; ``me``: whose share
    counts; ``points`` and ``max_cleanup_rounds``: the rule set's."""
    seat, hands = table
    return _evaluate(
        ys.astype(np.uint64),
        pool.astype(np.int64),
        scores.astype(np.int64),
        (seat.astype(np.int64), hands.astype(np.int64)),
        np.int64(me),
        seeds.astype(np.int64),
        (np.int64(max_cleanup_rounds), layout.tables(tuple(points))),
    )


def paths(game: Any = None) -> tuple[str, ...]:
    """The playouts a Dolly Crush ``game``'s rules take: ``("packed",)`` on the rulebook's
    geometry and plain rules (:func:`~sheepfold.games.dolly_crush.fastsearch.plain_rules`),
    ``("grid",)`` else; None: both (every rule set). :mod:`sheepfold.bots.warmup` asks only for
    the games whose bots use this module."""
    if game is None:
        return ("packed", "grid")
    from sheepfold.games.dolly_crush.fastsearch import plain_rules

    return ("packed",) if plain_rules(game) else ("grid",)


def entries(game: Any = None) -> list[Any]:
    """The compiled entry points of the playouts ``game``'s rules take (see :func:`paths`):
    compiling one compiles everything it calls."""
    found = {"packed": _evaluate, "grid": _grid_evaluate}
    return [found[p] for p in paths(game)]


def ready(game: Any = None) -> bool:
    """Whether the playouts ``game``'s rules take (None: both, see :func:`paths`) are compiled
    (or loaded from the cache) in this process."""
    return all(d.signatures for d in entries(game))


def warm(game: Any = None) -> None:
    """Compile the playouts ``game``'s rules take (None: both, see :func:`paths`), or load them
    from numba's cache: a game uses one of them, and each costs about half of the cold
    compilation."""
    flock = [0, 2, 4, 6, 8, 2, 4, 6, 8, 0, 4, 6, 8, 0, 2]  # card ids: types on diagonals
    todo = paths(game)
    if "packed" in todo and not _evaluate.signatures:
        warm_packed(flock)
    if "grid" in todo and not _grid_evaluate.signatures:
        warm_grid(flock)


def warm_packed(flock: list[int]) -> None:
    """Compile the packed playouts on ``flock``: two candidates, one playout each, on a flock
    without lines, two players with a card of one and of two swaps left (the types of every
    call, so no later call compiles again)."""
    points = (1, 2) * 5  # the rulebook's: white 1, black 2 (any points have the same types)
    ys = np.array([layout.pack(flock), layout.pack(flock[1:2] + flock[:1] + flock[2:])])
    playouts(
        ys,
        np.full(len(points), 3),
        np.zeros(2),
        (np.array([0, 1, 0, 1, 0]), np.array([[0, 1, 1], [0, 1, 1]])),
        0,
        np.array([1]),
        points,
        1000,
    )


def warm_grid(flock: list[int]) -> None:
    """Compile the grid playouts (any board, every house rule; the same types for every rule
    set) on the rulebook's flock with diagonal lines. The grid kernel's searches the expert's
    decision calls outside them (``grid.GridFlocks``) are :mod:`sheepfold.bots.dolly_grid`'s,
    one of its ``kernels`` too."""
    from sheepfold.games.dolly_crush.game import DollyGame
    from sheepfold.games.dolly_crush.rules import DollyRules

    game = DollyGame(2, DollyRules(diagonals=True))
    hands = np.array([[0, 1, 1], [0, 1, 1]])
    grid_playouts(
        np.array([flock, flock[1:2] + flock[:1] + flock[2:]], dtype=np.int8),
        np.full(len(game.points), 3),
        np.zeros(2),
        (np.array([0, 1, 0, 1, 0]), hands, hands),
        0,
        np.array([1]),
        game,
    )


# -- any board, every house rule: the grid kernel ----------------------------------------------
@jit
def _grid_turn(x, hand, next_one, up_to, seq, out, geo, hit):  # type: ignore[no-untyped-def]
    """The playout policy's turn on the grid kernel: the swap count of the card played; ``out``
    is the flock after its swaps."""
    best, bn, _ = grid.greedy_turn(x, hand, up_to, grid.LOOKAHEAD_WORK, seq, out, geo)
    if best == 0 and bn == 1 and next_one:  # nothing to take: leave the next player the least
        j = grid.deny(x, geo, hit)
        out[:] = x
        if j >= 0:
            grid.swap(out, j, geo)
    return bn


@jit
def _grid_playout(y, draw, total, scores, table, me, scratch, rules):  # type: ignore[no-untyped-def]
    """:func:`_playout` on any board: turn 0's player leaves ``y`` (an int8 flock); the take,
    the refill (Dolly Crush ruling 6, or the house rule cascades: the refill's lines are the player's), and
    the ends of Dolly Crush ruling 8 and of the house rules: ``end_points`` (0: none) and the rounds (a
    hand that is spent at the start of its owner's turn comes back whole: ``full``)."""
    deck, rng = draw
    seat, hands, full = table
    max_rounds, geo, up_to, cascades, end_points = rules
    x, out, seq, hit = scratch
    x[:] = y
    mover = seat[0]
    t = 0
    while True:
        pts = grid.take(x, geo, hit)
        if hit.any():  # a combination, even of cards worth no points (house rules)
            total, aborted, gained = grid.settle(
                x, deck, total, max_rounds, rng, cascades, geo, hit
            )
            scores[mover] += pts + gained
            if aborted:
                return _share(scores, me)
        if total == 0:  # the deck is empty once the turn's refill is done (Dolly Crush ruling 8)
            return _share(scores, me)
        if end_points > 0 and scores.max() >= end_points:
            return _share(scores, me)
        t += 1
        if t >= seat.shape[0]:
            return _share(scores, me)
        mover = seat[t]
        if hands[mover].sum() == 0:  # rounds: the dog cards come back
            hands[mover] = full[mover]
        next_one = False
        if t + 1 < seat.shape[0]:
            h = hands[seat[t + 1]]
            next_one = h[1] > 0 and h.sum() == h[1]
        n = _grid_turn(x, hands[mover], next_one, up_to, seq, out, geo, hit)
        x[:] = out
        hands[mover, n] -= 1


@jit
def _grid_evaluate(ys, pool, scores, table, me, seeds, rules):  # type: ignore[no-untyped-def]
    """:func:`_evaluate` with the grid playouts; ``table`` = (seat, hands, full hands)."""
    seat, hands, full = table
    out = np.zeros(ys.shape[0])
    total = pool.sum()
    cells = ys.shape[1]
    deck = np.empty(total + cells, dtype=np.int64)
    sc, h = scores.copy(), hands.copy()
    rng = np.zeros(1, dtype=np.uint64)
    scratch = (
        np.empty(cells, dtype=np.int8),
        np.empty(cells, dtype=np.int8),
        np.zeros(hands.shape[1] + 1, dtype=np.int64),
        np.zeros(cells, dtype=np.bool_),
    )
    draw, played = (deck, rng), (seat, h, full)
    for i in range(ys.shape[0]):
        for k in range(seeds.shape[0]):
            n = _deal(pool, deck, rng, seeds[k])
            sc[:] = scores
            h[:] = hands
            out[i] += _grid_playout(ys[i], draw, n, sc, played, me, scratch, rules)
    return out


def grid_playouts(
    ys: np.ndarray,
    pool: np.ndarray,
    scores: np.ndarray,
    table: tuple[np.ndarray, np.ndarray, np.ndarray],
    me: int,
    seeds: np.ndarray,
    game: Any,
) -> np.ndarray:
    """:func:`playouts` for any rule set of ``game``: ``ys`` are int8 flocks (one per row);
    ``table`` = (seat, hands, the full hands a seat takes back in rounds)."""
    r = game.rules
    seat, hands, full = table
    rules = (
        np.int64(r.max_cleanup_rounds),
        layout.geometry(game.board, tuple(game.points)),
        game.stop is not None,
        bool(r.cascades),
        np.int64(r.end_points or 0),
    )
    return _grid_evaluate(  # type: ignore[no-any-return]
        ys.astype(np.int8),
        pool.astype(np.int64),
        scores.astype(np.int64),
        (seat.astype(np.int64), hands.astype(np.int64), full.astype(np.int64)),
        np.int64(me),
        seeds.astype(np.int64),
        rules,
    )
