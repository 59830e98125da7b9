"""The checks every batch makes of what it is given per env (one place for both games)."""

from __future__ import annotations

from typing import Any

import numpy as np


def checked_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as one int64 per env (whole floats accepted); ValueError saying what is wrong."""
    a = np.asarray(actions)
    if a.shape != (num_envs,):
        raise ValueError(f"actions must be one int per env, shape ({num_envs},), not {a.shape}")
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(a == np.round(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"actions must be integers, not {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.int64)


def checked_env_mask(envs: Any, num_envs: int) -> np.ndarray:
    """``envs`` as a bool mask of one entry per env; ValueError saying what is wrong."""
    m = np.asarray(envs)
    if m.shape != (num_envs,) or m.dtype != np.bool_:
        raise ValueError(f"an env mask is bool of shape ({num_envs},), not {m.dtype} {m.shape}")
    return np.ascontiguousarray(m)


def checked_num_envs(num_envs: Any) -> int:
    """``num_envs``, a positive int; ValueError else."""
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
    return num_envs
