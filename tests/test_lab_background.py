"""A cold `lab run` plays at once (issue 32): while the fast simulator's kernels compile in a
process of their own, the same kernels run interpreted (``sheepfold.core.compiling``), so the
games, the rows and the progress are the same as a run on compiled kernels, only slower."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sheepfold.core import compiling
from sheepfold.lab import fastsim_shave as fs
from sheepfold.lab import runner
from test_lab_fastsim import RULE_SETS
from test_shave_language_kernel import LANGUAGE

FIELDS = ("game_index", "scores", "winners", "length", "truncated", "offsets", "standings")
CASES = [(2, r) for r in RULE_SETS] + [(4, {}), (3, RULE_SETS[3])] + LANGUAGE


def _for(players: int, rules: dict[str, Any]) -> dict[str, Any]:
    """``rules`` for ``players`` (a weight per seat)."""
    if "reaction_weights" in rules:
        return {**rules, "reaction_weights": rules["reaction_weights"][:players]}
    return rules


#: the outcome uncertainty (the entropy of exact win shares): its logarithms and sums, numba's
#: against numpy's, may differ in the last bit
UNCERTAINTY = ("uncertainty", "uncertainty_curve")


def _same_chunks(a: Any, b: Any) -> None:
    for name in FIELDS:
        assert np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))), name
    assert a.extra.keys() == b.extra.keys()
    for name, column in b.extra.items():
        if name in UNCERTAINTY:
            x, y = (
                np.asarray(c.to_pylist() if hasattr(c, "to_pylist") else c, dtype=float)
                for c in (a.extra[name], column)
            )
            assert np.allclose(x, y, rtol=1e-13, atol=0, equal_nan=True), name
        else:
            assert list(a.extra[name]) == list(column), name


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_interpreted_kernels_play_the_same_games(case: int) -> None:
    players, rules = CASES[case]
    mixed = tuple("greedy" if s % 2 == 0 else "random" for s in range(players))
    for bots in (("random",), ("greedy",), mixed):
        job = runner.make_job(
            "shave-a-sheep", _for(players, rules), players=players, bots=bots, games=12
        )
        idx = list(range(12))
        _same_chunks(fs.chunk(job, idx, interpreted=True), fs.chunk(job, idx))


def test_interpreting_compiles_and_loads_nothing(tmp_path: Path) -> None:
    """In a fresh process on an empty cache folder: the interpreted games leave every kernel
    of the package without a signature (nothing compiled, nothing loaded from the cache)."""
    code = textwrap.dedent(
        """
        import json, sys
        from numba.core.dispatcher import Dispatcher
        from sheepfold.lab import fastsim_shave as fs
        from sheepfold.lab.runner import make_job
        job = make_job("shave-a-sheep", {"variants": ["howling-wolf"]}, bots=("greedy", "random"))
        chunk = fs.chunk(job, [0, 1, 2], interpreted=True)
        used = sorted(
            f"{m}.{n}" for m, mod in list(sys.modules.items()) if m.startswith("sheepfold")
            for n, d in vars(mod).items() if isinstance(d, Dispatcher) and d.signatures
        )
        print(json.dumps({"used": used, "lengths": [int(x) for x in chunk.length]}))
        """
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["used"] == [] and all(n > 0 for n in out["lengths"])
    assert not any((tmp_path / "numba").rglob("*.nbi"))  # and wrote nothing to the cache


class _Compiling:
    """A stand-in for :class:`.compiling.Background` (the lab's, the batch's): done after
    ``polls`` questions."""

    made: list[_Compiling] = []

    def __init__(self, work: Any, *args: Any, polls: int = 3) -> None:
        self.work, self.args, self.polls, self.stopped = work, args, polls, False
        _Compiling.made.append(self)

    def done(self) -> bool:
        self.polls -= 1
        return self.polls < 0

    def wait(self) -> float:
        return 61.5

    def seconds(self) -> float:
        return 4.25

    def stop(self) -> None:  # stopped before it was done
        self.stopped = self.stopped or self.polls >= 0


@pytest.mark.parametrize("polls", [3, 10**9], ids=["compiled in time", "games done first"])
def test_a_cold_lab_run_plays_interpreted_while_the_simulator_compiles(
    polls: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = runner.make_job("shave-a-sheep", bots=("greedy", "random"), games=40)
    played: list[bool] = []  # each chunk: interpreted?
    chunk = fs.chunk

    def noted(job: Any, indices: Any, interpreted: bool = False) -> Any:
        played.append(interpreted)
        return chunk(job, indices, interpreted)

    events: list[Any] = []
    _Compiling.made.clear()
    monkeypatch.setattr(fs, "ready", lambda job: False)  # a cold cache
    monkeypatch.setattr(fs, "chunk", noted)
    monkeypatch.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=polls))
    table = runner.run(
        job,
        workers=1,
        progress=lambda done, total: events.append(("progress", done)),
        compiling=lambda what, s: events.append((what, s)),
    )
    (bg,) = _Compiling.made
    assert bg.work is fs.warm and bg.args == (job,)  # the job's own kernels compile
    label = "compiling the simulator in the background"
    steps = [e for e in events if e[0] != "progress"]
    if polls == 3:  # three chunks interpreted, then the compiled kernels, loaded
        assert played[:3] == [True] * 3 and not any(played[3:]) and len(played) > 3
        assert steps == [(label, None), (label, 61.5)] and not bg.stopped
    else:  # every game interpreted: the compilation is stopped, and that is said
        assert all(played)
        assert steps == [(label, None), (f"{label} (stopped: the games were done first)", 4.25)]
        assert bg.stopped
    assert events[0] == ("progress", 0)  # the bar starts first, then the step is said
    assert [e for e in events if e[0] == "progress"][-1] == ("progress", 40)
    # the same games as a run on compiled kernels only
    monkeypatch.undo()
    again = runner.run(job, workers=1)
    for name in ("game_index", "scores", "length", "standings", "decisions", "ended_by"):
        assert table.column(name).to_pylist() == again.column(name).to_pylist(), name


def test_a_compile_done_with_the_last_games_is_said_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compilation ends while the last games are played: said as done, not stopped."""
    job = runner.make_job("shave-a-sheep", bots=("random",), games=6)
    said: list[Any] = []
    _Compiling.made.clear()
    monkeypatch.setattr(fs, "ready", lambda job: False)  # a cold cache
    # one chunk: not done before it, done after it
    monkeypatch.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=1))
    table = runner.run(job, workers=1, chunk_size=6, compiling=lambda w, s: said.append((w, s)))
    label = "compiling the simulator in the background"
    assert said == [(label, None), (label, 61.5)] and not _Compiling.made[0].stopped
    assert table.num_rows == 6


def test_a_warm_lab_run_compiles_nothing_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    job = runner.make_job("shave-a-sheep", bots=("random",), games=3)
    monkeypatch.setattr(compiling, "Background", lambda *a: pytest.fail("compiled again"))
    assert fs.ready(job)  # the suite's warm-up compiled it (or this call loaded it)
    assert runner.run(job, workers=1).num_rows == 3


@pytest.mark.parametrize("rules", [{"wool": 12}, {"wool": 10, "variants": ["howling-wolf"]}])
def test_the_perfect_policy_and_exact_shares_play_the_same_games_interpreted(
    rules: dict[str, Any],
) -> None:
    """The solver's tables (the perfect policy's, the exact win shares) read by the
    interpreted kernels as by the compiled ones."""
    for bots, exact in ((("perfect", "greedy"), False), (("random",), True)):
        job = runner.make_job("shave-a-sheep", rules, bots=bots, games=8, exact=exact)
        fs.prepare(job)
        idx = list(range(8))
        _same_chunks(fs.chunk(job, idx, interpreted=True), fs.chunk(job, idx))


def test_a_cold_perfect_lab_run_solves_and_plays_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a cold cache the solve runs interpreted while the solver compiles behind (stopped once
    it is done), then the games interpreted while the simulator compiles behind."""
    job = runner.make_job("shave-a-sheep", {"wool": 12}, bots=("perfect", "random"), games=10)
    said: list[Any] = []
    _Compiling.made.clear()
    monkeypatch.setattr(compiling, "cached", lambda kernel, *args: False)
    monkeypatch.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=10**9))
    from sheepfold.lab import perfect

    monkeypatch.setattr(perfect, "_TABLES", {})  # nothing solved yet, in memory or on disk
    monkeypatch.setenv("SHEEPFOLD_HOME", str(Path(os.environ["SHEEPFOLD_HOME"]) / "perfect-cold"))
    table = runner.run(job, workers=1, compiling=lambda what, s: said.append((what, s)))
    solver, games = _Compiling.made
    assert solver.work.__name__ == "warm" and solver.work.__module__.endswith(".solver")
    assert (games.work, games.args) == (fs.warm, (job,)) and solver.stopped and games.stopped
    assert [w for w, _ in said] == [
        "compiling the exact solver in the background",
        "compiling the exact solver in the background (stopped: the solve was done first)",
        "compiling the simulator in the background",
        "compiling the simulator in the background (stopped: the games were done first)",
    ]
    monkeypatch.undo()
    again = runner.run(job, workers=1)
    for name in ("game_index", "scores", "length", "standings", "decisions", "ended_by"):
        assert table.column(name).to_pylist() == again.column(name).to_pylist(), name


def _note_pid(path: str) -> None:
    Path(path).write_text(str(os.getpid()))


def test_background_work_runs_in_a_process_of_its_own(tmp_path: Path) -> None:
    note = tmp_path / "pid"
    job = compiling.Background(_note_pid, str(note))
    job.wait()
    assert job.done() and job.ok and int(note.read_text()) != os.getpid()
    slow = compiling.Background(time.sleep, 600)
    slow.stop()
    assert slow.done() and not slow.ok


def test_cached_loads_a_kernel_from_the_cache_and_never_compiles(tmp_path: Path) -> None:
    (tmp_path / "kern.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    probe = textwrap.dedent(
        """
        import json, sys
        from numba.core import event
        from sheepfold.core.compiling import cached
        import kern
        seen = []
        class Watch(event.Listener):
            def on_start(self, ev): seen.append(1)
            def on_end(self, ev): pass
        with event.install_listener("numba:compile", Watch()):
            before = cached(kern.twice, 3)
            if sys.argv[1] == "call":
                kern.twice(3)
            after = cached(kern.twice, 3)
        print(json.dumps([before, after, len(seen), len(kern.twice.signatures)]))
        """
    )
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]),
    )

    def run(how: str) -> list[Any]:
        done = subprocess.run(
            [sys.executable, "-c", probe, how], env=env, capture_output=True, text=True, check=True
        )
        return list(json.loads(done.stdout.strip().splitlines()[-1]))

    assert run("ask") == [False, False, 0, 0]  # not cached: said, and nothing compiled
    assert run("call") == [False, True, 1, 1]  # the call compiles (into the cache)
    assert run("ask") == [True, True, 0, 1]  # now loaded from the cache, not compiled


# -- the batched simulator -------------------------------------------------------------------
def _played(batch: Any, steps: int) -> list[Any]:
    """Everything the batch gives over ``steps`` steps of random legal actions."""
    rng = np.random.default_rng(7)
    seen: list[Any] = list(batch.reset(seed=3))
    for _ in range(steps):
        acts = batch.sample_actions(rng)
        seen.extend(batch.step(acts))
        seen.append(batch.observe(0))
        seen.append(batch.legal_mask())
    return seen


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))


BATCHES = [
    ("shave-a-sheep", dict(players=2)),
    (
        "shave-a-sheep",
        dict(players=3, rules={"variants": ["howling-wolf"], "rerolls": 1}, opponents="greedy"),
    ),
    ("shave-a-sheep", dict(players=4, rules={"setup": {"teams": [[0, 2], [1, 3]]}}, record=True)),
    ("dolly-crush", dict(players=2)),
    ("dolly-crush", dict(players=3, opponents="random", record=True)),
    ("dolly-crush", dict(players=2, rules={"diagonals": True}, observation="grid")),
]


def _batch_class(game: str) -> tuple[Any, Any]:
    """The game's batch and its kernel module."""
    from sheepfold.vector import DollyBatch, ShaveBatch, dolly_kernel, shave_kernel

    return {
        "shave-a-sheep": (ShaveBatch, shave_kernel),
        "dolly-crush": (DollyBatch, dolly_kernel),
    }[game]


@pytest.mark.parametrize("case", range(len(BATCHES)))
def test_the_interpreted_batch_plays_the_same_games(case: int) -> None:
    game, options = BATCHES[case]
    Batch, kernel = _batch_class(game)
    compiled = Batch(6, **options, background=False, compiling=None)
    plain = Batch(6, **options, background=False, compiling=None)
    with pytest.MonkeyPatch.context() as m:  # compiling for ever: always interpreted
        m.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=10**9))
        plain._background = compiling.Meanwhile("the batched simulator", None, None)
    plain._interpreted = compiling.Interpreted(kernel)
    a, b = _played(compiled, 40), _played(plain, 40)
    assert len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    assert plain._kernels() is plain._interpreted


@pytest.mark.parametrize("game", ["shave-a-sheep", "dolly-crush"])
def test_a_cold_batch_runs_interpreted_until_its_kernel_is_compiled(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    Batch, kernel = _batch_class(game)
    _Compiling.made.clear()
    said: list[tuple[str, float | None]] = []
    monkeypatch.setattr(compiling, "cached", lambda kernel, *args: False)  # a cold cache
    monkeypatch.setattr(compiling, "Background", lambda w, *a: _Compiling(w, *a, polls=4))
    batch = Batch(4, compiling=lambda what, s: said.append((what, s)))
    calls: list[bool] = []  # each call of the kernels: interpreted?
    kernels = batch._kernels

    def noted() -> Any:
        k = kernels()
        calls.append(k is not kernel)
        return k

    monkeypatch.setattr(batch, "_kernels", noted)
    steps = 6
    played = _played(batch, steps)
    (bg,) = _Compiling.made
    assert (bg.work, bg.args) == (type(batch)._warm, ())  # the kernels, as `sheepfold warm` does
    assert bg.work.__module__ == type(batch).__module__ and bg.work.__name__ == "warm"
    first = calls.index(False)  # interpreted first, then compiled
    assert first >= 1 and not any(calls[first:])
    label = "compiling the batched simulator in the background"
    assert said == [(label, None), (label, 61.5)]
    monkeypatch.undo()
    again = _played(Batch(4, background=False, compiling=None), steps)
    assert all(_equal(x, y) for x, y in zip(played, again, strict=True))


def test_the_terminal_says_the_background_step_and_how_it_ended(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sheepfold.cli.common import compile_report

    report = compile_report()
    label = "compiling the simulator in the background"
    report(label, None)
    report(f"{label} (stopped: the games were done first)", 4.25)
    report(label, None)
    report(label, 61.5)
    said = " ".join(capsys.readouterr().err.split())  # a log's lines, whatever their width
    start = f"{label} (meanwhile it runs uncompiled, more slowly)..."
    assert said == (
        f"{start} {label} (stopped: the games were done first): 4.2 s {start} {label}: 62 s"
    )
