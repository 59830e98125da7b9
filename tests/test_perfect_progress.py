"""The perfect bot's first game: it solves before the game starts, with a progress bar, and
never again once the solution is kept (issue 16: no silent first move)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheepfold.bots import make_bot
from sheepfold.games import make


def _play(home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHEEPFOLD_HOME": str(home), "COLUMNS": "120", "NO_COLOR": "1"}
    args = ["play", "shave-a-sheep", "--seat", "bot:perfect", "--seat", "bot:greedy", "--seed", "4"]
    return subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", *args],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_the_first_perfect_game_solves_with_a_progress_bar_then_never_again(
    tmp_path: Path,
) -> None:
    first = _play(tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    bar = first.stderr.index("perfect bot: solving the game (once)")
    assert "100% of the positions" in first.stderr[bar:]
    assert first.stdout.index("rolled") > 0 and "Final result" in first.stdout
    again = _play(tmp_path)  # the solution is in the cache now
    assert again.returncode == 0, again.stderr[-2000:]
    assert "solving" not in again.stderr
    assert again.stdout == first.stdout  # the same game: the same seed, the same solution


def test_prepare_now_reports_progress_and_the_bot_then_needs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path))  # an empty solver cache
    game = make("shave-a-sheep", 2, rules={"wool": 11})
    bot = make_bot("perfect", game, 0, 0)
    assert bot.preparation() == "perfect bot: solving the game (once)"
    seen: list[tuple[int, int]] = []
    bot.prepare_now(lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] > 0
    assert bot.preparation() is None
    assert make_bot("greedy", game, 1, 0).preparation() is None
