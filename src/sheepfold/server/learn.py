"""Learn to play: a guided first game against a gentle bot, and the illustrated rules pages.

Pages::

    GET  /learn/{game}               the tutorial's start (learn.html): a name, then a lesson table
    GET  /learn/{game}/{table_id}    the lesson: the table page with the coach (learn.js) beside it
    GET  /rules/{game}               the rules in our words, illustrated (rules-{game}.html)

API (JSON)::

    POST /api/learn/{game}           {"name", "seed"?} -> {"table", "token", "url"}: a lesson table
                                     (the lesson's rules and gentle bot; private; the person sits
                                     in seat 1 and starts), its seat taken
    POST /api/tables/{id}/hint       {"token"} -> {"seq", "actions", "gain"}: what the coach
                                     would play for that seat from this position to the end of
                                     its decisions (action names; none while it is not the
                                     seat's decision) and the points they score

The coach's suggestions come from a bot (the greedy level) playing on the seat's own view, so
the page never computes a rule itself (docs/spec/principles.md). A hint is given only at a table
where every other seat is a bot: nobody plays against a person who is being coached. Hints are
decided in the server's bot pool (bounded, with its deadline) and counted against the client's
``read`` rate; each position's hint is computed once.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sheepfold.core.words import Msg
from sheepfold.server.api_site import STATIC
from sheepfold.server.clients import CLIENT, ClientDep, ManagerDep
from sheepfold.server.table_requests import CreateTable, SeatSpec, missing_table, resolve_spec
from sheepfold.server.texts import Name


@dataclass(frozen=True)
class Lesson:
    """A game's first table: its rules, the gentle bot and the bot whose moves the coach
    suggests."""

    ruleset: str
    bot: str
    bot_name: str
    coach: str = "greedy"


LESSONS = {
    # the graded dog cards (1 to 4 swaps): a first turn of one swap is easy to follow
    "dolly-crush": Lesson(ruleset="dolly-graded", bot="easy", bot_name="Shaun"),
    "shave-a-sheep": Lesson(ruleset="shave-rulebook", bot="random", bot_name="Shaun"),
}
MAX_PLAN = 16  # decisions in one hint, at most (a Dolly Crush turn: a dog card and 4 swaps)
CACHED_HINTS = 512


class NewLesson(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name = Field(min_length=1)
    seed: int | None = Field(default=None, ge=0, lt=2**63)  # a test server's (--dev-seeds) only


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


def lesson_of(game: str) -> Lesson:
    """The lesson of ``game`` (404 naming the games that have one)."""
    lesson = LESSONS.get(game)
    if lesson is None:
        raise HTTPException(404, f"no lesson for {game!r} (lessons: {', '.join(LESSONS)})")
    return lesson


def coach_plan(state: Any, game: Any, seat: int, coach: str) -> dict[str, Any]:
    """The decisions the coach bot makes for ``seat`` from ``state`` on, as action names, until
    the seat's decisions end (another seat's turn, chance or the end of the game), and what they
    add to the seat's score (``gain``)."""
    from sheepfold.bots import make_bot

    bot = make_bot(coach, game, seat, seed=0)
    trial = state.clone()
    plan: list[str] = []
    while len(plan) < MAX_PLAN and not trial.is_terminal() and trial.current_player() == seat:
        action = bot.act(trial.observe(seat))
        plan.append(trial.action_to_string(action))
        trial.apply(action)
    gain = trial.scores()[seat] - state.scores()[seat]
    return {"actions": plan, "gain": int(gain) if float(gain).is_integer() else gain}


def lesson_table_page(static: Any) -> str:
    """The table page with the coach: table.html, its coach box before the banner and learn.js
    after table.js (the table page stays the one source of the table's markup)."""
    html = (static / "table.html").read_text(encoding="utf-8")
    # outside the f-string: the catalog's extractor reads no call inside one
    label, title = Msg("your coach"), Msg("Your coach")
    coach = (
        f'<aside class="coach panel" id="coach" aria-label="{label}" aria-live="polite">'
        f'<h2 id="coach-title">{title}</h2><div id="coach-step"></div>'
        '<div id="coach-happened"></div></aside>\n  '
    )
    parts = {
        '<div id="banner"': coach + '<div id="banner"',
        '<script src="/static/table.js"></script>': (
            '<script src="/static/table.js"></script>\n<script src="/static/learn.js"></script>'
        ),
        '<link rel="stylesheet" href="/static/app.css">': (
            '<link rel="stylesheet" href="/static/app.css">\n'
            '<link rel="stylesheet" href="/static/learn.css">'
        ),
    }
    for anchor, replacement in parts.items():
        if html.count(anchor) != 1:  # a changed table page: say so, never serve half a lesson
            raise RuntimeError(f"table.html: the lesson's anchor {anchor!r} is not there once")
        html = html.replace(anchor, replacement)
    return html.replace('class="table"', 'class="table lesson"', 1)


#: the lessons' API: every route has its client (server/clients.py)
router = APIRouter(dependencies=CLIENT)
pages = APIRouter()  # the lesson pages and the rules pages


def page(name: str) -> FileResponse:
    path = STATIC / name
    if not path.exists():
        raise HTTPException(404, "this page is not installed on this server")
    return FileResponse(path)


@pages.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str) -> FileResponse:
    lesson_of(game)
    return page("learn.html")


@pages.get("/learn/{game}/{table_id}", include_in_schema=False)
async def lesson_page(game: str, table_id: str) -> HTMLResponse:
    lesson_of(game)
    return HTMLResponse(lesson_table_page(STATIC))


@pages.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str) -> FileResponse:
    lesson_of(game)
    return page(f"rules-{game}.html")


@router.post("/api/learn/{game}", status_code=201)
async def new_lesson(game: str, req: NewLesson, m: ManagerDep, who: ClientDep) -> dict[str, Any]:
    lesson = lesson_of(game)
    client = who.key
    who.take("create")
    m.check_open_tables(client)
    spec = CreateTable(
        game=game,
        ruleset=lesson.ruleset,
        seats=[SeatSpec(), SeatSpec(kind="bot", bot=lesson.bot, name=lesson.bot_name)],
        private=True,  # a lesson is nobody else's table: never listed in the lobby
        replace_leavers=False,  # the lesson waits for its learner
        first_player=0,
        seed=req.seed,
    )
    table = await m.create_async({**resolve_spec(spec), "gallery": None, "creator": client})
    who.take("join")
    # the learner's name is numbered if it looks like the bot's (the lesson chose that one)
    name = table.seating.free_name(req.name.strip() or "player", 0)
    seat, token = table.take_seat(name, 0, client)
    return {"table": table.id, "seat": seat, "token": token, "url": f"/learn/{game}/{table.id}"}


def hints_of(conn: HTTPConnection) -> OrderedDict[tuple[str, int, int], dict[str, Any]]:
    """The coach's last plans of this app (by table, move and seat)."""
    state = conn.app.state
    if not hasattr(state, "lesson_hints"):
        state.lesson_hints = OrderedDict()
    return state.lesson_hints  # type: ignore[no-any-return]


@router.post("/api/tables/{table_id}/hint")
async def hint(
    table_id: str,
    req: HintRequest,
    m: ManagerDep,
    who: ClientDep,
    hints: Annotated[OrderedDict[tuple[str, int, int], dict[str, Any]], Depends(hints_of)],
) -> dict[str, Any]:
    from sheepfold.server.bot_pool import TooSlow

    who.take("read")
    t = await m.get_async(table_id)
    if t is None:
        raise HTTPException(*missing_table(m, table_id))
    seat = t.seat_of_token(req.token)
    if seat is None:
        raise HTTPException(403, "this seat token is not valid at this table")
    if any(s.kind != "bot" for s in t.seats if s.seat != seat):
        raise HTTPException(
            409, "the coach helps only at a table where every other player is a bot"
        )
    key = (t.id, t.stored, seat)
    if t.dirty or t.finished() or t.state.current_player() != seat:
        return {"seq": t.stored, "actions": [], "gain": 0}
    if key not in hints:
        lesson = LESSONS.get(t.name, Lesson("", "", "", coach="greedy"))
        state, game = t.state.clone(), t.game
        try:
            plan = await m.bot_pool.decide(
                ("coach", t.id), lambda: coach_plan(state, game, seat, lesson.coach)
            )
        except TooSlow:
            raise HTTPException(503, "the coach is busy: ask again in a moment") from None
        hints[key] = plan
        while len(hints) > CACHED_HINTS:
            hints.popitem(last=False)
    return {"seq": key[1], **hints[key]}
