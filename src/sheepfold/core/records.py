"""Game records, ``sheepfold-record/1`` (``docs/spec/records.md``): read, validate, replay, write.

The boundary: a record is validated once here (pydantic, strict types, errors naming the field),
then replayed move by move through the engine. A move that breaks a rule stops the replay with
:class:`RecordError` carrying the plain-words reason and the 0-based move index; the state
returned alongside is the state before that move (nothing is half-applied).

What is the same for every game lives here; what is not (the players' and moves' fields, how a
move is applied and written, the summary's fields) is the game's :class:`RecordCodec`, which its
:class:`~sheepfold.core.registry.GameSpec` carries (``games/<game>/record.py``).

Extensions (optional fields, allowed by the contract): Dolly Crush ``draws`` (the cards drawn,
in order, when they are not simply the top of ``deck``), Shave a Sheep's summary ``middle``, and
a finished game's ``ended_by`` (why it ended: :func:`end_reason`; written, not read: a replay
works it out again).
"""

from __future__ import annotations

import abc
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from sheepfold.core import files
from sheepfold.core.errors import describe_validation_error, problem_text
from sheepfold.core.protocol import IllegalAction, RulesError, SheepfoldError, State
from sheepfold.core.registry import find_game, game_names, game_spec

FORMAT = "sheepfold-record/1"

#: the most digits an integer of a record may have (a 128-bit seed has 39): a number no field can
#: use is refused while reading, before anything tries to print or compute with it
MAX_DIGITS = 40
#: the most moves a record may hold (a game of the rulebook has about a hundred, Dolly Crush's
#: house rules allow 3,200 at most): a longer list is refused before anything is replayed, so
#: that a replay is bounded in time
MAX_MOVES = 20_000


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


class _HugeInt:
    """Stands in for a JSON integer with more than :data:`MAX_DIGITS` digits (never converted:
    Python refuses to read integers of more than 4300 digits, and nothing here needs them)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _parse_int(text: str) -> int | _HugeInt:
    if len(text) <= MAX_DIGITS:
        return int(text)
    digits = len(text) - text.startswith("-")
    return int(text) if digits <= MAX_DIGITS else _HugeInt(digits)


#: no integer of a field reaches it (MAX_DIGITS + 1 digits)
_TOO_BIG = 10**MAX_DIGITS


def _huge(value: Any) -> bool:
    return type(value) is _HugeInt or (type(value) is int and not -_TOO_BIG < value < _TOO_BIG)


def _any_huge(data: Any) -> bool:
    """Whether an integer too large for any field is anywhere in ``data`` (no recursion)."""
    stack = [data]
    while stack:
        value = stack.pop()
        for v in value.values() if type(value) is dict else value:
            t = type(v)
            if t is dict or t is list or t is tuple:
                stack.append(v)
            elif t is _HugeInt or (t is int and not -_TOO_BIG < v < _TOO_BIG):
                return True
    return False


def _check_numbers(data: Any) -> None:
    """Refuse an integer too large for any field, anywhere in the record (RecordError naming it).
    A first pass without paths finds whether there is one (most records: none, in one quick
    walk); only then is the path of the first one worked out."""
    if type(data) is not dict or not _any_huge(data):
        return
    stack: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, (*path, str(k))) for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, (*path, str(i))) for i, v in reversed(list(enumerate(value))))
        elif _huge(value):
            where = ".".join(path)
            size = f"{value.digits} digits" if isinstance(value, _HugeInt) else "too many digits"
            move = int(path[1]) if len(path) > 1 and path[0] == "moves" else None
            raise RecordError(
                f"{where}: the integer has {size}, no field takes more than {MAX_DIGITS}",
                move=move,
                field=where,
            )


# -- the format, as pydantic models ----------------------------------------------------------
class OpenModel(BaseModel):
    model_config = ConfigDict(extra="allow")  # new optional fields may come (the contract)


class RecordBase(OpenModel):
    """The fields every record has; a game's record model adds its players and moves."""

    format: Literal["sheepfold-record/1"]
    game: StrictStr
    rules: dict[str, Any] | None = None
    seed: StrictInt | None = None  # any integer (the contract's), at most MAX_DIGITS digits
    if TYPE_CHECKING:  # every game's model has them (declared there: the fields' order counts)
        players: Sequence[Any]
        moves: Sequence[Any]


Record = RecordBase


class RecordCodec(abc.ABC):
    """The game-specific half of the record format (one per game, in its :class:`GameSpec`)."""

    #: the pydantic model of a whole record of this game
    model: ClassVar[type[RecordBase]]
    #: the game's own lists and their caps, checked before the model: field -> (cap, what)
    caps: ClassVar[dict[str, tuple[int, str]]] = {}

    def check(self, rec: Any) -> None:  # noqa: B027 (most games need no more)
        """What the model cannot say (:class:`RecordError` naming the field)."""

    @abc.abstractmethod
    def new_state(self, rec: Any) -> State:
        """The record's game before any move (:class:`RulesError` for rules that make no sense)."""

    def settler(self, state: State, rec: Any) -> Callable[[State], None]:
        """What resolves the chance events a move leaves pending (IllegalAction: a bad draw)."""
        return lambda _state: None

    @abc.abstractmethod
    def apply_move(self, state: State, move: Any) -> None:
        """Apply one record move (IllegalAction with the reason)."""

    @abc.abstractmethod
    def players(self, state: State, names: Sequence[str]) -> list[dict[str, Any]]:
        """The record's ``players``."""

    @abc.abstractmethod
    def write_moves(self, state: State, rec: dict[str, Any]) -> None:
        """Add the record's moves (and whatever else the game writes after ``seed``) to ``rec``."""

    @abc.abstractmethod
    def summary(self, state: State, out: dict[str, Any]) -> None:
        """Add the game's fields to the replay summary ``out``."""


def parse_record(data: Any) -> Record:
    """Validate a record (a dict, JSON text or bytes, a path, or an open binary file);
    :class:`RecordError` naming the field. A file is read within the limits of
    :mod:`sheepfold.core.files` (:data:`~sheepfold.core.files.MAX_RECORD_BYTES`, its nesting) and
    a record holds at most :data:`MAX_MOVES` moves (a game's own lists: its codec's ``caps``),
    all checked before anything is validated or replayed. A record parsed already is returned
    as it is."""
    if isinstance(data, RecordBase):
        return data
    if not isinstance(data, (dict, str, bytes)):
        try:
            data = files.read_bytes(data, files.MAX_RECORD_BYTES)
        except files.FileRefused as e:
            raise RecordError(str(e)) from None
    if isinstance(data, (str, bytes)):
        try:
            data = files.parse_document(
                data, "json", "the record", max_bytes=files.MAX_RECORD_BYTES, parse_json=_loads
            )
        except files.FileRefused as e:
            raise RecordError(e.problem) from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, game, players and moves")
    _check_lengths(data, {"moves": (MAX_MOVES, "moves")})
    game = data.get("game")
    spec = find_game(game) if data.get("format") == FORMAT else None
    if spec is not None:  # the lists' caps first: they bound the cost of everything after
        _check_lengths(data, spec.record.caps)
    _check_numbers(data)
    if data.get("format") != FORMAT:
        raise RecordError(
            f'format: expected "{FORMAT}", got {json.dumps(data.get("format"))}', field="format"
        )
    if spec is None:
        names = " or ".join(json.dumps(n) for n in game_names())
        raise RecordError(f"game: expected {names}, got {json.dumps(game)}", field="game")
    codec = spec.record
    try:
        rec = codec.model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]["loc"]
        move = (
            first[1]
            if len(first) > 1 and first[0] == "moves" and isinstance(first[1], int)
            else None
        )
        raise RecordError(_first_problem(e), move=move, field=".".join(map(str, first))) from None
    codec.check(rec)
    _check_rules(spec.rules_class, rec.rules)
    return rec


def _loads(text: str) -> Any:
    """JSON as a record reads it: no NaN or Infinity, integers of any length kept as such."""
    return json.loads(text, parse_constant=_no_constant, parse_int=_parse_int)


def _check_lengths(data: dict[str, Any], caps: dict[str, tuple[int, str]]) -> None:
    """Refuse a list longer than its cap (``moves``; a game's ``deck``...) before it is
    validated or replayed (RecordError naming the field)."""
    for field, (cap, what) in caps.items():
        value = data.get(field)
        if isinstance(value, list) and len(value) > cap:
            raise RecordError(
                f"{field}: {len(value)} {what}, more than a record may hold ({cap})", field=field
            )


def _check_rules(rules_class: type[BaseModel], rules: dict[str, Any] | None) -> None:
    """A record's rules, validated strictly (RecordError, field ``rules``): JSON's own types
    only, so ``"wool": "30"`` or ``"variants": "cutting-costs"`` are refused, not coerced. (Rule
    sets from TOML or Python stay lenient: ``make(..., variants=["cutting-costs"])``.)"""
    if rules is None:
        return
    try:
        text = json.dumps(rules, allow_nan=False)
    except (TypeError, ValueError):
        raise RecordError("rules: the rule options are not JSON values", field="rules") from None
    try:
        rules_class.model_validate_json(text, strict=True, context={"strict": True})
    except ValidationError as e:
        raise RecordError(describe_validation_error(e, "rules"), field="rules") from None


def _first_problem(err: ValidationError) -> str:
    """The first problem of a record, naming its field; how many more there are, if any."""
    e = err.errors()[0]
    where = ".".join(str(p) for p in e["loc"])
    msg = problem_text(e)
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
    try:
        return game_spec(rec.game).record.new_state(rec)
    except RulesError as e:
        raise RecordError(str(e), field="rules") from None


def replay(data: Any) -> Replay:
    """Replay a record (anything :func:`parse_record` reads). A file that is not a valid record raises :class:`RecordError`; a move
    that breaks a rule ends the replay, reported in ``Replay.error`` with the state before it."""
    rec = parse_record(data)
    codec = game_spec(rec.game).record
    state = new_game_state(rec)
    names = tuple(p.name for p in rec.players)
    settle = codec.settler(state, rec)
    try:
        settle(state)
    except IllegalAction as e:  # the deal itself: only an explicit ``draws`` can be wrong
        raise RecordError(f"draws: the deal cannot be made: {e}", field="draws") from None
    for k, move in enumerate(rec.moves):
        try:
            trial = state.clone()
            codec.apply_move(trial, move)
            settle(trial)
        except IllegalAction as e:
            return Replay(state, k, RecordError(str(e), move=k), names)
        state = trial
    return Replay(state, len(rec.moves), None, names)


# -- writing ----------------------------------------------------------------------------------
#: the end reason of a game its turn limit stopped (whatever the game)
TURN_LIMIT = "turn-limit"


def end_reason(state: State) -> str | None:
    """Why a finished game ended, as its engine notes it (its view's ``ended_by``: Shave a
    Sheep ``middle``, ``target``, ``turns``; Dolly Crush ``dogs``, ``deck``, ``cleanup``,
    ``points``, ``rounds``), :data:`TURN_LIMIT` when the turn limit stopped it; None while it
    goes on, or for a game that names no reason."""
    if not state.is_terminal():
        return None
    view = state.observe(None)
    if view.get("truncated"):
        return TURN_LIMIT
    reason = view.get("ended_by")
    return str(reason) if reason else None


def to_record(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a game so far (whole turns; a turn in progress is left out)."""
    g = state.game
    codec = game_spec(g.name).record
    names = list(names) if names else [f"seat {i}" for i in range(g.num_players)]
    if len(names) != g.num_players:
        raise ValueError(f"{len(names)} names for {g.num_players} seats")
    rec: dict[str, Any] = {"format": FORMAT, "game": g.name}
    rec["players"] = codec.players(state, names)
    options = g.rules.options()
    if options:
        rec["rules"] = options
    rec["seed"] = state.seed
    codec.write_moves(state, rec)
    reason = end_reason(state)
    if reason is not None:
        rec["ended_by"] = reason
    return rec


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
def number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def summary(state: State, moves_applied: int) -> dict[str, Any]:
    """The ``sheepfold replay --json`` object, exactly as the contract lists it."""
    out: dict[str, Any] = {
        "game": state.game.name,
        "finished": state.is_terminal(),
        "scores": [number(s) for s in state.scores()],
        "winners": state.winners(),
        "moves_applied": moves_applied,
    }
    game_spec(state.game.name).record.summary(state, out)
    return out
