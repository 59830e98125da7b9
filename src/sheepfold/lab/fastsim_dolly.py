"""A fast path for Dolly Crush with greedy bots.

The game itself runs in the rules engine (the deck, the draws and the clean-up reshuffles are
the engine's, from the game's seed), so a fast game ``i`` is exactly the engine's game ``i``;
what is fast is the greedy decision:

- the greedy bot (``bots/greedy.py``) searches the view it is given: it rebuilds a state with
  ``determinize`` (a shuffled copy of the unseen deck) and calls the swap search once for each
  swap count at the dog decision and again at every swap decision. Its decisions only depend on
  the flock, so the fast path reads the flock of the real state directly;
- the swap search is :func:`fastsearch.fast_best_swaps` (the same answers as the reference
  search, tie-breaks included), once per distinct swap count at the dog decision;
- the plan found at the dog decision is played out swap by swap. Re-planning after each swap
  (what the bot does) gives the same swaps: the rest of a best plan is a best plan for the
  swaps left, and the search breaks ties by the first sequence in lexicographic order, which
  keeps the rest of the first best plan first. The tests check this game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheepfold.core.protocol import CHANCE, TERMINAL


def _search() -> Any:
    """The swap search: the lab's compiled copy of ``fastsearch`` (numba), else fastsearch."""
    try:
        return nb_best_swaps
    except NameError:  # pragma: no cover
        pass
    try:
        from sheepfold.games.dolly_crush.fastsearch import fast_best_swaps

        return fast_best_swaps
    except ImportError:  # pragma: no cover - before the fast search existed
        from sheepfold.games.dolly_crush.search import best_swaps

        return best_swaps


# -- fastsearch's algorithm, compiled -----------------------------------------------------------
# The same breadth-first search as games/dolly_crush/fastsearch.py (levels deduplicated in rank
# order, the last level scored in flattened order, the first best kept), with its line tables,
# in one numba function: about 5x faster on the rulebook's 4-swap cards.
import sheepfold.lab  # noqa: E402,F401  (NUMBA_CACHE_DIR)
from numba import njit  # noqa: E402

_jit: Any = njit(cache=True, nogil=True)


@_jit
def _score(x, row_pts, col_pts, nib_pts, hit, colline):  # type: ignore[no-untyped-def]
    m20 = np.uint64(0xFFFFF)
    f = np.uint64(15)
    r0 = np.int64((x >> np.uint64(0)) & m20)
    r1 = np.int64((x >> np.uint64(20)) & m20)
    r2 = np.int64((x >> np.uint64(40)) & m20)
    total = np.int64(row_pts[r0]) + np.int64(row_pts[r1]) + np.int64(row_pts[r2])
    vmask = 0
    for c in range(5):
        lo = (x >> np.uint64(4 * c)) & f
        mid = (x >> np.uint64(4 * (c + 5) - 4)) & np.uint64(0xF0)
        hi = (x >> np.uint64(4 * (c + 10) - 8)) & np.uint64(0xF00)
        ci = np.int64(lo | mid | hi)
        total += col_pts[ci]
        if colline[ci]:
            vmask |= 1 << c
    if vmask:
        for r in range(3):
            rv = (r0, r1, r2)[r]
            ov = np.int64(hit[rv]) & vmask
            if ov:
                for c in range(5):
                    if (ov >> c) & 1:
                        total -= nib_pts[(rv >> (4 * c)) & 15]
    return total


@_jit
def _nb_search(x0, n, legal, sa, sb, row_pts, col_pts, nib_pts, hit, colline, seq):  # type: ignore[no-untyped-def]
    m = legal.shape[0]
    f = np.uint64(15)
    # levels 1..n-1, deduplicated, stored flat with their parents and swaps
    size = 1
    level = np.empty(1, dtype=np.uint64)
    level[0] = x0
    par_all = np.empty(0, dtype=np.int64)
    swp_all = np.empty(0, dtype=np.int64)
    starts = np.zeros(n + 1, dtype=np.int64)
    for lvl in range(n - 1):
        flat = np.empty(size * m, dtype=np.uint64)
        for k in range(size):
            x = level[k]
            for j in range(m):
                a = sa[legal[j]]
                b = sb[legal[j]]
                d = ((x >> a) ^ (x >> b)) & f
                flat[k * m + j] = x ^ (d << a) ^ (d << b)
        perm = np.argsort(flat, kind="mergesort")
        keep = np.empty(flat.shape[0], dtype=np.int64)
        c = 0
        for i in range(flat.shape[0]):
            if i == 0 or flat[perm[i]] != flat[perm[i - 1]]:
                keep[c] = perm[i]
                c += 1
        first = np.sort(keep[:c])
        level = flat[first]
        size = c
        starts[lvl + 1] = par_all.shape[0]
        par_all = np.concatenate((par_all, first // m))
        swp_all = np.concatenate((swp_all, legal[first % m]))
    best = -1
    bk = -1
    bj = -1
    for k in range(size):
        x = level[k]
        for j in range(m):
            a = sa[legal[j]]
            b = sb[legal[j]]
            d = ((x >> a) ^ (x >> b)) & f
            y = x ^ (d << a) ^ (d << b)
            v = _score(y, row_pts, col_pts, nib_pts, hit, colline)
            if v > best:
                best = v
                bk = k
                bj = j
    seq[n - 1] = legal[bj]
    k = bk
    for lvl in range(n - 2, -1, -1):
        base = starts[lvl + 1]
        seq[lvl] = swp_all[base + k]
        k = par_all[base + k]
    return best


_TABLES: dict[tuple[int, ...], tuple[np.ndarray, ...]] = {}


def nb_best_swaps(flock: Sequence[int], n: int, points: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Same answers as ``fastsearch.fast_best_swaps`` (points, lexicographically first swaps)."""
    from sheepfold.games.dolly_crush import fastsearch as fs

    key = tuple(points)
    if key not in _TABLES:
        row_pts, col_pts, nib_pts = fs._point_tables(key)
        # small dtypes: the row tables (2**20 entries) then stay in the CPU caches
        _TABLES[key] = (row_pts.astype(np.int16), col_pts.astype(np.int32), nib_pts.astype(np.int32),
                        fs._row_hit_table().astype(np.uint8), fs._col_line_table().astype(np.uint8))
    x0 = fs.pack(flock)
    if n == 0:
        return int(fs.score_packed(np.array([x0], dtype=np.uint64), points)[0]), ()
    legal = fs._legal_swaps(x0).astype(np.int64)
    if legal.size == 0:
        raise ValueError("no swap can be made: every adjacent pair has an empty cell")
    seq = np.zeros(n, dtype=np.int64)
    best = _nb_search(np.uint64(x0), n, legal, fs._SA, fs._SB, *_TABLES[key], seq)
    return int(best), tuple(int(s) for s in seq)


def unsupported(job: Any) -> str | None:
    for spec in job.bots:
        if spec != "greedy":
            return f"the Dolly Crush fast path plays greedy bots only, not {spec!r}"
    return None


def greedy_turn(state: Any, search: Any = None) -> list[int]:
    """The greedy bot's whole turn at a DOG decision: [dog, swap actions...] (engine ids)."""
    from sheepfold.games.dolly_crush.game import SWAP0

    search = search or _search()
    me = state.turn
    swaps_of = state.game.dog_swaps[me]
    points = state.game.points
    flock = state.flock
    plans: dict[int, tuple[int, tuple[int, ...]]] = {}
    best: tuple[int, int, int] | None = None
    for d in state.dogs_left(me):
        n = swaps_of[d]
        if n not in plans:
            plans[n] = search(flock, n, points)
        key = (-plans[n][0], n, d)
        if best is None or key < best:
            best = key
    assert best is not None
    d = best[2]
    return [d] + [SWAP0 + s for s in plans[swaps_of[d]][1]]


def play(job: Any, i: int) -> tuple[Any, list[list[float]]]:
    """Game ``i`` of ``job`` (greedy everywhere): the final engine state and the standings."""
    from sheepfold.games.dolly_crush.game import DOG

    game = job.make_game(i)
    state = game.new_initial_state(seed=job.game_seed(i))
    search = _search()
    standings: list[list[float]] = []
    started = 0
    while True:
        p = state.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance())
            continue
        assert state.phase == DOG
        if started:
            standings.append(state.scores())
        started += 1
        for a in greedy_turn(state, search):
            state.apply_unchecked(a)
    standings.append(state.scores())
    return state, standings


def chunk(job: Any, indices: Sequence[int]) -> Any:
    from sheepfold.lab.runner import games_chunk

    return games_chunk(job, indices, play, "fast")


def engine_state(job: Any, i: int) -> Any:
    return play(job, i)[0]
