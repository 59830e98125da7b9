"""Fixed-size tensors and text of a position, shared by the OpenSpiel, PettingZoo and Gymnasium
adapters.

Every value of a tensor lies in ``[0, 1]`` (one-hot flags and counts divided by their maximum),
so one ``Box(0, 1)`` describes it. Seats are written *relative to the observer*: row 0 of every
per-seat piece is the observer, row 1 the next seat in turn order, and so on; the piece ``seat``
says which absolute seat the observer is. Both games show every player the same position (the
deck's order is the only thing hidden in Dolly Crush, and a draw is a chance event whose
probabilities come from the unseen cards), so an observation is the whole position seen from one
seat.

Two shapes of the same numbers: ``"flat"`` (the encoder's vector, the default everywhere) and
``"grid"`` (:class:`GridEncoder`: a game with a board, Dolly Crush's flock, as an image of rows x
cols cells for convolutional networks). :func:`observation_image` draws an observation as a
small RGB picture (the Gymnasium environment's ``render_mode="rgb_array"``).

Only numpy is needed here; the framework adapters import this module. The layout's base class is
:mod:`sheepfold.core.observation`; each game's encoder is its own (``games/<game>/observation.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheepfold.core.observation import Encoder, Piece
from sheepfold.core.protocol import Game, Seat, SheepfoldError, State
from sheepfold.core.registry import game_spec

__all__ = [
    "OBSERVATIONS",
    "Encoder",
    "GridEncoder",
    "Piece",
    "encoder_for",
    "legal_mask",
    "observation_image",
    "observer_for",
    "render_text",
]

#: the observation shapes an environment offers (``observation=``)
OBSERVATIONS = ("flat", "grid")


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


class GridEncoder:
    """The observation as a grid ``(rows, cols, channels)`` for convolutional networks.

    The board piece the game's encoder declares (:attr:`Encoder.grid_piece`: Dolly Crush's
    flock, rows x cols as the rule set sets them) gives each cell its own channels (one-hot card
    kind); every other value of the flat observation (seats, deck, scores...) follows as one
    more channel, the same in every cell (a constant plane). The same numbers as the flat
    observation, rearranged: ``channels = kinds + (flat size - cells x kinds)``.
    """

    def __init__(self, base: Encoder) -> None:
        if base.grid_piece is None:
            raise SheepfoldError(
                f"{base.game.name} has no board to lay out as a grid: use observation='flat'"
            )
        name, rows, cols = base.grid_piece
        off, shape = base.offsets[name]
        per_cell = int(np.prod(shape)) // (rows * cols)
        end = off + rows * cols * per_cell
        self.base = base
        self.rows, self.cols, self.per_cell = rows, cols, per_cell
        self._board = slice(off, end)
        self._rest = np.r_[0:off, end : base.size]
        self.shape = (rows, cols, per_cell + len(self._rest))

    def from_flat(self, flat: np.ndarray) -> np.ndarray:
        """The grid of one flat observation (a new float32 array)."""
        grid = np.empty(self.shape, np.float32)
        grid[:, :, : self.per_cell] = flat[self._board].reshape(self.rows, self.cols, -1)
        grid[:, :, self.per_cell :] = flat[self._rest]
        return grid

    def encode(self, state: State, seat: Seat) -> np.ndarray:
        return self.from_flat(self.base.encode(state, seat))


def observer_for(game: Game, observation: str = "flat") -> Encoder | GridEncoder:
    """What an environment encodes with: the game's encoder (``"flat"``) or its grid."""
    if observation not in OBSERVATIONS:
        raise SheepfoldError(
            f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}"
        )
    encoder = encoder_for(game)
    return encoder if observation == "flat" else GridEncoder(encoder)


#: pixels per value in :func:`observation_image`
_CELL = 6


def observation_image(encoder: Encoder, flat: np.ndarray) -> np.ndarray:
    """A flat observation drawn as an RGB image (uint8, height x width x 3): one band per piece,
    one gray square per value (black 0, white 1), a per-seat or board piece as rows of squares
    (Dolly Crush's flock: one row per cell, one column per card kind), bands parted by a blue
    line. Small (a few hundred pixels high) and the same size for every position."""
    bands = []
    for name, shape in encoder.pieces:
        off, _ = encoder.offsets[name]
        vals = flat[off : off + int(np.prod(shape))].reshape(shape[0] if len(shape) > 1 else 1, -1)
        bands.append(vals)
    width = max(b.shape[1] for b in bands) * _CELL
    rows = []
    for vals in bands:
        gray = np.clip(vals, 0.0, 1.0) * 255
        px = np.repeat(np.repeat(gray, _CELL, axis=0), _CELL, axis=1).astype(np.uint8)
        band = np.zeros((px.shape[0], width, 3), np.uint8)
        band[:, : px.shape[1], :] = px[:, :, None]
        rows.append(band)
        rows.append(np.tile(np.array([40, 60, 160], np.uint8), (1, width, 1)))
    return np.concatenate(rows[:-1], axis=0)
