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

A flock is packed as in :mod:`~sheepfold.games.dolly_crush.fastsearch` (nibble ``c`` = card + 1).

:func:`warm` compiles the playouts (or loads them from numba's cache folder) on a tiny real input;
front ends call it through :mod:`sheepfold.bots.warmup` before the first game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheepfold.games.dolly_crush import compiled
from sheepfold.games.dolly_crush import fastsearch as fs
from sheepfold.games.dolly_crush.compiled import column_of, score_flock, search_swaps, swap_packed

_jit: Any = compiled.jit
MARGIN = 1e-3  # weight of the final margin beside the win share (breaks ties between sure things)
LABEL = "the expert's playouts"  # this module's kernels, for a progress line


@_jit
def _taken(x, hit, colline):  # type: ignore[no-untyped-def]
    """The 15-bit mask of the cells in the combination (Dolly Crush ruling 5)."""
    mask = 0
    for r in range(3):
        mask |= np.int64(hit[np.int64((x >> np.uint64(20 * r)) & np.uint64(0xFFFFF))]) << (5 * r)
    for c in range(5):
        if colline[column_of(x, c)]:
            mask |= (1 << c) | (1 << (c + 5)) | (1 << (c + 10))
    return mask


@_jit
def _next(rng):  # type: ignore[no-untyped-def]
    """The next 64 random bits of the splitmix64 generator whose state is ``rng[0]``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_jit
def _draw(pool, total, rng):  # type: ignore[no-untyped-def]
    """Take one card at random from the pool (counts per card id); ``total`` = its size > 0."""
    r = np.int64(_next(rng) % np.uint64(total))
    k = 0
    while r >= pool[k]:
        r -= pool[k]
        k += 1
    pool[k] -= 1
    return k


@_jit
def _refill(x, mask, pool, total, hit, colline, rng):  # type: ignore[no-untyped-def]
    """Take the ``mask`` cells and refill with clean-up (Dolly Crush ruling 6) from ``pool``
    (changed in place). Returns (flock, cards left in the pool, whether the game ends: the deck
    is empty)."""
    f = np.uint64(15)
    for c in range(15):
        if (mask >> c) & 1:
            x &= ~(f << np.uint64(4 * c))
    returning = np.zeros(0, dtype=np.int64)  # made when a clean-up first needs it
    n_ret = 0
    for _ in range(1000):  # Dolly Crush ruling 6 gives up after 1,000 rounds
        for c in range(15):
            if ((x >> np.uint64(4 * c)) & f) == 0 and total > 0:
                k = _draw(pool, total, rng)
                total -= 1
                x |= np.uint64(k + 1) << np.uint64(4 * c)
        if n_ret:  # the removed cards are shuffled back; still-empty cells are filled from them
            for k in range(pool.shape[0]):
                pool[k] += returning[k]
                returning[k] = 0
            total += n_ret
            n_ret = 0
            continue
        m = _taken(x, hit, colline)
        if m == 0:
            return x, total, total == 0
        if returning.shape[0] == 0:
            returning = np.zeros(pool.shape[0], dtype=np.int64)
        for c in range(15):
            if (m >> c) & 1:
                returning[np.int64((x >> np.uint64(4 * c)) & f) - 1] += 1
                n_ret += 1
                x &= ~(f << np.uint64(4 * c))
    return x, total, True


@_jit
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


@_jit
def _best_one(x, sa, sb, tabs):  # type: ignore[no-untyped-def]
    """(most points one swap takes, the first flock that takes them)."""
    row_pts, col_pts, nib_pts, hit, colline = tabs
    best = -1
    by = x
    for j in range(sa.shape[0]):
        y = swap_packed(x, sa[j], sb[j])
        v = score_flock(y, row_pts, col_pts, nib_pts, hit, colline)
        if v > best:
            best = v
            by = y
    return best, by


@_jit
def _beats(x, low, sa, sb, tabs):  # type: ignore[no-untyped-def]
    """Whether the most points one swap takes from ``x`` is below ``low``."""
    row_pts, col_pts, nib_pts, hit, colline = tabs
    for j in range(sa.shape[0]):
        if (
            score_flock(swap_packed(x, sa[j], sb[j]), row_pts, col_pts, nib_pts, hit, colline)
            >= low
        ):
            return False
    return True


@_jit
def _turn(x, hand, next_one, sa, sb, legal, seq, tabs):  # type: ignore[no-untyped-def]
    """The playout policy's turn: (points, flock after the swaps, swap count of the card)."""
    row_pts, col_pts, nib_pts, hit, colline = tabs
    best = -1
    by = x
    bn = -1
    for n in range(hand.shape[0]):
        if hand[n] == 0:
            continue
        if n == 0:
            v, y = score_flock(x, row_pts, col_pts, nib_pts, hit, colline), x
        elif n == 1:
            v, y = _best_one(x, sa, sb, tabs)
        else:
            v = search_swaps(x, n, legal, sa, sb, row_pts, col_pts, nib_pts, hit, colline, seq)
            y = x
            for i in range(n):
                y = swap_packed(y, sa[seq[i]], sb[seq[i]])
        if v > best:
            best, by, bn = v, y, n
    if best == 0 and bn == 1 and next_one:  # nothing to take: leave the next player the least
        low = 1 << 30
        for j in range(sa.shape[0]):
            y = swap_packed(x, sa[j], sb[j])
            if _beats(y, low, sa, sb, tabs):  # the first swap leaving the least
                low, _ = _best_one(y, sa, sb, tabs)
                by = y
                if low == 0:
                    break
    return best, by, bn


@_jit
def _playout(y, pool, total, scores, hands, seat, me, rng, seq, sa, sb, legal, tabs):  # type: ignore[no-untyped-def]
    """Turn 0's player leaves ``y``; play to the end. ``pool``, ``scores``, ``hands`` change."""
    row_pts, col_pts, nib_pts, hit, colline = tabs
    mover = seat[0]
    pts = score_flock(y, row_pts, col_pts, nib_pts, hit, colline)
    x = y
    t = 0
    while True:
        if pts > 0:
            scores[mover] += pts
            x, total, over = _refill(x, _taken(x, hit, colline), pool, total, hit, colline, rng)
            if over:
                return _share(scores, me)
        t += 1
        if t >= seat.shape[0]:
            return _share(scores, me)
        mover = seat[t]
        next_one = False
        if t + 1 < seat.shape[0]:
            h = hands[seat[t + 1]]
            next_one = h[1] > 0 and h.sum() == h[1]
        pts, x, n = _turn(x, hands[mover], next_one, sa, sb, legal, seq, tabs)
        hands[mover, n] -= 1


@_jit
def _evaluate(ys, pool, scores, hands, seat, me, seeds, sa, sb, legal, tabs):  # type: ignore[no-untyped-def]
    """The sum over the playouts (one per seed) of each candidate's value."""
    out = np.zeros(ys.shape[0])
    total = pool.sum()
    p, sc, h = pool.copy(), scores.copy(), hands.copy()
    rng = np.zeros(1, dtype=np.uint64)
    seq = np.zeros(hands.shape[1] + 1, dtype=np.int64)
    for i in range(ys.shape[0]):
        for k in range(seeds.shape[0]):
            p[:] = pool
            sc[:] = scores
            h[:] = hands
            rng[0] = np.uint64(seeds[k])
            out[i] += _playout(ys[i], p, total, sc, h, seat, me, rng, seq, sa, sb, legal, tabs)
    return out


def playouts(
    ys: np.ndarray,
    pool: np.ndarray,
    scores: np.ndarray,
    hands: np.ndarray,
    seat: np.ndarray,
    me: int,
    seeds: np.ndarray,
    points: tuple[int, ...],
) -> np.ndarray:
    """Sum, over one playout per seed, of the value of each candidate flock ``ys`` (packed).

    ``pool``: the unseen cards per card id; ``scores``: every seat's points; ``hands[s, n]``: the
    cards of ``n`` swaps seat ``s`` holds after this turn; ``seat``: who plays each turn from this
    one (turn 0, whose player leaves ``ys``) to the end of the game; ``me``: whose share counts."""
    return _evaluate(
        ys.astype(np.uint64),
        pool.astype(np.int64),
        scores.astype(np.int64),
        hands.astype(np.int64),
        seat.astype(np.int64),
        np.int64(me),
        seeds.astype(np.int64),
        fs.SWAP_A,
        fs.SWAP_B,
        np.arange(len(fs.SWAP_A), dtype=np.int64),
        compiled.tables(tuple(points)),
    )


def ready() -> bool:
    """Whether the playouts are compiled (or loaded from the cache) in this process."""
    return bool(_evaluate.signatures)


def warm() -> None:
    """Compile the playouts (or load them from numba's cache): two candidates, one playout each,
    on a flock without lines, two players with a card of one and of two swaps left (the types
    of every call, so no later call compiles again)."""
    points = (1, 2) * 5  # the rulebook's: white 1, black 2 (any points have the same types)
    flock = [0, 2, 4, 6, 8, 2, 4, 6, 8, 0, 4, 6, 8, 0, 2]  # card ids: types on diagonals
    playouts(
        fs.reachable(flock, 1).flocks[:2],
        np.full(len(points), 3),
        np.zeros(2),
        np.array([[0, 1, 1], [0, 1, 1]]),
        np.array([0, 1, 0, 1, 0]),
        0,
        np.array([1]),
        points,
    )
