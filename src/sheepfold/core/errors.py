"""Turning pydantic's validation errors into one readable sentence that names the field."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from sheepfold.core.words import Msg, chained, text_of

#: what a field of each type expects, by pydantic's error type: ``expected ..., got ...``
_EXPECTED = {
    "int_type": Msg("an integer"),
    "int_from_float": Msg("an integer"),
    "int_parsing": Msg("an integer"),
    "int_parsing_size": Msg("an integer"),
    "string_type": Msg("a string"),
    "string_unicode": Msg("a string"),
    "bool_type": Msg("true or false"),
    "bool_parsing": Msg("true or false"),
    "float_type": Msg("a number"),
    "float_parsing": Msg("a number"),
    "finite_number": Msg("a finite number"),
    "list_type": Msg("a list"),
    "tuple_type": Msg("a list"),
    "set_type": Msg("a list"),
    "frozen_set_type": Msg("a list"),
    "iterable_type": Msg("a list"),
    "dict_type": Msg("a JSON object"),
    "mapping_type": Msg("a JSON object"),
    "model_type": Msg("a JSON object"),
    "model_attributes_type": Msg("a JSON object"),
    "dataclass_type": Msg("a JSON object"),
    "none_required": Msg("null"),
}


def _counted(n: str, one: Msg, many: Msg) -> Msg:
    """``one`` when ``n`` is "1", else ``many``."""
    return one if n == "1" else many


#: each of pydantic's other error types in plain words (never pydantic's own English), from
#: ``c`` its context's values (as text), ``v`` the value given described (``the string "x"``)
#: and ``n`` that value as written when it is a number
_SAID = {
    "greater_than_equal": lambda c, v, n: Msg(
        "must be at least {ge}, not {value}", ge=c["ge"], value=n
    ),
    "greater_than": lambda c, v, n: Msg("must be more than {gt}, not {value}", gt=c["gt"], value=n),
    "less_than_equal": lambda c, v, n: Msg(
        "must be at most {le}, not {value}", le=c["le"], value=n
    ),
    "less_than": lambda c, v, n: Msg("must be less than {lt}, not {value}", lt=c["lt"], value=n),
    "multiple_of": lambda c, v, n: Msg(
        "must be a multiple of {n}, not {value}", n=c["multiple_of"], value=n
    ),
    "string_too_short": lambda c, v, n: _counted(
        c["min_length"],
        Msg("must not be empty"),
        Msg("needs at least {n} characters", n=c["min_length"]),
    ),
    "string_too_long": lambda c, v, n: _counted(
        c["max_length"],
        Msg("takes at most 1 character"),
        Msg("takes at most {n} characters", n=c["max_length"]),
    ),
    "too_short": lambda c, v, n: _counted(
        c["min_length"],
        Msg("needs at least 1 item, not {actual}", actual=c["actual_length"]),
        Msg("needs at least {n} items, not {actual}", n=c["min_length"], actual=c["actual_length"]),
    ),
    "too_long": lambda c, v, n: _counted(
        c["max_length"],
        Msg("takes at most 1 item, not {actual}", actual=c["actual_length"]),
        Msg("takes at most {n} items, not {actual}", n=c["max_length"], actual=c["actual_length"]),
    ),
    "literal_error": lambda c, v, n: Msg(
        "expected {expected}, got {value}", expected=choices(c["expected"]), value=v
    ),
    "enum": lambda c, v, n: Msg(
        "expected {expected}, got {value}", expected=choices(c["expected"]), value=v
    ),
    "union_tag_invalid": lambda c, v, n: Msg(
        "its {key} must be {expected}, not {tag}",
        key=c["discriminator"].strip("'"),
        expected=choices(c["expected_tags"]),
        tag=repr(c["tag"]),
    ),
    "union_tag_not_found": lambda c, v, n: Msg(
        "give its {key}: it says which kind this is", key=c["discriminator"].strip("'")
    ),
    "string_pattern_mismatch": lambda c, v, n: Msg(
        "{value} is not written the way this field takes", value=v
    ),
    "json_invalid": lambda c, v, n: Msg("not valid JSON"),
    "json_type": lambda c, v, n: Msg(
        "expected {expected}, got {value}", expected=Msg("JSON text"), value=v
    ),
    "recursion_loop": lambda c, v, n: Msg("nested too deeply"),
    "recursion_depth_exceeded": lambda c, v, n: Msg("nested too deeply"),
    "invalid_key": lambda c, v, n: Msg("a name must be a string, not {value}", value=v),
}

#: the last choice of pydantic's list of them ("'a', 'b' or 'c'"): a value as Python writes it
_LAST_CHOICE = re.compile(
    r"(.+) or ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|True|False|None)", re.S
)


def _as_written(value: Any) -> str:
    """A number as written (``0``, ``2.5``), any other value described."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10**40:
        return json.dumps(value)
    return describe_value(value)


def choices(expected: str) -> str:
    """Pydantic's list of the choices of a field ("'human' or 'bot'"), its "or" translatable
    (the text as it is when it is no such list)."""
    m = _LAST_CHOICE.fullmatch(expected)
    if m is None:
        some, comma, last = expected.rpartition(", ")  # a union's tags: "'line', 'pattern'"
        return Msg("{some} or {last}", some=some, last=last) if comma else expected
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
    (:class:`~sheepfold.core.words.Msg`). A validator's own words are kept; pydantic's never
    reach a reader (an error type without words of ours says the value is not accepted)."""
    if e["type"] == "extra_forbidden":
        return Msg("unknown field")
    if e["type"] == "missing":
        return Msg("this field is required")
    value = describe_value(e.get("input"))
    expected = _EXPECTED.get(e["type"])
    if expected is not None:
        return Msg("expected {expected}, got {value}", expected=expected, value=value)
    ctx = e.get("ctx") or {}
    if e["type"] in ("value_error", "assertion_error"):
        error = ctx.get("error")
        if isinstance(error, Problems):
            return join_problems([("", p) for p in error.problems])
        if isinstance(error, BaseException):
            return text_of(error)  # the validator's own words, their Msg kept
        return e["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    said = _SAID.get(e["type"])
    if said is not None:
        try:
            return said({k: str(v) for k, v in ctx.items()}, value, _as_written(e.get("input")))
        except (KeyError, IndexError, ValueError):
            pass
    return Msg("{value} is not accepted here", value=value)


class Problems(ValueError):
    """Several problems at once, each in words (a model validator's checks between options):
    :func:`validation_problems` lists each on its own."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(join_problems([("", p) for p in problems]))
        self.problems = list(problems)


def raise_problems(problems: list[str | None]) -> None:
    """Raise the problems found (None: none there), all at once: one as a ValueError, several
    as :class:`Problems` (a model validator's way to report every problem, not the first)."""
    found = [p for p in problems if p]
    if len(found) == 1:
        raise ValueError(found[0])
    if found:
        raise Problems(found)


#: how pydantic names a member of a union in a location (``move.int``, ``take.str``)
_UNION_MEMBER = re.compile(r"(int|str|float|bool|bytes|none|constrained-\w+|[\w-]+\[.*\])", re.S)


def _member_of_union(e: ErrorDetails) -> bool:
    """Whether an error is a union member's (its location ends with the member's name)."""
    loc = tuple(e["loc"])
    return bool(loc) and isinstance(loc[-1], str) and _UNION_MEMBER.fullmatch(loc[-1]) is not None


def _union_groups(errors: list[ErrorDetails]) -> list[list[ErrorDetails]]:
    """The errors in groups: the errors of one value that no member of a union took (each
    member's own, at the value's location and the member's name) are one group; any other
    error is a group of its own."""
    groups: list[list[ErrorDetails]] = []
    for e in errors:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and _member_of_union(e)
            and _member_of_union(last)
            and tuple(last["loc"])[:-1] == tuple(e["loc"])[:-1]
            and type(last.get("input")) is type(e.get("input"))
            and last.get("input") == e.get("input")
        ):
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def _union_problem(group: list[ErrorDetails]) -> tuple[tuple[Any, ...], list[str]]:
    """A value no member of a union took, as (its location, its problems): the problems of the
    members of its type (a number out of bounds), else what each member expects, at once."""
    loc = tuple(group[0]["loc"])[:-1]
    own = [e for e in group if e["type"] not in _EXPECTED]
    if own:
        return loc, [problem_text(e) for e in own]
    expected = list(dict.fromkeys(_EXPECTED[e["type"]] for e in group))
    words = chained(expected, lambda a, b: Msg("{some} or {last}", some=a, last=b))
    return loc, [
        Msg(
            "expected {expected}, got {value}",
            expected=words,
            value=describe_value(group[0].get("input")),
        )
    ]


def validation_problems(err: ValidationError, prefix: str = "") -> list[tuple[str, str]]:
    """Each problem as (where, what), all of them: ``("rules.wool", "must be at least 1, not
    the integer 0")``; where is empty for a problem of the whole (a model validator's; its
    :class:`Problems` one each). A value that no member of a union takes is one problem."""
    errors = err.errors()
    # a list too short because some of its items were refused: those items' problems say it
    failed = {tuple(e["loc"])[:i] for e in errors for i in range(len(e["loc"]))}
    errors = [e for e in errors if e["type"] != "too_short" or tuple(e["loc"]) not in failed]
    out = []
    for group in _union_groups(errors):
        if len(group) > 1:
            loc, said = _union_problem(group)
        else:
            e = group[0]
            loc = tuple(e["loc"])
            error = (e.get("ctx") or {}).get("error")
            said = error.problems if isinstance(error, Problems) else [problem_text(e)]
        where = ".".join(x for x in (prefix, ".".join(str(p) for p in loc if p != "__root__")) if x)
        out += [(where, msg) for msg in said]
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
