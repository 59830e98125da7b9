"""The lab: simulate many games, measure what makes a game good, compare house rules.

Modules (imported lazily by their users; the rules never import the lab):

- :mod:`sheepfold.lab.runner`: batch runs (local processes or Ray), one Parquet row per game,
  stop and resume, any row back to a record.
- :mod:`sheepfold.lab.fastsim_shave` / :mod:`sheepfold.lab.fastsim_dolly`: fast simulators.
- per-game quantities (lead changes, drama, decisiveness): :mod:`sheepfold.games.features`
  (below the lab: the web's end screen tells them too).
- :mod:`sheepfold.lab.metrics`: quality metrics with 95% confidence intervals.
- :mod:`sheepfold.lab.compare`: A/B comparisons on common random numbers.
- :mod:`sheepfold.lab.report`: PNG plots and self-contained HTML reports.
"""

from __future__ import annotations

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()  # before any lab module imports numba
