"""Every plot the lab draws, rendered and read back: what a designer would look at.

The figures are built from small seeded runs (a few hundred fast games, deterministic) and
inspected through matplotlib's objects: the fair-share line, the bin edges, the bars and their
error bars, the titles and the notes; each is then rendered to a PNG as the reports do.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from matplotlib.container import BarContainer

from sheepfold.lab import report
from sheepfold.lab.metrics import Z95, game_arrays, truncation_note
from sheepfold.lab.runner import make_job, run
from test_lab_metrics import NEGATIVE_ZERO

SMALL_EXACT = {"wool": 10, "max_wool": 3}  # the solver takes it in well under a second
# a die with one pink face in four and two wolves: some games never end (cut at the limit)
ENDLESS = {"die": ["white", "gray", "gray", "white/pink"], "wool": 12, "max_wool": 3}


@functools.cache
def arrays(
    rules: str | None = None,
    players: int = 2,
    bots: tuple[str, ...] = ("random",),
    games: int = 400,
    rotate: bool = False,
    exact: bool = False,
    max_turns: int = 1000,
) -> dict[str, Any]:
    """The game arrays of a small seeded run (``rules``: a built-in variant, 'small', 'endless')."""
    options: Any = {"small": SMALL_EXACT, "endless": ENDLESS}.get(rules or "")
    if options is None and rules:
        options = {"variants": [rules]}
    job = make_job(
        "shave-a-sheep",
        options,
        ruleset=rules or "rulebook",
        players=players,
        bots=bots,
        games=games,
        seed=11,
        rotate=rotate,
        exact=exact,
        max_turns=max_turns,
    )
    return game_arrays(run(job, workers=1, standings=False))


def texts(fig: Any) -> list[str]:
    """Every piece of text a figure shows (titles, labels, ticks, legends, notes)."""
    from matplotlib.text import Text

    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def render(fig: Any) -> None:
    """Render as the reports do (and close the figure); no text may show a negative zero."""
    assert not [t for t in texts(fig) if NEGATIVE_ZERO.search(t)], texts(fig)
    assert report._png(fig)[:4] == b"\x89PNG"


# -- the length histogram -----------------------------------------------------------------------
def test_length_bins_fall_on_half_integers_one_length_each() -> None:
    edges = report._length_bins([np.array([30.0, 31, 31, 80]), np.array([45.0, 120])])
    assert np.all((edges + 0.5) % 1 == 0) and np.all(np.diff(edges) == 1)
    assert edges[0] == 29.5 and edges[-1] >= 120.5
    # a wider range: bins of a whole number of turns, every bin holding as many integers
    wide = report._length_bins([np.arange(10.0, 1200.0)])
    width = np.diff(wide)
    assert np.all(width == width[0]) and width[0] == int(width[0]) > 1
    assert np.all((wide + 0.5) % 1 == 0)


def test_length_histogram_shows_the_share_of_games_at_each_length() -> None:
    runs = [("A: rulebook", arrays()), ("B: cutting-costs", arrays("cutting-costs"))]
    fig = report.length_hist_figure(runs)
    ax = fig.axes[0]
    steps = [p for p in ax.patches if len(p.get_xy()) > 4]
    assert len(steps) == 2
    for (_, d), step in zip(runs, steps, strict=True):
        xy = step.get_xy()
        assert np.all((xy[:, 0] + 0.5) % 1 == 0)  # every edge between two integers
        lengths = d["length"][~d["truncated"]].astype(int)
        top = 100 * np.bincount(lengths).max() / len(lengths)
        assert xy[:, 1].max() == pytest.approx(top)  # one bar per length, in % of games
    assert ax.get_ylabel() == "share of games (%)"
    assert all(float(t) == int(float(t)) for t in ax.get_xticks())  # whole turns only
    assert "one bar per length" in ax.get_xlabel()
    head = ax.get_title()
    assert "rulebook" in head and "cutting-costs" in head
    assert "2 players" in head and "bots Random (every seat)" in head
    render(fig)


# -- the seat chart -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_chart_shows_each_seats_edge_over_the_fair_share(players: int) -> None:
    d = arrays(players=players)
    fig = report.seat_shares_figure([("rulebook", d)])
    ax = fig.axes[0]
    fair = [ln for ln in ax.get_lines() if ln.get_label().startswith("fair share")]
    assert len(fair) == 1 and list(fair[0].get_ydata()) == [0, 0]
    assert f"1/{players} = {100 / players:.1f}%" in fair[0].get_label()
    sh = d["shares"][~d["truncated"]]
    edge = 100 * (sh.mean(axis=0) - 1 / players)
    half = 100 * Z95 * sh.std(axis=0, ddof=1) / np.sqrt(len(sh))
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [b.get_height() for b in bars] == pytest.approx(list(edge))
    segs = bars.errorbar.lines[2][0].get_segments()  # the vertical error bars
    assert [s[1][1] - s[0][1] for s in segs] == pytest.approx(list(2 * half))
    lo, hi = ax.get_ylim()
    assert lo < min(edge - half) and hi > max(edge + half) and lo < 0 < hi  # not from 0 up
    assert "percentage points" in ax.get_ylabel()
    labels = [t.get_text() for t in ax.texts]
    assert len(labels) == players and all(t.endswith(" pp") for t in labels)
    shown = [float(t.removesuffix(" pp")) for t in labels]  # each bar says its own height
    assert shown == pytest.approx(list(edge), abs=0.051)
    assert f"{players} players" in ax.get_title() and "rulebook" in ax.get_title()
    render(fig)


def test_seat_chart_labels_a_small_edge_to_the_hundredth_of_a_point() -> None:
    G = 10_000
    wins = np.zeros((G, 2))
    wins[:5004, 0] = 1  # seat 0 wins 50.04% of the games: +0.04 pp, not "0.0 pp"
    wins[5004:, 1] = 1
    d = {
        "n": 2,
        "G": G,
        "game": "shave-a-sheep",
        "shares": wins,
        "truncated": np.zeros(G, bool),
        "bots": np.full((G, 2), "random", dtype=object),
    }
    fig = report.seat_shares_figure([("rulebook", d)])
    assert [t.get_text() for t in fig.axes[0].texts] == ["+0.04 pp", "-0.04 pp"]
    render(fig)


def test_titles_name_rotated_bots_and_every_rule_set() -> None:
    d = arrays(bots=("greedy", "random"), rotate=True)
    for make in (report.length_hist_figure, report.seat_shares_figure, report.lead_changes_figure):
        fig = make([("rulebook", d)])
        head = fig.axes[0].get_title()
        assert "bots Greedy, Random, rotated through the seats" in head, head  # their levels
        assert "rulebook" in head and "2 players" in head and "400 games" in head
        render(fig)


def test_a_plot_names_its_bots_by_their_levels_in_its_language() -> None:
    """A plot's bots are the lobby's levels (plain_words: the same words of the catalog), in
    the language the plot is drawn in; a bot that is no level keeps its name."""
    from sheepfold.core.words import translated
    from sheepfold.server import i18n

    catalog = i18n.catalogs()["it"]

    def italian(words: str) -> str:
        return str(translated(words, "it", catalog))

    head = report.describe(
        [("rulebook", arrays(bots=("greedy", "random"), rotate=True))], say=italian
    )
    assert "bot Goloso, A caso, a rotazione tra i posti" in head, head
    assert "greedy" not in head and "random" not in head
    for lang, table in i18n.catalogs().items():  # every language: its own words for the levels
        head = report.describe(
            [("rulebook", arrays(bots=("greedy", "random"), rotate=True))],
            say=lambda words, lang=lang, table=table: str(translated(words, lang, table)),
        )
        levels = [table.get(level, level) for level in ("Greedy", "Random")]
        assert all(level in head for level in levels), (lang, head)
    d = arrays()
    d = {**d, "bots": np.full((d["G"], 2), "best-response", dtype=object)}  # a lab bot
    head = report.describe([("rulebook", d)])
    assert "bots best-response (every seat)" in head, head


# -- lead changes and uncertainty ---------------------------------------------------------------
def test_lead_changes_bars_are_shares_of_games_and_the_last_says_or_more() -> None:
    runs = [("A: rulebook", arrays()), ("B: my-friend-mr-wolf", arrays("my-friend-mr-wolf"))]
    fig = report.lead_changes_figure(runs)
    ax = fig.axes[0]
    for bars in [c for c in ax.containers if isinstance(c, BarContainer)]:
        assert sum(b.get_height() for b in bars) == pytest.approx(100)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[-1].endswith("or more") and ticks[0] == "0"
    assert "my-friend-mr-wolf" in ax.get_title()
    render(fig)


def test_uncertainty_curve_has_its_band_and_says_whose_chances() -> None:
    d = arrays("small", exact=True, games=300)
    fig = report.uncertainty_curve_figure([("small", d)])
    ax = fig.axes[0]
    assert ax.get_ylim() == (0, 102) and ax.get_xlim() == (0, 100)
    (line,) = ax.get_lines()
    assert 95 < line.get_ydata()[0] <= 100  # wide open at the start
    assert len(ax.collections) == 1  # the 95% band
    assert "exact win chances of these bots" in ax.get_title()
    render(fig)
    assert report.uncertainty_curve_figure([("rulebook", arrays())]) is None


# -- the variants plot ---------------------------------------------------------------------------
def _row(name: str, players: int, seat0: float, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "players": players,
        "length": 80.0,
        "length_lo": 79.0,
        "length_hi": 81.0,
        "seat0": seat0,
        "seat0_lo": seat0 - 0.01,
        "seat0_hi": seat0 + 0.01,
        "truncated": 0.0,
        "max_turns": 1000,
        "title": f"shave-a-sheep: {players} players, bots random (every seat), 100 games",
        **extra,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_variants_plot_draws_the_fair_share_at_one_over_n(players: int) -> None:
    fair = 1 / players
    rows = [
        _row("shave-rulebook", players, fair + 0.004, exact_seat0=fair + 0.003),
        _row("my-friend-mr-wolf", players, fair - 0.002, exact_seat0=None, exact_skipped="why"),
    ]
    fig = report.variants_figure(rows)
    ax = fig.axes[1]
    (line,) = [ln for ln in ax.get_lines() if ln.get_label().startswith("fair share")]
    assert list(line.get_xdata()) == pytest.approx([100 * fair] * 2)
    lo, hi = ax.get_xlim()
    assert lo < 100 * fair < hi and hi - lo < 10  # zoomed on the fair share, not on 0-100
    (cross,) = [ln for ln in ax.get_lines() if ln.get_label() == "exact (solver)"]
    assert list(cross.get_xdata()) == pytest.approx([100 * (fair + 0.003)])  # the known one
    shown = "\n".join(texts(fig))
    assert f"fair share 1/{players} = {100 * fair:.1f}%" in shown
    assert "my-friend-mr-wolf: no exact value (why)" in shown
    assert f"{players} players" in fig._suptitle.get_text()
    render(fig)


def test_variants_plot_says_when_games_hit_the_turn_limit() -> None:
    rows = [_row("endless", 2, 0.5, truncated=0.031, max_turns=500), _row("rulebook", 2, 0.5)]
    fig = report.variants_figure(rows, [("endless", arrays("small", exact=True, games=300))])
    shown = "\n".join(texts(fig))
    assert "endless: 3.1% of games hit the 500-turn limit" in shown
    assert "may never end" in shown
    render(fig)


# -- games the turn limit cut ---------------------------------------------------------------------
def test_games_cut_by_the_turn_limit_are_said_in_words_everywhere() -> None:
    d = arrays("endless", games=300, max_turns=150)
    cut = int(d["truncated"].sum())
    assert 0 < cut < 300  # some games end, some never would
    note = truncation_note(d)
    assert note is not None and "hit the 150-turn limit" in note
    assert "may never end" in note and f"{300 - cut:,} games that finished" in note
    assert note.startswith(f"{100 * cut / 300:.1f}% of games ({cut} of 300)")
    assert truncation_note(arrays()) is None
    for make in (report.length_hist_figure, report.seat_shares_figure, report.lead_changes_figure):
        fig = make([("endless", d)])
        shown = "\n".join(texts(fig))
        assert "hit the 150-turn limit" in shown and "may never end" in shown
        assert "finished games" in fig.axes[0].get_title()
        render(fig)
