"""Players' profiles: a name and a secret, no password; each profile's finished games and its
rating per game (server/ratings.py); "Your tables".

A profile is made with a name (``POST /api/profiles``); the answer holds its secret, once. The
browser keeps the secret (``localStorage``) and shows it with ``X-Sheepfold-Profile`` (a
request's header) or in a table's ``hello`` message. The server keeps the secret's SHA-256 only
(``sf_profiles.secret_hash``): nobody, the server's database included, can show a profile's
secret again. To move a profile to another device, its page shows the transfer link
``/profile#secret=SECRET``: the secret rides in the fragment, which browsers never send to a
server, and the page that opens it keeps it and takes it out of the address at once.

A person who takes a seat with their profile has the profile on that seat (``sf_seats.profile``):
their other devices play it by showing the profile's secret, and when the game ends its result
joins the history of every profile that played it (``sf_profile_games``, in the same transaction
as the ratings it changes). A result the server could not write (it stopped at that moment) is
written when it starts again (:meth:`Profiles.catch_up`).

Limits: a name is a seat name (server/texts.py: 32 characters, plain text); a secret has one
form (43 URL-safe characters), anything else is refused before it is hashed; profiles are made
at most ``Settings.profile_rate`` per address, and ``Settings.profiles_per_day`` per address in
24 hours (counted in the database: a restart does not reset it).

HTTP API (JSON)::

    POST  /api/profiles                {"name"} -> {"id", "name", "secret", "link"} (201)
    GET   /api/profiles/me             (the header) this profile: name, ratings, reliability
    PATCH /api/profiles/me             {"name"} a new name (the games played keep theirs)
    GET   /api/profiles/me/tables      (the header) its unfinished tables; where it is its turn
    GET   /api/profiles/{id}           a profile's name, ratings, reliability, latest games
    GET   /api/leaderboard/{game}      the game's rated people, best first
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, insert, or_, select, update

from sheepfold.core.drivers import TableDriver, table_driver
from sheepfold.core.protocol import CHANCE, Game, State
from sheepfold.core.words import Msg, chained, from_data, to_data
from sheepfold.server.api_site import STATIC
from sheepfold.server.clients import CLIENT, ClientDep, ProfilesDep, key_of
from sheepfold.server.limits import RateLimited
from sheepfold.server.ratings import (
    PAIR_WINDOW,
    PROVISIONAL_GAMES,
    Person,
    Rating,
    judge,
    level,
    rate,
    reliability,
    shown,
)
from sheepfold.server.storage import (
    SeatRow,
    Storage,
    left_seats_t,
    profile_games_t,
    profiles_t,
    ratings_t,
    seats_t,
    tables_t,
)
from sheepfold.server.texts import Name

if TYPE_CHECKING:
    from sheepfold.server.seating import Seat
    from sheepfold.server.tables import Table, TableManager

log = logging.getLogger("sheepfold.server")

HEADER = "X-Sheepfold-Profile"
SECRET_LEN = 43  # secrets.token_urlsafe(32)
SECRET_FORM = re.compile(r"[A-Za-z0-9_-]{43}")
ID_FORM = re.compile(r"[A-Za-z0-9]{1,32}")
SECRET_PROBLEM = Msg(
    "the profile secret is not in its form ({n} letters, digits, '-' or '_'): copy the whole "
    "transfer link again",
    n=SECRET_LEN,
)
UNKNOWN_SECRET = Msg("no profile has this secret: it may be mistyped, or make a new profile")
MAX_HISTORY = 50  # games a profile's page shows at once
MAX_BOARD = 100  # people on a leaderboard
MAX_TABLES = 100  # tables "Your tables" lists
DAY = 86_400.0


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class NewProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name = Field(min_length=1)


def ordinal(n: int) -> str:
    return {1: Msg("1st"), 2: Msg("2nd"), 3: Msg("3rd")}.get(n) or Msg("{n}th", n=n)


def result_words(place: int, places: list[int]) -> str:
    """A seat's result in words: ``won``, ``tied for first``, ``2nd of 3``."""
    shared = places.count(place) > 1
    if place == 1:
        return Msg("tied for first") if shared else Msg("won")
    return (
        Msg("tied for {nth} of {n}", nth=ordinal(place), n=len(places))
        if shared
        else Msg("{nth} of {n}", nth=ordinal(place), n=len(places))
    )


def places_of(table: Table) -> list[int]:
    """Each seat's place at a finished table (1: won; equal results share a place): by win
    share, then by score. A game that ran out of turns has no winner: everyone ties."""
    out = table.state.outcome()
    assert out is not None, "places of an unfinished game"
    shares = out.shares()
    keys = [
        (shares[s],) if out.truncated else (shares[s], out.scores[s]) for s in range(len(shares))
    ]
    return [1 + sum(k > mine for k in keys) for mine in keys]


def rules_words(game: str, config: dict[str, Any]) -> str:
    """The rules a table plays, in words: the gallery's house rules by name, or the rule set's
    own description, and the options the table changed on top of it (plain ones by what they
    are: "pieces of wool in the middle at setup: 6"; the others counted)."""
    from sheepfold.games import parse_rules, rules_class
    from sheepfold.rulesets import resolve
    from sheepfold.server.plain_words import option_short

    house = config.get("gallery")
    if house:
        return Msg("house rules from the gallery: {name}", name=house.get("name", ""))
    rules = parse_rules(game, config.get("rules") or {})
    name = config.get("ruleset")
    base = resolve(game, name)  # None: the printed rules
    # a rule set's description: a built-in one's is a text of the catalog (server/i18n.py)
    described = rules.description or base.description
    said = Msg(described) if described else ("" if name else Msg("the rulebook"))
    fields = rules_class(game).model_fields
    mine, theirs = rules.model_dump(mode="json"), base.model_dump(mode="json")
    changed = [k for k in fields if k not in ("name", "description") and mine[k] != theirs[k]]
    plain: list[str] = []
    for k in changed:
        if isinstance(mine[k], int | str) and not isinstance(mine[k], bool):
            short = option_short(fields[k].description)  # a text of the catalog (extract_rules)
            plain.append(Msg("{about}: {value}", about=Msg(short) if short else k, value=mine[k]))
    others = len(changed) - len(plain)
    if others:
        plain.append(
            Msg("{n} other changes", n=others) if others > 1 else Msg("{n} other change", n=1)
        )
    if not plain:
        return said or Msg("rules of the table's own")
    listed = chained(plain, lambda a, b: Msg("{a}, {b}", a=a, b=b))
    if not said:
        return listed
    return (
        Msg("{said} With {changes}.", said=said, changes=listed)
        if said.endswith(".")
        else Msg("{said}, with {changes}", said=said, changes=listed)
    )


def waiting_for(state: State, driver: TableDriver, config: dict[str, Any]) -> set[int]:
    """The seats a table (its state, its game's table driver and its config) waits for now:
    the one to move, the roller of a die rolled by hand, the seats in a race (none once it is
    over, or while the server or a chance step moves)."""
    if state.is_terminal():
        return set()
    mover = state.current_player()
    if mover == CHANCE:
        step = driver.chance(state, config)
        return set(step.seats) if step.kind in ("roll", "race") else set()
    return {int(mover)}


def open_table(
    table_id: str,
    seat: int,
    game: Game,
    state: State,
    config: dict[str, Any],
    seats: Sequence[SeatRow | Seat],
    created: float,
) -> dict[str, Any]:
    """One entry of "Your tables": the profile's ``seat`` at an unfinished table."""
    return {
        "id": table_id,
        "title": game.info.title,
        "rules": rules_words(game.name, config),
        "seat": seat,
        "seats": [
            {
                "name": s.name,
                "person": s.kind == "human" and s.token_hash is not None,
                # a free seat may be saved for a friend (server/friends.py: this process's)
                "free": s.kind == "human"
                and s.token_hash is None
                and not getattr(s, "guest", None),
                "held_for": getattr(s, "held_for", None),
                "bot": s.bot if s.kind == "bot" else None,  # its level: static/common.js
            }
            for s in seats
        ],
        "your_turn": seat in waiting_for(state, table_driver(game.name), config),
        "own_pace": bool(config.get("own_pace")),
        "created": created,
        "link": f"/t/{table_id}",
        "clock": None,  # its turn clock, for a table this process serves (server/clock.py)
    }


def met_lately(c: Any, people: Sequence[Person], now: float) -> Callable[[Person, Person], bool]:
    """Whether two of ``people`` had a rated game together in the last ``PAIR_WINDOW`` seconds
    before ``now``: the same two profiles, or two profiles from the same two addresses (their
    client keys), in two seats of one game (read on the transaction ``c``)."""
    g = profile_games_t.c
    q = select(g.table_id, g.profile, g.client).where(
        g.finished >= now - PAIR_WINDOW,
        g.rating_after.is_not(None),
        or_(g.profile.in_([p.profile for p in people]), g.client.in_([p.key for p in people])),
    )
    games: dict[str, list[Any]] = {}
    for r in c.execute(q):
        games.setdefault(r.table_id, []).append(r)

    def is_(row: Any, p: Person) -> bool:
        return bool(row.profile == p.profile or row.client == p.key)

    def met(a: Person, b: Person) -> bool:
        return any(
            x is not y and is_(x, a) and is_(y, b)
            for rows in games.values()
            for x in rows
            for y in rows
        )

    return met


class Profiles:
    """The profiles of a server's database, and what the tables ask of them."""

    MAX_CACHED = 10_000  # secrets' hashes remembered (a profile's secret never changes)

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.storage: Storage = manager.storage
        self._ids: dict[str, str] = {}  # secret hash -> profile id
        manager.profile_of = self.id_of_secret
        manager.game_ended = self.game_ended
        manager.seat_left = self.seat_left

    # -- who ---------------------------------------------------------------------------------
    def id_of_secret(self, secret: Any) -> str | None:
        """The id of the profile whose secret this is (None: no profile, or not a secret)."""
        if not isinstance(secret, str) or not SECRET_FORM.fullmatch(secret):
            return None
        h = secret_hash(secret)
        pid = self._ids.get(h)
        if pid is None:
            with self.storage.engine.connect() as c:
                pid = c.execute(
                    select(profiles_t.c.id).where(profiles_t.c.secret_hash == h)
                ).scalar()
            if pid is not None:
                if len(self._ids) >= self.MAX_CACHED:
                    self._ids.clear()
                self._ids[h] = pid
        return pid

    def require(self, secret: str | None) -> dict[str, Any]:
        """The profile row of a request's secret: 400 if it is not in the secret's form, 401
        if no profile has it."""
        if not secret:
            raise HTTPException(
                401, Msg("no profile: this asks for the {header} header", header=HEADER)
            )
        if not SECRET_FORM.fullmatch(secret):
            raise HTTPException(400, SECRET_PROBLEM)
        pid = self.id_of_secret(secret)
        row = self.profile(pid) if pid else None
        if row is None:
            raise HTTPException(401, UNKNOWN_SECRET)
        return row

    def profile(self, pid: str) -> dict[str, Any] | None:
        with self.storage.engine.connect() as c:
            r = c.execute(select(profiles_t).where(profiles_t.c.id == pid)).first()
        return {"id": r.id, "name": r.name, "created": r.created} if r else None

    # -- writes ------------------------------------------------------------------------------
    def create(self, name: str, client: str) -> tuple[dict[str, Any], str]:
        """A new profile made from ``client``: (its row, its secret). RateLimited past the
        day's cap of the address."""
        cap = self.manager.settings.profiles_per_day
        now = time.time()
        secret = secrets.token_urlsafe(32)
        pid = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        with self.storage.transaction() as c:
            if cap > 0:
                made = c.execute(
                    select(func.count())
                    .select_from(profiles_t)
                    .where(profiles_t.c.client == client, profiles_t.c.created >= now - DAY)
                ).scalar_one()
                if made >= cap:
                    raise RateLimited(
                        Msg(
                            "your address made {n} profiles in the last 24 hours (at most "
                            "{cap}): use one of them, or move it here with its transfer link",
                            n=made,
                            cap=cap,
                        )
                    )
            c.execute(
                insert(profiles_t).values(
                    id=pid, name=name, secret_hash=secret_hash(secret), client=client, created=now
                )
            )
        return {"id": pid, "name": name, "created": now}, secret

    def rename(self, pid: str, name: str) -> None:
        with self.storage.transaction() as c:
            c.execute(update(profiles_t).where(profiles_t.c.id == pid).values(name=name))

    def game_ended(self, table: Table) -> None:
        """A table's end was committed: the result joins its people's histories and ratings
        (never stops the table: a failure is logged, and written at the next start)."""
        if not any(s.profile for s in table.seats):
            return
        try:
            self.record(table)
        except Exception:
            log.exception("the result of table %s was not added to its players' profiles", table.id)

    def seat_left(self, table: Table, seat: Seat) -> None:
        """A person with a profile leaves ``table`` before its end (a bot, or nobody, has their
        seat from now): once they made a move of their own, the game's end counts them as gone
        (:meth:`record`: rated as last, and an abandoned game)."""
        if seat.profile is None or seat.moves < 1:
            return
        row = {
            "table_id": table.id,
            "profile": seat.profile,
            "seat": seat.seat,
            "client": key_of((seat.client, 0) if seat.client else None),
            "moves": seat.moves,
        }
        with self.storage.transaction() as c:
            c.execute(
                left_seats_t.delete().where(
                    left_seats_t.c.table_id == table.id, left_seats_t.c.profile == seat.profile
                )
            )
            c.execute(insert(left_seats_t).values(**row))

    def record(self, table: Table) -> None:
        """Write the result of a finished table for each profile at it (once), and the new
        ratings of the people it rates (server/ratings.py: ``judge``), in one transaction. A
        person who left it before its end (:meth:`seat_left`) and did not come back is one of
        them, as gone (unless someone with a profile took their seat)."""
        places = places_of(table)
        scores = table.state.scores()
        seats = [
            {
                "name": s.name or f"seat {s.seat + 1}",
                "person": s.kind == "human",
                "profile": s.profile,
                "place": places[s.seat],
                "score": scores[s.seat],
            }
            for s in table.seats
        ]
        people = {
            s.profile: Person(
                s.profile,
                key_of((s.client, 0) if s.client else None),  # its client key (an IPv6 /64)
                s.moves,
                s.stand_in is not None,
                places[s.seat],
            )
            for s in table.seats
            if s.profile
        }
        seat_of = {s.profile: s.seat for s in table.seats if s.profile}
        now = time.time()
        with self.storage.transaction() as c:
            done = c.execute(
                select(profile_games_t.c.seat).where(profile_games_t.c.table_id == table.id)
            ).first()
            if done is not None:
                return
            left_here = left_seats_t.c.table_id == table.id
            gone = c.execute(select(left_seats_t).where(left_here)).all()
            c.execute(left_seats_t.delete().where(left_here))  # counted now, with the result
            for g in gone:
                if g.profile not in people and g.seat not in seat_of.values():
                    people[g.profile] = Person(g.profile, g.client, g.moves, True, len(places))
                    seat_of[g.profile] = g.seat
            # reliability counts the games played with another person (a bot is not kept waiting)
            others = sum(s.kind == "human" for s in table.seats if s.profile not in people)
            counted = others + len(people) >= 2
            verdict = judge(list(people.values()), met_lately(c, list(people.values()), now))
            summary = {
                "title": table.game.info.title,
                "rules": (rules := rules_words(table.name, table.config)),
                "rules_words": to_data(rules),  # the same words, translated when read
                "seats": seats,
                "own_pace": bool(table.config.get("own_pace")),
                # each profile's words on its rating: why not rated, or rated as last
                "notes": {p: to_data(words) for p, words in verdict.notes.items()},
            }
            before: dict[str, Rating] = {}
            after: dict[str, Rating] = {}
            if verdict.ranks:
                q = select(ratings_t).where(
                    ratings_t.c.game == table.name, ratings_t.c.profile.in_(list(verdict.ranks))
                )
                if self.storage.kind == "postgresql":
                    q = q.with_for_update()  # two servers ending games of one person at once
                found = {r.profile: Rating(r.mu, r.sigma, r.games) for r in c.execute(q)}
                before = {p: found.get(p, Rating()) for p in verdict.ranks}
                left = [p in verdict.left for p in before]
                new = rate(list(before.values()), list(verdict.ranks.values()), left)
                after = dict(zip(before, new, strict=True))
                for p, r in after.items():
                    values = {"mu": r.mu, "sigma": r.sigma, "games": r.games, "updated": now}
                    if p in found:
                        c.execute(
                            update(ratings_t)
                            .where(ratings_t.c.profile == p, ratings_t.c.game == table.name)
                            .values(**values)
                        )
                    else:
                        c.execute(insert(ratings_t).values(profile=p, game=table.name, **values))
            c.execute(
                insert(profile_games_t),
                [
                    {
                        "table_id": table.id,
                        "seat": seat_of[p],
                        "profile": p,
                        "game": table.name,
                        "summary": summary,
                        "place": person.place,
                        "rating_before": before[p].careful if p in before else None,
                        "rating_after": after[p].careful if p in after else None,
                        "finished": now,
                        "client": person.key,
                        # None: not counted (alone with bots; gone before a move of theirs)
                        "left_early": (
                            None
                            if not counted or (person.away and not person.moves)
                            else person.away
                        ),
                    }
                    for p, person in people.items()
                ],
            )

    def catch_up(self) -> int:
        """Start-up: the results a stopped server did not write (a finished table with a
        profile at it, and no history row) are written now. The number written."""
        with_profile = select(seats_t.c.table_id).where(seats_t.c.profile.is_not(None))
        recorded = select(profile_games_t.c.table_id)
        q = select(tables_t.c.id).where(
            tables_t.c.finished.is_(True),
            tables_t.c.id.in_(with_profile),
            tables_t.c.id.not_in(recorded),
        )
        with self.storage.engine.connect() as c:
            ids = list(c.execute(q).scalars())
        done = 0
        for tid in ids:
            t = self.manager.get(tid)
            if t is not None and t.finished():
                self.game_ended(t)
                done += 1
        return done

    # -- reads -------------------------------------------------------------------------------
    def ratings(self, pid: str) -> list[dict[str, Any]]:
        from sheepfold.core.registry import game_spec

        with self.storage.engine.connect() as c:
            rows = c.execute(
                select(ratings_t).where(ratings_t.c.profile == pid).order_by(ratings_t.c.game)
            ).all()
        return [
            {
                "game": r.game,
                "title": game_spec(r.game).title,
                "rating": shown(rating := Rating(r.mu, r.sigma, r.games)),
                "level": level(rating),
                "new": r.games < PROVISIONAL_GAMES,  # "new player": the level says so
                "games": r.games,
            }
            for r in rows
        ]

    def reliability(self, pid: str) -> dict[str, Any]:
        """The games the profile finished and left, of those counted (another person at the
        table: server/ratings.py, ``reliability``), and the same in words (None: none yet)."""
        g = profile_games_t.c
        q = (
            select(g.left_early, func.count())
            .where(g.profile == pid, g.left_early.is_not(None))
            .group_by(g.left_early)
        )
        with self.storage.engine.connect() as c:
            counts = {bool(left): n for left, n in c.execute(q)}
        finished, left = counts.get(False, 0), counts.get(True, 0)
        return {"finished": finished, "left": left, "words": reliability(finished, left)}

    def history(self, pid: str, limit: int = MAX_HISTORY) -> list[dict[str, Any]]:
        """The profile's latest finished games, newest first."""
        q = (
            select(profile_games_t)
            .where(profile_games_t.c.profile == pid)
            .order_by(profile_games_t.c.finished.desc(), profile_games_t.c.table_id)
            .limit(limit)
        )
        with self.storage.engine.connect() as c:
            rows = c.execute(q).all()
        out = []
        for r in rows:
            s = r.summary
            places = [seat["place"] for seat in s["seats"]]
            out.append(
                {
                    "table": r.table_id,
                    "game": r.game,
                    "title": s["title"],
                    # words kept to be translated (a summary written before: its English)
                    "rules": from_data(s.get("rules_words", s["rules"])),
                    "seats": [
                        {k: seat[k] for k in ("name", "person", "profile", "place", "score")}
                        for seat in s["seats"]
                    ],
                    "seat": r.seat,
                    "place": r.place,
                    "result": result_words(r.place, places),
                    "rated": r.rating_after is not None,
                    # why it is not rated, or how (None: rated as it ended, or an older game)
                    "rating_note": from_data(s.get("notes", {}).get(r.profile)),
                    # the careful estimates stored, as the numbers people see
                    "rating_before": None if r.rating_before is None else shown(r.rating_before),
                    "rating_after": None if r.rating_after is None else shown(r.rating_after),
                    "finished": r.finished,
                    "replay": f"/t/{r.table_id}",
                    "record": f"/api/tables/{r.table_id}/record",
                }
            )
        return out

    def leaderboard(self, game: str, limit: int = MAX_BOARD) -> list[dict[str, Any]]:
        careful = ratings_t.c.mu - 3 * ratings_t.c.sigma
        q = (
            select(ratings_t, profiles_t.c.name)
            .join(profiles_t, profiles_t.c.id == ratings_t.c.profile)
            .where(ratings_t.c.game == game)
            .order_by(careful.desc(), ratings_t.c.games.desc(), profiles_t.c.id)
            .limit(limit)
        )
        with self.storage.engine.connect() as c:
            rows = c.execute(q).all()
        out: list[dict[str, Any]] = []
        for r in rows:
            rating = Rating(r.mu, r.sigma, r.games)
            number = shown(rating)
            tied = out and out[-1]["rating"] == number
            place = out[-1]["place"] if tied else len(out) + 1
            out.append(
                {
                    "place": place,
                    "id": r.profile,
                    "name": r.name,
                    "rating": number,
                    "level": level(rating),
                    "games": r.games,
                }
            )
        return out

    def open_tables(self, pid: str) -> list[dict[str, Any]]:
        """The profile's unfinished tables: where it is its turn first, then the newest."""
        from sheepfold.server.tables import Damaged, rebuild

        q = (
            select(seats_t.c.table_id, seats_t.c.seat)
            .join(tables_t, tables_t.c.id == seats_t.c.table_id)
            .where(seats_t.c.profile == pid, tables_t.c.finished.is_(False))
            .order_by(tables_t.c.created.desc())
            .limit(MAX_TABLES)
        )
        with self.storage.engine.connect() as c:
            mine = c.execute(q).all()
        out = []
        for tid, seat in mine:
            t = self.manager.get(tid)
            if t is not None:
                if not t.finished():
                    entry = open_table(t.id, seat, t.game, t.state, t.config, t.seats, t.created)
                    out.append({**entry, "clock": self.manager.clock_info(t)})  # server/clock.py
                continue
            # another process of a cluster serves it (server/cluster.py): as it is stored
            rows = self.storage.load_all(tid)
            try:
                game, state = rebuild(rows[0]) if rows else (None, None)
            except Damaged:
                continue
            if game is not None and state is not None and not state.is_terminal():
                row = rows[0]
                out.append(open_table(tid, seat, game, state, row.config, row.seats, row.created))
        out.sort(key=lambda e: not e["your_turn"])  # stable: the newest first in each
        return out


#: the profiles' API: every route has its client (server/clients.py), whose key the
#: profiles made are counted by
router = APIRouter(dependencies=CLIENT)
pages = APIRouter()  # the profiles' pages


def mine(request: Request, p: Profiles) -> dict[str, Any]:
    return p.require(request.headers.get(HEADER))


def about(row: dict[str, Any], request: Request, p: Profiles) -> dict[str, Any]:
    """A profile with its ratings and its history, the history's words (a result, the
    rules) in the request's language."""
    from sheepfold.server.i18n import localize

    lang = getattr(request.state, "lang", "en")
    pid = row["id"]
    return {
        **row,
        **localize(
            {
                "ratings": p.ratings(pid),
                "reliability": p.reliability(pid),
                "history": p.history(pid),
            },
            lang,
        ),
    }


@router.post("/api/profiles", status_code=201)
async def create(req: NewProfile, p: ProfilesDep, who: ClientDep) -> dict[str, Any]:
    # the client's rate is taken before the body is read (app.ROUTES, server/limits.py)
    row, secret = p.create(req.name, who.key)
    return {**row, "secret": secret, "link": f"/profile#secret={secret}"}


@router.get("/api/profiles/me")
async def me(request: Request, p: ProfilesDep) -> dict[str, Any]:
    return about(mine(request, p), request, p)


@router.patch("/api/profiles/me")
async def rename(req: NewProfile, request: Request, p: ProfilesDep) -> dict[str, Any]:
    row = mine(request, p)
    p.rename(row["id"], req.name)
    return about({**row, "name": req.name}, request, p)


@router.get("/api/profiles/me/tables")
async def my_tables(request: Request, p: ProfilesDep) -> list[dict[str, Any]]:
    from sheepfold.server.i18n import localize

    tables = p.open_tables(mine(request, p)["id"])
    return localize(tables, getattr(request.state, "lang", "en"))  # type: ignore[no-any-return]


@router.get("/api/profiles/{pid}")
async def public(pid: str, request: Request, p: ProfilesDep) -> dict[str, Any]:
    row = p.profile(pid) if ID_FORM.fullmatch(pid) else None
    if row is None:
        raise HTTPException(404, Msg("no such player"))
    return about(row, request, p)


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, request: Request, p: ProfilesDep) -> dict[str, Any]:
    from sheepfold.core.registry import find_game, game_spec
    from sheepfold.server.i18n import localize

    if len(game) > 64 or find_game(game) is None:
        raise HTTPException(404, Msg("no such game"))
    rows = localize(p.leaderboard(game), getattr(request.state, "lang", "en"))
    return {"game": game, "title": game_spec(game).title, "rows": rows}


def _page(name: str) -> Callable[[], Any]:
    async def page() -> FileResponse:
        return FileResponse(STATIC / name)

    return page


#: the profiles' pages (a page's script asks the API)
PAGES = (
    ("/profile", "profile.html"),
    ("/players/{pid}", "profile.html"),
    ("/your-tables", "yours.html"),
    ("/leaderboard", "leaderboard.html"),  # the first game's
    ("/leaderboard/{game}", "leaderboard.html"),
)
for _path, _file in PAGES:
    pages.add_api_route(_path, _page(_file), methods=["GET"], include_in_schema=False)
