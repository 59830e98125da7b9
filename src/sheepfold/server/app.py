"""The web app: an HTTP API for tables, a WebSocket per client for play, and the pages.

``create_app(db_url)`` builds a FastAPI app; ``sheepfold serve`` runs it with uvicorn. Every
asset (HTML, CSS, JavaScript, symbols) is a file in ``static/`` served by the app: no CDN,
no build step.

HTTP API (JSON)::

    GET  /api/games                 games, their rule sets, bots and breeds
    GET  /api/tables                the open and recent tables
    POST /api/tables                create a table  -> its public info
    GET  /api/tables/{id}           one table's public info
    POST /api/tables/{id}/join      {"name": ..., "seat": optional} -> {"seat", "token", "seat_link"}
                                    (with a profile's X-Sheepfold-Profile: the seat is its)
    POST /api/tables/ready          whether a table of these settings opens now (the perfect
                                    bot's wait, in words), without opening it
    GET  /api/tables/{id}/rules     its house rules in words (server/plain_words.py)
    GET  /api/tables/{id}/replay    a finished game, move by move (public views)
    GET  /api/tables/{id}/record    a finished game's record (sheepfold-record/1, with "house")
    POST /api/tables/{id}/again     play again: the next table, same settings and seats
    GET  /api/rules/{game}          the game's rule options and rule sets (server/rules_api.py)
    POST /api/rules/{game}/check    a rule set checked by the rules model, and its TOML file
    *    /api/gallery/...           the rule-set gallery (server/gallery.py, docs/gallery.md)
    *    /api/profiles/...          players' profiles, histories, "Your tables" (server/profiles.py)
    GET  /api/leaderboard/{game}    the game's rated people (server/ratings.py)
    GET  /api/i18n/{lang}           a language's catalog for scripts (server/i18n.py, docs/web.md)
    WS   /ws/{id}                   play and watch (see docs/web.md for the messages)
    GET  /healthz                   the database answers and accepts a write (503 if not)

Every page and answer carries a Content-Security-Policy (scripts, styles and connections from
this server only; no framing) and ``X-Content-Type-Options: nosniff``. Every request's body is
bounded before it is read (413), and the requests that cost CPU are limited per client address
(``ROUTES``, server/limits.py): 429 with what to wait. A stranger's texts pass server/texts.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg, text_of
from sheepfold.server import i18n
from sheepfold.server.broadcast import DIRECT
from sheepfold.server.cluster import OWNER_HEADER, Relay, make_manager
from sheepfold.server.gallery import MAX_PUBLISH, Gallery, add_gallery_api, house_of
from sheepfold.server.gallery_lab import LabQueue
from sheepfold.server.gallery_store import GalleryStore
from sheepfold.server.learn import add_learn
from sheepfold.server.limits import RateLimited, RequestGuard, Route, message_problem
from sheepfold.server.profiles import HEADER, Profiles, add_profiles_api
from sheepfold.server.rules_api import (
    MAX_BODY,
    MAX_WITH_RULES,
    TOO_BIG,
    add_rules_api,
    ending_refused,
)
from sheepfold.server.solutions import NotReady
from sheepfold.server.storage import StorageUnhealthy
from sheepfold.server.tables import Conn, Settings, TableManager
from sheepfold.server.texts import Name, rules_text_problems

if TYPE_CHECKING:
    from sheepfold.server.connections import Direct

STATIC = Path(str(resources.files("sheepfold.server") / "static"))


BOT_NAMES = ("Dolly", "Shaun", "Timmy", "Bella")  # a bot's name by seat; its level shows beside it

#: every page's policy: everything from this server, nothing inline, never inside a frame
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: Swagger UI (only with Settings.api_docs): its scripts and styles come from a CDN, one inline
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "frame-ancestors 'none'"
)


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
    import random

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
    breeds = req.breeds
    if breeds is not None and len(breeds) != len(seats):
        raise SheepfoldError(
            Msg("breeds: {n} given for {seats} seats", n=len(breeds), seats=len(seats))
        )
    first = req.first_player
    if first == "random":
        first = random.SystemRandom().randrange(len(seats))
    if first is not None:
        if not 0 <= first < len(seats):
            raise SheepfoldError(Msg("first_player: there is no seat {first}", first=first))
        from sheepfold.core.play import seats_starting_with
        from sheepfold.core.protocol import first_seat_of

        # who starts is one setting: the chosen seat sits where the rules let start (seat 0,
        # or a rule file's [setup] first), replacing it; each seat keeps its breed
        starts = first_seat_of(model)
        seats = seats_starting_with(seats, first, starts)
        breeds = seats_starting_with(breeds, first, starts) if breeds else breeds
    return {
        "game": req.game,
        "ruleset": req.ruleset,
        "rules": rules,
        "seats": seats,
        "breeds": breeds,
        "show_scores": req.show_scores,
        "replace_leavers": req.replace_leavers and not req.own_pace,
        "own_pace": req.own_pace or None,
        "replacement_bot": _check_bot(req.game, req.replacement_bot),
        "auto_roll": req.auto_roll,
        "private": req.private,
        "seed": req.seed,
    }


#: the routes whose requests the guard bounds or rate-limits (server/limits.py); every other
#: request's body is bounded by Settings.max_body
ROUTES = (
    Route(
        "POST",
        r"/api/rules/[^/]+/check",
        body=MAX_BODY,
        limit="check",
        too_big=TOO_BIG,
    ),
    Route("POST", r"/api/tables", body=MAX_WITH_RULES),  # a rule set the check accepts fits
    Route("POST", r"/api/tables/ready", body=MAX_WITH_RULES, limit="check"),
    Route("GET", r"/api/rules/[^/]+", limit="read"),
    Route("GET", r"/api/games", limit="read"),
    Route("GET", r"/api/tables", limit="lobby"),
    Route("GET", r"/api/tables/[^/]+/(replay|record|rules)", limit="read"),
    Route("GET", r"/api/gallery/[^/]+", limit="read"),  # the gallery's search (it scans)
    Route("POST", r"/api/gallery/.+", body=MAX_PUBLISH),
    Route("POST", r"/api/profiles", limit="profile"),
    Route("GET", r"/api/(profiles|leaderboard)/.+", limit="read"),
)


GC_YOUNG = 20_000
"""Container allocations between two collections of the young generation (the default: 700)."""


def client_of(conn: Request | WebSocket) -> str:
    """The client's address: what the limits are counted by."""
    return conn.client.host if conn.client else "unknown"


def create_app(db: str = "sheepfold.db", settings: Settings | None = None) -> FastAPI:
    storage_holder: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager = make_manager(db, settings)  # many processes on PostgreSQL: server/cluster.py
        manager.start()
        lab = LabQueue(GalleryStore(manager.storage), manager.settings)
        storage_holder["g"] = app.state.gallery = Gallery(manager, lab.store, lab)
        storage_holder["p"] = app.state.profiles = Profiles(manager)
        storage_holder["p"].catch_up()  # results a stopped server did not write
        lab.start()
        # Everything loaded so far lives as long as the server: keep it out of the collector's
        # full passes (a full pass over the imported libraries pauses every table for ~50 ms).
        gc.collect()
        gc.freeze()
        # A move allocates a few hundred containers (its views, its log entries), nearly all
        # freed at once by their counts: the default young generation (700) ran a collection
        # every move or two, about a tenth of the server's CPU per move (perf). Collected every
        # GC_YOUNG allocations instead, each pass still visits only what is alive.
        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        app.state.manager = manager
        storage_holder["m"] = manager
        yield
        await lab.close()
        await manager.close()

    docs = (settings or Settings()).api_docs
    app = FastAPI(
        title="sheepfold",
        lifespan=lifespan,
        docs_url="/api/docs" if docs else None,  # off by default: it loads scripts from a CDN
        redoc_url=None,
    )

    def manager() -> TableManager:
        return storage_holder["m"]

    def gallery() -> Gallery:
        return storage_holder["g"]

    def said(request: Any, words: Any) -> Any:
        """Words (an error's detail) in the request's language (server/i18n.py)."""
        return i18n.localize(words, getattr(request.state, "lang", i18n.DEFAULT))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """FastAPI's answer to an HTTP error, its detail in the request's language."""
        exc.detail = said(request, exc.detail)
        return await http_exception_handler(request, exc)

    @app.exception_handler(SheepfoldError)
    async def _engine_error(request: Request, exc: SheepfoldError) -> JSONResponse:
        status = exc.status if isinstance(exc, NotReady) else 400
        return JSONResponse({"detail": said(request, text_of(exc))}, status_code=status)

    @app.exception_handler(RateLimited)
    async def _limited(request: Request, exc: RateLimited) -> JSONResponse:
        wait = {"Retry-After": str(exc.wait)} if exc.wait is not None else None
        detail = said(request, text_of(exc))
        return JSONResponse({"detail": detail}, status_code=429, headers=wait)

    @app.exception_handler(StorageUnhealthy)
    async def _unhealthy(_req: Any, exc: StorageUnhealthy) -> JSONResponse:
        return JSONResponse({"detail": f"nothing was saved: {exc}"}, status_code=503)

    @app.exception_handler(OperationalError)
    async def _refused(_req: Any, exc: OperationalError) -> JSONResponse:
        """The database refused a write (a full disk, a lost connection): the documented
        503, never a bare 500 (each write is one transaction: nothing was half-saved)."""
        why = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else "an error"
        detail = f"nothing was saved: the database does not accept a write ({why})"
        return JSONResponse({"detail": detail}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 with the field and the problem in words (``seats.0.name: ...``), or the body's
        own (no body, not JSON)."""
        from sheepfold.core.errors import body_problem, join_problems, problem_text

        problems = [
            ("", whole)
            if (whole := body_problem(e)) is not None
            else (".".join(str(p) for p in e["loc"][1:] if p != "__root__"), problem_text(e))
            for e in exc.errors()
        ]
        return JSONResponse({"detail": said(request, join_problems(problems))}, status_code=422)

    limits = (settings or Settings()).max_body
    app.add_middleware(
        RequestGuard,
        routes=ROUTES,
        default_body=limits,
        limiters=lambda: storage_holder["m"].limits if "m" in storage_holder else None,
    )
    app.add_middleware(Relay, manager=lambda: storage_holder.get("m"))
    _add_headers(app)
    _add_pages(app)
    _add_api(app, manager, gallery)
    add_rules_api(app)
    add_gallery_api(app, gallery)
    add_profiles_api(app, manager, lambda: storage_holder["p"])
    add_learn(app, manager, STATIC)  # the lessons and the rules pages (server/learn.py)
    _add_websocket(app, manager)
    return app


def _add_headers(app: FastAPI) -> None:
    """The security headers, on every HTTP answer (pages, files, the API, errors)."""

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Any:
        response = await call_next(request)
        docs = request.url.path.startswith("/api/docs")
        response.headers["Content-Security-Policy"] = DOCS_CSP if docs else CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response


def _add_pages(app: FastAPI) -> None:
    """The HTML pages and the static files; every page in its reader's language
    (server/i18n.py: ``?lang=``, remembered in a cookie, else the cookie, else the browser's)."""

    @app.middleware("http")
    async def language(request: Request, call_next: Callable[[Request], Any]) -> Any:
        asked = i18n.known(request.query_params.get("lang"))
        lang = i18n.choose(
            asked, request.cookies.get(i18n.COOKIE), request.headers.get("accept-language")
        )
        request.state.lang = lang
        response = await call_next(request)
        if response.headers.get("content-type", "").startswith("text/html"):
            body = b"".join([chunk async for chunk in response.body_iterator])
            headers = {
                k: v
                for k, v in response.headers.items()
                if k not in ("content-length", "etag", "last-modified", "content-type")
            }
            response = Response(
                i18n.page(body.decode("utf-8"), lang),
                status_code=response.status_code,
                headers=headers,
                media_type="text/html",
            )
            response.headers["Content-Language"] = lang
            response.headers["Vary"] = "Accept-Language, Cookie"
            response.headers["Cache-Control"] = "no-cache"
        if asked is not None:  # the switch's choice, remembered for the next pages
            response.set_cookie(i18n.COOKIE, asked, max_age=365 * 86400, samesite="lax")
        return response

    @app.get("/api/i18n/{lang}")
    async def catalog(lang: str) -> Response:
        """A language's catalog for scripts (English text -> its words), as the pages have it."""
        if i18n.known(lang) != lang:
            raise HTTPException(
                404,
                Msg(
                    "no language {lang} (languages: {languages})",
                    lang=repr(lang[:8]),
                    languages=", ".join(i18n.catalogs()),
                ),
            )
        return Response(i18n.catalog_json(lang), media_type="application/json")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _add_api(
    app: FastAPI, manager: Callable[[], TableManager], gallery: Callable[[], Gallery]
) -> None:
    """The HTTP API (JSON)."""

    def table_or_404(table_id: str) -> Any:
        t = manager().get(table_id)
        if t is None:
            raise HTTPException(*missing_table(manager(), table_id))
        return t

    @app.get("/healthz")
    async def health() -> JSONResponse:
        m = manager()
        try:
            stored = m.storage.check_health()
        except StorageUnhealthy as e:
            return JSONResponse({"ok": False, "detail": str(e), "db": m.storage.kind}, 503)
        return JSONResponse(
            {
                "ok": True,
                "tables": len(m.tables),
                "stored": stored,
                "quarantined": len(m.quarantined),
                "db": m.storage.kind,
            }
        )

    @app.get("/api/games")
    async def games(request: Request) -> dict[str, Any]:
        from sheepfold.bots import available_bots
        from sheepfold.bots.warmup import not_ready
        from sheepfold.core.registry import game_names, game_spec
        from sheepfold.rulesets import all_rulesets
        from sheepfold.server.plain_words import is_rulebook, levels, ruleset_title

        out = {}
        for g in game_names():
            spec = game_spec(g)
            if not spec.listed:  # an example game: played by name only, not offered
                continue
            bots = available_bots(g)
            out[g] = {
                "title": spec.title,
                "bots": bots,  # every bot, for programs (the API)
                "levels": levels(g),  # the bots a family is offered, in words
                # bots whose compiled code for the default rules is still compiling
                # (server/warmup.py), in words
                "preparing": not_ready(list(bots), g),
                "rulesets": [
                    {
                        "name": r.name,
                        # a built-in rule set's words are the catalog's (i18n.extract_presets)
                        "title": Msg(ruleset_title(g, r.name)),
                        "description": Msg(r.rules.description or ""),
                        "rulebook": is_rulebook(g, r.rules),  # plays the rulebook's game
                    }
                    for r in all_rulesets(g)
                ],
            }
            if spec.breeds:
                out[g]["breeds"] = [{"name": b, "title": t} for b, t in spec.breeds.items()]
        return i18n.localize(out, request.state.lang)  # the levels' words in the reader's

    @app.get("/api/tables")
    async def list_tables() -> Response:
        """The lobby (built once for many requests: TableManager.lobby_listing)."""
        return Response(manager().lobby_listing(), media_type="application/json")

    @app.post("/api/tables", status_code=201)
    async def create_table(
        req: CreateTable, request: Request, response: Response
    ) -> dict[str, Any]:
        m, client = manager(), client_of(request)
        m.limits["create"].take(client)
        m.check_open_tables(client)
        house = None
        if req.gallery is not None:
            if req.ruleset or req.rules:
                raise HTTPException(
                    400, Msg("gallery: give a gallery rule set or ruleset/rules, not both")
                )
            house, rules = house_of(gallery(), req.game, req.gallery.slug, req.gallery.version)
            rules = whole_rules(rules)
            req = req.model_copy(update={"rules": rules, "gallery": None})
        spec = resolve_spec(req)
        refusal = await ending_refused(
            req.game, m.make_game(req.game, len(spec["seats"]), spec).rules
        )
        if refusal is not None:  # the words of 'sheepfold rules check' and the rules check
            raise HTTPException(422, refusal)
        table = m.create({**spec, "gallery": house, "creator": client})
        response.headers[OWNER_HEADER] = table.id  # a balancer sends its requests here
        return {**table.public_info(), "invite": f"/t/{table.id}"}

    @app.post("/api/tables/ready")
    async def ready(req: CreateTable, request: Request, start: bool = False) -> dict[str, Any]:
        """Whether a table of these settings would open now: ``ready``, else the perfect bot's
        ``wait`` (seconds; ``start``: its solving starts now) or why it cannot play, and the
        ``message`` in words. Nothing is opened."""
        from sheepfold.server.plain_words import perfect_words
        from sheepfold.server.tables import perfect_seats

        if req.gallery is not None:
            _, rules = house_of(gallery(), req.game, req.gallery.slug, req.gallery.version)
            rules = whole_rules(rules)
            req = req.model_copy(update={"rules": rules, "gallery": None, "ruleset": None})
        spec = resolve_spec(req)
        seats = perfect_seats(spec["seats"], spec["replacement_bot"])
        players = len(spec["seats"])
        wait, why = None, None
        if seats:
            game = manager().make_game(spec["game"], players, spec)
            solutions = manager().solutions
            try:
                if start:  # on the event loop, as a table's creation: one job at a time
                    solutions.require(game, seats)
                else:  # counting the positions takes a while: not on the event loop
                    await asyncio.to_thread(solutions.require, game, seats, False)
            except NotReady as e:
                wait, why = e.wait, e.why or "not here"
        ready = not seats or (wait is None and why is None)
        return {
            "ready": ready,
            "wait": wait,
            "message": i18n.localize(
                perfect_words(ready, players, wait, why) if seats else "", request.state.lang
            ),
        }

    @app.get("/api/tables/{table_id}/rules")
    async def table_rules(table_id: str, request: Request) -> dict[str, Any]:
        """A table's rules in words: what they change from the rulebook, a sentence each."""
        from sheepfold.server.plain_words import house_rules, ruleset_title

        t = table_or_404(table_id)
        name = t.config.get("ruleset")
        words = {
            "ruleset": Msg(ruleset_title(t.name, name)) if name else None,  # a preset's: Italian
            "house_rules": house_rules(t.name, t.config.get("rules") or {}),
        }
        return i18n.localize(words, request.state.lang)

    @app.post("/api/tables/{table_id}/again")
    async def again(table_id: str, request: Request, response: Response) -> dict[str, Any]:
        """Play again: a new table with a finished table's settings and seats (201), or the
        one already opened after it (200)."""
        m, client, old = manager(), client_of(request), table_or_404(table_id)
        if not old.finished():
            raise HTTPException(409, Msg("the game is not over yet"))
        if old.next_id is None or m.get(old.next_id) is None:
            m.limits["create"].take(client)
            m.check_open_tables(client)
            response.status_code = 201
        table = m.again(old, client)
        response.headers[OWNER_HEADER] = table.id  # a balancer sends its requests here
        return {**table.public_info(), "invite": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).public_info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, req: Join, request: Request) -> dict[str, Any]:
        t = table_or_404(table_id)
        manager().limits["join"].take(client_of(request))
        name, profile = req.name.strip() or "player", None
        if request.headers.get(HEADER) is not None:  # the seat is the profile's: its name
            me = request.app.state.profiles.require(request.headers.get(HEADER))
            name, profile = me["name"], me["id"]
        try:
            seat, token = t.take_seat(name, req.seat, client_of(request), profile)
        except SheepfoldError as e:
            raise HTTPException(409, text_of(e)) from None
        # the seat link: the token in the fragment, which browsers never send to a server
        return {"seat": seat, "token": token, "table": t.id, "seat_link": seat_link(t.id, token)}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> dict[str, Any]:
        """A finished game, frame by frame: each move's words in the reader's language."""
        t = table_or_404(table_id)
        if not t.finished() or t.dirty:
            raise HTTPException(409, Msg("the game is not over yet: a replay opens when it ends"))
        frames = t.replay_frames()
        return {"table": t.public_info(), "frames": i18n.localize(frames, request.state.lang)}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """A finished game's record (docs/spec/records.md), which ``sheepfold replay`` plays
        again; ``house`` (an optional field of the format) names the gallery rule set."""
        from sheepfold.core.records import to_record

        t = table_or_404(table_id)
        if not t.finished() or t.dirty:
            raise HTTPException(409, Msg("the game is not over yet: its record opens when it ends"))
        names = [s.name or f"seat {s.seat}" for s in t.seats]
        rec = to_record(t.state, names)
        house = t.config.get("gallery")
        if house:
            rec["house"] = house
        return rec


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


def _add_websocket(app: FastAPI, manager: Callable[[], TableManager]) -> None:
    """One WebSocket per client: its messages go to its table; the table's go out to it, in
    the client's language (``?lang=``, as its page's)."""

    @app.websocket("/ws/{table_id}")
    async def ws_play(ws: WebSocket, table_id: str) -> None:
        m = manager()
        t = m.get(table_id)
        await ws.accept()
        if t is None:
            lang = i18n.choose(
                ws.query_params.get("lang"),
                ws.cookies.get(i18n.COOKIE),
                ws.headers.get("accept-language"),
            )
            message = i18n.localize(missing_table(m, table_id)[1], lang)
            await ws.send_json({"type": "error", "message": message})
            await ws.close(code=4404)
            return
        client, settings = client_of(ws), m.settings
        # uvicorn's socket here offers its direct side (server/connections.py): messages read
        # and written on the loop's own turn, without the ASGI round trip each way
        direct: Direct | None = ws.scope.get("extensions", {}).get(DIRECT)
        conn = Conn(
            ws.send_text,
            lambda: ws.close(code=1008),
            write=direct.write if direct is not None else None,
        )
        conn.client = client
        conn.lang = i18n.choose(  # the page's language (its <html lang>), else the browser's
            ws.query_params.get("lang"),
            ws.cookies.get(i18n.COOKIE),
            ws.headers.get("accept-language"),
        )
        writer = asyncio.get_event_loop().create_task(conn.writer())

        def take(text: str | None) -> None:
            """One message of the client's (None: a binary one)."""
            if conn.closed:
                return
            if text is None:
                conn.error(Msg("binary messages are not understood: send JSON text"))
                return
            try:
                m.limits["message"].take(client)
            except RateLimited as e:
                conn.error(text_of(e))
                return
            problem = message_problem(text, settings.max_message, settings.max_depth)
            if problem:
                conn.error(problem)
                return
            t.handle(conn, text)

        if direct is not None:  # set before the first message out (attach's state)
            direct.on_message = take
        try:
            t.attach(conn)
            while not conn.closed:  # what the direct side leaves to the queue (a burst)
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                take(msg.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            if direct is not None:
                direct.on_message = None
            conn.closed = True
            t.detach(conn)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
