"""The broadcast's log window: the entries it shares with the last one are found by their
numbers, and the answer is the longest run, whatever the entries hold (issue 32)."""

from __future__ import annotations

import random

from sheepfold.server.broadcast import _overlap


def _longest(old: list[dict[str, int]], new: list[dict[str, int]]) -> int:
    return max(k for k in range(min(len(old), len(new)) + 1) if new[:k] == old[len(old) - k :])


def test_the_shared_run_is_the_longest_one():
    rng = random.Random(32)
    for _ in range(3000):
        start, size = rng.randrange(5), rng.randrange(9)
        old = [{"n": start + i, "text": rng.randrange(2)} for i in range(size)]
        step = rng.randrange(4)
        new = [dict(e) for e in old[step:]] + [
            {"n": start + size + i, "text": 0} for i in range(step)
        ]
        if new and rng.random() < 0.3:  # an entry changed, or numbers told again from 1
            rng.choice(new)["text"] = 5
        if rng.random() < 0.1:
            new = [{"n": 1 + i, "text": e["text"]} for i, e in enumerate(new)]
        assert _overlap(old, new) == _longest(old, new), (old, new)


def test_a_move_keeps_all_but_the_oldest_entries():
    old = [{"n": n, "text": n} for n in range(3, 11)]
    new = old[2:] + [{"n": 11, "text": 11}, {"n": 12, "text": 12}]
    assert _overlap(old, new) == 6
    assert _overlap([], new) == 0 and _overlap(old, []) == 0
