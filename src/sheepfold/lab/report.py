"""Plots (PNG, matplotlib's Agg backend) and self-contained HTML reports (images inlined).

One report per run (:func:`run_report`) or per comparison (:func:`compare_report`); several
runs side by side (:func:`variants_plot`) for findings like "what each printed variant does".
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sheepfold.bots.levels import level_words
from sheepfold.core.registry import find_game, game_spec
from sheepfold.core.words import Msg, Number, chained, semicolon
from sheepfold.lab.endings import shares_text
from sheepfold.lab.metrics import (
    Z95,
    Value,
    bots_text,
    ended_by,
    fmt,
    fmt_ci,
    fmt_diff,
    game_arrays,
    truncation_note,
)

#: how a plot says its words: ``str`` (English), or a reader's language (lab/card.py)
Say = Callable[[str], str]

COLOURS = ("#3b6ea8", "#d9822b", "#4a9a5b", "#b8475a", "#7d5ba6", "#8c6d3f")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")


def colour(k: int) -> str:
    """The colour of the ``k``-th rule set of a plot: the six house colours, then hues a golden
    ratio apart (never the same twice, however many rule sets)."""
    if k < len(COLOURS):
        return COLOURS[k]
    import colorsys

    r, g, b = colorsys.hsv_to_rgb((k * 0.6180339887) % 1.0, 0.7, 0.45 + 0.3 * (k % 2))
    return f"#{round(255 * r):02x}{round(255 * g):02x}{round(255 * b):02x}"


def marker(k: int) -> str:
    """The marker of the ``k``-th rule set (with :func:`colour`, a distinct pair for each)."""
    return MARKERS[k % len(MARKERS)]


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return buf.getvalue()


def _finished_lengths(d: dict[str, Any]) -> np.ndarray:
    return d["length"][~d["truncated"]]


def describe(runs: Sequence[tuple[str, dict[str, Any]]], width: int = 90, say: Say = str) -> str:
    """What the runs played, for a plot's title: the game, the rule sets, the players, the bots
    and the number of games (read from the rows themselves), each part said by ``say`` (a
    reader's language: lab/card.py); lines broken between the parts."""
    d0 = runs[0][1]
    counts = sorted({d["G"] for _, d in runs})
    n = Number(counts[0], grouped=True)
    games = Msg("{n} games each", n=n) if len(runs) > 1 else Msg("{n} games", n=n)
    if len(counts) > 1:
        each = chained([Number(d["G"], grouped=True) for _, d in runs], _slash)
        games = Msg("{n} games", n=each)
    bots = chained(
        list(dict.fromkeys(bots_text(d, level_words) for _, d in runs)), semicolon
    )  # each bot as the lobby names its level ("Greedy"), in the reader's language
    names = chained([name for name, _ in runs], lambda a, b: Msg("{a} vs {b}", a=a, b=b))
    parts = [
        say(Msg("{game}: {runs}", game=_title(d0["game"]), runs=names)),
        say(Msg("{n} players", n=d0["n"])),
        say(Msg("bots {bots}", bots=bots)),
        say(games),
    ]
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) > width:
            lines.append(part)
        else:
            lines[-1] += " · " + part
    return "\n".join(lines)


def _title(game: str) -> str:
    """A game's title ("Shave a Sheep"), its name where it is not a game of the registry."""
    spec = find_game(game)
    return game if spec is None else spec.title


def _slash(a: str, b: str) -> str:
    return Msg("{a} / {b}", a=a, b=b)


def limit_notes(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """One line per run that has games cut by the turn limit (they are in no plot)."""
    out: list[str] = []
    for name, d in runs:
        cut = int(d["truncated"].sum())
        if cut:
            limit = d.get("max_turns")
            where = (
                Msg("the {n}-turn limit", n=Number(limit, grouped=True))
                if limit
                else Msg("the turn limit")
            )
            out.append(
                Msg(
                    "{name}: {share} of games hit {where} (under these rules a game may never "
                    "end); they have no winner and are left out here",
                    name=name,
                    share=fmt(cut / d["G"], "pct"),
                    where=where,
                )
            )
    return out


def _decorate(
    ax: Any,
    headline: str,
    runs: Sequence[tuple[str, dict[str, Any]]],
    notes: Sequence[str] = (),
    say: Say = str,
) -> None:
    """The title (what the plot shows, then what was played) and, under the axes, the
    ``notes`` and the notes on games the turn limit cut, each said by ``say``."""
    ax.set_title(f"{say(headline)}\n{describe(runs, say=say)}", fontsize=9.5)
    notes = [say(note) for note in [*notes, *limit_notes(runs)]]
    if notes:
        _footnote(ax, notes)


def _footnote(ax: Any, lines: Sequence[str]) -> None:
    text = "\n".join(textwrap.fill(x, 110) for x in lines)
    ax.annotate(
        text,
        xy=(0, 0),
        xycoords="axes fraction",
        xytext=(0, -42),
        textcoords="offset points",
        va="top",
        fontsize=7.5,
        color="#8a3b12",
    )


def _length_bins(xs: Sequence[np.ndarray]) -> np.ndarray:
    """Bin edges on half-integers, every bin the same whole number of turns (one turn while the
    range is under 250 turns): each integer length falls in exactly one bin, no bin holds more
    integers than another (no sawtooth made by the bins). Up to the 99.5th percentile."""
    xs = [x for x in xs if len(x)]
    if not xs:
        return np.array([-0.5, 0.5])
    lo = int(min(x.min() for x in xs))
    hi = int(max(math.ceil(np.quantile(x, 0.995)) for x in xs))
    width = max(1, math.ceil((hi - lo + 1) / 250))
    count = math.ceil((hi - lo + 1) / width)
    return lo - 0.5 + width * np.arange(count + 1)


def length_hist_figure(runs: Sequence[tuple[str, dict[str, Any]]], say: Say = str) -> Any:
    """Game length histograms (finished games), one outline per run, integer-aligned bins; its
    words said by ``say`` (a lab card's reader's language: lab/card.py)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    xs = [_finished_lengths(d) for _, d in runs]
    edges = _length_bins(xs)
    width = int(round(edges[1] - edges[0]))
    off = []
    for k, ((name, _), x) in enumerate(zip(runs, xs, strict=True)):
        if not len(x):
            continue
        c = colour(k)
        label = Msg(
            "{name}: mean {mean}, median {median} turns",
            name=name,
            mean=Number(x.mean(), 1),
            median=Number(np.median(x)),
        )
        w = np.full(len(x), 100 / len(x) / width)
        ax.hist(x, bins=edges, weights=w, histtype="step", linewidth=1.6, color=c, label=say(label))
        ax.axvline(x.mean(), color=c, linestyle=":", linewidth=1.2)
        if x.max() > edges[-1]:
            off.append(
                Msg(
                    "{name} {n} of its {total} games",
                    name=name,
                    n=Number(np.sum(x > edges[-1]), grouped=True),
                    total=Number(len(x), grouped=True),
                )
            )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # lengths are whole turns
    if edges[-1] - edges[0] < 10:
        ax.set_xlim(edges[0] - 2, edges[-1] + 2)
    per = Msg("one bar per length") if width == 1 else Msg("bars of {n} turns", n=width)
    ax.set_xlabel(say(Msg("game length (turns; {per}; dotted: the mean)", per=per)))
    share = Msg("share of games (%)") if width == 1 else Msg("share of games per turn (%)")
    ax.set_ylabel(say(share))
    ax.legend(frameon=False, fontsize=8)
    longer = Msg(
        "off the chart, longer than {n} turns: {runs}",
        n=Number(edges[-1]),
        runs=chained(off, semicolon),
    )
    _decorate(ax, Msg("How long games last (finished games)"), runs, [longer] if off else [], say)
    return fig


def length_hist(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    return _png(length_hist_figure(runs))


#: the seats' places in the order of play, as the seat chart says them
ORDER = ("first", "second", "third", "fourth")


def _play_order(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The finished games' win shares by order of play (column j: the seat that moved
    (j+1)-th, from the seat that made the game's first move on), and the seat of each place."""
    n, fin = d["n"], ~d["truncated"]
    first = d.get("first")
    first = np.zeros(int(fin.sum()), np.int64) if first is None else np.maximum(first[fin], 0)
    seats = (first[:, None] + np.arange(n)) % n
    return np.take_along_axis(d["shares"][fin], seats, axis=1), seats


def _order_labels(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each place in the order of play (``moves first``), with its seat when every game of
    every run put the same seat there (``(seat 1)`` under ``moves first``)."""
    n = runs[0][1]["n"]
    at = [set(np.unique(_play_order(d)[1][:, j]).tolist()) for _, d in runs for j in range(n)]
    labels = []
    for j in range(n):
        seats = set().union(*at[j::n])
        where = f"\n(seat {seats.pop()})" if len(seats) == 1 else ""
        labels.append(f"moves {ORDER[j]}{where}")
    return labels


def _seat_edges(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Every place in the order of play's win share minus the fair share 1/n, and its 95%
    half-width (finished games, normal approximation as in the metrics)."""
    n = d["n"]
    sh = _play_order(d)[0]
    if len(sh) == 0:
        return np.full(n, np.nan), np.full(n, np.nan)
    m = sh.mean(axis=0) - 1.0 / n
    se = sh.std(axis=0, ddof=1) / np.sqrt(len(sh)) if len(sh) > 1 else np.zeros(n)
    return m, Z95 * se


def seat_shares_figure(runs: Sequence[tuple[str, dict[str, Any]]]) -> Any:
    """Each seat's edge over the fair share 1/n in percentage points, with 95% error bars;
    the seats in the order of play (the seat that moved first on the left, whichever it is)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    n = runs[0][1]["n"]
    width = 0.8 / len(runs)
    edges = [100 * np.asarray(_seat_edges(d)) for _, d in runs]
    reach = max([0.5] + [float(np.nanmax(np.abs(m) + h)) for m, h in edges if np.any(m == m)])
    digits = 2 if reach < 5 else 1  # a 0.04-point edge does not read "0.0 pp"
    for k, ((name, _), (m, h)) in enumerate(zip(runs, edges, strict=True)):
        xs = np.arange(n) + (k - (len(runs) - 1) / 2) * width
        c = colour(k)
        ax.bar(xs, m, width=width * 0.9, yerr=h, capsize=3, color=c, alpha=0.85, label=name)
        for x, v, e in zip(xs, m, h, strict=True):
            if v == v:
                end = v + (e if v >= 0 else -e)
                ax.annotate(
                    fmt_diff(v / 100, "pp", digits),
                    (x, end),
                    xytext=(0, 3 if v >= 0 else -3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom" if v >= 0 else "top",
                    fontsize=7.5,
                )
    ax.axhline(
        0,
        color="gray",
        linestyle="--",
        linewidth=1,
        label=f"fair share 1/{n} = {fmt(1 / n, 'pct')}",
    )
    ax.set_ylim(-1.35 * reach, 1.35 * reach)
    ax.set_xticks(range(n), _order_labels(runs))
    ax.set_ylabel("win share − fair share\n(percentage points, ± 95% CI)")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    _decorate(
        ax,
        "Who wins, in the order of play: each seat's edge over the fair share (finished games)",
        runs,
    )
    return fig


def seat_shares(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    return _png(seat_shares_figure(runs))


def lead_changes_figure(runs: Sequence[tuple[str, dict[str, Any]]]) -> Any:
    """Distribution of lead changes per finished game (the last bar: that many or more)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    top = 0
    for _, d in runs:
        lc = d["lead_changes"][~d["truncated"]]
        if len(lc):
            top = max(top, int(np.quantile(lc, 0.995)))
    width = 0.8 / len(runs)
    for k, (name, d) in enumerate(runs):
        lc = d["lead_changes"][~d["truncated"]].astype(int)
        counts = np.bincount(np.minimum(lc, top), minlength=top + 1) / max(len(lc), 1)
        xs = np.arange(top + 1) + (k - (len(runs) - 1) / 2) * width
        ax.bar(
            xs,
            100 * counts,
            width=width * 0.95,
            color=colour(k),
            label=f"{name}: mean {lc.mean():.2f}" if len(lc) else name,
        )
    ticks = [str(t) for t in range(top)] + [f"{top} or more" if top else "0"]
    ax.set_xticks(range(top + 1), ticks)
    ax.set_xlabel("lead changes in a game (the strict leader after a turn changed)")
    ax.set_ylabel("share of games (%)")
    ax.legend(frameon=False, fontsize=8)
    _decorate(ax, "Tension: how often the lead changes hands (finished games)", runs)
    return fig


def lead_changes(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    return _png(lead_changes_figure(runs))


def _curve(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x (% of the game), mean outcome uncertainty and its 95% half-width, by tenth."""
    c = d["uncertainty_curve"][~d["truncated"]]
    m = np.nanmean(c, axis=0) if len(c) else np.full(c.shape[1], np.nan)
    cnt = np.sum(~np.isnan(c), axis=0)
    se = np.nanstd(c, axis=0, ddof=1) / np.sqrt(np.maximum(cnt, 1)) if len(c) > 1 else 0 * m
    xs = (np.arange(c.shape[1]) + 0.5) * 100 / c.shape[1]
    return xs, m, Z95 * se


def uncertainty_curve_figure(runs: Sequence[tuple[str, dict[str, Any]]]) -> Any:
    """Mean exact outcome uncertainty by tenth of the game (95% CI band), one line per run;
    None when no run has it."""
    runs = [(nm, d) for nm, d in runs if "uncertainty_curve" in d]
    if not runs:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    for k, (name, d) in enumerate(runs):
        xs, m, h = _curve(d)
        c = colour(k)
        ax.plot(xs, 100 * m, "-o", color=c, label=name, markersize=3)
        ax.fill_between(xs, 100 * (m - h), 100 * (m + h), color=c, alpha=0.2)
    ax.set_xlim(0, 100)
    ax.set_xlabel("progress through the game (% of its turns; a point per tenth)")
    ax.set_ylabel("outcome uncertainty (%)\n100 = even chances, 0 = decided")
    ax.set_ylim(0, 102)
    ax.legend(frameon=False, fontsize=8)
    _decorate(ax, "How open the game stays: exact win chances of these bots (solver)", runs)
    return fig


def uncertainty_curve(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes | None:
    fig = uncertainty_curve_figure(runs)
    return None if fig is None else _png(fig)


def variants_figure(
    rows: Sequence[dict[str, Any]], curves: Sequence[tuple[str, dict[str, Any]]] = ()
) -> Any:
    """Mean length and seat 0's win share (95% CIs; fair share 1/n; the exact share as a cross
    where the solver gave it) for several rule sets, and the exact outcome uncertainty through
    the game when given."""
    plt = _plt()
    panels = 3 if curves else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.8 * panels, 0.6 * len(rows) + 2.8))
    ys = np.arange(len(rows))[::-1]
    cols = [colour(k) for k in range(len(rows))]
    marks = [marker(k) for k in range(len(rows))]
    _variants_lengths(axes[0], rows, ys, cols)
    _variants_seat0(axes[1], rows, ys, cols, marks)
    axes[0].set_title("How long games last", fontsize=9.5)
    axes[1].set_title("Does moving first help?", fontsize=9.5)
    if curves:
        a3 = axes[2]
        style = {r["name"]: k for k, r in enumerate(rows)}
        for name, d in curves:
            xs, m, h = _curve(d)
            k = style.get(name, 0)
            c = cols[k] if name in style else "black"
            a3.plot(xs, 100 * m, "-", marker=marks[k], color=c, label=name, markersize=4)
            a3.fill_between(xs, 100 * (m - h), 100 * (m + h), color=c, alpha=0.2)
        a3.set_title("How open the game stays (exact win chances)", fontsize=9.5)
        a3.set_xlim(0, 100)
        a3.set_ylim(0, 102)
        a3.set_xlabel("progress through the game (% of turns)")
        a3.set_ylabel("outcome uncertainty (%), exact")
        a3.legend(frameon=False, fontsize=7)
    fig.suptitle(textwrap.fill(rows[0].get("title", "Rule sets compared"), 110), fontsize=10.5)
    notes = [
        f"{r['name']}: {fmt(r['truncated'], 'pct')} of games hit "
        + (f"the {r['max_turns']:,}-turn limit" if r.get("max_turns") else "the turn limit")
        + " (under these rules a game may never end); lengths and shares are of the finished games"
        for r in rows
        if r.get("truncated")
    ]
    notes += [
        f"{r['name']}: no exact value ({r['exact_skipped']})"
        for r in rows
        if r.get("exact_skipped")
    ]
    fig.tight_layout()
    if notes:
        text = "\n".join(textwrap.fill(x, 160) for x in notes)
        fig.text(0.01, 0.0, text, va="top", fontsize=8, color="#8a3b12")
    return fig


def _variants_lengths(
    ax: Any, rows: Sequence[dict[str, Any]], ys: np.ndarray, cols: list[str]
) -> None:
    L = np.array([[r["length"], r["length_lo"], r["length_hi"]] for r in rows], dtype=float)
    ax.barh(ys, L[:, 0], xerr=[L[:, 0] - L[:, 1], L[:, 2] - L[:, 0]], color=cols, capsize=3)
    for y, v in zip(ys, L[:, 0], strict=True):
        ax.annotate(
            fmt(v, "num"),
            (v, y),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_xlim(0, 1.18 * np.nanmax(L[:, 2]))
    ax.set_yticks(ys, [r["name"] for r in rows])
    ax.set_xlabel("mean game length (turns) ± 95% CI")


def _variants_seat0(
    ax: Any, rows: Sequence[dict[str, Any]], ys: np.ndarray, cols: list[str], marks: list[str]
) -> None:
    n = int(rows[0].get("players", 2))
    S = 100 * np.array([[r["seat0"], r["seat0_lo"], r["seat0_hi"]] for r in rows], dtype=float)
    for y, c, mk, (s_, lo, hi) in zip(ys, cols, marks, S, strict=True):
        ax.errorbar(
            [s_], [y], xerr=[[s_ - lo], [hi - s_]], fmt=mk, color=c, capsize=4, markersize=7
        )
    known = [
        (100 * float(r["exact_seat0"]), y)
        for r, y in zip(rows, ys, strict=True)
        if r.get("exact_seat0") is not None
    ]
    if known:
        ex, ey = zip(*known, strict=True)
        ax.plot(ex, ey, "x", color="black", markersize=9, label="exact (solver)")
    fair = f"fair share 1/{n} = {fmt(1 / n, 'pct')}"
    ax.axvline(100 / n, color="gray", linestyle="--", linewidth=1, label=fair)
    ax.text(
        100 / n,
        ys.max() + 0.55,
        fair,
        ha="center",
        va="bottom",
        fontsize=8,
        color="#555",
        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1},
    )
    span = max(np.nanmax(np.abs(S - 100 / n)), 0.5) * 1.25
    ax.set_xlim(100 / n - span, 100 / n + span)
    ax.set_ylim(ys.min() - 0.6, ys.max() + 0.9)
    ax.set_yticks(ys, [""] * len(ys))
    exact = "; ×: exact (solver)" if known else ""
    ax.set_xlabel(f"seat 0's win share (%) ± 95% CI{exact}")


def variants_plot(
    rows: Sequence[dict[str, Any]], curves: Sequence[tuple[str, dict[str, Any]]] = ()
) -> bytes:
    return _png(variants_figure(rows, curves))


def sweep_figure(
    option: str, rows: Sequence[dict[str, Any]], base: str = "", target: float | None = None
) -> Any:
    """Every metric of a sweep against the swept value, each with its 95% interval (numbers on
    a numeric axis, whole-number ticks for a whole-number option; other values, such as
    true/false or words, as categories), with reference lines: no edge (0 pp), the fair share
    (1/n) and the ``target`` length."""
    plt = _plt()
    keys = [k for k, m in rows[0]["metrics"].items() if m["value"] is not None] if rows else []
    numeric = all(
        isinstance(r["value"], (int, float)) and not isinstance(r["value"], bool) for r in rows
    )
    xs = [r["value"] for r in rows] if numeric else list(range(len(rows)))
    ncols = 3
    nrows = max(1, math.ceil(len(keys) / ncols))
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(12, 2.6 * nrows + 0.6), squeeze=False, layout="constrained"
    )
    ints = numeric and all(isinstance(r["value"], int) for r in rows)
    seats = sum(1 for k in keys if k.startswith("win_seat"))
    for ax, key in zip(axes.flat, keys, strict=False):
        m = [r["metrics"][key] for r in rows]
        scale = 100.0 if m[0]["kind"] in ("pct", "pp") else 1.0
        ys = np.array([np.nan if v["value"] is None else v["value"] * scale for v in m])
        lo = np.array([np.nan if v["lo"] is None else v["lo"] * scale for v in m])
        hi = np.array([np.nan if v["hi"] is None else v["hi"] * scale for v in m])
        err = np.vstack([np.clip(ys - lo, 0, None), np.clip(hi - ys, 0, None)])
        ax.errorbar(xs, ys, yerr=np.nan_to_num(err), fmt="o-", ms=3, capsize=2, color=COLOURS[0])
        unit = " (%)" if m[0]["kind"] == "pct" else " (points)" if m[0]["kind"] == "pp" else ""
        ax.set_title(m[0]["label"] + unit, fontsize=9)
        ax.tick_params(labelsize=8)
        if not numeric:
            ax.set_xticks(xs, [str(r["value"]).lower() for r in rows])
        elif ints:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ref = _reference(key, m[0]["kind"], seats, target)
        if ref is not None:
            ax.axhline(ref[0], color="gray", linestyle="--", linewidth=1, label=ref[1])
            ax.legend(fontsize=7, frameon=False)
    for ax in list(axes.flat)[len(keys) :]:
        ax.axis("off")
    fig.suptitle(f"{base}: {option} swept (95% intervals)", fontsize=11)
    fig.supxlabel(option, fontsize=9)
    return fig


def _reference(key: str, kind: str, seats: int, target: float | None) -> tuple[float, str] | None:
    """The reference line of a sweep panel (value in the panel's units, label), if any."""
    if kind == "pp":
        return 0.0, "no edge"
    if key.startswith("win_seat") and seats:
        return 100.0 / seats, f"fair share 1/{seats}"
    if key == "length_mean" and target is not None:
        return float(target), f"target {target:g} turns"
    return None


def sweep_plot(
    option: str, rows: Sequence[dict[str, Any]], base: str = "", target: float | None = None
) -> bytes:
    return _png(sweep_figure(option, rows, base, target))


# -- HTML -------------------------------------------------------------------------------------
_CSS = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.5rem} h2{font-size:1.15rem;margin-top:2rem} table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;font-size:.9rem;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap} .def{color:#666;font-size:.8rem}
.sig{font-weight:600} img{max-width:100%} .verdict{background:#f3f6fa;padding:1rem;border-radius:.4rem}
code{background:#f4f4f4;padding:0 .2rem}
"""


def _img(png: bytes, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>{body}"
        "<p class=def>Made by <code>sheepfold lab</code>. Intervals are 95% confidence intervals; "
        "metric definitions: docs/lab.md.</p></body></html>\n"
    )


def _job_html(job: Any) -> str:
    rows: list[tuple[str, Any]] = [
        ("game", job.game),
        ("rules", f"{job.ruleset} {json.dumps(job.rules)}"),
        ("players", job.players),
        ("bots (per seat)", ", ".join(job.bots) + (" (rotated)" if job.rotate else "")),
    ]
    if game_spec(job.game).breeds:
        breeds = job.breeds if job.breeds is not None else job.seat_breeds(0)
        rows.append(
            (
                "breeds (per seat)",
                "every ordered choice in turn" if breeds == "mix" else ", ".join(breeds or ()),
            )
        )
    rows += [
        ("games", job.games),
        ("seeds", f"{job.seed} .. {job.seed + job.games - 1}"),
        ("engine", job.engine),
        ("exact uncertainty", "yes" if getattr(job, "exact", False) else "no"),
    ]
    if job.rules.get("max_turns"):
        rows.append(("turn limit", f"{job.rules['max_turns']:,} turns (then: no result)"))
    return (
        "<table>"
        + "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>" for k, v in rows
        )
        + "</table>"
    )


def _plots_html(runs: Sequence[tuple[str, dict[str, Any]]]) -> str:
    body = "<h2>Plots</h2>" + _img(length_hist(runs), "game length histogram")
    body += _img(seat_shares(runs), "each seat's edge over the fair share")
    body += _img(lead_changes(runs), "lead changes per game")
    u = uncertainty_curve(runs)
    if u is not None:
        body += _img(u, "outcome uncertainty through the game")
    return body


def _note_html(text: str | None) -> str:
    return f"<p class=verdict>{html.escape(text)}</p>" if text else ""


def run_report(job: Any, table: Any, values: list[Value], command: str = "") -> str:
    d = game_arrays(table)
    runs = [(job.ruleset, d)]
    body = _note_html(truncation_note(d)) + _note_html(shares_text(ended_by(d))) + _job_html(job)
    if command:
        body += f"<p>Command: <code>{html.escape(command)}</code></p>"
    body += (
        "<h2>Metrics</h2><table><tr><th>metric</th><th>value</th><th>95% CI</th><th>games</th></tr>"
    )
    for v in values:
        body += (
            f"<tr><td>{html.escape(v.label)}<div class=def>{html.escape(v.definition)}</div></td>"
            f"<td class=n>{fmt(v.value, v.kind)}</td><td class=n>{fmt_ci(v.lo, v.hi, v.kind)}</td>"
            f"<td class=n>{v.n}</td></tr>"
        )
    body += "</table>" + _plots_html(runs)
    return _page(f"sheepfold lab: {job.game}, {job.ruleset}", body)


def compare_report(
    job_a: Any,
    job_b: Any,
    ta: Any,
    tb: Any,
    diffs: list[Any],
    verdict: str,
    command: str = "",
    changes: Sequence[str] = (),
    paired: bool = True,
) -> str:
    """A comparison as one page: what differs in the rules (``changes``, one line per option),
    the verdict, both jobs, every metric (A, B and B − A, each with its 95% interval;
    differences of shares in percentage points) and the plots."""
    from sheepfold.lab.compare import cells, p_text, relative_text

    da, db = game_arrays(ta), game_arrays(tb)
    runs = [(f"A: {job_a.ruleset}", da), (f"B: {job_b.ruleset}", db)]
    body = ""
    if changes:
        body += "<h2>What differs from A to B</h2><ul>"
        body += "".join(f"<li>{html.escape(c)}</li>" for c in changes) + "</ul>"
    body += f"<div class=verdict>{html.escape(verdict)}</div>"
    if command:
        body += f"<p>Command: <code>{html.escape(command)}</code></p>"
    body += "<h2>A</h2>" + _job_html(job_a) + "<h2>B</h2>" + _job_html(job_b)
    body += (
        "<h2>Metric by metric ("
        + ("paired on the same seeds" if paired else "unpaired: A and B on independent seeds")
        + ")</h2>"
        "<p class=def>Each value with its 95% interval; B − A in percentage points (pp) for "
        "shares; relative: B / A − 1.</p><table><tr><th>metric</th>"
        "<th>A [95% CI]</th><th>B [95% CI]</th><th>B − A [95% CI]</th><th>relative</th>"
        "<th>p</th></tr>"
    )
    for x in diffs:
        cls = " class=sig" if x.significant else ""
        tds = "".join(f"<td class=n>{html.escape(c)}</td>" for c in cells(x, " "))
        body += (
            f"<tr{cls}><td>{html.escape(x.label)}<div class=def>{html.escape(x.definition)}</div></td>"
            f"{tds}<td class=n>{relative_text(x.rel)}</td><td class=n>{p_text(x.p)}</td></tr>"
        )
    body += "</table>" + _plots_html(runs)
    return _page(f"sheepfold lab: {job_a.ruleset} vs {job_b.ruleset} ({job_a.game})", body)


def write_plots(
    folder: str | Path, prefix: str, runs: Sequence[tuple[str, dict[str, Any]]]
) -> list[Path]:
    """The PNG plots of one or more runs into ``folder`` (prefix-length.png, -seats, -lead, -uncertainty)."""
    folder = Path(folder)
    out = [
        write_png(folder / f"{prefix}-length.png", length_hist(runs)),
        write_png(folder / f"{prefix}-seats.png", seat_shares(runs)),
        write_png(folder / f"{prefix}-lead.png", lead_changes(runs)),
    ]
    u = uncertainty_curve(runs)
    if u is not None:
        out.append(write_png(folder / f"{prefix}-uncertainty.png", u))
    return out


def write(path: str | Path, text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_png(path: str | Path, png: bytes) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return path
