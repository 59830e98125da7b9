"""Words for people that a front end may translate: :class:`Msg`.

A ``Msg`` is the English text (a ``str``: everything that takes a string takes it) that keeps
its gettext template and named parameters, so that the web server translates it for a player
of another language where it is sent (server/i18n.py), never by editing the English text.
``Msg("{name} took {n} sheep", name="Dolly", n=3)`` reads "Dolly took 3 sheep". The catalog
tool finds the templates by the name ``Msg`` (docs/web.md, "Languages").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any


class Msg(str):
    """English words made from a template and named parameters (each one a value or a Msg)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Msg:
        text = template.format(**params) if params else template
        if template == CAPITALIZED:
            text = upper_first(text)
        self = super().__new__(cls, text)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the template
        return (_rebuild, (self.template, self.params))


#: the template of :func:`capitalized`: no text of the catalog, its words start with a capital
#: letter in every language (server/i18n.py: ``gettext``)
CAPITALIZED = "{capitalized}"


def upper_first(text: str) -> str:
    """``text`` with its first letter upper case ("the rulebook": "The rulebook")."""
    return text[:1].upper() + text[1:]


def capitalized(text: str) -> str:
    """``text`` starting a sentence: its first letter upper case, in a reader's language too
    (a :class:`Msg` stays one: ``Msg(CAPITALIZED, capitalized=text)``)."""
    if isinstance(text, Msg):
        return Msg(CAPITALIZED, capitalized=text)
    return upper_first(text)


def _rebuild(template: str, params: dict[str, Any]) -> Msg:
    return Msg(template, **params)


def text_of(error: BaseException) -> str:
    """An error's words, its Msg kept when it was raised with one (``str(e)`` makes a plain
    copy)."""
    if len(error.args) == 1 and isinstance(error.args[0], Msg):
        return error.args[0]
    return str(error)


def joined(names: list[str]) -> str:
    """Names as a list in words ("Dolly, Shaun and Timmy"), the "and" translatable (each name
    kept as it is: a Msg stays one)."""
    if len(names) < 2:
        return names[0] if names else ""
    return Msg("{some} and {last}", some=listed(names[:-1]), last=names[-1])


def listed(items: Sequence[str]) -> str:
    """Words joined with ", " ("game length, balance"), each piece kept translatable."""
    return chained(items, lambda a, b: Msg("{a}, {b}", a=a, b=b))


def chained(items: Sequence[str], pair: Callable[[str, str], str], empty: str = "") -> str:
    """Words joined two by two with ``pair`` (a template of ``{a}`` and ``{b}``: ``lambda a, b:
    Msg("{a}, then {b}", a=a, b=b)``), so that each piece stays a Msg a reader's language
    translates (a ``str.join`` would make one English text); ``empty`` when there are none."""
    if not items:
        return empty
    out = items[0]
    for item in items[1:]:
        out = pair(out, item)
    return out


def semicolon(a: str, b: str) -> str:
    """Two clauses, a semicolon between them (for :func:`chained`)."""
    return Msg("{a}; {b}", a=a, b=b)


def to_data(text: str) -> Any:
    """Words as JSON data that keep their template (a :class:`Msg`, its parameters too, at any
    depth): ``{"msg": template, "params": {...}}``; plain text as it is. For words stored to
    be translated when read (:func:`from_data`)."""
    if isinstance(text, Msg):
        return {"msg": text.template, "params": {k: to_data(v) for k, v in text.params.items()}}
    return text


def from_data(data: Any) -> Any:
    """The words :func:`to_data` stored, a :class:`Msg` again (anything else as it is)."""
    if isinstance(data, dict) and isinstance(data.get("msg"), str):
        params = data.get("params")
        params = params if isinstance(params, dict) else {}
        try:
            return Msg(data["msg"], **{str(k): from_data(v) for k, v in params.items()})
        except (KeyError, IndexError, ValueError):  # not a template of these parameters
            return data["msg"]
    return data


def to_text(words: Any) -> str:
    """Words as one text to store in a column of text: a :class:`Msg` (or the data
    :func:`to_data` made of it) as its JSON, plain text as it is. Read with :func:`from_text`."""
    data = to_data(words) if isinstance(words, str) else words
    return json.dumps(data, ensure_ascii=False) if isinstance(data, dict) else str(data)


def from_text(text: str) -> Any:
    """The words :func:`to_text` stored, a :class:`Msg` again; plain text (stored before, or
    never words of ours) as it is."""
    if text.startswith('{"msg"'):
        try:
            return from_data(json.loads(text))
        except ValueError:
            pass
    return text
