"""``sheepfold rules``: list, show, check and create named rule sets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from sheepfold.cli.common import (
    GAME_HELP,
    check_game,
    console,
    fail,
    friendly_errors,
    set_option,
    variant_option,
)

app = typer.Typer(
    help="Named rule sets: the presets and your own house rules.", no_args_is_help=True
)


@app.command("list")
@friendly_errors
def list_rules(
    game: str = typer.Option(None, "--game", help=f"only this game ({GAME_HELP})"),
) -> None:
    """List the rule sets: built-in presets and yours (in $SHEEPFOLD_HOME/rules)."""
    from sheepfold.rulesets import all_rulesets, user_dir

    if game:
        check_game(game)
    table = Table(title="rule sets")
    table.add_column("name")
    table.add_column("game")
    table.add_column("source")
    table.add_column("description")
    for rs in all_rulesets(game):
        table.add_row(rs.name, rs.game, rs.source, rs.rules.description or "")
    console.print(table)
    console.print(f"Your own rule sets go in {user_dir()} (see 'sheepfold rules new --help').")


@app.command("show")
@friendly_errors
def show_rules(
    name: str = typer.Argument(..., help="a rule set's name or a .toml/.json file"),
) -> None:
    """Print a rule set as a rule-set file (TOML): the rule set it starts from ('from = ...'),
    then every option, defaults included, each with what it means; an option left unset (a custom die, max_turns...) is a commented line with
    the value it amounts to. Save it, edit it and check it with 'sheepfold rules check'.

    Example: sheepfold rules show howling-wolf > my-wolf.toml
    """
    from sheepfold.rulesets import find_ruleset

    print(find_ruleset(name).to_toml(), end="")


@app.command("check")
@friendly_errors
def check_rules(
    spec: str = typer.Argument(..., help="a rule-set file (.toml or .json), or a rule set's name"),
) -> None:
    """Check a rule set: says what is wrong, or that it is fine. A file's options go on the
    rule set its 'from' names (default: the game's default rules; 'rulebook': the printed
    rules); a bad 'from' is named with its line. Also says whether a game under it can end:
    solved exactly where the solver can (a rule set under which no game can end is refused,
    as the web refuses it), and measured by playing games (how long they last). Says what a
    game costs (the most chance steps of a deal and of a turn, the perfect bot's positions, a
    bot's search per decision), refuses what is over the command line's limits and notes what
    is over a web table's (bots/costs.py)."""
    from sheepfold.bots.costs import cost_lines, cost_problems
    from sheepfold.games.costs import rule_cost
    from sheepfold.games.endings import check_ending

    rs, where = _ruleset_to_check(spec)
    cost = rule_cost(rs.game, rs.rules)  # the web's check too, with its own limits
    over = cost_problems(rs.game, rs.rules, "cli", cost=cost)
    if over:
        raise fail(f"{where}: " + "; ".join(words for _, words in over))
    found = check_ending(rs.game, rs.rules)  # the web's check too (games/endings.py)
    if found.refusal is not None:
        raise fail(f"{where}: {found.refusal}")
    solved = ", ".join(str(n) for n in found.exact)
    ends = f" (whether games end: checked exactly with {solved} players)" if solved else ""
    console.print(f"{where}: a valid {rs.game} rule set named {rs.name!r}{ends}")
    for line in cost_lines(cost):
        console.print(f"cost: {line}", highlight=False)
    web = cost_problems(rs.game, rs.rules, "web", cost=cost)
    bots = [b for b, _ in cost.search] + (["perfect"] if cost.positions is not None else [])
    seats = [p for p in cost_problems(rs.game, rs.rules, "web", bots, cost=cost) if p not in web]
    notes = list(found.notes) + [f"a web table refuses it: {words}" for _, words in web]
    notes += [f"a web table refuses this bot: {words}" for _, words in seats]
    if web:  # games that cost this much are not played here either: said, not measured
        notes.append("how games end is not measured by playing them: they cost too much")
    elif not found.bounded:
        notes += _measured_endings(rs)
    for note in notes:
        console.print(f"[yellow]note:[/] {note}", highlight=False)


def _ruleset_to_check(spec: str) -> tuple[Any, Path]:
    """The rule set a file or a name names, and its file (a built-in's: its name). A user rule
    set is read from its file, so that a broken one says what is wrong with it."""
    from sheepfold.rulesets import find_ruleset, read_ruleset_file, user_dir

    path = Path(spec).expanduser()
    if not path.exists() and path.suffix not in (".toml", ".json") and "/" not in spec:
        for suffix in (".toml", ".json"):
            if (user_dir() / f"{spec}{suffix}").exists():
                path = user_dir() / f"{spec}{suffix}"
                break
        else:
            return find_ruleset(spec), Path(spec)
    return read_ruleset_file(path), path


#: the simulation of ``rules check``: games of greedy players (who take what they can: random
#: ones hardly make lines) through the engine, a few at a time, each stopped only after
#: :data:`SIM_TURNS` turns (the longest games the rules allow, wool 1000, last about 4,000), and
#: no more once :data:`SIM_BUDGET` turns are played (a rule set whose games never end costs one
#: batch of games, not all of them)
SIM_GAMES = 40
SIM_BATCH = 8
SIM_TURNS = 20_000
SIM_BUDGET = 200_000


def _measured_endings(rs: Any) -> list[str]:
    """How games under the rules end when played (greedy players, the fewest seats the rules
    allow): how long they last on average, when some did not end within :data:`SIM_TURNS`
    turns, and when most end by a reason the rules do not mean (the deck runs out, the
    clean-up gives up)."""
    import numpy as np

    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.records import TURN_LIMIT
    from sheepfold.lab.endings import shares, unintended_note
    from sheepfold.lab.metrics import game_arrays
    from sheepfold.lab.runner import make_job, run

    players = min(rs.rules.player_counts()) if hasattr(rs.rules, "player_counts") else 2
    lengths: list[int] = []
    ended: list[str | None] = []
    for batch in range(SIM_GAMES // SIM_BATCH):
        try:
            job = make_job(
                rs.game,
                rs.rules,
                ruleset=rs.name,
                players=players,
                bots=["greedy"],
                games=SIM_BATCH,
                seed=batch,
                max_turns=SIM_TURNS,
            )
        except SheepfoldError:  # no game to simulate (the checks above say what they can)
            return []
        d = game_arrays(run(job, workers=1, standings=False))
        lengths += d["length"].tolist()
        ended += d["ended_by"].tolist() if "ended_by" in d else [None] * len(d["length"])
        if sum(lengths) >= SIM_BUDGET:
            break
    games = len(lengths)
    who = f"{games} games of greedy players, {players} players"
    stopped = [r == TURN_LIMIT for r in ended]
    done = [n for n, s in zip(lengths, stopped, strict=True) if not s]
    notes = []
    if not any(stopped):
        notes.append(
            f"games end: they last {np.mean(done):,.0f} turns on average "
            f"(measured over {who}; the longest {int(max(done)):,})"
        )
    else:
        notes.append(
            f"{sum(stopped)} of {games} simulated games ({who}) had not ended after "
            f"{SIM_TURNS:,} turns: under these rules a game may never end"
        )
    rest = [r for r in ended if r != TURN_LIMIT]
    note = unintended_note(shares(np.array(rest, dtype=object)), games) if rest else None
    return notes + ([note] if note else [])


@app.command("new")
@friendly_errors
def new_rules(
    name: str = typer.Argument(..., help="the new rule set's name"),
    game: str = typer.Option(..., "--game", help=GAME_HELP),
    base: str = typer.Option(
        None,
        "--from",
        help="start from this rule set (default: the game's default rules, as play and the lab "
        "use: dolly-graded for Dolly Crush, the rulebook for Shave a Sheep; 'rulebook': the "
        "printed rules)",
    ),
    set_: list[str] = set_option(),
    variant: list[str] = variant_option(),
    description: str = typer.Option(None, "--description", help="what your rules change"),
    output: Path = typer.Option(
        None, "--output", "-o", help="write here instead of your rules folder"
    ),
    force: bool = typer.Option(False, "--force", help="replace a rule set of that name"),
) -> None:
    """Create a rule set from another (--from; default: the game's default rules, the same a
    rule file without 'from' starts from) with options changed: any option, and what follows
    from it (graded dog cards stay graded for another dogs_per_player). Every option is checked
    before anything is written; the file says which rule set it starts from ('from = ...').
    'sheepfold solve shave-a-sheep' takes the same --set and --variant without saving anything.

    Example: sheepfold rules new long --game shave-a-sheep --set wool=40 --variant cutting-costs

    Example: sheepfold rules new five --game dolly-crush --from dolly-graded --set dogs_per_player=5
    """
    from sheepfold.rulesets import (
        RULEBOOK,
        RuleSet,
        default_base,
        find_ruleset,
        save_ruleset,
        with_options,
    )

    check_game(game)
    base = base or default_base(game)
    start = None if base == RULEBOOK else find_ruleset(base, game)
    fixed: dict[str, Any] = {"name": name}
    if description is not None:
        fixed["description"] = description
    elif not any(s.partition("=")[0].strip() == "description" for s in set_):
        fixed["description"] = None  # the base's description says what the base changes
    rules = with_options(game, start and start.rules, set_, variant, **fixed)
    origin = RULEBOOK if start is None else start.rules.name or RULEBOOK
    path = save_ruleset(RuleSet(game, rules, "--set", origin), output, force)
    console.print(f"saved {game} rule set {name!r} to {path}")


def _register_gallery() -> None:
    """``rules publish``, ``rules gallery`` and ``rules get`` (cli/gallery.py)."""
    from sheepfold.cli.gallery import register

    register(app)


_register_gallery()
