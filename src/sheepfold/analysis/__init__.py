"""Research tools on the exact solver.

- :func:`exploitability` (:mod:`sheepfold.analysis.exploitability`): the exact win shares of any
  Shave a Sheep policy against random, greedy and perfect play and its best response's share.
"""

from __future__ import annotations

from sheepfold.analysis.exploitability import Exploitability, exploitability, policy_table

__all__ = ["Exploitability", "exploitability", "policy_table"]
