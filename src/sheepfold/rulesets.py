"""Named rule sets: built-in presets and the user's own, saved and shared as TOML or JSON files.

A rule-set file is a flat table: ``game`` (which game), ``name``, ``description`` and any rule
options of that game (``wool = 40``, ``variants = ["cutting-costs"]``, ``[dog_swaps]`` ...).
User rule sets live in ``$SHEEPFOLD_HOME/rules`` (default ``~/.sheepfold/rules``).

:meth:`RuleSet.to_toml` writes every option, each with what it means; an option left unset is a
comment with the value it amounts to. :func:`with_options` applies ``KEY=VALUE`` texts and
variants (the command line's ``--set`` and ``--variant``) to a rule set.
"""

from __future__ import annotations

import functools
import json
import os
import re
import textwrap
import tomllib
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import tomli_w
from pydantic import BaseModel

from sheepfold.core.files import (
    MAX_RULES_BYTES,
    FileRefused,
    parse_document,
    read_bytes,
    read_document,
    rule_file_kind,
)
from sheepfold.core.protocol import RulesError
from sheepfold.core.registry import game_spec
from sheepfold.core.words import Msg, text_of
from sheepfold.games import GAME_NAMES, parse_rules, rules_class

T = TypeVar("T")


#: the key of a rule file that names the rule set it starts from
BASE_KEY = "from"
#: ``from = "rulebook"``: the printed rules of the file's game
RULEBOOK = "rulebook"
#: the most rule sets one file may start from, one on another
MAX_BASES = 8
#: a base's informational options, never carried to the rule sets made from it
TEXTS = ("name", "description")


@dataclass(frozen=True)
class RuleSet:
    game: str
    rules: Any  # the game's validated rules model
    source: str  # "built-in" or a file path
    base: str = RULEBOOK  # the rule set it starts from: a rule set's name, or "rulebook"

    @property
    def name(self) -> str:
        return self.rules.name or "(unnamed)"

    def to_toml(self) -> str:
        """The rule set as a rule-set file with every option spelled out, defaults included, each
        after a comment saying what it is; an option left unset (``die``, ``max_turns``...) is a
        commented line with the value it amounts to. Reading it back gives the same rules."""
        return rules_toml(self.game, self.rules, self.base)


def user_dir() -> Path:
    home = os.environ.get("SHEEPFOLD_HOME")
    return (Path(home) if home else Path.home() / ".sheepfold") / "rules"


def default_base(game: str) -> str:
    """The rule set a rule file of ``game`` starts from when it names none: the game's default
    rules, the same as play, the lab, the lobby and the gallery start from
    (:attr:`~sheepfold.core.registry.GameSpec.default_ruleset`; Dolly Crush: ``dolly-graded``),
    else the rulebook."""
    return game_spec(game).default_ruleset or RULEBOOK


def rebase(
    game: str, base: Any | None, changes: dict[str, Any], source: str = "", field: str = ""
) -> Any:
    """The rules ``changes`` (options, as a rule file or ``--set`` gives them) make of ``base``
    (a rules model of ``game``; None: the rulebook): :func:`rebased_options`, validated by the
    game's model. A :class:`RulesError` names ``source`` (and each option as ``field.KEY``)."""
    try:
        return parse_rules(game, rebased_options(game, base, changes), where=field)
    except RulesError as e:
        raise RulesError(sourced(source, text_of(e))) from None


def sourced(source: str, problem: str) -> str:
    """A problem of the rule file (or rule set) ``source``, as ``source: problem`` (just the
    problem without a source), its words kept translatable."""
    return Msg("{where}: {problem}", where=source, problem=problem) if source else problem


def rebased_options(game: str, base: Any | None, changes: dict[str, Any]) -> dict[str, Any]:
    """The options (not yet validated) ``changes`` make of ``base`` (a rules model of ``game``;
    None: the rulebook): each option given replaces the base's, a table (``[dog_swaps]``,
    ``[setup]``...) adds to the base's entries or replaces them, and the base says what else
    follows from a change (its ``follow``: Dolly Crush's graded dog cards stay graded for
    another ``dogs_per_player``). A rule language's aliases in ``changes`` are expanded first;
    the base's name and description are not carried."""
    expand = getattr(rules_class(game), "expand_aliases", None)
    changes = expand(changes) if expand else dict(changes)
    if base is None:
        return changes
    data = base.model_dump(mode="json", by_alias=True, exclude_none=True)
    for key in TEXTS:
        data.pop(key, None)
    given_by = getattr(base, "given_by", None)  # options a change says itself (a shape: its size)
    for key in given_by(changes) if given_by else ():
        data.pop(key, None)
    follow = getattr(base, "follow", None)
    for key, value in (follow(changes) if follow else {}).items():
        own = changes.get(key)
        if own is None:
            changes[key] = value
        elif isinstance(own, dict):
            changes[key] = {**value, **own}
    for key, value in changes.items():
        old = data.get(key)
        data[key] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
    return data


def base_rules(game: str, name: Any, where: str) -> Any | None:
    """The rules model of the rule set named ``name`` that a rule set of ``game`` starts from
    (None: ``"rulebook"``, the printed rules), by name only (a built-in's or one in your rules
    folder): a :class:`RulesError` starting with ``where`` when there is none, it is another
    game's, or its own bases lead back to it."""
    return _base(game, name, where, ())


def parse_ruleset(
    data: Any,
    source: str,
    game: str | None = None,
    *,
    text: str | None = None,
    chain: tuple[str, ...] = (),
    ident: str | None = None,
    start: str | None = None,
    field: str = "",
) -> RuleSet:
    """A rule file's data (``text``: the file's text, to say on which line its ``from`` is) as
    a rule set: its options on the rule set its ``from`` names (a built-in's or one of yours,
    by name; ``"rulebook"``: the printed rules), or on ``start`` (default:
    :func:`default_base`). ``chain``: the files read to get here (a file that starts from
    itself, through others, is refused), each by its ``ident`` (default: ``source``);
    ``field``: the options' place in a larger document (``rules``: ``rules.wool``)."""
    if not isinstance(data, dict):
        raise RulesError(sourced(source, Msg("a rule set is a table of options")))
    data = dict(data)
    name = data.pop("game", None) or game
    games = ", ".join(GAME_NAMES)
    if name is None:
        raise RulesError(
            sourced(source, Msg("game: say which game the rules are for ({games})", games=games))
        )
    if name not in GAME_NAMES:
        raise RulesError(
            sourced(
                source, Msg("game: unknown game {name} ({games})", name=repr(name), games=games)
            )
        )
    if game is not None and name != game:
        raise RulesError(
            sourced(source, Msg("these rules are for {named}, not {game}", named=name, game=game))
        )
    given = BASE_KEY in data
    base_name = data.pop(BASE_KEY, None) if given else (start or default_base(name))
    line = _line_of(text, BASE_KEY) if given and text else None
    where = f"{source}, line {line}" if line else source
    base = _base(name, base_name, where, (*chain, ident or source))
    try:
        rules = rebase(name, base, data, field=field)
    except RulesError as e:
        raise RulesError(sourced(source, text_of(e))) from None
    return RuleSet(name, rules, source, base_name)


def _line_of(text: str, key: str) -> int | None:
    """The line of ``text`` (a TOML or JSON file) where its top-level ``key`` is given."""
    pattern = re.compile(rf'^\s*(?:{re.escape(key)}|"{re.escape(key)}")\s*[=:]')
    toml = not text.lstrip().startswith("{")
    for i, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return i
        if toml and line.lstrip().startswith("["):  # a table: no top-level key after it
            break
    return None


def _base(game: str, name: Any, where: str, chain: tuple[str, ...]) -> Any | None:
    """The rules model of the base ``name`` of a ``game`` rule file (None: the rulebook)."""
    if name == RULEBOOK:
        return None
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise RulesError(
            _of_base(
                where,
                Msg(
                    'give the name of the rule set these rules start from (e.g. {key} = "{name}"), '
                    'or "{rulebook}" for the printed rules',
                    key=BASE_KEY,
                    name=default_base(game),
                    rulebook=RULEBOOK,
                ),
            )
        )
    if len(chain) > MAX_BASES:
        raise RulesError(
            _of_base(where, Msg("rule sets start from one another more than {n} deep", n=MAX_BASES))
        )
    found = _named(name, chain, where)
    if found is None:
        known = ", ".join(sorted({RULEBOOK, *_names(game)}))
        raise RulesError(
            _of_base(
                where,
                Msg(
                    "no {game} rule set named {name} (known: {known})",
                    game=game,
                    name=repr(name),
                    known=known,
                ),
            )
        )
    if found.game != game:
        raise RulesError(
            _of_base(
                where,
                Msg(
                    "{name} is a {other} rule set, and these rules are for {game}",
                    name=repr(name),
                    other=found.game,
                    game=game,
                ),
            )
        )
    return found.rules


def _of_base(where: str, problem: str) -> str:
    """A problem of a rule file's base (``from``), as ``where: from: problem``."""
    return sourced(where, Msg("{where}: {problem}", where=BASE_KEY, problem=problem))


def _preset_texts() -> list[tuple[str, str]]:
    """(file name, text) of each built-in rule set."""
    out = []
    for entry in sorted(resources.files("sheepfold.presets").iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".toml"):
            out.append((entry.name, entry.read_text(encoding="utf-8")))
    return out


def _user_files() -> list[Path]:
    d = user_dir()
    if not d.is_dir():
        return []
    return [p for p in sorted(d.iterdir()) if p.suffix in (".toml", ".json")]


def _peek(path: Path) -> dict[str, Any]:
    """A user rule file's data, unchecked ({} when it cannot be read)."""
    try:
        data = read_document(path, rule_file_kind(path), max_bytes=MAX_RULES_BYTES)
    except FileRefused:
        return {}
    return data if isinstance(data, dict) else {}


def _names(game: str) -> list[str]:
    """The names of ``game``'s rule sets, built-in and yours, without reading their bases."""
    names = []
    for _, text in _preset_texts():
        data = tomllib.loads(text)
        if data.get("game") == game:
            names.append(str(data.get("name")))
    for p in _user_files():
        data = _peek(p)
        if data.get("game") == game and isinstance(data.get("name"), str):
            names.append(data["name"])
    return names


def _named(name: str, chain: tuple[str, ...], where: str) -> RuleSet | None:
    """The rule set named ``name`` (a built-in's first, then yours), read with its own bases;
    a :class:`RulesError` when reading it leads back to a file of ``chain``."""
    for file, text in _preset_texts():
        data = tomllib.loads(text)
        if data.get("name") == name:
            source = f"built-in {file}"
            _not_in(source, chain, name, where)
            return parse_ruleset(data, "built-in", text=text, chain=chain, ident=source)
    for p in _user_files():
        if _peek(p).get("name") == name:
            _not_in(str(p.resolve()), chain, name, where)
            return read_ruleset_file(p, chain=chain)
    return None


def _not_in(source: str, chain: tuple[str, ...], name: str, where: str) -> None:
    if source in chain:
        loop = " → ".join([*chain[chain.index(source) :], source])
        raise RulesError(
            _of_base(
                where,
                Msg(
                    "{name} starts, through its own {key}, from these rules again ({loop}): a "
                    "rule set cannot start from itself",
                    name=repr(name),
                    key=BASE_KEY,
                    loop=loop,
                ),
            )
        )


def read_ruleset_file(path: Path, game: str | None = None, chain: tuple[str, ...] = ()) -> RuleSet:
    """A rule file (``.json``: JSON, else TOML), read within the limits of
    :mod:`sheepfold.core.files` (:data:`~sheepfold.core.files.MAX_RULES_BYTES`, its nesting):
    a :class:`RulesError` naming the file and what is wrong (and the line of a bad ``from``)."""
    try:
        raw = read_bytes(path, MAX_RULES_BYTES)
        data = parse_document(raw, rule_file_kind(path), str(path), max_bytes=MAX_RULES_BYTES)
    except FileRefused as e:
        raise RulesError(str(e)) from None
    text = raw.decode("utf-8", "replace")
    ident = str(Path(path).resolve())
    return parse_ruleset(data, str(path), game, text=text, chain=chain, ident=ident)


def builtin_rulesets() -> list[RuleSet]:
    return list(_builtins())


@functools.cache
def _builtins() -> tuple[RuleSet, ...]:
    """The built-in rule sets, read once (frozen models: safe to share)."""
    return tuple(
        parse_ruleset(tomllib.loads(text), "built-in", text=text, ident=f"built-in {file}")
        for file, text in _preset_texts()
    )


def user_rulesets() -> list[RuleSet]:
    out = []
    for p in _user_files():
        try:
            out.append(read_ruleset_file(p))
        except RulesError:
            continue  # `sheepfold rules check` reports broken files
    return out


def all_rulesets(game: str | None = None) -> list[RuleSet]:
    sets = builtin_rulesets() + user_rulesets()
    return [r for r in sets if game is None or r.game == game]


def find_ruleset(name_or_path: str, game: str | None = None) -> RuleSet:
    """A rule set by file path or by name (built-in or the user's)."""
    p = Path(name_or_path).expanduser()
    if p.suffix in (".toml", ".json") or os.sep in name_or_path:
        if not p.exists():
            raise RulesError(f"no rule-set file {name_or_path}")
        return read_ruleset_file(p, game)
    for r in all_rulesets(game):
        if r.rules.name == name_or_path:
            return r
    known = ", ".join(r.name for r in all_rulesets(game))
    raise RulesError(
        Msg("no rule set named {name} (known: {known})", name=repr(name_or_path), known=known)
    )


def resolve(
    game: str,
    rules: Any = None,
    sets: Sequence[str] = (),
    variants: Sequence[str] = (),
    *,
    start: str = RULEBOOK,
    where: str = "rules",
    **fixed: Any,
) -> Any:
    """The rules model of ``game`` that ``rules`` names, however it is given: the one path of
    every front end (play, solve, the lab, the gallery, the web API, :func:`sheepfold.make`).

    ``rules`` is a rules model (taken as it is), a rule set's name (a built-in's or yours;
    ``"rulebook"``: the printed rules), a rule file's path, or a rule file's options as a
    mapping (its ``from`` names its base, as in a file; without one it starts from ``start``:
    the rulebook unless a front end says otherwise); None is ``start`` itself. ``sets``
    (``KEY=VALUE``), ``fixed`` and ``variants`` then go on top (:func:`with_options`). A
    :class:`RulesError` says what is wrong and where; nothing is half-applied."""
    cls = rules_class(game)
    if rules is None:
        rules = start
    model: Any
    if isinstance(rules, cls):
        model = rules
    elif isinstance(rules, BaseModel):  # another model of the same options
        model = parse_rules(game, rules, where)
    elif isinstance(rules, str | os.PathLike):
        text = os.fspath(rules)
        model = None if text == RULEBOOK else find_ruleset(text, game).rules
    elif isinstance(rules, Mapping):
        data = dict(rules)
        data.setdefault("game", game)
        model = parse_ruleset(data, "", game, start=start, field=where).rules
    else:
        raise RulesError(
            sourced(
                where,
                Msg(
                    "give a rule set's name, a rule file's path or a table of rule options, "
                    "not {what}",
                    what=type(rules).__name__,
                ),
            )
        )
    if sets or variants or fixed:
        return with_options(game, model, sets, variants, **fixed)
    return parse_rules(game, None) if model is None else model


#: a rule set's name: it becomes a file name in your rules folder
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise RulesError(
            f"rule-set name {name!r}: use 1 to 64 letters, digits, '-' and '_', starting with a "
            "letter or digit (e.g. long-shear)"
        )


def save_ruleset(rs: RuleSet, path: Path | None = None, force: bool = False) -> Path:
    """Write ``rs`` to ``path`` (default: your rules folder, under its name, which must then be a
    plain file name and not a built-in's: yours would never be found). An existing file is
    replaced only with ``force``; the file is written whole or not at all."""
    name = rs.rules.name
    if path is None:
        if not name:
            raise RulesError("a rule set needs a name to be saved")
        check_name(name)
        if any(b.rules.name == name for b in builtin_rulesets()):
            raise RulesError(
                f"{name!r} is a built-in rule set's name: a rule set of yours with it would never "
                "be found; choose another name"
            )
        path = user_dir() / f"{name}.toml"
    if path.exists() and not force:
        raise RulesError(f"{path} exists already: add --force to replace it")
    if path.suffix == ".json":
        data = {
            "game": rs.game,
            BASE_KEY: _exact_base(rs.game, rs.rules, rs.base),
            **rs.rules.model_dump(mode="json", exclude_none=True),
        }
        text = json.dumps(data, indent=2) + "\n"
    else:
        text = rs.to_toml()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


# -- writing every option -------------------------------------------------------------------
def _toml_value(value: Any) -> str:
    """A value as inline TOML (arrays on one line)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return tomli_w.dumps({"v": value}).partition("=")[2].strip()


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def _choices(annotation: Any) -> list[Any]:
    """The values a field's type allows when it is a ``Literal`` (inside a tuple or not)."""
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return [c for arg in typing.get_args(annotation) for c in _choices(arg)]


def _field_comment(field: Any) -> str:
    """A field's description with its bounds and choices: ``pieces a sheep can carry (1 to 100)``."""
    text = field.description or ""
    ge = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
    le = next((m.le for m in field.metadata if hasattr(m, "le")), None)
    if ge is not None and le is not None:
        text += f" ({ge} to {le})"
    elif ge is not None:
        text += f" (at least {ge})"
    choices = _choices(field.annotation)
    if choices:
        text += f"; any of: {', '.join(str(c) for c in choices)}"
    return text


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, 96, initial_indent="# ", subsequent_indent="#   ")


def rules_toml(game: str, rules: Any, base: str = RULEBOOK) -> str:
    """``rules`` (a game's rules model) as a rule-set file: the rule set it starts from
    (``base``; the rulebook when the base sets an option these rules leave unset), then every
    option, each after a comment (its description, bounds and choices). An option left unset
    (None) is written as a comment, with what it means and the value it amounts to when the
    rules model says (``unset_options()``), so that the file reads back as the very same
    rules."""
    values = rules.model_dump(mode="json")
    unset: dict[str, tuple[str, Any]] = getattr(rules, "unset_options", dict)()
    fields = type(rules).model_fields
    lines = [
        f"# A {game} rule set, every option spelled out (defaults included). A line '# key = value'",
        "# is an option left unset, showing what it amounts to: remove the '#' to set it.",
        f"game = {_toml_value(game)}",
        "# the rule set these rules start from (every option is spelled out below)",
        f"{BASE_KEY} = {_toml_value(_exact_base(game, rules, base))}",
    ]
    tables = []
    for key, field in fields.items():
        value = values[key]
        if isinstance(value, dict):
            tables.append((key, field, value))
            continue
        if key not in ("name", "description") or value is None:
            lines += _comment(_field_comment(field))
        if value is not None:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
            continue
        meaning, example = unset.get(key, ("", None))
        lines += _comment(f"unset{': ' + meaning if meaning else ''}")
        if example is not None:
            lines.append(f"# {_toml_key(key)} = {_toml_value(example)}")
    for key, field, table in tables:
        lines += ["", *_comment(_field_comment(field)), f"[{_toml_key(key)}]"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _exact_base(game: str, rules: Any, base: str) -> str:
    """``base``, or the rulebook when ``base`` sets an option ``rules`` leave unset (a file
    spelling out every option on ``base`` would then read back otherwise)."""
    if base == RULEBOOK:
        return base
    try:
        model = find_ruleset(base, game).rules
    except RulesError:
        return RULEBOOK
    unset = {k for k, v in rules.model_dump().items() if v is None and k not in TEXTS}
    return base if all(getattr(model, k) is None for k in unset) else RULEBOOK


# -- options from the command line ----------------------------------------------------------
def parse_assignment(item: str, flag: str = "--set") -> tuple[str, Any]:
    """``KEY=VALUE`` as (key, value): the value read as TOML (``12``, ``true``, ``[1, 2]``,
    ``"text"``), else taken as text (a bare word: ``description=longer game``)."""
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise RulesError(f"{flag} {item!r}: write KEY=VALUE, e.g. {flag} wool=12")
    try:
        return key, tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return key, value.strip()


def with_options(
    game: str,
    base: Any | None,
    sets: Sequence[str] = (),
    variants: Sequence[str] = (),
    **fixed: Any,
) -> Any:
    """``base`` (a rules model of ``game``; None: the rulebook) with ``sets`` (``KEY=VALUE``
    texts, the command line's ``--set``), then ``fixed`` (name=..., description=...), then
    ``variants`` (added to the variants in play, ``--variant``) applied as a rule file's
    options are (:func:`rebase`: any option, what follows from it included; the base's name and
    description kept unless ``fixed`` says otherwise): a new rules model, validated by the
    game's rules model. A :class:`RulesError` says which flag and what is wrong
    (``--set: wool: must be at most 1000, not 2000``)."""
    fields = rules_class(game).model_fields
    changes = {k: getattr(base, k) for k in TEXTS if getattr(base, k, None) is not None}
    for item in sets:
        key, value = parse_assignment(item)
        if key not in fields:
            raise RulesError(
                f"--set {item!r}: {game} has no option {key!r} (its options: {', '.join(fields)})"
            )
        changes[key] = value
    changes.update(fixed)
    rules = rebase(game, base, changes, "--set")
    if not variants:
        return rules
    if "variants" not in fields:
        raise RulesError(f"--variant: {game} has no variants")
    return rebase(game, rules, {**changes, "variants": [*rules.variants, *variants]}, "--variant")


def rules_differences(game: str, a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """What differs between two rule sets of ``game`` (their option dicts, as jobs keep them),
    one line per option in words: ``wool (pieces of wool in the middle at setup): 30 → 40``.
    Options either leaves unset show as the rulebook's value; the names and descriptions of the
    rule sets are not rules and are left out. A game whose rules are all parts of its rule
    language (Dolly Crush), and Shave a Sheep rule sets written in the rule language: part by
    part, in the words the game generates (:attr:`GameSpec.differences
    <sheepfold.core.registry.GameSpec.differences>`)."""
    fields = rules_class(game).model_fields
    rules_a, rules_b = parse_rules(game, a), parse_rules(game, b)
    parts = getattr(rules_a, "language_parts", None)
    described = game_spec(game).differences
    if described is not None:
        if parts is None or rules_a.language_parts() or rules_b.language_parts():
            # a rule language's parts: part by part, in the words the game generates
            return described(rules_a, rules_b)
    full_a = rules_a.model_dump(mode="json")
    full_b = rules_b.model_dump(mode="json")
    out = []
    for key, field in fields.items():
        va, vb = full_a.get(key), full_b.get(key)
        if key in ("name", "description") or va == vb:
            continue
        about = f" ({field.description})" if field.description else ""
        if isinstance(va, dict) and isinstance(vb, dict):  # only the entries that differ
            for k in dict.fromkeys([*va, *vb]):
                if va.get(k) != vb.get(k):
                    out.append(f"{key}, {k}{about}: {_shown(va.get(k))} → {_shown(vb.get(k))}")
            continue
        out.append(f"{key}{about}: {_shown(va)} → {_shown(vb)}")
    return out


def closest_base(game: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The rule set ``options`` (a valid option dict of ``game``, as the gallery stores them)
    were most likely made from: of the game's default rules, the rulebook and the built-in rule
    sets, the one they differ from in the fewest options (the default rules, then the rulebook,
    first on a tie), as (its name, its options: ``{}`` for the rulebook). The gallery describes
    and measures a rule set against it."""
    first = default_base(game)
    named = {r.rules.name: r for r in builtin_rulesets() if r.game == game}
    order = [first, *([RULEBOOK] if first != RULEBOOK else []), *sorted(named)]
    best: tuple[int, str, dict[str, Any]] | None = None
    for name in dict.fromkeys(order):
        base = {} if name == RULEBOOK else _options(named[name].rules)
        n = len(rules_differences(game, base, options))
        if best is None or n < best[0]:
            best = (n, name, base)
    assert best is not None
    return best[1], best[2]


def _options(rules: Any) -> dict[str, Any]:
    """A rules model's options that differ from the rulebook, without its name and
    description."""
    data = rules.model_dump(mode="json", exclude_defaults=True)
    return {k: v for k, v in data.items() if k not in TEXTS}


def base_words(game: str, name: str) -> str:
    """A base rule set in words, for players: ``the rulebook``, or a built-in rule set's
    :func:`base_phrase`; a :class:`~sheepfold.core.words.Msg` a reader's language translates
    (the built-ins' phrases are texts of the catalog: server/i18n.py, ``extract_presets``)."""
    if name == RULEBOOK:
        return Msg("the rulebook")
    found = next((r for r in builtin_rulesets() if r.rules.name == name), None)
    return Msg(base_phrase(name, found.rules.description if found is not None else None))


def base_phrase(name: str, description: str | None) -> str:
    """The words of a rule set that is not the rulebook: the first words of its description
    when they name it (``The graded edition: ...``: "the graded edition"), else its name as
    words (``the cutting costs rules``)."""
    head, colon, _ = (description or "").partition(":")
    if colon and head.lower().startswith("the ") and len(head) <= 40:
        return "the " + head[4:]
    return f"the {name.replace('-', ' ').replace('_', ' ')} rules"


def _shown(value: Any) -> str:
    return "unset" if value is None else json.dumps(value)


def fair_default(
    game: str, build: Callable[[Any], T], seats_chosen: bool = False
) -> tuple[str | None, T]:
    """What a front end plays when no rule set is asked for: ``build(rules)`` on the game's
    default rule set (:attr:`~sheepfold.core.registry.GameSpec.default_ruleset`; Dolly Crush:
    ``dolly-graded``, equal dog cards for every seat), with its name; or ``build(None)`` (the
    rulebook) and None when what ``build`` adds cannot take that rule set (a
    :class:`RulesError`: options merged by hand, ``dogs_per_player=6`` beside four graded
    cards a breed, say; :func:`rebased_options` regrades them), or when
    ``seats_chosen`` (breeds given: they keep their printed cards, no silent change of rules;
    front ends warn when those differ)."""
    from sheepfold.core.registry import game_spec

    name = game_spec(game).default_ruleset
    if name is not None and not seats_chosen:
        try:
            return name, build(find_ruleset(name, game).rules)
        except RulesError:
            pass
    return None, build(None)


def warn_unequal_seats(game: Any) -> str | None:
    """Warn (:class:`UserWarning`) when the game's seats are not on equal terms, in the game's
    own words (:attr:`~sheepfold.core.registry.GameSpec.unequal_seats`); return the warning."""
    import warnings

    from sheepfold.core.registry import game_spec

    text = game_spec(game.name).unequal_seats(game)
    if text:
        warnings.warn(text, UserWarning, stacklevel=3)
    return text
