"""Words for people that a front end may translate: :class:`Msg`.

A ``Msg`` is the English text (a ``str``: everything that takes a string takes it) that keeps
its gettext template and named parameters, so that the web server translates it for a player
of another language where it is sent (server/i18n.py), never by editing the English text.
``Msg("{name} took {n} sheep", name="Dolly", n=3)`` reads "Dolly took 3 sheep". The catalog
tool finds the templates by the name ``Msg`` (docs/web.md, "Languages").

A :class:`Number` is a figure in the same way: its English form ("1,500", "50.2%") that keeps
its value, so that a reader's language writes it its own way ("1.500", "50,2%");
:func:`translated` says words (both kinds, at any depth) in a language from its catalog.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

#: the language of every Msg's text and every Number's form
ENGLISH = "en"


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


class Number(str):
    """A figure for people: its English form (a ``str``, exactly what ``f"{value:.1f}"`` and
    its kin write) that keeps its value, so that another language writes the same digits its
    own way (:meth:`said`: "1,500" is "1.500" in Italian, "50.2%" is "50,2%").

    ``digits`` decimals (None: as few as it needs, ``f"{value:g}"``), ``grouped`` thousands
    ("1,500"), ``signed`` a "+" before a positive figure, ``percent`` the per cent sign after
    it (``value`` is then in per cent: 50.2). Never "-0.0": a figure that rounds to zero has no
    sign."""

    value: float
    digits: int | None
    grouped: bool
    signed: bool
    percent: bool

    def __new__(
        cls,
        value: float,
        digits: int | None = 0,
        *,
        grouped: bool = False,
        signed: bool = False,
        percent: bool = False,
    ) -> Number:
        value = float(value)  # numpy's too: JSON data
        spec = ("," if grouped else "") + ("g" if digits is None else f".{digits}f")
        text = format(value, spec)
        if text.startswith("-") and float(text.replace(",", "")) == 0:
            text = text[1:]
        if signed and float(text.replace(",", "")) > 0:
            text = "+" + text
        self = super().__new__(cls, text + ("%" if percent else ""))
        self.value, self.digits = value, digits
        self.grouped, self.signed, self.percent = grouped, signed, percent
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the value
        return (_number, (self.data(),))

    def data(self) -> dict[str, Any]:
        """The figure as JSON data (:func:`to_data`)."""
        return {
            "number": self.value,
            "digits": self.digits,
            "grouped": self.grouped,
            "signed": self.signed,
            "percent": self.percent,
        }

    def said(self, lang: str) -> str:
        """The figure in ``lang``'s form (Babel's patterns of the language: its decimal sign,
        its thousands and where its per cent sign goes), the same digits as the English:
        formatted from them, so the two never round differently."""
        if lang == ENGLISH:
            return str(self)
        from babel import Locale, UnknownLocaleError
        from babel.numbers import get_plus_sign_symbol, parse_pattern

        try:
            locale = Locale.parse(lang)
        except (UnknownLocaleError, ValueError):
            return str(self)
        digits = self.removesuffix("%").removeprefix("+").replace(",", "")
        formats = locale.percent_formats if self.percent else locale.decimal_formats
        pattern = parse_pattern(formats[None].pattern)
        if self.digits is not None:
            pattern.frac_prec = (self.digits, self.digits)
        number = Decimal(digits) / 100 if self.percent else Decimal(digits)
        text = str(pattern.apply(number, locale, group_separator=self.grouped))
        return get_plus_sign_symbol(locale) + text if self.startswith("+") else text


def _number(data: dict[str, Any]) -> Number:
    return Number(
        float(data["number"]),
        None if data.get("digits") is None else int(data["digits"]),
        grouped=bool(data.get("grouped")),
        signed=bool(data.get("signed")),
        percent=bool(data.get("percent")),
    )


_RULING = re.compile(r" ?\(ruling \d+(?:: ([^)]*))?\)")


def for_players(text: str) -> str:
    """An engine's sentence as a player reads it: its citations of the rulings, which are for
    the people who check the engine, left out ("not wolf (ruling N)" -> "not wolf"; "spent
    (ruling N: a dog card is spent)" keeps its words: "(a dog card is spent)")."""
    return _RULING.sub(lambda m: f" ({m.group(1)})" if m.group(1) else "", text)


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


def translated(value: Any, lang: str, catalog: Mapping[str, str]) -> Any:
    """``value`` with every :class:`Msg` and :class:`Number` in it (in dicts and lists, at any
    depth) in ``lang``: each template as ``catalog`` (the language's: template -> its
    translation) says it, English where it has none, each figure in the language's form."""
    if isinstance(value, Msg):
        return said(value.template, value.params, lang, catalog)
    if isinstance(value, Number):
        return value.said(lang)
    if isinstance(value, dict):
        return {k: translated(v, lang, catalog) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [translated(v, lang, catalog) for v in value]
    return value


def said(template: str, params: Mapping[str, Any], lang: str, catalog: Mapping[str, str]) -> str:
    """A template in ``lang`` (its translation in ``catalog``), its ``{name}`` parameters
    :func:`translated` and filled in (a translation whose parameters are not the template's,
    which the catalog's test refuses, says the English rather than fail where it is sent)."""
    text = catalog.get(template, template)
    if not params:
        return text
    values = {k: translated(v, lang, catalog) for k, v in params.items()}
    try:
        out = text.format(**values)
    except (KeyError, IndexError, ValueError):
        out = template.format(**values)
    return upper_first(out) if template == CAPITALIZED else out


def to_data(text: str) -> Any:
    """Words as JSON data that keep their template (a :class:`Msg`, its parameters too, at any
    depth): ``{"msg": template, "params": {...}}``, a :class:`Number` its value
    (``{"number": 1500, ...}``); plain text as it is. For words stored to be translated when
    read (:func:`from_data`)."""
    if isinstance(text, Msg):
        return {"msg": text.template, "params": {k: to_data(v) for k, v in text.params.items()}}
    if isinstance(text, Number):
        return text.data()
    return text


def from_data(data: Any) -> Any:
    """The words :func:`to_data` stored, a :class:`Msg` (or :class:`Number`) again (anything
    else as it is)."""
    if isinstance(data, dict) and isinstance(data.get("number"), int | float):
        try:
            return _number(data)
        except (TypeError, ValueError, OverflowError):  # not a figure of ours
            return data
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
    if text.startswith(('{"msg"', '{"number"')):
        try:
            return from_data(json.loads(text))
        except ValueError:
            pass
    return text
