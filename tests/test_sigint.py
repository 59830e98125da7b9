"""One Ctrl-C stops `lab run`, `lab compare` and `tournament`: a real SIGINT to the whole
process group (as a terminal sends it, the workers too) once the first games are in; the command
exits 130, leaves no process behind and keeps what finished (issue 16)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The command runs in-process in a fresh interpreter of its own session; the function that
# reports progress is wrapped so that its first report of finished games sends SIGINT to the
# whole group.
DRIVER = r"""
import faulthandler, os, signal, sys
faulthandler.dump_traceback_later(60)  # a hang shows every thread's stack in the test's output
# Ctrl-C as a terminal's foreground job gets it: an ignored SIGINT is inherited through exec,
# and the test process may have one (seen in a full CI run: the command then ran to its end)
signal.signal(signal.SIGINT, signal.default_int_handler)
import sheepfold.lab.runner as runner
import sheepfold.bots.tournament as tournament

def interrupting(report):
    sent = []
    def wrapped(*args):
        if not sent and args[0] > 0:  # games done (lab) or games added (tournament)
            sent.append(1)
            os.killpg(os.getpgid(0), signal.SIGINT)
        if report is not None:
            return report(*args)
    return wrapped

real_run, real_tournament = runner.run, tournament.run_tournament
def run(job, out=None, **kw):
    kw["progress"] = interrupting(kw.get("progress"))
    return real_run(job, out, **kw)
def run_tournament(cfg, on_games=None, journal=None):
    return real_tournament(cfg, interrupting(on_games), journal)
runner.run, tournament.run_tournament = run, run_tournament

from sheepfold.cli.main import app
app(sys.argv[1:], prog_name="sheepfold")
"""

LAB = ["--bot", "greedy", "--engine", "engine", "--games", "100000", "--workers", "2"]
CASES = {
    "lab run": (["lab", "run", "shave-a-sheep", *LAB, "--chunk-size", "5"], "out.parquet"),
    "lab compare": (["lab", "compare", "shave-a-sheep", "rulebook", "cutting-costs", *LAB], "out"),
    "tournament": (
        ["tournament", "shave-a-sheep", "-b", "greedy", "-b", "random", "-n", "100000", "-w", "2"],
        "out.jsonl",
    ),
}


def _kept(name: str, out: Path) -> int:
    """How many finished games the command kept in ``out``."""
    if name == "tournament":
        return sum(len(json.loads(line)) for line in out.read_text().splitlines()[1:])
    from sheepfold.lab.runner import read_table

    return read_table(out / "a.parquet" if name == "lab compare" else out)[1].num_rows


@pytest.mark.parametrize("name", list(CASES))
def test_one_sigint_stops_the_command_and_keeps_what_finished(name: str, tmp_path: Path) -> None:
    args, target = CASES[name]
    out = tmp_path / target
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, *args, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(f"no exit in 120 s; its stacks and output:\n{err[-6000:]}") from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err[-2000:]
    with pytest.raises(ProcessLookupError):  # no worker left behind in the group
        os.killpg(proc.pid, 0)
    assert 0 < _kept(name, out) < 100000
    assert "Traceback" not in err
