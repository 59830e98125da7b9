"""The game protocol every layer speaks (see :mod:`sheepfold.core.protocol`)."""

from sheepfold.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    IllegalAction,
    Outcome,
    RulesError,
    Seat,
    SheepfoldError,
    State,
    View,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Outcome",
    "RulesError",
    "Seat",
    "SheepfoldError",
    "State",
    "View",
]
