"""The lab: simulate many games, measure what makes a game good, compare house rules.

Modules (imported lazily by their users; the rules never import the lab):

- :mod:`sheepfold.lab.runner`: batch runs (local processes or Ray), one Parquet row per game,
  stop and resume, any row back to a record.
- :mod:`sheepfold.lab.fastsim_shave` / :mod:`sheepfold.lab.fastsim_dolly`: fast simulators.
- :mod:`sheepfold.lab.features`: per-game quantities (lead changes, drama, decisiveness).
- :mod:`sheepfold.lab.metrics`: quality metrics with 95% confidence intervals.
- :mod:`sheepfold.lab.compare`: A/B comparisons on common random numbers.
- :mod:`sheepfold.lab.report`: PNG plots and self-contained HTML reports.
"""

from __future__ import annotations

import os
import tempfile


def _numba_cache_dir() -> None:
    """numba's ``cache=True`` needs a writable folder; pick one before numba is imported."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "sheepfold", "numba")
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".probe")
        with open(probe, "w") as f:
            f.write("")
        os.remove(probe)
    except OSError:
        path = os.path.join(tempfile.gettempdir(), "sheepfold-numba")
        os.makedirs(path, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = path


_numba_cache_dir()
