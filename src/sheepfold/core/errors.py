"""Turning pydantic's validation errors into one readable sentence that names the field."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from sheepfold.core.words import Msg, chained, text_of

#: what a field of each strict type expects, by pydantic's error type
_EXPECTED = {
    "int_type": Msg("an integer"),
    "int_from_float": Msg("an integer"),
    "int_parsing": Msg("an integer"),
    "string_type": Msg("a string"),
    "bool_type": Msg("true or false"),
    "bool_parsing": Msg("true or false"),
    "float_type": Msg("a number"),
    "float_parsing": Msg("a number"),
    "list_type": Msg("a list"),
    "tuple_type": Msg("a list"),
    "dict_type": Msg("a JSON object"),
    "model_type": Msg("a JSON object"),
    "model_attributes_type": Msg("a JSON object"),
}

#: pydantic's own words for a bound, by its error type, as templates of its context's values:
#: used where they read exactly as pydantic's message (else pydantic's English is kept)
_BOUNDS = {
    "greater_than_equal": lambda c: Msg("Input should be greater than or equal to {ge}", **c),
    "greater_than": lambda c: Msg("Input should be greater than {gt}", **c),
    "less_than_equal": lambda c: Msg("Input should be less than or equal to {le}", **c),
    "less_than": lambda c: Msg("Input should be less than {lt}", **c),
    "string_too_short": lambda c: (
        Msg("String should have at least {min_length} character", **c)
        if c["min_length"] == "1"
        else Msg("String should have at least {min_length} characters", **c)
    ),
    "string_too_long": lambda c: (
        Msg("String should have at most {max_length} character", **c)
        if c["max_length"] == "1"
        else Msg("String should have at most {max_length} characters", **c)
    ),
    "too_short": lambda c: (
        Msg(
            "List should have at least {min_length} item after validation, not {actual_length}", **c
        )
        if c["min_length"] == "1"
        else Msg(
            "List should have at least {min_length} items after validation, not {actual_length}",
            **c,
        )
    ),
    "too_long": lambda c: (
        Msg("List should have at most {max_length} item after validation, not {actual_length}", **c)
        if c["max_length"] == "1"
        else Msg(
            "List should have at most {max_length} items after validation, not {actual_length}",
            **c,
        )
    ),
    "literal_error": lambda c: Msg("Input should be {expected}", expected=choices(c["expected"])),
    "enum": lambda c: Msg("Input should be {expected}", expected=choices(c["expected"])),
}

#: the last choice of pydantic's list of them ("'a', 'b' or 'c'"): a value as Python writes it
_LAST_CHOICE = re.compile(
    r"(.+) or ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|True|False|None)", re.S
)


def choices(expected: str) -> str:
    """Pydantic's list of the choices of a field ("'human' or 'bot'"), its "or" translatable
    (the text as it is when it is no such list)."""
    m = _LAST_CHOICE.fullmatch(expected)
    if m is None:
        return expected
    return Msg("{some} or {last}", some=m[1], last=m[2])


def body_problem(e: ErrorDetails) -> str | None:
    """The problem of a request's body as a whole, in words (None: a field's problem): no body,
    or not JSON."""
    if e["type"] == "json_invalid":
        return Msg("the request's body is not valid JSON")
    if e["type"] == "missing" and tuple(e["loc"]) == ("body",):
        return Msg("the request has no body: it takes a JSON object")
    return None


def describe_value(value: Any) -> str:
    """A short, printable description of a JSON value (``the string "30"``, ``true``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**40 else None
        if digits is None:
            return Msg("a very large integer")
        return Msg("the integer {value}", value=value)
    if isinstance(value, float):
        return Msg("the number {value}", value=repr(value))
    if isinstance(value, str):
        text = json.dumps(value[:40]) + ("..." if len(value) > 40 else "")
        return Msg("the string {text}", text=text)
    if isinstance(value, (list, tuple)):
        return Msg("a list")
    if isinstance(value, dict):
        return Msg("a JSON object")
    return Msg("a {kind}", kind=type(value).__name__)


def problem_text(e: ErrorDetails) -> str:
    """One problem in plain words (without its field); words a reader's language may translate
    (:class:`~sheepfold.core.words.Msg`) where we know them."""
    msg = e["msg"].removeprefix("Value error, ")
    if e["type"] == "extra_forbidden":
        return Msg("unknown field")
    if e["type"] == "missing":
        return Msg("this field is required")
    expected = _EXPECTED.get(e["type"])
    if expected is not None:
        return Msg(
            "expected {expected}, got {value}",
            expected=expected,
            value=describe_value(e.get("input")),
        )
    ctx = e.get("ctx") or {}
    error = ctx.get("error")
    if e["type"] == "value_error" and isinstance(error, BaseException):
        said = text_of(error)
        if said == msg:  # the validator's own words, their Msg kept
            return said
    bound = _BOUNDS.get(e["type"])
    if bound is not None:
        try:
            said = bound({k: str(v) for k, v in ctx.items()})
        except (KeyError, IndexError, ValueError):
            return msg
        if said == msg:
            return said
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
    """``rules.wool: must be at least 1; ...``: the problems as one line (its words kept
    translatable)."""
    return chained(
        [
            Msg("{where}: {problem}", where=where, problem=msg) if where else msg
            for where, msg in problems
        ],
        lambda a, b: Msg("{a}; {b}", a=a, b=b),
    )


def describe_validation_error(err: ValidationError, prefix: str = "") -> str:
    """``rules.wool: must be at least 1`` style text, the problems joined with ``; `` (one line)."""
    return join_problems(validation_problems(err, prefix))
