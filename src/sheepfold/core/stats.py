"""Small statistics every layer shares."""

from __future__ import annotations

import math

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(k: float, n: float) -> tuple[float, float]:
    """Wilson's 95% interval for ``k`` successes in ``n`` trials (inside [0, 1], never a point)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    den = 1 + Z95**2 / n
    c = (p + Z95**2 / (2 * n)) / den
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / den
    lo = 0.0 if k <= 0 else max(0.0, c - h)
    hi = 1.0 if k >= n else min(1.0, c + h)
    return (lo, hi)
