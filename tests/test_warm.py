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
