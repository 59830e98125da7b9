"""Dolly Crush's observation tensor and text (:mod:`sheepfold.core.observation`): what the
OpenSpiel, PettingZoo and Gymnasium adapters show a seat.

Every size follows the game's rule set (``game.board``: the flock's cells and the card kinds;
``game.num_dogs``: the dog cards of a breed); nothing assumes the rulebook's 3 x 5 flock."""

from __future__ import annotations

from typing import Any

from sheepfold.core.observation import Encoder, rel
from sheepfold.core.protocol import CHANCE, TERMINAL, Seat

#: three letters per sheep type, in the order of :data:`~sheepfold.games.dolly_crush.cards.TYPE_NAMES`
SHORT_TYPES = ("bel", "lam", "but", "flo", "ram", "clo", "sta", "hea")
_MAX_SWAPS = 20.0


def dolly_card_short(card: int) -> str:
    """Three letters per card, capitals for black: ``ram`` white ram, ``RAM`` black ram."""
    if card < 0:
        return " . "
    t = SHORT_TYPES[card >> 1]
    return t.upper() if card & 1 else t


class DollyEncoder(Encoder):
    """Dolly Crush (n players, C = rows x cols cells, K = 2 x types card kinds, D dog cards per
    breed; seats relative to the observer). On the rulebook's rules C = 15, K = 10, D = 4::

    seat        (n,)      one-hot: the observer's absolute seat
    phase       (4,)      one-hot: draw (chance), dog, swap, over
    turn        (n,)      one-hot: whose turn it is (relative)
    flock       (C, K)    cells a1.. in row order, one-hot card kind (all zero: empty cell);
                          a shaped flock (holes): (rows x cols, K + 1) over its whole grid,
                          the last value 1 at a hole (masked: never a card)
    deck        (K,)      cards of each kind left in the deck / that kind's copies
    returning   (K,)      clean-up cards waiting to be shuffled back / copies
    collected   (n, K)    each seat's collected cards per kind / copies
    dogs_left   (n, D)    1 if that seat's dog card d is still unplayed
    dog_swaps   (n, D)    swaps shown by each dog card / 20
    dog         (D,)      one-hot: the dog card in play (swap phase)
    swaps_left  (1,)      swaps left this turn / 20
    scores      (n,)      points / all points in the deck
    rounds      (1,)      only when the rules set ``rounds``: turns played / (rounds x n)
    """

    def __init__(self, game: Any) -> None:
        n = game.num_players
        board = game.board
        C, K, D = board.cells, board.kinds, game.num_dogs
        #: where each cell's values start in the flock piece, and the holes' (shaped flocks)
        per = K + 1 if board.holes else K
        self.cell_at = [(r * board.cols + c) * per for r, c in board.coords]
        self.hole_at = [
            (r * board.cols + c) * per + K
            for r in range(board.rows)
            for c in range(board.cols)
            if (r, c) not in board.index
        ]
        if board.holes:
            C = board.rows * board.cols
        pieces = [
            ("seat", (n,)),
            ("phase", (4,)),
            ("turn", (n,)),
            ("flock", (C, per)),
            ("deck", (K,)),
            ("returning", (K,)),
            ("collected", (n, K)),
            ("dogs_left", (n, D)),
            ("dog_swaps", (n, D)),
            ("dog", (D,)),
            ("swaps_left", (1,)),
            ("scores", (n,)),
        ]
        rounds = game.rules.rounds
        if rounds:
            pieces.append(("rounds", (1,)))
        super().__init__(game, pieces)
        self.board = board
        self.grid_piece = ("flock", board.rows, board.cols)
        self.kinds = K
        self.dogs = D
        self.inv_turns = 1.0 / (rounds * n) if rounds else 0.0
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
        D = self.dogs
        inv = self.inv_copies
        out[o["seat"] + seat] = 1.0
        out[o["phase"] + s.phase] = 1.0
        out[o["turn"] + rel(seat, s.turn, n)] = 1.0
        base = o["flock"]
        at = self.cell_at
        for cell, card in enumerate(s.flock):
            if card >= 0:
                out[base + at[cell] + card] = 1.0
        for h in self.hole_at:
            out[base + h] = 1.0
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
            total = s.bonus[p]  # the bonuses by length's points, then the cards'
            for card in s.collected[p]:
                out[base + card] += inv[card]
                total += pts[card]
            out[o["scores"] + r] = min(total * self.inv_points, 1.0)
            played = s.dogs_played[p]
            swaps = g.dog_swaps[p]
            for d in range(D):
                if not played >> d & 1:
                    out[o["dogs_left"] + r * D + d] = 1.0
                out[o["dog_swaps"] + r * D + d] = min(swaps[d], _MAX_SWAPS) / _MAX_SWAPS
        if s.dog >= 0:
            out[o["dog"] + s.dog] = 1.0
        out[o["swaps_left"]] = min(s.swaps_left, _MAX_SWAPS) / _MAX_SWAPS
        if self.inv_turns:
            out[o["rounds"]] = min(s.turns * self.inv_turns, 1.0)

    def text(self, s: Any, seat: Seat | None = None) -> str:
        from sheepfold.games.dolly_crush.cards import ROW_LETTERS
        from sheepfold.games.dolly_crush.game import PHASE_NAMES

        g = s.game
        board = self.board
        n = g.num_players
        lines = []
        head = f"Dolly Crush, {n} players"
        if seat is not None:
            head += f", seen by seat {seat}"
        p = s.current_player()
        if p == TERMINAL:
            res = s.outcome()
            head += f" | over: winners {list(res.winners)}" + (
                " (the sheep cards ran out)" if s.aborted else ""
            )
        elif p == CHANCE:
            head += f" | chance: draw a card (seat {s.turn}'s turn)"
        else:
            phase = PHASE_NAMES[s.phase]
            head += f" | seat {s.turn} to play: {phase}"
            if s.dog >= 0:
                head += f" (dog {s.dog}, {s.swaps_left} swap(s) left)"
        lines.append(head)
        lines.append("      " + "   ".join(str(c) for c in range(1, board.cols + 1)))
        for r, cards in enumerate(board.rows_of(s.flock)):
            row = " ".join("   " if c is None else dolly_card_short(c) for c in cards)
            lines.append(f"  {ROW_LETTERS[r]}  {row}")
        counts = [0] * self.kinds
        for c in s.deck:
            counts[c] += 1
        deck = " ".join(
            f"{dolly_card_short(k)}:{counts[k]}" for k in range(self.kinds) if counts[k]
        )
        lines.append(f"deck {len(s.deck)}: {deck or '-'}")
        if s.returning:
            lines.append("to shuffle back: " + " ".join(board.card_code(c) for c in s.returning))
        scores = s.scores()
        for q in range(n):
            left = "".join(
                str(d) if not s.dogs_played[q] >> d & 1 else "-" for d in range(self.dogs)
            )
            swaps = "/".join(str(x) for x in g.dog_swaps[q])
            lines.append(
                f"seat {q} {g.breeds[q]} (swaps {swaps}): dogs left {left}, "
                f"{len(s.collected[q])} cards, {scores[q]:g} points"
            )
        return "\n".join(lines)
