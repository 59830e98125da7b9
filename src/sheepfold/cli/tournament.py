"""``sheepfold tournament GAME --bot A --bot B ...``: bots play each other; win shares and Elo."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from sheepfold.cli.common import (
    GAME_HELP,
    MAX_GAMES,
    MAX_WORKERS,
    check_game,
    console,
    default_rules,
    err_console,
    fail,
    friendly_errors,
    prepare_bots,
    safe_markup,
    unequal_seats_warning,
)

if TYPE_CHECKING:
    from sheepfold.bots.tournament import Journal, TournamentConfig, TournamentResult


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _ci(ci: list[float]) -> str:
    lo, hi = ci
    if math.isnan(lo):
        return "-"
    return f"{100 * lo:.1f}–{100 * hi:.1f}%"


@friendly_errors
def tournament_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    bot: list[str] = typer.Option(
        [],
        "--bot",
        "-b",
        help="a bot by name, repeatable (e.g. --bot easy --bot hard; options after a colon: "
        "expert:iterations=100). Name a bot twice to play it against itself.",
    ),
    games: int = typer.Option(100, "--games", "-n", max=MAX_GAMES, help="games per match-up"),
    players: int = typer.Option(
        2,
        "--players",
        "-p",
        help="seats per game; with more bots than seats every combination of bots plays",
    ),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="play every deal once per seat "
        "rotation (twice for 2 players), same seed: luck cancels",
    ),
    seed: int = typer.Option(
        0, "--seed", help="tournament seed (every game's and bot's seed derives from it)"
    ),
    rules: str = typer.Option(
        None,
        "--rules",
        help="a rule set name or file, or 'rulebook' (default: the game's default rule set; "
        "Dolly Crush: dolly-graded, every seat the same dog cards)",
    ),
    breeds: str = typer.Option(
        None,
        "--breeds",
        help="Dolly Crush: one breed per seat, comma "
        "separated (e.g. pastore-maremmano,bobtail); default: the game's",
    ),
    workers: int = typer.Option(
        0, "--workers", "-w", min=0, max=MAX_WORKERS, help="worker processes (0: every core)"
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="keep every finished deal in this file (JSON lines), as it ends"
    ),
    resume: bool = typer.Option(
        False, "--resume", help="finish the tournament in --out (plays only the missing deals)"
    ),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace an existing --out file"),
    as_json: bool = typer.Option(False, "--json", help="print the report as JSON"),
    list_bots: bool = typer.Option(False, "--list", help="list the game's bots and exit"),
) -> None:
    """Play bots against each other in parallel; report win shares (95% CI) and Elo ratings.

    Example: sheepfold tournament dolly-crush --bot medium --bot hard --games 1000
    --duplicate --breeds pastore-maremmano,bobtail
    """
    from sheepfold.bots import available_bots
    from sheepfold.bots.tournament import (
        Journal,
        TournamentConfig,
        TournamentInterrupted,
        total_games,
        validate,
    )

    check_game(game)
    if list_bots:
        for name, desc in available_bots(game).items():
            console.print(f"[bold]{name}[/]: {desc}", highlight=False)
        return
    if workers < 0:
        raise fail("--workers is 0 (every core) or more")
    rules_model = default_rules(game, rules, seats_chosen=bool(breeds))[1]
    _warn_unequal(game, players, rules_model, breeds)
    cfg = TournamentConfig(
        game=game,
        bots=tuple(bot),
        games=games,
        players=players,
        duplicate=duplicate,
        seed=seed,
        rules=rules_model.model_dump(
            mode="json", exclude_defaults=True, exclude={"name", "description"}
        )
        or None,
        breeds=tuple(b.strip() for b in breeds.split(",")) if breeds else None,
        workers=workers or os.cpu_count() or 1,
    )
    if (resume or overwrite) and out is None:
        raise fail("--resume and --overwrite are about the --out file: give --out FILE")
    _prepare(validate(cfg), cfg)
    journal = Journal.open(out, cfg, resume, overwrite) if out else None
    try:
        result, stopped = _play(cfg, as_json, journal), False
    except TournamentInterrupted as e:
        result, stopped = e.result, True
        err_console.print(
            f"interrupted: {len(result.games)} of {total_games(cfg)} games had finished"
            + (f" (kept in {out}: add --resume to go on)" if out else "")
            + ("; their standings:" if result.games else ""),
            soft_wrap=True,
        )
        if not result.games:
            raise typer.Exit(130) from None
    summary = result.summary()
    if as_json:
        print(json.dumps(_clean(summary | {"interrupted": stopped}), indent=2))
    else:
        _print(summary)
    if stopped:
        raise typer.Exit(130)


def _prepare(game: Any, cfg: TournamentConfig) -> None:
    """The bots' slow one-time work (the perfect bot's solution, kept on disk for the workers)
    before the first game, with a progress bar: progress then moves from the first game."""
    from sheepfold.bots import make_bot

    prepare_bots(
        [make_bot(b, game, s, 0) for b in dict.fromkeys(cfg.bots) for s in range(cfg.players)]
    )


def _play(cfg: TournamentConfig, as_json: bool, journal: Journal | None) -> TournamentResult:
    """Play the tournament with a progress bar (on the terminal only with ``as_json``)."""
    from sheepfold.bots.tournament import run_tournament, total_games

    n = total_games(cfg)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=as_json,
        disable=not err_console.is_terminal and as_json,
    ) as progress:
        task = progress.add_task(f"{cfg.game}: {n} games on {cfg.workers} worker(s)", total=n)
        return run_tournament(cfg, lambda k: progress.advance(task, k), journal)


def _clean(x: Any) -> Any:
    """NaN is not JSON: null instead."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def _print(s: dict[str, Any]) -> None:
    title = (
        f"{s['game']}: {s['games']} games, {s['players']} players"
        + (", duplicate" if s["duplicate"] else "")
        + f", seed {s['seed']}"
    )
    t = Table(title=title)
    for col in ("bot", "games", "win share", "95% CI", "Elo", "Elo 95% CI", "mean score"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for r in s["standings"]:
        eci = r.get("elo_ci95")
        t.add_row(
            safe_markup(r["bot"]),
            str(r["games"]),
            _pct(r["win_share"]),
            _ci(r["ci95"]),
            f"{r['elo']:.0f}",
            f"{eci[0]:.0f}–{eci[1]:.0f}" if eci else "-",
            f"{r['mean_score']:.2f}",
        )
    console.print(t)
    h = Table(title="head to head (higher final score; ties count half)")
    for col in ("bot", "opponent", "games", "won", "tied", "lost", "share", "95% CI"):
        h.add_column(col, justify="left" if col in ("bot", "opponent") else "right")
    for r in s["head_to_head"]:
        h.add_row(
            safe_markup(r["bot"]),
            safe_markup(r["opponent"]),
            str(r["games"]),
            str(r["wins"]),
            str(r["ties"]),
            str(r["losses"]),
            _pct(r["share"]),
            _ci(r["ci95"]),
        )
    console.print(h)
    st = Table(title="seats")
    cols = ["seat"] + (["breed"] if s.get("breeds") else []) + ["win share", "95% CI", "mean score"]
    for col in cols:
        st.add_column(col, justify="right")
    for r in s["seats"]:
        row = [str(r["seat"])] + ([r["breed"]] if s.get("breeds") else [])
        st.add_row(*row, _pct(r["win_share"]), _ci(r["ci95"]), f"{r['mean_score']:.2f}")
    console.print(st)
    if s["truncated"]:
        console.print(f"{s['truncated']} game(s) truncated (equal shares).")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


def _warn_unequal(game: str, players: int, rules: Any, breeds: str | None) -> None:
    """Warn on stderr when the first game's seats are not on equal terms (unequal dog cards)."""
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.games import make

    extra = {"breeds": [b.strip() for b in breeds.split(",")]} if breeds else {}
    try:
        g = make(game, players=players, rules=rules, **extra)
    except SheepfoldError:
        return  # the tournament's own checks say what is wrong
    unequal_seats_warning(g)
