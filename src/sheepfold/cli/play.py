"""``sheepfold play [GAME]``: play at the terminal, people at this keyboard and bots.

Input is read line by line from standard input (a keyboard or a pipe); the end of input counts
as ``quit``. Every typed move goes through the engine: an illegal or unreadable one gets the
engine's reason and a new prompt. With ``--save FILE`` the record is written when the game ends
and also when the players quit, so nothing is lost.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from sheepfold.cli.common import console, fail, friendly_errors, set_option, variant_option
from sheepfold.cli.play_session import Session
from sheepfold.cli.play_setup import PlayOptions, SeatSpec, check_save, new_game, parse_seat
from sheepfold.cli.prompts import Quit
from sheepfold.core.registry import game_spec

__all__ = ["Session", "SeatSpec", "play_command", "register"]


# -- the command ------------------------------------------------------------------------
@friendly_errors
def play_command(
    game: str = typer.Argument(None, help="dolly-crush or shave-a-sheep (asked when left out)"),
    seat: list[str] = typer.Option(
        [],
        "--seat",
        metavar="NAME",
        help="one per seat, in seat order: a name = a person at this keyboard; bot:greedy, "
        "bot:random (or any bot's name) = a bot",
    ),
    players: int = typer.Option(
        None,
        "--players",
        min=2,
        max=4,
        metavar="N",
        help="number of players (without --seat: you are asked who sits where)",
    ),
    seed: int = typer.Option(
        None, "--seed", metavar="N", help="seed of the deal / dice (default: a fresh one, shown)"
    ),
    rules: str = typer.Option(
        None, "--rules", metavar="NAME|FILE", help="a rule set's name or a .toml/.json file"
    ),
    sets: list[str] = set_option(),
    variants: list[str] = variant_option(),
    save: Path = typer.Option(
        None,
        "--save",
        metavar="FILE",
        help="write the game's record here at the end (or when you quit)",
    ),
    breed: list[str] = typer.Option(
        [],
        "--breed",
        metavar="BREED",
        help="Dolly Crush: one dog breed per seat, in order (pastore-maremmano, "
        "australian-shepherd, bobtail, border-collie; default: in that order)",
    ),
    hide_scores: bool = typer.Option(
        False, "--hide-scores", help="Dolly Crush: keep running scores hidden until the end"
    ),
    first: str = typer.Option(
        None,
        "--first",
        metavar="NAME|SEAT|random",
        help="who starts: a player's name, a seat number, or "
        "'random'; it replaces the rules' own first seat (a rule file's [setup] first: the "
        "named player sits there), the order stays clockwise (default: the seat the rules "
        "name, the first --seat unless they say another)",
    ),
    force: bool = typer.Option(False, "--force", help="let --save replace an existing file"),
    screen: bool = typer.Option(
        False,
        "--screen",
        help="redraw the whole screen for each of a person's decisions, with what changed "
        "since they last looked highlighted",
    ),
    load: Path = typer.Option(
        None,
        "--load",
        metavar="FILE",
        help="continue a saved game (a record: its game, rules, seed and seats; names "
        "written bot:NAME are bots, the others people at this keyboard)",
    ),
) -> None:
    """Play Dolly Crush or Shave a Sheep at the terminal, people and bots.

    Examples: sheepfold play dolly-crush --seat ann --seat bot:greedy;
    sheepfold play dolly-crush --set rows=4 --set cols=6 --set swaps=up-to --seat ann --seat bot:greedy;
    sheepfold play shave-a-sheep --players 3 (you are asked who sits where).
    """
    if save is not None:
        check_save(save, force)
    if load is not None:
        given = {"GAME": game, "--seat": seat, "--players": players, "--seed": seed}
        given |= {"--rules": rules, "--set": sets, "--variant": variants}
        given |= {"--breed": breed, "--first": first}
        _refuse_with_load([flag for flag, value in given.items() if value])
        session = _load_session(load, save, hide_scores)
        session.screen = screen
    else:
        opts = PlayOptions(
            game, seat, players, seed, rules, breed, hide_scores, first, sets, variants
        )
        session = _new_session(opts, save, screen)
    session.run()
    if save is not None and not session.saved:
        raise typer.Exit(1)  # said already: the record could not be written


def _refuse_with_load(given: list[str]) -> None:
    if given:
        raise fail(
            f"--load takes the game, rules, seed and seats from the record: drop {', '.join(given)}"
        )


def _new_session(opts: PlayOptions, save: Path | None, screen: bool) -> Session:
    """A new game's session from the options (what they leave out is asked), its header shown;
    quitting while asked starts nothing (exit 0)."""
    from sheepfold.core.protocol import new_seed

    try:
        game, g, specs, rules_name = new_game(opts)
    except Quit:
        console.print("No game started.")
        raise typer.Exit(0) from None
    seed = new_seed() if opts.seed is None else opts.seed
    session = Session(g, specs, seed, save, opts.hide_scores, screen=screen)
    title = game_spec(game).title
    console.print(
        f"[bold]{title}[/] · {len(specs)} players · rules: {escape(str(rules_name))} · seed {seed} "
        f"(--seed {seed} deals this game again). Type [bold]help[/] for the moves.",
        highlight=False,
    )
    for line in session.driver.intro(str(rules_name)):
        console.print(line, highlight=False)
    return session


def _load_session(path: Path, save: Path | None, hide_scores: bool) -> Session:
    """A session that goes on from a saved record: the same game, rules, seed and seats (a
    name written ``bot:SPEC`` is that bot; any other name is a person at this keyboard)."""
    from sheepfold.core import files
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.records import RecordError, parse_record, replay

    try:
        data = files.read_bytes(path, files.MAX_RECORD_BYTES)
    except files.FileRefused as e:
        raise fail(f"--load {e}") from None
    except OSError as e:
        raise fail(f"--load {path}: {e.strerror or e}") from None
    try:
        result = replay(data)
        seed = parse_record(data).seed
    except (RecordError, SheepfoldError) as e:
        raise fail(f"--load {path}: not a record sheepfold can continue: {e}") from None
    if result.error is not None:
        raise fail(f"--load {path}: move {result.error.move}: {result.error}")
    st = result.state
    game = st.game.name
    specs: list[SeatSpec] = []
    for name in result.names:
        if name.lower().startswith("bot:"):
            try:
                specs.append(parse_seat(name, game))
            except SheepfoldError as e:
                raise fail(f"--load {path}: seat {name!r}: {e}") from None
            specs[-1].name = name
        else:
            specs.append(SeatSpec(name, None))
    session = Session(st.game, specs, int(seed or 0), save, hide_scores)
    session.state = st
    session.save_default = path
    session.written.add(path.resolve())
    console.print(
        f"[bold]{game_spec(game).title}[/] · {len(specs)} players · continued from "
        f"{escape(str(path))} after {result.moves_applied} moves · seats: "
        f"{escape(', '.join(session.names))}. Type [bold]help[/] for the moves.",
        highlight=False,
    )
    for line in session.driver.intro(str(getattr(st.game.rules, "name", None) or "")):
        console.print(line, highlight=False)
    return session


def register(app: typer.Typer) -> None:
    """Add the play command to the app."""
    app.command("play")(play_command)
