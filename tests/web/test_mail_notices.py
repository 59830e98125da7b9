"""E-mail notices (server/mail.py), read from a real local SMTP server (aiosmtpd): a
confirmation first, "your turn" when a turn starts and its person is away, "game over", the
unsubscribe link, and nothing to an unconfirmed or unsubscribed address."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from test_profiles_api import join_as, make_profile
from test_turn_clock import on_loop

from polling import wait_until
from sheepfold.server.mail import Smtp
from sheepfold.server.profiles import HEADER

TWO = [{"kind": "human"}, {"kind": "human"}]
SHAVE = {
    "game": "shave-a-sheep",
    "rules": {"wool": 6},
    "auto_roll": True,
    "first_player": 0,
    "seed": 3,
}


class Inbox:
    """What the SMTP server received."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.raw: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.raw.append(envelope.content)
        self.mails.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


class LocalSmtp(Controller):
    """aiosmtpd's controller on a free port (port 0: the port the system gave)."""

    def _trigger_server(self) -> None:
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, str]]:
    box = Inbox()
    smtp = LocalSmtp(box, hostname="127.0.0.1", port=0)
    smtp.start()
    yield box, f"smtp://127.0.0.1:{smtp.port}"
    smtp.stop()


def mail_server(make_server: Any, url: str, **settings: Any) -> Any:
    srv = make_server(smtp=url, clock_tick=0, **settings)
    srv.app.state.notices.site = srv.url  # the mails' links reach this test server
    return srv


def body(mail: EmailMessage) -> str:
    return mail.get_content().replace("\r\n", "\n")  # type: ignore[no-any-return]


def link(text: str, path: str) -> str:
    found = re.search(r"http://\S+" + re.escape(path) + r"\S*", text)
    assert found, f"no {path} link in {text!r}"
    return found.group(0)


def settle(srv: Any, profile: dict[str, Any], **choice: Any) -> dict[str, Any]:
    r = srv.http.put("/api/profiles/me/notices", json=choice, headers={HEADER: profile["secret"]})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def confirmed(srv: Any, box: Inbox, profile: dict[str, Any], address: str) -> None:
    """``profile`` opts in at ``address`` and clicks its confirmation link."""
    said = settle(srv, profile, email=address, your_turn=True, game_over=True)
    assert said["confirm_sent"] is True and said["confirmed"] is False
    mail = wait_until(lambda: box.to(address), what="the confirmation mail")[-1]
    assert "Confirm" in mail["Subject"]
    r = srv.http.get(link(body(mail), "/notices/confirm").removeprefix(srv.url))
    assert r.status_code == 200 and "confirmed" in r.text
    got = srv.http.get("/api/profiles/me/notices", headers={HEADER: profile["secret"]}).json()
    assert got["confirmed"] is True


def play(client: Any) -> None:
    st = client.last_state
    client.send({"type": "act", "action": st["view"]["legal_actions"][0]})
    client.wait_state(lambda m: m["seq"] > st["seq"])


def test_your_turn_game_over_and_unsubscribe(make_server, ws_client, inbox):
    box, url = inbox
    srv = mail_server(make_server, url)
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    confirmed(srv, box, leo, "leo@example.org")
    t = srv.create(**SHAVE, seats=TWO, show_scores=False)
    m = join_as(srv, t["id"], mia, 0)
    seat = join_as(srv, t["id"], leo, 1)  # Leo is not at the table: his turn comes by mail
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", m["token"])
    play(c)  # Mia's move: Leo's turn starts
    mail = wait_until(lambda: box.to("leo@example.org")[1:], what="the your-turn mail")[0]
    # at the table, his next turn needs no mail
    notices = srv.app.state.notices
    queued = notices.queued
    at_table = ws_client(f"{srv.ws_url}/ws/{t['id']}", seat["token"])
    at_table.wait_state(lambda s: s["view"]["to_move"] == 1)
    play(at_table)
    c.wait_state(lambda s: s["view"]["to_move"] == 0)
    play(c)
    at_table.wait_state(lambda s: s["view"]["to_move"] == 1)
    assert notices.queued == queued
    at_table.close()
    table = srv.manager.get(t["id"])
    wait_until(lambda: not table.seats[1].conns, what="Leo to leave the table")
    # on vacation, no mail; back from it, his turn's mail again
    on = dict(email="leo@example.org", your_turn=True, game_over=True)
    settle(srv, leo, **on, vacation=True)
    on_loop(srv, lambda: notices.your_turn(table, 1))
    assert notices.queued == queued
    settle(srv, leo, **on, vacation=False)
    on_loop(srv, lambda: notices.your_turn(table, 1))
    assert notices.queued == queued + 1
    assert mail["Subject"] == "Your turn at Shave a Sheep with Mia"
    text = body(mail)
    assert text.startswith("It is your turn at Shave a Sheep with Mia:\n")
    assert link(text, f"/t/{t['id']}") == f"{srv.url}/t/{t['id']}"
    assert not re.search(r"\d+ (wool|point)", text)  # hidden scores stay hidden
    # unsubscribe, without a profile: nothing is sent after it
    stop = link(text, "/unsubscribe")
    assert mail["List-Unsubscribe"] == f"<{stop}>"
    assert f"List-Unsubscribe: <{stop}>".encode() in box.raw[1]  # as it is, for mail programs
    r = srv.http.get(stop.removeprefix(srv.url))
    assert r.status_code == 200 and "No more e-mails" in r.text
    got = srv.http.get("/api/profiles/me/notices", headers={HEADER: leo["secret"]}).json()
    assert got["your_turn"] is False and got["game_over"] is False
    before = notices.queued
    on_loop(srv, lambda: notices.your_turn(table, 1))  # as at his next turn: not sent now
    on_loop(srv, lambda: notices.game_over(table))
    assert notices.queued == before


def test_game_over_tells_the_end_as_the_page_does(make_server, ws_client, inbox):
    box, url = inbox
    srv = mail_server(make_server, url)
    mia = make_profile(srv.http, "Mia")
    confirmed(srv, box, mia, "mia@example.org")
    t = srv.create(**SHAVE, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    m = join_as(srv, t["id"], mia, 0)
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", m["token"])
    while not c.last_state["view"]["finished"]:
        if c.last_state["view"]["to_move"] == 0:
            play(c)
        else:
            c.wait_state(lambda s: s["view"]["finished"] or s["view"]["to_move"] == 0)
    mail = wait_until(
        lambda: [x for x in box.to("mia@example.org") if "Game over" in x["Subject"]],
        what="the game-over mail",
    )[0]
    assert mail["Subject"] == "Game over at Shave a Sheep with Shaun"
    first = body(mail).splitlines()[0]
    assert first in (
        "The game at Shave a Sheep with Shaun is over: you won!",
        "The game at Shave a Sheep with Shaun is over: Shaun wins.",
        "The game at Shave a Sheep with Shaun is over: a tie between Mia and Shaun.",
    ), first


def test_nothing_goes_to_an_unconfirmed_address_and_confirmations_are_few(
    make_server, ws_client, inbox
):
    box, url = inbox
    srv = mail_server(make_server, url)
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    said = settle(srv, leo, email="someone@example.org", your_turn=True, game_over=True)
    assert said["confirmed"] is False
    wait_until(lambda: box.to("someone@example.org"), what="the one confirmation")
    t = srv.create(**SHAVE, seats=TWO)
    m = join_as(srv, t["id"], mia, 0)
    join_as(srv, t["id"], leo, 1)
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", m["token"])
    play(c)
    table = srv.manager.get(t["id"])
    wait_until(lambda: srv.app.state.turn_clock.turn_seat.get(t["id"]) == 1, what="Leo's turn")
    notices = srv.app.state.notices
    assert notices.queued == 1  # the confirmation only
    wait_until(lambda: notices.sent == 1, what="the mail to be sent")
    assert [x["Subject"] for x in box.to("someone@example.org")] == [
        "Confirm your e-mail address for Sheepfold"
    ]
    assert table.seats[1].profile is not None
    # a stranger cannot make us mail an address again and again: a few confirmations a day
    settle(srv, leo, email="other@example.org")
    settle(srv, leo, email="someone@example.org")  # 3 confirmations: a day's
    r = srv.http.put(
        "/api/profiles/me/notices",
        json={"email": "other@example.org"},
        headers={HEADER: leo["secret"]},
    )
    assert r.status_code == 429, r.text
    kept = srv.http.get("/api/profiles/me/notices", headers={HEADER: leo["secret"]}).json()
    assert kept["email"] == "someone@example.org"  # nothing half-saved


def test_bad_links_and_bad_settings_say_what_is_wrong(make_server, inbox):
    _, url = inbox
    srv = mail_server(make_server, url)
    mia = make_profile(srv.http, "Mia")
    for path in ("/unsubscribe?token=nonsense", "/unsubscribe", "/notices/confirm?token=a.b"):
        r = srv.http.get(path)
        assert r.status_code == 400 and "This link is not valid" in r.text, path
    good = srv.app.state.notices.token("unsubscribe", mia["id"], "mia@example.org")
    r = srv.http.get(f"/notices/confirm?token={good}")  # an unsubscribe token confirms nothing
    assert r.status_code == 400
    r = srv.http.put(
        "/api/profiles/me/notices",
        json={"email": "not-an-address"},
        headers={HEADER: mia["secret"]},
    )
    assert r.status_code == 422 and "not an e-mail address" in r.json()["detail"]
    r = srv.http.put(
        "/api/profiles/me/notices", json={"your_turn": True}, headers={HEADER: mia["secret"]}
    )
    assert r.status_code == 422 and "e-mail address" in r.json()["detail"]
    assert srv.http.get("/api/profiles/me/notices").status_code == 401


def test_smtp_addresses():
    assert Smtp.parse("smtp://mail.example.org:2525") == Smtp("mail.example.org", 2525, "none")
    assert Smtp.parse("smtp+starttls://ann:p%40ss@mx.example.org") == Smtp(
        "mx.example.org", 587, "starttls", "ann", "p@ss"
    )
    assert Smtp.parse("smtps://mx.example.org").port == 465
    for bad in ("http://x", "smtp://", "smtp://host:port"):
        with pytest.raises(ValueError, match="--smtp"):
            Smtp.parse(bad)
