"""Game records, ``sheepfold-record/1`` (``docs/spec/records.md``): read, validate, replay, write.

The boundary: a record is validated once here (pydantic, strict types, errors naming the field),
then replayed move by move through the engine. A move that breaks a rule stops the replay with
:class:`RecordError` carrying the plain-words reason and the 0-based move index; the state
returned alongside is the state before that move (nothing is half-applied).

Extensions (optional fields, allowed by the contract): Dolly Crush ``draws`` (the cards drawn,
in order, when they are not simply the top of ``deck``) and Shave a Sheep's summary ``middle``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from sheepfold.core.protocol import CHANCE, IllegalAction, SheepfoldError, State

FORMAT = "sheepfold-record/1"


class RecordError(SheepfoldError):
    """A record that cannot be read (``move`` is None) or whose move ``move`` breaks a rule."""

    def __init__(self, message: str, move: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.move = move
        self.field = field

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "move": self.move}
        if self.field:
            out["field"] = self.field
        return out


def _no_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON value", name, 0)


# -- the format, as pydantic models ----------------------------------------------------------
Breed = Literal["pastore-maremmano", "australian-shepherd", "bobtail", "border-collie"]


def _check_cell(name: str) -> str:
    from sheepfold.games.dolly_crush.cards import parse_cell

    parse_cell(name)  # ValueError: "'a0' is not a cell (a1..c5: row a-c, column 1-5)"
    return name


def _check_card(code: str) -> str:
    from sheepfold.games.dolly_crush.cards import card_code, parse_card

    if card_code(parse_card(code)) != code:
        raise ValueError(f"{code!r} is not a card code: write it like ram-black (lower case)")
    return code


CellName = Annotated[StrictStr, AfterValidator(_check_cell)]
CardCode = Annotated[StrictStr, AfterValidator(_check_card)]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")  # new optional fields may come (the contract)


class DollyPlayer(_Open):
    name: StrictStr
    breed: Breed


class DollyMove(_Open):
    dog: StrictInt = Field(ge=0, le=3)
    swaps: list[tuple[CellName, CellName]]
    seat: StrictInt | None = Field(default=None, ge=0)


class ShavePlayer(_Open):
    name: StrictStr


class ShaveMove(_Open):
    roll: StrictStr
    action: Literal["grow", "double", "swap", "wolf", "shear"] | None = None
    target: StrictInt | None = Field(default=None, ge=0)
    grabber: StrictInt | None = Field(default=None, ge=0)
    grow: StrictBool | None = None
    mode: Literal["send", "raid"] | None = None
    seat: StrictInt | None = Field(default=None, ge=0)


class _Common(_Open):
    format: Literal["sheepfold-record/1"]
    game: Literal["dolly-crush", "shave-a-sheep"]
    rules: dict[str, Any] | None = None
    seed: StrictInt | None = None


class DollyRecord(_Common):
    game: Literal["dolly-crush"]
    players: list[DollyPlayer] = Field(min_length=2, max_length=4)
    deck: list[CardCode] | None = Field(default=None, min_length=15)
    draws: list[CardCode] | None = None
    moves: list[DollyMove]


class ShaveRecord(_Common):
    game: Literal["shave-a-sheep"]
    players: list[ShavePlayer] = Field(min_length=2, max_length=4)
    moves: list[ShaveMove]


Record = DollyRecord | ShaveRecord


def parse_record(data: Any) -> Record:
    """Validate a record (a dict, JSON text or a path); :class:`RecordError` naming the field."""
    if isinstance(data, Path):
        try:
            data = data.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read {data}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{data} is not a UTF-8 text file") from None
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data, parse_constant=_no_constant)
        except json.JSONDecodeError as e:
            raise RecordError(
                f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}"
            ) from None
        except UnicodeDecodeError:
            raise RecordError("not valid JSON: the text is not UTF-8") from None
        except RecursionError:
            raise RecordError("not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, game, players and moves")
    if data.get("format") != FORMAT:
        raise RecordError(
            f'format: expected "{FORMAT}", got {json.dumps(data.get("format"))}', field="format"
        )
    game = data.get("game")
    model: type[DollyRecord] | type[ShaveRecord]
    if game == "dolly-crush":
        model = DollyRecord
    elif game == "shave-a-sheep":
        model = ShaveRecord
    else:
        raise RecordError(
            f'game: expected "dolly-crush" or "shave-a-sheep", got {json.dumps(game)}',
            field="game",
        )
    try:
        rec = model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]["loc"]
        move = (
            first[1]
            if len(first) > 1 and first[0] == "moves" and isinstance(first[1], int)
            else None
        )
        raise RecordError(_first_problem(e), move=move, field=".".join(map(str, first))) from None
    if isinstance(rec, DollyRecord):
        breeds = [p.breed for p in rec.players]
        for i, b in enumerate(breeds):
            if breeds.index(b) != i:
                raise RecordError(
                    f"players.{i}.breed: {b} is already taken by seat {breeds.index(b)} "
                    "(each breed at most once)",
                    field=f"players.{i}.breed",
                )
    return rec


def _first_problem(err: ValidationError) -> str:
    """The first problem of a record, naming its field; how many more there are, if any."""
    e = err.errors()[0]
    where = ".".join(str(p) for p in e["loc"])
    msg = e["msg"].removeprefix("Value error, ")
    if e["type"] == "extra_forbidden":
        msg = "unknown field"
    elif e["type"] == "missing":
        msg = "this field is required"
    elif e["type"] in ("model_type", "model_attributes_type", "dict_type"):
        msg = "should be a JSON object"
    more = err.error_count() - 1
    return f"{where}: {msg}" + (f" (and {more} more problem{'s' * (more > 1)})" if more else "")


# -- replay ----------------------------------------------------------------------------------
@dataclass
class Replay:
    """The outcome of replaying a record: the state reached and how many moves were applied."""

    state: State
    moves_applied: int
    error: RecordError | None = None
    names: tuple[str, ...] = ()


def new_game_state(rec: Record) -> State:
    """The record's game before any move (Dolly Crush: the flock dealt)."""
    from sheepfold.core.protocol import RulesError
    from sheepfold.games import make

    try:
        if isinstance(rec, DollyRecord):
            game = make(
                "dolly-crush",
                players=len(rec.players),
                rules=rec.rules,
                breeds=[p.breed for p in rec.players],
            )
            state = game.new_initial_state(seed=rec.seed, deck=rec.deck)
        else:
            game = make("shave-a-sheep", players=len(rec.players), rules=rec.rules)
            state = game.new_initial_state(seed=rec.seed)
    except RulesError as e:
        raise RecordError(str(e), field="rules") from None
    return state


def replay(data: Any) -> Replay:
    """Replay a record. A file that is not a valid record raises :class:`RecordError`; a move
    that breaks a rule ends the replay, reported in ``Replay.error`` with the state before it."""
    rec = parse_record(data)
    state = new_game_state(rec)
    names = tuple(p.name for p in rec.players)
    draws = DrawSource(state, rec.draws if isinstance(rec, DollyRecord) else None)
    try:
        draws.settle(state)
    except IllegalAction as e:  # the deal itself: only an explicit ``draws`` can be wrong
        raise RecordError(f"draws: the deal cannot be made: {e}", field="draws") from None
    for k, move in enumerate(rec.moves):
        try:
            trial = state.clone()
            if isinstance(move, DollyMove):
                apply_dolly_move(trial, move)
            elif isinstance(move, ShaveMove):
                apply_shave_move(trial, move)
            draws.settle(trial)
        except IllegalAction as e:
            return Replay(state, k, RecordError(str(e), move=k), names)
        state = trial
    return Replay(state, len(rec.moves), None, names)


class DrawSource:
    """Resolves Dolly Crush's draws: the deck's top card, or the record's explicit ``draws``."""

    def __init__(self, state: State, draws: Sequence[str] | None) -> None:
        from sheepfold.games.dolly_crush.cards import parse_card

        self.draws = [parse_card(c) for c in draws] if draws is not None else None
        self.used = 0

    def settle(self, state: State) -> None:
        from sheepfold.games.dolly_crush.game import DollyState

        if not isinstance(state, DollyState):
            return
        while state.current_player() == CHANCE:
            if self.draws is not None and self.used < len(self.draws):
                card = self.draws[self.used]
                self.used += 1
                reason = state.illegal_reason(card)
                if reason is not None:
                    raise IllegalAction(f"draws.{self.used - 1}: {reason}")
                state.apply(card)
            else:
                state.apply(state.sample_chance())


def apply_dolly_move(state: State, move: DollyMove) -> None:
    from sheepfold.games.dolly_crush.game import DOG, DollyState, swap_action

    assert isinstance(state, DollyState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    seat = state.turn
    if move.seat is not None and move.seat != seat:
        raise IllegalAction(f"it is seat {seat}'s turn, not seat {move.seat}'s")
    assert state.phase == DOG
    state.apply(move.dog)
    need = state.game.dog_swaps[seat][move.dog]
    breed = state.game.breeds[seat]
    if len(move.swaps) != need:
        raise IllegalAction(
            f"dog card {move.dog} of the {breed} shows {need} swap{'s' * (need != 1)}, but the move "
            f"makes {len(move.swaps)} (ruling 7: exactly as many swaps as the card shows)"
        )
    for i, (a, b) in enumerate(move.swaps):
        try:
            action = swap_action(a.lower(), b.lower())
        except IllegalAction as e:
            raise IllegalAction(f"swap {i + 1} ({a}-{b}): {e}") from None
        reason = state.illegal_reason(action)
        if reason:
            raise IllegalAction(f"swap {i + 1} ({a}-{b}): {reason}")
        state.apply(action)


def apply_shave_move(state: State, move: ShaveMove) -> None:
    from sheepfold.games.shave_a_sheep import game as sg

    assert isinstance(state, sg.ShaveState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    g = state.game
    roller = state.turn
    if move.seat is not None and move.seat != roller:
        raise IllegalAction(f"it is seat {roller}'s turn, not seat {move.seat}'s")
    n = g.num_players
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
        state.apply(sg.WOLF0 + target)
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
    if act not in g.face_actions[face_i]:
        raise IllegalAction(
            f"the face {face} offers {' or '.join(g.face_actions[face_i])}, not {act} (ruling 3)"
        )
    if act in ("grow", "double", "shear"):
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


# -- writing ----------------------------------------------------------------------------------
def to_record(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a game so far (whole turns; a turn in progress is left out)."""
    from sheepfold.games.dolly_crush.game import DollyState

    g = state.game
    names = list(names) if names else [f"seat {i}" for i in range(g.num_players)]
    if len(names) != g.num_players:
        raise ValueError(f"{len(names)} names for {g.num_players} seats")
    rec: dict[str, Any] = {"format": FORMAT, "game": g.name}
    if isinstance(state, DollyState):
        rec["players"] = [
            {"name": nm, "breed": b} for nm, b in zip(names, state.game.breeds, strict=False)
        ]
    else:
        rec["players"] = [{"name": nm} for nm in names]
    options = g.rules.options()
    if options:
        rec["rules"] = options
    rec["seed"] = state.seed  # type: ignore[attr-defined]
    if isinstance(state, DollyState):
        _dolly_moves(state, rec)
    else:
        _shave_moves(state, rec)
    return rec


def _dolly_moves(state: State, rec: dict[str, Any]) -> None:
    from sheepfold.games.dolly_crush.cards import SWAPS, card_code, cell_name
    from sheepfold.games.dolly_crush.game import SWAP0, DollyState

    assert isinstance(state, DollyState)
    rec["deck"] = [card_code(c) for c in state.initial_deck]
    moves: list[dict[str, Any]] = []
    drawn: list[int] = []
    current: dict[str, Any] | None = None
    need = 0
    for who, a in state.history:
        if who == CHANCE:
            drawn.append(a)
        elif a < SWAP0:
            current = {"dog": a, "swaps": []}
            need = state.game.dog_swaps[who][a]
            if need == 0:
                moves.append(current)
        else:
            assert current is not None
            x, y = SWAPS[a - SWAP0]
            current["swaps"].append([cell_name(x), cell_name(y)])
            if len(current["swaps"]) == need:
                moves.append(current)
    rec["moves"] = moves
    # Were the draws simply the top of the deck? If not (search, OpenSpiel), fix them explicitly.
    probe = state.game.new_initial_state(seed=state.seed, deck=list(state.initial_deck))
    explicit = False
    for who, a in state.history:
        if who == CHANCE and probe.sample_chance() != a:
            explicit = True
        probe.apply_unchecked(a)
    if explicit:
        rec["draws"] = [card_code(c) for c in drawn]


def _shave_moves(state: State, rec: dict[str, Any]) -> None:
    from sheepfold.games.shave_a_sheep import game as sg

    assert isinstance(state, sg.ShaveState)
    g = state.game
    probe = g.new_initial_state(seed=state.seed)
    moves: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for _who, a in state.history:
        phase = probe.phase
        if phase == sg.ROLL:
            current = {"roll": g.faces[a]}
        elif phase == sg.GRAB:
            current["grabber"] = a
        elif phase == sg.HOWL_TARGET:
            current["target"] = a - sg.WOLF0
        elif phase == sg.HOWL_GROW:
            current["grow"] = a == sg.GROW
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
        if probe.phase in (sg.ROLL, sg.OVER) and current:
            moves.append(current)
            current = {}
    rec["moves"] = moves


def save_record(state: State, path: str | Path, names: Sequence[str] | None = None) -> Path:
    """Write a game's record as JSON (atomically: a half-written file never replaces a good one)."""
    import os
    import tempfile

    path = Path(path)
    data = json.dumps(to_record(state, names), indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


# -- the replay summary (sheepfold replay --json) --------------------------------------------
def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def summary(state: State, moves_applied: int) -> dict[str, Any]:
    """The ``sheepfold replay --json`` object, exactly as the contract lists it."""
    from sheepfold.games.dolly_crush.game import DollyState

    out: dict[str, Any] = {
        "game": state.game.name,
        "finished": state.is_terminal(),
        "scores": [_num(s) for s in state.scores()],
        "winners": state.winners(),
        "moves_applied": moves_applied,
    }
    if isinstance(state, DollyState):
        out["flock"] = state.flock_codes()
        out["deck_size"] = len(state.deck) + len(state.returning)
        out["collected"] = state.observe(None)["collected"]
        out["dogs_left"] = [state.dogs_left(s) for s in range(state.game.num_players)]
    else:
        view = state.observe(None)
        out["pile"] = view["piles"]
        out["sheep"] = view["sheep"]
        out["wolf"] = view["wolf"]
        out["middle"] = view["middle"]
        out["truncated"] = view["truncated"]
    return out


def describe_move(rec_move: Mapping[str, Any]) -> str:
    """A one-line description of a record move, for people."""
    if "dog" in rec_move:
        swaps = ", ".join(f"{a}-{b}" for a, b in rec_move.get("swaps", []))
        return f"dog {rec_move['dog']}: {swaps or 'no swap'}"
    parts = [f"rolled {rec_move.get('roll')}"]
    if "grabber" in rec_move:
        parts.append(
            f"seat {rec_move['grabber']} grabbed the wolf -> seat {rec_move.get('target')}"
        )
        parts.append("grew" if rec_move.get("grow") else "did not grow")
    else:
        parts.append(str(rec_move.get("action")))
        if rec_move.get("mode"):
            parts.append(str(rec_move["mode"]))
        if rec_move.get("target") is not None:
            parts.append(f"seat {rec_move['target']}")
    return " ".join(parts)
