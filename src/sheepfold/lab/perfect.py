"""The perfect policy for the fast simulator, read from the exact solver (when it exists)."""

from __future__ import annotations

from typing import Any

import numpy as np


def unsupported(game: Any) -> str | None:
    try:
        import sheepfold.games.shave_a_sheep.solver  # noqa: F401
    except ImportError:
        return "the exact solver (games/shave_a_sheep/solver.py) is not installed"
    return "the fast simulator has no table for the perfect policy yet"


def policy_table(game: Any) -> tuple[np.ndarray, int]:
    raise NotImplementedError(unsupported(game) or "")
