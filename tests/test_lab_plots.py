"""The lab's plots, rendered: distinct colours and markers for any number of rule sets, titles
that never overprint, integer ticks for integer options, reference lines, the real base."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.lab import report
from test_lab_report import _row, render


def test_eleven_rule_sets_get_eleven_colour_and_marker_pairs() -> None:
    rows = [_row(f"rule set {k}", 2, 0.5 + 0.001 * k) for k in range(11)]
    fig = report.variants_figure(rows)
    bars = fig.axes[0].patches
    colours = [tuple(round(c, 3) for c in b.get_facecolor()) for b in bars]
    assert len(set(colours)) == 11
    points = [
        ln for ln in fig.axes[1].get_lines() if ln.get_marker() not in (None, "None", "", "x", "|")
    ]
    pairs = {(ln.get_color(), ln.get_marker()) for ln in points}
    assert len(pairs) == 11
    assert len({report.colour(k) for k in range(200)}) == 200  # never the same twice
    render(fig)


def _sweep_row(value: Any, players: int = 2) -> dict[str, Any]:
    m = {
        "length_mean": {"value": 30.0 + value, "lo": 29.0 + value, "hi": 31.0 + value},
        "first_player_advantage": {"value": 0.01, "lo": -0.01, "hi": 0.03},
        "win_seat0": {"value": 0.51, "lo": 0.49, "hi": 0.53},
        "win_seat1": {"value": 0.49, "lo": 0.47, "hi": 0.51},
    }
    kinds = {"length_mean": "num", "first_player_advantage": "pp"}
    return {
        "value": value,
        "metrics": {
            k: {**v, "kind": kinds.get(k, "pct"), "label": k.replace("_", " ")}
            for k, v in m.items()
        },
    }


def test_sweep_title_integer_ticks_and_reference_lines() -> None:
    rows = [_sweep_row(v) for v in (3, 4, 5, 6, 7)]
    fig = report.sweep_figure("max_wool", rows, "dolly-crush, dolly-graded", target=33)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = fig._suptitle.get_window_extent(renderer)
    assert "dolly-crush, dolly-graded: max_wool swept" in fig._suptitle.get_text()
    shown = [ax for ax in fig.axes if ax.axison]
    for ax in shown:  # no panel (or its title) reaches into the figure's title
        assert ax.get_tightbbox(renderer).y1 <= title.y0 + 0.5
        assert all(float(x).is_integer() for x in ax.get_xticks())
    lines = {ax.get_title(): [ln.get_label() for ln in ax.get_lines()] for ax in shown}
    assert "target 33 turns" in lines["length mean"]
    assert "no edge" in lines["first player advantage (points)"]
    assert "fair share 1/2" in lines["win seat0 (%)"]
    render(fig)


@pytest.mark.parametrize("values", [[0.5, 1.0, 1.5], ["middle", "roller"]])
def test_sweep_of_other_values_has_no_integer_locator(values: list[Any]) -> None:
    rows = [_sweep_row(k) | {"value": v} for k, v in enumerate(values)]
    fig = report.sweep_figure("x", rows, "shave-a-sheep, shave-rulebook")
    render(fig)


@pytest.mark.parametrize(
    ("written", "lang", "shown"),
    [
        ("2.5", "it", "2,5"),
        ("12000", "it", "12.000"),
        ("\u22121500", "it", "\u22121.500"),  # matplotlib's minus sign kept
        ("500", "it", "500"),
        ("2.5", "en", "2.5"),
        ("12000", "en", "12,000"),
        ("2.5", "de", "2,5"),
        ("12000", "de", "12.000"),
        ("2.5", "fr", "2,5"),
        ("12000", "fr", "12\u202f000"),  # French thousands: a narrow no-break space
    ],
)
def test_a_plot_tick_is_written_the_language_s_way(written: str, lang: str, shown: str) -> None:
    """A lab card's plot ticks: the decimal sign and the thousands of the reader's language."""
    from sheepfold.lab.card import local_tick

    assert local_tick(written, lang) == shown
