"""Dolly Crush's observation tensor and text (:mod:`sheepfold.core.observation`): what the
OpenSpiel, PettingZoo and Gymnasium adapters show a seat."""

from __future__ import annotations

from typing import Any

from sheepfold.core.observation import Encoder, rel
from sheepfold.core.protocol import CHANCE, TERMINAL, Seat

_SHORT_TYPES = ("bel", "lam", "but", "flo", "ram")
_MAX_SWAPS = 20.0


def dolly_card_short(card: int) -> str:
    """Three letters per card, capitals for black: ``ram`` white ram, ``RAM`` black ram."""
    if card < 0:
        return " . "
    t = _SHORT_TYPES[card >> 1]
    return t.upper() if card & 1 else t


class DollyEncoder(Encoder):
    """Dolly Crush (n players, K = 10 card kinds, seats relative to the observer)::

    seat        (n,)      one-hot: the observer's absolute seat
    phase       (4,)      one-hot: draw (chance), dog, swap, over
    turn        (n,)      one-hot: whose turn it is (relative)
    flock       (15, 10)  cells a1..c5, one-hot card kind (all zero: empty cell)
    deck        (10,)     cards of each kind left in the deck / that kind's copies
    returning   (10,)     clean-up cards waiting to be shuffled back / copies
    collected   (n, 10)   each seat's collected cards per kind / copies
    dogs_left   (n, 4)    1 if that seat's dog card d is still unplayed
    dog_swaps   (n, 4)    swaps shown by each dog card / 20
    dog         (4,)      one-hot: the dog card in play (swap phase)
    swaps_left  (1,)      swaps left this turn / 20
    scores      (n,)      points / all points in the deck
    """

    def __init__(self, game: Any) -> None:
        from sheepfold.games.dolly_crush.cards import NUM_CELLS, NUM_KINDS

        n = game.num_players
        super().__init__(
            game,
            [
                ("seat", (n,)),
                ("phase", (4,)),
                ("turn", (n,)),
                ("flock", (NUM_CELLS, NUM_KINDS)),
                ("deck", (NUM_KINDS,)),
                ("returning", (NUM_KINDS,)),
                ("collected", (n, NUM_KINDS)),
                ("dogs_left", (n, 4)),
                ("dog_swaps", (n, 4)),
                ("dog", (4,)),
                ("swaps_left", (1,)),
                ("scores", (n,)),
            ],
        )
        self.kinds = NUM_KINDS
        self.inv_copies = [1.0 / c if c else 0.0 for c in game.composition]
        total_points = sum(p * c for p, c in zip(game.points, game.composition, strict=False))
        self.inv_points = 1.0 / total_points if total_points else 0.0
        o = {k: v[0] for k, v in self.offsets.items()}
        self.o = o

    def _write(self, s: Any, seat: Seat, out: list[float]) -> None:
        g = s.game
        n = g.num_players
        o = self.o
        K = self.kinds
        inv = self.inv_copies
        out[o["seat"] + seat] = 1.0
        out[o["phase"] + s.phase] = 1.0
        out[o["turn"] + rel(seat, s.turn, n)] = 1.0
        base = o["flock"]
        for cell, card in enumerate(s.flock):
            if card >= 0:
                out[base + cell * K + card] = 1.0
        base = o["deck"]
        for card in s.deck:
            out[base + card] += inv[card]
        base = o["returning"]
        for card in s.returning:
            out[base + card] += inv[card]
        pts = g.points
        for p in range(n):
            r = rel(seat, p, n)
            base = o["collected"] + r * K
            total = 0
            for card in s.collected[p]:
                out[base + card] += inv[card]
                total += pts[card]
            out[o["scores"] + r] = total * self.inv_points
            played = s.dogs_played[p]
            swaps = g.dog_swaps[p]
            for d in range(4):
                if not played >> d & 1:
                    out[o["dogs_left"] + r * 4 + d] = 1.0
                out[o["dog_swaps"] + r * 4 + d] = min(swaps[d], _MAX_SWAPS) / _MAX_SWAPS
        if s.dog >= 0:
            out[o["dog"] + s.dog] = 1.0
        out[o["swaps_left"]] = min(s.swaps_left, _MAX_SWAPS) / _MAX_SWAPS

    def text(self, s: Any, seat: Seat | None = None) -> str:
        from sheepfold.games.dolly_crush.cards import card_code
        from sheepfold.games.dolly_crush.game import PHASE_NAMES

        g = s.game
        n = g.num_players
        lines = []
        head = f"Dolly Crush, {n} players"
        if seat is not None:
            head += f", seen by seat {seat}"
        p = s.current_player()
        if p == TERMINAL:
            res = s.outcome()
            head += f" | over: winners {list(res.winners)}" + (
                " (clean-up gave up)" if s.aborted else ""
            )
        elif p == CHANCE:
            head += f" | chance: draw a card (seat {s.turn}'s turn)"
        else:
            phase = PHASE_NAMES[s.phase]
            head += f" | seat {s.turn} to play: {phase}"
            if s.dog >= 0:
                head += f" (dog {s.dog}, {s.swaps_left} swap(s) left)"
        lines.append(head)
        lines.append("      1   2   3   4   5")
        for r in range(3):
            row = " ".join(dolly_card_short(c) for c in s.flock[r * 5 : r * 5 + 5])
            lines.append(f"  {'abc'[r]}  {row}")
        counts = [0] * self.kinds
        for c in s.deck:
            counts[c] += 1
        deck = " ".join(
            f"{dolly_card_short(k)}:{counts[k]}" for k in range(self.kinds) if counts[k]
        )
        lines.append(f"deck {len(s.deck)}: {deck or '-'}")
        if s.returning:
            lines.append("to shuffle back: " + " ".join(card_code(c) for c in s.returning))
        scores = s.scores()
        for q in range(n):
            left = "".join(str(d) if not s.dogs_played[q] >> d & 1 else "-" for d in range(4))
            swaps = "/".join(str(x) for x in g.dog_swaps[q])
            lines.append(
                f"seat {q} {g.breeds[q]} (swaps {swaps}): dogs left {left}, "
                f"{len(s.collected[q])} cards, {scores[q]:g} points"
            )
        return "\n".join(lines)
