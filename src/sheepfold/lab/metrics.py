"""Quality metrics of a batch of games, each with a 95% confidence interval.

Every metric is a function of per-game arrays (:func:`game_arrays`) and a set of game indexes,
so the same definition gives the point estimate (all games), a bootstrap interval (resampled
games) and, in :mod:`sheepfold.lab.compare`, paired differences (the same resampled games of
both rule sets). Means of per-game values use the normal approximation (mean ± 1.96 standard
errors); proportions use Wilson's interval; percentiles use the order-statistic (binomial)
interval; everything else (balance, spread) a percentile bootstrap with a fixed seed.

The definitions are in docs/lab.md (after Browne's and Ludii's game-quality measures):
length, truncated, win share by seat, first-player advantage, balance, tie rate, lead changes,
drama, decisiveness, winning margin, decisions per game, forced decisions, real choices per
decision, win share by breed (Dolly Crush) and by bot (skill gap).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from sheepfold.core.stats import Z95, wilson
from sheepfold.core.words import Msg, Number, listed
from sheepfold.lab.endings import label as ending_label
from sheepfold.lab.endings import order
from sheepfold.lab.endings import words as ending_words

BOOTSTRAP = 400


# -- per-game arrays -------------------------------------------------------------------------
def _fixed(col: Any, n: int, dtype: Any) -> np.ndarray:
    import pyarrow as pa

    arr = col.combine_chunks() if hasattr(col, "combine_chunks") else col
    if isinstance(arr, pa.ChunkedArray):
        arr = pa.concat_arrays(arr.chunks)
    if len(arr) == 0:
        return np.zeros((0, n), dtype=dtype)
    return np.asarray(arr.flatten().to_numpy(zero_copy_only=False), dtype=dtype).reshape(-1, n)


def _strings(col: Any, G: int, n: int) -> np.ndarray:
    import pyarrow.compute as pc

    if G == 0:
        return np.zeros((0, n), dtype=object)
    flat = pc.list_flatten(col)
    enc = (
        flat.combine_chunks().dictionary_encode()
        if hasattr(flat, "combine_chunks")
        else flat.dictionary_encode()
    )
    names = np.array(enc.dictionary.to_pylist(), dtype=object)
    return names[enc.indices.to_numpy()].reshape(G, n)


def game_arrays(table: Any) -> dict[str, Any]:
    """The per-game columns of a run's table as numpy arrays (only finished games matter)."""
    G = table.num_rows
    n = int(table.column("players")[0].as_py()) if G else 2
    d: dict[str, Any] = {"n": n, "G": G}
    d["game_index"] = table.column("game_index").to_numpy()
    d["length"] = table.column("length").to_numpy().astype(np.float64)
    d["truncated"] = table.column("truncated").to_numpy(zero_copy_only=False).astype(bool)
    d["scores"] = _fixed(table.column("scores"), n, np.float64)
    d["shares"] = _fixed(table.column("shares"), n, np.float64)
    import pyarrow as pa
    import pyarrow.compute as pc

    nwin = (
        pc.list_value_length(table.column("winners")).to_numpy().astype(np.int64)
        if G
        else np.zeros(0)
    )
    d["nwin"] = nwin
    d["first"] = _first_movers(table, G)
    for name in ("lead_changes", "winner_trailed", "winner_deficit", "decisive_turn"):
        d[name] = table.column(name).to_numpy().astype(np.float64)
    d["bots"] = _strings(table.column("bots"), G, n)
    d["breeds"] = (
        _strings(table.column("breeds"), G, n) if G and table.column("breeds")[0].as_py() else None
    )
    d["game"] = table.column("game")[0].as_py() if G else ""
    d["ruleset"] = table.column("ruleset")[0].as_py() if G else ""
    rules = json.loads(table.column("rules")[0].as_py()) if G else {}
    d["max_turns"] = rules.get("max_turns")
    for name in ("decisions", "forced", "choices"):
        # optional (runs written before they existed: all NaN, the metrics then say "-"); the
        # fast Shave a Sheep path counts a sample of its games (nulls elsewhere: NaN)
        d[name] = (
            pc.cast(table.column(name), pa.float64()).to_numpy(zero_copy_only=False)
            if name in table.column_names and G
            else np.full(G, np.nan)
        )
    if "ended_by" in table.column_names and G:
        # files written before the column existed have none: no ending metrics then
        d["ended_by"] = np.asarray(
            table.column("ended_by").to_numpy(zero_copy_only=False), dtype=object
        )
        d["end_reasons"] = order(set(d["ended_by"].tolist()) - {None})
    if "uncertainty" in table.column_names:
        d["uncertainty"] = table.column("uncertainty").to_numpy().astype(np.float64)
        d["uncertainty_curve"] = _fixed(table.column("uncertainty_curve"), 10, np.float64)
    srt = np.sort(d["scores"], axis=1)
    d["margin"] = srt[:, -1] - srt[:, -2] if n >= 2 and G else np.zeros(G)
    return d


def _first_movers(table: Any, G: int) -> np.ndarray:
    """The seat that made the first move of each game (the runner's column; a run written
    before it existed: seat 0, -1 where a game had no move)."""
    import pyarrow.compute as pc

    from sheepfold.lab.runner import FIRST_COLUMN

    if FIRST_COLUMN not in table.column_names or not G:
        return np.zeros(G, dtype=np.int64)
    col = pc.fill_null(table.column(FIRST_COLUMN), 0)
    return np.asarray(col.to_numpy(), dtype=np.int64)


def bots_text(d: dict[str, Any], named: Callable[[str], str] = str) -> str:
    """The bots of a run in words: ``random (every seat)``, ``perfect, random`` (seat by seat)
    or ``perfect, random, rotated through the seats`` (when games seat them differently), each
    bot as ``named`` says it (its name; a plot's: its level's title, ``Greedy``)."""
    bots = d["bots"]
    if len(bots) == 0:
        return "-"
    names = [named(str(b)) for b in bots[0]]
    if len(set(names)) == 1:
        return Msg("{bot} (every seat)", bot=names[0])
    if (bots != bots[0]).any():
        return Msg("{bots}, rotated through the seats", bots=listed(names))
    return Msg("{bots} (seat 0 first)", bots=listed(names))


def truncation_note(d: dict[str, Any]) -> str | None:
    """In plain words, when some games hit the turn limit (else None): how many, that the rules
    allow endless games, and that the results are of the finished games only."""
    G = d["G"]
    cut = int(d["truncated"].sum())
    if cut == 0:
        return None
    limit = d.get("max_turns")
    where = f"the {limit:,}-turn limit" if limit else "the turn limit"
    fin = G - cut
    pct = 100 * cut / G
    share = "100%" if cut == G else "under 0.1%" if pct < 0.05 else f"{pct:.1f}%"
    return (
        f"{share} of games ({cut:,} of {G:,}) hit {where}: under these rules a game may never "
        f"end. They have no winner; the win shares and the other results are of the {fin:,} "
        f"games that finished{'' if fin else ' (none did)'}."
    )


# -- interval helpers --------------------------------------------------------------------------
def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    m = float(np.mean(x))
    if len(x) < 2:
        return (m, math.nan, math.nan)
    se = float(np.std(x, ddof=1)) / math.sqrt(len(x))
    return (m, m - Z95 * se, m + Z95 * se)


def quantile_ci(x: np.ndarray, q: float) -> tuple[float, float, float]:
    """The q-quantile with its distribution-free (binomial order-statistic) 95% interval."""
    from scipy.stats import binom

    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    s = np.sort(x)
    est = float(np.quantile(s, q))
    lo = int(binom.ppf(0.025, n, q))
    hi = int(binom.ppf(0.975, n, q))
    return (est, float(s[max(0, min(n - 1, lo - 1))]), float(s[max(0, min(n - 1, hi))]))


# -- metric definitions --------------------------------------------------------------------------
@dataclass
class Value:
    key: str
    label: str
    value: float
    lo: float
    hi: float
    kind: str  # "num" | "pct" (a share, shown in %) | "pp" (a difference of shares: points)
    n: int  # games it is computed over
    definition: str = ""
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for k in ("value", "lo", "hi"):
            v = out[k]
            out[k] = (
                None
                if v is None or (isinstance(v, float) and math.isnan(v))
                else round(float(v), 6)
            )
        return out

    def text(self) -> str:
        return f"{fmt(self.value, self.kind)} {fmt_ci(self.lo, self.hi, self.kind)}"


def _auto_digits(x: float) -> int:
    return 0 if abs(x) >= 1000 else 1 if abs(x) >= 100 else 2


def fmt(x: float | None, kind: str, digits: int | None = None) -> str:
    """A value for people: ``pct`` a share (``50.2%``), ``pp`` a difference of shares in
    percentage points, signed (``+0.4 pp``), ``num`` a plain number. Never "-0.0". A
    :class:`~sheepfold.core.words.Number` (a reader's language writes it its own way)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if kind == "pct":
        return Number(100 * x, 1 if digits is None else digits, percent=True)
    if kind == "pp":
        return fmt_diff(x, kind, digits)
    return Number(x, _auto_digits(x) if digits is None else digits)


def fmt_diff(x: float | None, kind: str, digits: int | None = None) -> str:
    """A difference, signed: shares (``pct``/``pp``) in percentage points (``-1.2 pp``),
    numbers as they are (``+33.17``); zero (after rounding) unsigned (``0.0 pp``)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if kind in ("pct", "pp"):
        points = Number(100 * x, 1 if digits is None else digits, signed=True)
        return Msg("{number} pp", number=points)
    return Number(x, _auto_digits(x) if digits is None else digits, signed=True)


def fmt_ci(lo: float | None, hi: float | None, kind: str, diff: bool = False) -> str:
    """A 95% interval as ``[lo, hi]`` in the value's units (``diff``: as differences)."""
    f = fmt_diff if diff else fmt
    return f"[{f(lo, kind)}, {f(hi, kind)}]"


@dataclass
class MetricDef:
    """A metric as a statistic of the finished games: ``stat(d, weights) -> float``.

    ``weights`` counts how often each game is taken (ones: the games as played; a bootstrap
    replicate: how often each game was drawn).

    ``per_game`` (when given) returns per-game values and a mask: the metric is then their
    mean, with a normal interval; ``ci`` = "wilson" for proportions of 0/1 values.
    """

    key: str
    label: str
    kind: str
    definition: str
    stat: Callable[[dict[str, Any], np.ndarray], float]
    per_game: Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray]] | None = None
    ci: str = "normal"  # normal | wilson | quantile | bootstrap
    q: float = 0.5
    group: str = "game"
    all_games: bool = False  # computed over every game (truncated included)
    compare: bool = True
    counted: Callable[[dict[str, Any]], np.ndarray] | None = None  # the games it is computed over


def _mean_stat(
    pg: Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray]],
) -> Callable[[dict[str, Any], np.ndarray], float]:
    def stat(d: dict[str, Any], w: np.ndarray) -> float:
        cache = d.setdefault("_cache", {})  # per-game values, computed once per run
        if pg not in cache:
            v, m = pg(d)
            cache[pg] = (np.where(m, v, 0.0), m.astype(np.float64))
        v, m = cache[pg]
        tot = float((w * m).sum())
        return float((w * v).sum()) / tot if tot > 0 else math.nan

    return stat


def _finished(d: dict[str, Any]) -> np.ndarray:
    return ~d["truncated"]


def _pg(
    name: str,
    cond: Callable[[dict[str, Any]], np.ndarray] | None = None,
    f: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray]]:
    def pg(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        v = d[name] if f is None else f(d[name])
        m = _finished(d) if cond is None else cond(d)
        return np.asarray(v, dtype=np.float64), m

    return pg


def _single(d: dict[str, Any]) -> np.ndarray:
    return _finished(d) & (d["nwin"] == 1)


def _balance(d: dict[str, Any], w: np.ndarray) -> float:
    w = w * _finished(d)
    tot = w.sum()
    if tot == 0:
        return math.nan
    s = (w[:, None] * d["shares"]).sum(axis=0) / tot
    return float(1.0 - (s.max() - s.min()))


def _sd(d: dict[str, Any], w: np.ndarray) -> float:
    w = w * _finished(d)
    tot = w.sum()
    if tot < 2:
        return math.nan
    x = d["length"]
    m = float((w * x).sum()) / tot
    return float(math.sqrt(max(0.0, float((w * (x - m) ** 2).sum()) / (tot - 1))))


def _quant(q: float) -> Callable[[dict[str, Any], np.ndarray], float]:
    def stat(d: dict[str, Any], w: np.ndarray) -> float:
        x = np.repeat(d["length"], (w * _finished(d)).astype(np.int64))
        return float(np.quantile(x, q)) if len(x) else math.nan

    return stat


def _seat_pg(s: int) -> Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray]]:
    def pg(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        return d["shares"][:, s], _finished(d)

    return pg


def _fpa_pg(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The first mover's win share minus 1/n: the seat that moved first in each game, whoever
    the rules let start (a rule set that only changes who starts is the same game)."""
    first = d["first"]
    share = d["shares"][np.arange(d["G"]), np.maximum(first, 0)]
    return share - 1.0 / d["n"], _finished(d) & (first >= 0)


def base_metrics(n: int) -> list[MetricDef]:
    """The metrics of every game of ``n`` seats: its length, its results, its tension, its
    decisions."""
    return _length_metrics() + _result_metrics(n) + _tension_metrics() + _decision_metrics()


def _counted(d: dict[str, Any]) -> np.ndarray:
    """Finished games whose decisions were counted (and that had at least one)."""
    dec = d["decisions"]
    return _finished(d) & ~np.isnan(dec) & (np.nan_to_num(dec) > 0)


def _ratio(num: str) -> Callable[[dict[str, Any], np.ndarray], float]:
    """``num`` summed over the counted games / their decisions (pooled over decisions)."""

    def stat(d: dict[str, Any], w: np.ndarray) -> float:
        m = _counted(d)
        den = float((w * np.where(m, d["decisions"], 0.0)).sum())
        top = float((w * np.where(m, d[num], 0.0)).sum())
        return top / den if den > 0 else math.nan

    return stat


def _decision_metrics() -> list[MetricDef]:
    """How much choosing there is: decisions per game, forced ones, real choices per decision.

    A decision is a player's (chance outcomes are not); its real choices are its distinct legal
    actions. Ratios are pooled over the decisions of the counted games (a bootstrap over games
    gives their intervals)."""
    return [
        MetricDef(
            "decisions_mean",
            Msg("decisions per game"),
            "num",
            "player decisions in a finished game (every seat's; chance outcomes are not "
            "decisions); mean",
            _mean_stat(_pg("decisions", _counted)),
            _pg("decisions", _counted),
            group="decisions",
        ),
        MetricDef(
            "forced_share",
            Msg("forced decisions"),
            "pct",
            "share of the player decisions with only one legal action (pooled over the "
            "decisions of the finished games)",
            _ratio("forced"),
            ci="bootstrap",
            group="decisions",
            counted=_counted,
        ),
        MetricDef(
            "choices_mean",
            Msg("real choices per decision"),
            "num",
            "distinct legal actions per player decision, mean (pooled over the decisions of "
            "the finished games); 1 = every decision forced",
            _ratio("choices"),
            ci="bootstrap",
            group="decisions",
            counted=_counted,
        ),
    ]


def _length_metrics() -> list[MetricDef]:
    """How long games last (finished games) and how many the turn limit stops."""
    return [
        MetricDef(
            "length_mean",
            Msg("game length (turns), mean"),
            "num",
            "turns played until the game ended (finished games); mean",
            _mean_stat(_pg("length")),
            _pg("length"),
        ),
        MetricDef(
            "length_sd",
            Msg("game length, standard deviation"),
            "num",
            "spread of the length of finished games (standard deviation)",
            _sd,
            ci="bootstrap",
        ),
        MetricDef(
            "length_p10",
            Msg("game length, 10th percentile"),
            "num",
            "10% of finished games are this short or shorter",
            _quant(0.1),
            ci="quantile",
            q=0.1,
            compare=False,
        ),
        MetricDef(
            "length_p50",
            Msg("game length, median"),
            "num",
            "half the finished games are this short or shorter",
            _quant(0.5),
            ci="quantile",
            q=0.5,
            compare=False,
        ),
        MetricDef(
            "length_p90",
            Msg("game length, 90th percentile"),
            "num",
            "10% of finished games are longer than this",
            _quant(0.9),
            ci="quantile",
            q=0.9,
            compare=False,
        ),
        MetricDef(
            "truncated",
            Msg("truncated games"),
            "pct",
            "share of games stopped by the turn limit before they ended (no result)",
            _mean_stat(
                _pg("truncated", lambda d: np.ones(d["G"], bool), lambda x: x.astype(float))
            ),
            _pg("truncated", lambda d: np.ones(d["G"], bool), lambda x: x.astype(float)),
            ci="wilson",
            all_games=True,
        ),
    ]


def _result_metrics(n: int) -> list[MetricDef]:
    """Who wins: every seat's win share, the first-player advantage, the balance, the ties."""
    ms: list[MetricDef] = []
    for s in range(n):
        ms.append(
            MetricDef(
                f"win_seat{s}",
                Msg("win share of seat {s}", s=s),
                "pct",
                f"seat {s}'s average win share over the finished games (1/k for each of k "
                "tied winners)",
                _mean_stat(_seat_pg(s)),
                _seat_pg(s),
                group="seat",
            )
        )
    ms += [
        MetricDef(
            "first_player_advantage",
            Msg("first-player advantage"),
            "pp",
            "the win share of the seat that moved first (seat 0, or the seat the rules let "
            "start) minus the fair share 1/n (positive: moving first helps)",
            _mean_stat(_fpa_pg),
            _fpa_pg,
            group="seat",
        ),
        MetricDef(
            "balance",
            Msg("balance"),
            "pct",
            "1 - (largest seat win share - smallest seat win share); 100% = every seat wins as often",
            _balance,
            ci="bootstrap",
            group="seat",
        ),
        MetricDef(
            "tie_rate",
            Msg("shared wins (ties)"),
            "pct",
            "share of finished games won by two or more seats together",
            _mean_stat(_pg("nwin", None, lambda x: (x > 1).astype(float))),
            _pg("nwin", None, lambda x: (x > 1).astype(float)),
            ci="wilson",
        ),
    ]
    return ms


def _tension_metrics() -> list[MetricDef]:
    """How the lead moves during a game and how close it ends."""
    return [
        MetricDef(
            "lead_changes",
            Msg("lead changes per game"),
            "num",
            "times the strict leader (after each turn) changed during a finished game",
            _mean_stat(_pg("lead_changes")),
            _pg("lead_changes"),
            group="tension",
        ),
        MetricDef(
            "drama_rate",
            Msg("drama: winner came from behind"),
            "pct",
            "share of games (one winner) in which the winner trailed the leader after some turn",
            _mean_stat(_pg("winner_trailed", _single)),
            _pg("winner_trailed", _single),
            ci="wilson",
            group="tension",
        ),
        MetricDef(
            "drama_depth",
            Msg("drama: winner's deepest deficit"),
            "num",
            "the largest gap (points) between the leader and the eventual winner, averaged over games with one winner",
            _mean_stat(_pg("winner_deficit", _single)),
            _pg("winner_deficit", _single),
            group="tension",
        ),
        MetricDef(
            "decisiveness",
            Msg("decisiveness: lead taken for good at"),
            "pct",
            "the point of the game (share of its turns) after which the winner led to the end; "
            "low = decided early",
            _mean_stat(lambda d: (d["decisive_turn"] / np.maximum(d["length"], 1), _single(d))),
            lambda d: (d["decisive_turn"] / np.maximum(d["length"], 1), _single(d)),
            group="tension",
        ),
        MetricDef(
            "margin",
            Msg("winning margin (points)"),
            "num",
            "the winner's score minus the runner-up's, finished games",
            _mean_stat(_pg("margin")),
            _pg("margin"),
            group="tension",
        ),
    ]


def share_label(group: str, name: str) -> str:
    """The label of a breed's or a bot's win share ("win share of bot greedy")."""
    if group == "breed":
        return Msg("win share of breed {name}", name=name)
    return Msg("win share of bot {name}", name=name)


def _group_share_defs(d: dict[str, Any], col: str, label: str) -> list[MetricDef]:
    """Win share by breed / by bot: the mean share of the seats that had that breed / bot."""
    if d.get(col) is None or d["G"] == 0:
        return []
    names = sorted({x for row in d[col] for x in row})
    if col == "bots" and len(names) < 2:
        return []
    out = []
    for name in names:

        def pg(dd: dict[str, Any], name: str = name) -> tuple[np.ndarray, np.ndarray]:
            has = dd[col] == name
            cnt = has.sum(axis=1)
            v = np.where(cnt > 0, (dd["shares"] * has).sum(axis=1) / np.maximum(cnt, 1), 0.0)
            return v, _finished(dd) & (cnt > 0)

        out.append(
            MetricDef(
                f"win_{col[:-1]}_{name}",
                share_label(label, name),
                "pct",
                f"average win share of the seats played by {label} {name}",
                _mean_stat(pg),
                pg,
                group=col,
            )
        )
    if col == "bots":
        strong = [x for x in names if x != "random"]
        if "random" in names and len(strong) == 1:
            s = strong[0]

            def gap(dd: dict[str, Any], s: str = s) -> tuple[np.ndarray, np.ndarray]:
                has = dd["bots"] == s
                cnt = has.sum(axis=1)
                v = (dd["shares"] * has).sum(axis=1) / np.maximum(cnt, 1) - 1.0 / dd["n"]
                return v, _finished(dd) & (cnt > 0) & (cnt < dd["n"])

            out.append(
                MetricDef(
                    "skill_gap",
                    Msg("skill gap ({bot} vs random)", bot=s),
                    "pp",
                    f"{s}'s win share against random bots minus the fair share 1/n "
                    "(0: skill does not matter; the game is all luck)",
                    _mean_stat(gap),
                    gap,
                    group="bots",
                )
            )
    return out


def _uncertainty_defs(d: dict[str, Any]) -> list[MetricDef]:
    if "uncertainty" not in d:
        return []
    ok = lambda dd: _finished(dd) & ~np.isnan(dd["uncertainty"])  # noqa: E731
    out = [
        MetricDef(
            "uncertainty",
            Msg("outcome uncertainty (exact), mean over turns"),
            "pct",
            "normalised entropy of the seats' exact win shares (solver) at each turn start, "
            "averaged over the game: 100% = a coin flip all along, 0% = decided from the start",
            _mean_stat(_pg("uncertainty", ok)),
            _pg("uncertainty", ok),
            group="tension",
        )
    ]
    for b, name in ((4, "uncertainty_mid"), (9, "uncertainty_end")):

        def pg(dd: dict[str, Any], b: int = b) -> tuple[np.ndarray, np.ndarray]:
            v = dd["uncertainty_curve"][:, b]
            return np.nan_to_num(v), _finished(dd) & ~np.isnan(v)

        where = "the middle (40-50%)" if b == 4 else "the last tenth"
        out.append(
            MetricDef(
                name,
                Msg("outcome uncertainty in the middle (40-50%) of the game")
                if b == 4
                else Msg("outcome uncertainty in the last tenth of the game"),
                "pct",
                f"the same entropy, averaged over the turns of {where} of each game",
                _mean_stat(pg),
                pg,
                group="tension",
            )
        )
    return out


def _ending_defs(d: dict[str, Any]) -> list[MetricDef]:
    """The share of games that ended each way (every game with a reason counted: the turn limit
    is one way; rows of an older file resumed have none),
    one metric per reason ``d["end_reasons"]`` names (a comparison gives both sides every
    reason either side has)."""
    if "ended_by" not in d:
        return []
    out = []
    for reason in d.get("end_reasons", []):

        def pg(dd: dict[str, Any], r: str = reason) -> tuple[np.ndarray, np.ndarray]:
            return (dd["ended_by"] == r).astype(np.float64), dd["ended_by"] != None  # noqa: E711

        out.append(
            MetricDef(
                f"ended_{reason}",
                ending_label(reason),
                "pct",
                f"share of games that ended because {ending_words(reason)}",
                _mean_stat(pg),
                pg,
                ci="wilson",
                group="endings",
                all_games=True,
            )
        )
    return out


def ended_by(d: dict[str, Any]) -> dict[str, float]:
    """``{reason: share of games}`` (every game; {} for a file written without end reasons)."""
    from sheepfold.lab.endings import shares

    return shares(d["ended_by"]) if "ended_by" in d else {}


def metric_defs(d: dict[str, Any]) -> list[MetricDef]:
    return (
        base_metrics(d["n"])
        + _ending_defs(d)
        + _uncertainty_defs(d)
        + _group_share_defs(d, "breeds", "breed")
        + _group_share_defs(d, "bots", "bot")
    )


def evaluate(d: dict[str, Any], seed: int = 0) -> list[Value]:
    """Every metric of a run with its 95% interval."""
    G = d["G"]
    ones = np.ones(G)
    fin = int(_finished(d).sum())
    defs = metric_defs(d)
    boot = [
        m for m in defs if m.ci == "bootstrap" or (m.per_game is None and m.ci not in ("quantile",))
    ]
    reps: dict[str, list[float]] = {m.key: [] for m in boot}
    if boot and G > 1:
        for w in bootstrap_weights(G, BOOTSTRAP, np.random.default_rng(seed)):
            for m in boot:
                reps[m.key].append(m.stat(d, w))
    out = []
    for m in defs:
        est = m.stat(d, ones)
        lo = hi = math.nan
        count = G if m.all_games else fin
        if m.counted is not None:
            count = int(m.counted(d).sum())
        if m.key in reps:
            vals = np.array(reps[m.key])
            vals = vals[~np.isnan(vals)]
            if len(vals):
                lo, hi = (float(x) for x in np.quantile(vals, [0.025, 0.975]))
        elif m.per_game is not None:
            v, mask = m.per_game(d)
            x = v[mask]
            count = len(x)
            if m.ci == "wilson":
                lo, hi = wilson(float(x.sum()), len(x))
            else:
                _, lo, hi = mean_ci(x)
                if m.kind == "pct" and len(x) and lo == hi and x.min() >= 0 and x.max() <= 1:
                    # every game alike (a share of 0% or 100%): the normal interval is empty
                    lo, hi = wilson(float(x.sum()), len(x))
        elif m.ci == "quantile":
            x = d["length"][_finished(d)]
            _, lo, hi = quantile_ci(x, m.q)
        out.append(Value(m.key, m.label, est, lo, hi, m.kind, count, m.definition, m.group))
    return out


def bootstrap_weights(G: int, B: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """``B`` bootstrap replicates of ``G`` games, as draw counts per game (one at a time)."""
    for _ in range(B):
        yield np.bincount(rng.integers(0, G, G), minlength=G).astype(np.float64)
