"""The compiled helpers every batch kernel shares (:mod:`sheepfold.vector.shave_kernel`,
:mod:`sheepfold.vector.dolly_kernel`): a history's next action (:func:`note`) and a random
legal action per env (:func:`sample_actions`).

A game's batch kernel module offers, for :class:`sheepfold.vector.base.Batch` and the game's
batch: ``masks_all(state, kit, out)``, ``observe_all(seats, state, kit, out)``,
``check_actions``, ``reset_many``, ``step_many`` and the error codes ``ERR_OVER`` and
``ERR_ILLEGAL``.
"""

from __future__ import annotations

from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

from numba import njit  # noqa: E402

#: the decorator of every kernel of the package (cached on disk, see sheepfold.numba_cache)
jit: Any = njit(cache=True, nogil=True, forceinline=False)
#: inlined into its callers (by LLVM: step.inline says why)
inline: Any = njit(cache=True, nogil=True, forceinline=True)


@inline
def note(trace, tlen, i, a):  # type: ignore[no-untyped-def]
    """Append engine action ``a`` to env ``i``'s history (when recording, while it has room;
    ``tlen[i]`` counts on past it, so a history too long is told apart)."""
    if trace.shape[1] > 0:
        k = tlen[i]
        if k < trace.shape[1]:
            trace[i, k] = a
        tlen[i] = k + 1


@jit
def sample_actions(mask, u, out):  # type: ignore[no-untyped-def]
    """A uniformly random legal action per row of ``mask`` (``u``: a uniform draw in [0, 1) per
    row), as the random policy picks: the ``int(u * count)``-th legal action, ascending; -1 for
    a row with none."""
    for i in range(mask.shape[0]):
        c = 0
        for j in range(mask.shape[1]):
            if mask[i, j]:
                c += 1
        if c == 0:
            out[i] = -1
            continue
        k = min(int(u[i] * c), c - 1)
        for j in range(mask.shape[1]):
            if mask[i, j]:
                if k == 0:
                    out[i] = j
                    break
                k -= 1
