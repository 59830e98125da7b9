"""Friends: two profiles are friends once each has added the other; a free seat saved for a
friend (an invitation); a table for the host's friends only.

Adding someone (from their profile page) is a friend request until they add you back: only
friends (both added) can be invited to a seat, and only they may sit at a table for the
host's friends. Removing a friend ends it for both (and withdraws the invitations between
them); saying "no thanks" to a request removes it.

An invitation saves one free seat of an unfinished table for one friend, by name: nobody else
can take it (the seat shows "saved for Ben"); the friend sees it on their profile page and
"Your tables", and accepts (takes the seat) or declines (the seat is free again); who invited
may withdraw it. Only a player holding a seat at the table (with their profile) invites.

A table for the host's friends (``who_may_sit: "friends"`` at creation, made with the host's
profile) is private too: the lobby never lists it, its link is as long as a private table's,
and anyone with the link may watch; the host's friends find it among their friends' tables,
and a seat there is refused to anyone else.

Bounds on what a stranger controls: at most :data:`MAX_FRIENDS` friends and requests sent per
profile, :data:`MAX_ASKED` requests waiting for one profile, :data:`MAX_INVITATIONS` waiting
for one profile; friend requests and invitations take a token of the ``invite`` rate limit of
their client key (``Settings.invite_rate``); names are seat names (server/texts.py).

HTTP API (JSON; every route asks for the profile's ``X-Sheepfold-Profile`` header)::

    GET    /api/friends                  your friends, your requests both ways, your
                                         invitations both ways, your friends' open tables
    POST   /api/friends/{id}             add a friend (or accept their request)
    DELETE /api/friends/{id}             remove a friend, a request you sent or got
    POST   /api/tables/{id}/invite       {"seat", "name" or "friend" (an id)}: save the seat
    POST   /api/invitations/{id}/accept  take the saved seat -> {"seat", "token", "seat_link"}
    DELETE /api/invitations/{id}         decline it (the friend) or withdraw it (who invited)
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    UniqueConstraint,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
)
from sqlalchemy import Table as SqlTable
from starlette.requests import HTTPConnection

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg, text_of
from sheepfold.server.clients import CLIENT, ClientDep
from sheepfold.server.profiles import HEADER, ID_FORM, Profiles, rules_words
from sheepfold.server.storage import metadata, profiles_t, seats_t, tables_t
from sheepfold.server.table_requests import seat_link, table_or_404
from sheepfold.server.texts import Name, skeleton

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

MAX_FRIENDS = 200  # friends and requests sent, per profile
MAX_ASKED = 100  # requests waiting for one profile (from people it has not added)
MAX_INVITATIONS = 20  # invitations waiting for one profile
MAX_TABLES = 50  # friends' tables listed

#: a row: ``profile`` added ``friend`` (friends: both rows)
friends_t = SqlTable(
    "sf_friends",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("friend", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Index("ix_sf_friends_friend", "friend"),
)

#: a free seat saved for a friend
invitations_t = SqlTable(
    "sf_invitations",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("host", String(32), nullable=False),  # who invited
    Column("guest", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    UniqueConstraint("table_id", "seat", name="uq_sf_invitations_table_seat"),
)

FRIENDS_ONLY = Msg("This table is for the host's friends")


class Invite(BaseModel):
    """A seat to save for a friend, named (``name``) or by their profile id (``friend``)."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=3)
    name: Name | None = Field(default=None, min_length=1)
    friend: str | None = Field(default=None, pattern=f"^{ID_FORM.pattern}$")  # a profile id

    @model_validator(mode="after")
    def _one(self) -> Invite:
        if (self.name is None) == (self.friend is None):
            raise ValueError(Msg("give the friend's name (or their profile's id), once"))
        return self


class Friends:
    """The friendships and invitations of a server's database; the seats they save."""

    def __init__(self, profiles: Profiles) -> None:
        self.profiles = profiles
        self.manager = profiles.manager
        self.storage = profiles.storage
        # a database made before friends: their tables made now
        metadata.create_all(self.storage.engine, tables=[friends_t, invitations_t])
        self.manager.sit_refusal = self.sit_refusal
        self.restore()

    # -- friends -----------------------------------------------------------------------------
    def _edges(self, pid: str) -> tuple[set[str], set[str]]:
        """(whom ``pid`` added, who added ``pid``)."""
        f = friends_t.c
        with self.storage.engine.connect() as c:
            rows = c.execute(
                select(f.profile, f.friend).where(or_(f.profile == pid, f.friend == pid))
            )
            out: set[str] = set()
            into: set[str] = set()
            for a, b in rows:
                if a == pid:
                    out.add(b)
                else:
                    into.add(a)
        return out, into

    def friend_ids(self, pid: str) -> set[str]:
        out, into = self._edges(pid)
        return out & into

    def are_friends(self, a: str, b: str) -> bool:
        f = friends_t.c
        q = select(func.count()).where(
            or_(and_(f.profile == a, f.friend == b), and_(f.profile == b, f.friend == a))
        )
        with self.storage.engine.connect() as c:
            return bool(c.execute(q).scalar_one() == 2)

    def add(self, pid: str, other: str) -> bool:
        """``pid`` adds ``other``: whether they are friends now."""
        if other == pid:
            raise HTTPException(422, Msg("this is your own profile: add someone else"))
        if self.profiles.profile(other) is None:
            raise HTTPException(404, Msg("no such player"))
        out, into = self._edges(pid)
        if other in out:
            return other in into
        if len(out) >= MAX_FRIENDS:
            raise HTTPException(
                409,
                Msg(
                    "you have {n} friends and requests already (at most {n}): remove one first",
                    n=MAX_FRIENDS,
                ),
            )
        if other not in into:  # a request: bounded for the one who gets it
            theirs_out, theirs_in = self._edges(other)
            if len(theirs_in - theirs_out) >= MAX_ASKED:
                raise HTTPException(
                    409, Msg("this player has too many friend requests waiting: try later")
                )
        with self.storage.transaction() as c:
            c.execute(insert(friends_t).values(profile=pid, friend=other, created=time.time()))
        return other in into

    def remove(self, pid: str, other: str) -> None:
        """No friendship and no request between ``pid`` and ``other``, nor invitations."""
        f, i = friends_t.c, invitations_t.c
        both = or_(
            and_(f.profile == pid, f.friend == other), and_(f.profile == other, f.friend == pid)
        )
        gone = select(invitations_t).where(
            or_(and_(i.host == pid, i.guest == other), and_(i.host == other, i.guest == pid))
        )
        with self.storage.transaction() as c:
            c.execute(delete(friends_t).where(both))
            invitations = c.execute(gone).all()
            c.execute(delete(invitations_t).where(i.id.in_([r.id for r in invitations])))
        for r in invitations:
            self._unhold(r)

    def names(self, ids: set[str]) -> list[dict[str, str]]:
        """The profiles ``ids``, by name."""
        if not ids:
            return []
        p = profiles_t.c
        with self.storage.engine.connect() as c:
            rows = c.execute(select(p.id, p.name).where(p.id.in_(ids)).order_by(p.name, p.id))
            return [{"id": r.id, "name": r.name, "link": f"/players/{r.id}"} for r in rows]

    def about(self, pid: str) -> dict[str, Any]:
        """Everything ``GET /api/friends`` says to ``pid``."""
        out, into = self._edges(pid)
        friends = out & into
        return {
            "me": pid,
            "friends": self.names(friends),
            "asked_you": self.names(into - out),  # requests waiting for your answer
            "you_asked": self.names(out - into),
            "invitations": self.invitations(pid),
            "invited": self.invitations(pid, sent=True),
            "tables": self.tables(pid, friends),
        }

    # -- who may sit -------------------------------------------------------------------------
    def sit_refusal(self, table: Table, profile: str | None) -> str | None:
        """Why the person of ``profile`` may not sit at ``table`` (None: they may)."""
        if not table.config.get("friends_only"):
            return None
        host = table.config.get("host")
        if profile is not None and (profile == host or self.are_friends(str(host), profile)):
            return None
        row = self.profiles.profile(str(host))
        if row is None:
            return FRIENDS_ONLY
        return Msg(
            "{refusal}: ask {host} to add you as a friend, with your profile",
            refusal=FRIENDS_ONLY,
            host=row["name"],
        )

    # -- invitations -------------------------------------------------------------------------
    def restore(self) -> None:
        """Start-up: the seats saved for friends at the tables served here are saved again."""
        with self.storage.engine.connect() as c:
            rows = c.execute(select(invitations_t)).all()
        for r in rows:
            t = self.manager.tables.get(r.table_id)
            if t is not None and not t.finished() and r.seat < len(t.seats):
                s = t.seats[r.seat]
                if s.kind == "human" and s.token_hash is None:
                    row = self.profiles.profile(r.guest)
                    s.guest, s.held_for = r.guest, row["name"] if row else None

    def invite(self, table: Table, pid: str, req: Invite) -> dict[str, Any]:
        """``pid``, who plays at ``table``, saves a seat for a friend: the invitation."""
        if table.finished():
            raise HTTPException(409, Msg("the game is over"))
        if table.seating.seat_of_profile(pid) is None:
            raise HTTPException(
                403, Msg("only a player at this table invites: take a seat with your profile first")
            )
        if req.seat >= len(table.seats):
            raise HTTPException(
                422, Msg("seat: there is no seat {n} at this table", n=req.seat + 1)
            )
        s = table.seats[req.seat]
        if s.kind != "human" or s.token_hash is not None:
            raise HTTPException(409, Msg("seat {n} is not free", n=req.seat + 1))
        if s.guest is not None:
            raise HTTPException(
                409, Msg("seat {n} is saved for {name} already", n=req.seat + 1, name=s.held_for)
            )
        friend = self._friend(pid, req)
        if table.seating.seat_of_profile(friend["id"]) is not None:
            raise HTTPException(409, Msg("{name} plays at this table already", name=friend["name"]))
        refusal = self.sit_refusal(table, friend["id"])
        if refusal is not None:
            raise HTTPException(409, refusal)
        i = invitations_t.c
        iid = secrets.token_urlsafe(12).replace("-", "x").replace("_", "y")
        with self.storage.transaction() as c:
            waiting = c.execute(
                select(func.count()).select_from(invitations_t).where(i.guest == friend["id"])
            ).scalar_one()
            if waiting >= MAX_INVITATIONS:
                raise HTTPException(
                    409,
                    Msg(
                        "{name} has {n} invitations waiting already: try again when they have "
                        "answered some",
                        name=friend["name"],
                        n=waiting,
                    ),
                )
            c.execute(
                insert(invitations_t).values(
                    id=iid,
                    table_id=table.id,
                    seat=req.seat,
                    host=pid,
                    guest=friend["id"],
                    created=time.time(),
                )
            )
        s.guest, s.held_for = friend["id"], friend["name"]
        table.broadcast()
        return {"id": iid, "table": table.id, "seat": req.seat, "name": friend["name"]}

    def _friend(self, pid: str, req: Invite) -> dict[str, str]:
        """The friend of ``pid`` an invitation names (403: none is; 409: two are)."""
        friends = self.names(self.friend_ids(pid))
        if req.friend is not None:
            found = [f for f in friends if f["id"] == req.friend]
            named = req.friend
        else:
            key = skeleton(req.name or "")
            found = [f for f in friends if skeleton(f["name"]) == key]
            named = req.name or ""
        if not found:
            raise HTTPException(
                403,
                Msg(
                    '"{name}" is not one of your friends: only a friend can be invited (add '
                    "them from their profile page, and they add you)",
                    name=named,
                ),
            )
        if len(found) > 1:
            raise HTTPException(
                409,
                Msg(
                    'two of your friends are called "{name}": choose one from the list',
                    name=named,
                ),
            )
        return found[0]

    def invitations(self, pid: str, sent: bool = False) -> list[dict[str, Any]]:
        """The invitations waiting for ``pid`` (``sent``: those ``pid`` made), the ones no
        longer current (the seat taken, the game over) forgotten."""
        i = invitations_t.c
        with self.storage.engine.connect() as c:
            rows = c.execute(
                select(invitations_t)
                .where((i.host if sent else i.guest) == pid)
                .order_by(i.created.desc())
            ).all()
        names = {
            p["id"]: p["name"] for p in self.names({r.host for r in rows} | {r.guest for r in rows})
        }
        out, stale = [], []
        for r in rows:
            t = self.manager.tables.get(r.table_id)  # a finished one may be archived: gone
            if (
                t is None
                or t.finished()
                or r.seat >= len(t.seats)
                or t.seats[r.seat].guest != r.guest
            ):
                stale.append(r.id)
                continue
            out.append(
                {
                    "id": r.id,
                    "table": r.table_id,
                    "title": t.game.info.title,
                    "rules": rules_words(t.name, t.config),
                    "seat": r.seat,
                    "from": names.get(r.host, ""),
                    "to": names.get(r.guest, ""),
                    "link": f"/t/{r.table_id}",
                    "created": r.created,
                }
            )
        if stale:
            with self.storage.transaction() as c:
                c.execute(delete(invitations_t).where(i.id.in_(stale)))
        return out

    def _invitation(self, iid: str, pid: str, guest_only: bool) -> Any:
        """The invitation ``iid`` of ``pid`` (its guest, or who made it unless
        ``guest_only``): 404 if there is none."""
        i = invitations_t.c
        who = i.guest == pid if guest_only else or_(i.guest == pid, i.host == pid)
        with self.storage.engine.connect() as c:
            row = c.execute(select(invitations_t).where(i.id == iid, who)).first()
        if row is None:
            raise HTTPException(
                404, Msg("no such invitation: it may have been answered or withdrawn")
            )
        return row

    def _forget(self, row: Any) -> None:
        with self.storage.transaction() as c:
            c.execute(delete(invitations_t).where(invitations_t.c.id == row.id))

    def _unhold(self, row: Any) -> None:
        """The seat of an invitation that is gone is free again (if it is still saved)."""
        t = self.manager.tables.get(row.table_id)
        if t is not None and row.seat < len(t.seats) and t.seats[row.seat].guest == row.guest:
            t.seats[row.seat].guest = t.seats[row.seat].held_for = None
            t.broadcast()

    def decline(self, iid: str, pid: str) -> None:
        row = self._invitation(iid, pid, guest_only=False)
        self._forget(row)
        self._unhold(row)

    async def accept(self, iid: str, pid: str, client: str) -> dict[str, Any]:
        row = self._invitation(iid, pid, guest_only=True)
        t = await self.manager.get_async(row.table_id)
        if t is None or t.finished():
            self._forget(row)
            raise HTTPException(409, Msg("the game of this invitation is over"))
        me = self.profiles.profile(pid) or {"name": "player"}
        try:
            seat, token = t.take_seat(me["name"], row.seat, client, pid)
        except SheepfoldError as e:
            raise HTTPException(409, text_of(e)) from None
        self._forget(row)
        return {"seat": seat, "token": token, "table": t.id, "seat_link": seat_link(t.id, token)}

    # -- friends' tables ---------------------------------------------------------------------
    def tables(self, pid: str, friends: set[str]) -> list[dict[str, Any]]:
        """The unfinished tables (served here) where friends of ``pid`` play, that ``pid`` may
        see: a table in the lobby, or one for the host's friends whose host is ``pid`` or a
        friend (never a private table's link). Those with a seat ``pid`` may take first."""
        if not friends:
            return []
        q = (
            select(seats_t.c.table_id, seats_t.c.profile, profiles_t.c.name)
            .join(tables_t, tables_t.c.id == seats_t.c.table_id)
            .join(profiles_t, profiles_t.c.id == seats_t.c.profile)
            .where(seats_t.c.profile.in_(friends), tables_t.c.finished.is_(False))
            .order_by(tables_t.c.created.desc())
            .limit(MAX_TABLES * 4)
        )
        with self.storage.engine.connect() as c:
            rows = c.execute(q).all()
        found: dict[str, dict[str, Any]] = {}
        for tid, _, name in rows:
            if tid in found:
                found[tid]["friends"].append(name)
                continue
            t = self.manager.tables.get(tid)
            if t is None or t.finished() or len(found) >= MAX_TABLES:
                continue
            host = t.config.get("host")
            if t.private and not (
                t.config.get("friends_only") and (host == pid or host in friends)
            ):
                continue
            mine = t.seating.seat_of_profile(pid) is not None
            free = [
                s.seat
                for s in t.seats
                if s.kind == "human" and s.token_hash is None and s.guest in (None, pid)
            ]
            found[tid] = {
                "id": tid,
                "title": t.game.info.title,
                "rules": rules_words(t.name, t.config),
                "friends": [name],
                "seats": [s.name for s in t.seats],
                "free": 0 if mine else len(free),
                "yours": mine,
                "friends_only": bool(t.config.get("friends_only")),
                "link": f"/t/{tid}",
            }
        return sorted(found.values(), key=lambda e: not e["free"])


def friends_of(conn: HTTPConnection) -> Friends:
    return conn.app.state.friends  # type: ignore[no-any-return]


FriendsDep = Annotated[Friends, Depends(friends_of)]

#: the friends' API: every route has its client (server/clients.py)
router = APIRouter(dependencies=CLIENT)


def _me(request: Request, f: Friends) -> str:
    return str(f.profiles.require(request.headers.get(HEADER))["id"])


def _id(pid: str) -> str:
    if not ID_FORM.fullmatch(pid):
        raise HTTPException(404, Msg("no such player"))
    return pid


def host_of(request: Request, f: Friends) -> str:
    """A new table for the host's friends: the id of its host, the request's profile (401
    without one, in words)."""
    if request.headers.get(HEADER) is None:
        raise HTTPException(
            401, Msg("a table for your friends needs your profile: make one on your profile page")
        )
    return _me(request, f)


@router.get("/api/friends")
async def about(request: Request, f: FriendsDep) -> dict[str, Any]:
    from sheepfold.server.i18n import localize

    return localize(f.about(_me(request, f)), getattr(request.state, "lang", "en"))  # type: ignore[no-any-return]


@router.post("/api/friends/{pid}")
async def add(pid: str, request: Request, f: FriendsDep, who: ClientDep) -> dict[str, Any]:
    me = _me(request, f)
    who.take("invite")
    return {"id": pid, "friends": f.add(me, _id(pid))}


@router.delete("/api/friends/{pid}")
async def remove(pid: str, request: Request, f: FriendsDep) -> dict[str, Any]:
    f.remove(_me(request, f), _id(pid))
    return {"id": pid, "friends": False}


@router.post("/api/tables/{table_id}/invite", status_code=201)
async def invite(
    table_id: str, req: Invite, request: Request, f: FriendsDep, who: ClientDep
) -> dict[str, Any]:
    me = _me(request, f)
    t = await table_or_404(f.manager, table_id)
    who.take("invite")
    return f.invite(t, me, req)


@router.post("/api/invitations/{iid}/accept")
async def accept(iid: str, request: Request, f: FriendsDep, who: ClientDep) -> dict[str, Any]:
    me = _me(request, f)
    who.take("join")
    return await f.accept(iid, me, who.key)


@router.delete("/api/invitations/{iid}")
async def decline(iid: str, request: Request, f: FriendsDep) -> dict[str, Any]:
    f.decline(iid, _me(request, f))
    return {"id": iid}
