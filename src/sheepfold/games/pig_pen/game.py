"""Pig Pen: the rules engine of a tiny sheep-flavoured dice game (the dice game Pig).

The rules. 2 to 4 players take turns, seat 0 first. On your turn you roll the die (faces 1 to
``faces``, 6 by default) again and again:

* a 1 loses the wool gathered this turn and ends the turn;
* any other face adds its number to this turn's wool; then you decide: ``roll`` again, or
  ``pen`` (this turn's wool goes into your pen and the turn passes to the next seat);
* the moment your pen and this turn's wool together reach the ``target`` (30 by default), the
  wool is penned and you win: nobody rolls past a win (this keeps every game's length bounded);
* after every player has had ``max_turns`` turns (40 by default) the game ends: the fullest pen
  wins, ties shared.

State discipline: mutable, with a cheap :meth:`PigState.clone` (a few ints and three short
lists). Nothing is hidden but the seed, so a seat's view is the whole position.

Action ids (decisions): ``0 roll``, ``1 pen``. Chance outcome ids: the face rolled minus one
(``0`` is the 1, ``faces - 1`` the highest face).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from sheepfold.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    IllegalAction,
    Outcome,
    Seat,
    State,
    View,
    seeded_random,
)
from sheepfold.games.pig_pen.rules import MAX_FACES, PigRules

ROLL, PEN = 0, 1
NUM_ACTIONS = 2
MAX_PLAYERS = 4
ACTION_NAMES = ("roll", "pen")

# phases: the die is due (chance), the roller decides, the game is over
DIE, DECIDE, OVER = range(3)
PHASE_NAMES = ("die", "decide", "over")


def action_name(action: Action) -> str:
    if action in (ROLL, PEN):
        return ACTION_NAMES[action]
    raise IllegalAction(f"{action} is not a Pig Pen action id (0 roll, 1 pen)")


def rolls_per_turn(target: int) -> int:
    """The most rolls one turn can have: every face but the 1 brings at least 2, so after
    ``ceil(target / 2) - 1`` of them a pen still short of the target rolls once more, and a 2 or
    a 1 ends the turn there."""
    return (target + 1) // 2


class PigGame(Game):
    info = GameInfo(
        name="pig-pen",
        title="Pig Pen",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=MAX_FACES,  # this game's die: derive_info in __init__
        max_game_length=0,  # decisions in its longest game: derive_info in __init__
        perfect_information=True,
        description="Roll the die to gather wool, pen it before a 1 takes it; first to the "
        "target wins.",
    )

    rules: PigRules

    def __init__(self, num_players: int = 2, rules: PigRules | None = None) -> None:
        super().__init__(num_players, rules or PigRules())
        self.info = self.derive_info(NUM_ACTIONS)

    def max_decisions(self) -> int:
        """The most decisions in one game: one after each roll of a turn but its last."""
        return self.rules.max_turns * self.num_players * (rolls_per_turn(self.rules.target) - 1)

    def max_rolls(self) -> int:
        """The most rolls (chance events) in one game."""
        return self.rules.max_turns * self.num_players * rolls_per_turn(self.rules.target)

    def new_initial_state(self, seed: int | None = None, **setup: Any) -> PigState:
        if setup:
            raise TypeError(f"unexpected set-up options for Pig Pen: {', '.join(setup)}")
        return PigState(self, seed if seed is not None else 0)

    def determinize(self, view: View, seed: int | None = None) -> PigState:
        """Pig Pen hides nothing but the seed: the view gives the whole position."""
        s = PigState(self, seed if seed is not None else 0)
        s.pens = list(view["pens"])
        s.rolls = list(view["rolls"])
        s.turn_wool = view["turn_wool"]
        s.lost = view["lost"]
        s.rolled = view["rolled"]
        s.turn = view["turn"]
        s.turns = view["turns"]
        s.phase = PHASE_NAMES.index(view["phase"])
        s.last_roll = view["last_roll"]
        return s


class PigState(State):
    __slots__ = (
        "game",
        "pens",
        "rolls",
        "turn_wool",
        "lost",
        "rolled",
        "turn",
        "turns",
        "phase",
        "last_roll",
        "seed",
        "_history",
        "_chance_count",
    )

    game: PigGame

    def __init__(self, game: PigGame, seed: int) -> None:
        self.game = game
        self.pens = [0] * game.num_players
        self.rolls: list[int] = []  # the faces rolled this turn
        self.turn_wool = 0  # the wool gathered this turn, not yet penned
        self.lost = 0  # the wool that 1s took, all game long
        self.rolled = 0  # every face but the 1s rolled, all game long: pens + turn wool + lost
        self.turn: Seat = 0
        self.turns = 0  # completed turns, all seats together
        self.phase = DIE
        self.last_roll: int | None = None  # the face most recently rolled (any seat's)
        self.seed = seed
        self._history: list[tuple[Seat, Action]] = []
        self._chance_count = 0

    # -- protocol ---------------------------------------------------------------------------
    def current_player(self) -> Seat:
        if self.phase == DIE:
            return CHANCE
        if self.phase == DECIDE:
            return self.turn
        return TERMINAL

    def legal_actions(self) -> list[Action]:
        if self.phase == DIE:
            return list(range(self.game.rules.faces))
        if self.phase == DECIDE:
            return [ROLL, PEN]
        return []

    def illegal_reason(self, action: Action) -> str | None:
        if self.phase == OVER:
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is an integer id, not {action!r}"
        if action in self.legal_actions():
            return None
        if self.phase == DIE:
            return f"{action} is not a face of the die (0..{self.game.rules.faces - 1})"
        return f"{action} is not a Pig Pen action id (0 roll, 1 pen)"

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != DIE:
            return []
        faces = self.game.rules.faces
        return [(a, 1.0 / faces) for a in range(faces)]

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        if self.phase != DIE:
            raise IllegalAction("this is not a chance event")
        r = rng if rng is not None else seeded_random(self.seed, self._chance_count)
        return r.randrange(self.game.rules.faces)

    def action_to_string(self, action: Action) -> str:
        if self.phase == DIE:
            return f"roll {action + 1}"
        return action_name(action)

    # -- the rules ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        self._history.append((self.current_player(), action))
        if self.phase == DECIDE:
            if action == PEN:
                self._pen()
            else:
                self.phase = DIE
            return
        self._chance_count += 1
        face = action + 1
        self.rolls.append(face)
        self.last_roll = face
        if face == 1:  # the turn's wool is lost
            self.lost += self.turn_wool
            self.turn_wool = 0
            self._end_turn()
            return
        self.turn_wool += face
        self.rolled += face
        if self.pens[self.turn] + self.turn_wool >= self.game.rules.target:
            self._pen()  # nobody rolls past a win
        else:
            self.phase = DECIDE

    def _pen(self) -> None:
        self.pens[self.turn] += self.turn_wool
        self.turn_wool = 0
        if self.pens[self.turn] >= self.game.rules.target:
            self.turns += 1
            self.rolls = []
            self.phase = OVER
            return
        self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.rolls = []
        if self.turns >= self.game.rules.max_turns * self.game.num_players:
            self.phase = OVER
            return
        self.turn = (self.turn + 1) % self.game.num_players
        self.phase = DIE

    # -- results & views --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(p) for p in self.pens]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(self.scores())
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def observe(self, seat: Seat | None) -> View:
        to_move = self.current_player()
        legal = (
            [self.action_to_string(a) for a in self.legal_actions()]
            if to_move >= 0 and (seat is None or seat == to_move)
            else []
        )
        r = self.game.rules
        return {
            "game": "pig-pen",
            "seat": seat,
            "players": self.game.num_players,
            "to_move": None
            if to_move == TERMINAL
            else ("chance" if to_move == CHANCE else to_move),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "turns": self.turns,
            "rolls": list(self.rolls),
            "last_roll": self.last_roll,
            "turn_wool": self.turn_wool,
            "lost": self.lost,
            "rolled": self.rolled,
            "pens": list(self.pens),
            "target": r.target,
            "faces": r.faces,
            "max_turns": r.max_turns,
            "finished": self.phase == OVER,
            "scores": self.scores(),
            "winners": self.winners(),
            "legal_actions": legal,
        }

    def clone(self) -> PigState:
        c = PigState.__new__(PigState)
        c.game = self.game
        c.pens = self.pens[:]
        c.rolls = self.rolls[:]
        c.turn_wool = self.turn_wool
        c.lost = self.lost
        c.rolled = self.rolled
        c.turn = self.turn
        c.turns = self.turns
        c.phase = self.phase
        c.last_roll = self.last_roll
        c.seed = self.seed
        c._history = self._history[:]
        c._chance_count = self._chance_count
        return c

    def snapshot(self) -> Mapping[str, Any]:
        return {
            "pens": tuple(self.pens),
            "rolls": tuple(self.rolls),
            "turn_wool": self.turn_wool,
            "lost": self.lost,
            "rolled": self.rolled,
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "last_roll": self.last_roll,
            "seed": self.seed,
            "history": tuple(self._history),
            "chance": self._chance_count,
        }

    def __repr__(self) -> str:
        return (
            f"PigState(turn={self.turn}, phase={PHASE_NAMES[self.phase]}, pens={self.pens}, "
            f"turn_wool={self.turn_wool}, rolls={self.rolls})"
        )
