"""`make bench`: run every bench/bench_*.py in turn; each prints its own numbers."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).parent
only = set(sys.argv[1:])
failed = []
for script in sorted(here.glob("bench_*.py")):
    if only and script.stem.removeprefix("bench_") not in only:
        continue
    print(f"\n=== {script.name} ===", flush=True)
    t = time.perf_counter()
    rc = subprocess.call([sys.executable, str(script)])
    print(f"--- {script.name}: {time.perf_counter() - t:.1f} s", flush=True)
    if rc:
        failed.append(script.name)
if failed:
    print(f"\nfailed: {', '.join(failed)}")
    sys.exit(1)
