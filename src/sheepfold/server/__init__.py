"""The web app: tables, seats, storage and the browser pages (``sheepfold serve``)."""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
    from sheepfold.server.app import create_app as _create

    return _create(*args, **kwargs)
