"""A cold solve starts at once (issue 32): while the exact solver's kernels compile in a process
of their own, its layers run interpreted (``solver.at_once``), the same code, so the same values
and decisions as the compiled solve, only slower."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sheepfold.core import compiling
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from test_lab_background import _Compiling

RULES = [
    ShaveRules(wool=9, max_wool=3),
    ShaveRules(wool=8, variants=("howling-wolf",)),
    ShaveRules(wool=6, variants=("cutting-costs", "my-friend-mr-wolf")),
    ShaveRules(wool=8, max_wool=1, variants=("cutting-costs",)),  # games that may never end
]


def _cold(monkeypatch: pytest.MonkeyPatch, polls: int = 10**9) -> list[Any]:
    """A cold cache (no kernel is ready) and a stand-in for the compiling process, done after
    ``polls`` questions; what the solves say."""
    _Compiling.made.clear()
    monkeypatch.setattr(compiling, "cached", lambda kernel, *args: False)
    monkeypatch.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=polls))
    return []


def _same(a: S.Solution, b: S.Solution) -> None:
    assert np.array_equal(a.V, b.V) and np.array_equal(a.tab, b.tab)
    assert (a.stats.sweeps_max, a.stats.sweeps_mean) == (b.stats.sweeps_max, b.stats.sweeps_mean)


def _cold_body(monkeypatch: pytest.MonkeyPatch, players: int, body: Any) -> None:
    """``body()`` in :func:`solver.at_once` on a cold cache: it runs interpreted (the compile
    never ends first), one compile is started for the whole body and stopped at its end."""
    said = _cold(monkeypatch)
    with S.at_once(players, lambda what, s: said.append((what, s))):
        body()
    (bg,) = _Compiling.made
    assert (bg.work, bg.args) == (S.warm, (players,)) and bg.stopped
    label = "compiling the exact solver in the background"
    assert said == [(label, None), (f"{label} (stopped: the solve was done first)", 4.25)]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_the_interpreted_solver_gives_the_same_solutions(
    rules: ShaveRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = S.solve_minimax(rules)
    shares = S.minimax_shares(compiled)

    def body() -> None:
        plain = S.solve_minimax(rules)
        _same(plain, compiled)
        assert np.array_equal(S.minimax_shares(plain).V, shares.V)
        assert S.Space(rules, 2).start_index() == compiled.space.start_index()

    _cold_body(monkeypatch, 2, body)


@pytest.mark.parametrize("rules", [RULES[3], RULES[1]], ids=lambda r: r.name)
def test_the_interpreted_solver_gives_the_same_three_player_shares(
    rules: ShaveRules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rotating solve (every seat at once, unrotated) and the ending analysis."""
    three = S.guaranteed_shares_all(rules, 3)
    ending = S.ending(rules, 3) if rules is RULES[3] else None

    def body() -> None:
        for a, b in zip(S.guaranteed_shares_all(rules, 3), three, strict=True):
            _same(a, b)
        if ending is not None:
            assert S.ending(rules, 3) == ending

    _cold_body(monkeypatch, 3, body)


def test_the_solve_goes_on_compiled_once_the_kernels_are_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = RULES[0]
    compiled = S.solve_minimax(rules)
    said = _cold(monkeypatch, polls=5)
    runs: list[bool] = []  # each layer: interpreted?
    layer = S._layer

    def noted(name: str, positions: int, *args: Any) -> None:
        assert S._cold is not None
        runs.append(S._cold.kernels(name, positions, args) is not S.K)
        layer(name, positions, *args)

    monkeypatch.setattr(S, "_layer", noted)
    with S.at_once(2, lambda what, s: said.append((what, s))):
        _same(S.solve_minimax(rules), compiled)
    first = runs.index(False)  # interpreted first, then compiled
    assert first >= 3 and not any(runs[first:])
    label = "compiling the exact solver in the background"
    assert said == [(label, None), (label, 61.5)] and not _Compiling.made[0].stopped


def test_a_layer_too_long_to_interpret_waits_for_the_compiled_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = RULES[0]
    compiled = S.solve_minimax(rules)
    said = _cold(monkeypatch)
    monkeypatch.setattr(S, "INTERPRETED_SECONDS", 0.0)  # every layer is too long
    with S.at_once(2, lambda what, s: said.append((what, s))):
        _same(S.solve_minimax(rules), compiled)
    label = "compiling the exact solver in the background"
    assert said == [(label, None), (label, 61.5)]  # waited for, not stopped


def test_a_warm_solver_compiles_nothing_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiling, "Background", lambda *a: pytest.fail("compiled again"))
    monkeypatch.setattr(compiling, "interpreted", lambda *a: pytest.fail("interpreted"))
    said: list[Any] = []
    with S.at_once(2, lambda what, s: said.append(what)):
        S.minimax_shares(S.solve_minimax(RULES[0]))
    assert said == []


def test_warm_compiles_what_a_solve_calls() -> None:
    """`warm` (what the compiling process runs) solves as the command does: with 3 players the
    guaranteed shares and the ending analysis (the suite's warm-up compiled them: quick). The
    inner sweep (`sweep_compiled`) is not listed: it is compiled into these kernels, and when
    they are loaded from numba's cache it has no signature of its own (the test then depended
    on what an earlier test of the same worker had called)."""
    for players in (2, 3):
        S.warm(players)
    for name in ("solve_layer", "solve_layer_rot", "unrotate"):
        assert getattr(S.K, name).signatures, name


def test_a_cold_solve_command_answers_while_the_solver_compiles(tmp_path: Path) -> None:
    """On an empty cache folder, the command's answer is the warm one's, and its stderr says
    the background step (stopped: this solve is done well before the compile)."""
    args = ["solve", "shave-a-sheep", "--set", "wool=8", "--set", "max_wool=2", "--json"]

    def solve(cache: Path) -> tuple[dict[str, Any], str]:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), SHEEPFOLD_HOME=str(tmp_path / "home"))
        done = subprocess.run(
            [sys.executable, "-m", "sheepfold.cli.main", *args, "--no-cache"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        out = json.loads(done.stdout)
        for key in ("seconds", "solve_seconds"):
            out.pop(key)
        return out, " ".join(done.stderr.split())

    cold, said = solve(tmp_path / "empty")
    warm, quiet = solve(Path(os.environ["NUMBA_CACHE_DIR"]))  # the suite's, compiled
    assert cold == warm and "background" not in quiet
    label = "compiling the exact solver in the background"
    assert f"{label} (meanwhile it runs uncompiled, more slowly)..." in said
    assert f"{label} (stopped: the solve was done first):" in said
