"""The swap search of Dolly Crush: the most points one turn of exactly ``n`` swaps can take.

:func:`reference_best_swaps` is the plain, obviously-correct exhaustive search. It is the oracle
that faster searches are checked against, and the default :data:`best_swaps` until a faster one
is plugged in. Every caller (bots, front ends, the lab) uses :data:`best_swaps`, never a
particular implementation.

Both functions answer ``(points, swaps)``: the most points collectable with EXACTLY ``n`` swaps
(Dolly Crush ruling 7: swaps need not make lines, a card may be swapped more than once, lines
are found only after the last swap), and the swap sequence as indexes into
:data:`~sheepfold.games.dolly_crush.cards.SWAPS`. Ties are broken deterministically: the first
sequence, in lexicographic order of the swap indexes, among those that score the most.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sheepfold.games.dolly_crush.cards import EMPTY, RULEBOOK_BOARD, Board

SearchFn = Callable[..., tuple[int, tuple[int, ...]]]


def combination_points(
    flock: Sequence[int], points: Sequence[int], board: Board = RULEBOOK_BOARD
) -> int:
    """Points of the combination in ``flock`` (Dolly Crush ruling 5: the union of all lines)."""
    return board.score(flock, points)


def apply_swaps(
    flock: Sequence[int], swaps: Sequence[int], board: Board = RULEBOOK_BOARD
) -> list[int]:
    """The flock after the swaps (indexes into the board's swaps), without taking any line."""
    f = list(flock)
    for i in swaps:
        a, b = board.swaps[i]
        f[a], f[b] = f[b], f[a]
    return f


def reference_best_swaps(
    flock: Sequence[int],
    n: int,
    points: Sequence[int],
    board: Board = RULEBOOK_BOARD,
    up_to: bool = False,
) -> tuple[int, tuple[int, ...]]:
    """Exhaustive search over every sequence of exactly ``n`` swaps (see the module docstring).

    Identical intermediate flocks are merged, each keeping the lexicographically first sequence
    that reaches it. That keeps the answer exact: the first best sequence reaching a final flock
    always extends the first sequence reaching its prefix's flock. Levels are built in
    lexicographic order, so the first flock inserted is also reached by the first sequence.
    A swap touching an empty cell is not allowed (it cannot be played); ``ValueError`` if no
    sequence of ``n`` legal swaps exists. ``up_to`` (house rule): at most ``n`` swaps, the
    fewest among the best.
    """
    if n < 0:
        raise ValueError(f"a number of swaps is 0 or more, not {n}")
    if up_to:
        best: tuple[int, tuple[int, ...]] = (combination_points(flock, points, board), ())
        for k in range(1, n + 1):
            try:
                got = reference_best_swaps(flock, k, points, board)
            except ValueError:
                break
            if got[0] > best[0]:
                best = got
        return best
    start = tuple(flock)
    legal_pairs = [(i, a, b) for i, (a, b) in enumerate(board.swaps)]
    level: dict[tuple[int, ...], tuple[int, ...]] = {start: ()}
    for _ in range(n):
        nxt: dict[tuple[int, ...], tuple[int, ...]] = {}
        for f, seq in level.items():
            for i, a, b in legal_pairs:
                x, y = f[a], f[b]
                if x == EMPTY or y == EMPTY:
                    continue
                if x == y:
                    child = f  # swapping two identical cards changes nothing
                else:
                    lst = list(f)
                    lst[a], lst[b] = y, x
                    child = tuple(lst)
                if child not in nxt:
                    nxt[child] = seq + (i,)
        if not nxt:
            raise ValueError("no swap can be made: every adjacent pair has an empty cell")
        level = nxt
    best_points = -1
    best_seq: tuple[int, ...] = ()
    for f, seq in level.items():
        p = combination_points(f, points, board)
        if p > best_points or (p == best_points and seq < best_seq):
            best_points, best_seq = p, seq
    return best_points, best_seq


def fast_or_grid_best_swaps(
    flock: Sequence[int],
    n: int,
    points: Sequence[int],
    board: Board = RULEBOOK_BOARD,
    up_to: bool = False,
) -> tuple[int, tuple[int, ...]]:
    """The reference's answers, fast: the packed search (numpy) on the rulebook's geometry with
    exactly ``n`` swaps; the compiled search of any board (:mod:`.kernel.grid`, numba) else."""
    if not up_to and packable(board):
        return fast_best_swaps(flock, n, points)
    from sheepfold.games.dolly_crush.kernel import grid

    return grid.best_swaps(flock, n, points, board, up_to)


# The one rebinding point: a faster search with the same signature and the same answers
# replaces the reference here; every caller reads ``search.best_swaps``.
from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps  # noqa: E402
from sheepfold.games.dolly_crush.kernel.layout import packable  # noqa: E402

best_swaps: SearchFn = fast_or_grid_best_swaps
