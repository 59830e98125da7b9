"""``sheepfold serve`` answers its first page without importing what compiles or plots: numba (and
every compiled kernel module), scipy, matplotlib, pandas, pyarrow. They cost seconds of import
(and numba's kernels minutes of compiling, cold) that the first page must not wait for; the bots'
warm-up imports them in the background once the server listens (server/warmup.py). Checked in a
fresh interpreter: what the CLI, the server's app and a made app leave in ``sys.modules``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sheepfold.numba_cache import KERNEL_MODULES

HEAVY = ("numba", "llvmlite", "scipy", "matplotlib", "pandas", "pyarrow", "gymnasium", "torch")

CODE = """
import json, sys
from sheepfold.cli.main import app as cli     # every command registered (serve among them)
import sheepfold.cli.serve
from sheepfold.server.app import create_app
create_app(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


def test_the_cli_and_the_server_app_import_nothing_that_compiles_or_plots(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CODE, str(tmp_path / "tables.db")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    heavy = sorted(m for m in loaded if m.partition(".")[0] in HEAVY)
    assert heavy == [], f"imported before the first page: {heavy[:12]}"
    kernels = sorted(m for m in KERNEL_MODULES if m in loaded)
    assert kernels == [], f"compiled kernel modules imported before the first page: {kernels}"
    assert "sheepfold.bots.dolly_mc" not in loaded
