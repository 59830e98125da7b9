"""``sheepfold solve shave-a-sheep`` and ``sheepfold analyse RECORD``: the exact solver's answers."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from sheepfold.cli import solve_plan
from sheepfold.cli.common import (
    GAME_HELP,
    MAX_GAMES,
    MAX_SEED,
    check_game,
    compile_report,
    console,
    err_console,
    fail,
    friendly_errors,
    resolve_rules,
    safe_markup,
    set_option,
    variant_option,
)
from sheepfold.core.compiling import step as compile_step
from sheepfold.core.registry import game_spec


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
    app.command("analyse")(analyse_command)
    app.command("analyze", hidden=True)(analyse_command)


#: a share of endless games below this is the solve's tolerance, not a finding
ENDLESS_SHOWN = 1e-6
#: with 3-4 players, whether games may never end is solved when the game is this small (positions)
ENDING_BUDGET = 2_000_000


def _pct(x: float) -> str:
    return f"{100 * x:.4f}%"


def _progress(quiet: bool) -> Any:
    """Progress bars on stderr: rich's on a terminal, else plain lines at every tenth
    (:class:`solve_plan.PlainProgress`: rich shows nothing there); nothing when ``quiet``."""
    if not quiet and not err_console.is_terminal:
        return solve_plan.PlainProgress()
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} positions"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=quiet,
    )


def _names(values: Sequence[str] | None) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


class _CachedSeats(Sequence[Any]):
    """Every seat's solution, read from the solver's cache when asked for and kept until
    another seat is: at 4 players one seat's values and tables take gigabytes, so only the
    seat in use is in memory."""

    def __init__(self, rules: Any, space: Any) -> None:
        self.rules, self.space = rules, space
        self._held: tuple[int, Any] | None = None

    def __len__(self) -> int:
        return int(self.space.n)

    def __getitem__(self, seat: Any) -> Any:
        from sheepfold.games.shave_a_sheep import solver

        if not isinstance(seat, int) or not 0 <= seat < len(self):
            raise IndexError(seat)
        if self._held is None or self._held[0] != seat:
            self._held = None  # let the seat held go before reading the next
            sol, _ = solver.cached(self.rules, self.space.n, seat=seat, space=self.space)
            self._held = (seat, sol)
        return self._held[1]


def _solutions(
    rules: Any, players: int, quiet: bool, use_cache: bool
) -> tuple[Sequence[Any], list[bool], float]:
    """The minimax solution (2 players) or every seat's guaranteed share, with a progress bar."""
    from sheepfold.games.shave_a_sheep import solver

    with compile_step("the exact solver's index", None if quiet else compile_report()):
        space = solver.Space(rules, players)
    t0 = time.perf_counter()
    with _progress(quiet) as prog:

        def bar(label: str) -> Any:
            task = prog.add_task(label, total=space.size)
            return lambda done, total: prog.update(task, completed=done, total=total)

        if players == 2:
            sol, hit = solver.cached(
                rules, 2, space=space, progress=bar("minimax"), use_cache=use_cache
            )
            return [sol], [hit], time.perf_counter() - t0
        if solver.symmetric(space):
            if not use_cache:
                sols = solver.guaranteed_shares_all(
                    space, players, progress=bar("guaranteed shares, all seats")
                )
                return sols, [False] * players, time.perf_counter() - t0
            _, hit = solver.cached(
                rules, players, seat=0, space=space, progress=bar("guaranteed shares, all seats")
            )
            return _CachedSeats(rules, space), [hit] * players, time.perf_counter() - t0
        sols, hits = [], []
        for seat in range(players):
            sol, hit = solver.cached(
                rules,
                players,
                seat=seat,
                space=space,
                progress=bar(f"guaranteed share, seat {seat}"),
                use_cache=use_cache,
            )
            sols.append(sol)
            hits.append(hit)
    return sols, hits, time.perf_counter() - t0


@friendly_errors
def solve_command(
    game: str = typer.Argument(..., help=GAME_HELP + " (only Shave a Sheep is solved)"),
    players: int = typer.Option(2, "--players", "-p", help="2, 3 or 4 seats"),
    rules: str = typer.Option(
        None, "--rules", "-r", help="a rule set name or file (default: the rulebook)"
    ),
    set_: list[str] = set_option(),
    variant: list[str] = variant_option(),
    against: list[str] = typer.Option(
        None,
        "--against",
        "-a",
        help="bots for the other seats (repeatable or comma separated; one name = every other "
        "seat): prints each seat's exact share playing perfect against them, and its best response",
    ),
    table: str = typer.Option(
        None,
        "--table",
        "-t",
        help="exact win shares of a table of bots, one per seat, comma separated (one name = every "
        "seat), e.g. --table greedy,greedy,greedy; alone (no perfect bot, no --against) only the "
        "table is computed, not the minimax or the guaranteed shares",
    ),
    games: int = typer.Option(
        0,
        "--games",
        "-n",
        min=0,
        max=MAX_GAMES,
        help="with --against: also simulate this many games per "
        "seat (fast compiled simulator) and print the share with its 95% CI",
    ),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="seed of the simulated games"),
    no_cache: bool = typer.Option(
        False, "--no-cache", help="solve again (do not read or write the disk cache)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the answers as JSON"),
) -> None:
    """Solve Shave a Sheep exactly: every seat's win chance from the start under optimal play.
    2 players: the minimax value (zero-sum in win share): each seat's win chance when both play
    perfectly. 3-4 players: each seat's guaranteed share, what it secures even if every other
    seat plays against it. With --table alone: only that table's exact win shares. Rules: a rule
    set (--rules, default the rulebook) with --set and --variant applied, as 'sheepfold rules
    new' takes them. Solutions are cached on disk ($SHEEPFOLD_HOME/cache/solver), keyed by what
    the rules do, so a second call is instant. A large solve says up front how many positions,
    how much memory and about how long, and shows its progress on stderr, on a terminal or not.
    The solver ignores max_turns (it plays the game to its end).

    Examples:
    sheepfold solve shave-a-sheep --players 2 --rules howling-wolf
    sheepfold solve shave-a-sheep -p 3 --set wool=12 --set max_wool=4 --variant cutting-costs
    sheepfold solve shave-a-sheep -p 3 --table greedy
    sheepfold solve shave-a-sheep -p 2 --against greedy --games 10000
    """
    check_game(game)
    if not game_spec(game).has_exact_solver:
        raise fail(
            "only Shave a Sheep is solved (Dolly Crush's deck is far too big for an exact solution)"
        )
    if not 2 <= players <= 4:
        raise fail(f"--players must be 2, 3 or 4 (not {players})")
    from sheepfold.games.shave_a_sheep import solver

    rs = resolve_rules(game, rules, set_, variant)
    space = solver.Space(rs, players)
    tab_names = _table_bots(table, players)
    opp = _other_bots(against, players)
    _check_bots(game, tab_names + opp)
    out = _answer(game, rs, space, tab_names, opp, (games, seed), not no_cache)
    if as_json:
        print(json.dumps(out))
    elif out["kind"] == "table":
        _print_table_only(out)
    else:
        _print_solve(out, rs)


def _answer(
    game: str,
    rs: Any,
    space: Any,
    tab_names: list[str],
    opp: list[str],
    sim: tuple[int, int],
    use_cache: bool,
) -> dict[str, Any]:
    """Everything ``solve`` computes, as its JSON answer: the plan first (said on stderr when
    it is large), then only what the options need (``sim``: --games and --seed)."""
    players = space.n
    needs = _needs_solutions(tab_names, opp)
    ending = needs and players > 2 and space.size <= ENDING_BUDGET  # as _start_values does
    plan = solve_plan.plan_solve(space, tab_names, opp, needs, use_cache, ending)
    quiet = not solve_plan.announce(plan, err_console.is_terminal)
    from sheepfold.games.shave_a_sheep import solver

    # the solves start at once, while a cold solver compiles behind
    with solver.at_once(players, compile_report()):
        if needs:
            sols, hits, secs = _solutions(rs, players, quiet, use_cache)
            out = _start_values(game, rs, space, sols, hits, secs)
        else:
            sols, out = [], _table_head(game, rs, space)
        t0 = time.perf_counter()
        if tab_names:
            ev = _evaluate(space, tab_names, sols, quiet)
            out["table"] = {
                "bots": tab_names,
                "win_share": list(ev.shares),
                "never_ends": ev.endless,
            }
        if not needs:
            out["seconds"] = round(time.perf_counter() - t0, 3)
        if opp:
            games, seed = sim
            rows = [
                _against_seat(space, sols, opp, seat, games, seed, quiet) for seat in range(players)
            ]
            out["against"] = {"bots": opp, "seats": rows}
    out["plan"] = plan.to_json()
    out["notes"] = []
    if rs.max_turns is not None:
        out["notes"].append(
            f"max_turns={rs.max_turns} is ignored: the solver plays every game to its end"
        )
    return out


def _needs_solutions(table: Sequence[str], against: Sequence[str]) -> bool:
    """Whether the command needs the minimax or the guaranteed shares: always but for a
    ``--table`` alone with no ``perfect`` seat (``perfect:BOTS`` is a best response, solved on
    its own)."""
    return not table or bool(against) or "perfect" in table


def _table_head(game: str, rs: Any, space: Any) -> dict[str, Any]:
    """The answer's head when only a table is evaluated (``kind`` "table": neither the minimax
    nor the guaranteed shares were computed)."""
    return {
        "game": game,
        "players": space.n,
        "rules": rs.options(),
        "rules_name": rs.name,
        "positions": space.size,
        "kind": "table",
    }


def _table_bots(table: str | None, players: int) -> list[str]:
    """``--table``'s bots, one per seat (one name: every seat); none without ``--table``."""
    names = _names([table]) if table else []
    if len(names) == 1:
        names = names * players
    if names and len(names) != players:
        raise fail(f"--table names {len(names)} bots for {players} seats")
    return names


def _other_bots(against: Sequence[str] | None, players: int) -> list[str]:
    """``--against``'s bots, one per other seat (one name: every other seat)."""
    opp = _names(against)
    if len(opp) == 1:
        opp = opp * (players - 1)
    if opp and len(opp) != players - 1:
        raise fail(f"--against names {len(opp)} bots for the {players - 1} other seats")
    return opp


def _check_bots(game: str, names: Sequence[str]) -> None:
    """Fail on the first name that is no bot of ``game``."""
    from sheepfold.bots import available_bots

    known = available_bots(game)
    for name in names:
        if name.partition(":")[0] not in known:
            raise fail(f"no bot named {name!r} for {game} (bots: {', '.join(sorted(known))})")


def _start_values(
    game: str, rs: Any, space: Any, sols: Sequence[Any], hits: list[bool], secs: float
) -> dict[str, Any]:
    """The answer's head: the rules, the solve's cost and every seat's value from the start
    (the minimax win shares with 2 players, the guaranteed shares with 3-4)."""
    players = space.n
    out: dict[str, Any] = {
        "game": game,
        "players": players,
        "rules": rs.options(),
        "rules_name": rs.name,
        "positions": space.size,
        "seconds": round(secs, 3),
        "cached": all(hits),
        "solve_seconds": round(
            max(s.stats.seconds for s in sols)
            if sols[0].stats.joint
            else sum(s.stats.seconds for s in sols),
            3,
        ),
    }
    from sheepfold.core.protocol import first_seat_of
    from sheepfold.games.shave_a_sheep import solver

    if players == 2:
        ev = solver.minimax_shares(sols[0])
        out["kind"] = "minimax"
        out["win_share"] = list(ev.shares)  # each seat's own, never 1 - the other's
        out["never_ends"] = ev.endless
        # the seat that moves first (seat 0, or the one the rules name) against the other
        first = first_seat_of(rs)
        out["first_player_advantage"] = (ev.shares[first] - ev.shares[1 - first]) / 2
    else:
        out["kind"] = "guaranteed"
        out["guaranteed_share"] = [s.start_value for s in sols]
        if space.size <= ENDING_BUDGET:  # the most games that never end, if everyone tries
            out["never_ends_at_most"] = 1 - solver.ending(space, players).least
        elif 2 in rs.player_counts():  # too big to check: what 2 players show is the hint
            out["never_ends_at_most_2_players"] = 1 - solver.ending(rs, 2).least
    return out


def _against_seat(
    space: Any,
    sols: Sequence[Any],
    opp: list[str],
    seat: int,
    games: int,
    seed: int,
    quiet: bool,
) -> dict[str, Any]:
    """``seat`` playing perfect against the bots ``opp`` in the other seats: every seat's exact
    share, ``seat``'s best response and (``games`` > 0) the simulated share with its 95% CI."""
    from sheepfold.games.shave_a_sheep import solver

    players = space.n
    others = list(opp)
    table_pols: list[Any] = others[:seat] + ["perfect"] + others[seat:]
    ev = _evaluate(space, table_pols, sols, quiet)
    br_pols: list[Any] = others[:seat] + [None] + others[seat:]
    with _progress(quiet) as prog:
        task = prog.add_task(f"best response, seat {seat}", total=space.size)

        def advance(done: int, total: int, task: Any = task) -> None:
            prog.update(task, completed=done, total=total)

        br = solver.best_response(
            space,
            players,
            seat,
            [_policy(p, space, i, sols) for i, p in enumerate(br_pols)],
            progress=advance,
        )
    row = {
        "seat": seat,
        "table": [str(p) for p in table_pols],
        "perfect_share": ev.shares[seat],
        "shares": list(ev.shares),
        "best_response_share": br.start_value,
    }
    if games > 0:
        sim = solver.simulate(
            space,
            players,
            [_policy(p, space, i, sols) for i, p in enumerate(table_pols)],
            games,
            seed=seed + seat,
        )
        lo, hi = sim.ci95(seat)
        row["simulated"] = {
            "games": games,
            "share": sim.shares[seat],
            "ci95": [lo, hi],
            "unfinished": sim.unfinished,
        }
    return row


def _policy(name: Any, space: Any, seat: int, sols: Sequence[Any]) -> Any:
    """'perfect' -> the solved table of this seat (minimax, or the guaranteed-share policy)."""
    if name == "perfect":
        return sols[0] if space.n == 2 else sols[seat]
    return name


def _evaluate(space: Any, names: Sequence[Any], sols: Sequence[Any], quiet: bool) -> Any:
    from sheepfold.games.shave_a_sheep import solver

    pols = [_policy(p, space, i, sols) for i, p in enumerate(names)]
    with _progress(quiet) as prog:
        task = prog.add_task("exact evaluation", total=space.size)
        return solver.evaluate(
            space, space.n, pols, progress=lambda d, t: prog.update(task, completed=d, total=t)
        )


def _print_solve(out: dict[str, Any], rs: Any) -> None:
    n = out["players"]
    name = safe_markup(out["rules_name"] or "rulebook")
    console.print(f"[bold]Shave a Sheep[/], {n} players, rules: {name} {json.dumps(out['rules'])}")
    t = Table(show_header=True, header_style="bold")
    t.add_column("seat")
    if n == 2:
        t.add_column("win chance (both perfect)", justify="right")
        for s, v in enumerate(out["win_share"]):
            t.add_row(str(s), _pct(v))
    else:
        t.add_column("guaranteed share (all others against it)", justify="right")
        for s, v in enumerate(out["guaranteed_share"]):
            t.add_row(str(s), _pct(v))
    console.print(t)
    if out.get("never_ends_at_most", 0) > ENDLESS_SHOWN:
        _print_endless(
            out["never_ends_at_most"], "up to {} of games never end, if every seat keeps them going"
        )
    if out.get("never_ends_at_most_2_players", 0) > ENDLESS_SHOWN:
        _print_endless(
            out["never_ends_at_most_2_players"],
            "a game may never end: with 2 players up to {} of games do, if both keep them going "
            f"(too many positions to check with {n})",
        )
    if n == 2:
        _print_endless(out["never_ends"], "{} of games never end, both seats playing perfectly")
        console.print(
            f"first-player advantage: {_points(out['first_player_advantage'])} points"
            " (half the difference of the two seats' shares)"
        )
    if "table" in out:
        tb = Table(
            title=f"exact win shares: {', '.join(out['table']['bots'])}", header_style="bold"
        )
        tb.add_column("seat")
        tb.add_column("bot")
        tb.add_column("win share", justify="right")
        for s, v in enumerate(out["table"]["win_share"]):
            tb.add_row(str(s), out["table"]["bots"][s], _pct(v))
        console.print(tb)
        _print_endless(out["table"]["never_ends"], "{} of games never end with this table")
    if "against" in out:
        ta = Table(title=f"against {', '.join(out['against']['bots'])}", header_style="bold")
        ta.add_column("seat")
        ta.add_column(
            "perfect" + (" (guaranteed-share policy)" if n > 2 else " (minimax)") + ": share",
            justify="right",
        )
        ta.add_column("best response: share", justify="right")
        sim_rows = [r for r in out["against"]["seats"] if "simulated" in r]
        if sim_rows:
            ta.add_column(
                f"perfect, {sim_rows[0]['simulated']['games']:,} simulated games (95% CI)",
                justify="right",
            )
        for row in out["against"]["seats"]:
            cells = [str(row["seat"]), _pct(row["perfect_share"]), _pct(row["best_response_share"])]
            if "simulated" in row:
                sm = row["simulated"]
                cells.append(
                    f"{100 * sm['share']:.2f}% ({100 * sm['ci95'][0]:.2f}–{100 * sm['ci95'][1]:.2f}%)"
                )
            ta.add_row(*cells)
        console.print(ta)
    how = "from the cache" if out["cached"] else "solved"
    console.print(
        f"{out['positions']:,} positions; {how} in {out['seconds']:.2f} s"
        + (
            ""
            if not out["cached"]
            else f" (first solved in {out['solve_seconds']:.2f} s, numba compilation included)"
        )
    )
    for note in out["notes"]:
        console.print(f"[yellow]note:[/] {note}")


def _print_table_only(out: dict[str, Any]) -> None:
    """``--table`` alone: the table's exact shares, and what was not computed."""
    n = out["players"]
    name = safe_markup(out["rules_name"] or "rulebook")
    console.print(f"[bold]Shave a Sheep[/], {n} players, rules: {name} {json.dumps(out['rules'])}")
    bots = out["table"]["bots"]
    tb = Table(title=f"exact win shares: {', '.join(bots)}", header_style="bold")
    tb.add_column("seat")
    tb.add_column("bot")
    tb.add_column("win share", justify="right")
    for s, v in enumerate(out["table"]["win_share"]):
        tb.add_row(str(s), bots[s], _pct(v))
    console.print(tb)
    _print_endless(out["table"]["never_ends"], "with this table of bots")
    skipped = "the minimax" if n == 2 else "the guaranteed shares"
    console.print(
        f"{out['positions']:,} positions; only the table was evaluated, in {out['seconds']:.2f} s"
        f" (for {skipped}, run without --table or add --against)"
    )
    for note in out["notes"]:
        console.print(f"[yellow]note:[/] {note}")


def _points(x: float) -> str:
    """Percentage points, signed, with no "-0.0000"."""
    text = f"{100 * x:+.4f}"
    return "0.0000" if float(text) == 0 else text


def _print_endless(share: float, how: str) -> None:
    """Say it in words when some games never end (nobody wins them)."""
    if share > ENDLESS_SHOWN:
        console.print(
            f"[yellow]under these rules {how.format(_pct(share))}[/] (a game that never ends is "
            "nobody's win: the win shares leave it out)"
        )


# -- analyse --------------------------------------------------------------------------------
@friendly_errors
def analyse_command(
    record: Path = typer.Argument(
        ..., help="a Shave a Sheep record (sheepfold-record/1 JSON; '-' reads standard input)"
    ),
    as_json: bool = typer.Option(
        False, "--json", help="print every decision and the summary as JSON"
    ),
    top: int = typer.Option(
        5, "--top", min=0, max=10_000, help="how many of the biggest mistakes to list"
    ),
    all_moves: bool = typer.Option(
        False, "--all", help="list every decision, not only the costly ones"
    ),
) -> None:
    """For every decision of a Shave a Sheep game: the move played, the best move, and the win
    share it cost (2 players: against perfect play; 3-4: the mover's guaranteed share)."""
    import sys

    from sheepfold.core.records import RecordError, new_game_state, parse_record, replay

    try:
        # read once, within the records' limits (core/files.py)
        rec = parse_record(sys.stdin.buffer if str(record) == "-" else record)
        if not game_spec(rec.game).has_exact_solver:
            raise fail("analyse reads Shave a Sheep records (Dolly Crush is not solved)")
        rp = replay(rec)
    except RecordError as e:
        if as_json:
            print(json.dumps(e.to_json()))
            raise typer.Exit(2) from None
        where = f"move {e.move}: " if e.move is not None else ""
        raise fail(f"{where}{escape(e.message)}") from None
    if rp.error is not None:
        if as_json:
            print(json.dumps(rp.error.to_json()))
            raise typer.Exit(2)
        raise fail(f"move {rp.error.move}: {escape(rp.error.message)}")
    start = new_game_state(rec)
    from sheepfold.games.shave_a_sheep import solver

    space = solver.Space(start.game.rules, start.game.num_players)
    plan = solve_plan.plan_solve(space, [], [], solutions=True, use_cache=True)
    quiet = not solve_plan.announce(plan, err_console.is_terminal)
    report = analyse_state(rp.state, start, quiet=quiet)
    report["players"] = [p.name for p in rec.players]
    if as_json:
        print(json.dumps(report))
        return
    _print_analysis(report, top, all_moves)


def analyse_state(final: Any, start: Any, quiet: bool = True) -> dict[str, Any]:
    """Every decision of the game that led to ``final`` (replayed from ``start``), valued."""
    from sheepfold.core.protocol import CHANCE
    from sheepfold.games.shave_a_sheep.game import PHASE_NAMES, ROLL

    game = final.game
    n = game.num_players
    sols, _, _ = _solutions(game.rules, n, quiet, True)

    def value_for(seat: int, vals: dict[int, float]) -> dict[int, float]:
        if n == 2 and seat == 1:
            return {a: 1.0 - v for a, v in vals.items()}
        return vals

    decisions = []
    st = start.clone()
    move = -1
    roll = None
    for who, a in final.history:
        if who == CHANCE:
            if st.phase == ROLL:
                move += 1
                roll = game.faces[a]
            st.apply_unchecked(a)
            continue
        legal = st.legal_actions()
        if len(legal) > 1:
            sol = sols[0] if n == 2 else sols[who]
            vals = value_for(who, sol.action_values(st))
            best_v = max(vals.values())
            best = next(x for x in sorted(vals) if vals[x] >= best_v - 1e-12)
            decisions.append(
                {
                    "move": move,
                    "seat": who,
                    "roll": roll,
                    "phase": PHASE_NAMES[st.phase],
                    "position": {
                        "middle": st.middle,
                        "sheep": list(st.sheep),
                        "piles": list(st.piles),
                        "wolf": st.wolf,
                    },
                    "played": st.action_to_string(a),
                    "best": st.action_to_string(best),
                    "value_played": vals[a],
                    "value_best": best_v,
                    "cost": max(0.0, best_v - vals[a]),
                    "options": {st.action_to_string(x): v for x, v in sorted(vals.items())},
                }
            )
        st.apply_unchecked(a)
    per_seat = []
    for s in range(n):
        mine = [d for d in decisions if d["seat"] == s]
        per_seat.append(
            {
                "seat": s,
                "decisions": len(mine),
                "mistakes": sum(1 for d in mine if d["cost"] > 1e-9),
                "total_cost": sum(d["cost"] for d in mine),
            }
        )
    biggest = sorted((d for d in decisions if d["cost"] > 1e-9), key=lambda d: -d["cost"])
    return {
        "game": "shave-a-sheep",
        "kind": "minimax" if n == 2 else "guaranteed",
        "rules": game.rules.options(),
        "start_value": [s.start_value for s in sols],
        "finished": final.is_terminal(),
        "winners": list(final.winners()),
        "decisions": decisions,
        "summary": {
            "per_seat": per_seat,
            "biggest_mistakes": [
                {k: d[k] for k in ("move", "seat", "roll", "played", "best", "cost")}
                for d in biggest[:10]
            ],
        },
    }


def _print_analysis(report: dict[str, Any], top: int, all_moves: bool) -> None:
    names = [safe_markup(n) for n in report["players"]]  # a record's names: never raw
    what = (
        "win share against perfect play"
        if report["kind"] == "minimax"
        else "the mover's guaranteed share (all others against it)"
    )
    console.print(f"[bold]Shave a Sheep analysis[/]: values are {what}")
    t = Table(header_style="bold")
    for col in ("move", "player", "roll", "played", "best", "value", "cost"):
        t.add_column(col, justify="right" if col in ("move", "value", "cost") else "left")
    shown = 0
    for d in report["decisions"]:
        if not all_moves and d["cost"] <= 1e-9:
            continue
        shown += 1
        cost = d["cost"]
        style = "red" if cost >= 0.05 else ("yellow" if cost >= 0.01 else "")
        t.add_row(
            str(d["move"]),
            names[d["seat"]],
            d["roll"] or "",
            d["played"],
            "" if d["played"] == d["best"] else d["best"],
            _pct(d["value_played"]),
            f"[{style}]{100 * cost:.2f}[/]" if style else f"{100 * cost:.2f}",
        )
    if shown:
        console.print(t)
    else:
        console.print("no decision cost anything: every move was a best move")
    s = Table(title="summary (cost in win-share points)", header_style="bold")
    for col in ("player", "decisions", "mistakes", "total cost"):
        s.add_column(col, justify="left" if col == "player" else "right")
    for row in report["summary"]["per_seat"]:
        s.add_row(
            names[row["seat"]],
            str(row["decisions"]),
            str(row["mistakes"]),
            f"{100 * row['total_cost']:.2f}",
        )
    console.print(s)
    big = report["summary"]["biggest_mistakes"][:top]
    if big:
        console.print("[bold]biggest mistakes[/]:")
        for d in big:
            console.print(
                f"  move {d['move']}: {names[d['seat']]} rolled {d['roll']}, played {d['played']}, "
                f"best was {d['best']}: cost {100 * d['cost']:.2f} points"
            )
    console.print(
        f"{len(report['decisions'])} decisions with a choice; winners: "
        f"{', '.join(names[w] for w in report['winners']) or '-'}"
    )
