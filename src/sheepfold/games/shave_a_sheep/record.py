"""Shave a Sheep's half of the record format (``docs/spec/records.md``): one move per turn, the
face rolled and what was done with it (Howling Wolf's race: who grabbed the wolf, where it went,
whether the roller grew; the house rule rerolls: the faces rolled again, in ``rerolled``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from sheepfold.core.protocol import IllegalAction, State
from sheepfold.core.records import OpenModel, RecordBase, RecordCodec, RecordError
from sheepfold.games.shave_a_sheep import game as sg
from sheepfold.games.shave_a_sheep.program import FIRST_OWN_ID
from sheepfold.games.shave_a_sheep.rules import MAX_NAME, ShaveRules

#: the printed verbs a move's ``action`` names (raid is the wolf's ``mode``; pass: a face
#: offering nothing that can be done)
PRINTED_ACTIONS = ("grow", "double", "swap", "wolf", "shear", "pass")


class ShavePlayer(OpenModel):
    name: StrictStr


class ShaveMove(OpenModel):
    roll: StrictStr
    rerolled: list[StrictStr] | None = None
    #: a printed verb (grow, double, swap, wolf, shear) or one of the rule set's own
    #: (:meth:`ShaveCodec.check` names the field when the rules have no such verb)
    action: StrictStr | None = Field(default=None, max_length=MAX_NAME)
    target: StrictInt | None = Field(default=None, ge=0)
    grabber: StrictInt | None = Field(default=None, ge=0)
    grow: StrictBool | None = None
    mode: Literal["send", "raid"] | None = None
    seat: StrictInt | None = Field(default=None, ge=0)


class ShaveRecord(RecordBase):
    game: Literal["shave-a-sheep"]
    players: list[ShavePlayer] = Field(min_length=2, max_length=4)
    moves: list[ShaveMove]


def apply_shave_move(state: State, move: ShaveMove) -> None:
    assert isinstance(state, sg.ShaveState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    g = state.game
    roller = state.turn
    if move.seat is not None and move.seat != roller:
        raise IllegalAction(f"it is seat {roller}'s turn, not seat {move.seat}'s")
    n = g.num_players
    for earlier in move.rerolled or []:
        _reroll(state, earlier)
    face_i = g.face_index(move.roll)
    face = g.faces[face_i]
    state.apply(face_i)

    def seat_field(name: str, value: int | None, purpose: str) -> int:
        if value is None:
            raise IllegalAction(f"{purpose}: the move needs a '{name}' seat")
        if value >= n:
            raise IllegalAction(f"{name}: there is no seat {value} in a {n}-player game")
        return value

    if state.phase == sg.GRAB:  # Howling Wolf's race (Shave a Sheep ruling 8)
        if move.action not in (None, "wolf"):
            raise IllegalAction(
                f"the face {face} shows gray: in Howling Wolf the race for the wolf always "
                f"starts, so '{move.action}' cannot be chosen (ruling 8)"
            )
        if move.mode is not None:
            raise IllegalAction("'mode' (send or raid) exists only in My friend Mr. Wolf")
        grabber = seat_field("grabber", move.grabber, "Howling Wolf: who grabbed the wolf")
        state.apply(grabber)
        target = seat_field("target", move.target, "Howling Wolf: whose sheep the wolf visits")
        race = g.face_race_verbs[face_i]
        assert race is not None
        state.apply(race.base + target)
        if move.grow is None:
            raise IllegalAction("Howling Wolf: the move needs 'grow' (true or false)")
        state.apply(sg.GROW if move.grow else sg.PASS)
        return
    for extra in ("grabber", "grow"):
        if getattr(move, extra) is not None:
            raise IllegalAction(
                f"'{extra}' belongs to Howling Wolf's race, which face {face} does not start"
            )
    if move.action is None:
        raise IllegalAction(
            f"the move needs an 'action' (the face {face} offers "
            f"{' or '.join(g.face_actions[face_i])})"
        )
    act = move.action
    if act == "pass":  # a face none of whose verbs is offered (the engine says if one is)
        for extra in ("target", "mode"):
            if getattr(move, extra) is not None:
                raise IllegalAction(f"'{extra}' is not for a pass")
        state.apply(sg.PASS)
        return
    if act not in g.face_actions[face_i]:
        raise IllegalAction(
            f"the face {face} offers {' or '.join(g.face_actions[face_i])}, not {act} (ruling 3)"
        )
    verb = g.verbs.get(act)
    if act not in PRINTED_ACTIONS and verb is not None:  # a rule set's own verb
        if move.mode is not None:
            raise IllegalAction("'mode' is only for the wolf in My friend Mr. Wolf")
        if not verb.targeted:
            if move.target is not None:
                raise IllegalAction(f"'target' is only for a verb that chooses a player, not {act}")
            action = verb.base
        else:
            action = verb.base + seat_field("target", move.target, f"{act}: which player")
    elif act in ("grow", "double", "shear"):
        if move.target is not None:
            raise IllegalAction(f"'target' is only for swap and wolf, not {act}")
        if move.mode is not None:
            raise IllegalAction("'mode' is only for the wolf in My friend Mr. Wolf")
        action = {"grow": sg.GROW, "double": sg.DOUBLE, "shear": sg.SHEAR}[act]
    elif act == "swap":
        if move.mode is not None:
            raise IllegalAction("'mode' is only for the wolf in My friend Mr. Wolf")
        action = sg.SWAP0 + seat_field("target", move.target, "swap: whose sheep to swap with")
    else:
        mode = move.mode
        if g.rules.mr_wolf:
            if mode is None:
                mode = "send" if move.target is not None else "raid"
            if mode == "raid":
                if move.target is not None and state.wolf is not None and move.target != state.wolf:
                    raise IllegalAction(
                        f"option B raids the sheep the wolf stands next to (seat {state.wolf}), "
                        f"not seat {move.target} (ruling 9)"
                    )
                action = sg.RAID
            else:
                action = sg.WOLF0 + seat_field("target", move.target, "wolf: where to send it")
        else:
            if mode is not None:
                raise IllegalAction("'mode' (send or raid) exists only in My friend Mr. Wolf")
            action = sg.WOLF0 + seat_field("target", move.target, "wolf: whose sheep it visits")
    state.apply(action)


def _reroll(state: sg.ShaveState, roll: str) -> None:
    """A face rolled and then rolled again (house rule rerolls)."""
    g = state.game
    if not g.rules.rerolls:
        raise IllegalAction(
            "'rerolled' needs the house rule rerolls, which these rules do not have"
        )
    if state.rerolls_used >= g.rules.rerolls:
        raise IllegalAction(f"the roller may roll again at most {g.rules.rerolls} time(s) a turn")
    face_i = g.face_index(roll)
    state.apply(face_i)
    if state.phase != sg.CHOOSE:
        raise IllegalAction(
            f"the face {g.faces[face_i]} starts Howling Wolf's race at once: it cannot be rolled "
            "again (ruling 8)"
        )
    state.apply(sg.REROLL)


class ShaveCodec(RecordCodec):
    model = ShaveRecord

    def check(self, rec: Any) -> None:
        """Each move's ``action`` names a printed verb or one of the rules' own (rules that
        are not valid are reported by their own check)."""
        try:
            own = tuple(ShaveRules.model_validate(rec.rules or {}).verbs or {})
        except ValueError:
            return
        allowed = dict.fromkeys([*PRINTED_ACTIONS, *own])
        for i, move in enumerate(rec.moves):
            if move.action is not None and move.action not in allowed:
                raise RecordError(
                    f"moves.{i}.action: expected "
                    + ", ".join(repr(a) for a in allowed)
                    + f", got {move.action!r}",
                    move=i,
                    field=f"moves.{i}.action",
                )

    def new_state(self, rec: Any) -> State:
        from sheepfold.games import make

        game = make("shave-a-sheep", players=len(rec.players), rules=rec.rules)
        return game.new_initial_state(seed=rec.seed)

    def apply_move(self, state: State, move: Any) -> None:
        apply_shave_move(state, move)

    def players(self, state: State, names: Sequence[str]) -> list[dict[str, Any]]:
        return [{"name": nm} for nm in names]

    def write_moves(self, state: State, rec: dict[str, Any]) -> None:
        assert isinstance(state, sg.ShaveState)
        g = state.game
        probe = g.new_initial_state(seed=state.seed)
        moves: list[dict[str, Any]] = []
        current: dict[str, Any] = {}
        for _who, a in state.history:
            phase = probe.phase
            if phase == sg.ROLL:
                if "roll" in current:  # the face before it was rolled again
                    current.setdefault("rerolled", []).append(current["roll"])
                current["roll"] = g.faces[a]
            elif a == sg.REROLL:
                pass
            elif phase == sg.GRAB:
                current["grabber"] = a
            elif phase == sg.HOWL_TARGET:
                current["target"] = a - g.by_id[a][0].base  # the race's verb
            elif phase == sg.HOWL_GROW:
                current["grow"] = a == sg.GROW
            elif a == sg.PASS:  # the face offered nothing that could be done
                current["action"] = "pass"
            elif a >= FIRST_OWN_ID:  # a rule set's own verb
                verb, k = g.by_id[a]
                current["action"] = verb.name
                if k is not None:
                    current["target"] = k
            else:
                if a in (sg.GROW, sg.DOUBLE, sg.SHEAR):
                    current["action"] = ("grow", "double", "shear")[a]
                elif a < sg.WOLF0:
                    current.update(action="swap", target=a - sg.SWAP0)
                elif a < sg.RAID:
                    current.update(action="wolf", target=a - sg.WOLF0)
                    if g.rules.mr_wolf:
                        current["mode"] = "send"
                else:
                    current.update(action="wolf", mode="raid")
            probe.apply_unchecked(a)
            if probe.phase in (sg.ROLL, sg.OVER) and current and a != sg.REROLL:
                moves.append(current)
                current = {}
        rec["moves"] = moves

    def summary(self, state: State, out: dict[str, Any]) -> None:
        view = state.observe(None)
        out["pile"] = view["piles"]
        out["sheep"] = view["sheep"]
        out["wolf"] = view["wolf"]
        out["middle"] = view["middle"]
        out["truncated"] = view["truncated"]
