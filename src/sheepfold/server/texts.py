"""The one check of every text a stranger sets that others are shown: seat names, a table's
rule-set name and description, the gallery's names, authors and descriptions.

A text is refused when it holds a character that is not plain text to a reader: a control
character (escapes, ``\\r``), a format character (the bidi overrides and isolates U+202A-U+202E
and U+2066-U+2069, invisible marks), a line or paragraph separator (U+2028, U+2029), a
private-use, surrogate or unassigned code point; and a line break where the field allows none.
The zero-width joiner of emoji sequences is kept. Lengths are each field's own (its model).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, StringConstraints

from sheepfold.core.words import Msg

#: Unicode categories refused: control, format, surrogate, private use, unassigned, and the
#: line and paragraph separators
REFUSED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
ZWJ = "\u200d"


def char_problem(value: str, newlines: bool = False) -> str | None:
    """Why a text is refused, without the field's name (None: it is fine)."""
    for i, ch in enumerate(value):
        if (ch == "\n" and newlines) or ch == ZWJ:
            continue
        if unicodedata.category(ch) in REFUSED:
            why = (
                Msg("no line breaks in this text")
                if ch == "\n"
                else Msg("no control, format, separator, private-use or unassigned characters")
            )
            return Msg(
                "the character {code} at position {at} is not allowed ({why})",
                code=f"U+{ord(ch):04X}",
                at=i + 1,
                why=why,
            )
    return None


def text_problem(where: str, value: str, newlines: bool = False) -> str | None:
    """Why a text is refused, as ``where: ...`` (None: it is fine)."""
    why = char_problem(value, newlines)
    return Msg("{where}: {problem}", where=where, problem=why) if why else None


def _one_line(value: str) -> str:
    why = char_problem(value)
    if why:
        raise ValueError(why)
    return value


def _lines(value: str) -> str:
    why = char_problem(value, newlines=True)
    if why:
        raise ValueError(why)
    return value


#: the longest name of a person or a bot at a table
MAX_NAME = 32
#: a person's or a bot's name at a table
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=MAX_NAME),
    AfterValidator(_one_line),
]

# -- names that look alike ----------------------------------------------------------------------

#: letters that look like Latin ones, as the Latin letter they pass for (both cases: a Greek
#: capital eta is an H, its small letter an n): Cyrillic and Greek, the dotless i, and the
#: dashes and quotes that pass for the ASCII ones. Compact on purpose: the look-alikes people
#: use to pass for another, not Unicode's whole confusables list.
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic capitals, then small letters
        **dict(zip("АВЕЅІЈКМНОРСТХУЗ", "ABESIJKMHOPCTXY3", strict=True)),
        **dict(zip("аеѕіјкорсхуԁһԛԝӏьп", "aesijkopcxydhqwlbn", strict=True)),
        "ё": "e",
        "ї": "i",
        # Greek capitals, then small letters
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("αβεικνορτυχγ", "abeikvoptuxy", strict=True)),
        "ı": "i",
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"),
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u02bc\u00b4`", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
    }
)
#: after case folding: the digits and letters one reads for each other (1, l and I; 0 and o),
#: then the pairs of letters that pass for one (rn for m, vv for w)
_FOLDED = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "!": "l"})
_PAIRS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """What a name looks like, as one string: two names with the same skeleton pass for each
    other. The name's compatibility form (NFKC: full-width letters, ligatures), its
    look-alike letters made Latin, case folded, accents and other combining marks and
    invisible characters (the zero-width joiner) dropped, the digits and letters read for
    each other made one, runs of spaces made one space."""
    text = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES).casefold()
    text = "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c)[0] not in "MC"
    )
    text = text.translate(_FOLDED)
    for pair, one in _PAIRS:
        text = text.replace(pair, one)
    return " ".join(text.split())


#: limits of a table's rules' informational texts (as the gallery's)
MAX_RULES_NAME = 48
MAX_RULES_DESCRIPTION = 500


def rules_text_problems(rules: dict[str, object]) -> list[tuple[str, str]]:
    """The problems of a rule set's ``name`` and ``description`` (shown in the lobby and at
    the table): their length and their characters; and the characters of every other text in
    it (a verb's words, a condition), as (where, what)."""
    out: list[tuple[str, str]] = []
    for key, cap, newlines in (
        ("name", MAX_RULES_NAME, False),
        ("description", MAX_RULES_DESCRIPTION, True),
    ):
        value = rules.get(key)
        if not isinstance(value, str):
            continue
        if len(value) > cap:
            too_long = Msg("at most {cap} characters (this one has {n})", cap=cap, n=len(value))
            out.append((f"rules.{key}", too_long))
            continue
        why = char_problem(value, newlines)
        if why:
            out.append((f"rules.{key}", why))
    # every text inside a rule language's parts (a verb's own words are shown at the table)
    stack: list[tuple[str, object]] = [
        (k, v) for k, v in rules.items() if k not in ("name", "description")
    ]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            why = char_problem(value)
            if why:
                out.append((f"rules.{where}", why))
        elif isinstance(value, dict):
            stack.extend((f"{where}.{k}", v) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((f"{where}.{i}", v) for i, v in enumerate(value))
    return out
