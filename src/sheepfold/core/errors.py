"""Turning pydantic's validation errors into one readable sentence that names the field."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

#: what a field of each strict type expects, by pydantic's error type
_EXPECTED = {
    "int_type": "an integer",
    "int_from_float": "an integer",
    "int_parsing": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
}


def describe_value(value: Any) -> str:
    """A short, printable description of a JSON value (``the string "30"``, ``true``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**40 else None
        return f"the integer {value}" if digits is not None else "a very large integer"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        text = json.dumps(value[:40]) + ("..." if len(value) > 40 else "")
        return f"the string {text}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a JSON object"
    return f"a {type(value).__name__}"


def problem_text(e: ErrorDetails) -> str:
    """One problem in plain words (without its field)."""
    msg = e["msg"].removeprefix("Value error, ")
    if e["type"] == "extra_forbidden":
        return "unknown field"
    if e["type"] == "missing":
        return "this field is required"
    expected = _EXPECTED.get(e["type"])
    if expected is not None:
        return f"expected {expected}, got {describe_value(e.get('input'))}"
    return msg


def validation_problems(err: ValidationError, prefix: str = "") -> list[tuple[str, str]]:
    """Each problem as (where, what): ``("rules.wool", "Input should be ...")``; where is empty
    for a problem of the whole (a model validator's)."""
    out = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"] if p != "__root__")
        out.append((".".join(x for x in (prefix, loc) if x), problem_text(e)))
    return out


def join_problems(problems: list[tuple[str, str]]) -> str:
    """``rules.wool: must be at least 1; ...``: the problems as one line."""
    return "; ".join(f"{where}: {msg}" if where else msg for where, msg in problems)


def describe_validation_error(err: ValidationError, prefix: str = "") -> str:
    """``rules.wool: must be at least 1`` style text, the problems joined with ``; `` (one line)."""
    return join_problems(validation_problems(err, prefix))
