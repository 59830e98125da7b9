"""Shared test settings: hypothesis profiles.

* ``ci`` (the default, ``make test`` and ``make test-fast``): derandomized (the same examples on
  every run), no example database to depend on; sized for a 2-core CI machine.
* ``random`` (``make test-random``, ``HYPOTHESIS_PROFILE=random``): new random examples on every
  run, more of them; a failure prints its reproduction blob: pin it in the test with
  ``@example(...)`` so the derandomized suite checks it from then on.
* ``dev``: fewer examples, for a quick local run.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "random",
    max_examples=300,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
