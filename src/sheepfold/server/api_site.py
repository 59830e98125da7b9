"""The site: the health check, the languages' catalogs, and the lobby's and a table's pages.

    GET  /healthz                   the database answers and accepts a write (503 if not)
    GET  /api/i18n/{lang}           a language's catalog for scripts (server/i18n.py, docs/web.md)
    GET  /  and  /t/{id}            the lobby and a table's page (static/)

The static files (``STATIC``) are mounted by the app (server/app.py).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException, Response
from fastapi.responses import FileResponse, JSONResponse

from sheepfold.core.words import Msg
from sheepfold.server import i18n
from sheepfold.server.clients import CLIENT, ManagerDep
from sheepfold.server.storage import StorageUnhealthy

STATIC = Path(str(resources.files("sheepfold.server") / "static"))

router = APIRouter(dependencies=CLIENT)  # the API: every route has its client
pages = APIRouter()  # the pages (no client: they cost nothing and count nothing)


@router.get("/healthz")
async def health(m: ManagerDep) -> JSONResponse:
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


@router.get("/api/i18n/{lang}")
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


@pages.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@pages.get("/t/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "table.html")
