"""Issue 29: the rule editor's texts are plain words. Every label, description, part's words,
entry noun and choice's words of ``GET /api/rules/{game}`` (what static/rules.js builds the
editor from), and what each option left unset amounts to, in English and in Italian, for both
games: no ruling's number (a player has no rulings document), no id in quotes (``'exact'``,
``kind 'line'``), no key in snake_case (``max_wool``), no path of our docs; and no option's
help says its unset meaning twice (the description and the unset hint side by side)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from sheepfold.server.plain_words import controls

GAMES = ("dolly-crush", "shave-a-sheep")
LANGS = {"en": {}, "it": {"Accept-Language": "it"}}

#: a ruling named, in either language (the English word "ruling", the Italian "regola" and a number)
RULING = re.compile(r"\bruling\b|\bregola \d", re.I)
#: a lower-case id wrapped in quotes: 'exact', "target", ‘up-to’ (a label in quotes, said by
#: the editor as “Max wool”, starts with a capital)
QUOTED_ID = re.compile(r"""['"‘“][a-z][a-z0-9_-]*['"’”]""")
#: a key of ours: two words or more joined by underscores
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: a file of ours (docs/spec/rule-language.md)
PATH = re.compile(r"\b[\w-]+/[\w./-]+\.md\b")


def _texts(body: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text of the editor's payload a player reads, each with where it is."""
    for ctl in controls(body["fields"]):
        where = ctl.get("name") or "(an entry)"
        for key in ("label", "description", "about", "noun"):
            if ctl.get(key):
                yield f"{where}.{key}", ctl[key]
        for i, w in enumerate(ctl.get("words") or ()):
            yield f"{where}.words[{i}]", w
    for key, (meaning, _example) in body["unset"].items():
        yield f"unset.{key}", meaning
    for key, label in body["names"].items():
        yield f"names.{key}", label


def _rules(srv: Any, game: str, lang: str) -> dict[str, Any]:
    r = srv.http.get(f"/api/rules/{game}", headers=LANGS[lang])
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_the_patterns_catch_what_the_editor_once_showed() -> None:
    """The checks below can fail: each finds a text the editor showed before issue 29."""
    assert RULING.search("rows of the flock (ruling 1)")
    assert RULING.search("il limite della regola 6 prima di arrendersi")
    assert QUOTED_ID.search("'exact': make exactly as many swaps; 'up-to': you may stop")
    assert QUOTED_ID.search("lines (kind 'line': length, directions, colour)")
    assert QUOTED_ID.search('{ shear = "my" }')
    assert not QUOTED_ID.search("at most “Max wool”")
    assert SNAKE.search("a full sheep (max_wool = 5)")
    assert not SNAKE.search("Max wool")
    assert PATH.search("no teams (docs/spec/rule-language.md), e.g.:")


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_rule_editor_says_everything_in_words(live_server: Any, lang: str) -> None:
    bad = []
    said = 0
    for game in GAMES:
        body = _rules(live_server, game, lang)
        for where, text in _texts(body):
            said += 1
            for what, pattern in (
                ("a ruling", RULING),
                ("an id in quotes", QUOTED_ID),
                ("a key", SNAKE),
                ("a file", PATH),
            ):
                m = pattern.search(text)
                if m:
                    bad.append(f"{game} {where}: {what} ({m[0]!r}) in {text!r}")
    assert not bad, "\n".join(bad)
    assert said > 150  # every game's editor was read, parts and all


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_no_option_says_its_unset_meaning_twice(live_server: Any, lang: str) -> None:
    """The editor shows an option's description and then "unset: ..." (what the option left
    unset amounts to): the description does not say it again."""
    unset_words = {"en": ("unset", "left unset"), "it": ("non impostat",)}[lang]
    for game in GAMES:
        body = _rules(live_server, game, lang)
        fields = {f["name"]: f for f in body["fields"]}
        assert body["unset"], game
        for key, (meaning, _example) in body["unset"].items():
            description = fields[key]["description"].casefold()
            assert not any(w in description for w in unset_words), (game, key, description)
            # nor a clause of the meaning (its words up to a comma or a colon)
            head = re.split(r"[,;:(]", meaning)[0].strip().casefold()
            assert len(head) < 12 or head not in description, (game, key, head)


@pytest.mark.parametrize(
    ("lang", "graded", "wolf"),
    [("en", "Graded", "Howling Wolf"), ("it", "Graduata", "Il lupo ulula")],
)
def test_a_built_in_fills_the_editor_with_its_title_not_its_id(
    live_server: Any, lang: str, graded: str, wolf: str
) -> None:
    """The editor's Name box of a built-in rule set reads its title in the reader's language
    ("dolly-graded" once showed there); the rule set is still named by its id."""
    names = {}
    for game in GAMES:
        body = live_server.http.get(f"/api/rules/{game}", headers=LANGS[lang]).json()
        names |= {r["name"]: r["rules"]["name"] for r in body["rulesets"]}
    assert (names["dolly-graded"], names["howling-wolf"]) == (graded, wolf)
