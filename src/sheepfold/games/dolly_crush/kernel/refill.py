"""The refill with the clean-up of Dolly Crush ruling 6, compiled: the one compiled copy (the
expert's playouts use it; the lab's fast path and the hard bot refill with the engine itself),
checked against the rules engine card for card (``tests/test_dolly_kernel.py``).

The deck is an int64 array of card ids, ``deck[:n]``, its top card at ``deck[n - 1]`` (the
engine's order: ``DollyState.deck``), with room for 15 more cards (the clean-up's). Random
numbers come from a splitmix64 generator whose state is ``rng[0]`` (a uint64 array of one).

:func:`refill` does exactly what the engine does after a take: the empty cells are filled from
the top of the deck in the order ``a1``..``c5``; while the flock holds a line, its cards go out,
the empty cells are filled from the deck, the cards taken out are put on the deck and the whole
deck is shuffled (:func:`shuffle`, Fisher-Yates as ``random.shuffle`` does it), the cells still
empty are filled from it; after ``max_rounds`` clean-ups (the rule set's ``max_cleanup_rounds``)
that still leave a line, the clean-up gives up and the game ends. A caller that does not know
the deck's order (a bot drawing from the unseen cards) shuffles it first.
"""

from __future__ import annotations

import numpy as np

from sheepfold.games.dolly_crush.kernel.lines import jit, remove, taken


@jit
def next_random(rng):  # type: ignore[no-untyped-def]
    """The next 64 random bits of the splitmix64 generator whose state is ``rng[0]``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def shuffle(deck, n, rng):  # type: ignore[no-untyped-def]
    """Shuffle ``deck[:n]`` in place (Fisher-Yates, the last card first, as ``random.shuffle``)."""
    for i in range(n - 1, 0, -1):
        j = np.int64(next_random(rng) % np.uint64(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@jit
def refill(x, mask, deck, n, max_rounds, rng, tabs):  # type: ignore[no-untyped-def]
    """Take the cells of ``mask`` out of ``x`` and refill with clean-up (Dolly Crush ruling 6).

    Returns ``(flock, n, aborted)``: the settled flock, the cards left in the deck (``deck`` is
    changed in place), and whether the clean-up gave up. The game ends if ``aborted`` or
    ``n == 0`` (Dolly Crush ruling 8)."""
    x = remove(x, mask)
    ret = np.empty(15, dtype=np.int64)
    n_ret = 0
    rounds = 0
    f = np.uint64(15)
    while True:
        for c in range(15):  # the empty cells, from the top of the deck, a1..c5
            if n > 0 and ((x >> np.uint64(4 * c)) & f) == 0:
                n -= 1
                x |= np.uint64(deck[n] + 1) << np.uint64(4 * c)
        if n_ret:  # the cards taken out go back: on the deck, then it is shuffled
            for i in range(n_ret):
                deck[n + i] = ret[i]
            n += n_ret
            n_ret = 0
            shuffle(deck, n, rng)
            continue
        m = taken(x, tabs)
        if m == 0:
            return x, n, False
        if rounds >= max_rounds:
            return x, n, True
        rounds += 1
        for c in range(15):
            if (m >> c) & 1:
                ret[n_ret] = np.int64((x >> np.uint64(4 * c)) & f) - 1
                n_ret += 1
        x = remove(x, m)
