"""What a request asks of the tables: a table's settings (``CreateTable``, checked by
:func:`resolve_spec` against the rules, the bots and the rule sets), a seat (``Join``), and
the answers about a table that is not served. Shared by the tables' API (server/api_tables.py)
and the lessons (server/learn.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field, field_validator

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg, text_of
from sheepfold.server.seating import CHOSEN, DRAWN, rules_say_who_starts, turn_seats
from sheepfold.server.texts import Name, rules_text_problems

if TYPE_CHECKING:
    from sheepfold.server.tables import Table, TableManager

BOT_NAMES = ("Dolly", "Shaun", "Timmy", "Bella")  # a bot's name by seat; its level shows beside it


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=64)
    name: Name | None = None


class GalleryRef(BaseModel):
    """A published rule set's version (server/gallery.py)."""

    model_config = ConfigDict(extra="forbid")
    slug: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=1, le=1_000_000)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)  # a registered game's name (checked below)
    ruleset: str | None = Field(default=None, max_length=64)
    gallery: GalleryRef | None = None  # instead of ruleset and rules
    rules: dict[str, Any] | None = None  # options on top of the rule set (e.g. {"wool": 10})
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    breeds: list[Annotated[str, Field(max_length=64)]] | None = Field(default=None, max_length=4)
    show_scores: bool = True
    replace_leavers: bool = True
    replacement_bot: str = Field(default="random", max_length=64)
    auto_roll: bool = False
    first_player: int | Literal["random"] | None = None
    private: bool = False  # reached by its invite link only, never listed in the lobby
    own_pace: bool = False  # played over days: seats wait for their people, no bot stands in
    # a turn clock (server/clock.py): hours per move (None: no clock), and what happens past it
    turn_clock_hours: int | None = Field(default=None, ge=1, le=30 * 24)
    out_of_time: Literal["bot", "skip"] = "bot"
    # who may sit: anyone, or the host's friends only (with the host's profile: server/friends.py)
    who_may_sit: Literal["anyone", "friends"] = "anyone"
    seed: int | None = Field(default=None, ge=0, lt=2**256)

    @field_validator("game")
    @classmethod
    def _known_game(cls, v: str) -> str:
        from sheepfold.core.registry import find_game, game_names

        if find_game(v) is None:
            raise ValueError(
                Msg("no game {game} (games: {games})", game=repr(v), games=", ".join(game_names()))
            )
        return v


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name = Field(min_length=1)
    seat: int | None = Field(default=None, ge=0, le=3)


def _check_bot(game: str, spec: str) -> str:
    """The bot exists (else 400) and its options are within its declared limits (else 422)."""
    from sheepfold.bots import BotOptionError, check_options

    try:
        return check_options(game, spec)
    except BotOptionError as e:
        raise HTTPException(422, text_of(e)) from None


def whole_rules(options: dict[str, Any]) -> dict[str, Any]:
    """A gallery version's options (every option that differs from the printed rules) as a
    table's rules: on the printed rules, not on the game's default rule set."""
    from sheepfold.rulesets import BASE_KEY, RULEBOOK

    return {BASE_KEY: RULEBOOK, **options}


def resolve_spec(req: CreateTable) -> dict[str, Any]:
    """Check a create request against the rules, bots and rule sets; a plain spec dict."""
    from sheepfold.rulesets import BASE_KEY, RULEBOOK, TEXTS, default_base, resolve

    given = dict(req.rules or {})
    if req.ruleset is not None:
        if BASE_KEY in given:
            raise SheepfoldError(
                Msg(
                    "rules.{key}: the rule set these rules start from is given twice (ruleset "
                    "and rules.{key}): give it once",
                    key=BASE_KEY,
                )
            )
        given[BASE_KEY] = req.ruleset
    # the options read as a rule file's are, by the one resolver: their own base (ruleset or
    # rules.from), else the game's default rule set (a table created without options is fair:
    # Dolly Crush's dolly-graded, the same dog cards for every seat, as in every front end), or
    # the printed rules when the seats' breeds are given (their printed cards, as at the
    # terminal)
    start = RULEBOOK if req.breeds is not None else default_base(req.game)
    named = given.get(BASE_KEY, start)
    model = resolve(req.game, given, start=start)
    if named != RULEBOOK and isinstance(named, str):
        req = req.model_copy(update={"ruleset": named})
        base = resolve(req.game, named)
        # the table keeps the rule set's name and description unless the rules say their own
        kept = {k: getattr(base, k) for k in TEXTS if k not in given}
        model = model.model_copy(update=kept)
    rules = model.model_dump(mode="json", exclude_defaults=True)
    texts = rules_text_problems(rules)
    if texts:
        from sheepfold.core.errors import join_problems

        raise HTTPException(422, join_problems(texts))
    seats = [s.model_dump() for s in req.seats]
    for i, s in enumerate(seats):
        if s["kind"] == "bot":
            s["bot"] = _check_bot(req.game, s["bot"] or "random")
            s["name"] = (s["name"] or "").strip() or BOT_NAMES[i]
    replacement = _check_bot(req.game, req.replacement_bot)
    from sheepfold.server.rules_api import table_cost_refusal

    refusal = table_cost_refusal(req.game, model, seats, replacement)
    if refusal is not None:  # what a game would cost, over a web table's (bots/costs.py)
        raise HTTPException(422, refusal)
    breeds = req.breeds
    if breeds is not None and len(breeds) != len(seats):
        raise SheepfoldError(
            Msg("breeds: {n} given for {seats} seats", n=len(breeds), seats=len(seats))
        )
    first = req.first_player
    if first is None and not rules_say_who_starts(model):
        first = DRAWN  # strangers' table: drawn when its seed is known (TableManager._set_up)
    if isinstance(first, int) and not 0 <= first < len(seats):
        raise SheepfoldError(Msg("first_player: there is no seat {first}", first=first))
    spec = {
        "game": req.game,
        "ruleset": req.ruleset,
        "rules": rules,
        "seats": seats,
        "breeds": breeds,
        "show_scores": req.show_scores,
        "replace_leavers": req.replace_leavers and not req.own_pace,
        "own_pace": req.own_pace or None,
        "turn_clock": req.turn_clock_hours * 3600 if req.turn_clock_hours else None,
        "out_of_time": req.out_of_time if req.turn_clock_hours else None,
        "replacement_bot": replacement,
        "auto_roll": req.auto_roll,
        "private": req.private or req.who_may_sit == "friends",  # never listed in the lobby
        "friends_only": req.who_may_sit == "friends" or None,
        "seed": req.seed,
        "first": DRAWN if first == DRAWN else CHOSEN if first is not None else None,
    }
    if isinstance(first, int):
        from sheepfold.core.protocol import first_seat_of

        # who starts is one setting: the chosen seat sits where the rules let start (seat 0,
        # or a rule file's [setup] first), replacing it; each seat keeps its breed
        turn_seats(spec, first, first_seat_of(model))
    return spec


def seat_link(table_id: str, token: str) -> str:
    """The address that takes this seat on any device (``/t/ID#seat=TOKEN``)."""
    return f"/t/{table_id}#seat={token}"


def missing_table(m: TableManager, table_id: str) -> tuple[int, str]:
    """The status and message for a table that is not served: quarantined, or unknown."""
    if table_id in m.quarantined:
        return 503, Msg(
            "table {table} is damaged and not served (quarantined); 'sheepfold db check' on "
            "the server says what is wrong",
            table=repr(table_id),
        )
    return 404, Msg("no table {table}", table=repr(table_id))


async def table_or_404(m: TableManager, table_id: str) -> Table:
    """The table ``table_id`` this server serves (else 404, or 503 for a quarantined one)."""
    t = await m.get_async(table_id)
    if t is None:
        raise HTTPException(*missing_table(m, table_id))
    return t
