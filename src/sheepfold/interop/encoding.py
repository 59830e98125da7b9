"""Fixed-size tensors and text of a position, shared by the OpenSpiel, PettingZoo and Gymnasium
adapters.

Every value of a tensor lies in ``[0, 1]`` (one-hot flags and counts divided by their maximum),
so one ``Box(0, 1)`` describes it. Seats are written *relative to the observer*: row 0 of every
per-seat piece is the observer, row 1 the next seat in turn order, and so on; the piece ``seat``
says which absolute seat the observer is. Both games show every player the same position (the
deck's order is the only thing hidden in Dolly Crush, and a draw is a chance event whose
probabilities come from the unseen cards), so an observation is the whole position seen from one
seat.

Only numpy is needed here; the framework adapters import this module. The layout's base class is
:mod:`sheepfold.core.observation`; each game's encoder is its own (``games/<game>/observation.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheepfold.core.observation import Encoder, Piece
from sheepfold.core.protocol import Game, State
from sheepfold.core.registry import game_spec

__all__ = [
    "Encoder",
    "Piece",
    "encoder_for",
    "legal_mask",
    "render_text",
]


def encoder_for(game: Game) -> Encoder:
    """The observation layout of a game (one per game object; cache it)."""
    encoder: Encoder = game_spec(game.name).encoder(game)
    return encoder


def legal_mask(state: State, num_actions: int, dtype: Any = np.int8) -> np.ndarray:
    """1 for every legal decision of the seat to move (all zero at chance and at the end)."""
    mask = np.zeros(num_actions, dtype)
    if state.current_player() >= 0:
        mask[state.legal_actions()] = 1
    return mask


def render_text(render_mode: str | None, text: str | None) -> str | None:
    """The environments' ``render``: ``"ansi"`` returns the text, ``"human"`` prints it."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
        return None
    if text is None or render_mode == "ansi":
        return text
    print(text + "\n")
    return None
