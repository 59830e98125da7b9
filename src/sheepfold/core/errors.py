"""Turning pydantic's validation errors into one readable sentence that names the field."""

from __future__ import annotations

from pydantic import ValidationError


def describe_validation_error(err: ValidationError, prefix: str = "") -> str:
    """``rules.wool: must be at least 1`` style text, one problem per line."""
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"] if p != "__root__")
        where = ".".join(x for x in (prefix, loc) if x)
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        if e["type"] == "extra_forbidden":
            msg = "unknown field"
        if e["type"] == "missing":
            msg = "this field is required"
        lines.append(f"{where}: {msg}" if where else msg)
    return "; ".join(lines)
