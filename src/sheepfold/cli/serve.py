"""``sheepfold serve``: the web app (tables, bots, the browser pages) with uvicorn."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from sheepfold.cli.common import compile_report, console, fail, friendly_errors


@friendly_errors
def serve_command(
    host: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, help="port to listen on (0: any free port)"),
    db: str = typer.Option(
        "sheepfold.db",
        help="where tables are stored: an SQLite file path, sqlite:///FILE, or postgresql://USER@HOST/DB",
    ),
    bot_delay: float = typer.Option(0.7, help="seconds a bot waits before each decision"),
    race_timeout: float = typer.Option(
        8.0, help="Howling Wolf: seconds before the reaction weights pick a grabber"
    ),
    leave_grace: float = typer.Option(
        90.0,
        help="seconds before a disconnected player is replaced by a bot (when the table allows it)",
    ),
    dev_seeds: bool = typer.Option(
        False, "--dev-seeds", help="tests only: let a table be created with a given seed"
    ),
    no_limits: bool = typer.Option(
        False,
        "--no-limits",
        help="no rate limits and no connection caps per client, no cap on open tables (a"
        " benchmark, a trusted LAN; behind a proxy, name it with --trusted-proxy instead)",
    ),
    trusted_proxy: list[str] = typer.Option(
        [],
        "--trusted-proxy",
        help="a reverse proxy's address (or network, 10.0.0.0/8) whose X-Forwarded-For names"
        " the client; repeatable. Nobody else's is believed: without it, every client is its"
        " connection's address",
    ),
    api_docs: bool = typer.Option(
        False, "--api-docs", help="serve Swagger UI at /api/docs (its scripts come from a CDN)"
    ),
    lab_workers: int = typer.Option(
        1, min=0, help="gallery lab cards computed at once, each in its own process (0: none)"
    ),
    lab_games: int = typer.Option(2000, min=2, help="games a side of a gallery lab card"),
    lab_seconds: float = typer.Option(
        60.0, min=1, help="a lab card's time budget (seconds): it is capped after it"
    ),
    per_client: int = typer.Option(
        100, min=1, help="connections open at once from one address (--no-limits: no cap)"
    ),
    websockets_per_client: int = typer.Option(
        40, min=1, help="live tables (WebSockets) open at once from one address"
    ),
    head_timeout: float = typer.Option(
        10.0, min=0.1, help="seconds for a request's head to arrive in full, then 408"
    ),
    body_timeout: float = typer.Option(
        30.0, min=0.1, help="seconds for a request's body to arrive in full, then 408"
    ),
    keep_alive: int = typer.Option(5, min=1, help="seconds an idle keep-alive connection stays"),
    ws_ping: float = typer.Option(
        20.0, min=0.1, help="seconds between WebSocket pings, and to answer one before a close"
    ),
    log_level: str = typer.Option("warning", help="uvicorn log level"),
    loop: str = typer.Option(
        "auto",
        help="the event loop: uvloop (less CPU per move), asyncio (the standard library's), or"
        " auto (uvloop where it is installed, else asyncio)",
    ),
    advertise: str = typer.Option(
        "",
        help="PostgreSQL: the address the other servers on the database reach this one at"
        " (default http://HOST:PORT, 127.0.0.1 for every interface)",
    ),
    smtp: str = typer.Option(
        "",
        help="e-mail notices (your turn, game over) go through this SMTP server:"
        " smtp://host:port, smtps://host, smtp+starttls://user:password@host:587 (none: no mail)",
    ),
    site_url: str = typer.Option(
        "", help="the address the e-mails' links start with (default http://HOST:PORT)"
    ),
    mail_from: str = typer.Option(
        "Sheepfold <sheepfold@localhost>", help="the sender of the e-mail notices"
    ),
    clock_scale: float = typer.Option(
        1.0,
        min=0.001,
        help="turn clocks run this many times faster (a demo: 3600, an hour a second)",
    ),
) -> None:
    """Start the web app: open the printed address, start a table, invite friends or bots.

    Tables live in the database: stop the server (or let it crash) and start it again with the same --db, and every table is where it was. On PostgreSQL any number of servers may serve one database together (sheepfold cluster starts some behind haproxy).
    """
    try:
        from sheepfold.server.app import create_app
        from sheepfold.server.connections import (
            ConnectionLimits,
            GuardedServer,
            raise_open_files_limit,
            uvicorn_config,
        )
        from sheepfold.server.tables import Settings
    except ImportError as e:
        raise fail(
            f"the web app needs the 'web' extra: pip install 'sheepfold[web]' ({e.name} missing)"
        ) from None

    loop = _check_loop(loop)
    _check_proxies(trusted_proxy)
    url = _check_db(db)
    raise_open_files_limit()
    limits = ConnectionLimits(
        per_client=per_client,
        websockets_per_client=websockets_per_client,
        head_timeout=head_timeout,
        body_timeout=body_timeout,
        keep_alive=keep_alive,
        ws_ping_interval=ws_ping,
        ws_ping_timeout=ws_ping,
    )
    options: dict[str, Any] = dict(
        bot_delay=bot_delay,
        race_timeout=race_timeout,
        leave_grace=leave_grace,
        allow_seed=dev_seeds,
        api_docs=api_docs,
        lab_workers=lab_workers,
        lab_games=lab_games,
        lab_seconds=lab_seconds,
        smtp=_check_smtp(smtp),
        mail_from=mail_from,
        clock_scale=clock_scale,
    )
    if site_url:
        options["site_url"] = site_url.rstrip("/")
    settings = Settings.unlimited(**options) if no_limits else Settings(**options)
    app = create_app(db, settings)
    config = uvicorn_config(
        app,
        host,
        port,
        limits.lifted() if no_limits else limits,
        log_level,
        loop,
        trusted_proxies=trusted_proxy,
    )

    def listening(real: int) -> None:  # a cluster's other processes relay to this address
        from sheepfold.server.cluster import advertise as tell
        from sheepfold.server.warmup import BotWarmUp

        # every bot's compiled code, in the background, once the server listens: its imports
        # (numba, the bots) do not delay the first page, and a bot asked to move before it is
        # ready says so and warms up first (never charged to a move)
        app.state.bot_warm_up = BotWarmUp(report=compile_report()).start()
        here = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        tell(app, advertise or web_address(here, real))
        if not site_url:  # the e-mails' links (server/mail.py)
            app.state.notices.site = web_address(here, real)

    _run(GuardedServer(config), url, host, port, listening)


def _check_loop(loop: str) -> str:
    """``--loop`` checked: one of auto, uvloop and asyncio, uvloop only where it is installed."""
    if loop not in ("auto", "uvloop", "asyncio"):
        raise fail(f"--loop: {loop!r} is not an event loop here (auto, uvloop or asyncio)")
    if loop == "uvloop":
        try:
            import uvloop  # noqa: F401
        except ImportError:
            raise fail(
                "--loop uvloop: uvloop is not installed (pip install 'sheepfold[web]'), "
                "or choose --loop asyncio"
            ) from None
    return loop


def _check_smtp(url: str) -> str | None:
    """``--smtp`` checked (before anything starts): its URL, or None for no mail."""
    from sheepfold.server.mail import Smtp

    if not url:
        return None
    try:
        Smtp.parse(url)
    except ValueError as e:
        raise fail(str(e)) from None
    return url


def _check_proxies(proxies: list[str]) -> None:
    """``--trusted-proxy`` checked: each an IP address or network (before anything starts)."""
    from sheepfold.server.connections import trusted_networks

    try:
        trusted_networks(proxies)
    except ValueError as e:
        raise fail(str(e)) from None


def _check_db(db: str) -> str:
    """``--db``'s normalised URL, checked: its folder exists, no other server holds it (then
    this process holds it until it ends), and the database opens."""
    from rich.markup import escape

    from sheepfold.server.dblock import DatabaseInUse, lock_database
    from sheepfold.server.storage import normalise_url

    url = normalise_url(db)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :])
        if path.parent and not path.parent.exists():
            raise fail(f"--db: the folder {path.parent} does not exist")
    try:  # open the database once here, so that a bad --db is one clear line, not a traceback
        from sheepfold.server.storage import Storage

        lock_database(db)  # before anything reads or migrates it, and before the slow start
        Storage(db).close()
    except DatabaseInUse as e:
        raise fail(escape(str(e))) from None
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise fail(f"--db: cannot open the database {url.split('@')[-1]}: {first}") from None
    return url


def _run(
    server: Any, url: str, host: str, port: int, listening: Callable[[int], None] | None = None
) -> None:
    """Serve until Ctrl+C, with the address and the database printed once it listens; fail
    when it cannot start."""
    from rich.markup import escape

    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host

    async def announce() -> None:
        import asyncio

        while not server.started:
            await asyncio.sleep(0.05)
        real = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        if listening is not None:
            listening(real)
        where = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url.split("@")[-1]
        console.print(
            f"sheepfold is serving at [bold]{escape(web_address(shown, real))}/[/]", highlight=False
        )
        console.print(
            f"open that address in a browser; tables are kept in {where}; Ctrl+C stops",
            highlight=False,
            soft_wrap=True,
        )

    async def main() -> None:
        import asyncio

        task = asyncio.get_event_loop().create_task(announce())
        await server.serve()
        task.cancel()

    import asyncio

    try:  # on the event loop the configuration names (uvloop where it is installed)
        with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
            runner.run(main())
    except KeyboardInterrupt:
        pass
    except SystemExit:  # uvicorn gives up (the port is taken...) after logging why
        raise fail(f"could not start the server on {escape(_at(host, port))}: {_why}") from None
    if not server.started:
        raise fail(f"could not start the server on {escape(_at(host, port))}: {_why}")


def _at(host: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets (``[fd00::1]:8000``): its colons are not the
    port's."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def web_address(host: str, port: int) -> str:
    """The address to open: ``http://localhost:8000``, ``http://[fd00::1]:8000``."""
    return f"http://{_at(host, port)}"


_why = "see the lines above (the port may be in use, or the database unreadable)"


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
