"""Types are part of the contract (style.md, principle 10): the package passes mypy."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_passes_mypy():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "src/sheepfold", "--ignore-missing-imports",
         "--cache-dir", str(ROOT / ".mypy_cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
