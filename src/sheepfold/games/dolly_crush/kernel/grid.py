"""Dolly Crush's compiled rules on any board (every part of the rule language,
docs/spec/rule-language.md): the flock is an int8 array of card ids (-1 empty, the shape's
cells in row order), the rule set is the ``geo`` tuple of :func:`~.layout.geometry` (the
combination windows of lines and patterns with their colour rule, the swap table of the allowed
adjacency, the card points by type and colour, the bonus windows, the columns for gravity).

The packed kernels (:mod:`.lines`, :mod:`.search`, :mod:`.refill`, :mod:`.policy`) stay the
fast path of the rulebook's geometry; these play every board and every house rule, and are
checked against the rules engine position by position (``tests/test_dolly_kernel.py``):

* :func:`mark` / :func:`points`: the combination (Dolly Crush ruling 5 and the language's
  combinations: lines of a length along chosen directions, patterns, with or without colour;
  the points by type and the bonuses by length);
* :func:`legal`, :func:`swap`, :func:`best_one`, :func:`search`: the swaps of a turn (Dolly Crush ruling 7:
  exactly ``n``; house rule up-to: at most ``n``, fewer preferred on ties);
* :func:`settle` and :func:`fall`: the refill (in place or by gravity; Dolly Crush ruling 6's
  clean-up, or cascades: the refill's lines go to the player, again and again);
  :func:`settle_noted` also notes the cards it draws (the batched simulator's record);
* :func:`greedy_turn` and :func:`deny`: the greedy policy (the lab's fast path, the playouts).

Scratch arrays are passed in (``hit``: bool[cells]) so the hot loops allocate nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheepfold.games.dolly_crush.cards import Board
from sheepfold.games.dolly_crush.kernel.layout import geometry
from sheepfold.games.dolly_crush.kernel.lines import jit
from sheepfold.games.dolly_crush.kernel.order import (
    argsort_stable,
    first_distinct_rows,
    sort_distinct,
)
from sheepfold.games.dolly_crush.kernel.refill import shuffle

#: a search keeps at most ``level_cap(geo, work)`` distinct flocks per level (those taking the
#: most points now): about ``work`` window checks per level, at least MIN_CAP flocks. With
#: SEARCH_WORK (the greedy turn of the bots and of the lab) it is exact whenever no level is cut
#: (the rulebook's geometry: a cap of 6,000,000 / (22 swaps x 14 windows) = 19,480 flocks, above
#: the 10,648 = 22**3 that the third level, the last one kept before a fourth swap, can hold;
#: the fourth level is scored without a cap) and bounded on large boards (8 x 8 with diagonals:
#: 318 flocks per level);
#: LOOKAHEAD_WORK is the cheaper estimate of the playouts and of hard's replies.
SEARCH_WORK = 6_000_000
LOOKAHEAD_WORK = 300_000
MIN_CAP = 50


@jit
def level_cap(geo, work):  # type: ignore[no-untyped-def]
    """The most flocks a search level keeps on this board for ``work`` (see SEARCH_WORK)."""
    per = max(1, geo[2].shape[0] * geo[0].shape[0])
    return max(MIN_CAP, work // per)


@jit
def _matches(f, win, w, at):  # type: ignore[no-untyped-def]
    """Whether window ``w`` of ``win`` (a row: length, colour shift, [times,] its cells from
    ``at``) holds cards of one type (shift 1) or of one type and colour (shift 0)."""
    v = f[win[w, at]]
    if v < 0:
        return False
    sh = win[w, 1]
    k = v >> sh
    for i in range(at + 1, at + win[w, 0]):
        u = f[win[w, i]]
        if u < 0 or (u >> sh) != k:
            return False
    return True


@jit
def mark(f, geo, hit):  # type: ignore[no-untyped-def]
    """Set ``hit[c]`` for every cell of the combination of ``f``; return how many there are.
    A window (a line part's run of its length, a pattern part's placement) counts when its
    cards are one type (and one colour)."""
    win = geo[0]
    hit[:] = False
    count = 0
    for w in range(win.shape[0]):
        if _matches(f, win, w, 2):
            for i in range(2, 2 + win[w, 0]):
                c = win[w, i]
                if not hit[c]:
                    hit[c] = True
                    count += 1
    return count


@jit
def points(f, geo, hit):  # type: ignore[no-untyped-def]
    """The points of the combination of ``f``: each card once, at the largest bonus by length
    of the matching bonus windows it lies in (none: its points)."""
    if mark(f, geo, hit) == 0:
        return 0
    pts = geo[4]
    total = 0
    bwin = geo[1]
    if bwin.shape[0] == 0:
        for c in range(f.shape[0]):
            if hit[c]:
                total += pts[f[c]]
        return total
    times = np.ones(f.shape[0], dtype=np.int64)
    for w in range(bwin.shape[0]):
        if _matches(f, bwin, w, 3):
            for i in range(3, 3 + bwin[w, 0]):
                c = bwin[w, i]
                if times[c] < bwin[w, 2]:
                    times[c] = bwin[w, 2]
    for c in range(f.shape[0]):
        if hit[c]:
            total += pts[f[c]] * times[c]
    return total


@jit
def fall(f, geo):  # type: ignore[no-untyped-def]
    """Gravity (in place): the cards of each column fall to its lowest cells in their order,
    the empty cells go to its top (no column: refilled in place, nothing moves)."""
    cols = geo[5]
    for k in range(cols.shape[0]):
        n = 0
        while n < cols.shape[1] and cols[k, n] >= 0:
            n += 1
        dst = n - 1
        for i in range(n - 1, -1, -1):
            v = f[cols[k, i]]
            if v >= 0:
                f[cols[k, dst]] = v
                dst -= 1
        for i in range(dst, -1, -1):
            f[cols[k, i]] = -1


@jit
def swap(f, i, geo):  # type: ignore[no-untyped-def]
    """Swap ``i`` (an index into the board's swaps) on ``f``, in place (its own inverse)."""
    a = geo[2][i]
    b = geo[3][i]
    t = f[a]
    f[a] = f[b]
    f[b] = t


@jit
def legal(f, geo):  # type: ignore[no-untyped-def]
    """The indexes of the swaps of ``f`` that move two cards (an empty cell never moves)."""
    sa, sb = geo[2], geo[3]
    out = np.empty(sa.shape[0], dtype=np.int64)
    m = 0
    for i in range(sa.shape[0]):
        if f[sa[i]] >= 0 and f[sb[i]] >= 0:
            out[m] = i
            m += 1
    return out[:m]


@jit
def best_one(f, geo, hit):  # type: ignore[no-untyped-def]
    """(most points one legal swap takes from ``f``, the first swap that takes them); (-1, -1)
    if no swap is legal. ``f`` is left as it was."""
    best = -1
    bj = -1
    for j in legal(f, geo):
        swap(f, j, geo)
        v = points(f, geo, hit)
        swap(f, j, geo)
        if v > best:
            best = v
            bj = j
    return best, bj


@jit
def _hash_rows(flat):  # type: ignore[no-untyped-def]
    h = np.empty(flat.shape[0], dtype=np.uint64)
    for i in range(flat.shape[0]):
        x = np.uint64(1469598103934665603)
        for c in range(flat.shape[1]):
            x = (x ^ np.uint64(flat[i, c] + 2)) * np.uint64(1099511628211)
        h[i] = x
    return h


@jit
def dedupe(flat):  # type: ignore[no-untyped-def]
    """The rows of the first occurrence of each distinct flock of ``flat``, in increasing order
    (exact: rows of equal hash are compared cell by cell)."""
    return first_distinct_rows(flat, _hash_rows(flat))


@jit
def _children(level, leg, geo):  # type: ignore[no-untyped-def]
    """Every (flock, legal swap) child of ``level``, flattened in rank order."""
    size, m = level.shape[0], leg.shape[0]
    flat = np.empty((size * m, level.shape[1]), dtype=level.dtype)
    for k in range(size):
        for j in range(m):
            row = flat[k * m + j]
            row[:] = level[k]
            swap(row, leg[j], geo)
    return flat


@jit
def _capped(flat, first, cap, geo, hit):  # type: ignore[no-untyped-def]
    """``first`` cut to the ``cap`` flocks that take the most points now (ties: rank order)."""
    if first.shape[0] <= cap:
        return first
    v = np.empty(first.shape[0], dtype=np.int64)
    for i in range(first.shape[0]):
        v[i] = -points(flat[first[i]], geo, hit)
    return sort_distinct(first[argsort_stable(v)[:cap]], flat.shape[0])


@jit
def search(f0, n, up_to, cap, seq, geo):  # type: ignore[no-untyped-def]
    """``(points, k)``: the most points a turn of exactly ``n`` swaps takes from ``f0`` (ruling
    7), or of at most ``n`` under up-to swaps (then the fewest swaps among the best); the first
    best sequence (lexicographic order of the swap indexes) in ``seq[:k]``. Points -1 if ``n``
    swaps cannot be made. Levels ``1..n-1`` are deduplicated in rank order (see
    :mod:`~sheepfold.games.dolly_crush.fastsearch`), at most ``cap`` flocks each."""
    cells = f0.shape[0]
    hit = np.zeros(cells, dtype=np.bool_)
    best, bl, bk, bj = -1, 0, 0, -1
    if up_to or n == 0:
        best = points(f0, geo, hit)
    leg = legal(f0, geo)
    m = leg.shape[0]
    if n == 0 or m == 0:
        return best, 0
    level = f0.reshape(1, cells).copy()
    par_all = np.empty(0, dtype=np.int64)
    swp_all = np.empty(0, dtype=np.int64)
    starts = np.zeros(n + 1, dtype=np.int64)
    for lvl in range(1, n):
        flat = _children(level, leg, geo)
        first = _capped(flat, dedupe(flat), cap, geo, hit)
        level = flat[first]
        starts[lvl] = par_all.shape[0]
        par_all = np.concatenate((par_all, first // m))
        swp_all = np.concatenate((swp_all, leg[first % m]))
        if up_to:
            for k in range(level.shape[0]):
                v = points(level[k], geo, hit)
                if v > best:
                    best, bl, bk = v, lvl, k
    row = np.empty(cells, dtype=f0.dtype)
    for k in range(level.shape[0]):
        row[:] = level[k]
        for j in range(m):
            swap(row, leg[j], geo)
            v = points(row, geo, hit)
            swap(row, leg[j], geo)
            if v > best:
                best, bl, bk, bj = v, n, k, j
    k = bk
    top = bl
    if bl == n:
        seq[n - 1] = leg[bj]
        top = n - 1
    for lvl in range(top, 0, -1):
        seq[lvl - 1] = swp_all[starts[lvl] + k]
        k = par_all[starts[lvl] + k]
    return best, bl


@jit
def settle(f, deck, n, max_rounds, rng, cascades, geo, hit):  # type: ignore[no-untyped-def]
    """Refill ``f`` (in place) after a take, as the engine does (Dolly Crush ruling 6): the empty
    cells in cell order from the top of ``deck[:n]`` (top card at ``deck[n - 1]``; room for a
    flock more); while the flock holds a line: with ``cascades`` (house rule) its cards go to
    the player and the flock is refilled again; else (Dolly Crush ruling 6) they go out for nobody, the
    empty cells are filled, the cards taken out are put on the deck and it is shuffled
    (:func:`~.refill.shuffle`), the cells still empty filled from it; after ``max_rounds``
    clean-ups that still leave a line, it gives up.

    Under gravity (``geo[5]``) the cards above a taken or removed card fall first (:func:`fall`;
    the caller's take included), and the empty cells left at the top are filled in cell order.

    Returns ``(n, aborted, gained)``: the cards left in the deck, whether the clean-up gave up,
    the points the cascades gave the player (bonuses included)."""
    n, aborted, gained, _ = settle_noted(
        f, deck, n, max_rounds, rng, cascades, geo, hit, np.empty(0, dtype=np.int64), 0
    )
    return n, aborted, gained


@jit
def settle_noted(f, deck, n, max_rounds, rng, cascades, geo, hit, notes, at):  # type: ignore[no-untyped-def]
    """:func:`settle`, noting every card it places: the ``k``-th card drawn goes to
    ``notes[at + k]`` while there is room (the engine's chance outcomes, in its order: the
    batched simulator's record). Returns ``(n, aborted, gained, at)``, ``at`` past the last
    card drawn (counted even when ``notes`` has no room left)."""
    ret = np.empty(f.shape[0], dtype=np.int64)
    n_ret = 0
    rounds = 0
    gained = 0
    fall(f, geo)
    while True:
        for c in range(f.shape[0]):
            if n > 0 and f[c] < 0:
                n -= 1
                f[c] = deck[n]
                if at < notes.shape[0]:
                    notes[at] = deck[n]
                at += 1
        if n_ret:
            deck[n : n + n_ret] = ret[:n_ret]
            n += n_ret
            n_ret = 0
            shuffle(deck, n, rng)
            continue
        v = points(f, geo, hit)  # marks the combination's cells
        if not hit.any():
            return n, False, gained, at
        if cascades:
            gained += v
        else:
            if rounds >= max_rounds:
                return n, True, gained, at
            rounds += 1
        for c in range(f.shape[0]):
            if hit[c]:
                if not cascades:
                    ret[n_ret] = f[c]
                    n_ret += 1
                f[c] = -1
        fall(f, geo)


@jit
def take(f, geo, hit):  # type: ignore[no-untyped-def]
    """Take the combination out of ``f`` (in place); its points (bonuses included). The refill
    (:func:`settle`) lets the cards above fall under gravity."""
    v = points(f, geo, hit)  # marks the cells (none if there is no line)
    for c in range(f.shape[0]):
        if hit[c]:
            f[c] = -1
    return v


@jit
def greedy_turn(f, hand, up_to, work, seq, out, geo):  # type: ignore[no-untyped-def]
    """The greedy turn on ``f``: ``(points, n, k)``: of the cards in hand (``hand[n]``: cards of
    ``n`` swaps), the one that takes the most points (ties: fewer swaps), its swap count ``n``,
    and the ``k`` swaps it makes (``k = n``, or fewer under up-to) in ``seq[:k]``; ``out``: the
    flock after them. A card whose swaps cannot be made is never chosen. ``work``: the search's
    budget per level (SEARCH_WORK: the greedy bot's answers)."""
    best, bn, bk = -1, -1, 0
    tmp = np.empty(seq.shape[0], dtype=np.int64)
    for n in range(hand.shape[0]):
        if hand[n] == 0:
            continue
        v, k = search(f, n, up_to, level_cap(geo, work), tmp, geo)
        if v > best:
            best, bn, bk = v, n, k
            seq[:k] = tmp[:k]
    out[:] = f
    for i in range(bk):
        swap(out, seq[i], geo)
    return best, bn, bk


@jit
def deny(f, geo, hit):  # type: ignore[no-untyped-def]
    """The first legal swap of ``f`` after which one swap takes the least (-1: none)."""
    low = 1 << 30
    bj = -1
    for j in legal(f, geo):
        swap(f, j, geo)
        v, _ = best_one(f, geo, hit)
        swap(f, j, geo)
        if v < low:
            low, bj = v, j
            if low == 0:
                break
    return bj


def best_swaps(
    flock: Sequence[int], n: int, pts: Sequence[int], board: Board, up_to: bool = False
) -> tuple[int, tuple[int, ...]]:
    """Drop-in for :func:`~sheepfold.games.dolly_crush.search.reference_best_swaps` on any
    board: the most points with exactly ``n`` swaps (at most ``n`` with ``up_to``), and the
    first sequence (fewest swaps, then lexicographic) that takes them."""
    if n < 0:
        raise ValueError(f"a number of swaps is 0 or more, not {n}")
    seq = np.zeros(max(1, n), dtype=np.int64)
    f = np.array(flock, dtype=np.int8)
    geo = geometry(board, tuple(pts))
    best, k = search(f, n, up_to, level_cap(geo, SEARCH_WORK), seq, geo)
    if best < 0:
        raise ValueError("no swap can be made: every adjacent pair has an empty cell")
    return int(best), tuple(int(s) for s in seq[:k])


# -- many flocks at once: what the lookahead bots need (see fastsearch.PackedFlocks) -----------
@jit
def score_many(flocks, geo):  # type: ignore[no-untyped-def]
    """The points of the combination of every row of ``flocks``."""
    hit = np.zeros(flocks.shape[1], dtype=np.bool_)
    out = np.empty(flocks.shape[0], dtype=np.int64)
    for i in range(flocks.shape[0]):
        out[i] = points(flocks[i], geo, hit)
    return out


@jit
def reply_many(flocks, geo):  # type: ignore[no-untyped-def]
    """For every row of ``flocks``: the most points one swap takes and the flock after that
    swap (the first best; the flock itself, -1 points, if no swap is legal)."""
    hit = np.zeros(flocks.shape[1], dtype=np.bool_)
    pts = np.empty(flocks.shape[0], dtype=np.int64)
    after = flocks.copy()
    for i in range(flocks.shape[0]):
        v, j = best_one(after[i], geo, hit)
        pts[i] = v
        if j >= 0:
            swap(after[i], j, geo)
    return pts, after


class GridReachable:
    """Every distinct flock reachable by exactly ``n`` swaps (under up-to: at most ``n``, each
    at its fewest), in rank order, with the way back to its first sequence."""

    def __init__(self, f0: np.ndarray, n: int, up_to: bool, geo: Any) -> None:
        leg = legal(f0, geo)
        if n > 0 and leg.size == 0 and not up_to:
            raise ValueError("no swap can be made: every adjacent pair has an empty cell")
        hit = np.zeros(f0.size, dtype=np.bool_)
        levels = [f0.reshape(1, -1).copy()]
        self.parents: list[np.ndarray] = [np.zeros(1, dtype=np.int64)]
        self.swaps: list[np.ndarray] = [np.zeros(1, dtype=np.int64)]
        m = leg.size
        for _ in range(n if m else 0):
            flat = _children(levels[-1], leg, geo)
            first = _capped(flat, dedupe(flat), level_cap(geo, SEARCH_WORK), geo, hit)
            levels.append(flat[first])
            self.parents.append(first // m)
            self.swaps.append(leg[first % m])
        use = range(len(levels)) if up_to else [len(levels) - 1]
        allf = np.concatenate([levels[lv] for lv in use])
        where = [(lv, k) for lv in use for k in range(levels[lv].shape[0])]
        keep = dedupe(allf)  # the first occurrence: the fewest swaps
        self.flocks = allf[keep]
        self.where = [where[int(i)] for i in keep]

    def sequence(self, k: int) -> tuple[int, ...]:
        lvl, i = self.where[k]
        seq = []
        for lv in range(lvl, 0, -1):
            seq.append(int(self.swaps[lv][i]))
            i = int(self.parents[lv][i])
        return tuple(reversed(seq))


class GridFlocks:
    """The flock operations of the lookahead bots on any board (flocks as int8 rows)."""

    def __init__(self, board: Board, pts: Sequence[int], up_to: bool) -> None:
        self.board = board
        self.up_to = up_to
        self.geo = geometry(board, tuple(pts))

    def pack(self, flock: Sequence[int]) -> np.ndarray:
        return np.array(flock, dtype=np.int8)

    def unpack(self, key: Any) -> list[int]:
        return [int(v) for v in key]

    def stack(self, keys: Sequence[Any]) -> np.ndarray:
        if not keys:
            return np.empty((0, self.board.cells), dtype=np.int8)
        return np.stack(keys).astype(np.int8)

    def after(self, flock: Sequence[int], n: int) -> tuple[np.ndarray, np.ndarray, Any]:
        """Every distinct end flock of ``n`` swaps, the points each takes, and the Reachable."""
        r = GridReachable(self.pack(flock), n, self.up_to, self.geo)
        return r.flocks, score_many(r.flocks, self.geo), r

    def reply(self, flocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The most points one swap takes from each flock, and the flocks after it."""
        pts, after = reply_many(flocks, self.geo)
        return np.maximum(pts, 0), after

    def best_n(self, key: Any, n: int) -> float:
        seq = np.zeros(max(1, n), dtype=np.int64)
        f = np.asarray(key, dtype=np.int8)
        cap = level_cap(self.geo, LOOKAHEAD_WORK)  # an estimate of a reply
        best, _ = search(f, n, self.up_to, cap, seq, self.geo)
        return float(max(best, 0))
