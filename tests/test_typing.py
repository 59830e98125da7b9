"""Types are part of the contract (docs/spec/principles.md, principle 10): the package passes
mypy.

The configuration is in pyproject.toml: the whole package is checked, and ``core`` and ``games``
under mypy's strict flags.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_passes_mypy() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
