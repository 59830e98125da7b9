"""The notices' API and pages (server/mail.py): a profile's e-mail settings and vacation, and
the links the mails carry.

    GET  /api/profiles/me/notices    (the profile header) its settings
    PUT  /api/profiles/me/notices    {"email", "your_turn", "game_over", "vacation"} -> its
                                     settings, and "confirm_sent" (a new address's link went)
    GET  /notices/confirm?token=...  a confirmation link: the address is the profile's (a page)
    GET  /unsubscribe?token=...      no more notices to that address, no login (a page)
"""

from __future__ import annotations

import html
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sheepfold.core.words import Msg
from sheepfold.server.clients import CLIENT, ClientDep, ProfilesDep
from sheepfold.server.i18n import localize
from sheepfold.server.mail import MAX_EMAIL, Choice, Notices, email_problem
from sheepfold.server.profiles import HEADER


def notices(conn: HTTPConnection) -> Notices:
    return conn.app.state.notices  # type: ignore[no-any-return]


NoticesDep = Annotated[Notices, Depends(notices)]

router = APIRouter(dependencies=CLIENT)
pages = APIRouter()


class NoticeSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(default=None, max_length=MAX_EMAIL)
    your_turn: bool = False
    game_over: bool = False
    vacation: bool = False


def _lang(request: Request) -> str:
    return getattr(request.state, "lang", "en")


def _answer(n: Notices, pid: str, **more: Any) -> dict[str, Any]:
    return {**n.choice(pid).public(), "can_send": n.smtp is not None, **more}


@router.get("/api/profiles/me/notices")
async def get_notices(request: Request, p: ProfilesDep, n: NoticesDep) -> dict[str, Any]:
    pid = p.require(request.headers.get(HEADER))["id"]
    return _answer(n, pid)


@router.put("/api/profiles/me/notices")
async def put_notices(
    req: NoticeSettings, request: Request, p: ProfilesDep, n: NoticesDep, who: ClientDep
) -> dict[str, Any]:
    pid = p.require(request.headers.get(HEADER))["id"]
    email = (req.email or "").strip() or None
    if email is not None and (problem := email_problem(email)) is not None:
        raise HTTPException(422, problem)
    if email is None and (req.your_turn or req.game_over):
        raise HTTPException(422, Msg("email: the notices need an e-mail address to go to"))
    new = Choice(email, False, req.your_turn, req.game_over, req.vacation, _lang(request))
    sent = n.save(pid, new, who.key)
    return _answer(n, pid, confirm_sent=sent)


def _page(request: Request, title: str, text: str, status: int = 200) -> HTMLResponse:
    lang = _lang(request)
    title, text = html.escape(localize(title, lang)), html.escape(localize(text, lang))
    lobby = html.escape(localize(Msg("Lobby"), lang))
    body = f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — sheepfold</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="data:,">
</head>
<body>
<header class="top"><a href="/" id="logo" aria-label="back to the lobby"></a><h1 id="title">{title}</h1>
  <span class="spacer"></span><a href="/">{lobby}</a></header>
<main><section class="panel"><p id="notice-said">{text}</p></section></main>
</body>
</html>
"""
    return HTMLResponse(body, status_code=status)


BAD_LINK = Msg(
    "This link is not valid: it was cut short or changed. Open the link in the e-mail again, "
    "or change your e-mail settings on your profile page."
)


@pages.get("/notices/confirm", include_in_schema=False)
async def confirm(request: Request, n: NoticesDep, token: str | None = None) -> HTMLResponse:
    done = n.confirm(token)
    if done is None:
        return _page(request, Msg("E-mail address not confirmed"), BAD_LINK, 400)
    if not done:
        return _page(
            request,
            Msg("E-mail address not confirmed"),
            Msg("Your profile has another e-mail address now: confirm that one with its own link."),
        )
    return _page(
        request,
        Msg("E-mail address confirmed"),
        Msg("Thank you: the notices you chose on your profile page come to this address now."),
    )


@pages.get("/unsubscribe", include_in_schema=False)
async def unsubscribe(request: Request, n: NoticesDep, token: str | None = None) -> HTMLResponse:
    if not n.unsubscribe(token):
        return _page(request, Msg("Not unsubscribed"), BAD_LINK, 400)
    return _page(
        request,
        Msg("Unsubscribed"),
        Msg(
            "No more e-mails from Sheepfold come to this address. Your profile page turns them on again."
        ),
    )
