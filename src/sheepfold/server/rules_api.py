"""The rules API: each game's rule options as data (for the lobby's rule editor) and a cheap check
of a rule set.

Everything comes from the game's pydantic rules model: the options are read from its JSON schema,
a rule set is checked by the model alone (``sheepfold.games.check_rules``: the same messages as
``sheepfold rules check``) and written out by ``sheepfold.rulesets.rules_toml``. No solver runs
here: the check costs one validation of a body of at most :data:`MAX_BODY` bytes.

    GET  /api/rules/{game}          the options (kind, bounds, choices, description, rulebook
                                    value) and every rule set with all its options
    POST /api/rules/{game}/check    a rule set as JSON (an object of options) or as a TOML
                                    rule-set file (Content-Type: application/toml)
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse

#: the largest rule set the check reads (a rule-set file with every option is about 3 KB)
MAX_BODY = 16 * 1024

#: JSON schema types that become one form control each
SIMPLE = {"integer", "number", "boolean", "string"}


def _resolve(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A schema with its ``$ref`` (an enum or a model in ``$defs``) looked up."""
    ref = prop.get("$ref")
    if ref:
        return {
            **defs.get(ref.rsplit("/", 1)[-1], {}),
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    return prop


def _control(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """How to edit one value of this schema: ``kind`` is choice (with ``choices``), integer or
    number (with ``min``/``max``), boolean, text, list (of one simple ``item`` control, with
    ``max_items``), map (names to one simple ``value`` control) or json (anything else)."""
    schema = _resolve(schema, defs)
    if "enum" in schema or "const" in schema:
        return {"kind": "choice", "choices": schema.get("enum", [schema.get("const")])}
    kind = schema.get("type")
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        return {"kind": kind, "min": low, "max": high}
    if kind == "boolean":
        return {"kind": "boolean"}
    if kind == "string":
        return {"kind": "text", "max_length": schema.get("maxLength")}
    if kind == "array" and "prefixItems" not in schema:
        item = _control(schema.get("items", {}), defs)
        if item["kind"] in ("choice", "integer", "number", "text"):
            return {"kind": "list", "item": item, "max_items": schema.get("maxItems")}
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        value = _control(schema["additionalProperties"], defs)
        if value["kind"] != "json" and value["kind"] != "map":
            return {"kind": "map", "value": value}
    return {"kind": "json"}


def _field(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A control for an option; ``nullable`` when it may be left unset (null)."""
    prop = _resolve(prop, defs)
    nullable = False
    options = [_resolve(o, defs) for o in prop.get("anyOf", [])]
    if options:
        kept = [o for o in options if o.get("type") != "null"]
        nullable = len(kept) < len(options)
        schema = kept[0] if len(kept) == 1 else {}
    else:
        schema = prop
    return {**_control(schema, defs), "nullable": nullable}


def rule_fields(cls: Any) -> list[dict[str, Any]]:
    """Every option of a rules model, in the model's order: name, description, rulebook value
    and the control that edits it (see :func:`_control`)."""
    try:
        schema = cls.model_json_schema()
    except Exception:  # a type JSON schema cannot describe: every option a JSON text
        schema = {}
    props, defs = schema.get("properties", {}), schema.get("$defs", {})
    rulebook = cls().model_dump(mode="json")
    out = []
    for name, field in cls.model_fields.items():
        control = _field(props[name], defs) if name in props else {"kind": "json"}
        out.append(
            {
                "name": name,
                "description": field.description or "",
                "rulebook": rulebook[name],
                **control,
            }
        )
    return out


def _unset(rules: Any) -> dict[str, Any]:
    """What each option left unset amounts to under these rules: {name: [meaning, value]}."""
    return {k: list(v) for k, v in getattr(rules, "unset_options", dict)().items()}


def game_rules(game: str) -> dict[str, Any]:
    """``GET /api/rules/{game}``."""
    from sheepfold.games import rules_class
    from sheepfold.rulesets import all_rulesets

    cls = rules_class(game)
    rulebook = cls()
    return {
        "game": game,
        "fields": rule_fields(cls),
        "rulebook": rulebook.model_dump(mode="json"),
        "unset": _unset(rulebook),
        "rulesets": [
            {
                "name": r.name,
                "description": r.rules.description or "",
                "source": "built-in" if r.source == "built-in" else "yours",
                "rules": r.rules.model_dump(mode="json"),
            }
            for r in all_rulesets(game)
        ],
    }


def _read(body: bytes, toml: bool) -> tuple[Any, str | None]:
    """The rule set sent: (its data, None) or (None, what is wrong with the text), within the
    same limits as a rule file given to the command line (:mod:`sheepfold.core.files`)."""
    from sheepfold.core.files import FileRefused, parse_document

    try:
        data = parse_document(body, "toml" if toml else "json", "the rule set", max_bytes=MAX_BODY)
    except FileRefused as e:
        return None, e.problem
    # TOML dates and times become text: what is checked and sent back is plain JSON
    return (json.loads(json.dumps(data, default=str)) if toml else data), None


def check(game: str, data: Any) -> dict[str, Any]:
    """A rule set checked by the game's model: ``ok`` with the rules (every option), the options
    that differ from the rulebook and the rule-set file (TOML); or the problems, each with the
    option it names (``field``; empty for the whole rule set) and the model's message, and the
    one-line ``detail`` that ``sheepfold rules check`` prints."""
    from sheepfold.core.errors import join_problems
    from sheepfold.games import check_rules
    from sheepfold.rulesets import rules_toml

    problems: list[tuple[str, str]] = []
    if isinstance(data, dict):
        data = dict(data)
        named = data.pop("game", game)
        if named != game:
            problems.append(("game", f"these rules are for {named}, not {game}"))
    rules, more = check_rules(game, data, where="")
    problems += more
    if problems:
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
        "unset": _unset(rules),
        "toml": rules_toml(game, rules),
    }


async def _body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading on."""
    length = request.headers.get("content-length", "")
    too_big = f"a rule set is at most {MAX_BODY // 1024} KB"
    if length.isdigit() and int(length) > limit:
        raise HTTPException(413, too_big)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, too_big)
    return body


def add_rules_api(app: FastAPI) -> None:
    from sheepfold.games import GAME_NAMES

    def known(game: str) -> str:
        if game not in GAME_NAMES:
            raise HTTPException(404, f"no game {game!r} (games: {', '.join(GAME_NAMES)})")
        return game

    @app.get("/api/rules/{game}")
    async def rules_of(game: str) -> dict[str, Any]:
        return game_rules(known(game))

    @app.post("/api/rules/{game}/check")
    async def check_rule_set(game: str, request: Request) -> JSONResponse:
        known(game)
        toml = "toml" in request.headers.get("content-type", "")
        data, bad = _read(await _body(request), toml)
        if bad is not None:
            problem = {"field": "", "where": "", "message": bad}
            return JSONResponse({"ok": False, "input": None, "errors": [problem], "detail": bad})
        # plain JSON in and out: no encoder walking a deeply nested input in Python
        return JSONResponse(check(game, data))
