"""The greedy turn of Dolly Crush, compiled: the policy of the ``greedy`` (``medium``) bot, of
the lab's fast path and of the expert's playouts.

:func:`greedy_turn`: of the cards in hand, the one that takes the most points (ties: the card of
fewer swaps), and the lexicographically first swap sequence that takes them (the exhaustive
search of :mod:`.search`). :func:`deny`: the first swap that leaves the next player the fewest
points with one swap (the expert's playouts use it when nothing can be taken).
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.dolly_crush.kernel.lines import apply_swap, is_legal, jit, points
from sheepfold.games.dolly_crush.kernel.search import best_one, search_swaps


@jit
def greedy_turn(x, hand, seq, tabs):  # type: ignore[no-untyped-def]
    """The greedy turn on the packed flock ``x``: ``(points, flock after the swaps, n)``, the
    swaps written to ``seq[:n]``. ``hand[n]``: the cards of ``n`` swaps in hand (at least one
    card; ``seq`` as long as the largest ``n``). A card with no legal swap is never chosen (a
    flock with empty cells is never played: the game is over first)."""
    best = -1
    by = x
    bn = -1
    tmp = np.empty(seq.shape[0], dtype=np.int64)
    for n in range(hand.shape[0]):
        if hand[n] == 0:
            continue
        if n == 0:
            v = points(x, tabs)
            y = x
        elif n == 1:
            v, j = best_one(x, tabs)
            tmp[0] = j
            y = apply_swap(x, j) if j >= 0 else x
        else:
            v = search_swaps(x, n, tmp, tabs)
            y = x
            if v >= 0:
                for i in range(n):
                    y = apply_swap(y, tmp[i])
        if v > best:
            best, by, bn = v, y, n
            seq[:n] = tmp[:n]
    return best, by, bn


@jit
def _below(x, low, tabs):  # type: ignore[no-untyped-def]
    """Whether every legal swap of ``x`` takes fewer than ``low`` points."""
    for j in range(22):
        if is_legal(x, j) and points(apply_swap(x, j), tabs) >= low:
            return False
    return True


@jit
def deny(x, tabs):  # type: ignore[no-untyped-def]
    """``(flock, swap)``: the first legal swap of ``x`` after which one swap takes the least."""
    low = 1 << 30
    by = x
    bj = -1
    for j in range(22):
        if not is_legal(x, j):
            continue
        y = apply_swap(x, j)
        if _below(y, low, tabs):
            low, _ = best_one(y, tabs)
            by = y
            bj = j
            if low == 0:
                break
    return by, bj
