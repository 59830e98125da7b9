"""The web app, composed: its middlewares, its error handlers and its routers.

``create_app(db_url)`` builds a FastAPI app; ``sheepfold serve`` runs it with uvicorn. Every
asset (HTML, CSS, JavaScript, symbols) is a file in ``static/`` served by the app: no CDN,
no build step. The routes live in one router per area, each in its own module:

    server/api_site.py      GET /healthz, GET /api/i18n/{lang}, the lobby's and a table's pages
    server/api_tables.py    /api/games, /api/tables... (the tables: create, join, replay...)
    server/results.py       /api/tables/{id}/results (a finished table's results, moments)
    server/rules_api.py     /api/rules/{game}, POST /api/rules/{game}/check
    server/gallery*.py      /api/gallery/..., POST /api/tables/{id}/vote, the gallery's pages
    server/profiles.py      /api/profiles/..., /api/leaderboard/{game}, their pages
    server/learn.py         /api/learn/{game}, POST /api/tables/{id}/hint, lessons, rules pages
    server/api_play.py      WS /ws/{id}: play and watch (docs/web.md for the messages)

Every API route has its client (server/clients.py: the client key every limit counts by, and
the server's parts) as a dependency of its router, so no route is served without it.

Every page and answer carries a Content-Security-Policy (scripts, styles and connections from
this server only; no framing) and ``X-Content-Type-Options: nosniff``. Every request's body is
bounded before it is read (413), and the requests that cost CPU are limited per client key
(``ROUTES``, server/limits.py): 429 with what to wait. A stranger's texts pass server/texts.py.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import text_of
from sheepfold.server import (
    api_notices,
    api_play,
    api_site,
    api_tables,
    friends,
    gallery,
    gallery_publish,
    gallery_votes,
    i18n,
    learn,
    profiles,
    results,
    rules_api,
)
from sheepfold.server.api_site import STATIC
from sheepfold.server.clock import TurnClock
from sheepfold.server.cluster import Relay, make_manager
from sheepfold.server.gallery import MAX_PUBLISH, Gallery
from sheepfold.server.gallery_lab import LabQueue
from sheepfold.server.gallery_store import GalleryStore
from sheepfold.server.limits import RateLimited, RequestGuard, Route
from sheepfold.server.mail import Notices
from sheepfold.server.profiles import Profiles
from sheepfold.server.rules_api import MAX_BODY, MAX_WITH_RULES, TOO_BIG
from sheepfold.server.solutions import NotReady
from sheepfold.server.storage import StorageUnhealthy
from sheepfold.server.tables import Settings

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
    Route("GET", r"/api/tables/[^/]+/(replay|record|rules|results)", limit="read"),
    Route("GET", r"/api/gallery/[^/]+", limit="read"),  # the gallery's search (it scans)
    Route("POST", r"/api/gallery/.+", body=MAX_PUBLISH),
    Route("POST", r"/api/profiles", limit="profile"),
    Route("GET", r"/api/(profiles|leaderboard)/.+", limit="read"),
    Route("GET", r"/api/friends", limit="read"),  # the friends' tables
)


GC_YOUNG = 20_000
"""Container allocations between two collections of the young generation (the default: 700)."""


def create_app(db: str = "sheepfold.db", settings: Settings | None = None) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager = make_manager(db, settings)  # many processes on PostgreSQL: server/cluster.py
        manager.start()
        lab = LabQueue(GalleryStore(manager.storage), manager.settings)
        app.state.gallery = Gallery(manager, lab.store, lab)
        app.state.profiles = Profiles(manager)
        app.state.friends = friends.Friends(app.state.profiles)  # and the seats they save
        app.state.profiles.catch_up()  # results a stopped server did not write
        app.state.notices = Notices(manager)  # e-mail notices, vacation (server/mail.py)
        app.state.turn_clock = TurnClock(manager, app.state.notices)  # server/clock.py
        app.state.turn_clock.start()
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
        limiters=lambda: m.limits if (m := getattr(app.state, "manager", None)) else None,
    )
    app.add_middleware(Relay, manager=lambda: getattr(app.state, "manager", None))
    _add_headers(app)
    _add_language(app)
    app.include_router(api_site.router)
    app.include_router(api_site.pages)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(api_tables.router)
    app.include_router(results.router)  # a finished table's results and moments
    app.include_router(rules_api.router)
    app.include_router(gallery_publish.router)
    app.include_router(gallery.router)
    app.include_router(gallery_votes.router)
    app.include_router(gallery.pages)
    app.include_router(profiles.router)
    app.include_router(profiles.pages)
    app.include_router(friends.router)
    app.include_router(api_notices.router)  # e-mail notices: settings, confirm, unsubscribe
    app.include_router(api_notices.pages)
    app.include_router(learn.router)  # the lessons' API
    app.include_router(learn.pages)  # the lessons and the rules pages
    app.include_router(api_play.router)
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


def _add_language(app: FastAPI) -> None:
    """Every page in its reader's language (server/i18n.py: ``?lang=``, remembered in a
    cookie, else the cookie, else the browser's), and every request's ``state.lang``."""

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
