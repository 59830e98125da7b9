"""Pig Pen's observation tensor and text (:mod:`sheepfold.core.observation`): what the
OpenSpiel, PettingZoo and Gymnasium adapters show a seat."""

from __future__ import annotations

from typing import Any

from sheepfold.core.observation import Encoder, rel
from sheepfold.core.protocol import CHANCE, TERMINAL, Seat


class PigEncoder(Encoder):
    """Pig Pen (n players, a die of F faces, seats relative to the observer)::

    seat        (n,)   one-hot: the observer's absolute seat
    phase       (3,)   one-hot: die (chance), decide, over
    turn        (n,)   one-hot: whose turn it is (relative)
    to_move     (n,)   one-hot: who decides now (all zero at chance and at the end)
    pens        (n,)   each seat's pen / target
    turn_wool   (1,)   this turn's wool / target
    last_roll   (F,)   one-hot: the face most recently rolled
    progress    (1,)   turns played / (max_turns x n)
    """

    def __init__(self, game: Any) -> None:
        n = game.num_players
        super().__init__(
            game,
            [
                ("seat", (n,)),
                ("phase", (3,)),
                ("turn", (n,)),
                ("to_move", (n,)),
                ("pens", (n,)),
                ("turn_wool", (1,)),
                ("last_roll", (game.rules.faces,)),
                ("progress", (1,)),
            ],
        )
        self.inv_target = 1.0 / game.rules.target
        self.inv_turns = 1.0 / (game.rules.max_turns * n)
        self.o = {k: v[0] for k, v in self.offsets.items()}

    def _write(self, s: Any, seat: Seat, out: list[float]) -> None:
        n = s.game.num_players
        o = self.o
        out[o["seat"] + seat] = 1.0
        out[o["phase"] + s.phase] = 1.0
        out[o["turn"] + rel(seat, s.turn, n)] = 1.0
        p = s.current_player()
        if p >= 0:
            out[o["to_move"] + rel(seat, p, n)] = 1.0
        for q in range(n):
            out[o["pens"] + rel(seat, q, n)] = min(1.0, s.pens[q] * self.inv_target)
        out[o["turn_wool"]] = min(1.0, s.turn_wool * self.inv_target)
        if s.last_roll is not None:
            out[o["last_roll"] + s.last_roll - 1] = 1.0
        out[o["progress"]] = min(1.0, s.turns * self.inv_turns)

    def text(self, s: Any, seat: Seat | None = None) -> str:
        g = s.game
        r = g.rules
        head = f"Pig Pen, {g.num_players} players, target {r.target}"
        if seat is not None:
            head += f", seen by seat {seat}"
        p = s.current_player()
        if p == TERMINAL:
            head += f" | over: winners {list(s.outcome().winners)}"
        elif p == CHANCE:
            head += f" | chance: roll the die (seat {s.turn}'s turn)"
        else:
            head += f" | seat {p} to play: roll or pen"
        turn = f"turn {s.turns + 1} of {r.max_turns * g.num_players}"
        if s.rolls:
            turn += f", rolled {' '.join(map(str, s.rolls))}, {s.turn_wool} wool this turn"
        lines = [head, turn]
        lines += [f"seat {q}: pen {s.pens[q]}" for q in range(g.num_players)]
        return "\n".join(lines)
