"""Orders and distinct values for the swap searches, in a few plain loops.

numba's ``np.argsort(kind="mergesort")`` and ``np.sort`` compile to a generic sort for each type
they meet (and the ``kind`` string pulls numba's unicode support in): about 9 s of one core,
cold, of the expert's 53 (``bench/bench_cold.py --kernels``). What the searches ask of them is
narrower, and these answer it with the same results, compiled in a fraction of that:

* :func:`first_distinct` ``(keys)``: the indexes of the first occurrence of each distinct value
  of ``keys`` (uint64), increasing (an open-addressing hash table: one pass);
* :func:`first_distinct_rows` ``(rows, h)``: the same for the rows of an array, ``h`` their
  hashes (rows of one hash are compared cell by cell);
* :func:`argsort_stable` ``(keys)``: the permutation that sorts ``keys`` (int64), equal keys in
  their order (numpy's stable argsort; a stable order is unique: the same permutation);
* :func:`sort_distinct` ``(idx, bound)``: distinct integers of ``[0, bound)``, increasing.

``tests/test_dolly_kernel_order.py`` checks each against numpy over many inputs (the two
dedupes stay two kernels on purpose: the searches' keys are compared as numbers, rows cell by cell).
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.dolly_crush.kernel.lines import jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the slot is the product's top bits


@jit
def _slots(n):  # type: ignore[no-untyped-def]
    """(bits, empty table of slots) of a hash table for ``n`` entries, at most half full."""
    bits = 1
    while (1 << bits) < 2 * n:
        bits += 1
    return bits, np.full(1 << bits, -1, dtype=np.int64)


@jit
def first_distinct(keys):  # type: ignore[no-untyped-def]
    """The indexes of the first occurrence of each distinct value of ``keys``, increasing."""
    n = keys.shape[0]
    bits, slot = _slots(n)
    shift = np.uint64(64 - bits)
    last = (1 << bits) - 1
    keep = np.empty(n, dtype=np.int64)
    c = 0
    for i in range(n):
        k = keys[i]
        s = np.int64((k * _GOLDEN) >> shift)
        while slot[s] >= 0 and keys[slot[s]] != k:
            s = (s + 1) & last
        if slot[s] < 0:
            slot[s] = i
            keep[c] = i
            c += 1
    return keep[:c]


@jit
def _same(rows, i, j):  # type: ignore[no-untyped-def]
    for c in range(rows.shape[1]):
        if rows[i, c] != rows[j, c]:
            return False
    return True


@jit
def first_distinct_rows(rows, h):  # type: ignore[no-untyped-def]
    """The indexes of the first occurrence of each distinct row of ``rows``, increasing; ``h``:
    the rows' hashes (uint64, equal rows of equal hash)."""
    n = rows.shape[0]
    bits, slot = _slots(n)
    shift = np.uint64(64 - bits)
    last = (1 << bits) - 1
    keep = np.empty(n, dtype=np.int64)
    c = 0
    for i in range(n):
        s = np.int64((h[i] * _GOLDEN) >> shift)
        while slot[s] >= 0 and not (h[slot[s]] == h[i] and _same(rows, slot[s], i)):
            s = (s + 1) & last
        if slot[s] < 0:
            slot[s] = i
            keep[c] = i
            c += 1
    return keep[:c]


@jit
def argsort_stable(keys):  # type: ignore[no-untyped-def]
    """The permutation that sorts ``keys``, equal keys in their order: a bottom-up merge sort
    (runs of 16 by insertion first)."""
    n = keys.shape[0]
    a = np.arange(n)
    for lo in range(0, n, 16):
        hi = min(lo + 16, n)
        for i in range(lo + 1, hi):
            x = a[i]
            j = i - 1
            while j >= lo and keys[a[j]] > keys[x]:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = x
    b = np.empty(n, dtype=np.int64)
    width = 16
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if i < mid and (j >= hi or keys[a[j]] >= keys[a[i]]):
                    b[k] = a[i]
                    i += 1
                else:
                    b[k] = a[j]
                    j += 1
        a, b = b, a
        width *= 2
    return a


@jit
def sort_distinct(idx, bound):  # type: ignore[no-untyped-def]
    """The distinct integers ``idx`` (each in ``[0, bound)``), increasing."""
    mark = np.zeros(bound, dtype=np.bool_)
    for i in idx:
        mark[i] = True
    out = np.empty(idx.shape[0], dtype=np.int64)
    c = 0
    for v in range(bound):
        if mark[v]:
            out[c] = v
            c += 1
    return out
