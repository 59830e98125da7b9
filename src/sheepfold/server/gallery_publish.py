"""Publishing to the gallery: a new rule set (its token, shown once) and new versions (with the
token), each checked and capped before anything is stored (docs/gallery.md#limits):

- the publish rate per client address (``publish_rate``), then the body (size, texts, rules);
- versions published per address in 24 hours, new rule sets and new versions alike
  (``gallery_per_day``), and versions per rule set (``gallery_max_versions``);
- the lab queue: cards waiting from one address (``lab_queue_per_client``, 429) and in all
  (``lab_queue_max``, 503). A new version's card takes the place of an older version's card
  still waiting (one queued card per rule set), so it does not count against the address.

A refused publish stores nothing.
"""

from __future__ import annotations

import hmac
import math
import secrets
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from sqlalchemy.exc import IntegrityError

from sheepfold.core.words import Msg
from sheepfold.server.clients import CLIENT, ClientDep, GalleryDep
from sheepfold.server.gallery import (
    DAY,
    Gallery,
    NewVersion,
    Publish,
    _read,
    _version_values,
    checked_rules,
    known,
    named_base,
    refuse_endless,
    slugify,
    url_of,
    versions_or_404,
)
from sheepfold.server.gallery_store import Version
from sheepfold.server.limits import RateLimited
from sheepfold.server.seating import token_hash


def check_daily(g: Gallery, client: str) -> None:
    """429 when ``client`` published ``gallery_per_day`` versions (new rule sets or new
    versions) in the last 24 hours, with when it may publish again."""
    cap = g.manager.settings.gallery_per_day
    if not cap:
        return
    now = time.time()
    mine = g.store.published_since(client, now - DAY)
    if len(mine) >= cap:
        hours = max(1, math.ceil((mine[len(mine) - cap] + DAY - now) / 3600))
        if hours > 1:
            raise RateLimited(
                Msg(
                    "your address published {n} rule sets or versions in the last 24 hours "
                    "(at most {cap}): try again in about {hours} hours",
                    n=len(mine),
                    cap=cap,
                    hours=hours,
                )
            )
        raise RateLimited(
            Msg(
                "your address published {n} rule sets or versions in the last 24 hours "
                "(at most {cap}): try again in about 1 hour",
                n=len(mine),
                cap=cap,
            )
        )


def check_queue(g: Gallery, client: str, ruleset_id: int | None = None) -> str:
    """The new version's lab status, ``queued``: 429 when ``client`` has as many cards waiting
    as an address may (a new version of ``ruleset_id`` replaces its older card), 503 when the
    queue is full."""
    st = g.manager.settings
    mine = g.lab.waiting_of(client, ruleset_id)
    if st.lab_queue_per_client and mine >= st.lab_queue_per_client:
        raise RateLimited(
            Msg(
                "your address has {n} rule sets waiting for their lab card (at most {most} at "
                "once): nothing was published; publish again when one of them is done",
                n=mine,
                most=st.lab_queue_per_client,
            )
        )
    waiting = g.lab.waiting()
    if waiting >= st.lab_queue_max:
        raise HTTPException(
            503,
            Msg(
                "the lab queue is full ({n} rule sets wait for their card, at most {most}): "
                "nothing was published; try again in a few minutes",
                n=waiting,
                most=st.lab_queue_max,
            ),
        )
    return "queued"


def new_ruleset(g: Gallery, game: str, req: Publish, client: str) -> dict[str, Any]:
    """Store a checked publish under a free slug: what the publisher gets back."""
    options = checked_rules(game, req.rules)
    check_daily(g, client)
    base = named_base(req.rules)
    values = {**_version_values(game, options, req.description, base), "client": client}
    values["lab_status"] = check_queue(g, client)
    token = secrets.token_urlsafe(24)
    meta = {
        "name": req.name,
        "author": req.author,
        "token_hash": token_hash(token),
        "client": client,
    }
    for _ in range(5):  # two publishers of one name at once: the loser takes the next slug
        slug = g.store.free_slug(game, slugify(req.name))
        try:
            g.store.publish(game, slug, meta, dict(values))
            break
        except IntegrityError:
            continue
    else:
        raise HTTPException(409, Msg("the name is being published by others right now: try again"))
    return {"slug": slug, "version": 1, "token": token, "url": url_of(game, slug)}


def new_version(
    g: Gallery, game: str, old: list[Version], req: NewVersion, client: str
) -> dict[str, Any]:
    """Store a checked new version of the rule set whose versions are ``old``."""
    last = old[-1]
    if not hmac.compare_digest(token_hash(req.token), last.token_hash):
        raise HTTPException(403, Msg("this token does not publish {slug}", slug=repr(last.slug)))
    cap = g.manager.settings.gallery_max_versions
    if len(old) >= cap:
        raise HTTPException(
            409,
            Msg(
                "{slug} has {n} versions, the most a rule set may have",
                slug=repr(last.slug),
                n=len(old),
            ),
        )
    options = checked_rules(game, req.rules)
    check_daily(g, client)
    description = last.description if req.description is None else req.description
    base = named_base(req.rules)
    values = {**_version_values(game, options, description, base), "client": client}
    values["lab_status"] = check_queue(g, client, last.ruleset_id)
    number = last.version + 1
    try:
        g.store.add_version(last.ruleset_id, number, values)
    except IntegrityError:
        raise HTTPException(409, Msg("another version was published just now: try again")) from None
    return {"slug": last.slug, "version": number, "url": url_of(game, last.slug)}


#: publishing: every route has its client (server/clients.py), whose key the publishing
#: limits (a rate, a day's cap, the lab queue's share) count by
router = APIRouter(dependencies=CLIENT)


@router.post("/api/gallery/{game}", status_code=201)
async def publish(game: str, request: Request, g: GalleryDep, who: ClientDep) -> dict[str, Any]:
    client = who.key
    known(game)
    who.take("publish")
    req: Publish = await _read(request, Publish)
    await refuse_endless(game, req.rules)
    out = new_ruleset(g, game, req, client)
    g.lab.poke()
    return out


@router.post("/api/gallery/{game}/{slug}/versions", status_code=201)
async def publish_version(
    game: str, slug: str, request: Request, g: GalleryDep, who: ClientDep
) -> dict[str, Any]:
    client = who.key
    old = versions_or_404(g, game, slug)
    who.take("publish")
    req: NewVersion = await _read(request, NewVersion)
    await refuse_endless(game, req.rules)
    out = new_version(g, game, old, req, client)
    g.lab.poke()
    return out
