"""Plots (PNG, matplotlib's Agg backend) and self-contained HTML reports (images inlined).

One report per run (:func:`run_report`) or per comparison (:func:`compare_report`); several
runs side by side (:func:`variants_plot`) for findings like "what each printed variant does".
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sheepfold.core.registry import game_spec
from sheepfold.lab.metrics import Value, fmt, game_arrays

COLOURS = ("#3b6ea8", "#d9822b", "#4a9a5b", "#b8475a", "#7d5ba6", "#8c6d3f")


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


def length_hist(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    """Game length histograms, one outline per run."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    hi = max(
        (np.quantile(_finished_lengths(d), 0.995) if len(_finished_lengths(d)) else 1)
        for _, d in runs
    )
    bins = np.arange(0, int(hi) + 2) if hi < 60 else np.linspace(0, hi, 60)
    for k, (name, d) in enumerate(runs):
        x = _finished_lengths(d)
        ax.hist(
            x,
            bins=bins,
            density=True,
            histtype="step",
            linewidth=1.8,
            color=COLOURS[k % 6],
            label=f"{name} (mean {x.mean():.1f})" if len(x) else name,
        )
    ax.set_xlabel("game length (turns)")
    ax.set_ylabel("share of games")
    ax.legend(frameon=False, fontsize=8)
    ax.set_title("How long games last")
    return _png(fig)


def seat_shares(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    """Win share by seat with 95% error bars, runs side by side."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    n = runs[0][1]["n"]
    width = 0.8 / len(runs)
    for k, (name, d) in enumerate(runs):
        fin = ~d["truncated"]
        sh = d["shares"][fin]
        m = sh.mean(axis=0) if len(sh) else np.zeros(n)
        se = sh.std(axis=0, ddof=1) / np.sqrt(max(len(sh), 1)) if len(sh) > 1 else np.zeros(n)
        xs = np.arange(n) + (k - (len(runs) - 1) / 2) * width
        ax.bar(
            xs,
            100 * m,
            width=width * 0.95,
            yerr=100 * 1.96 * se,
            capsize=3,
            color=COLOURS[k % 6],
            label=name,
        )
    ax.axhline(
        100 / n, color="gray", linestyle="--", linewidth=1, label=f"fair share {100 / n:.0f}%"
    )
    ax.set_xticks(range(n), [f"seat {s}" for s in range(n)])
    ax.set_ylabel("win share (%) ± 95% CI")
    ax.legend(frameon=False, fontsize=8)
    ax.set_title("Who wins: win share by seat")
    lo = min(100 / n - 10, ax.get_ylim()[0])
    ax.set_ylim(max(0, lo), None)
    return _png(fig)


def lead_changes(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    """Distribution of lead changes per game."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
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
            color=COLOURS[k % 6],
            label=f"{name} (mean {lc.mean():.2f})" if len(lc) else name,
        )
    ax.set_xlabel(f"lead changes in a game ({top} = {top} or more)")
    ax.set_ylabel("share of games (%)")
    ax.legend(frameon=False, fontsize=8)
    ax.set_title("Tension: how often the lead changes hands")
    return _png(fig)


def uncertainty_curve(runs: Sequence[tuple[str, dict[str, Any]]]) -> bytes | None:
    """Mean exact outcome uncertainty by tenth of the game (95% CI band), one line per run."""
    runs = [(nm, d) for nm, d in runs if "uncertainty_curve" in d]
    if not runs:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for k, (name, d) in enumerate(runs):
        c = d["uncertainty_curve"][~d["truncated"]]
        m = np.nanmean(c, axis=0)
        se = np.nanstd(c, axis=0, ddof=1) / np.sqrt(np.maximum(np.sum(~np.isnan(c), axis=0), 1))
        xs = (np.arange(c.shape[1]) + 0.5) * 100 / c.shape[1]
        ax.plot(xs, 100 * m, "-o", color=COLOURS[k % 6], label=name, markersize=3)
        ax.fill_between(
            xs, 100 * (m - 1.96 * se), 100 * (m + 1.96 * se), color=COLOURS[k % 6], alpha=0.2
        )
    ax.set_xlabel("progress through the game (% of its turns)")
    ax.set_ylabel("outcome uncertainty (%)")
    ax.set_ylim(0, 102)
    ax.legend(frameon=False, fontsize=8)
    ax.set_title("How open the game stays (exact win chances, solver)")
    return _png(fig)


def variants_plot(
    rows: Sequence[dict[str, Any]], curves: Sequence[tuple[str, dict[str, Any]]] = ()
) -> bytes:
    """Mean length and seat 0's win share (with 95% CIs; the exact share as a cross when known)
    for several rule sets, and the exact outcome uncertainty through the game when given."""
    plt = _plt()
    panels = 3 if curves else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.6 * panels, 3.8))
    a1, a2 = axes[0], axes[1]
    names = [r["name"] for r in rows]
    ys = np.arange(len(rows))[::-1]
    L = np.array([[r["length"], r["length_lo"], r["length_hi"]] for r in rows])
    S = 100 * np.array([[r["seat0"], r["seat0_lo"], r["seat0_hi"]] for r in rows])
    cols = [COLOURS[k % 6] for k in range(len(rows))]
    a1.barh(ys, L[:, 0], xerr=[L[:, 0] - L[:, 1], L[:, 2] - L[:, 0]], color=cols, capsize=3)
    a1.set_yticks(ys, names)
    a1.set_xlabel("mean game length (turns) ± 95% CI")
    for y, c, s_, lo, hi in zip(ys, cols, S[:, 0], S[:, 1], S[:, 2], strict=False):
        a2.errorbar(
            [s_], [y], xerr=[[s_ - lo], [hi - s_]], fmt="o", color=c, capsize=4, markersize=7
        )
    ex = [r.get("exact_seat0") for r in rows]
    if all(e is not None for e in ex):
        a2.plot(
            [100 * float(e) for e in ex if e is not None],
            ys,
            "x",
            color="black",
            markersize=9,
            label="exact (solver)",
        )
        a2.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.18))
    n = 2
    a2.axvline(100 / n, color="gray", linestyle="--", linewidth=1)
    a2.set_yticks(ys, [""] * len(ys))
    a2.set_xlabel("seat 0's win share (%) ± 95% CI")
    if curves:
        a3 = axes[2]
        for k, (name, d) in enumerate(curves):
            c = d["uncertainty_curve"][~d["truncated"]]
            xs = (np.arange(c.shape[1]) + 0.5) * 100 / c.shape[1]
            a3.plot(
                xs,
                100 * np.nanmean(c, axis=0),
                "-o",
                color=COLOURS[k % 6],
                label=name,
                markersize=3,
            )
        a3.set_ylim(0, 102)
        a3.set_xlabel("progress through the game (% of turns)")
        a3.set_ylabel("outcome uncertainty (%)")
        a3.legend(frameon=False, fontsize=7)
    fig.suptitle(rows[0].get("title", "Rule sets compared"))
    fig.tight_layout()
    return _png(fig)


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
    return (
        "<table>"
        + "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>" for k, v in rows
        )
        + "</table>"
    )


def run_report(job: Any, table: Any, values: list[Value], command: str = "") -> str:
    d = game_arrays(table)
    runs = [(job.ruleset, d)]
    body = _job_html(job)
    if command:
        body += f"<p>Command: <code>{html.escape(command)}</code></p>"
    body += (
        "<h2>Metrics</h2><table><tr><th>metric</th><th>value</th><th>95% CI</th><th>games</th></tr>"
    )
    for v in values:
        body += (
            f"<tr><td>{html.escape(v.label)}<div class=def>{html.escape(v.definition)}</div></td>"
            f"<td class=n>{fmt(v.value, v.kind)}</td><td class=n>{fmt(v.lo, v.kind)} – {fmt(v.hi, v.kind)}</td>"
            f"<td class=n>{v.n}</td></tr>"
        )
    body += "</table><h2>Plots</h2>"
    body += _img(length_hist(runs), "length histogram") + _img(
        seat_shares(runs), "win share by seat"
    )
    body += _img(lead_changes(runs), "lead changes")
    u = uncertainty_curve(runs)
    if u is not None:
        body += _img(u, "outcome uncertainty through the game")
    return _page(f"sheepfold lab: {job.game}, {job.ruleset}", body)


def compare_report(
    job_a: Any, job_b: Any, ta: Any, tb: Any, diffs: list[Any], verdict: str, command: str = ""
) -> str:
    da, db = game_arrays(ta), game_arrays(tb)
    runs = [(f"A: {job_a.ruleset}", da), (f"B: {job_b.ruleset}", db)]
    body = f"<div class=verdict>{html.escape(verdict)}</div>"
    if command:
        body += f"<p>Command: <code>{html.escape(command)}</code></p>"
    body += "<h2>A</h2>" + _job_html(job_a) + "<h2>B</h2>" + _job_html(job_b)
    body += (
        "<h2>Metric by metric (B − A, paired on the same seeds)</h2><table><tr><th>metric</th>"
        "<th>A</th><th>B</th><th>B − A</th><th>95% CI</th><th>p</th></tr>"
    )
    for x in diffs:
        cls = " class=sig" if x.significant else ""
        rel = f" ({100 * x.rel:+.1f}%)" if x.rel is not None else ""
        kind = "pct" if x.kind in ("pct", "pp") else "num"
        body += (
            f"<tr{cls}><td>{html.escape(x.label)}<div class=def>{html.escape(x.definition)}</div></td>"
            f"<td class=n>{fmt(x.a, kind)}</td><td class=n>{fmt(x.b, kind)}</td>"
            f"<td class=n>{_signed(x.diff, kind)}{rel}</td><td class=n>{_signed(x.lo, kind)} – {_signed(x.hi, kind)}</td>"
            f"<td class=n>{_p(x.p)}</td></tr>"
        )
    body += "</table><h2>Plots</h2>"
    body += _img(length_hist(runs), "length histograms") + _img(
        seat_shares(runs), "win share by seat"
    )
    body += _img(lead_changes(runs), "lead changes")
    u = uncertainty_curve(runs)
    if u is not None:
        body += _img(u, "outcome uncertainty through the game")
    return _page(f"sheepfold lab: {job_a.ruleset} vs {job_b.ruleset} ({job_a.game})", body)


def _signed(x: float, kind: str) -> str:
    s = fmt(x, kind)
    return s if s.startswith("-") or s == "-" else "+" + s


def _p(p: float) -> str:
    if p is None or p != p:
        return "-"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


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
