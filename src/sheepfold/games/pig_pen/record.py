"""Pig Pen's half of the record format (``docs/spec/records.md``): one move per turn, the faces
rolled in order (``{"rolls": [4, 3, 5]}``). The decisions follow from them: every roll but the
last was followed by ``roll``; a turn whose last roll is not a 1 (and does not reach the
target) ended with ``pen``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from sheepfold.core.protocol import CHANCE, IllegalAction, State
from sheepfold.core.records import OpenModel, RecordBase, RecordCodec
from sheepfold.games.pig_pen import game as pg
from sheepfold.games.pig_pen.rules import MAX_TARGET


class PigPlayer(OpenModel):
    name: StrictStr


class PigMove(OpenModel):
    #: no turn has more rolls than the largest target allows (each brings 2 or more)
    rolls: list[StrictInt] = Field(min_length=1, max_length=pg.rolls_per_turn(MAX_TARGET))
    seat: StrictInt | None = Field(default=None, ge=0)


class PigRecord(RecordBase):
    game: Literal["pig-pen"]
    players: list[PigPlayer] = Field(min_length=2, max_length=pg.MAX_PLAYERS)
    moves: list[PigMove]


def apply_pig_move(state: State, move: PigMove) -> None:
    """Play one recorded turn: its rolls, with ``roll`` between them and ``pen`` after the last
    when the turn is still going (IllegalAction naming the roll at fault)."""
    assert isinstance(state, pg.PigState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    if move.seat is not None and move.seat != state.turn:
        raise IllegalAction(f"it is seat {state.turn}'s turn, not seat {move.seat}'s")
    faces = state.game.rules.faces
    for i, face in enumerate(move.rolls):
        if not 1 <= face <= faces:
            raise IllegalAction(f"rolls.{i}: {face} is not a face of the die (1 to {faces})")
        if i > 0:
            if state.phase != pg.DECIDE:
                why = (
                    "a 1 ends the turn" if move.rolls[i - 1] == 1 else "the pen reached the target"
                )
                raise IllegalAction(f"rolls.{i}: the turn ended with the roll before ({why})")
            state.apply(pg.ROLL)
        state.apply(face - 1)
    if state.phase == pg.DECIDE:
        state.apply(pg.PEN)


class PigCodec(RecordCodec):
    model = PigRecord

    def new_state(self, rec: Any) -> State:
        from sheepfold.games import make

        game = make("pig-pen", players=len(rec.players), rules=rec.rules)
        return game.new_initial_state(seed=rec.seed)

    def apply_move(self, state: State, move: Any) -> None:
        apply_pig_move(state, move)

    def players(self, state: State, names: Sequence[str]) -> list[dict[str, Any]]:
        return [{"name": nm} for nm in names]

    def write_moves(self, state: State, rec: dict[str, Any]) -> None:
        """Every whole turn's rolls; a turn in progress is left out (a turn ends on a 1, on
        ``pen`` and on reaching the target, which ends the game)."""
        moves: list[dict[str, Any]] = []
        rolls: list[int] = []
        for who, a in state.history:
            if who == CHANCE:
                rolls.append(a + 1)
                if a == 0:
                    moves.append({"rolls": rolls})
                    rolls = []
            elif a == pg.PEN:
                moves.append({"rolls": rolls})
                rolls = []
        if rolls and state.is_terminal():
            moves.append({"rolls": rolls})
        rec["moves"] = moves

    def summary(self, state: State, out: dict[str, Any]) -> None:
        view = state.observe(None)
        out["pens"] = view["pens"]
        out["turns"] = view["turns"]
