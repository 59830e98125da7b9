"""The tables' API: the games, the lobby, a table's creation, seats, rules, replay and record.

    GET  /api/games                 games, their rule sets, bots and breeds
    GET  /api/tables                the open and recent tables
    POST /api/tables                create a table  -> its public info
    GET  /api/tables/{id}           one table's public info
    POST /api/tables/{id}/join      {"name": ..., "seat": optional} -> {"seat", "token", "seat_link"}
                                    (with a profile's X-Sheepfold-Profile: the seat is its)
    POST /api/tables/ready          whether a table of these settings opens now (the perfect
                                    bot's wait, in words), without opening it
    GET  /api/tables/{id}/rules     its house rules in words (server/plain_words.py)
    GET  /api/tables/{id}/replay    a finished game, move by move (public views)
    GET  /api/tables/{id}/record    a finished game's record (sheepfold-record/1, with "house")
    POST /api/tables/{id}/again     play again: the next table, same settings and seats

Every route has its client (server/clients.py): its key counts the tables it opens and the
seats it takes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg, text_of
from sheepfold.server import i18n
from sheepfold.server.clients import CLIENT, ClientDep, GalleryDep, ManagerDep, ProfilesDep
from sheepfold.server.cluster import OWNER_HEADER
from sheepfold.server.friends import FriendsDep, host_of
from sheepfold.server.gallery import house_of
from sheepfold.server.profiles import HEADER
from sheepfold.server.rules_api import ending_refused
from sheepfold.server.solutions import NotReady
from sheepfold.server.table_requests import (
    CreateTable,
    Join,
    resolve_spec,
    seat_link,
    table_or_404,
    whole_rules,
)

router = APIRouter(dependencies=CLIENT)


@router.get("/api/games")
async def games(request: Request) -> dict[str, Any]:
    from sheepfold.bots import available_bots
    from sheepfold.bots.warmup import not_ready
    from sheepfold.core.registry import game_names, game_spec
    from sheepfold.rulesets import all_rulesets
    from sheepfold.server.plain_words import is_rulebook, levels, ruleset_title

    out = {}
    for g in game_names():
        spec = game_spec(g)
        if not spec.listed:  # an example game: played by name only, not offered
            continue
        bots = available_bots(g)
        out[g] = {
            "title": spec.title,
            "bots": bots,  # every bot, for programs (the API)
            "levels": levels(g),  # the bots a family is offered, in words
            # bots whose compiled code for the default rules is still compiling
            # (server/warmup.py), in words
            "preparing": not_ready(list(bots), g),
            "rulesets": [
                {
                    "name": r.name,
                    # a built-in rule set's words are the catalog's (i18n.extract_presets)
                    "title": Msg(ruleset_title(g, r.name)),
                    "description": Msg(r.rules.description or ""),
                    "rulebook": is_rulebook(g, r.rules),  # plays the rulebook's game
                }
                for r in all_rulesets(g)
            ],
        }
        if spec.breeds:
            out[g]["breeds"] = [{"name": b, "title": t} for b, t in spec.breeds.items()]
    return i18n.localize(out, request.state.lang)  # the levels' words in the reader's


@router.get("/api/tables")
async def list_tables(m: ManagerDep) -> Response:
    """The lobby (built once for many requests: TableManager.lobby_listing)."""
    return Response(m.lobby_listing(), media_type="application/json")


@router.post("/api/tables", status_code=201)
async def create_table(
    req: CreateTable,
    request: Request,
    response: Response,
    m: ManagerDep,
    who: ClientDep,
    g: GalleryDep,
    f: FriendsDep,
) -> dict[str, Any]:
    client = who.key
    host = host_of(request, f) if req.who_may_sit == "friends" else None  # needs a profile
    who.take("create")
    m.check_open_tables(client)
    house = None
    if req.gallery is not None:
        if req.ruleset or req.rules:
            raise HTTPException(
                400, Msg("gallery: give a gallery rule set or ruleset/rules, not both")
            )
        house, rules = house_of(g, req.game, req.gallery.slug, req.gallery.version)
        rules = whole_rules(rules)
        req = req.model_copy(update={"rules": rules, "gallery": None})
    spec = resolve_spec(req)
    refusal = await ending_refused(req.game, m.make_game(req.game, len(spec["seats"]), spec).rules)
    if refusal is not None:  # the words of 'sheepfold rules check' and the rules check
        raise HTTPException(422, refusal)
    table = await m.create_async({**spec, "gallery": house, "creator": client, "host": host})
    response.headers[OWNER_HEADER] = table.id  # a balancer sends its requests here
    return {**table.public_info(), "invite": f"/t/{table.id}"}


@router.post("/api/tables/ready")
async def ready(
    req: CreateTable, request: Request, m: ManagerDep, g: GalleryDep, start: bool = False
) -> dict[str, Any]:
    """Whether a table of these settings would open now: ``ready``, else the perfect bot's
    ``wait`` (seconds; ``start``: its solving starts now) or why it cannot play, and the
    ``message`` in words. Nothing is opened."""
    from sheepfold.server.plain_words import perfect_words
    from sheepfold.server.tables import perfect_seats

    if req.gallery is not None:
        _, rules = house_of(g, req.game, req.gallery.slug, req.gallery.version)
        rules = whole_rules(rules)
        req = req.model_copy(update={"rules": rules, "gallery": None, "ruleset": None})
    spec = resolve_spec(req)
    seats = perfect_seats(spec["seats"], spec["replacement_bot"])
    players = len(spec["seats"])
    wait, why = None, None
    if seats:
        game = m.make_game(spec["game"], players, spec)
        try:
            await m.solutions.require_async(game, seats, m.work, start)
        except NotReady as e:
            wait, why = e.wait, e.why or "not here"
    ready = not seats or (wait is None and why is None)
    return {
        "ready": ready,
        "wait": wait,
        "message": i18n.localize(
            perfect_words(ready, players, wait, why) if seats else "", request.state.lang
        ),
    }


@router.get("/api/tables/{table_id}/rules")
async def table_rules(table_id: str, request: Request, m: ManagerDep) -> dict[str, Any]:
    """A table's rules in words: what they change from the rulebook, a sentence each."""
    from sheepfold.server.plain_words import house_rules, ruleset_title

    t = await table_or_404(m, table_id)
    name = t.config.get("ruleset")
    words = {
        "ruleset": Msg(ruleset_title(t.name, name)) if name else None,  # a preset's: Italian
        "house_rules": house_rules(t.name, t.config.get("rules") or {}),
    }
    return i18n.localize(words, request.state.lang)


@router.post("/api/tables/{table_id}/again")
async def again(table_id: str, response: Response, m: ManagerDep, who: ClientDep) -> dict[str, Any]:
    """Play again: a new table with a finished table's settings and seats (201), or the
    one already opened after it (200)."""
    client, old = who.key, (await table_or_404(m, table_id))
    if not old.finished():
        raise HTTPException(409, Msg("the game is not over yet"))
    if old.next_id is None or await m.get_async(old.next_id) is None:
        who.take("create")
        m.check_open_tables(client)
        response.status_code = 201
    table = await m.again(old, client)
    response.headers[OWNER_HEADER] = table.id  # a balancer sends its requests here
    return {**table.public_info(), "invite": f"/t/{table.id}"}


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, m: ManagerDep) -> dict[str, Any]:
    return (await table_or_404(m, table_id)).public_info()


@router.post("/api/tables/{table_id}/join")
async def join(
    table_id: str, req: Join, request: Request, m: ManagerDep, who: ClientDep, p: ProfilesDep
) -> dict[str, Any]:
    t = await table_or_404(m, table_id)
    who.take("join")
    name, profile = req.name.strip() or "player", None
    if request.headers.get(HEADER) is not None:  # the seat is the profile's: its name
        me = p.require(request.headers.get(HEADER))
        name, profile = me["name"], me["id"]
    try:
        seat, token = t.take_seat(name, req.seat, who.key, profile)
    except SheepfoldError as e:
        raise HTTPException(409, text_of(e)) from None
    # the seat link: the token in the fragment, which browsers never send to a server
    return {"seat": seat, "token": token, "table": t.id, "seat_link": seat_link(t.id, token)}


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: str, request: Request, m: ManagerDep) -> dict[str, Any]:
    """A finished game, frame by frame: each move's words in the reader's language."""
    t = await table_or_404(m, table_id)
    if not t.finished() or t.dirty:
        raise HTTPException(409, Msg("the game is not over yet: a replay opens when it ends"))
    frames = await t.replay_frames_async()
    return {"table": t.public_info(), "frames": i18n.localize(frames, request.state.lang)}


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, m: ManagerDep) -> dict[str, Any]:
    """A finished game's record (docs/spec/records.md), which ``sheepfold replay`` plays
    again; ``house`` (an optional field of the format) names the gallery rule set."""

    t = await table_or_404(m, table_id)
    if not t.finished() or t.dirty:
        raise HTTPException(409, Msg("the game is not over yet: its record opens when it ends"))
    return await t.record()
