"""Dolly Crush's half of the record format (``docs/spec/records.md``): players with their breed,
moves as a dog card and its swaps, the deck, and ``draws`` when the cards drawn were not simply
the top of the deck.

A record carries its rules, and the rules say the board: cells (``d7`` on a flock of 4 rows or
more), card codes (the types in play), dog indexes (the dog cards of a breed) are checked against
the record's own rule set, with errors naming the field. Under ``"swaps": "up-to"`` a move may
list fewer swaps than its dog card shows: the turn stops after the last one listed (no extra
field is needed, a shorter list is unambiguous). Cascades, a points target and rounds are not
moves: they happen when the engine says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt, StrictStr, ValidationError

from sheepfold.core.protocol import CHANCE, IllegalAction, RulesError, State
from sheepfold.core.records import OpenModel, RecordBase, RecordCodec, RecordError
from sheepfold.games.dolly_crush.cards import Board
from sheepfold.games.dolly_crush.game import DOG, SWAP, DollyGame, DollyState
from sheepfold.games.dolly_crush.rules import DollyRules

Breed = Literal["pastore-maremmano", "australian-shepherd", "bobtail", "border-collie"]

#: the most dog cards a breed may have (``dogs_per_player``), hence the largest dog index + 1
MAX_DOGS: int = next(
    m.le for m in DollyRules.model_fields["dogs_per_player"].metadata if hasattr(m, "le")
)

# Cells and card codes are checked against the record's own board in DollyCodec.check (the
# model cannot know the rules); here only their type and a bounded length.
CellName = Annotated[StrictStr, Field(max_length=8)]
CardCode = Annotated[StrictStr, Field(max_length=40)]


class DollyPlayer(OpenModel):
    name: StrictStr
    breed: Breed


class DollyMove(OpenModel):
    dog: StrictInt = Field(ge=0, le=MAX_DOGS - 1)
    swaps: list[tuple[CellName, CellName]] = Field(max_length=100)
    seat: StrictInt | None = Field(default=None, ge=0)


class DollyRecord(RecordBase):
    game: Literal["dolly-crush"]
    players: list[DollyPlayer] = Field(min_length=2, max_length=4)
    deck: list[CardCode] | None = Field(default=None, min_length=1)
    draws: list[CardCode] | None = None
    moves: list[DollyMove]


def record_board(rec: Any) -> tuple[Board, DollyRules] | None:
    """The board and rules of a record (None when its rules are not valid: reported later)."""
    try:
        rules = DollyRules.model_validate(rec.rules or {})
    except (ValidationError, ValueError, TypeError):
        return None
    return rules.board(), rules


def _card_problem(board: Board, code: str) -> str | None:
    try:
        if board.card_code(board.parse_card(code)) != code:
            return f"{code!r} is not a card code: write it like ram-black (lower case)"
    except ValueError as e:
        return str(e)
    return None


class DrawSource:
    """Resolves Dolly Crush's draws: the deck's top card, or the record's explicit ``draws``."""

    def __init__(self, state: State, draws: Sequence[str] | None) -> None:
        board = state.game.board if isinstance(state, DollyState) else Board()
        self.draws = [board.parse_card(c) for c in draws] if draws is not None else None
        self.used = 0

    def settle(self, state: State) -> None:
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
    """One record move: the dog card, its swaps and, under "up-to" swaps with fewer swaps than
    the card shows, "stop" (IllegalAction naming the rule otherwise)."""
    assert isinstance(state, DollyState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    game = state.game
    seat = state.turn
    if move.seat is not None and move.seat != seat:
        raise IllegalAction(f"it is seat {seat}'s turn, not seat {move.seat}'s")
    assert state.phase == DOG
    if move.dog >= game.num_dogs:
        raise IllegalAction(
            f"there is no dog card {move.dog}: a breed has {game.num_dogs} dog cards "
            f"(0..{game.num_dogs - 1})"
        )
    reason = state.illegal_reason(move.dog)
    if reason:
        raise IllegalAction(reason)
    state.apply(move.dog)
    need = game.dog_swaps[seat][move.dog]
    breed = game.breeds[seat]
    up_to = game.stop is not None
    if len(move.swaps) > need or (not up_to and len(move.swaps) != need):
        rule = (
            "'up-to' swaps: at most as many as the card shows"
            if up_to
            else "ruling 7: exactly as many swaps as the card shows"
        )
        raise IllegalAction(
            f"dog card {move.dog} of the {breed} shows {need} swap{'s' * (need != 1)}, but the move "
            f"makes {len(move.swaps)} ({rule})"
        )
    for i, (a, b) in enumerate(move.swaps):
        try:
            action = game.swap_action(a.lower(), b.lower())
        except (IllegalAction, ValueError) as e:
            raise IllegalAction(f"swap {i + 1} ({a}-{b}): {e}") from None
        reason = state.illegal_reason(action)
        if reason:
            raise IllegalAction(f"swap {i + 1} ({a}-{b}): {reason}")
        state.apply(action)
    if up_to and state.phase == SWAP and state.turn == seat:  # stopped before the card's count
        assert game.stop is not None
        reason = state.illegal_reason(game.stop)
        if reason:
            raise IllegalAction(f"stop: {reason}")
        state.apply(game.stop)


#: the most cards a record's ``deck`` or ``draws`` may list: the largest deck the rules make
#: (8 types of 1000 white and 1000 black cards)
MAX_CARDS = 16_000


class DollyCodec(RecordCodec):
    model = DollyRecord
    caps = {"deck": (MAX_CARDS, "cards"), "draws": (MAX_CARDS, "cards")}  # noqa: RUF012

    def check(self, rec: Any) -> None:
        breeds = [p.breed for p in rec.players]
        for i, b in enumerate(breeds):
            if breeds.index(b) != i:
                raise RecordError(
                    f"players.{i}.breed: {b} is already taken by seat {breeds.index(b)} "
                    "(each breed at most once)",
                    field=f"players.{i}.breed",
                )
        found = record_board(rec)
        if found is None:
            return  # the rules are reported (strictly) by the caller, naming their field
        board, rules = found
        if rec.deck is not None and len(rec.deck) < board.cells:
            raise RecordError(
                f"deck: the deck has {len(rec.deck)} cards, the {board.rows} x {board.cols} "
                f"flock alone needs {board.cells}",
                field="deck",
            )
        for name in ("deck", "draws"):
            for i, code in enumerate(getattr(rec, name) or ()):
                problem = _card_problem(board, code)
                if problem:
                    raise RecordError(f"{name}.{i}: {problem}", field=f"{name}.{i}")
        dogs = rules.dogs_per_player
        for k, move in enumerate(rec.moves):
            if move.dog >= dogs:
                field = f"moves.{k}.dog"
                raise RecordError(
                    f"{field}: a breed has {dogs} dog cards (0..{dogs - 1}), not {move.dog}",
                    move=k,
                    field=field,
                )
            for i, pair in enumerate(move.swaps):
                for j, cell in enumerate(pair):
                    try:
                        board.parse_cell(cell)
                    except ValueError as e:
                        field = f"moves.{k}.swaps.{i}.{j}"
                        raise RecordError(f"{field}: {e}", move=k, field=field) from None

    def new_state(self, rec: Any) -> State:
        from sheepfold.games import make

        game = make(
            "dolly-crush",
            players=len(rec.players),
            rules=rec.rules,
            breeds=[p.breed for p in rec.players],
        )
        assert isinstance(game, DollyGame)
        try:
            return game.new_initial_state(seed=rec.seed, deck=rec.deck)
        except ValueError as e:  # a card code the rules do not know (checked above already)
            raise RulesError(str(e)) from None

    def settler(self, state: State, rec: Any) -> Any:
        return DrawSource(state, rec.draws).settle

    def apply_move(self, state: State, move: Any) -> None:
        apply_dolly_move(state, move)

    def players(self, state: State, names: Sequence[str]) -> list[dict[str, Any]]:
        assert isinstance(state, DollyState)
        return [{"name": nm, "breed": b} for nm, b in zip(names, state.game.breeds, strict=False)]

    def write_moves(self, state: State, rec: dict[str, Any]) -> None:
        assert isinstance(state, DollyState)
        game = state.game
        board = game.board
        rec["deck"] = [board.card_code(c) for c in state.initial_deck]
        moves: list[dict[str, Any]] = []
        drawn: list[int] = []
        current: dict[str, Any] | None = None
        need = 0
        for who, a in state.history:
            if who == CHANCE:
                drawn.append(a)
            elif a < game.swap0:
                current = {"dog": a, "swaps": []}
                need = game.dog_swaps[who][a]
                if need == 0:
                    moves.append(current)
            elif a == game.stop:  # "up-to": the turn ends before the card's count
                assert current is not None
                if len(current["swaps"]) < need:
                    moves.append(current)
            else:
                assert current is not None
                x, y = board.swaps[a - game.swap0]
                current["swaps"].append([board.cell_name(x), board.cell_name(y)])
                if len(current["swaps"]) == need:
                    moves.append(current)
        rec["moves"] = moves
        # Were the draws simply the top of the deck? If not (search, OpenSpiel), fix them explicitly.
        probe = game.new_initial_state(seed=state.seed, deck=list(state.initial_deck))
        explicit = False
        for who, a in state.history:
            if who == CHANCE and probe.sample_chance() != a:
                explicit = True
            probe.apply_unchecked(a)
        if explicit:
            rec["draws"] = [board.card_code(c) for c in drawn]

    def summary(self, state: State, out: dict[str, Any]) -> None:
        assert isinstance(state, DollyState)
        out["flock"] = state.flock_codes()
        out["deck_size"] = len(state.deck) + len(state.returning)
        out["collected"] = state.observe(None)["collected"]
        out["dogs_left"] = [state.dogs_left(s) for s in range(state.game.num_players)]
