"""What a player reads about rules and bots, in words: never one of our identifiers.

* :func:`house_rules`: what a table's (or a gallery rule set's) rules change from the rulebook,
  a sentence each: part by part in the game's own words (:attr:`GameSpec.differences
  <sheepfold.core.registry.GameSpec.differences>`, generated from the rules), then a line for
  each option no part describes (a turn limit...), from the option's description. Cached by the
  rules' content: a table's words are made once, however often they are read.
* :func:`ruleset_title`: a rule set's name as a title (``greedy-wolf``: "Greedy Wolf").
* :func:`levels`: the bot levels a family is offered, each with a title and a sentence that
  says how it plays (shown, not hidden in a tooltip); bots made for the lab are not offered.
* :func:`perfect_words`: whether the perfect bot can play a table now, in words.
* :func:`editor_words`, :func:`in_words`: the rule editor's descriptions, which name other
  options by their keys (``colour by match_colour``), with each key said as that option's label
  ("Match colour").

Nothing here compares a game's name: what differs comes from the game's spec.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from sheepfold.bots.levels import LEVELS, SAME_AS
from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.registry import game_spec
from sheepfold.core.words import Msg, chained

#: rule sets' and options' informational fields: no rules
NOT_RULES = ("name", "description")


def levels(game: str) -> list[dict[str, str]]:
    """The bot levels of ``game`` a family is offered: ``{"name", "title", "about"}`` each."""
    from sheepfold.bots import available_bots

    bots = available_bots(game)
    return [
        {"name": name, "title": title, "about": about}
        for name, (title, about) in LEVELS.items()
        if name in bots and SAME_AS.get(name) not in bots
    ]


def level_title(spec: str | None) -> str:
    """A bot's level as a title (``expert:time=2``: "Expert"); a bot for the lab: "a bot"."""
    name = (spec or "").partition(":")[0]
    return LEVELS[name][0] if name in LEVELS else Msg("a bot")


# -- rule sets --------------------------------------------------------------------------------
def ruleset_title(game: str, name: str) -> str:
    """A rule set's name as a title: its words, the game's own name left out, each word a
    capital as a title has it (``greedy-wolf``: "Greedy Wolf"; ``my-friend-mr-wolf``: "My
    Friend Mr Wolf"; ``dolly-graded``: "Graded"). The page's ``SF.title`` says a name alike."""
    title_words = {w.casefold() for w in game_spec(game).title.split()}
    parts = [w for w in name.replace("_", "-").split("-") if w]
    while len(parts) > 1 and parts[0].casefold() in title_words:
        parts = parts[1:]
    return title_case(parts)


#: the words a title leaves in small letters, but for its first (static/common.js: the same)
SMALL_WORDS = frozenset("a an and at by for in of on or the to".split())


def title_case(words: list[str]) -> str:
    """Words as a title ("Race to Twelve"): each a capital first letter, the small words of
    :data:`SMALL_WORDS` left as they are but for the first."""
    return " ".join(
        w if i and w in SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


def is_rulebook(game: str, rules: Any) -> bool:
    """Whether a rules model plays exactly the rulebook's game (a rule set that only names it)."""
    return not house_rules(game, rules.model_dump(mode="json", exclude_defaults=True))


# -- house rules ------------------------------------------------------------------------------
def house_rules(game: str, rules: dict[str, Any], base: dict[str, Any] | None = None) -> list[str]:
    """What ``rules`` (an option dict) change from ``base`` (None: the rulebook), a sentence
    each, in the game's words; empty when they play alike."""
    key = json.dumps([rules, base or {}], sort_keys=True, default=str)
    return list(_house_rules(game, key))


@functools.lru_cache(maxsize=512)
def _house_rules(game: str, key: str) -> tuple[str, ...]:
    from sheepfold.games import parse_rules

    options, base_options = json.loads(key)
    spec = game_spec(game)
    base, rules = parse_rules(game, base_options), parse_rules(game, options)
    full_base, full = base.model_dump(mode="json"), rules.model_dump(mode="json")
    changed = [k for k in full if k not in NOT_RULES and full[k] != full_base.get(k)]
    if not changed:
        return ()
    described = spec.differences(base, rules) if spec.differences is not None else []
    lines = list(described)
    for k in changed:  # the options the parts' words do not show
        if described and spec.differences is not None:
            try:
                back = parse_rules(game, {**full, k: full_base.get(k)})
            except SheepfoldError:  # it cannot go back alone (a face names a verb): a part
                continue
            if spec.differences(base, back) != described:
                continue  # its change is in the words above
        lines.append(option_line(spec.rules_class.model_fields[k].description, full[k]))
    return tuple(lines)


def option_line(description: str | None, value: Any) -> str:
    """An option no part describes, in words: its description and its value
    (``Howling Wolf: each seat's chance weight to grab the wolf first: 1, 1, 2.``)."""
    about = option_about(description)
    if about is None:
        return Msg("Another rule: {value}.", value=value_words(value))
    # the description is a text of the catalog (server/i18n.py: extract_rules)
    return Msg("{about}: {value}.", about=Msg(about), value=value_words(value))


def option_about(description: str | None) -> str | None:
    """An option's description as the start of its line (``Howling Wolf: each seat's...``:
    its first letter a capital, no full stop), or None when it has none."""
    about = (description or "").strip().rstrip(".")
    return about[:1].upper() + about[1:] if about else None


def option_short(description: str | None) -> str | None:
    """An option's description said short, as a history entry names it ("rows of the flock
    (Dolly Crush ruling 1)": "rows of the flock"), or None when it has none."""
    short = (description or "").split(":")[0].split("(")[0].strip()
    return short or None


def value_words(value: Any) -> str:
    """An option's value in words (names in words, lists joined, yes/no)."""
    if isinstance(value, bool):
        return Msg("yes") if value else Msg("no")
    if value is None:
        return Msg("not set")
    if isinstance(value, (list, tuple)):
        return chained(
            [value_words(v) for v in value],
            lambda a, b: Msg("{a}, {b}", a=a, b=b),
            empty=Msg("none"),
        )
    if isinstance(value, dict):
        return chained(
            [
                Msg("{name}: {value}", name=name_words(k), value=value_words(v))
                for k, v in value.items()
            ],
            lambda a, b: Msg("{a}; {b}", a=a, b=b),
            empty=Msg("none"),
        )
    if isinstance(value, str):
        return name_words(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def name_words(name: str) -> str:
    """A name of ours as words (``my-friend-mr-wolf``: "my friend mr wolf")."""
    return name.replace("_", " ").replace("-", " ").strip()


# -- the rule editor -------------------------------------------------------------------------
#: a key of ours in a description: snake_case, or a hyphenated name the editor offers
NAMED = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+(?![\w-])")


def controls(fields: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every control of the rule editor's ``fields`` at any depth (a part's fields, a list's
    item, a map's value), each before the controls inside it."""
    for ctl in fields:
        yield ctl
        yield from controls(
            [s for s in (*ctl.get("fields", ()), ctl.get("item"), ctl.get("value")) if s]
        )


def option_names(fields: list[dict[str, Any]]) -> dict[str, str]:
    """What each name the rule editor shows stands for, in words: an option's key (at any depth
    of :func:`sheepfold.server.rules_api.rule_fields`) its label in quotes ("Max wool"), a choice
    it offers (``cutting-costs``) in words."""
    said: dict[str, str] = {}
    for ctl in controls(fields):
        if ctl.get("name"):
            said.setdefault(
                ctl["name"], f"\u201c{ctl.get('label') or name_words(ctl['name'])}\u201d"
            )
        said_as = ctl.get("words") or ()  # the choices' words (in the reader's language)
        for i, choice in enumerate(ctl.get("choices", ())):
            if isinstance(choice, str):
                said.setdefault(choice, said_as[i] if i < len(said_as) else name_words(choice))
    return said


def in_words(text: str, names: dict[str, str]) -> str:
    """``text`` with each of ``names`` it names said in words (``at most max_wool``: at most
    "Max wool"); nothing else is changed."""
    return NAMED.sub(lambda m: names.get(m[0], m[0]), text)


def editor_words(fields: list[dict[str, Any]], names: dict[str, str]) -> None:
    """The rule editor's descriptions (an option's, a part's) said in words, in place."""
    for ctl in fields:
        for key in ("description", "about"):
            if isinstance(ctl.get(key), str):
                ctl[key] = in_words(ctl[key], names)
        editor_words(
            [s for s in (*ctl.get("fields", ()), ctl.get("item"), ctl.get("value")) if s], names
        )


# -- the perfect bot --------------------------------------------------------------------------
def perfect_words(ready: bool, players: int, wait: int | None, why: str | None) -> str:
    """Whether the perfect bot plays a table now, in a sentence for the lobby."""
    if ready:
        return Msg("The perfect bot is ready for these rules.")
    if wait is not None:
        return Msg(
            "The perfect bot first works out every position of these rules: about {s} s. "
            "The table opens when it is ready.",
            s=wait,
        )
    if why == "too big":
        return Msg(
            "The perfect bot cannot play {n} players with these rules: there are too "
            "many positions for this server to work out. Choose another level.",
            n=players,
        )
    return Msg("The perfect bot cannot play these rules here. Choose another level.")
