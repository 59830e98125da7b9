"""A/B comparisons of two rule sets on common random numbers.

Both rule sets play the same games: game ``i`` of each is seeded ``seed + i``, so the dice
(Shave a Sheep: the die of turn t) and the decks (Dolly Crush: the shuffled deck) are the same
on both sides as far as the rules let them be. Differences are paired: every bootstrap
replicate draws the same games from A and B, which removes the luck the two share and makes
the intervals much narrower than two independent runs would give. ``paired=False`` compares
two runs on different seeds (``lab compare --independent``): each side is resampled on its own,
so the intervals carry both runs' luck (an A-versus-A check is then significant at p < 0.05 in
about 5% of repetitions: tests/test_lab_calibration.py).

For each metric: A's and B's values, each with its own 95% interval (the intervals of
``lab run``), B - A with its paired 95% interval, a p-value from the same bootstrap replicates
(so a difference whose interval excludes 0 has p < 0.05, and the other way round up to one
replicate) and, for lengths and counts, the relative change B / A - 1.

:func:`verdict` says it in words, the metric that moved most first; :func:`rules_differences`
says what differs between the two rule sets, option by option.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from sheepfold.core.words import Msg, Number, capitalized, chained, joined, listed, semicolon
from sheepfold.lab.endings import TURN_LIMIT, order
from sheepfold.lab.endings import words as ending_words
from sheepfold.lab.metrics import (
    BOOTSTRAP,
    bootstrap_weights,
    evaluate,
    fmt,
    fmt_ci,
    fmt_diff,
    game_arrays,
    metric_defs,
)
from sheepfold.rulesets import rules_differences  # noqa: F401  (the lab's name for it)

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
    a_lo: float = math.nan  # A's own 95% interval (as `lab run` gives it)
    a_hi: float = math.nan
    b_lo: float = math.nan  # B's own
    b_hi: float = math.nan

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


def _p_value(d: np.ndarray) -> float:
    """The two-sided bootstrap p-value of a difference from its replicates ``d``: twice the
    smaller share of replicates on either side of 0 (each count + 1, so never 0), at most 1.
    It agrees with the percentile interval: the interval excludes 0 when p < 0.05."""
    n = len(d)
    below = int(np.count_nonzero(d <= 0))
    above = int(np.count_nonzero(d >= 0))
    return min(1.0, 2 * (min(below, above) + 1) / (n + 1))


def compare_tables(
    ta: Any,
    tb: Any,
    seed: int = 0,
    replicates: int = BOOTSTRAP,
    paired: bool = True,
    only: Sequence[str] | None = None,
) -> list[Diff]:
    """Metric by metric, B - A: ``paired`` on the games both runs played (each bootstrap
    replicate draws the same games of A and B), else on independent games (A and B each
    resampled on its own: the unpaired comparison of runs on different seeds). ``only``: just
    these metrics, without each side's own interval (a quick look, for calibration)."""
    if paired:
        ta, tb = _align(ta, tb)
    da, db = game_arrays(ta), game_arrays(tb)
    share_reasons(da, db)
    defs_a = {m.key: m for m in metric_defs(da) if m.compare}
    defs_b = {m.key: m for m in metric_defs(db) if m.compare}
    keys = [k for k in defs_a if k in defs_b and (only is None or k in only)]
    est = {
        k: (defs_a[k].stat(da, np.ones(da["G"])), defs_b[k].stat(db, np.ones(db["G"])))
        for k in keys
    }
    reps: dict[str, list[tuple[float, float]]] = {k: [] for k in keys}
    rng = np.random.default_rng(seed)
    if paired:
        draws: Any = ((w, w) for w in bootstrap_weights(da["G"], replicates, rng))
    else:
        rng_b = np.random.default_rng([seed, 1])
        draws = zip(
            bootstrap_weights(da["G"], replicates, rng),
            bootstrap_weights(db["G"], replicates, rng_b),
            strict=True,
        )
    for wa, wb in draws:
        for k in keys:
            reps[k].append((defs_a[k].stat(da, wa), defs_b[k].stat(db, wb)))
    out = []
    for k in keys:
        a, b = est[k]
        r = np.array(reps[k], dtype=np.float64).reshape(-1, 2)
        ok = ~np.isnan(r).any(axis=1)
        r = r[ok]
        d = r[:, 1] - r[:, 0]
        diff = b - a
        if len(d) > 1:
            lo, hi = (float(x) for x in np.quantile(d, [0.025, 0.975]))
            p = _p_value(d) if not math.isnan(diff) else math.nan
        else:
            lo = hi = p = math.nan
        sig = bool(not math.isnan(p) and p < ALPHA and not (lo <= 0 <= hi))
        rel = rel_lo = rel_hi = None
        if k.startswith("length") or k in (
            "lead_changes",
            "margin",
            "drama_depth",
            "decisions_mean",
        ):
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
    if only is None:
        _own_intervals(out, da, db, seed)
    return out


def share_reasons(*runs: dict[str, Any]) -> None:
    """Give every run the end reasons any of them has, so that an ending only one rule set has
    is compared too (0% on the other side)."""
    if all("ended_by" in d for d in runs):
        both = order(set().union(*(d["end_reasons"] for d in runs)))
        for d in runs:
            d["end_reasons"] = both


def _own_intervals(diffs: list[Diff], da: dict[str, Any], db: dict[str, Any], seed: int) -> None:
    """Each side's own 95% interval of every metric, the same as ``lab run`` reports."""
    va = {v.key: v for v in evaluate(da, seed)}
    vb = {v.key: v for v in evaluate(db, seed)}
    for x in diffs:
        if x.key in va and x.key in vb:
            x.a_lo, x.a_hi = va[x.key].lo, va[x.key].hi
            x.b_lo, x.b_hi = vb[x.key].lo, vb[x.key].hi


def cells(x: Diff, sep: str = " ") -> tuple[str, str, str]:
    """The A, B and B − A cells of one metric, each value with its 95% interval (differences
    of shares in percentage points)."""
    return (
        f"{fmt(x.a, x.kind)}{sep}{fmt_ci(x.a_lo, x.a_hi, x.kind)}",
        f"{fmt(x.b, x.kind)}{sep}{fmt_ci(x.b_lo, x.b_hi, x.kind)}",
        f"{fmt_diff(x.diff, x.kind)}{sep}{fmt_ci(x.lo, x.hi, x.kind, diff=True)}",
    )


def relative_text(rel: float | None) -> str:
    """B / A - 1 in per cent, signed ("" when the metric has none); never "-0.0%"."""
    return "" if rel is None else Number(100 * rel, 1, signed=True, percent=True)


def p_text(p: float | None) -> str:
    """A p-value; the smallest the bootstrap can give (no replicate on the far side of 0) is a
    bound, shown as ``≤ 0.005`` (400 replicates)."""
    if p is None or p != p:
        return "-"
    floor = 2 / (BOOTSTRAP + 1)
    return f"≤ {floor:.3f}" if p <= floor + 1e-12 else f"{p:.3f}"


def _pm(lo: float | None, hi: float | None) -> float:
    if lo is None or hi is None:
        return math.nan
    return (hi - lo) / 2


def movement(d: Diff, scale: float | None = None) -> float:
    """How far a metric moved, on one scale from 0 to 1 for every kind: the change in points of
    100 for shares (+5 pp is 0.05), and for lengths and counts the change over the two values'
    sum (|B - A| / (|A| + |B|): 1 -> 3 is 0.5), or over ``scale`` when given (the length
    metrics are measured against the mean length: a standard deviation going from 0 to 0.05
    turns is no move at all in games of 8 turns)."""
    if d.kind in ("pct", "pp"):
        return abs(d.diff)
    total = scale if scale is not None else abs(d.a) + abs(d.b)
    return min(1.0, abs(d.diff) / total) if total else 0.0


def _movements(diffs: list[Diff]) -> dict[str, float]:
    """Every metric's :func:`movement`, the length metrics against the mean length."""
    L = next((d for d in diffs if d.key == "length_mean"), None)
    length = abs(L.a) + abs(L.b) if L is not None else None
    return {d.key: movement(d, length if d.key.startswith("length") else None) for d in diffs}


#: metrics the verdict leaves out: the turn limit has its own sentence; with seat 0's share
#: and the balance said, the other seats' shares and the advantage repeat them; decisions per
#: game follow the game length (the forced share and the choices per decision stay in)
_NOT_IN_VERDICT = ("truncated", "first_player_advantage", "decisions_mean")


def verdict(diffs: list[Diff], name_a: str, name_b: str, max_turns: int | None = None) -> str:
    """One paragraph in plain words: what B changes compared with A, the metric that moved most
    first (and, before it, when either rule set lets games run into the turn limit
    ``max_turns``). A :class:`~sheepfold.core.words.Msg` of templates (a reader's language
    translates it; stored with ``to_data``), its English the paragraph itself."""
    by = {d.key: d for d in diffs}
    rest = [
        d
        for d in diffs
        if d.key not in _NOT_IN_VERDICT
        and not d.key.startswith("ended_")
        and not (d.key.startswith("win_seat") and d.key != "win_seat0")
    ]
    moves = _movements(diffs)
    moved = sorted((d for d in rest if d.significant), key=lambda d: moves[d.key], reverse=True)
    if moved:
        lead = _words(moved[0], name_a, name_b)
        text = _sentence(capitalized(lead) if lead.startswith("the ") else lead)
        if len(moved) > 1:
            text = Msg(
                "{text} Then, by how much they moved: {changes}.",
                text=text,
                changes=chained([_change_words(d) for d in moved[1:]], semicolon),
            )
    else:
        text = Msg("{b} changes no metric measurably from {a} (95% intervals).", a=name_a, b=name_b)
        L = by.get("length_mean")
        if L is not None:
            text = _then(text, _sentence(_length_words(L, name_a, name_b)))
    endings = _ending_words(diffs, name_a, name_b)
    if endings:
        text = _then(endings, text)
    limit = _limit_words(by.get("truncated"), name_a, name_b, max_turns)
    if limit:
        text = _then(limit, text)
    same = [d.label for d in rest if not d.significant and not (d.lo == d.hi == d.diff == 0)]
    if same and moved:
        text = Msg("{text} No measurable change in: {labels}.", text=text, labels=listed(same))
    return text


def _sentence(words: str) -> str:
    return Msg("{words}.", words=words)


def _then(first: str, then: str) -> str:
    """Two sentences, one after the other."""
    return Msg("{a} {b}", a=first, b=then)


def _words(d: Diff, name_a: str, name_b: str) -> str:
    """The lead sentence about metric ``d``: B's change of it, naming both rule sets."""
    if d.key == "length_mean":
        return _length_words(d, name_a, name_b)
    if d.key == "win_seat0":
        digits = 0 if round(100 * d.a) != round(100 * d.b) else 1
        said = dict(
            a=name_a,
            b=name_b,
            a_share=fmt(d.a, "pct", digits),
            b_share=fmt(d.b, "pct", digits),
            change=fmt_diff(d.diff, "pp"),
        )
        if d.diff > 0:
            return Msg(
                "{b} raises seat 0's win share from {a_share} to {b_share} ({change}) "
                "compared with {a}",
                **said,
            )
        return Msg(
            "{b} cuts seat 0's win share from {a_share} to {b_share} ({change}) compared with {a}",
            **said,
        )
    return Msg(
        "the biggest change from {a} to {b}: {change}", a=name_a, b=name_b, change=_change_words(d)
    )


def _length_words(L: Diff | None, name_a: str, name_b: str) -> str:
    if L is None or L.rel is None:
        return Msg("{b} compared with {a}", a=name_a, b=name_b)
    pm = 100 * _pm(L.rel_lo, L.rel_hi)
    said = dict(
        a=name_a,
        b=name_b,
        pm=Number(pm, 1 if pm < 1 else 0),
        a_turns=fmt(L.a, "num"),
        b_turns=fmt(L.b, "num"),
    )
    if L.significant:
        change = Number(abs(100 * L.rel))
        if L.rel > 0:
            return Msg(
                "{b} makes games {change}% longer (±{pm}%) than {a} ({a_turns} → {b_turns} turns)",
                change=change,
                **said,
            )
        return Msg(
            "{b} makes games {change}% shorter (±{pm}%) than {a} ({a_turns} → {b_turns} turns)",
            change=change,
            **said,
        )
    if L.a == L.b and L.lo == L.hi == 0:
        return Msg(
            "{b} plays games of the same length as {a} ({turns} turns)",
            a=name_a,
            b=name_b,
            turns=said["a_turns"],
        )
    return Msg(
        "{b} does not change the game length measurably ({a_turns} vs {b_turns} turns, ±{pm}%)",
        **said,
    )


def _ending_words(diffs: list[Diff], name_a: str, name_b: str) -> str:
    """A sentence when the mix of end reasons changed significantly (else ""): "Under B the
    deck now runs out in 97% of games (A: 0%)", the reasons that grew first, then those that
    shrank, each by how much it moved (the turn limit has its own sentence)."""
    moved = sorted(
        (
            d
            for d in diffs
            if d.key.startswith("ended_") and d.key != f"ended_{TURN_LIMIT}" and d.significant
        ),
        key=lambda d: (d.diff <= 0, -abs(d.diff)),  # the endings that grew first
    )
    if not moved:
        return ""
    parts = []
    for k, d in enumerate(moved[:3]):
        reason = d.key.removeprefix("ended_")
        said = dict(a=name_a, b_share=fmt(d.b, "pct", 0), a_share=fmt(d.a, "pct", 0))
        if k == 0:
            how = ending_words(reason, now=True)
            parts.append(Msg("{how} in {b_share} of games ({a}: {a_share})", how=how, **said))
        else:
            parts.append(
                Msg("{how} in {b_share} ({a}: {a_share})", how=ending_words(reason), **said)
            )
    return Msg("Under {b} {parts}.", b=name_b, parts=chained(parts, semicolon))


def _limit_words(T: Diff | None, name_a: str, name_b: str, max_turns: int | None) -> str:
    """A sentence when games of A or B hit the turn limit (else "")."""
    if T is None or not (T.a > 0 or T.b > 0):
        return ""
    where = (
        Msg("the {n}-turn limit", n=Number(max_turns, grouped=True))
        if max_turns
        else Msg("the turn limit")
    )
    endless = [nm for nm, v in ((name_a, T.a), (name_b, T.b)) if v > 0]
    return Msg(
        "Games hit {where} ({a}: {a_share} of games, {b}: {b_share}): under {endless} a game "
        "may never end. Those games have no winner; every result below is of the games that "
        "finished.",
        where=where,
        a=name_a,
        b=name_b,
        a_share=fmt(T.a, "pct"),
        b_share=fmt(T.b, "pct"),
        endless=joined(endless),
    )


def _change_words(d: Diff) -> str:
    """``label A → B`` with the change: in points for shares, relative for lengths and counts."""
    change = Msg("{a} → {b}", a=fmt(d.a, d.kind), b=fmt(d.b, d.kind))
    if d.kind in ("pct", "pp"):
        return Msg(
            "{label} {change} ({by})", label=d.label, change=change, by=fmt_diff(d.diff, "pp")
        )
    if d.rel is not None:
        by = Number(100 * d.rel, signed=True, percent=True)
        return Msg("{label} {change} ({by})", label=d.label, change=change, by=by)
    return Msg("{label} {change}", label=d.label, change=change)
