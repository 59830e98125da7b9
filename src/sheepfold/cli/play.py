"""``sheepfold play GAME``: terminal play (filled in by the terminal-play layer)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the play command to the app."""
