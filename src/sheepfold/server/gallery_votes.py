"""The gallery's votes: "play it again?" after a game played with a published rule set.

A vote counts once per person and rule set. The person is the client address that took the
seat (kept with the seat when it is joined), not the seat's token: one person opening tables and
holding their seats votes once, however many tables they finish, and a later vote replaces the
earlier one (on any version of the rule set). People behind one address (a household, an
office) count as one. A game where one address held every seat (no bot, nobody else) is no
game between people: its votes are refused.

    POST /api/tables/{id}/vote   {"token": SEAT_TOKEN, "again": true|false}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException

from sheepfold.server.clients import CLIENT, ClientDep, GalleryDep
from sheepfold.server.gallery import Vote

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


def voter(t: Table, seat: int) -> str:
    """The person who votes from ``seat``: the address that took it (403 when the vote cannot
    count: every seat was held from that one address, or nobody knows who took the seat)."""
    person = t.seats[seat].client
    if person is None:
        raise HTTPException(
            403,
            "this seat was taken before the server kept who takes seats: its vote cannot be "
            "counted",
        )
    if all(s.kind == "human" and s.client == person for s in t.seats):
        raise HTTPException(
            403,
            "one address held every seat of this game: votes count from games between "
            "different people (or against bots)",
        )
    return person


#: the votes: every route has its client (server/clients.py)
router = APIRouter(dependencies=CLIENT)


@router.post("/api/tables/{table_id}/vote")
async def vote(table_id: str, req: Vote, g: GalleryDep, who: ClientDep) -> dict[str, Any]:
    t = await g.manager.get_async(table_id)
    if t is None:
        raise HTTPException(404, f"no table {table_id!r}")
    who.take("join")
    house = t.config.get("gallery")
    if not isinstance(house, dict):
        raise HTTPException(400, "this table was not played with a gallery rule set")
    seat = t.seat_of_token(req.token)
    if seat is None:
        raise HTTPException(403, "this token holds no seat at this table")
    if not (t.finished() and not t.dirty):
        raise HTTPException(409, "the game is not over yet: vote when it ends")
    g.store.vote(t.id, seat, voter(t, seat), house, req.again, t.name)
    yes, total = g.store.votes(t.name).get((house["slug"], house["version"]), (0, 0))
    return {"votes_yes": yes, "votes_total": total}
