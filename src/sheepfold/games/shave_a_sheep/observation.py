"""Shave a Sheep's observation tensor and text (:mod:`sheepfold.core.observation`): what the
OpenSpiel, PettingZoo and Gymnasium adapters show a seat."""

from __future__ import annotations

from typing import Any

from sheepfold.core.observation import Encoder, rel
from sheepfold.core.protocol import CHANCE, TERMINAL, Seat

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
    roll_verbs  (5+V,)    what the rolled face offers: grow, double, swap, wolf, shear, then
                          the rule set's own verbs on its faces (V, in the program's order)
    grabber     (n,)      one-hot: who grabbed the Howling Wolf (relative)
    progress    (1,)      turns played / max_turns (0 without a turn limit)
    wolf2       (n+1,)    only with a second wolf piece: where it stands, as ``wolf``
    """

    def __init__(self, game: Any) -> None:
        n = game.num_players
        f = len(game.faces)
        shown = dict.fromkeys(v for acts in game.face_actions for v in acts)
        verbs = [*_FACE_VERBS, *(v for v in shown if v not in _FACE_VERBS and v != "raid")]
        self.two_wolves = game.program.setup.wolves > 1
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
                ("roll_verbs", (len(verbs),)),
                ("grabber", (n,)),
                ("progress", (1,)),
                *([("wolf2", (n + 1,))] if self.two_wolves else []),
            ],
        )
        r = game.rules
        self.inv_wool = 1.0 / game.program.setup.wool
        self.inv_max = 1.0 / game.program.setup.cap
        self.inv_turns = 1.0 / r.max_turns if r.max_turns else 0.0
        self.face_verbs = [
            [verbs.index(v) for v in acts if v in verbs] for acts in game.face_actions
        ]
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
        out[o["middle"]] = min(1.0, s.middle * self.inv_wool)
        for q in range(n):
            r = rel(seat, q, n)
            out[o["sheep"] + r] = s.sheep[q] * self.inv_max
            out[o["piles"] + r] = min(1.0, s.piles[q] * self.inv_wool)
        out[o["wolf"] + (n if s.wolf is None else rel(seat, s.wolf, n))] = 1.0
        if s.face >= 0:
            out[o["roll"] + s.face] = 1.0
            for v in self.face_verbs[s.face]:
                out[o["roll_verbs"] + v] = 1.0
        if s.grabber >= 0:
            out[o["grabber"] + rel(seat, s.grabber, n)] = 1.0
        out[o["progress"]] = min(1.0, s.turns * self.inv_turns)
        if self.two_wolves:
            w2 = s.wolves[1]
            out[o["wolf2"] + (n if w2 is None else rel(seat, w2, n))] = 1.0

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
            if not g.program.setup.wolves
            else (", wolf in the middle" if s.wolf is None else f", wolf next to seat {s.wolf}")
        )
        lines.append(f"middle {s.middle}{wolf}")
        for q in range(n):
            lines.append(f"seat {q}: sheep {s.sheep[q]}/{g.program.setup.cap}, pile {s.piles[q]}")
        return "\n".join(lines)
