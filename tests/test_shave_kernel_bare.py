"""Shave a Sheep's rule interpreter and hot loops are compiled without numba's reference
counting (``step.bare``, docs/engine.md "Speed of the rule interpreter"): with it, the random
games' loop held 65 atomic reference-count calls per compiled body and played at 0.6-0.7x of
the printed-rules kernel. These checks read the dispatchers' options; nothing is compiled."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.games.shave_a_sheep.kernel import play, policy, step
from sheepfold.lab import fastsim_shave


def _dispatchers(module: Any) -> dict[str, Any]:
    return {
        name: f
        for name, f in vars(module).items()
        if hasattr(f, "targetoptions") and getattr(f, "__module__", None) == module.__name__
    }


def _bare(f: Any) -> bool:
    return f.targetoptions.get("_nrt") is False and f.targetoptions.get("error_model") == "numpy"


def _inlined(f: Any) -> bool:
    """Inlined into its callers by LLVM (``forceinline``: docs/engine.md, "Compile time")."""
    return f.targetoptions.get("forceinline") is True


def test_every_rule_of_the_interpreter_is_bare_or_inlined() -> None:
    kernels = _dispatchers(step)
    assert len(kernels) > 20
    for name, f in kernels.items():
        # a kernel that is not inlined says so: a callee inherits its caller's forceinline
        assert (_bare(f) and f.targetoptions.get("forceinline") is False) or _inlined(f), name


@pytest.mark.parametrize(
    "f",
    [
        play.turn,
        play.play_random,
        play.play_greedy,
        play.game_key,
        policy.greedy,
        step.choices,
        step.finish,
        step.howl_choices,
        step.race_take,
        fastsim_shave._play_random,
        fastsim_shave._play_greedy,
    ],
    ids=lambda f: f.__name__,
)
def test_the_hot_loops_are_bare(f: Any) -> None:
    assert _bare(f)


@pytest.mark.parametrize("f", [policy.value, policy.worth], ids=lambda f: f.__name__)
def test_the_greedy_value_function_is_inlined_by_numba(f: Any) -> None:
    """``value`` and ``worth`` are inlined into ``_greedy`` (compiled bare there), as the C
    loop's are, and by numba itself (``inline="always"``): called, the greedy games were
    slower, and inlined by LLVM (``forceinline``) 0.6-0.7x as fast (docs/engine.md, "The
    greedy simulator")."""
    assert f.targetoptions.get("inline") == "always" and not _inlined(f)


def test_the_greedy_policy_is_inlined_into_the_greedy_games_loop() -> None:
    """``_greedy`` is inlined into ``turn_plain``'s greedy games; ``greedy`` is its call."""
    assert _inlined(policy._greedy)
    assert _bare(policy.greedy) and not _inlined(policy.greedy)
