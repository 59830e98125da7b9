"""``sheepfold lab``: simulate many games, measure them, compare house rules."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer

from sheepfold.cli.common import (
    GAME_HELP,
    MAX_GAMES,
    MAX_SEED,
    MAX_WORKERS,
    check_game,
    compile_report,
    console,
    err_console,
    fail,
    friendly_errors,
    warm_bots,
)
from sheepfold.games.shave_a_sheep.rules import MAX_TURNS

app = typer.Typer(
    help="Simulate thousands of games, measure what makes a game good, compare house rules.",
    no_args_is_help=True,
)

BOT_HELP = (
    "bot per seat, repeat the option (one --bot: every seat); fast policies: random, "
    "greedy, perfect (Shave a Sheep); any registered bot with --engine engine"
)


# -- the options every command shares, declared once -------------------------------------------
def games_option(default: int, help: str, least: int = 2, flag: str = "--games") -> Any:
    names = (flag, "-n") if flag == "--games" else (flag,)
    return typer.Option(default, *names, min=least, max=MAX_GAMES, help=help)


def bot_option() -> Any:
    return typer.Option(None, "--bot", "-b", help=BOT_HELP)


def players_option() -> Any:
    return typer.Option(2, "--players", "-p", min=2, max=4, help="players per game")


def seed_option(what: str = "game i is seeded SEED + i") -> Any:
    return typer.Option(0, "--seed", min=0, max=MAX_SEED, help=what)


def workers_option() -> Any:
    return typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        max=MAX_WORKERS,
        help="local worker processes (default: every core)",
    )


def ray_option() -> Any:
    return typer.Option(
        None, "--ray", help="run on Ray: 'local' starts a local instance, else a cluster address"
    )


def engine_option() -> Any:
    return typer.Option(
        "auto", "--engine", help="auto (fast simulator when it can), fast, or engine"
    )


def max_turns_option() -> Any:
    return typer.Option(
        1000,
        "--max-turns",
        min=1,
        max=MAX_TURNS,
        help="Shave a Sheep: stop (truncated) after this many turns unless the rules say",
    )


def report_option() -> Any:
    return typer.Option(None, "--report", help="write a self-contained HTML report")


def plots_option() -> Any:
    return typer.Option(None, "--plots", help="also write the PNG plots into this folder")


def json_option(what: str = "the result") -> Any:
    return typer.Option(False, "--json", help=f"print {what} as JSON")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="lab")


def _command_line() -> str:
    return "sheepfold " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _progress() -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
    )


@dataclass(frozen=True)
class JobOptions:
    """The options of ``lab run``, ``compare`` and ``variants`` that make a job of any rule set."""

    bots: list[str] | None
    games: int
    players: int
    seed: int
    rotate: bool = False
    breeds: str | None = None
    engine: str = "auto"
    max_turns: int = 1000
    exact: bool = False


def _job(game: str, rules: str | None, opts: JobOptions) -> Any:
    check_game(game)
    # none asked for: the game's default (fair) set, unless the breeds are given
    model, name = named_rules(game, rules, seats_chosen=opts.breeds not in (None, "mix"))
    _warn_unequal(game, model, opts)
    return _model_job(game, model, name, opts)


def named_rules(
    game: str, rules: str | None, sets: Sequence[str] = (), seats_chosen: bool = False
) -> tuple[Any, str]:
    """The rules model ``--rules`` (and ``--set``) give, as every lab command reads them
    (:func:`sheepfold.cli.common.default_rules`: none asked for, the game's default rule set,
    unless the breeds are given), and the name the lab shows for it: the rule set's own, else
    its file's stem, else ``rulebook``."""
    from sheepfold.cli.common import default_rules

    given, model = default_rules(game, rules, sets, seats_chosen=seats_chosen)
    name = getattr(model, "name", None) or (Path(given).stem if given else None) or "rulebook"
    return model, name


def _warn_unequal(game: str, model: Any, opts: JobOptions) -> None:
    """Warn on stderr when the job's seats are not on equal terms (unequal dog cards)."""
    from sheepfold.cli.common import unequal_seats_warning
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.games import make

    extra: dict[str, Any] = {}
    if opts.breeds and opts.breeds != "mix":
        extra["breeds"] = [b.strip() for b in opts.breeds.split(",")]
    try:
        g = make(game, players=opts.players, rules=model, **extra)
    except SheepfoldError:
        return  # the job's own checks say what is wrong
    unequal_seats_warning(g)


def _model_job(game: str, model: Any, name: str, opts: JobOptions) -> Any:
    from sheepfold.lab.runner import make_job

    br: Any = None
    if opts.breeds:
        br = "mix" if opts.breeds == "mix" else [b.strip() for b in opts.breeds.split(",")]
    return make_job(
        game,
        model,
        ruleset=name,
        players=opts.players,
        bots=opts.bots or ["random"],
        games=opts.games,
        seed=opts.seed,
        rotate=opts.rotate,
        breeds=br,
        engine=opts.engine,
        max_turns=opts.max_turns,
        exact=opts.exact,
    )


def _play(
    job: Any,
    out: Path | None,
    workers: int | None,
    ray: str | None,
    resume: bool,
    overwrite: bool,
    quiet: bool,
    label: str = "playing",
    chunk_size: int | None = None,
) -> Any:
    from sheepfold.lab.runner import run

    keep = out is not None  # rows in memory only: the standings are not needed
    if quiet:
        return run(
            job,
            out,
            workers=workers,
            ray=ray,
            resume=resume,
            overwrite=overwrite,
            standings=keep,
            chunk_size=chunk_size,
        )
    from sheepfold.lab.runner import resolve_engine

    if (job.engine if job.engine != "auto" else resolve_engine(job)) == "engine":
        # the bots' compiled code, its own step: forked workers inherit it, and the bar does
        # not sit at 0 while the first games wait on compilation
        warm_bots(list(job.bots), job.make_game(0))
    # the games' bar starts with the first game: what comes before it (compiling the
    # simulator, solving for the perfect policy) is a step of its own, not a counter at 0
    prog = _progress()
    task: list[Any] = []

    def update(done: int, total: int) -> None:
        if not task:
            prog.start()
            task.append(prog.add_task(f"{label} {job.ruleset} ({job.engine})", total=total))
        prog.update(task[0], completed=done, total=total)

    try:
        return run(
            job,
            out,
            workers=workers,
            ray=ray,
            resume=resume,
            overwrite=overwrite,
            progress=update,
            standings=keep,
            chunk_size=chunk_size,
            compiling=compile_report(),
        )
    except KeyboardInterrupt:
        if out is not None:
            err_console.print(f"stopped: the finished games are in {out}; add --resume to go on")
        raise
    finally:
        prog.stop()


def print_table(table: Any) -> None:
    """Print a wide table whole: on a terminal at its width, and piped into a file or another
    program at the table's own width (not cut to 80 columns, a few characters a cell)."""
    if console.is_terminal:
        console.print(table)
        return
    from rich.console import Console
    from rich.measure import Measurement

    wide = Measurement.get(console, console.options.update_width(10_000), table)
    Console(width=max(console.width, wide.maximum)).print(table)


def _metrics_table(values: list[Any], title: str) -> Any:
    from rich.table import Table

    from sheepfold.lab.metrics import fmt, fmt_ci

    t = Table(title=title, show_lines=False, caption="pp = percentage points")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("games", justify="right")
    for v in values:
        t.add_row(v.label, fmt(v.value, v.kind), fmt_ci(v.lo, v.hi, v.kind), str(v.n))
    return t


def _print_limit_note(table: Any) -> None:
    """Say how the games of ``table`` ended, and in words when some hit the turn limit."""
    from sheepfold.lab.endings import shares_text
    from sheepfold.lab.metrics import ended_by, game_arrays, truncation_note

    d = game_arrays(table)
    ends = shares_text(ended_by(d))
    if ends:
        console.print(ends + ".", highlight=False)
    note = truncation_note(d)
    if note:
        console.print(f"[bold]{note}[/bold]")


# -- lab run -----------------------------------------------------------------------------------
@app.command("run")
@friendly_errors
def run_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    rules: str | None = typer.Option(
        None,
        "--rules",
        "-r",
        help="rule set name or file, or 'rulebook' (default: the game's default rule set; "
        "Dolly Crush: dolly-graded, every seat the same dog cards)",
    ),
    bot: list[str] | None = bot_option(),
    games: int = games_option(1000, "how many games", least=1),
    players: int = players_option(),
    seed: int = seed_option("game i is seeded SEED + i"),
    workers: int | None = workers_option(),
    ray: str | None = ray_option(),
    out: Path | None = typer.Option(None, "--out", "-o", help="Parquet file, one row per game"),
    resume: bool = typer.Option(
        False, "--resume", help="finish the run in --out (plays only the missing games)"
    ),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace an existing --out file"),
    rotate: bool = typer.Option(
        False, "--rotate", help="rotate the bots through the seats game by game"
    ),
    breeds: str | None = typer.Option(
        None,
        "--breeds",
        help="Dolly Crush: breeds per seat (comma list) or 'mix' (every assignment in turn)",
    ),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    exact: bool = typer.Option(
        False,
        "--exact",
        help="Shave a Sheep: outcome uncertainty of every turn from the solver's exact win "
        "shares, and the exact skill gap (perfect against greedy) of the rules",
    ),
    report: Path | None = report_option(),
    plots: Path | None = plots_option(),
    chunk_size: int | None = typer.Option(
        None,
        "--chunk-size",
        min=1,
        max=MAX_GAMES,
        help="games per task (default: a few tasks per worker); finished tasks are saved at once",
    ),
    as_json: bool = json_option("the metrics"),
) -> None:
    """Play N games in parallel and print their quality metrics (95% CIs).

    Example: sheepfold lab run shave-a-sheep --rules cutting-costs --games 100000 --out cc.parquet
    """
    from sheepfold.lab.metrics import evaluate, game_arrays

    if (resume or overwrite) and out is None:
        raise fail("--resume and --overwrite are about the --out file: give --out FILE.parquet")
    opts = JobOptions(bot, games, players, seed, rotate, breeds, engine, max_turns, exact)
    job = _job(game, rules, opts)
    table = _play(job, out, workers, ray, resume, overwrite, as_json, chunk_size=chunk_size)
    values = evaluate(game_arrays(table))
    gap = None
    if job.exact:
        from sheepfold.lab.perfect import exact_skill_gap

        gap = exact_skill_gap(job.make_game(0))
    _print_run(job, table, values, out, as_json, gap)
    _write_run_files(job, table, values, report, plots, as_json)


def _print_run(
    job: Any,
    table: Any,
    values: list[Any],
    out: Path | None,
    as_json: bool,
    gap: dict[str, Any] | None = None,
) -> None:
    """A run's metrics: JSON, or a table and where its rows are (``gap``: the exact skill gap of
    its rules, :func:`sheepfold.lab.perfect.exact_skill_gap`)."""
    from sheepfold.lab.metrics import ended_by, fmt, game_arrays, truncation_note

    if as_json:
        print(
            json.dumps(
                {
                    "job": json.loads(job.to_json()),
                    "games": table.num_rows,
                    "out": str(out) if out else None,
                    "turn_limit_note": truncation_note(game_arrays(table)),
                    "ended_by": ended_by(game_arrays(table)),
                    "metrics": [v.to_json() for v in values],
                    "skill_gap_exact": gap,
                }
            )
        )
    else:
        console.print(_metrics_table(values, f"{job.game}, {job.ruleset}: {table.num_rows} games"))
        _print_limit_note(table)
        if gap is not None:
            console.print(
                f"skill gap (exact, these rules): {gap['strong']} wins "
                f"{fmt(gap['strong_share'], 'pct')} against {gap['base']} bots, {gap['base']} "
                f"{fmt(gap['base_share'], 'pct')} (seat-averaged): {fmt(gap['gap'], 'pp')}"
            )
        if out:
            console.print(f"rows: {out}")


def _write_run_files(
    job: Any, table: Any, values: list[Any], report: Path | None, plots: Path | None, quiet: bool
) -> None:
    """A run's HTML ``report`` and PNG ``plots``, each when asked for (``quiet``: say nothing)."""
    if report:
        from sheepfold.lab.report import run_report, write

        write(report, run_report(job, table, values, _command_line()))
        if not quiet:
            console.print(f"report: {report}")
    if plots:
        from sheepfold.lab.metrics import game_arrays as ga
        from sheepfold.lab.report import write_plots

        for png in write_plots(plots, f"{job.game}-{job.ruleset}", [(job.ruleset, ga(table))]):
            if not quiet:
                console.print(f"plot: {png}")


# -- lab show -----------------------------------------------------------------------------------
@app.command("show")
@friendly_errors
def show_command(
    file: Path = typer.Argument(..., help="a Parquet file written by `lab run --out`"),
    report: Path | None = report_option(),
    as_json: bool = json_option("the metrics"),
) -> None:
    """The metrics (and optionally the HTML report) of a finished run."""
    from sheepfold.lab.metrics import ended_by, evaluate, game_arrays
    from sheepfold.lab.runner import read_table

    job, table = read_table(file)
    values = evaluate(game_arrays(table))
    if as_json:
        print(
            json.dumps(
                {
                    "job": json.loads(job.to_json()),
                    "games": table.num_rows,
                    "ended_by": ended_by(game_arrays(table)),
                    "metrics": [v.to_json() for v in values],
                }
            )
        )
    else:
        console.print(
            _metrics_table(values, f"{file}: {job.game}, {job.ruleset}, {table.num_rows} games")
        )
        _print_limit_note(table)
    if report:
        from sheepfold.lab.report import run_report, write

        write(report, run_report(job, table, values, _command_line()))


# -- lab record ---------------------------------------------------------------------------------
@app.command("record")
@friendly_errors
def record_command(
    file: Path = typer.Argument(..., help="a Parquet file written by `lab run --out`"),
    game_index: int = typer.Argument(
        ..., min=0, max=MAX_GAMES, help="the row's game_index (game i is seeded SEED + i)"
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="write the record here (default: print it)"
    ),
) -> None:
    """Turn one row back into a game record (played again from its seed): `sheepfold replay` it."""
    from sheepfold.lab.runner import read_table, record_of

    job, table = read_table(file)
    if not 0 <= game_index < max(job.games, 1):
        raise fail(f"game_index {game_index} is not in this run (0..{job.games - 1})")
    rec = record_of(job, game_index)
    text = json.dumps(rec, indent=1)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        console.print(f"record: {out}")
    else:
        print(text)


# -- lab compare -------------------------------------------------------------------------------
@app.command("compare")
@friendly_errors
def compare_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    a: str = typer.Argument(..., help="rule set A: name, file, 'rulebook', or a Parquet run"),
    b: str = typer.Argument(..., help="rule set B: name, file, 'rulebook', or a Parquet run"),
    bot: list[str] | None = bot_option(),
    games: int = games_option(20000, "games per rule set (the same seeds on both)"),
    players: int = players_option(),
    seed: int = seed_option("game i of both rule sets is seeded SEED + i"),
    workers: int | None = workers_option(),
    ray: str | None = ray_option(),
    rotate: bool = typer.Option(False, "--rotate", help="rotate the bots through the seats"),
    breeds: str | None = typer.Option(
        None, "--breeds", help="Dolly Crush: breeds per seat or 'mix'"
    ),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    exact: bool = typer.Option(
        False,
        "--exact",
        help="Shave a Sheep: outcome uncertainty of every turn from the solver's exact win shares",
    ),
    report: Path | None = report_option(),
    plots: Path | None = plots_option(),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="keep both runs in this folder (a.parquet, b.parquet) as they play; with --resume, "
        "finish them",
    ),
    resume: bool = typer.Option(
        False, "--resume", help="finish the runs in --out (plays only the missing games)"
    ),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace the runs in --out"),
    independent: bool = typer.Option(
        False,
        "--independent",
        help="play B on fresh seeds (SEED + N ..), not A's: an unpaired comparison, whose "
        "intervals carry both runs' luck (an A-versus-A check of the lab's statistics)",
    ),
    as_json: bool = json_option("the comparison"),
) -> None:
    """Compare two rule sets on the same dice and decks: every metric's change with its CI.

    Example: sheepfold lab compare shave-a-sheep rulebook cutting-costs --games 50000
    """
    from sheepfold.lab.compare import compare_tables, rules_differences, verdict
    from sheepfold.lab.metrics import ended_by, game_arrays

    opts = JobOptions(bot, games, players, seed, rotate, breeds, engine, max_turns, exact)
    check_game(game)
    job_a, ta = _side(game, a, opts)  # both checked before anything is played
    fresh = replace(opts, seed=opts.seed + opts.games) if independent else opts
    job_b, tb = _side(game, b, fresh)
    _check_paired(job_a, job_b, independent)
    out_a, out_b = _compare_outputs(out, resume, overwrite)
    if ta is None:
        ta = _play(job_a, out_a, workers, ray, resume, overwrite, as_json, "A:")
    if tb is None:
        tb = _play(job_b, out_b, workers, ray, resume, overwrite, as_json, "B:")
    name_a, name_b = job_a.ruleset, job_b.ruleset
    if name_a == name_b:
        name_a, name_b = f"A ({name_a})", f"B ({name_b})"
    diffs = compare_tables(ta, tb, paired=not independent)
    limit = job_a.rules.get("max_turns")
    text = verdict(diffs, name_a, name_b, limit if limit == job_b.rules.get("max_turns") else None)
    changes = rules_differences(game, job_a.rules, job_b.rules)
    if as_json:
        print(
            json.dumps(
                {
                    "a": json.loads(job_a.to_json()),
                    "b": json.loads(job_b.to_json()),
                    "games": min(ta.num_rows, tb.num_rows),
                    "paired": not independent,
                    "differences": changes,
                    "verdict": text,
                    "ended_by": {
                        "a": ended_by(game_arrays(ta)),
                        "b": ended_by(game_arrays(tb)),
                    },
                    "metrics": [x.to_json() for x in diffs],
                }
            )
        )
    else:
        title = (
            f"{name_a} (A) vs {name_b} (B), {ta.num_rows:,} and {tb.num_rows:,} games on "
            f"independent seeds (A: {_seeds(job_a)}, B: {_seeds(job_b)})"
            if independent
            else f"{name_a} (A) vs {name_b} (B), {min(ta.num_rows, tb.num_rows)} paired games"
        )
        print_table(_compare_table(diffs, title))
        console.print(_differences_text(changes, name_a, name_b), highlight=False)
        console.print(text)
    _write_compare_files(
        (job_a, ta), (job_b, tb), diffs, (changes, text), report, plots, as_json, not independent
    )


def _compare_outputs(
    out: Path | None, resume: bool, overwrite: bool
) -> tuple[Path | None, Path | None]:
    """Where ``compare --out DIR`` keeps A's and B's runs; refused at once (before A plays)
    when a run is there and neither --resume nor --overwrite says what to do with it."""
    if out is None:
        if resume or overwrite:
            raise fail("--resume and --overwrite are about the --out folder: give --out DIR")
        return None, None
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file: give a folder for the two runs")
    paths = out / "a.parquet", out / "b.parquet"
    found = [p for p in paths if p.exists() or p.with_name(p.name + ".parts").exists()]
    if found and not resume and not overwrite:
        raise fail(f"{found[0]} exists: add --resume to finish the runs, or --overwrite")
    out.mkdir(parents=True, exist_ok=True)
    return paths


def _differences_text(changes: list[str], name_a: str, name_b: str) -> str:
    if not changes:
        return f"{name_a} and {name_b} have the same rules (they differ in players, bots or seeds)."
    return f"What differs from {name_a} to {name_b}:\n" + "\n".join(f"  {c}" for c in changes)


def _write_compare_files(
    a: tuple[Any, Any],
    b: tuple[Any, Any],
    diffs: list[Any],
    words: tuple[list[str], str],
    report: Path | None,
    plots: Path | None,
    quiet: bool,
    paired: bool = True,
) -> None:
    """A comparison's HTML ``report`` and PNG ``plots`` (``a``, ``b``: job and table; ``words``:
    what differs in the rules and the verdict), when asked."""
    (job_a, ta), (job_b, tb) = a, b
    if report:
        from sheepfold.lab.report import compare_report, write

        changes, text = words
        page = compare_report(
            job_a, job_b, ta, tb, diffs, text, _command_line(), changes, paired=paired
        )
        write(report, page)
        if not quiet:
            console.print(f"report: {report}")
    if plots:
        from sheepfold.lab.metrics import game_arrays
        from sheepfold.lab.report import write_plots

        runs = [(f"A: {job_a.ruleset}", game_arrays(ta)), (f"B: {job_b.ruleset}", game_arrays(tb))]
        for png in write_plots(plots, f"{job_a.game}-{job_a.ruleset}-vs-{job_b.ruleset}", runs):
            if not quiet:
                console.print(f"plot: {png}")


def _side(game: str, spec: str, opts: JobOptions) -> tuple[Any, Any]:
    """(job, table) of a Parquet run, or (job, None) for a rule set still to play."""
    from sheepfold.lab.runner import read_table

    if spec.endswith(".parquet"):
        return read_table(spec)
    return _job(game, spec, opts), None


def _seeds(job: Any) -> str:
    return f"seeds {job.seed:,}..{job.seed + job.games - 1:,}"


def _check_paired(job_a: Any, job_b: Any, independent: bool = False) -> None:
    """Fail unless A and B are games of one game and size, on the same seeds and engine (with
    ``independent``: on seeds that do not overlap)."""
    if job_a.game != job_b.game:
        raise fail(f"A is {job_a.game} and B is {job_b.game}: compare two rule sets of one game")
    if job_a.players != job_b.players:
        raise fail(
            f"A has {job_a.players} players and B {job_b.players}: compare games of one size"
        )
    if independent:
        if job_a.seed < job_b.seed + job_b.games and job_b.seed < job_a.seed + job_a.games:
            raise fail(
                f"--independent needs A and B on different seeds, and they share some (A: "
                f"{_seeds(job_a)}; B: {_seeds(job_b)})"
            )
        return
    if job_a.seed != job_b.seed or job_a.engine != job_b.engine:
        raise fail(
            f"A and B were not played on the same seeds and engine (A: seed {job_a.seed}, "
            f"{job_a.engine}; B: seed {job_b.seed}, {job_b.engine}): a paired comparison "
            "needs both (give the same --seed, or --engine)"
        )


def _compare_table(diffs: list[Any], title: str) -> Any:
    """Every metric: A and B each with its 95% CI, B − A with its paired CI (shares: in
    percentage points), the relative change and p (bold: significant)."""
    from rich.table import Table

    from sheepfold.lab.compare import cells, p_text, relative_text

    t = Table(title=title, caption="[95% CI] under each value; pp = percentage points")
    for col in ("metric", "A", "B", "B − A", "relative", "p"):
        t.add_column(col, justify="left" if col == "metric" else "right")
    for x in diffs:
        a, b, d = cells(x, "\n")
        t.add_row(
            x.label,
            a,
            b,
            d,
            relative_text(x.rel),
            p_text(x.p),
            style="bold" if x.significant else None,
        )
    return t


# -- lab variants (the finding) -------------------------------------------------------------------
@app.command("variants")
@friendly_errors
def variants_command(
    game: str = typer.Argument("shave-a-sheep", help=GAME_HELP),
    rules: list[str] | None = typer.Option(
        None, "--rules", "-r", help="rule sets to show (default: every built-in one of the game)"
    ),
    bot: list[str] | None = bot_option(),
    games: int = games_option(20000, "games per rule set"),
    players: int = players_option(),
    seed: int = seed_option(),
    workers: int | None = workers_option(),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    exact: bool = typer.Option(
        False,
        "--exact",
        help="Shave a Sheep: add the solver's exact seat-0 share, the outcome uncertainty and "
        "the exact skill gap (perfect against greedy)",
    ),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        help="write a PNG: length, first-player advantage (and uncertainty) per rule set",
    ),
    as_json: bool = json_option(),
) -> None:
    """Several rule sets side by side on the same seeds: length, first-player advantage, ties.

    Example: sheepfold lab variants shave-a-sheep --games 200000 --exact --plot variants.png
    """
    check_game(game)
    opts = JobOptions(bot, games, players, seed, engine=engine, max_turns=max_turns, exact=exact)
    jobs = _variant_jobs(game, _variant_names(game, rules), opts)  # all checked before playing
    for job, skip in jobs:
        if skip and not as_json:
            err_console.print(
                f"--exact: no exact values for {job.ruleset} ({skip}); played without them"
            )
    rows: list[dict[str, Any]] = []
    curves: list[tuple[str, Any]] = []
    from sheepfold.lab.compare import rules_differences

    for job, skip in jobs:
        row, d = _variant_row(job, workers, as_json)
        row["exact_skipped"] = skip
        row["differences"] = rules_differences(game, jobs[0][0].rules, job.rules)
        if job.exact:
            curves.append((job.ruleset, d))
        rows.append(row)
    if as_json:
        print(json.dumps(rows))
    else:
        print_table(_variants_table(rows, exact))
    if plot and rows:
        from sheepfold.lab.report import variants_plot, write_png

        write_png(plot, variants_plot(rows, curves))
        if not as_json:
            console.print(f"plot: {plot}")


@app.command("sweep")
@friendly_errors
def sweep_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    rules: str | None = typer.Option(
        None,
        "--rules",
        "-r",
        help="the rule set the sweep starts from (default: the game's default rule set; "
        "Dolly Crush: dolly-graded)",
    ),
    sets: list[str] = typer.Option(
        [],
        "--set",
        metavar="KEY=VALUES",
        help="the option to sweep, KEY=LO..HI[:STEP] or KEY=A,B,C (exactly one); other --set "
        "KEY=VALUE options hold for every value",
    ),
    bot: list[str] | None = bot_option(),
    games: int = games_option(2000, "games per value"),
    players: int = players_option(),
    seed: int = seed_option("game i of every value is seeded SEED + i"),
    workers: int | None = workers_option(),
    ray: str | None = ray_option(),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    target_length: float | None = typer.Option(
        None,
        "--target-length",
        min=0,
        max=MAX_TURNS,
        help="also name the value whose mean length is nearest this",
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="write a PNG: every metric against the swept value, with 95% CIs"
    ),
    as_json: bool = json_option(),
) -> None:
    """Step one rule option through values, every value on the same seeds: every metric
    against the value, and the values where the game is fairest, most dramatic or of a target
    length.

    Example: sheepfold lab sweep shave-a-sheep --set wool=10..60:5 --bot greedy --plot wool.png
    """
    from sheepfold.lab.compare import share_reasons
    from sheepfold.lab.metrics import ended_by, evaluate, game_arrays
    from sheepfold.lab.sweep import highlights, split_sets

    check_game(game)
    (key, values), fixed = split_sets(sets)
    opts = JobOptions(bot, games, players, seed, engine=engine, max_turns=max_turns)
    jobs = _sweep_jobs(game, rules, key, values, fixed, opts)  # all checked before playing
    runs = [
        game_arrays(_play(job, None, workers, ray, False, False, as_json, "sweep")) for job in jobs
    ]
    share_reasons(*runs)  # every value gets the share of every ending any value has
    rows: list[dict[str, Any]] = [
        {
            "value": value,
            "ended_by": ended_by(d),
            "metrics": {v.key: v.to_json() for v in evaluate(d)},
        }
        for value, d in zip(values, runs, strict=True)
    ]
    found = highlights(rows, target_length)
    if as_json:
        print(json.dumps({"option": key, "rows": rows, "highlights": [h.text() for h in found]}))
    else:
        print_table(_sweep_table(key, rows, jobs[0]))
        for h in found:
            console.print(h.text())
    if plot:
        from sheepfold.lab.report import sweep_plot, write_png

        base = jobs[0].ruleset.rsplit(", ", 1)[0]  # the base the values start from, by name
        write_png(plot, sweep_plot(key, rows, f"{game}, {base}", target_length))
        if not as_json:
            console.print(f"plot: {plot}")


def _sweep_jobs(
    game: str,
    rules: str | None,
    key: str,
    values: list[Any],
    fixed: list[str],
    opts: JobOptions,
) -> list[Any]:
    """One job per value, every one checked (a value the rules refuse stops the sweep before a
    game is played, naming it)."""
    from sheepfold.core.protocol import RulesError
    from sheepfold.lab.sweep import value_text
    from sheepfold.rulesets import with_options

    base, base_name = named_rules(game, rules, fixed, opts.breeds not in (None, "mix"))
    _warn_unequal(game, base, opts)
    jobs = []
    for value in values:
        setting = f"{key}={value_text(value) if isinstance(value, bool) else json.dumps(value)}"
        try:
            model = with_options(game, base, [setting], name=f"{base_name} {setting}")
        except RulesError as e:
            raise fail(f"sweep value {key}={value_text(value)}: {e}") from None
        jobs.append(_model_job(game, model, f"{base_name}, {setting}", opts))
    return jobs


def _sweep_table(key: str, rows: list[dict[str, Any]], job: Any) -> Any:
    """One row per value: length, balance, first-player advantage, ties, lead changes (95% CIs)."""
    from rich.table import Table

    from sheepfold.lab.endings import shares_list
    from sheepfold.lab.metrics import fmt, fmt_ci
    from sheepfold.lab.sweep import value_text

    shown = ["length_mean", "balance", "first_player_advantage", "tie_rate", "lead_changes"]
    if any(r["metrics"]["truncated"]["value"] for r in rows):
        shown.append("truncated")
    t = Table(
        title=f"{job.game}: {key} swept, {job.players} players, bots {', '.join(job.bots)}, "
        f"{job.games:,} games per value (the same seeds)"
    )
    t.add_column(key, justify="right")
    for k in shown:
        t.add_column(f"{rows[0]['metrics'][k]['label']} [95% CI]", justify="right")
    mixed = len({e for r in rows for e in r.get("ended_by") or {}}) > 1
    if mixed:
        t.add_column("how games ended")
    for r in rows:
        m = r["metrics"]
        t.add_row(
            value_text(r["value"]),
            *(
                f"{fmt(m[k]['value'], m[k]['kind'])} {fmt_ci(m[k]['lo'], m[k]['hi'], m[k]['kind'])}"
                for k in shown
            ),
            *([shares_list(r["ended_by"])] if mixed else []),
        )
    return t


def _variant_jobs(game: str, names: list[str], opts: JobOptions) -> list[tuple[Any, str | None]]:
    """Every rule set's job, made (so checked) before a single game is played, with the reason
    the exact solver cannot take it (None: it can, or --exact was not asked). With --exact such a
    rule set is played without the exact values; the command refuses at once when the solver
    can take none of them, or when the perfect bot would need it for one."""

    perfect_bots = any(b.partition(":")[0] == "perfect" for b in opts.bots or ())
    reasons = []
    for name in names:
        why = _solver_reason(game, name, opts) if opts.exact or perfect_bots else None
        if why and perfect_bots and opts.engine != "engine":
            raise fail(
                f"{name}: the perfect bot needs the exact solver, which cannot take it: {why}"
            )
        reasons.append(why if opts.exact else None)
    if opts.exact and names and all(reasons):
        raise fail(
            "--exact: the solver can take none of these rule sets: "
            + "; ".join(f"{nm} ({why})" for nm, why in zip(names, reasons, strict=True))
        )
    return [
        (_job(game, nm, replace(opts, exact=opts.exact and why is None)), why)
        for nm, why in zip(names, reasons, strict=True)
    ]


def _solver_reason(game: str, name: str, opts: JobOptions) -> str | None:
    """Why the lab's exact solver cannot take rule set ``name`` with ``opts.players`` players
    (None: it can, or the game has no solver: making the job says so)."""

    from sheepfold.core.registry import game_spec
    from sheepfold.lab.perfect import unsupported

    if not game_spec(game).has_exact_solver:
        return None
    probe = _job(game, name, replace(opts, bots=None, exact=False, engine="auto"))
    why = unsupported(probe.make_game(0))
    return f"with {opts.players} players, {why}" if why else None


def _variant_names(game: str, rules: list[str] | None) -> list[str]:
    """The rule sets asked for, else every built-in one of ``game`` (its rulebook first)."""
    from sheepfold.rulesets import builtin_rulesets

    if rules:
        return list(rules)
    found = [r.name for r in builtin_rulesets() if r.game == game]
    return sorted(found, key=lambda nm: (not nm.endswith("rulebook"), nm))


def _variant_row(job: Any, workers: int | None, quiet: bool) -> tuple[dict[str, Any], Any]:
    """(its row of the comparison, the game arrays) of ``job``, played now."""
    from sheepfold.lab.metrics import bots_text, ended_by, evaluate, game_arrays

    table = _play(job, None, workers, None, False, False, quiet)
    d = game_arrays(table)
    vals = {v.key: v for v in evaluate(d)}
    row: dict[str, Any] = {"name": job.ruleset, "players": job.players}
    for key, v in (
        ("length", vals["length_mean"]),
        ("fpa", vals["first_player_advantage"]),
        ("seat0", vals["win_seat0"]),
    ):
        row.update({key: v.value, f"{key}_lo": v.lo, f"{key}_hi": v.hi})
    row["ties"] = vals["tie_rate"].value
    row["lead_changes"] = vals["lead_changes"].value
    row["forced"] = vals["forced_share"].value
    row["choices"] = vals["choices_mean"].value
    row["truncated"] = vals["truncated"].value
    row["ended_by"] = ended_by(d)
    row["max_turns"] = job.rules.get("max_turns")
    row["title"] = (
        f"{job.game}: {job.players} players, bots {bots_text(d)}, "
        f"{job.games:,} games per rule set (the same seeds)"
    )
    row["exact_seat0"] = row["uncertainty"] = row["skill_gap"] = None
    if job.exact:
        from sheepfold.lab.perfect import exact_skill_gap, exact_start_shares

        row["exact_seat0"] = exact_start_shares(job.make_game(0), list(job.bots))[0]
        row["uncertainty"] = vals["uncertainty"].value
        row["skill_gap"] = exact_skill_gap(job.make_game(0))["gap"]
    return row, d


def _variants_table(rows: list[dict[str, Any]], exact: bool) -> Any:
    """The rule sets' rows side by side (``exact``: with the solver's columns), and in words
    under it: the games the turn limit cut, the rule sets the solver could not take."""
    from rich.table import Table

    from sheepfold.lab.metrics import fmt, fmt_ci

    n = rows[0]["players"] if rows else 2
    cut = any(r["truncated"] for r in rows)
    title = f"{rows[0]['title']}; fair share {fmt(1 / n, 'pct')}" if rows else ""
    t = Table(title=title, caption=_variants_caption(rows), caption_justify="left")
    t.add_column("rule set", no_wrap=True)
    heads = ["mean length [95% CI]", "seat 0 wins [95% CI]"]
    heads += ["exact", "uncertainty", "skill gap"] if exact else []
    heads += ["ties", "lead chg.", "forced", "choices"] + (["hit turn limit"] if cut else [])
    for h in heads:
        t.add_column(h, justify="right", overflow="fold")
    for r in rows:
        cells = [
            r["name"],
            f"{fmt(r['length'], 'num')} {fmt_ci(r['length_lo'], r['length_hi'], 'num')}",
            f"{fmt(r['seat0'], 'pct', 2)} [{100 * r['seat0_lo']:.2f}, {100 * r['seat0_hi']:.2f}]",
        ]
        if exact:
            cells += [
                fmt(r.get("exact_seat0"), "pct", 2),
                fmt(r.get("uncertainty"), "pct"),
                fmt(r.get("skill_gap"), "pp"),
            ]
        cells += [
            fmt(r["ties"], "pct"),
            fmt(r["lead_changes"], "num"),
            fmt(r.get("forced"), "pct"),
            fmt(r.get("choices"), "num"),
        ]
        if cut:
            cells.append(fmt(r["truncated"], "pct"))
        t.add_row(*cells)
    return t


def _variants_caption(rows: list[dict[str, Any]]) -> str | None:
    from sheepfold.lab.endings import shares_list
    from sheepfold.lab.metrics import fmt

    lines = [
        f"{r['name']}: games ended because {shares_list(r['ended_by'])}."
        for r in rows
        if r.get("ended_by")
    ]
    for r in rows[1:]:
        if r.get("differences"):
            lines.append(f"{r['name']} vs {rows[0]['name']}: " + "; ".join(r["differences"]) + ".")
    for r in rows:
        if r["truncated"]:
            limit = f"the {r['max_turns']:,}-turn limit" if r.get("max_turns") else "the limit"
            lines.append(
                f"{r['name']}: {fmt(r['truncated'], 'pct')} of games hit {limit}: under these "
                "rules a game may never end; its columns are of the games that finished."
            )
        if r.get("exact_skipped"):
            lines.append(
                f"{r['name']}: no exact values: the solver cannot take it: {r['exact_skipped']}."
            )
    lines.append(
        "forced: share of player decisions with one legal action; choices: legal actions per "
        "decision (fast Shave a Sheep runs count a sample of games, replayed in the engine)."
    )
    if any(r.get("skill_gap") is not None for r in rows):
        lines.append(
            "skill gap (exact): the perfect player's win share against greedy bots minus "
            "greedy's own, both from the solver and averaged over the seats."
        )
    return "\n".join(lines) or None


# -- lab search ------------------------------------------------------------------------------------
@app.command("search")
@friendly_errors
def search_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    vary: list[str] = typer.Option(
        [],
        "--vary",
        metavar="OPTION=RANGE",
        help="an option to vary: OPTION=LO..HI (whole numbers, or reals with a point), "
        "OPTION=LO..HI:STEP or OPTION=A,B,C (repeat for several)",
    ),
    goal: list[str] = typer.Option(
        [],
        "--goal",
        metavar="GOAL[:WEIGHT]",
        help="what to aim for: length=N (turns), fair (no seat advantage), ties (fewer), drama "
        "(winners from behind), lead-changes (more), forced (fewer forced decisions); a weight "
        "after a colon (fair:2); repeat for several",
    ),
    rules: str | None = typer.Option(
        None,
        "--rules",
        "-r",
        help="the rule set the search starts from (default: the game's default rule set)",
    ),
    trials: int = typer.Option(40, "--trials", "-t", min=1, max=10_000, help="rule sets to try"),
    games: int = games_option(500, "games per trial (the same seeds for every trial)"),
    recheck: int = typer.Option(
        3, "--recheck", min=1, max=20, help="the best few, played again on fresh seeds"
    ),
    recheck_games: int = games_option(
        2000, "games per rule set played again", flag="--recheck-games"
    ),
    bot: list[str] | None = bot_option(),
    players: int = players_option(),
    seed: int = seed_option("trial games are seeded SEED + i"),
    workers: int | None = workers_option(),
    ray: str | None = ray_option(),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="write the best rule set here (TOML, ready for play); the trials are kept next to "
        "it (FILE.search.db), so that the same command goes on after Ctrl-C",
    ),
    name: str | None = typer.Option(
        None, "--name", help="the best rule set's name (default: --out's)"
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="start again: replace --out and its kept trials"
    ),
    plot: Path | None = typer.Option(None, "--plot", help="write a PNG of the search"),
    exact: bool = typer.Option(
        False,
        "--exact",
        help="Shave a Sheep: the seats' win shares (first-player advantage, balance: the fair "
        "goal) from the exact solver for every trial it can solve, marked exact",
    ),
    as_json: bool = json_option("the result"),
) -> None:
    """Search for the rule set that best meets your goals: several options varied at once
    (Optuna), every trial on the same seeds, the best few played again on fresh seeds.

    Example: sheepfold lab search shave-a-sheep --vary wool=10..60 --vary max_wool=3..8
    --goal length=40 --goal fair --trials 60 --bot greedy --out forty.toml
    """
    from sheepfold.lab.search import (
        SearchSpec,
        check_spec,
        parse_goal,
        parse_vary,
        storage_path,
    )

    check_game(game)
    dims = tuple(parse_vary(v) for v in vary)
    goals = tuple(parse_goal(g) for g in goal)
    model, base_name = named_rules(game, rules)
    opts = JobOptions(bot, games, players, seed, engine=engine, max_turns=max_turns)
    probe = _model_job(game, model, base_name, opts)  # bots, players, engine
    spec = SearchSpec(
        game,
        json.loads(json.dumps(model.options())),
        base_name,
        dims,
        goals,
        probe.bots,
        players,
        games,
        seed,
        recheck,
        recheck_games,
        engine,
        max_turns,
        exact,
    )
    check_spec(spec)
    db = storage_path(out) if out is not None else None
    if out is not None and db is not None:
        if overwrite:
            out.unlink(missing_ok=True)
            db.unlink(missing_ok=True)
        elif out.exists() and not db.exists():
            raise fail(f"{out} exists: add --overwrite to replace it, or give another --out")
    result = _run_search(spec, trials, db, workers, ray, as_json)
    written = None
    if out is not None and result.candidates:
        from sheepfold.lab.search import write_rule_file

        written = write_rule_file(result, out, name or out.stem)
    if as_json:
        data = result.to_json()
        data["out"] = str(written) if written else None
        print(json.dumps(data))
    else:
        _print_search(result, written)
    if plot and result.trials:
        from sheepfold.lab.report import write_png
        from sheepfold.lab.search import search_plot

        write_png(plot, search_plot(result))
        if not as_json:
            console.print(f"plot: {plot}")


def _run_search(
    spec: Any, trials: int, db: Path | None, workers: int | None, ray: str | None, quiet: bool
) -> Any:
    """The search, with a progress bar over its trials (none with ``quiet``); on Ctrl-C, where
    the finished trials are."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from sheepfold.lab.search import search

    prog = Progress(
        TextColumn("[bold]searching"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("trials, best loss {task.fields[best]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err_console,
        disable=quiet,
    )
    with prog:
        task = prog.add_task("search", total=trials, best="-")

        def update(done: int, total: int, best: float | None) -> None:
            shown = "-" if best is None else f"{best:.3f}"
            prog.update(task, completed=done, total=total, best=shown)

        try:
            return search(
                spec,
                trials,
                db,
                workers=workers,
                ray=ray,
                progress=update,
                compiling=None if quiet else compile_report(),
            )
        except KeyboardInterrupt:
            where = f"they are kept in {db}: " if db else "(give --out FILE to keep them); "
            err_console.print(
                f"stopped: the finished trials {where}run the same command again to go on"
                if db
                else f"stopped: the finished trials are lost {where}"
            )
            raise


def _print_search(result: Any, written: Path | None) -> None:
    """The best rule sets (on fresh seeds) with each metric's 95% interval, then the winner."""
    from rich.table import Table

    from sheepfold.lab.endings import shares_list
    from sheepfold.lab.metrics import fmt, fmt_ci
    from sheepfold.lab.search import describe_goals, params_text

    spec = result.spec
    t = Table(
        title=f"{spec.game}, from {spec.base_name}: the best of {len(result.trials)} trials, "
        f"each played again on {spec.recheck_games:,} fresh games",
        caption=f"goals: {describe_goals(spec.goals)}. loss: 0 = every goal met; [95% CI]"
        + ("; exact: the solver's value, no interval." if spec.exact else "."),
        caption_justify="left",
    )
    t.add_column("#", justify="right")
    for d in spec.dims:
        t.add_column(d.key, justify="right")
    t.add_column("loss", justify="right")
    keys = [
        k for k in spec.metrics() if result.candidates and k in result.candidates[0].recheck.metrics
    ]
    for k in keys:
        t.add_column(result.candidates[0].recheck.metrics[k]["label"], justify="right")
    for rank, c in enumerate(result.candidates, 1):
        m = c.recheck.metrics
        t.add_row(
            str(rank),
            *(
                str(c.params[d.key]).lower()
                if isinstance(c.params[d.key], bool)
                else str(c.params[d.key])
                for d in spec.dims
            ),
            f"{c.recheck.loss:.3f}",
            *(
                f"{fmt(m[k]['value'], m[k]['kind'])} exact"
                if k in c.recheck.exact
                else f"{fmt(m[k]['value'], m[k]['kind'])} {fmt_ci(m[k]['lo'], m[k]['hi'], m[k]['kind'])}"
                for k in keys
            ),
        )
    print_table(t)
    skipped = sorted({c.recheck.exact_skipped for c in result.candidates} - {None})
    for why in skipped:
        console.print(f"--exact: no exact values for some rule sets ({why}).", highlight=False)
    if result.invalid:
        console.print(f"{result.invalid} trial(s) tried values the rules refuse together.")
    if not result.candidates:
        console.print("No trial finished: no rule set to show.")
        return
    best = result.candidates[0]
    console.print(f"best: {params_text(best.params)}", highlight=False)
    if best.recheck.ended_by:
        console.print(f"games ended because {shares_list(best.recheck.ended_by)}.", highlight=False)
    if written:
        console.print(
            f"rule file: {written} (play it: sheepfold play {spec.game} --rules {written})",
            highlight=False,
        )


# -- lab depth ---------------------------------------------------------------------------------
@app.command("depth")
@friendly_errors
def depth_command(
    game: str = typer.Argument(..., help=GAME_HELP),
    rules: str | None = typer.Option(
        None,
        "--rules",
        "-r",
        help="rule set name or file, or 'rulebook' (default: the game's default rule set)",
    ),
    level: list[str] = typer.Option(
        [],
        "--level",
        "-l",
        help="the ladder's bot levels, weakest first, repeat the option (default: random, greedy, "
        "and perfect where the game has an exact solver; Dolly Crush: e.g. --level random "
        "--level easy --level medium --level hard)",
    ),
    games: int = games_option(2000, "games per match-up"),
    seed: int = seed_option("game i of every match-up is seeded SEED + i"),
    workers: int | None = workers_option(),
    ray: str | None = ray_option(),
    engine: str = engine_option(),
    max_turns: int = max_turns_option(),
    king_games: int = typer.Option(
        200,
        "--kingmaking-games",
        min=0,
        max=MAX_GAMES,
        help="games of 3-4 players for the kingmaking rate, through the rules engine, on the "
        "ladder's --workers or --ray (0: none)",
    ),
    king_players: int = typer.Option(
        3, "--kingmaking-players", min=3, max=4, help="players of those games"
    ),
    king_bot: str = typer.Option("greedy", "--kingmaking-bot", help="the bot of every seat there"),
    as_json: bool = json_option("the report"),
) -> None:
    """How much the game rewards skill: the skill ladder (each level against the level below
    and against random, win shares with 95% CIs), how often the stronger level loses, the share
    of the outcome variance luck leaves, and (3-4 players) how often a player who cannot win
    decides who does. The definitions: docs/lab.md, "Depth, luck and kingmaking".

    Example: sheepfold lab depth shave-a-sheep --games 5000 --kingmaking-games 300
    """
    from sheepfold.core.registry import game_spec
    from sheepfold.lab.depth import kingmaking, ladder
    from sheepfold.lab.runner import make_job

    check_game(game)
    levels = level or ["random", "greedy"] + (
        ["perfect"] if game_spec(game).has_exact_solver else []
    )
    model, name = named_rules(game, rules)
    king = None
    if king_games:  # checked before the ladder plays
        king = make_job(
            game,
            model,
            ruleset=name,
            players=king_players,
            bots=[king_bot],
            games=king_games,
            seed=seed,
            engine="engine",
            max_turns=max_turns,
        )

    def said(text: str) -> None:
        if not as_json:
            err_console.print(f"[dim]playing {text}[/]", highlight=False)

    result = ladder(
        game,
        model,
        name,
        levels,
        games=games,
        seed=seed,
        engine=engine,
        max_turns=max_turns,
        workers=workers,
        ray=ray,
        progress=said,
    )
    if king is not None:
        said(f"{king_games} games of {king_players} players for kingmaking")
    km = kingmaking(king, workers=workers, ray=ray) if king is not None else None
    if as_json:
        print(json.dumps({**result.to_json(), "kingmaking": km.to_json() if km else None}))
        return
    _print_depth(result, km)


def _print_depth(result: Any, km: Any) -> None:
    from rich.table import Table

    from sheepfold.lab.metrics import fmt, fmt_ci

    def share(s: Any) -> str:
        return f"{fmt(s.value, 'pct')} {fmt_ci(s.lo, s.hi, 'pct')}"

    t = Table(
        title=f"{result.game}, {result.ruleset}: the skill ladder (two players, seats swapped "
        "game by game)",
        caption="win share: the stronger level's (a tie counts half); upsets: games it lost "
        "outright. [95% CI]",
        caption_justify="left",
    )
    for col in ("level", "against", "win share", "upsets", "games"):
        t.add_column(col, justify="left" if col in ("level", "against") else "right")
    for s in result.steps:
        against = s.weak if s.kind == "below" else f"{s.weak} (baseline)"
        t.add_row(s.strong, against, share(s.win_share), share(s.upsets), f"{s.win_share.games:,}")
    print_table(t)
    console.print(
        f"luck: {share(result.luck)} of the outcome variance is left once who plays (and in "
        "which seat) is known: the dice or the deck, and the bots' own coin flips.",
        highlight=False,
    )
    if km is not None:
        console.print(
            f"kingmaking ({km.players} players, {km.bots[0]} bots): in {share(km.rate)} of "
            f"{km.games:,} games a player who could no longer win decided who did (another "
            f"move of theirs gave the game another winner); a player could no longer win, "
            f"whatever came next, at a turn of their own in {share(km.out_rate)}.",
            highlight=False,
        )
