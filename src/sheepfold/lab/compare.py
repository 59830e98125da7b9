"""A/B comparisons of two rule sets on common random numbers.

Both rule sets play the same games: game ``i`` of each is seeded ``seed + i``, so the dice
(Shave a Sheep: the die of turn t) and the decks (Dolly Crush: the shuffled deck) are the same
on both sides as far as the rules let them be. Differences are paired: every bootstrap
replicate draws the same games from A and B, which removes the luck the two share and makes
the intervals much narrower than two independent runs would give.

For each metric: A's value, B's value, B - A with its 95% interval, a p-value (normal
approximation with the bootstrap standard error) and, for game length, the relative change.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from sheepfold.lab.metrics import (
    BOOTSTRAP,
    bootstrap_weights,
    fmt,
    game_arrays,
    metric_defs,
)

ALPHA = 0.05


@dataclass
class Diff:
    key: str
    label: str
    kind: str
    a: float
    b: float
    diff: float  # b - a
    lo: float
    hi: float
    p: float
    significant: bool
    rel: float | None = None  # b / a - 1
    rel_lo: float | None = None
    rel_hi: float | None = None
    definition: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for k, v in out.items():
            if isinstance(v, float):
                out[k] = None if math.isnan(v) else round(v, 6)
        return out


def _align(ta: Any, tb: Any) -> tuple[Any, Any]:
    """The games both tables hold, in the same order (paired by game index)."""
    import pyarrow as pa

    ia = ta.column("game_index").to_numpy()
    ib = tb.column("game_index").to_numpy()
    common = np.intersect1d(ia, ib)
    if len(common) == 0:
        from sheepfold.lab.runner import LabError

        raise LabError("the two runs share no game (compare needs the same seeds)")
    pa_idx = (
        np.searchsorted(ia, common)
        if np.all(np.diff(ia) >= 0)
        else np.array([np.where(ia == c)[0][0] for c in common])
    )
    pb_idx = (
        np.searchsorted(ib, common)
        if np.all(np.diff(ib) >= 0)
        else np.array([np.where(ib == c)[0][0] for c in common])
    )
    return ta.take(pa.array(pa_idx)), tb.take(pa.array(pb_idx))


def _p_value(est: float, se: float) -> float:
    from scipy.stats import norm

    if not se or math.isnan(se) or se == 0:
        return 0.0 if est != 0 else 1.0
    return float(2 * norm.sf(abs(est) / se))


def compare_tables(ta: Any, tb: Any, seed: int = 0, replicates: int = BOOTSTRAP) -> list[Diff]:
    """Metric by metric, B - A on the games both runs played (paired bootstrap)."""
    ta, tb = _align(ta, tb)
    da, db = game_arrays(ta), game_arrays(tb)
    defs_a = {m.key: m for m in metric_defs(da) if m.compare}
    defs_b = {m.key: m for m in metric_defs(db) if m.compare}
    keys = [k for k in defs_a if k in defs_b]
    G = da["G"]
    ones = np.ones(G)
    est = {k: (defs_a[k].stat(da, ones), defs_b[k].stat(db, ones)) for k in keys}
    reps: dict[str, list[tuple[float, float]]] = {k: [] for k in keys}
    for w in bootstrap_weights(G, replicates, np.random.default_rng(seed)):
        for k in keys:
            reps[k].append((defs_a[k].stat(da, w), defs_b[k].stat(db, w)))
    out = []
    for k in keys:
        a, b = est[k]
        r = np.array(reps[k], dtype=np.float64).reshape(-1, 2)
        ok = ~np.isnan(r).any(axis=1)
        r = r[ok]
        d = r[:, 1] - r[:, 0]
        diff = b - a
        if len(d) > 1:
            se = float(np.std(d, ddof=1))
            lo, hi = (float(x) for x in np.quantile(d, [0.025, 0.975]))
        else:
            se, lo, hi = math.nan, math.nan, math.nan
        p = _p_value(diff, se) if not math.isnan(diff) else math.nan
        sig = bool(not math.isnan(p) and p < ALPHA and not (lo <= 0 <= hi))
        rel = rel_lo = rel_hi = None
        if k.startswith("length") or k in ("lead_changes", "margin", "drama_depth"):
            with np.errstate(divide="ignore", invalid="ignore"):
                rr = r[:, 1] / r[:, 0] - 1
            rr = rr[np.isfinite(rr)]
            if a and len(rr) > 1:
                rel = b / a - 1
                rel_lo, rel_hi = (float(x) for x in np.quantile(rr, [0.025, 0.975]))
        m = defs_a[k]
        out.append(
            Diff(k, m.label, m.kind, a, b, diff, lo, hi, p, sig, rel, rel_lo, rel_hi, m.definition)
        )
    return out


def _pm(lo: float | None, hi: float | None) -> float:
    if lo is None or hi is None:
        return math.nan
    return (hi - lo) / 2


def verdict(diffs: list[Diff], name_a: str, name_b: str) -> str:
    """One paragraph in plain words: what B changes compared with A."""
    by = {d.key: d for d in diffs}
    parts: list[str] = []
    L = by.get("length_mean")
    if L is not None and L.rel is not None:
        pm = 100 * _pm(L.rel_lo, L.rel_hi)
        pm_text = f"{pm:.1f}" if pm < 1 else f"{pm:.0f}"
        if L.significant:
            word = "longer" if L.rel > 0 else "shorter"
            parts.append(
                f"{name_b} makes games {abs(100 * L.rel):.0f}% {word} (±{pm_text}%) than {name_a}"
                f" ({fmt(L.a, 'num')} → {fmt(L.b, 'num')} turns)"
            )
        elif L.a == L.b and L.lo == L.hi == 0:
            parts.append(
                f"{name_b} plays games of the same length as {name_a} ({fmt(L.a, 'num')} turns)"
            )
        else:
            parts.append(
                f"{name_b} does not change the game length measurably ({fmt(L.a, 'num')} vs "
                f"{fmt(L.b, 'num')} turns, ±{pm_text}%)"
            )
    else:
        parts.append(f"{name_b} compared with {name_a}")
    s0 = by.get("win_seat0")
    if s0 is not None:
        digits = 0 if round(100 * s0.a) != round(100 * s0.b) else 1
        a_txt, b_txt = f"{100 * s0.a:.{digits}f}%", f"{100 * s0.b:.{digits}f}%"
        if s0.significant:
            verb = "raises" if s0.diff > 0 else "cuts"
            parts.append(f"{verb} seat 0's win share from {a_txt} to {b_txt}")
        else:
            parts.append(f"leaves seat 0's win share where it was ({a_txt} vs {b_txt})")
    text = parts[0] + (", and " + parts[1] if len(parts) > 1 else "") + "."
    others = []
    skip = {"length_mean", "win_seat0", "win_seat1", "first_player_advantage"}
    for d in diffs:
        if d.key in skip or not d.significant or d.key.startswith("win_seat"):
            continue
        if d.kind in ("pct", "pp"):
            others.append(f"{d.label} {fmt(d.a, d.kind)} → {fmt(d.b, d.kind)}")
        elif d.rel is not None:
            others.append(
                f"{d.label} {fmt(d.a, d.kind)} → {fmt(d.b, d.kind)} ({100 * d.rel:+.0f}%)"
            )
        else:
            others.append(f"{d.label} {fmt(d.a, d.kind)} → {fmt(d.b, d.kind)}")
    if others:
        text += " Also significant (95%): " + "; ".join(others) + "."
    same = [
        d.label
        for d in diffs
        if not d.significant
        and d.key not in skip
        and not d.key.startswith("win_seat")
        and not (d.lo == d.hi == d.diff == 0)
    ]
    if same:
        text += " No measurable change in: " + ", ".join(same) + "."
    return text
