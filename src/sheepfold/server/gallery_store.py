"""The gallery's rows, in the server's database (the tables are declared in ``storage.py``, with
the others, so that every database the server opens has them):

- ``sf_rulesets``: one row per published rule set: its game, slug, name, author, the hash of its
  publish token (never the token), the client address that published it and when;
- ``sf_ruleset_versions``: every version of every rule set (older versions stay forever): its
  rules (options, validated before they are stored), the rule set they name as their base
  (their ``from``; empty when they name none), description, the categories and lines in
  words of what it changes, and its lab card: status, progress, the card and its SVG plot, and
  when it was queued, and how many times it was started (the queue is these rows: a restart
  loses nothing);
- ``sf_votes``: one vote per person (the client address that held the seat) and rule set, from
  a finished table played with it: a later vote replaces the earlier one.

Created by ``metadata.create_all`` like the other tables; a column added since is added to an
older database when it is opened (``storage.py``). Everything here is text stored as given: the
pages put it in with ``textContent``, never as HTML.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, delete, func, insert, select, update

from sheepfold.core.words import Msg, to_text
from sheepfold.server.storage import Storage, rulesets_t, versions_t, votes_t

LAB_OPEN = ("queued", "running")
#: a card a dead server left running is started again at most this many times in all
MAX_STARTS = 2
STOPPED_TWICE = Msg("the server stopped twice while computing this card: it is not started again")


def plot_text(plots: dict[str, str]) -> str:
    """A card's plots (language -> SVG, English among them) as the text of its column: JSON,
    each drawn once by the card's process (lab/card.py) and served as it is."""
    return json.dumps(plots, ensure_ascii=False)


def plot_in(text: str, lang: str) -> str:
    """The plot of ``lang`` from its column's text, else the English one; a card stored before
    holds one SVG, the English (served to every reader)."""
    if not text.startswith("{"):
        return text
    plots = json.loads(text)
    return str(plots.get(lang) or plots["en"])


@dataclass(frozen=True)
class Job:
    """An open lab job: its version, status, the address that published it, its rule set."""

    id: int
    status: str
    client: str
    ruleset_id: int


@dataclass
class Version:
    """One version of a rule set, joined with its rule set's row."""

    id: int
    ruleset_id: int
    game: str
    slug: str
    name: str
    author: str
    token_hash: str
    version: int
    description: str
    rules: dict[str, Any]
    base: str | None  # the rule set the rules named as their base (None: none, the closest)
    changes: list[str]
    differences: list[str]
    created: float
    lab_status: str
    lab_progress: float
    lab_queued: float | None
    lab_message: str | None
    lab_card: dict[str, Any] | None
    has_plot: bool


_COLUMNS = (
    versions_t.c.id,
    versions_t.c.ruleset_id,
    rulesets_t.c.game,
    rulesets_t.c.slug,
    rulesets_t.c.name,
    rulesets_t.c.author,
    rulesets_t.c.token_hash,
    versions_t.c.version,
    versions_t.c.description,
    versions_t.c.rules,
    versions_t.c.base,
    versions_t.c.changes,
    versions_t.c.differences,
    versions_t.c.created,
    versions_t.c.lab_status,
    versions_t.c.lab_progress,
    versions_t.c.lab_queued,
    versions_t.c.lab_message,
    versions_t.c.lab_card,
    versions_t.c.lab_plot.is_not(None).label("has_plot"),
)


def _select() -> Any:
    return select(*_COLUMNS).join(rulesets_t, versions_t.c.ruleset_id == rulesets_t.c.id)


def _version(r: Any) -> Version:
    return Version(**{k: r._mapping[k] for k in Version.__dataclass_fields__})


class GalleryStore:
    """Reads and writes of the gallery's rows; each write one committed transaction."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.engine = storage.engine

    # -- publishing -------------------------------------------------------------------------
    def free_slug(self, game: str, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``... : the first not taken in ``game``."""
        with self.engine.connect() as c:
            taken = set(
                c.execute(
                    select(rulesets_t.c.slug).where(
                        rulesets_t.c.game == game, rulesets_t.c.slug.like(f"{base}%")
                    )
                ).scalars()
            )
        slug, k = base, 1
        while slug in taken:
            k += 1
            slug = f"{base}-{k}"
        return slug

    def publish(self, game: str, slug: str, meta: dict[str, Any], version: dict[str, Any]) -> None:
        """A new rule set (``meta``: name, author, token_hash, client) with its version 1."""
        now = time.time()
        with self.storage.transaction() as c:
            rid = c.execute(
                insert(rulesets_t).values(game=game, slug=slug, created=now, **meta)
            ).inserted_primary_key[0]
            c.execute(insert(versions_t).values(ruleset_id=rid, version=1, **_new(version, now)))

    def add_version(self, ruleset_id: int, number: int, version: dict[str, Any]) -> None:
        """A new version; its card takes the place of an older version's card still queued
        (that one is ``skipped``, saying so): one queued card per rule set at most."""
        with self.storage.transaction() as c:
            row = _new(version, time.time())
            if row["lab_status"] == "queued":
                c.execute(
                    update(versions_t)
                    .where(
                        versions_t.c.ruleset_id == ruleset_id, versions_t.c.lab_status == "queued"
                    )
                    .values(
                        lab_status="skipped",
                        lab_queued=None,
                        lab_message=to_text(
                            Msg(
                                "not computed: version {number} took its place in the lab queue",
                                number=number,
                            )
                        ),
                    )
                )
            c.execute(insert(versions_t).values(ruleset_id=ruleset_id, version=number, **row))

    # -- reading ----------------------------------------------------------------------------
    def versions(self, game: str, slug: str) -> list[Version]:
        """Every version of a rule set, oldest first (empty: no such rule set)."""
        q = (
            _select()
            .where(rulesets_t.c.game == game, rulesets_t.c.slug == slug)
            .order_by(versions_t.c.version)
        )
        with self.engine.connect() as c:
            return [_version(r) for r in c.execute(q)]

    def version(self, game: str, slug: str, number: int) -> Version | None:
        q = _select().where(
            rulesets_t.c.game == game, rulesets_t.c.slug == slug, versions_t.c.version == number
        )
        with self.engine.connect() as c:
            r = c.execute(q).first()
        return _version(r) if r else None

    def latest(self, game: str) -> list[Version]:
        """The newest version of every rule set of ``game``."""
        newest = (
            select(versions_t.c.ruleset_id, func.max(versions_t.c.version).label("v"))
            .group_by(versions_t.c.ruleset_id)
            .subquery()
        )
        q = (
            _select()
            .join(
                newest,
                (newest.c.ruleset_id == versions_t.c.ruleset_id)
                & (newest.c.v == versions_t.c.version),
            )
            .where(rulesets_t.c.game == game)
        )
        with self.engine.connect() as c:
            return [_version(r) for r in c.execute(q)]

    def plot(self, version_id: int, lang: str = "en") -> str | None:
        """A card's plot in ``lang`` (:func:`plot_in`)."""
        with self.engine.connect() as c:
            text = c.execute(
                select(versions_t.c.lab_plot).where(versions_t.c.id == version_id)
            ).scalar()
        return None if text is None else plot_in(text, lang)

    def published_since(self, client: str, since: float) -> list[float]:
        """When ``client`` published each version since ``since``, oldest first: new rule sets
        (their version 1) and new versions alike count toward the per-day cap."""
        q = (
            select(versions_t.c.created)
            .where(versions_t.c.client == client, versions_t.c.created >= since)
            .order_by(versions_t.c.created)
        )
        with self.engine.connect() as c:
            return [float(t) for t in c.execute(q).scalars()]

    # -- the lab queue ------------------------------------------------------------------------
    def queue(self) -> list[Job]:
        """The open lab jobs, in the order they were queued (``gallery_lab.fair_order`` says
        which is next)."""
        q = (
            select(
                versions_t.c.id,
                versions_t.c.lab_status,
                versions_t.c.client,
                versions_t.c.ruleset_id,
            )
            .where(versions_t.c.lab_status.in_(LAB_OPEN))
            .order_by(versions_t.c.lab_queued, versions_t.c.id)
        )
        with self.engine.connect() as c:
            return [Job(r.id, r.lab_status, r.client, r.ruleset_id) for r in c.execute(q)]

    def requeue_running(self, only: Sequence[int] | None = None) -> tuple[int, int]:
        """Start-up: a job left running by a stopped server is queued again, once: one the
        server had already started :data:`MAX_STARTS` times is failed, saying so. (queued
        again, failed)."""
        running = versions_t.c.lab_status == "running"
        if only is not None:  # those whose server is gone (many servers: gallery_lab.py)
            running = running & versions_t.c.id.in_(list(only))
        spent = versions_t.c.lab_attempts >= MAX_STARTS
        with self.storage.transaction() as c:
            failed = c.execute(
                update(versions_t)
                .where(running, spent)
                .values(lab_status="failed", lab_message=to_text(STOPPED_TWICE))
            ).rowcount
            again = c.execute(
                update(versions_t).where(running).values(lab_status="queued", lab_progress=0.0)
            ).rowcount
        return again, failed

    def started(self, version_id: int, step: int = 1) -> None:
        """A card's process starts (``step`` 1: one more start counted), or a server stopping
        on purpose gives its start back (-1: that stop is not the card's failure)."""
        with self.storage.transaction() as c:
            c.execute(
                update(versions_t)
                .where(versions_t.c.id == version_id)
                .values(lab_attempts=versions_t.c.lab_attempts + step)
            )

    def lab_job(self, version_id: int) -> Version | None:
        with self.engine.connect() as c:
            r = c.execute(_select().where(versions_t.c.id == version_id)).first()
        return _version(r) if r else None

    def set_lab(self, version_id: int, **values: Any) -> None:
        """Update a lab job's fields (``status``, ``progress``, ``message``, ``card``, ``plot``,
        ``attempts``)."""
        if values.get("message") is not None:  # words kept as data: translated when read
            values["message"] = to_text(values["message"])
        with self.storage.transaction() as c:
            c.execute(
                update(versions_t)
                .where(versions_t.c.id == version_id)
                .values(**{f"lab_{k}": v for k, v in values.items()})
            )

    # -- votes ----------------------------------------------------------------------------------
    def vote(
        self, table_id: str, seat: int, person: str, house: dict[str, Any], again: bool, game: str
    ) -> None:
        """A person's vote on a rule set (``person``: the client address that held the seat),
        from a seat of a finished table: it replaces every earlier vote of that person on any
        version of the rule set, and any earlier vote of that seat."""
        slug = house["slug"]
        with self.storage.transaction() as c:
            c.execute(
                delete(votes_t).where(
                    (votes_t.c.game == game)
                    & (votes_t.c.slug == slug)
                    & (votes_t.c.client == person)
                    | (votes_t.c.table_id == table_id) & (votes_t.c.seat == seat)
                )
            )
            c.execute(
                insert(votes_t).values(
                    table_id=table_id,
                    seat=seat,
                    game=game,
                    slug=slug,
                    version=int(house["version"]),
                    again=again,
                    created=time.time(),
                    client=person,
                )
            )

    def votes(self, game: str) -> dict[tuple[str, int], tuple[int, int]]:
        """(slug, version) -> (yes, total) for every voted version of ``game``."""
        q = (
            select(
                votes_t.c.slug,
                votes_t.c.version,
                func.sum(func.cast(votes_t.c.again, Integer)).label("yes"),
                func.count().label("total"),
            )
            .where(votes_t.c.game == game)
            .group_by(votes_t.c.slug, votes_t.c.version)
        )
        with self.engine.connect() as c:
            return {(r.slug, r.version): (int(r.yes or 0), int(r.total)) for r in c.execute(q)}


def _new(version: dict[str, Any], now: float) -> dict[str, Any]:
    """A new version's row values: its lab card queued (or refused, with ``lab_message``)."""
    status = version.pop("lab_status", "queued")
    return {
        **version,
        "created": now,
        "lab_status": status,
        "lab_progress": 0.0,
        "lab_queued": now if status == "queued" else None,
    }
