"""Dolly Crush's half of the record format (``docs/spec/records.md``): players with their breed,
moves as a dog card and its swaps, the deck, and ``draws`` when the cards drawn were not simply
the top of the deck."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, StrictInt, StrictStr, model_validator

from sheepfold.core.protocol import CHANCE, IllegalAction, State
from sheepfold.core.records import OpenModel, RecordBase, RecordCodec, RecordError
from sheepfold.games.dolly_crush.cards import RULEBOOK_BOARD, Board
from sheepfold.games.dolly_crush.game import DOG, DollyGame, DollyState
from sheepfold.games.dolly_crush.rules import DollyRules

Breed = Literal["pastore-maremmano", "australian-shepherd", "bobtail", "border-collie"]

#: the board of the record being validated (its rules'), for the cells and cards of its fields
_BOARD: ContextVar[Board] = ContextVar("dolly_record_board", default=RULEBOOK_BOARD)


def _board_of(data: Any) -> Board:
    """The board of a record's rules; the rulebook's if they are missing or wrong (the record's
    rules are checked on their own, with their own messages)."""
    rules = data.get("rules") if isinstance(data, dict) else None
    try:
        return DollyRules.model_validate(rules or {}).board()
    except (ValueError, TypeError):
        return RULEBOOK_BOARD


def _check_cell(name: str) -> str:
    _BOARD.get().parse_cell(name)  # ValueError: "'a0' is not a cell (a1..c5: row a-c, column 1-5)"
    return name


def _check_card(code: str) -> str:
    board = _BOARD.get()
    if board.card_code(board.parse_card(code)) != code:
        raise ValueError(f"{code!r} is not a card code: write it like ram-black (lower case)")
    return code


CellName = Annotated[StrictStr, AfterValidator(_check_cell)]
CardCode = Annotated[StrictStr, AfterValidator(_check_card)]


class DollyPlayer(OpenModel):
    name: StrictStr
    breed: Breed


class DollyMove(OpenModel):
    dog: StrictInt = Field(ge=0, le=7)
    swaps: list[tuple[CellName, CellName]]
    seat: StrictInt | None = Field(default=None, ge=0)


class DollyRecord(RecordBase):
    """A Dolly Crush record; its cells and cards are those of its rules' board."""

    game: Literal["dolly-crush"]
    players: list[DollyPlayer] = Field(min_length=2, max_length=4)
    deck: list[CardCode] | None = Field(default=None, min_length=1)
    draws: list[CardCode] | None = None
    moves: list[DollyMove]

    @model_validator(mode="wrap")
    @classmethod
    def _on_its_board(cls, data: Any, handler: Any) -> Any:
        token = _BOARD.set(_board_of(data))
        try:
            return handler(data)
        finally:
            _BOARD.reset(token)


class DrawSource:
    """Resolves Dolly Crush's draws: the deck's top card, or the record's explicit ``draws``."""

    def __init__(self, state: State, draws: Sequence[str] | None) -> None:
        assert isinstance(state, DollyState)
        card = state.game.board.parse_card
        self.draws = [card(c) for c in draws] if draws is not None else None
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
    assert isinstance(state, DollyState)
    if state.is_terminal():
        raise IllegalAction("the game is already over")
    seat = state.turn
    if move.seat is not None and move.seat != seat:
        raise IllegalAction(f"it is seat {seat}'s turn, not seat {move.seat}'s")
    assert state.phase == DOG
    game = state.game
    state.apply(move.dog)
    need = game.dog_swaps[seat][move.dog]
    breed = game.breeds[seat]
    made = len(move.swaps)
    if made > need or (made < need and game.stop is None):
        rule = "at most" if game.stop is not None else "ruling 7: exactly"
        raise IllegalAction(
            f"dog card {move.dog} of the {breed} shows {need} swap{'s' * (need != 1)}, but the move "
            f"makes {made} ({rule} as many swaps as the card shows)"
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
    if made < need and game.stop is not None:
        state.apply(game.stop)  # up-to swaps: the move stops early


class DollyCodec(RecordCodec):
    model = DollyRecord

    def check(self, rec: Any) -> None:
        breeds = [p.breed for p in rec.players]
        for i, b in enumerate(breeds):
            if breeds.index(b) != i:
                raise RecordError(
                    f"players.{i}.breed: {b} is already taken by seat {breeds.index(b)} "
                    "(each breed at most once)",
                    field=f"players.{i}.breed",
                )

    def new_state(self, rec: Any) -> State:
        from sheepfold.games import make

        game = make(
            "dolly-crush",
            players=len(rec.players),
            rules=rec.rules,
            breeds=[p.breed for p in rec.players],
        )
        assert isinstance(game, DollyGame)
        return game.new_initial_state(seed=rec.seed, deck=rec.deck)

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
            elif a == game.stop:
                assert current is not None
                moves.append(current)
            else:
                assert current is not None
                x, y = board.swaps[a - game.swap0]
                current["swaps"].append([board.cell_name(x), board.cell_name(y)])
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
            rec["draws"] = [board.card_code(c) for c in drawn]

    def summary(self, state: State, out: dict[str, Any]) -> None:
        assert isinstance(state, DollyState)
        out["flock"] = state.flock_codes()
        out["deck_size"] = len(state.deck) + len(state.returning)
        out["collected"] = state.observe(None)["collected"]
        out["dogs_left"] = [state.dogs_left(s) for s in range(state.game.num_players)]
