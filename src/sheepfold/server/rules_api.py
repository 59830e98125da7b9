"""The rules API: each game's rule options as data (for the lobby's rule editor) and a cheap check
of a rule set.

Everything comes from the game's pydantic rules model: the options are read from its JSON schema,
a rule set is checked by the model (``sheepfold.games.check_rules``: the same messages as
``sheepfold rules check``) and written out by ``sheepfold.rulesets.rules_toml``. Then what a
game under it costs, from the rules alone (:mod:`sheepfold.bots.costs`: a deal's and a turn's
chance steps over a web table's limits, or a gallery card's, are refused in words; a table's
bots are checked by :func:`table_cost_refusal`). Then, as
``sheepfold rules check`` and a new table do, whether a game under it can end
(:func:`sheepfold.games.endings.ending_refusal`: the same words): that is solving, bounded by
positions, so it runs off the event loop, one check at a time, each rule set once per process.

    GET  /api/rules/{game}          the options as a tree of controls (:func:`rule_fields`), the
                                    rulebook, every rule set with all its options, the caps
    POST /api/rules/{game}/check    a rule set as JSON (an object of options; ``?file=1``: a
                                    .json rule file) or as a TOML rule-set file
                                    (Content-Type: application/toml); a file's options go on
                                    the rule set its ``from`` names, else on the game's
                                    default rules, as a rule file on the command line

The caps are a rule file's (:mod:`sheepfold.core.files`): a body of at most
:data:`~sheepfold.core.files.MAX_RULES_BYTES` bytes (413 past it, before it is read on), lists
and tables at most :data:`~sheepfold.core.files.MAX_DEPTH` deep (422), then the model's own caps
on its parts (verbs, effects, faces...). A text the editor sends is refused exactly when the same
text as a rule file would be.

The controls are built from the schema alone, so a model's new parts appear in the editor
without an edit here: an object is a group of fields, a map (names to values) and a list are
edited entry by entry, each leaf a control of its kind. Labels are words: a field's own title,
else its key in words (``turns_each``: "Turns each"), never the key itself.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from sheepfold.core.files import MAX_DEPTH, MAX_RULES_BYTES
from sheepfold.core.words import Msg, text_of
from sheepfold.server.clients import CLIENT

#: the largest rule set the check reads: a rule file's cap
MAX_BODY = MAX_RULES_BYTES
#: what a body past it is told (413)
TOO_BIG = Msg("a rule set is at most {kib} KiB, as a rule file is", kib=MAX_BODY // 1024)
#: a request that carries a rule set and a little more (a table's settings, a gallery entry)
MAX_WITH_RULES = MAX_BODY + 4096
#: the deepest a schema's controls nest (a model that refers to itself ends in a JSON text)
MAX_CONTROL_DEPTH = 12

#: words for what each entry of a list or map is, where a key's own words would not say it
NOUNS = {"die": "face", "when": "condition", "variants": "variant"}


def _resolve(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A schema with its ``$ref`` (an enum or a model in ``$defs``) looked up."""
    ref = prop.get("$ref")
    if ref:
        return {
            **defs.get(ref.rsplit("/", 1)[-1], {}),
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    return prop


def words(key: str) -> str:
    """A key in words: ``turns_each`` -> ``Turns each``, ``from_`` -> ``From``."""
    text = re.sub(r"[_\s]+", " ", key).strip()
    return text[:1].upper() + text[1:].lower() if text else key


def label(key: str, schema: dict[str, Any]) -> str:
    """A field's label: its own title, unless it is only pydantic's from the key (``Turns Each``),
    then the key in words."""
    title = schema.get("title")
    auto = {key.replace("_", " ").title().strip(), key.title().replace("_", " ").strip()}
    if isinstance(title, str) and title.strip() and title not in auto:
        return Msg(title)
    return Msg(words(key))  # a text of the catalog (server/i18n.py: extract_rules)


def noun(key: str) -> str:
    """What one entry of the list or map ``key`` is called: ``verbs`` -> ``verb``."""
    if key in NOUNS:
        return Msg(NOUNS[key])
    w = words(key).lower()
    for end, repl in (("sses", "ss"), ("ses", "s"), ("xes", "x"), ("ies", "y"), ("s", "")):
        if w.endswith(end) and len(w) > len(end):
            return Msg(w[: -len(end)] + repl)
    return Msg("entry")


def _plain(text: Any) -> str:
    """A description as plain words (a docstring's ``code`` marks left out): a text of the
    catalog (server/i18n.py: extract_rules), empty when there is none."""
    plain = " ".join(str(text or "").replace("``", "").split())
    return Msg(plain) if plain else ""


def choice_words(choice: Any) -> str:
    """A choice an option offers in words (``in-place``: "in place"), a text of the catalog."""
    from sheepfold.server.plain_words import name_words

    return Msg(name_words(choice)) if isinstance(choice, str) else str(choice)


def _scalar(schema: dict[str, Any]) -> str | None:
    """The kind of a one-value schema (choice, integer, number, boolean, text), else None."""
    if "enum" in schema or "const" in schema:
        return "choice"
    kind = schema.get("type")
    if kind in ("integer", "number", "boolean"):
        return str(kind)
    return "text" if kind == "string" else None


def _control(
    schema: dict[str, Any], defs: dict[str, Any], key: str = "", depth: int = 0
) -> dict[str, Any]:
    """How to edit one value of this schema. ``kind`` is one of

    - choice (``choices``), integer or number (``min``/``max``), boolean, text (``max_length``;
      ``numbers``: digits are read as a number, ``suggestions``: words it may be);
    - list (``item``: a control, ``min_items``/``max_items``, ``noun``: what an entry is); a
      list of choices is a set of boxes to tick;
    - map (names to a ``value`` control, ``noun``);
    - object (``fields``: each a field of :func:`_field`; ``about``: what the object is);
    - json (a JSON text: anything else).
    """
    schema = _resolve(schema, defs)
    if depth > MAX_CONTROL_DEPTH:
        return {"kind": "json"}
    options = [_resolve(o, defs) for o in schema.get("anyOf", [])]
    if options:  # several kinds of one value: a text that reads numbers, with the words offered
        kinds = [_scalar(o) for o in options]
        if all(k in ("choice", "integer", "text") for k in kinds) and "integer" in kinds:
            offered = [c for o in options for c in o.get("enum", [o.get("const")]) if c is not None]
            return {"kind": "text", "numbers": True, "suggestions": offered, "max_length": None}
        return {"kind": "json"}
    scalar = _scalar(schema)
    if scalar == "choice":
        choices = schema.get("enum", [schema.get("const")])
        return {"kind": "choice", "choices": choices, "words": [choice_words(c) for c in choices]}
    if scalar in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        return {"kind": scalar, "min": low, "max": high}
    if scalar == "boolean":
        return {"kind": "boolean"}
    if scalar == "text":
        return {"kind": "text", "max_length": schema.get("maxLength")}
    kind = schema.get("type")
    if kind == "array" and "prefixItems" not in schema:
        items = _resolve(schema.get("items", {}), defs)
        # a list's entries are named by its key; a list inside a list (a team's seats) is not
        inner = "" if items.get("type") == "array" else key
        item = _control(items, defs, inner, depth + 1)
        return {
            "kind": "list",
            "item": item,
            "min_items": schema.get("minItems"),
            "max_items": schema.get("maxItems"),
            "noun": noun(key),
        }
    if kind == "object" and isinstance(schema.get("properties"), dict):
        required = set(schema.get("required", ()))
        return {
            "kind": "object",
            "about": _plain(schema.get("description")),
            "fields": [
                _field(name, prop, defs, name in required, depth + 1)
                for name, prop in schema["properties"].items()
            ],
        }
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        value = _control(schema["additionalProperties"], defs, key, depth + 1)
        return {"kind": "map", "value": value, "noun": noun(key)}
    return {"kind": "json"}


def _field(
    key: str, prop: dict[str, Any], defs: dict[str, Any], required: bool = False, depth: int = 0
) -> dict[str, Any]:
    """A field of an object: its key (``name``), ``label``, ``description``, ``default`` (when
    the schema gives one), ``required``, ``nullable`` (it may be left unset: null) and the
    control that edits it."""
    prop = _resolve(prop, defs)
    options = [_resolve(o, defs) for o in prop.get("anyOf", [])]
    kept = [o for o in options if o.get("type") != "null"]
    nullable = len(kept) < len(options)
    if options and len(kept) == 1:
        schema = {**kept[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
    elif options:
        schema = {**prop, "anyOf": kept}
    else:
        schema = prop
    out: dict[str, Any] = {
        "name": key,
        "label": label(key, prop),
        "description": _plain(prop.get("description")),
        "required": required,
        **_control(schema, defs, key, depth),
        "nullable": nullable,
    }
    if "default" in prop:
        out["default"] = prop["default"]
    return out


def rule_fields(cls: Any) -> list[dict[str, Any]]:
    """Every option of a rules model, in the model's order: its key (``name``), ``label``,
    description, rulebook value and the control that edits it (see :func:`_control`: an option
    that is a part of a rule language is an object, map or list of controls, all the way down)."""
    try:
        schema = cls.model_json_schema(by_alias=True)
    except Exception:  # a type JSON schema cannot describe: every option a JSON text
        schema = {}
    props, defs = schema.get("properties", {}), schema.get("$defs", {})
    rulebook = cls().model_dump(mode="json")
    out = []
    for name, field in cls.model_fields.items():
        key = field.alias or name
        if key in props:
            control = _field(key, props[key], defs)
        else:
            control = {"name": key, "label": Msg(words(key)), "kind": "json", "nullable": True}
        control["description"] = Msg(field.description) if field.description else ""
        control.pop("required", None)
        control.pop("default", None)
        out.append({**control, "name": name, "rulebook": rulebook[name]})
    return out


#: each rules model's names in its editor, in words, per language (made once; read only)
_NAMES: dict[tuple[type, str], dict[str, str]] = {}


def _fields(cls: type, lang: str) -> list[dict[str, Any]]:
    """:func:`rule_fields` with its words (labels, descriptions, nouns, choices) in ``lang``."""
    from sheepfold.server.i18n import localize

    return localize(rule_fields(cls), lang)  # type: ignore[no-any-return]


def _names(cls: type, lang: str = "en") -> dict[str, str]:
    """The names a rules model's editor shows, in words (in ``lang``)."""
    from sheepfold.server.plain_words import option_names

    if (cls, lang) not in _NAMES:
        _NAMES[cls, lang] = option_names(_fields(cls, lang))
    return _NAMES[cls, lang]


def labels(fields: list[dict[str, Any]]) -> dict[str, str]:
    """Each option's and part's key (at any depth of ``fields``) with its label, the first
    one where a key is used twice: the words the editor says a place in a list or map with
    (an aria-label: "White per type, number 1")."""
    from sheepfold.server.plain_words import controls

    said: dict[str, str] = {}
    for ctl in controls(fields):
        if ctl.get("name"):
            said.setdefault(ctl["name"], ctl.get("label") or words(ctl["name"]))
    return said


def _unset(rules: Any, lang: str = "en") -> dict[str, Any]:
    """What each option left unset amounts to under these rules: {name: [meaning, value]}, the
    meaning in words."""
    from sheepfold.server.i18n import localize
    from sheepfold.server.plain_words import in_words

    names = _names(type(rules), lang)
    return {  # a meaning names options by their keys: said as their labels once translated
        k: [in_words(str(localize(meaning, lang)), names), value]
        for k, (meaning, value) in getattr(rules, "unset_options", dict)().items()
    }


def game_rules(game: str, lang: str = "en") -> dict[str, Any]:
    """``GET /api/rules/{game}``, its words in ``lang``."""
    from sheepfold.games import rules_class
    from sheepfold.rulesets import all_rulesets
    from sheepfold.server.plain_words import editor_words

    cls = rules_class(game)
    rulebook = cls()
    fields = _fields(cls, lang)
    editor_words(fields, _names(cls, lang))  # descriptions name other options by their keys
    return {
        "game": game,
        "fields": fields,
        "names": labels(fields),
        "rulebook": rulebook.model_dump(mode="json"),
        "unset": _unset(rulebook, lang),
        "limits": {"max_bytes": MAX_BODY, "max_depth": MAX_DEPTH, "too_big": TOO_BIG},
        "rulesets": [
            {
                "name": r.name,
                "description": Msg(r.rules.description or ""),  # (the catalog's: server/i18n.py)
                "source": "built-in" if r.source == "built-in" else "yours",
                "rules": shown_rules(game, r),
            }
            for r in all_rulesets(game)
        ],
    }


def shown_rules(game: str, r: Any) -> dict[str, Any]:
    """A rule set's options as the editor fills them in: a built-in's name is its title in
    words ("Graded", never its id ``dolly-graded``; the table is still made from its id, and
    the name is informational); the server's own rule files keep the name they were given."""
    from sheepfold.server.plain_words import ruleset_title

    rules: dict[str, Any] = r.rules.model_dump(mode="json")
    if r.source == "built-in" and r.rules.name:
        rules["name"] = Msg(ruleset_title(game, r.rules.name))  # the catalog's (i18n.py)
    return rules


def _read(body: bytes, toml: bool) -> tuple[Any, str | None]:
    """The rule set sent: (its data, None) or (None, what is wrong with the text), within the
    same limits as a rule file given to the command line (:mod:`sheepfold.core.files`)."""
    from sheepfold.core.files import FileRefused, parse_document

    try:
        data = parse_document(
            body,
            "toml" if toml else "json",
            "the rule set",
            max_bytes=MAX_BODY,
            max_depth=MAX_DEPTH,
        )
    except FileRefused as e:
        return None, e.problem
    # TOML dates and times become text: what is checked and sent back is plain JSON
    return (json.loads(json.dumps(data, default=str)) if toml else data), None


#: a model's message about a part it names first: ``verbs.steal.effects.0.from: ...``
#: the words of a problem at a path (core/errors.py: ``join_problems``; a game's rules)
WHERE_PROBLEM = "{where}: {problem}"
_NAMED = re.compile(r"([A-Za-z_][\w-]*(?:\.[\w-]+)*): (.+)", re.S)


def located(where: str, message: str, fields: Any) -> tuple[str, str]:
    """A problem as (the path of the value it is about, what is wrong): a model validator's
    message of the whole rule set that starts with a path to one of its ``fields``
    (``verbs.steal: no face of the die shows it``) is about that path. The two joined as
    ``where: message`` are the message as the model gave it. A message in words a reader's
    language translates (:class:`~sheepfold.core.words.Msg`) keeps them: its path is the
    ``where`` it was made with (``Msg("{where}: {problem}", ...)``)."""
    if not where:
        if isinstance(message, Msg) and message.template == WHERE_PROBLEM:
            path, problem = message.params["where"], message.params["problem"]
            if isinstance(path, str) and _NAMED.fullmatch(f"{path}: x"):
                if path.split(".")[0] in fields:
                    return path, problem
                return where, message
        m = _NAMED.fullmatch(message)
        if m and m.group(1).split(".")[0] in fields:
            return m.group(1), m.group(2)
    return where, message


def check(
    game: str, data: Any, file: bool = False, lang: str = "en", front: str = "web"
) -> dict[str, Any]:
    """A rule set checked by the game's model, as a rule file is (a rule language's aliases
    expanded; its ``from``, or with ``file`` the rule set a file without one starts from,
    :func:`sheepfold.rulesets.default_base`, under it; else the rulebook):
    ``ok`` with the rules (every option), the options that differ from the rulebook
    and the rule-set file (TOML); or the problems, each with the option it names (``field``;
    empty for the whole rule set), the path of the value it is about (``where``: pydantic's
    location, ``verbs.steal.effects.0.from``) and the model's message, and the one-line
    ``detail`` that ``sheepfold rules check`` prints. Whether a game can end is not solved
    here (seconds of solving): ``POST /api/rules/{game}/check`` adds it off the event loop.
    What a game under it costs is (:mod:`sheepfold.bots.costs`): over ``front``'s limits
    ("web": a table; "gallery": a gallery card) it is refused, saying which cost is over which
    limit."""
    data, rules, problems = checked(game, data, file, front)
    return answer(game, data, rules, problems, lang)


def checked(
    game: str, data: Any, file: bool = False, front: str = "web"
) -> tuple[Any, Any, list[tuple[str, str]]]:
    """:func:`check`'s work: (the data sent, without its ``game``; the rules, None when
    refused; the problems as (where, what)): the model's, the texts', then the costs over
    ``front``'s limits (:func:`sheepfold.bots.costs.cost_problems`: a deal's, a turn's)."""
    from sheepfold.core.protocol import RulesError
    from sheepfold.games import check_rules, rules_class
    from sheepfold.rulesets import (
        BASE_KEY,
        base_rules,
        default_base,
        rebased_options,
    )

    cls = rules_class(game)
    problems: list[tuple[str, str]] = []
    rules: Any = None
    if isinstance(data, dict):
        data = dict(data)
        named = data.pop("game", game)
        if named != game:
            problems.append(
                ("game", Msg("these rules are for {named}, not {game}", named=named, game=game))
            )
    expand = getattr(cls, "expand_aliases", None)
    try:
        if isinstance(data, dict) and (file or BASE_KEY in data):
            given = {k: v for k, v in data.items() if k != BASE_KEY}
            base = base_rules(game, data.get(BASE_KEY, default_base(game)), BASE_KEY)
            sent = rebased_options(game, base, given)
        else:
            sent = expand(data) if expand is not None and isinstance(data, dict) else data
    except RulesError as e:
        problems.append(("", text_of(e)))
    else:
        rules, more = check_rules(game, sent, where="")
        problems += more
        if rules is not None:  # texts others are shown: what a table refuses, refused here
            from sheepfold.server.texts import rules_text_problems

            texts = rules_text_problems(rules.model_dump(mode="json", by_alias=True))
            problems += [(where.removeprefix("rules."), msg) for where, msg in texts]
        if not problems:  # what it costs, from the rules alone (arithmetic: nothing runs)
            from sheepfold.bots.costs import cost_problems

            problems += cost_problems(game, rules, front)
    return data, (None if problems else rules), problems


def answer(
    game: str, data: Any, rules: Any, problems: list[tuple[str, str]], lang: str = "en"
) -> dict[str, Any]:
    """:func:`check`'s answer for what :func:`checked` found."""
    from sheepfold.core.errors import join_problems
    from sheepfold.games import rules_class
    from sheepfold.rulesets import rules_toml

    cls = rules_class(game)
    if problems:
        fields = {f.alias or k for k, f in cls.model_fields.items()}
        problems = [located(where, msg, fields) for where, msg in problems]
        return {
            "ok": False,
            "input": data if isinstance(data, dict) else None,
            "errors": [
                {"field": where.split(".")[0], "where": where, "message": msg}
                for where, msg in problems
            ],
            "detail": join_problems(problems),
        }
    return {
        "ok": True,
        "rules": rules.model_dump(mode="json"),
        "options": rules.model_dump(mode="json", exclude_defaults=True),
        "unset": _unset(rules, lang),
        "toml": rules_toml(game, rules),
    }


def table_cost_refusal(
    game: str, rules: Any, seats: list[dict[str, Any]], replacement_bot: str | None
) -> str | None:
    """Why a web table of these seats cannot be opened under ``rules`` for what it would cost
    (None: it can): a deal's or a turn's chance steps, or a bot's search per decision (each
    bot seat's, and the bot that stands in for a player who leaves), over a web table's limits
    (:data:`sheepfold.bots.costs.LIMITS`), in words. Arithmetic on the rules: nothing runs,
    so a table's creation asks it on the event loop (``table_requests.resolve_spec``)."""
    from sheepfold.bots.costs import cost_refusal

    bots = [s["bot"] for s in seats if s.get("kind") == "bot" and s.get("bot")]
    if replacement_bot:
        bots.append(replacement_bot)
    return cost_refusal(game, rules, "web", bots, players=len(seats))


async def ending_refused(game: str, rules: Any) -> str | None:
    """Why no game can end under ``rules`` (None: games can end), in the words of ``sheepfold
    rules check`` (:func:`sheepfold.games.endings.ending_refusal`): the rules check and a new
    table ask it. It solves (seconds, bounded by positions), so it runs in a thread, never on
    the event loop."""
    from sheepfold.games.endings import ending_refusal

    return await asyncio.to_thread(ending_refusal, game, rules)


async def _body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading on."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise HTTPException(413, TOO_BIG)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, TOO_BIG)
    return body


#: the rules' API: every route has its client (server/clients.py)
router = APIRouter(dependencies=CLIENT)


def known(game: str) -> str:
    from sheepfold.games import GAME_NAMES

    if game not in GAME_NAMES:
        raise HTTPException(
            404,
            Msg("no game {game} (games: {games})", game=repr(game), games=", ".join(GAME_NAMES)),
        )
    return game


@router.get("/api/rules/{game}")
async def rules_of(game: str, request: Request) -> dict[str, Any]:
    from sheepfold.server.i18n import localize

    lang = getattr(request.state, "lang", "en")
    return localize(game_rules(known(game), lang), lang)


@router.post("/api/rules/{game}/check")
async def check_rule_set(game: str, request: Request) -> JSONResponse:
    known(game)
    toml = "toml" in request.headers.get("content-type", "")
    file = toml or request.query_params.get("file") == "1"  # a rule file: its base under it
    data, bad = _read(await _body(request), toml)
    if bad is not None:  # no rule set to check: too deep, not JSON/TOML, not UTF-8
        problem = {"field": "", "where": "", "message": bad}
        body = {"ok": False, "input": None, "errors": [problem], "detail": bad}
        return JSONResponse(body, status_code=422)
    # plain JSON in and out: no encoder walking a deeply nested input in Python (only the
    # problems' words are translated, never the input sent back)
    lang = getattr(request.state, "lang", "en")
    data, rules, problems = checked(game, data, file)
    if rules is not None:  # can a game end: the check a new table makes too
        refusal = await ending_refused(game, rules)
        if refusal is not None:
            rules, problems = None, [("", refusal)]
    result = answer(game, data, rules, problems, lang)
    if not result["ok"] and lang != "en":
        from sheepfold.server.i18n import localize

        result["errors"] = localize(result["errors"], lang)
        result["detail"] = localize(result["detail"], lang)
    return JSONResponse(result)
