"""The rule-set gallery: publish house rules, browse them, try them at a table, vote, and read
their lab card (docs/gallery.md; the contract the pages rely on: docs/gallery.md#the-http-api).

    POST /api/gallery/{game}                          publish a rule set (its token, once)
    POST /api/gallery/{game}/{slug}/versions          publish a new version (with the token)
    GET  /api/gallery/{game}?q=&changes=&sort=&limit= the latest versions, searched and sorted
    GET  /api/gallery/{game}/{slug}                   a rule set and its versions
    GET  /api/gallery/{game}/{slug}/{version}         one version, with its full rules
    GET  /api/gallery/{game}/{slug}/{version}/plot.svg   its lab card's plot
    POST /api/tables/{id}/vote                        a seat's "play it again?" on a finished table

Everything a stranger sends is bounded and checked before it is stored: the body's size, each
text's length, no control characters, and the rules by the game's own model (the messages of
``sheepfold rules check``). Texts are stored and sent back as given: the pages show them with
``textContent``, and no page is made with them on the server.

This module holds the request models, the entries and the browsing routes; publishing, with its
rate limit and caps (per client per day, per rule set, in the lab queue), is in
``gallery_publish.py``; votes, one per person and rule set, in ``gallery_votes.py``; the lab
queue in ``gallery_lab.py`` and the rows in ``gallery_store.py``.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sheepfold.core.words import Msg, from_data, from_text
from sheepfold.server.api_site import STATIC
from sheepfold.server.clients import CLIENT, GalleryDep
from sheepfold.server.gallery_store import GalleryStore, Version
from sheepfold.server.rules_api import MAX_BODY, _body, check, known
from sheepfold.server.texts import char_problem

if TYPE_CHECKING:
    from sheepfold.server.tables import TableManager

NOT_RULES = ("name", "description")  # a rules model's informational fields
SORTS = ("newest", "played", "liked", "shorter", "fairer")
#: a publish request at most (the rules' own limit, and room for the texts)
MAX_PUBLISH = MAX_BODY + 4096
DAY = 86_400.0


def categories(game: str) -> list[str]:
    """The categories of ``game``'s options (its spec's ``categories``), in the model's order."""
    from sheepfold.core.registry import game_spec

    spec = game_spec(game)
    fields = [k for k in spec.rules_class.model_fields if k not in NOT_RULES]
    return list(dict.fromkeys(spec.categories.get(k, "other") for k in fields))


def changed_categories(options: dict[str, Any]) -> list[str]:
    from sheepfold.core.registry import game_names, game_spec

    named = {k: c for g in game_names() for k, c in game_spec(g).categories.items()}
    return list(dict.fromkeys(named.get(k, "other") for k in options if k not in NOT_RULES))


class Texts(BaseModel):
    """The texts of a publish request, trimmed, bounded and free of control characters."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    @field_validator("name", "author", "description", check_fields=False)
    @classmethod
    def _printable(cls, v: str | None, info: Any) -> str | None:
        if v is None:
            return v
        why = char_problem(v, newlines=info.field_name == "description")
        if why:
            raise ValueError(why)
        return v


class Publish(Texts):
    name: str = Field(min_length=1, max_length=48)
    description: str = Field(default="", max_length=500)
    author: str = Field(min_length=1, max_length=32)
    rules: dict[str, Any]


class NewVersion(Texts):
    token: str = Field(min_length=1, max_length=128)
    description: str | None = Field(default=None, max_length=500)
    rules: dict[str, Any]


class Vote(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=128)
    again: bool


def slugify(name: str) -> str:
    """The name in lower case, [a-z0-9] runs joined by ``-`` (accents dropped); "rules" if none."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40].strip("-")
    return slug or "rules"


def url_of(game: str, slug: str) -> str:
    return f"/gallery/{game}/{slug}"


# -- reading requests ------------------------------------------------------------------------
async def _read(request: Request, model: type[BaseModel]) -> Any:
    """The request's body as ``model``: 413 past :data:`MAX_PUBLISH` bytes, 422 with the field
    and the reason."""
    from sheepfold.core.errors import describe_validation_error

    body = await _body(request, MAX_PUBLISH)
    try:
        return model.model_validate_json(body)
    except ValidationError as e:
        raise HTTPException(422, describe_validation_error(e)) from None


def checked_rules(game: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the rulebook, checked by the game's model (422: the model's
    own message, as ``sheepfold rules check`` prints it); rules that name their base
    (``from``, as a rule file does) are the base's rules with their changes."""
    result = check(game, rules, front="gallery")  # a card's limits (bots/costs.py)
    if not result["ok"]:
        raise HTTPException(422, Msg("rules: {detail}", detail=result["detail"]))
    return {k: v for k, v in result["options"].items() if k not in NOT_RULES}


async def refuse_endless(game: str, rules: dict[str, Any]) -> None:
    """422 when no game can end under the rules sent, in the words of ``sheepfold rules
    check`` (the check a new table makes: no table could be opened under them, and every game
    of their lab card would be cut at its turn limit). Rules the model refuses are left to
    :func:`checked_rules`. It solves, so off the event loop (``rules_api.ending_refused``)."""
    from sheepfold.server.rules_api import checked, ending_refused

    _, model, _ = checked(game, rules, front="gallery")
    refusal = None if model is None else await ending_refused(game, model)
    if refusal is not None:
        raise HTTPException(422, Msg("rules: {detail}", detail=refusal))


def named_base(rules: dict[str, Any]) -> str | None:
    """The rule set checked ``rules`` name as their base (their ``from``), None when none."""
    from sheepfold.rulesets import BASE_KEY

    name = rules.get(BASE_KEY)
    return name if isinstance(name, str) else None


def differences(game: str, base: dict[str, Any], options: dict[str, Any]) -> list[str]:
    """What ``options`` change from ``base`` (both valid option dicts), a sentence each: part
    by part in the game's own words (:attr:`GameSpec.differences
    <sheepfold.core.registry.GameSpec.differences>`), then a line in words for each option no
    part describes (:func:`sheepfold.server.plain_words.house_rules`, cached by content). The
    pages read them made from a version's rules when they are read: a version published before
    these words keeps its stored lines (``stored_differences``), shown in today's words."""
    from sheepfold.server.plain_words import house_rules

    return house_rules(game, options, base)


def words_of(v: Version) -> list[str]:
    """A version's differences from its base (:func:`version_base`) in today's words, made from
    its stored rules; its stored lines if today's rules model no longer reads them."""
    from sheepfold.core.protocol import SheepfoldError

    try:
        return differences(v.game, base_options(v.game, version_base(v)[0]), v.rules)
    except (SheepfoldError, ValueError):
        return list(v.differences)


@functools.lru_cache(maxsize=1024)
def _base_of(game: str, options: str) -> tuple[str, str]:
    """(the name, the words) of the rule set the options (JSON) were most likely made from."""
    from sheepfold.rulesets import base_words, closest_base

    name = closest_base(game, json.loads(options))[0]
    return name, base_words(game, name)


def base_of(game: str, options: dict[str, Any], named: str | None = None) -> tuple[str, str]:
    """The rule set a published rule set is described and measured against, as (its name, its
    words for players): the base its rules named when they were published (``named``: their
    ``from``, stored with the version), while this server knows a rule set of that name; else
    the one of the game's default rules, the rulebook and the built-in rule sets it differs
    from least (:func:`sheepfold.rulesets.closest_base`)."""
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.rulesets import RULEBOOK, base_words, builtin_rulesets

    if named is not None:
        known = named == RULEBOOK or any(  # the built-ins are read once
            r.game == game and r.rules.name == named for r in builtin_rulesets()
        )
        if not known:  # one of the server's own rule sets, if it still has it
            try:
                base_options(game, named)
                known = True
            except SheepfoldError:
                pass  # one this server no longer has: the closest instead
        if known:
            return named, base_words(game, named)
    return _base_of(game, json.dumps(options, sort_keys=True))


def version_base(v: Version) -> tuple[str, str]:
    """:func:`base_of` a published version: its named base, else the closest."""
    return base_of(v.game, v.rules, v.base)


def base_options(game: str, name: str) -> dict[str, Any]:
    """The options (those that differ from the rulebook) of the built-in rule set ``name``;
    ``{}`` for the rulebook."""
    from sheepfold.rulesets import RULEBOOK, resolve

    if name == RULEBOOK:
        return {}
    data = resolve(game, name).model_dump(mode="json", exclude_defaults=True)
    return {k: v for k, v in data.items() if k not in NOT_RULES}


def _version_values(
    game: str, options: dict[str, Any], description: str, named: str | None = None
) -> dict[str, Any]:
    """A new version's row values: its options, the base they name (``named``, or None), and
    what they change from their base (:func:`base_of`)."""
    base = base_options(game, base_of(game, options, named)[0])
    return {
        "description": description,
        "rules": options,
        "base": named,
        "changes": changed_categories(_changed(base, options)),
        "differences": differences(game, base, options),
    }


def _changed(base: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options whose values differ between ``base`` and ``options``."""
    return {k: v for k, v in options.items() if base.get(k) != v} | {
        k: None for k in base if k not in options
    }


# -- entries ---------------------------------------------------------------------------------
class Gallery:
    """The gallery of one server: its store, the lab queue, and the counts from its tables."""

    def __init__(self, manager: TableManager, store: GalleryStore, lab: Any) -> None:
        self.manager = manager
        self.store = store
        self.lab = lab

    def counts(self, game: str) -> dict[tuple[str, int], tuple[int, int]]:
        """(slug, version) -> (tables played, finished), from the server's tables."""
        out: dict[tuple[str, int], tuple[int, int]] = {}
        for t in self.manager.summaries():  # archived tables too
            house = t.config.get("gallery")
            if t.name != game or not isinstance(house, dict):
                continue
            key = (house.get("slug"), house.get("version"))
            played, finished = out.get(key, (0, 0))  # type: ignore[arg-type]
            out[key] = (played + 1, finished + int(t.finished()))  # type: ignore[index]
        return out

    def entries(self, game: str, versions: list[Version]) -> list[dict[str, Any]]:
        counts, votes = self.counts(game), self.store.votes(game)
        queue = self.lab.order()  # the waiting cards, the next first
        return [self.entry(v, counts, votes, queue) for v in versions]

    def entry(
        self,
        v: Version,
        counts: dict[tuple[str, int], tuple[int, int]],
        votes: dict[tuple[str, int], tuple[int, int]],
        queue: list[int],
    ) -> dict[str, Any]:
        played, finished = counts.get((v.slug, v.version), (0, 0))
        yes, total = votes.get((v.slug, v.version), (0, 0))
        every = {  # every version of the rule set together: what the sorts rank by
            "played": sum(n for (slug, _), (n, _) in counts.items() if slug == v.slug),
            "finished": sum(n for (slug, _), (_, n) in counts.items() if slug == v.slug),
            "votes_yes": sum(n for (slug, _), (n, _) in votes.items() if slug == v.slug),
            "votes_total": sum(n for (slug, _), (_, n) in votes.items() if slug == v.slug),
        }
        return {
            "game": v.game,
            "slug": v.slug,
            "version": v.version,
            "name": v.name,
            "description": v.description,
            "author": v.author,
            "created": v.created,
            "url": url_of(v.game, v.slug),
            "changes": v.changes,
            "differences": words_of(v),  # in today's words, against its base
            "stored_differences": v.differences,  # as stored when it was published
            "base": version_base(v)[1],  # its words (a Msg: the catalog has the built-ins')
            "played": played,
            "finished": finished,
            "votes_yes": yes,
            "votes_total": total,
            "all_versions": every,
            "lab": lab_info(v, queue),
        }


def lab_info(v: Version, queue: list[int]) -> dict[str, Any]:
    """The LAB object of the contract."""
    out: dict[str, Any] = {"status": v.lab_status, "progress": round(v.lab_progress, 3)}
    if v.lab_status == "queued" and v.id in queue:
        out["position_in_queue"] = queue.index(v.id) + 1
    if v.lab_message:
        out["message"] = from_text(v.lab_message)
    card = v.lab_card or {}
    for k in ("games", "metrics", "exact", "engine", "bots"):
        if k in card:
            out[k] = card[k]
    out |= _card_words(card)
    # the player counts played (a card of before: 2 players, said by none), each count's part
    if card:
        out["players"] = card.get("players") or [2]
    parts = card.get("by_players")
    if isinstance(parts, list):
        out["by_players"] = [
            {**part, **_card_words(part, ("verdict", "message"))}
            for part in parts
            if isinstance(part, dict)
        ]
    if "base" in card:  # words stored as data (to_data), a Msg again
        out["base"] = from_data(card["base"])
    if isinstance(card.get("base"), str):  # a card of before: "the rulebook", a built-in's
        out["base"] = Msg(card["base"])  # words (texts of the catalog); its verdict as it is
    if card.get("metrics") and (
        line := headline(card["metrics"], out.get("base") or Msg("the rulebook"))
    ):
        out["headline"] = line
    if v.has_plot:
        out["plot"] = f"/api/gallery/{v.game}/{v.slug}/{v.version}/plot.svg"
    return out


def _card_words(card: dict[str, Any], words: tuple[str, ...] = ("verdict",)) -> dict[str, Any]:
    """A card's (or one player count's) words as the pages read them: each metric's label (the
    lab's, in the catalog) and its ``words`` stored as data (``to_data``), Msgs again."""
    out: dict[str, Any] = {}
    if isinstance(card.get("metrics"), list):
        out["metrics"] = [
            {**m, "label": Msg(m["label"])} if isinstance(m.get("label"), str) else m
            for m in card["metrics"]
        ]
    for k in words:
        if card.get(k) is not None:
            out[k] = from_data(card[k])
    return out


def headline(metrics: list[dict[str, Any]], against: str = "the rulebook") -> str | None:
    """A lab card's verdict in one plain sentence, before its figures: how long the games last
    and how evenly the seats win, against the rule set the card measured it against (its base in
    words: ``With these rules games get 18% shorter, and every seat wins about as often as with
    the graded edition.``); None for a card without both figures (it would claim what it never
    measured)."""
    by = {m.get("key"): m for m in metrics}
    length, balance = by.get("length_mean"), by.get("balance")
    if length is None or balance is None:
        return None
    base = against if isinstance(against, Msg) else Msg(against)  # "the rulebook": a text
    text = Msg("With these rules games last about as long")
    if length and length.get("significant") and length.get("rel") is not None:
        change = abs(round(100 * length["rel"]))
        if change:
            text = (
                Msg("With these rules games get {change}% longer", change=change)
                if length["rel"] > 0
                else Msg("With these rules games get {change}% shorter", change=change)
            )
    if balance and balance.get("significant") and balance.get("diff") is not None:
        if balance["diff"] > 0:
            return Msg(
                "{length}, and the seats win more evenly than with {base}.", length=text, base=base
            )
        return Msg(
            "{length}, but the seats win less evenly than with {base}.", length=text, base=base
        )
    return Msg(
        "{length}, and every seat wins about as often as with {base}.", length=text, base=base
    )


def _metric(entry: dict[str, Any], key: str, field: str) -> float | None:
    for m in entry["lab"].get("metrics") or []:
        if m["key"] == key:
            value = m.get(field)
            return float(value) if value is not None else None
    return None


def sort_entries(entries: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """``newest`` first; ``played``, ``liked`` most first (every version of a rule set counts:
    a new version keeps its rule set's place); ``shorter``: the biggest cut in mean game length
    (lab card) first; ``fairer``: the best seat balance first. Entries without a card come
    after those with one, newest first."""
    newest = sorted(entries, key=lambda e: -e["created"])
    if sort == "played":
        return sorted(
            newest, key=lambda e: (-e["all_versions"]["played"], -e["all_versions"]["finished"])
        )
    if sort == "liked":
        return sorted(
            newest,
            key=lambda e: (-e["all_versions"]["votes_yes"], -e["all_versions"]["votes_total"]),
        )
    if sort in ("shorter", "fairer"):
        key, field, sign = (
            ("length_mean", "rel", 1) if sort == "shorter" else ("balance", "house", -1)
        )

        def rank(e: dict[str, Any]) -> tuple[int, float]:
            value = _metric(e, key, field)
            return (1, 0.0) if value is None else (0, sign * value)

        return sorted(newest, key=rank)
    return newest


def _matches(e: dict[str, Any], q: str) -> bool:
    hay = " ".join(
        [e["name"], e["description"], e["author"], e["slug"], *e["differences"]]
        + e["stored_differences"]
    )
    return q.casefold() in hay.casefold()


# -- the API ---------------------------------------------------------------------------------
#: browsing the gallery (its routers: publishing, server/gallery_publish.py; votes,
#: server/gallery_votes.py): every route has its client (server/clients.py)
router = APIRouter(dependencies=CLIENT)
pages = APIRouter()  # the gallery's pages


def versions_or_404(g: Gallery, game: str, slug: str) -> list[Version]:
    """Every version of a published rule set, oldest first (404 if there is none)."""
    found = g.store.versions(known(game), slug)
    if not found:
        raise HTTPException(
            404, Msg("no rule set {slug} in the {game} gallery", slug=repr(slug), game=game)
        )
    return found


def one_version(g: Gallery, game: str, slug: str, version: int) -> Version:
    v = g.store.version(known(game), slug, version)
    if v is None:
        versions_or_404(g, game, slug)
        raise HTTPException(
            404, Msg("{slug} has no version {version}", slug=repr(slug), version=version)
        )
    return v


def browse_query(game: str, q: str, changes: str, sort: str, limit: int) -> list[str]:
    """The categories a listing asks for, once its parameters are checked (400 naming the
    parameter)."""
    cats = categories(known(game))
    if len(q) > 100:
        raise HTTPException(400, Msg("q: at most 100 characters"))
    wanted = [c.strip() for c in changes.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in cats]
    if unknown:
        raise HTTPException(
            400,
            Msg(
                "changes: no category {category} (categories: {categories})",
                category=repr(unknown[0]),
                categories=", ".join(cats),
            ),
        )
    if sort not in SORTS:
        raise HTTPException(
            400, Msg("sort: {sort} is not one of {sorts}", sort=repr(sort), sorts=", ".join(SORTS))
        )
    if not 1 <= limit <= 200:
        raise HTTPException(400, Msg("limit: from 1 to 200"))
    return wanted


def said(request: Request, out: dict[str, Any]) -> dict[str, Any]:
    """An answer's words (a house rule's, a lab card's) in the request's language."""
    from sheepfold.server.i18n import localize

    return localize(out, getattr(request.state, "lang", "en"))  # type: ignore[no-any-return]


@router.get("/api/gallery/{game}")
async def browse(
    request: Request,
    game: str,
    g: GalleryDep,
    q: str = "",
    changes: str = "",
    sort: str = "newest",
    limit: int = 50,
) -> dict[str, Any]:
    wanted = browse_query(game, q, changes, sort, limit)
    found = [
        e
        for e in g.entries(game, g.store.latest(game))
        if (not q.strip() or _matches(e, q.strip())) and all(c in e["changes"] for c in wanted)
    ]
    out = {"entries": sort_entries(found, sort)[:limit], "categories": categories(game)}
    return said(request, out)


@router.get("/api/gallery/{game}/{slug}")
async def ruleset(request: Request, game: str, slug: str, g: GalleryDep) -> dict[str, Any]:
    found = versions_or_404(g, game, slug)
    entry = g.entries(game, [found[-1]])[0]
    entry["versions"] = [
        {"version": v.version, "created": v.created, "description": v.description} for v in found
    ]
    return said(request, entry)


@router.get("/api/gallery/{game}/{slug}/{version}")
async def ruleset_version(
    request: Request, game: str, slug: str, version: int, g: GalleryDep
) -> dict[str, Any]:
    from sheepfold.games import parse_rules

    v = one_version(g, game, slug, version)
    entry = g.entries(game, [v])[0]
    entry["rules"] = parse_rules(game, v.rules).model_dump(mode="json")
    entry["options"] = v.rules
    return said(request, entry)


@router.get("/api/gallery/{game}/{slug}/{version}/plot.svg")
async def plot(request: Request, game: str, slug: str, version: int, g: GalleryDep) -> Response:
    v = one_version(g, game, slug, version)
    svg = g.store.plot(v.id, getattr(request.state, "lang", "en")) if v.has_plot else None
    if svg is None:
        raise HTTPException(
            404,
            Msg(
                "the lab card of {slug} version {version} is not ready",
                slug=repr(slug),
                version=version,
            ),
        )
    return Response(svg, media_type="image/svg+xml")


@pages.get("/gallery", include_in_schema=False)
async def gallery_page() -> FileResponse:
    return _page(STATIC / "gallery.html")


@pages.get("/gallery/{game}/{slug}", include_in_schema=False)
async def ruleset_page(game: str, slug: str) -> FileResponse:
    return _page(STATIC / "ruleset.html")


def _page(path: Any) -> FileResponse:
    if not path.exists():
        raise HTTPException(404, Msg("the gallery's pages are not installed on this server"))
    return FileResponse(path)


def house_of(
    g: Gallery, game: str, slug: str, version: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table's ``house`` (what its info shows) and rules, from a published version (404)."""
    v = g.store.version(game, slug, version)
    if v is None:
        raise HTTPException(
            404,
            Msg(
                "no version {version} of {slug} in the {game} gallery",
                version=version,
                slug=repr(slug),
                game=game,
            ),
        )
    house = {
        "slug": v.slug,
        "version": v.version,
        "name": v.name,
        "author": v.author,
        "differences": words_of(v),
        "url": url_of(game, v.slug),
    }
    return house, dict(v.rules)


__all__ = ["Gallery", "house_of", "pages", "router"]
