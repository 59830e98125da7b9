"""Observation policies: a function of (observation, legal mask) or a trained model, asked the
way the Gymnasium environment shows a position.

Two places take such a policy: the Gymnasium environment's ``opponents=`` (self-play against a
frozen copy of a model) and :func:`sheepfold.analysis.exploitability` (the exact numbers of a
Shave a Sheep policy). Both accept

* a function ``f(obs, mask) -> action`` on one observation and its legal mask (bool), or with
  ``batched=True`` on arrays of them (returning an array of actions);
* a model with Stable-Baselines3's ``predict(obs, action_masks=..., deterministic=True)``
  (sb3-contrib's MaskablePPO; a model whose ``predict`` takes no mask, like plain PPO, is asked
  without one and its answers are checked).

Only numpy is needed here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sheepfold.core.protocol import SheepfoldError

#: ``fn(observations, masks) -> actions`` on batches
BatchFn = Callable[[np.ndarray, np.ndarray], Any]

WHAT_A_POLICY_IS = (
    "a function f(obs, mask) -> action or a model with predict(obs, action_masks=...) "
    "(Stable-Baselines3 / sb3-contrib)"
)


def is_observation_policy(obj: Any) -> bool:
    """True for a model with ``predict`` or any callable (what :func:`batch_policy` takes)."""
    return callable(getattr(obj, "predict", None)) or callable(obj)


def batch_policy(policy: Any, batched: bool = False) -> BatchFn:
    """``policy`` as a function of (observations, masks) -> actions on batches.

    ``batched``: ``policy`` is a plain function that already takes batches. Anything that is
    neither a model with ``predict`` nor callable is refused with a SheepfoldError."""
    predict = getattr(policy, "predict", None)
    if callable(predict):
        return _model_fn(predict)
    if not callable(policy):
        raise SheepfoldError(f"not a policy: {policy!r} (give {WHAT_A_POLICY_IS})")
    if batched:
        return policy  # type: ignore[no-any-return]

    def one_by_one(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([int(policy(o, m)) for o, m in zip(obs, masks, strict=True)])

    return one_by_one


def _model_fn(predict: Callable[..., Any]) -> BatchFn:
    def ask(obs: np.ndarray, masks: np.ndarray) -> Any:
        try:
            return predict(obs, action_masks=masks, deterministic=True)[0]
        except TypeError:  # a model without masks (plain SB3 PPO): its choice is checked
            return predict(obs, deterministic=True)[0]

    return ask


__all__ = ["WHAT_A_POLICY_IS", "BatchFn", "batch_policy", "is_observation_policy"]
