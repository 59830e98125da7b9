"""Fixed-size tensors and text of a position, shared by the OpenSpiel, PettingZoo and Gymnasium
adapters.

Every value of a tensor lies in ``[0, 1]`` (one-hot flags and counts divided by their maximum),
so one ``Box(0, 1)`` describes it. Seats are written *relative to the observer*: row 0 of every
per-seat piece is the observer, row 1 the next seat in turn order, and so on; the piece ``seat``
says which absolute seat the observer is. Both games show every player the same position (the
deck's order is the only thing hidden in Dolly Crush, and a draw is a chance event whose
probabilities come from the unseen cards), so an observation is the whole position seen from one
seat.

Only numpy is needed here; the framework adapters import this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheepfold.core.protocol import CHANCE, TERMINAL, Game, Seat, State

Piece = tuple[str, tuple[int, ...]]


class Encoder:
    """Layout of one game's observation tensor: named pieces, concatenated in order."""

    def __init__(self, game: Game, pieces: Sequence[Piece]) -> None:
        self.game = game
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        off = 0
        for name, shape in self.pieces:
            self.offsets[name] = (off, shape)
            off += int(np.prod(shape))
        self.size = off

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


def _rel(seat: int, other: int, n: int) -> int:
    return (other - seat) % n


# -- Dolly Crush ---------------------------------------------------------------------------------

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
        out[o["turn"] + _rel(seat, s.turn, n)] = 1.0
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
            r = _rel(seat, p, n)
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


# -- Shave a Sheep -------------------------------------------------------------------------------

_FACE_VERBS = ("grow", "double", "swap", "wolf", "shear")


class ShaveEncoder(Encoder):
    """Shave a Sheep (n players, F distinct die faces, seats relative to the observer)::

    seat        (n,)      one-hot: the observer's absolute seat
    phase       (6,)      one-hot: roll (chance), choose, grab (chance), howl-target,
                          howl-grow, over
    turn        (n,)      one-hot: whose turn it is (the roller, relative)
    to_move     (n,)      one-hot: who decides now (all zero at chance and at the end)
    middle      (1,)      wool in the middle / wool
    sheep       (n,)      wool on each seat's sheep / max_wool
    piles       (n,)      each seat's safe pile / wool
    wolf        (n+1,)    one-hot: the seat Mr. Wolf stands next to; last = the middle
    roll        (F,)      one-hot: the face rolled this turn
    roll_verbs  (5,)      what the rolled face offers: grow, double, swap, wolf, shear
    grabber     (n,)      one-hot: who grabbed the Howling Wolf (relative)
    progress    (1,)      turns played / max_turns (0 without a turn limit)
    """

    def __init__(self, game: Any) -> None:
        n = game.num_players
        f = len(game.faces)
        super().__init__(
            game,
            [
                ("seat", (n,)),
                ("phase", (6,)),
                ("turn", (n,)),
                ("to_move", (n,)),
                ("middle", (1,)),
                ("sheep", (n,)),
                ("piles", (n,)),
                ("wolf", (n + 1,)),
                ("roll", (f,)),
                ("roll_verbs", (5,)),
                ("grabber", (n,)),
                ("progress", (1,)),
            ],
        )
        r = game.rules
        self.inv_wool = 1.0 / r.wool
        self.inv_max = 1.0 / r.max_wool
        self.inv_turns = 1.0 / r.max_turns if r.max_turns else 0.0
        self.face_verbs = [[_FACE_VERBS.index(v) for v in acts] for acts in game.face_actions]
        self.o = {k: v[0] for k, v in self.offsets.items()}

    def _write(self, s: Any, seat: Seat, out: list[float]) -> None:
        n = s.game.num_players
        o = self.o
        out[o["seat"] + seat] = 1.0
        out[o["phase"] + s.phase] = 1.0
        out[o["turn"] + _rel(seat, s.turn, n)] = 1.0
        p = s.current_player()
        if p >= 0:
            out[o["to_move"] + _rel(seat, p, n)] = 1.0
        out[o["middle"]] = min(1.0, s.middle * self.inv_wool)
        for q in range(n):
            r = _rel(seat, q, n)
            out[o["sheep"] + r] = s.sheep[q] * self.inv_max
            out[o["piles"] + r] = min(1.0, s.piles[q] * self.inv_wool)
        out[o["wolf"] + (n if s.wolf is None else _rel(seat, s.wolf, n))] = 1.0
        if s.face >= 0:
            out[o["roll"] + s.face] = 1.0
            for v in self.face_verbs[s.face]:
                out[o["roll_verbs"] + v] = 1.0
        if s.grabber >= 0:
            out[o["grabber"] + _rel(seat, s.grabber, n)] = 1.0
        out[o["progress"]] = min(1.0, s.turns * self.inv_turns)

    def text(self, s: Any, seat: Seat | None = None) -> str:
        from sheepfold.games.shave_a_sheep.game import PHASE_NAMES

        g = s.game
        n = g.num_players
        head = f"Shave a Sheep, {n} players"
        if g.rules.variants:
            head += f" ({', '.join(g.rules.variants)})"
        if seat is not None:
            head += f", seen by seat {seat}"
        p = s.current_player()
        if p == TERMINAL:
            res = s.outcome()
            head += (
                " | over: truncated" if res.truncated else f" | over: winners {list(res.winners)}"
            )
        elif p == CHANCE:
            what = "roll the die" if s.phase == 0 else "who grabs the wolf"
            head += f" | chance: {what} (seat {s.turn}'s turn)"
        else:
            head += f" | seat {p} to play: {PHASE_NAMES[s.phase]}"
        lines = [head]
        turn = f"turn {s.turns + 1}"
        if g.rules.max_turns:
            turn += f" of at most {g.rules.max_turns}"
        if s.face >= 0:
            turn += f", rolled {g.faces[s.face]}"
        if s.grabber >= 0:
            turn += f", seat {s.grabber} grabbed the wolf"
        lines.append(turn)
        wolf = (
            ""
            if not g.rules.mr_wolf
            else (", wolf in the middle" if s.wolf is None else f", wolf next to seat {s.wolf}")
        )
        lines.append(f"middle {s.middle}{wolf}")
        for q in range(n):
            lines.append(f"seat {q}: sheep {s.sheep[q]}/{g.rules.max_wool}, pile {s.piles[q]}")
        return "\n".join(lines)


def encoder_for(game: Game) -> Encoder:
    """The observation layout of a game (one per game object; cache it)."""
    if game.name == "dolly-crush":
        return DollyEncoder(game)
    if game.name == "shave-a-sheep":
        return ShaveEncoder(game)
    raise ValueError(f"no observation encoder for {game.name!r}")


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
