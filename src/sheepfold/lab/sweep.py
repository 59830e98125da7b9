"""A parameter sweep: one rule option stepped through values, every value played on the same
seeds (common random numbers), every metric measured with its 95% interval.

``wool=10..60:5`` (from 10 to 60 in steps of 5), ``max_wool=3..7`` (steps of 1) or a list,
``wolf_to=middle,roller`` (each value read as TOML, else as text). :func:`highlights` names the
values where the game is fairest, most dramatic and nearest a target length, with the values
whose interval overlaps the best one's (the data cannot tell those apart).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sheepfold.core.protocol import SheepfoldError

#: the most values one sweep plays (each is a whole lab run)
MAX_VALUES = 40


class SweepError(SheepfoldError):
    """A sweep that cannot be played as asked (the message says why)."""


def _scalar(text: str) -> Any:
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _steps(lo: Any, hi: Any, step: Any, spec: str) -> list[Any]:
    if not (_is_number(lo) and _is_number(hi) and _is_number(step)):
        raise SweepError(f"{spec}: a range LO..HI[:STEP] takes numbers")
    if step <= 0 or hi < lo:
        raise SweepError(f"{spec}: a range goes up from LO to HI by a positive STEP")
    count = math.floor((hi - lo) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise SweepError(f"{spec}: {count} values; a sweep plays at most {MAX_VALUES}")
    ints = all(isinstance(x, int) for x in (lo, hi, step))
    return [lo + k * step if ints else round(lo + k * step, 10) for k in range(count)]


def parse_sweep(spec: str) -> tuple[str, list[Any]]:
    """``KEY=LO..HI[:STEP]`` or ``KEY=A,B,C`` as (key, values); SweepError saying what is wrong."""
    key, sep, text = spec.partition("=")
    key = key.strip()
    if not sep or not key or not text.strip():
        raise SweepError(f"--set {spec!r}: write KEY=LO..HI[:STEP] or KEY=A,B,C")
    if ".." in text:
        span, _, step = text.partition(":")
        lo, _, hi = span.partition("..")
        values = _steps(_scalar(lo), _scalar(hi), _scalar(step) if step else 1, spec)
    else:
        values = [_scalar(v) for v in text.split(",")]
        if len(values) > MAX_VALUES:
            raise SweepError(f"{spec}: {len(values)} values; a sweep plays at most {MAX_VALUES}")
    if len(values) < 2:
        raise SweepError(f"--set {spec!r}: a sweep needs at least two values")
    if len(set(map(repr, values))) != len(values):
        raise SweepError(f"--set {spec!r}: a value is listed twice")
    return key, values


def is_sweep(spec: str) -> bool:
    """Whether a ``--set`` text names several values (a range or a list), not one."""
    _, _, text = spec.partition("=")
    if ".." in text:
        return True
    try:
        tomllib.loads(f"v = {text}")  # one TOML value, e.g. a list [1, 2, 3] for the die
        return False
    except tomllib.TOMLDecodeError:
        return "," in text


def split_sets(sets: Sequence[str]) -> tuple[tuple[str, list[Any]], list[str]]:
    """The one swept option and the fixed ``--set`` texts; SweepError unless exactly one sweeps."""
    swept = [s for s in sets if is_sweep(s)]
    if len(swept) != 1:
        found = f" ({', '.join(swept)})" if swept else ""
        raise SweepError(
            f"a sweep steps exactly one option through values; {len(swept)} given{found}. "
            "Example: --set wool=10..60:5"
        )
    return parse_sweep(swept[0]), [s for s in sets if s not in swept]


def value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True)
class Highlight:
    """A value the sweep singles out, and the values the data cannot tell from it."""

    what: str
    value: Any
    metric: str
    shown: str  # the metric at that value, with its interval
    ties: tuple[Any, ...]

    def text(self) -> str:
        same = (
            f" (no different, within the intervals: {', '.join(map(value_text, self.ties))})"
            if self.ties
            else ""
        )
        return f"{self.what}: {value_text(self.value)}, {self.metric} {self.shown}{same}"


def _pick(
    rows: Sequence[dict[str, Any]],
    key: str,
    score: Any,
    what: str,
    metric: str,
    centre: float | None = None,
) -> Highlight | None:
    """The row whose metric ``key`` minimises ``score(value)`` (a monotone score, or the distance
    to ``centre``); the rows whose interval reaches the best row's score too are reported as
    indistinguishable from it."""
    from sheepfold.lab.metrics import fmt, fmt_ci

    cands = [r for r in rows if r["metrics"][key]["value"] is not None]
    if not cands:
        return None
    best = min(cands, key=lambda r: score(r["metrics"][key]["value"]))
    b = best["metrics"][key]
    target = score(b["value"])

    def reaches(r: dict[str, Any]) -> bool:
        lo, hi = r["metrics"][key]["lo"], r["metrics"][key]["hi"]
        if lo is None or hi is None:
            return False
        if centre is not None and lo <= centre <= hi:
            return True
        return min(score(lo), score(hi)) <= target + 1e-12

    ties = tuple(r["value"] for r in cands if r is not best and reaches(r))
    shown = f"{fmt(b['value'], b['kind'])} {fmt_ci(b['lo'], b['hi'], b['kind'])}"
    return Highlight(what, best["value"], metric, shown, ties)


def highlights(
    rows: Sequence[dict[str, Any]], target_length: float | None = None
) -> list[Highlight]:
    """The fairest value (the seats' win shares closest together: balance nearest 100%), the most
    dramatic (most lead changes a game) and, with ``target_length``, the one whose mean length
    is nearest it."""
    out = [
        _pick(rows, "balance", lambda x: 1.0 - x, "fairest", "balance"),
        _pick(rows, "lead_changes", lambda x: -x, "most dramatic", "lead changes a game"),
    ]
    if target_length is not None:
        out.append(
            _pick(
                rows,
                "length_mean",
                lambda x: abs(x - target_length),
                f"nearest {target_length:g} turns",
                "mean length",
                centre=target_length,
            )
        )
    return [h for h in out if h is not None]
