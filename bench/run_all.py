"""`make bench`: run every bench/bench_*.py in turn; each prints its own numbers, and the
machine's load average before and after it (numbers measured under load are slower: say so
beside any number you quote)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).parent
only = set(sys.argv[1:])
failed = []


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


print(
    f"{platform.node()}: {os.cpu_count()} CPUs, Python {platform.python_version()}; {load()}",
    flush=True,
)
for script in sorted(here.glob("bench_*.py")):
    if only and script.stem.removeprefix("bench_") not in only:
        continue
    print(f"\n=== {script.name} ===", flush=True)
    t = time.perf_counter()
    rc = subprocess.call([sys.executable, str(script)])
    print(f"--- {script.name}: {time.perf_counter() - t:.1f} s; {load()}", flush=True)
    if rc:
        failed.append(script.name)
if failed:
    print(f"\nfailed: {', '.join(failed)}")
    sys.exit(1)
