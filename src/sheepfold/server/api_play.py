"""Play and watch: one WebSocket per client (``/ws/{id}``, docs/web.md for its messages).

Its messages go to its table; the table's go out to it, in the client's language (``?lang=``,
as its page's). Its messages are limited per client key (server/clients.py), as the chat's
lines are (server/chat.py: the connection's ``client``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from sheepfold.core.words import Msg, text_of
from sheepfold.server import i18n
from sheepfold.server.broadcast import DIRECT
from sheepfold.server.clients import CLIENT, ClientDep, ManagerDep
from sheepfold.server.limits import RateLimited, message_problem
from sheepfold.server.table_requests import missing_table
from sheepfold.server.tables import Conn

if TYPE_CHECKING:
    from sheepfold.server.connections import Direct

router = APIRouter(dependencies=CLIENT)


@router.websocket("/ws/{table_id}")
async def ws_play(ws: WebSocket, table_id: str, m: ManagerDep, who: ClientDep) -> None:
    t = await m.get_async(table_id)
    await ws.accept()
    if t is None:
        lang = i18n.choose(
            ws.query_params.get("lang"),
            ws.cookies.get(i18n.COOKIE),
            ws.headers.get("accept-language"),
        )
        message = i18n.localize(missing_table(m, table_id)[1], lang)
        await ws.send_json({"type": "error", "message": message})
        await ws.close(code=4404)
        return
    client, settings = who.key, m.settings
    # uvicorn's socket here offers its direct side (server/connections.py): messages read
    # and written on the loop's own turn, without the ASGI round trip each way
    direct: Direct | None = ws.scope.get("extensions", {}).get(DIRECT)
    conn = Conn(
        ws.send_text,
        lambda: ws.close(code=1008),
        write=direct.write if direct is not None else None,
    )
    conn.client = client
    conn.lang = i18n.choose(  # the page's language (its <html lang>), else the browser's
        ws.query_params.get("lang"),
        ws.cookies.get(i18n.COOKIE),
        ws.headers.get("accept-language"),
    )
    writer = asyncio.get_event_loop().create_task(conn.writer())

    def take(text: str | None) -> None:
        """One message of the client's (None: a binary one)."""
        if conn.closed:
            return
        if text is None:
            conn.error(Msg("binary messages are not understood: send JSON text"))
            return
        try:
            who.take("message")
        except RateLimited as e:
            conn.error(text_of(e))
            return
        problem = message_problem(text, settings.max_message, settings.max_depth)
        if problem:
            conn.error(problem)
            return
        t.handle(conn, text)

    if direct is not None:  # set before the first message out (attach's state)
        direct.on_message = take
    try:
        t.attach(conn)
        while not conn.closed:  # what the direct side leaves to the queue (a burst)
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            take(msg.get("text"))
    except WebSocketDisconnect:
        pass
    finally:
        if direct is not None:
            direct.on_message = None
        conn.closed = True
        t.detach(conn)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer
