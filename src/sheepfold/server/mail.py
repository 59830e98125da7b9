"""E-mail notices ("your turn", "game over"), their settings on a profile, and vacation.

A profile opts in on its page (server/api_notices.py): an e-mail address, and which notices it
wants. The address is used only once its owner clicked the confirmation link mailed to it (a
stranger who types someone's address gets them one confirmation mail, rate-limited, and
nothing else). Every mail carries an unsubscribe link: a token signed with the server's key
(``sf_notice_key``), good without logging in (``GET /unsubscribe?token=...``).

- "Your turn": when a person's turn starts at a table (server/clock.py hears of it) and they
  are not connected to it: at most one a turn, and at most ``Settings.mail_rate`` mails to one
  address (what is over is dropped and logged).
- "Game over": when a table they sat at ends, the end as the table page tells it to everyone
  (who won), nothing else.

Notices never tell hidden information: no score, no card, no rule-set detail; the table's game,
the names at it, and a link. A profile on vacation gets no mail, and its clocks are paused
(server/clock.py). Mails are sent through SMTP (``Settings.smtp``, ``sheepfold serve --smtp
URL``) with the standard library's smtplib in a thread, never on the event loop; a failure is
logged, never raised into a game. Without ``--smtp`` nothing is sent (the settings still
save, and say so).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import re
import secrets
import smtplib
import ssl
import time
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlsplit

from sqlalchemy import Boolean, Column, Float, Integer, String, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.exc import IntegrityError

from sheepfold.core.words import Msg, joined
from sheepfold.server.i18n import localize
from sheepfold.server.limits import Rate, RateLimited, RateLimiter
from sheepfold.server.storage import metadata

if TYPE_CHECKING:
    from sheepfold.server.tables import Table, TableManager

log = logging.getLogger("sheepfold.server")

MAX_EMAIL = 254
EMAIL_FORM = re.compile(r"[^@\s<>,;:\"()\[\]\\]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
CONFIRMS_PER_DAY = 3  # confirmation mails to one address (and from one client) a day
DAY = 86_400.0
ONE_LINE = policy.default.clone(max_line_length=998)  # SMTP's longest line

notices_t = SqlTable(
    "sf_notices",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("email", String(MAX_EMAIL), nullable=True),
    Column("confirmed", Boolean, nullable=False, default=False),
    Column("your_turn", Boolean, nullable=False, default=False),
    Column("game_over", Boolean, nullable=False, default=False),
    Column("vacation", Boolean, nullable=False, default=False),
    Column("lang", String(8), nullable=True),  # the language its mails are written in
    Column("changed", Float, nullable=False),
)

key_t = SqlTable(  # one row: the key the links' tokens are signed with
    "sf_notice_key",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(64), nullable=False),
)


@dataclass
class Choice:
    """A profile's notice settings."""

    email: str | None = None
    confirmed: bool = False
    your_turn: bool = False
    game_over: bool = False
    vacation: bool = False
    lang: str = "en"

    def public(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "confirmed": self.confirmed,
            "your_turn": self.your_turn,
            "game_over": self.game_over,
            "vacation": self.vacation,
        }


def email_problem(email: str) -> str | None:
    """Why ``email`` is not an address we send to (None: it is)."""
    if len(email) > MAX_EMAIL or not EMAIL_FORM.fullmatch(email):
        return Msg(
            'email: "{email}" is not an e-mail address (one like name@example.org)',
            email=email[:60],
        )
    return None


# -- SMTP ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Smtp:
    """Where mails go: ``smtp://host:port`` (plain), ``smtps://`` (TLS from the start), or
    ``smtp+starttls://`` (STARTTLS), with ``user:password@`` when the server asks for a login."""

    host: str
    port: int
    security: str  # "none" | "tls" | "starttls"
    user: str | None = None
    password: str | None = None

    SCHEMES = {"smtp": ("none", 25), "smtps": ("tls", 465), "smtp+starttls": ("starttls", 587)}

    @classmethod
    def parse(cls, url: str) -> Smtp:
        """ValueError saying what is wrong with ``url``."""
        parts = urlsplit(url)
        if parts.scheme not in cls.SCHEMES:
            raise ValueError(
                f"--smtp {url!r}: the address starts with smtp://, smtps:// or smtp+starttls://"
            )
        security, default_port = cls.SCHEMES[parts.scheme]
        try:
            port = parts.port or default_port
        except ValueError:
            raise ValueError(f"--smtp {url!r}: the port is not a number") from None
        if not parts.hostname:
            raise ValueError(f"--smtp {url!r}: no host (smtp://host:port)")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port, security, user, password)

    def send(self, message: EmailMessage) -> None:
        """Send one mail (blocking: called in a thread)."""
        if self.security == "tls":
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=30, context=ssl.create_default_context()
            )
        else:
            server = smtplib.SMTP(self.host, self.port, timeout=30)
        with server:
            if self.security == "starttls":
                server.starttls(context=ssl.create_default_context())
            if self.user:
                server.login(self.user, self.password or "")
            server.send_message(message)


# -- the notices ----------------------------------------------------------------------------------
class Notices:
    """The profiles' notice settings and the mails they ask for."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.storage = manager.storage
        settings = manager.settings
        self.smtp = Smtp.parse(settings.smtp) if settings.smtp else None
        self.site = settings.site_url.rstrip("/")
        self.sender = settings.mail_from
        self.rate = RateLimiter(settings.mail_rate, Msg("e-mails"))
        self.confirms = RateLimiter(
            Rate(CONFIRMS_PER_DAY / DAY, CONFIRMS_PER_DAY),
            Msg("confirmation e-mails"),
        )
        self.queued = 0  # mails made to be sent
        self.sent = 0  # mails handed to the SMTP server
        self._choices: dict[str, Choice] = {}  # profile id -> its settings (read once)
        metadata.create_all(self.storage.engine, tables=[notices_t, key_t])  # an older database
        self._key: bytes | None = None  # read (or made) when first needed: no write at start

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = self._read_key()
        return self._key

    def _read_key(self) -> bytes:
        with self.storage.engine.connect() as c:
            key = c.execute(select(key_t.c.key).where(key_t.c.id == 1)).scalar()
        if key is None:
            try:
                with self.storage.transaction() as c:
                    c.execute(insert(key_t).values(id=1, key=secrets.token_hex(32)))
            except IntegrityError:  # another server of the database made it first
                pass
            with self.storage.engine.connect() as c:
                key = c.execute(select(key_t.c.key).where(key_t.c.id == 1)).scalar_one()
        return bytes.fromhex(key)

    # -- the settings ---------------------------------------------------------------------------
    def choice(self, pid: str) -> Choice:
        got = self._choices.get(pid)
        if got is None:
            with self.storage.engine.connect() as c:
                r = c.execute(select(notices_t).where(notices_t.c.profile == pid)).first()
            got = (
                Choice(r.email, r.confirmed, r.your_turn, r.game_over, r.vacation, r.lang or "en")
                if r
                else Choice()
            )
            if len(self._choices) > 10_000:
                self._choices.clear()
            self._choices[pid] = got
        return got

    def on_vacation(self, pid: str) -> bool:
        """Whether the profile is on vacation (its clocks wait); False if it cannot be read
        (logged: a table's broadcast asks, and never fails for it)."""
        try:
            return self.choice(pid).vacation
        except Exception:
            log.exception("profile %s: its vacation could not be read", pid)
            return False

    def save(self, pid: str, new: Choice, client: str) -> bool:
        """A profile's new settings (``new.lang``: its mails' language); a new address is
        unconfirmed and gets its confirmation mail (RateLimited past a day's few: nothing is
        saved then). Whether a confirmation mail was sent."""
        old = self.choice(pid)
        address = new.email.strip() if new.email else None
        changed = address is not None and address.lower() != (old.email or "").lower()
        if changed:
            assert address is not None
            self.confirms.check(address.lower())
            self.confirms.take(client)
            self.confirms.take(address.lower())
        confirmed = old.confirmed and not changed and address is not None
        values = {
            "email": address,
            "confirmed": confirmed,
            "your_turn": new.your_turn,
            "game_over": new.game_over,
            "vacation": new.vacation,
            "lang": new.lang,
            "changed": time.time(),
        }
        with self.storage.transaction() as c:
            done = c.execute(update(notices_t).where(notices_t.c.profile == pid).values(**values))
            if done.rowcount == 0:
                c.execute(insert(notices_t).values(profile=pid, **values))
        self._choices[pid] = Choice(
            address, confirmed, new.your_turn, new.game_over, new.vacation, new.lang
        )
        if changed and address is not None:
            link = f"{self.site}/notices/confirm?token={self.token('confirm', pid, address)}"
            self._mail(
                address,
                new.lang,
                Msg("Confirm your e-mail address for Sheepfold"),
                Msg(
                    "Someone, we hope you, asked for Sheepfold's notices at this address. To get "
                    "them, open this link:\n{link}\n\nIf it was not you, do nothing: no other "
                    "e-mail comes to this address.",
                    link=link,
                ),
                pid,
                limited=False,
            )
        return changed and self.smtp is not None

    # -- tokens -----------------------------------------------------------------------------------
    def token(self, kind: str, pid: str, email: str) -> str:
        """A link's token: what it is for, whose and which address, signed."""
        raw = json.dumps([kind, pid, email], separators=(",", ":")).encode()
        payload = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return f"{payload}.{self._sign(payload)}"

    def _sign(self, payload: str) -> str:
        return hmac.new(self.key, payload.encode(), hashlib.sha256).hexdigest()[:40]

    def read_token(self, kind: str, token: str | None) -> tuple[str, str] | None:
        """The (profile, address) of a good token of ``kind``, else None."""
        if not token or len(token) > 2000 or "." not in token:
            return None
        payload, _, sig = token.rpartition(".")
        if not hmac.compare_digest(sig, self._sign(payload)):
            return None
        try:
            raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
            what, pid, email = json.loads(raw)
        except Exception:
            return None
        return (pid, email) if what == kind else None

    def confirm(self, token: str | None) -> bool | None:
        """The address of a confirmation link is its profile's now (True; False: the profile
        has another address now); None: not a good link."""
        got = self.read_token("confirm", token)
        if got is None:
            return None
        pid, email = got
        if (self.choice(pid).email or "").lower() != email.lower():
            return False
        self._set(pid, confirmed=True)
        return True

    def unsubscribe(self, token: str | None) -> bool:
        """No more mails to the address of an unsubscribe link (False: not a good link)."""
        got = self.read_token("unsubscribe", token)
        if got is None:
            return False
        pid, email = got
        if (self.choice(pid).email or "").lower() == email.lower():
            self._set(pid, your_turn=False, game_over=False)
        return True

    def _set(self, pid: str, **values: Any) -> None:
        with self.storage.transaction() as c:
            c.execute(
                update(notices_t)
                .where(notices_t.c.profile == pid)
                .values(changed=time.time(), **values)
            )
        self._choices.pop(pid, None)

    # -- the mails ------------------------------------------------------------------------------
    def your_turn(self, table: Table, seat: int) -> None:
        """``seat``'s turn started at ``table``: its person's notice, if they want one and are
        not at the table."""
        s = table.seats[seat]
        if s.kind != "human" or s.profile is None or s.conns or s.stand_in is not None:
            return
        got = self._wanted(s.profile, "your_turn")
        if got is None:
            return
        name = self.table_name(table, seat)
        self._mail(
            got.email or "",
            got.lang,
            Msg("Your turn at {table}", table=name),
            Msg(
                "It is your turn at {table}:\n{link}",
                table=name,
                link=f"{self.site}/t/{table.id}",
            ),
            s.profile,
        )

    def game_over(self, table: Table) -> None:
        """``table`` ended: the notice of every person at it who wants one."""
        for s in table.seats:
            if s.kind != "human" or s.profile is None:
                continue
            got = self._wanted(s.profile, "game_over")
            if got is None:
                continue
            name = self.table_name(table, s.seat)
            self._mail(
                got.email or "",
                got.lang,
                Msg("Game over at {table}", table=name),
                Msg(
                    "The game at {table} is over: {end}\n{link}",
                    table=name,
                    end=self.end_words(table, s.seat),
                    link=f"{self.site}/t/{table.id}",
                ),
                s.profile,
            )

    def _wanted(self, pid: str, which: str) -> Choice | None:
        got = self.choice(pid)
        if not got.email or not got.confirmed or got.vacation or not getattr(got, which):
            return None
        return got

    @staticmethod
    def table_name(table: Table, seat: int) -> str:
        """The table in words for ``seat``'s person: its game and the others' names."""
        others = [s.name for s in table.seats if s.seat != seat and s.name]
        title = Msg(table.game.info.title)
        if not others:
            return title
        return Msg("{game} with {names}", game=title, names=joined(others))

    @staticmethod
    def end_words(table: Table, seat: int) -> str:
        """The end as the table page tells it (who won), for ``seat``'s person."""
        out = table.state.outcome()
        if out is None or out.truncated:
            return Msg("the game stopped (turn limit).")
        shares = out.shares()
        best = max(shares)
        winners = [
            table.seats[i].name or Msg("seat {n}", n=i + 1)
            for i, v in enumerate(shares)
            if v == best
        ]
        if len(winners) > 1:
            return Msg("a tie between {names}.", names=joined(winners))
        if shares[seat] == best:
            return Msg("you won!")
        return Msg("{name} wins.", name=winners[0])

    def _mail(
        self, to: str, lang: str, subject: str, body: str, pid: str, limited: bool = True
    ) -> None:
        """One mail, its words in ``lang``, with its unsubscribe link, sent in a thread (a
        failure is logged); dropped (logged) past the address's rate."""
        if self.smtp is None or not to:
            return
        if limited:
            try:
                self.rate.take(to.lower())
            except RateLimited:
                log.warning("a notice to a profile's address was not sent: over its rate")
                return
        token = self.token("unsubscribe", pid, to)
        unsubscribe = f"{self.site}/unsubscribe?token={quote(token)}"
        message = EmailMessage(policy=ONE_LINE)  # the unsubscribe header as it is (not folded)
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = localize(subject, lang)
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        footer = Msg("No more e-mails from Sheepfold: {link}", link=unsubscribe)
        message.set_content(f"{localize(body, lang)}\n\n-- \n{localize(footer, lang)}\n")
        smtp = self.smtp
        self.queued += 1
        self.manager.spawn(asyncio.to_thread(self._send, smtp, message))

    def _send(self, smtp: Smtp, message: EmailMessage) -> None:
        try:
            smtp.send(message)
            self.sent += 1
        except Exception as e:  # never into a game: the mail is lost, the server says so
            log.warning("an e-mail notice was not sent (%s: %s)", type(e).__name__, e)
