"""Per-game quantities computed from each turn's standings (the scores after every turn): the
lab's features of a game (lab/runner.py) and the moments of a finished table (server/results.py).

A game's standings are a ``(length, players)`` array; a batch is stored flat, with ``offsets``
(``offsets[g]:offsets[g+1]`` are game ``g``'s turns). The leader after a turn is the seat with
the strictly highest score (nobody on a tie at the top).

- ``lead_changes``: how often the leader changed (a tie in between does not count as a leader;
  A, tie, B is one change; A, tie, A is none).
- ``winner_trailed``: the game's single winner was strictly behind the top score after some turn.
- ``winner_deficit``: the largest gap between the top score and the winner's score over the
  game (0 if the winner never trailed).
- ``decisive_turn``: turns played before the winner led for good (0: led after every turn).

Games with a shared win or no result (truncated) get -1 in the last three.
"""

from __future__ import annotations

import numpy as np

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()  # before numba is imported

try:
    from numba import njit as _njit

    def _jit(f):  # type: ignore[no-untyped-def]
        return _njit(cache=True, nogil=True)(f)

except ImportError:  # pragma: no cover - numba is part of the lab extra

    def _jit(f):  # type: ignore[no-untyped-def]
        return f


@_jit
def _features(offsets, values, winner, out):  # type: ignore[no-untyped-def]
    g_count = offsets.shape[0] - 1
    n = values.shape[1]
    for g in range(g_count):
        a, b = offsets[g], offsets[g + 1]
        last = -1
        changes = 0
        w = winner[g]
        trailed = 0
        deficit = 0
        decisive = 0
        for t in range(a, b):
            top = values[t, 0]
            for s in range(1, n):
                if values[t, s] > top:
                    top = values[t, s]
            lead = -1
            cnt = 0
            for s in range(n):
                if values[t, s] == top:
                    cnt += 1
                    lead = s
            if cnt > 1:
                lead = -1
            if lead >= 0:
                if last >= 0 and lead != last:
                    changes += 1
                last = lead
            if w >= 0:
                d = top - values[t, w]
                if d > 0:
                    trailed = 1
                    if d > deficit:
                        deficit = d
                if lead != w:
                    decisive = t - a + 1
        out[g, 0] = changes
        if w >= 0:
            out[g, 1] = trailed
            out[g, 2] = deficit
            out[g, 3] = decisive
        else:
            out[g, 1] = -1
            out[g, 2] = -1
            out[g, 3] = -1


def game_features(offsets: np.ndarray, values: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """``(games, 4)`` int array: lead_changes, winner_trailed, winner_deficit, decisive_turn.

    ``winner[g]`` is game g's single winner or -1 (shared win, truncated game).
    """
    out = np.zeros((len(offsets) - 1, 4), dtype=np.int64)
    if len(out):
        _features(
            np.ascontiguousarray(offsets, dtype=np.int64),
            np.ascontiguousarray(values, dtype=np.int64).reshape(-1, values.shape[-1]),
            np.ascontiguousarray(winner, dtype=np.int64),
            out,
        )
    return out


FEATURE_NAMES = ("lead_changes", "winner_trailed", "winner_deficit", "decisive_turn")
