"""The observation tensor's layout, shared by every game's encoder (the games' own
``observation.py`` modules) and the OpenSpiel, PettingZoo and Gymnasium adapters.

Every value of a tensor lies in ``[0, 1]`` (one-hot flags and counts divided by their maximum),
so one ``Box(0, 1)`` describes it. Seats are written *relative to the observer*: row 0 of every
per-seat piece is the observer, row 1 the next seat in turn order, and so on; the piece ``seat``
says which absolute seat the observer is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheepfold.core.protocol import Game, Seat, State

Piece = tuple[str, tuple[int, ...]]


class Encoder:
    """Layout of one game's observation tensor: named pieces, concatenated in order."""

    #: ``(piece, rows, cols)`` when one piece is a board of rows x cols cells, each a vector of
    #: channels (Dolly Crush's flock): the grid observation of
    #: :mod:`sheepfold.interop.encoding` lays it out as an image. None: no board.
    grid_piece: tuple[str, int, int] | None = None

    def __init__(self, game: Game, pieces: Sequence[Piece]) -> None:
        self.game = game
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        off = 0
        for name, shape in self.pieces:
            self.offsets[name] = (off, shape)
            off += int(np.prod(shape))
        self.size = off

    @property
    def shape(self) -> tuple[int, ...]:
        """The observation's shape: ``(size,)`` (a grid's is rows x cols x channels)."""
        return (self.size,)

    @property
    def base(self) -> Encoder:
        """The flat encoder: itself (a grid observation's is the one it rearranges)."""
        return self

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, np.float32)

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``flat`` (no copies)."""
        return {
            name: flat[off : off + int(np.prod(shape))].reshape(shape)
            for name, (off, shape) in self.offsets.items()
        }

    def encode(self, state: State, seat: Seat, out: np.ndarray | None = None) -> np.ndarray:
        """The position seen from ``seat``, written into ``out`` (a new array if None)."""
        vals = [0.0] * self.size
        self._write(state, seat, vals)
        if out is None:
            return np.array(vals, np.float32)
        out[:] = vals
        return out

    def _write(self, state: Any, seat: Seat, out: list[float]) -> None:  # pragma: no cover
        """Write the (non-zero) values into ``out``, a list of zeros (plain lists are much
        faster to poke one item at a time than numpy arrays)."""
        raise NotImplementedError

    def text(self, state: Any, seat: Seat | None = None) -> str:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> list[tuple[str, tuple[int, ...], int]]:
        """``(name, shape, offset)`` of every piece (for the docs and for users)."""
        return [(name, shape, self.offsets[name][0]) for name, shape in self.pieces]


def rel(seat: int, other: int, n: int) -> int:
    return (other - seat) % n
