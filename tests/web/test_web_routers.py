"""One way in: the API is served by one router per area, and every route of the API has its
client (server/clients.py: the client key every limit counts by) as a dependency, so that no
route can be served without it; app.py only composes, and no module imports from it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.routing import iter_route_contexts

from sheepfold.server import clients
from sheepfold.server.app import create_app

SRC = Path(__file__).resolve().parents[2] / "src" / "sheepfold"
API = ("/api/", "/ws/", "/healthz")  # what programs call; the pages and the static files aside


def calls(dependant: Any) -> set[Any]:
    """Every function a route's dependencies call, however deeply nested."""
    found = set()
    for d in dependant.dependencies:
        found.add(d.call)
        found |= calls(d)
    return found


def api_routes(app: FastAPI) -> list[Any]:
    return [
        r
        for r in iter_route_contexts(app.routes)
        if getattr(r, "dependant", None) is not None and (r.path or "").startswith(API)
    ]


def without_client(app: FastAPI) -> list[str]:
    """The API routes served without their client: ``METHOD path`` each."""
    return [
        f"{','.join(sorted(r.methods or {'WS'}))} {r.path}"
        for r in api_routes(app)
        if clients.client not in calls(r.dependant)
    ]


def test_every_api_route_has_its_client(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "t.db"))
    paths = {r.path for r in api_routes(app)}
    # the walk sees every area's router (a route of each, and the WebSocket)
    for path in (
        "/healthz",
        "/api/i18n/{lang}",
        "/api/tables",
        "/api/tables/{table_id}/join",
        "/api/rules/{game}/check",
        "/api/gallery/{game}",
        "/api/tables/{table_id}/vote",
        "/api/profiles",
        "/api/leaderboard/{game}",
        "/api/learn/{game}",
        "/api/tables/{table_id}/hint",
        "/ws/{table_id}",
    ):
        assert path in paths, path
    assert len(api_routes(app)) >= 30
    assert without_client(app) == []


def test_a_route_added_past_the_routers_is_found() -> None:
    # what the test above would say of a handler registered on the app itself, or on a router
    # built without the client (the way the API was registered before: closures on the app)
    app = FastAPI()
    bare = APIRouter()

    @bare.get("/api/tables/{table_id}/peek")
    async def peek(table_id: str) -> dict[str, str]:
        return {}

    @app.websocket("/ws/{table_id}")
    async def ws(table_id: str) -> None:
        return None

    app.include_router(bare)
    assert sorted(without_client(app)) == ["GET /api/tables/{table_id}/peek", "WS /ws/{table_id}"]


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


def test_nothing_imports_from_the_app_module_but_who_starts_it() -> None:
    # the app is composed in server/app.py: its models and helpers live with their routers
    starters = {SRC / "server" / "__init__.py", SRC / "cli" / "serve.py"}
    back = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if p not in starters and "sheepfold.server.app" in imports_of(p)
    ]
    assert back == []
