"""The gallery's small parts: slugs, categories, the text check, and the lab card's exact
figures (refused past the server's limit, absent for a game without an exact solver)."""

from __future__ import annotations

import pytest

from sheepfold.games import make
from sheepfold.lab.card import exact
from sheepfold.server.gallery import categories, changed_categories, slugify
from sheepfold.server.texts import text_problem


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Short Wool!", "short-wool"),
        ("  Élan -- vital ", "elan-vital"),
        ("羊", "rules"),
        ("a" * 60, "a" * 40),
    ],
)
def test_slugs(name: str, slug: str) -> None:
    assert slugify(name) == slug


def test_categories_come_from_the_options_that_differ() -> None:
    assert changed_categories({"wool": 20, "max_wool": 4, "wolf_to": "roller"}) == ["wool", "wolf"]
    assert changed_categories({"name": "x", "description": "y"}) == []
    assert changed_categories({"rows": 4, "min_line": 4, "brand_new": 1}) == [
        "area",
        "lines",
        "other",
    ]
    assert {"wool", "die", "wolf", "end"} <= set(categories("shave-a-sheep"))
    assert {"area", "lines", "dogs", "scoring", "end"} <= set(categories("dolly-crush"))


def test_text_problems_name_the_character() -> None:
    assert text_problem("name", 'Tom\'s <b>"best"</b> 羊 🐑') is None
    assert text_problem("name", "\U0001f468\u200d\U0001f469\u200d\U0001f467") is None  # one emoji
    assert "U+001B at position 2" in (text_problem("name", "a\x1b[31m") or "")
    assert "U+202E" in (text_problem("author", "x\u202ey") or "")
    assert text_problem("description", "two\nlines", newlines=True) is None
    assert text_problem("name", "two\nlines") is not None


def test_exact_figures_stop_at_the_servers_limit() -> None:
    figures, why = exact(make("shave-a-sheep", players=2, rules={"wool": 12}), limit=10)
    assert figures is None and "more than this server solves for a card (10)" in (why or "")
    assert exact(make("dolly-crush", players=2), limit=10**9) == (None, None)


def test_a_lab_card_process_gets_only_idle_cpu() -> None:
    """The card's child runs under SCHED_IDLE (below every nice level): a costly card cannot
    take CPU time from the tables (the abuse bench's lab-queue attack)."""
    import os
    import subprocess
    import sys

    from sheepfold.server.gallery_lab import die_with_parent

    out = subprocess.run(
        [sys.executable, "-c", "import os; print(os.sched_getscheduler(0))"],
        preexec_fn=die_with_parent(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(out.stdout) == os.SCHED_IDLE
