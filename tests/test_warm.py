"""``sheepfold warm`` (sheepfold.warm): every workload runs once, in order, and a workload whose
extra is missing is reported as skipped, not as a failure."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import sheepfold.warm as warm
from sheepfold.cli.main import app


def test_warm_runs_each_workload_and_names_the_skipped(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ran: list[str] = []

    def missing() -> None:
        raise ModuleNotFoundError("No module named 'numba'", name="numba")

    monkeypatch.setattr(
        warm,
        "WORKLOADS",
        [
            ("first", lambda: ran.append("first")),
            ("needs numba", missing),
            ("last", lambda: ran.append("last")),
        ],
    )
    r = CliRunner().invoke(app, ["warm"])
    assert r.exit_code == 0, r.output
    assert ran == ["first", "last"]
    assert "needs numba: skipped: its extra is not installed" in r.output
    assert "first: 0.0 s" in r.output


def test_a_real_error_in_a_workload_is_not_hidden(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def broken() -> None:
        raise ModuleNotFoundError("No module named 'sheepfold.nothing'", name="sheepfold.nothing")

    monkeypatch.setattr(warm, "WORKLOADS", [("broken", broken)])
    with pytest.raises(ModuleNotFoundError):
        warm.warm_all()


def test_every_workload_names_what_it_compiles() -> None:
    labels = [label for label, _ in warm.WORKLOADS]
    assert len(set(labels)) == len(labels) >= 5


def test_warm_runs_its_workloads_two_at_a_time(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    def work(name: str):  # type: ignore[no-untyped-def]
        return lambda: (tmp_path / name).write_text(str(os.getpid()))

    names = ["a", "b", "c"]
    monkeypatch.setattr(warm, "WORKLOADS", [(n, work(n)) for n in names])
    calls: list[tuple[int, int, str]] = []
    done = warm.warm_all(lambda *c: calls.append(c), jobs=2)
    assert [label for label, _ in done] == names and all(s is not None for _, s in done)
    pids = {(tmp_path / n).read_text() for n in names}
    assert str(os.getpid()) not in pids  # each in a worker process, not here
    assert calls[0][:2] == (0, 3) and calls[-1] == (3, 3, "")
    r = CliRunner().invoke(app, ["warm", "--jobs", "2"])
    assert r.exit_code == 0, r.output
    assert all(f"{n}: " in r.output for n in names)
