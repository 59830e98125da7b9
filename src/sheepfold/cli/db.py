"""``sheepfold db check``: which stored tables a server would quarantine, and why."""

from __future__ import annotations

import typer

from sheepfold.cli.common import console, fail, friendly_errors, safe_text

app = typer.Typer(help="The web app's database.", no_args_is_help=True)


@app.command("check")
@friendly_errors
def check_command(
    db: str = typer.Option(
        "sheepfold.db",
        help="the database: an SQLite file path, sqlite:///FILE, or postgresql://USER@HOST/DB",
    ),
) -> None:
    """Rebuild every stored table as the server does at start-up (each action checked by the
    engine) and name the damaged ones; exit status 1 if there is any."""
    from sheepfold.server.storage import Storage
    from sheepfold.server.tables import Damaged, rebuild

    try:
        storage = Storage(db)
    except Exception as e:
        raise fail(f"--db: cannot open the database: {str(e).strip().splitlines()[0]}") from None
    try:
        rows = storage.load_all()
    finally:
        storage.close()
    damaged = 0
    for row in rows:
        try:
            rebuild(row)
        except Damaged as e:
            damaged += 1
            console.print(f"damaged: table {safe_text(row.id)}: {safe_text(e)}", highlight=False)
    console.print(f"{len(rows)} tables, {damaged} damaged", highlight=False)
    if damaged:
        raise typer.Exit(1)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="db")
