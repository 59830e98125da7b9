"""Languages: the gettext catalogs, each request's language, and the words translated for it.

The catalogs are ``locale/<lang>/LC_MESSAGES/messages.po`` (Babel's layout; the template of
every text is ``locale/messages.pot``). They are read as they are, with
``babel.messages.pofile.read_po``, once when the server starts: no ``.mo`` file is compiled,
so the package has no build step and the ``.po`` a translator edits is the one that is served.
Another language is one more ``.po`` file (docs/web.md, "Languages").

What is translated, and where:

- the pages (``static/*.html``): served with ``<html lang>`` set and every text and every
  ``title``/``placeholder``/``aria-label``/``alt`` attribute translated (:func:`page`); the
  texts are extracted by :func:`extract_html`, a Babel extractor (``babel.cfg``);
- the pages' scripts: ``t("English {name}", {name})`` (static/common.js) looks the text up in
  the page's catalog, which :func:`page` puts in the page as JSON (also ``GET /api/i18n/{lang}``);
- the server's words (errors, the log, house rules, bot levels): a :class:`~sheepfold.core.
  words.Msg` keeps its template and parameters and is translated where it is sent, for the
  language of the connection or the request (:func:`localize`).

A request's language (:func:`choose`): ``?lang=xx`` (then remembered in the ``sheepfold_lang``
cookie: the pages' switch links there too), else the cookie, else the browser's
``Accept-Language``, else English.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections import OrderedDict
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

from sheepfold.core.words import ENGLISH, Msg, said, translated

LOCALE = Path(str(resources.files("sheepfold.server") / "locale"))
DEFAULT = ENGLISH  # the language of the texts themselves (the msgids)
COOKIE = "sheepfold_lang"
MAX_ACCEPT = 512  # characters of an Accept-Language header read (a stranger's header)

#: the attributes of a page whose values are words for people
ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_TAG = re.compile(r"<!--.*?-->|<script\b.*?</script>|<style\b.*?</style>|<[^>]*>", re.S | re.I)
_ATTR = re.compile(r"(\s(?:" + "|".join(ATTRIBUTES) + r')=")([^"]*)(")')
_HTML_LANG = re.compile(r'<html lang="[^"]*"')
_SPACE = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")
_PARAM = re.compile(r"\{(\w+)\}")


@cache
def catalogs() -> dict[str, dict[str, str]]:
    """Each language's translations (msgid -> text), English (empty: the msgids) included.

    A message without a translation, or marked fuzzy, is left out: it shows in English."""
    from babel.messages.pofile import read_po

    found: dict[str, dict[str, str]] = {DEFAULT: {}}
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        found[po.parent.parent.name] = {
            m.id: m.string
            for m in catalog
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
            if not m.fuzzy
        }
    return found


def languages() -> dict[str, str]:
    """The languages served, each by its own name ("English", "Italiano")."""
    from babel import Locale

    names = {}
    for lang in catalogs():
        name = Locale.parse(lang).get_display_name(lang) or lang
        names[lang] = name[:1].upper() + name[1:]
    return names


def known(lang: Any) -> str | None:
    """``lang`` when it is a language served (its primary tag: "it-CH" is Italian), else None."""
    if not isinstance(lang, str) or len(lang) > 35:
        return None
    primary = lang.strip().split("-")[0].split("_")[0].lower()
    return primary if primary in catalogs() else None


def accepted(header: str | None) -> str | None:
    """The first language served of an ``Accept-Language`` header, by its q-values."""
    if not header:
        return None
    choices = []
    for i, part in enumerate(header[:MAX_ACCEPT].split(",")[:32]):
        tag, _, q = part.strip().partition(";")
        try:
            weight = float(q.strip()[2:]) if q.strip().startswith("q=") else 1.0
        except ValueError:
            continue
        if weight > 0:
            choices.append((-weight, i, tag))
    for _w, _i, tag in sorted(choices):
        lang = known(tag)
        if lang is not None:
            return lang
    return None


def choose(query: str | None, cookie: str | None, accept: str | None) -> str:
    """A request's language: ``?lang=``, else the cookie, else Accept-Language, else English."""
    return known(query) or known(cookie) or accepted(accept) or DEFAULT


# -- words ------------------------------------------------------------------------------------


def gettext(lang: str, text: str, /, **params: Any) -> str:
    """``text`` (an English template) in ``lang``, its ``{name}`` parameters filled in
    (:func:`~sheepfold.core.words.said`: a translation whose parameters are not the text's says
    the English)."""
    return said(text, params, lang, catalog(lang))


def localize(value: Any, lang: str) -> Any:
    """``value`` with every :class:`Msg` in it (in dicts and lists, at any depth) translated,
    every :class:`~sheepfold.core.words.Number` in the language's form.

    English is the value itself (nothing is copied)."""
    if lang == DEFAULT:
        return value
    return translated(value, lang, catalog(lang))


def catalog(lang: str) -> dict[str, str]:
    """``lang``'s translations (msgid -> text): none for English, the texts themselves."""
    return catalogs().get(lang, {}) if lang != DEFAULT else {}


def placeholders(text: str) -> set[str]:
    """The named parameters of a template ("{name} took {n}": {"name", "n"})."""
    return set(_PARAM.findall(text))


# -- the pages --------------------------------------------------------------------------------


def _words(raw: str) -> str | None:
    """A page's text as its msgid (entities read, spaces collapsed), or None: no words."""
    text = _SPACE.sub(" ", html.unescape(raw)).strip()
    return text if _LETTER.search(text) else None


def _element(tag: str) -> bool:
    """A tag whose attributes may hold words (not a comment, a script or a style)."""
    return not tag.startswith(("<!--", "<script", "<style", "<SCRIPT", "<STYLE"))


def page_texts(source: str) -> Iterator[tuple[int, str]]:
    """The words of a page with their line numbers: its texts and its tags' word attributes."""
    pos = 0
    for m in [*_TAG.finditer(source), None]:
        end = len(source) if m is None else m.start()
        words = _words(source[pos:end])
        if words:
            yield source.count("\n", 0, pos) + 1, words
        if m is None:
            return
        if _element(m.group(0)):
            for a in _ATTR.finditer(m.group(0)):
                words = _words(a.group(2))
                if words:
                    yield source.count("\n", 0, m.start()) + 1, words
        pos = m.end()


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for the pages (babel.cfg: ``[sheepfold.server.i18n:extract_html:
    **.html]``): every text and word attribute, as :func:`page` translates them."""
    for line, words in page_texts(fileobj.read().decode("utf-8")):
        yield line, None, words, []


#: a script's text: t("...") or SF.t("..."), its first argument a string literal
_JS_CALL = re.compile(r"""\bt\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")


def script_texts(source: str) -> Iterator[tuple[int, str]]:
    """The texts of a script: the first argument of every ``t(...)``, with its line number.

    A regular expression rather than a parser: Babel's JavaScript extractor misses a ``t()``
    inside a template literal's ``"${...}"`` (an attribute's value); the convention is a
    literal first argument, and the test of the catalog holds every use to it."""
    for m in _JS_CALL.finditer(source):
        literal = m.group(1)
        if literal.startswith("'"):
            literal = '"' + literal[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
        yield source.count("\n", 0, m.start()) + 1, json.loads(literal)


def extract_js(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for the scripts (babel.cfg: ``[sheepfold.server.i18n:extract_js:
    **.js]``): :func:`script_texts`."""
    for line, text in script_texts(fileobj.read().decode("utf-8")):
        yield line, None, text, []


def extract_presets(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for the built-in rule sets (``presets/*.toml``): the title the lobby
    gives each (server/plain_words.py: ``ruleset_title``), its description and its words as a
    lab card's base (rulesets.py: ``base_phrase``, "the graded edition")."""
    import tomllib

    from sheepfold.rulesets import base_phrase
    from sheepfold.server.plain_words import ruleset_title

    data = tomllib.loads(fileobj.read().decode("utf-8"))
    yield 1, None, ruleset_title(data["game"], data["name"]), []
    if data.get("description"):
        yield 1, None, data["description"], []
    yield 1, None, base_phrase(data["name"], data.get("description")), []


def extract_rules(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for a game's rules module (babel.cfg: ``games/*/rules.py``): its
    ``Msg`` texts (Babel's Python extractor), the descriptions of the options of the rules
    model it defines, as a house rule's line starts with them (server/plain_words.py:
    ``option_line``), and the rule editor's words of that model (:func:`editor_texts`)."""
    from babel.messages.extract import extract_python

    from sheepfold.core.registry import game_names, game_spec
    from sheepfold.server.plain_words import option_about, option_short
    from sheepfold.server.rules_api import rule_fields

    for line, _func, found, comments in extract_python(fileobj, keywords, comment_tags, options):
        # Msg("...", n=...) is the template and then None
        message = found[0] if isinstance(found, tuple | list) and found else found
        if isinstance(message, str):
            yield line, None, message, list(comments or ())
    path = Path(getattr(fileobj, "name", "")).resolve()
    for game in game_names():
        cls = game_spec(game).rules_class
        source = Path(str(getattr(sys.modules.get(cls.__module__), "__file__", ""))).resolve()
        if source != path:
            continue
        for field in cls.model_fields.values():
            about = option_about(field.description)
            if about is not None:
                yield 1, None, about, []
            short = option_short(field.description)  # a history entry's (server/profiles.py)
            if short is not None:
                yield 1, None, short, []
        for text in editor_texts(rule_fields(cls)):
            yield 1, None, text, []


def editor_texts(value: Any) -> Iterator[str]:
    """The templates of every :class:`Msg` in ``value`` (at any depth): the rule editor's
    words of a rules model (server/rules_api.py: ``rule_fields``), its labels, descriptions,
    nouns and choices."""
    if isinstance(value, Msg):
        yield value.template
    elif isinstance(value, dict):
        for v in value.values():
            yield from editor_texts(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from editor_texts(v)


def _translated(raw: str, table: dict[str, str], quote: bool) -> str:
    words = _words(raw)
    if words is None or words not in table:
        return raw
    lead = raw[: len(raw) - len(raw.lstrip())]
    trail = raw[len(raw.rstrip()) :]
    return lead + html.escape(table[words], quote=quote) + trail


def catalog_json(lang: str) -> str:
    """What a page's scripts need (static/common.js): the languages served, in their own
    words, and this language's catalog, as JSON safe inside a ``<script>``."""
    data = {"lang": lang, "languages": languages(), "messages": catalogs().get(lang, {})}
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


_pages: OrderedDict[tuple[str, str], str] = OrderedDict()


def page(source: str, lang: str) -> str:
    """A page in ``lang``: ``<html lang>``, its texts and word attributes translated and, for
    the scripts' ``t()`` and language switch, :func:`catalog_json` before the first script. Kept for the next
    request (the pages are few)."""
    key = (lang, source)
    done = _pages.get(key)
    if done is not None:
        return done
    table = catalogs().get(lang, {})
    out, pos = [], 0
    for m in _TAG.finditer(source):
        out.append(_translated(source[pos : m.start()], table, quote=False))
        tag = m.group(0)
        if _element(tag):
            tag = _ATTR.sub(lambda a: a[1] + _translated(a[2], table, quote=True) + a[3], tag)
        out.append(tag)
        pos = m.end()
    out.append(_translated(source[pos:], table, quote=False))
    text = _HTML_LANG.sub(f'<html lang="{lang}"', "".join(out), count=1)
    if "<script" in text:
        at = text.index("<script")
        data = f'<script type="application/json" id="sf-i18n">{catalog_json(lang)}</script>\n'
        text = text[:at] + data + text[at:]
    _pages[key] = text
    while len(_pages) > 64:
        _pages.popitem(last=False)
    return text
