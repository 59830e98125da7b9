"""Running a script of examples/ as a user would: a fresh interpreter, its output returned."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(script: str, *args: str, timeout: float = 600) -> str:
    """The standard output of ``python examples/<script> <args>``; fails with its stderr's end
    when it exits non-zero (``timeout``: a hang fails instead of stalling the suite)."""
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout
