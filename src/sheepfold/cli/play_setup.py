"""``sheepfold play``'s set-up: the options checked, what they leave out asked (the game,
the players, the seats, the breeds, the rules), the game made."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.markup import escape

from sheepfold.cli.common import console, fail, safe_markup
from sheepfold.cli.prompts import ask
from sheepfold.core.registry import GameSpec, game_names, game_spec


def games() -> dict[str, str]:
    """The games "Which game?" lists, name -> title, in the registry's order (any registered
    game is played by its name)."""
    return {name: spec.title for name in game_names() if (spec := game_spec(name)).listed}


def game_answers() -> dict[str, str]:
    """What a player may answer to "Which game?": its number, its name, its title, the name's
    first word or first letter."""
    answers: dict[str, str] = {}
    for i, (name, title) in enumerate(games().items(), start=1):
        for answer in (str(i), name, title.lower(), name.split("-")[0], name[0]):
            answers.setdefault(answer, name)
    return answers


# -- seats ------------------------------------------------------------------------------
@dataclass
class SeatSpec:
    name: str  # shown on screen and written in the record
    bot: str | None = None  # a bot spec (``greedy``, ``mcts:500``) or None for a person


def parse_seat(text: str, game: str) -> SeatSpec:
    """``ann`` = a person; ``bot:greedy`` or a registered bot's name = that bot."""
    from sheepfold.bots import available_bots
    from sheepfold.core.protocol import SheepfoldError

    text = text.strip()
    if not text:
        raise SheepfoldError("a seat needs a name (a person) or a bot (bot:greedy, bot:random)")
    bots = available_bots(game)
    if text.lower().startswith("bot:"):
        spec = text[4:].strip()
        if spec.partition(":")[0] not in bots:
            raise SheepfoldError(
                f"no bot named {spec.partition(':')[0]!r} for {game} (bots: {', '.join(sorted(bots))})"
            )
        return SeatSpec(f"bot:{spec}", spec)
    if text.partition(":")[0] in bots:
        return SeatSpec(f"bot:{text}", text)
    return SeatSpec(text, None)


def unique_names(specs: list[SeatSpec]) -> None:
    seen: dict[str, int] = {}
    for s in specs:
        k = seen.get(s.name, 0) + 1
        seen[s.name] = k
        if k > 1:
            s.name = f"{s.name} ({k})"


def resolve_breed(text: str, breeds: Mapping[str, str]) -> str:
    """A breed from its name or a unique start of it (``bob`` -> ``bobtail``)."""
    t = text.strip().lower().replace(" ", "-")
    if t in breeds:
        return t
    hits = [b for b in breeds if b.startswith(t)] if t else []
    return hits[0] if len(hits) == 1 else t  # an unknown name: the engine says which exist


def choose_game() -> str:
    listed = list(games().values())
    console.print(
        "Which game?  " + "   ".join(f"{i}) {t}" for i, t in enumerate(listed, start=1)),
        highlight=False,
    )
    answers = game_answers()
    while True:
        text = ask("game", "1").lower()
        if text in answers:
            return answers[text]
        console.print(
            "Type " + " or ".join(f"{i} ({t})" for i, t in enumerate(listed, start=1)) + "."
        )


def choose_players(default: int = 2) -> int:
    while True:
        text = ask("How many players (2-4)?", str(default))
        if text.isdigit() and 2 <= int(text) <= 4:
            return int(text)
        console.print("A game has 2 to 4 players.")


def choose_seats(game: str, n: int) -> list[SeatSpec]:
    from sheepfold.bots import available_bots
    from sheepfold.core.protocol import SheepfoldError

    bots = ", ".join(sorted(available_bots(game)))
    console.print(
        f"Who sits where? Type a name for a person at this keyboard, or a bot's level ({bots}).",
        highlight=False,
    )
    specs = []
    for i in range(n):
        default = "player" if i == 0 else "greedy"
        while True:
            try:
                specs.append(parse_seat(ask(f"seat {i + 1}", default), game))
                break
            except SheepfoldError as e:
                console.print(f"[red]{escape(str(e))}[/]")
    return specs


def choose_breeds(n: int, names: list[str], titles: Mapping[str, str]) -> list[str]:
    """One breed per seat (``titles``: the game's breeds, name -> title), each used once."""
    breeds = list(titles)
    console.print(
        "Dog breeds: " + ", ".join(f"{i + 1}) {titles[b]}" for i, b in enumerate(breeds)),
        highlight=False,
    )
    chosen: list[str] = []
    for i in range(n):
        free = [b for b in breeds if b not in chosen]
        while True:
            text = ask(f"breed for {safe_markup(names[i])}", str(breeds.index(free[0]) + 1)).lower()
            pick = None
            if text.isdigit() and 1 <= int(text) <= len(breeds):
                pick = breeds[int(text) - 1]
            else:
                for b in breeds:
                    if text.replace(" ", "-") in (b, b.split("-")[0]):
                        pick = b
            if pick is None:
                console.print("Type a number from the list or a breed's name.")
            elif pick in chosen:
                console.print("That breed is taken: a breed is used by one player at most.")
            else:
                chosen.append(pick)
                break
    return chosen


def choose_rules(game: str) -> str | None:
    from sheepfold.rulesets import all_rulesets

    names = [rs.name for rs in all_rulesets(game)]
    console.print("Rule sets: " + ", ".join(safe_markup(n) for n in names), highlight=False)
    fair = game_spec(game).default_ruleset  # fair dog cards (say) unless asked otherwise
    # with a fair default, "rulebook" is the printed game's own rule set (``dolly-rulebook``)
    printed = next((n for n in names if n.endswith("-rulebook")), None) if fair else None
    while True:
        text = ask("rules", fair or "rulebook")
        if text == "rulebook" and printed:
            return printed
        if text in ("rulebook", ""):
            return None
        if text in names or Path(text).exists():
            return text
        console.print(
            "Type one of the names above, a rule-set file, or press Enter for the rulebook."
        )


def starting_seat(first: str, names: list[str], seed: int | None) -> int:
    """The seat that starts, from --first (a name, a seat number or 'random')."""
    import random

    text = first.strip()
    if text.lower() == "random":
        return (
            random.Random(seed).randrange(len(names))
            if seed is not None
            else random.randrange(len(names))
        )
    if text.isdigit() and int(text) < len(names):
        return int(text)
    if text in names:
        return names.index(text)
    raise fail(
        f"--first {first!r}: not a player's name ({', '.join(names)}), a seat number or 'random'"
    )


def check_save(path: Path, force: bool) -> None:
    """Before the game, not after it: --save must not replace a file unless --force, and its
    folder must be one a file can be written in."""
    if path.is_dir():
        raise fail(f"--save {path}: that is a folder; give a file name")
    if path.exists() and not force:
        raise fail(f"--save {path}: the file exists already; add --force to replace it")
    folder = path.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise fail(f"--save {path}: cannot write in {folder}")


@dataclass
class PlayOptions:
    """``sheepfold play``'s options as typed (``None``: left out, asked or the default)."""

    game: str | None
    seat: list[str]
    players: int | None
    seed: int | None
    rules: str | None
    breed: list[str]
    hide_scores: bool
    first: str | None
    sets: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)


def new_game(opts: PlayOptions) -> tuple[str, Any, list[SeatSpec], str]:
    """(game name, the game, its seats in playing order, the rule set's name) from the options;
    what they leave out is asked (:class:`Quit` when the player quits instead)."""
    from sheepfold.cli.common import default_rules
    from sheepfold.core.play import seats_starting_with
    from sheepfold.games import make

    interactive = opts.game is None
    game = _game_name(opts)
    spec = game_spec(game)
    rules = opts.rules
    if rules is None and interactive:
        rules = choose_rules(game)
    # the game's default rule set when none is asked for (Dolly Crush: fair dog cards; the
    # printed ones: --rules dolly-rulebook, or --breed, and the header then warns about
    # unequal cards)
    rules, rules_obj = default_rules(game, rules, opts.sets, opts.variants, bool(opts.breed))
    specs = _seat_specs(game, opts.seat, opts.players)
    unique_names(specs)
    options: dict[str, Any] = {}
    if spec.breeds:
        if opts.breed:
            if len(opts.breed) != len(specs):
                raise fail(
                    f"{len(opts.breed)} --breed options for {len(specs)} seats: give one per seat"
                )
            options["breeds"] = [resolve_breed(b, spec.breeds) for b in opts.breed]
        elif interactive:
            options["breeds"] = choose_breeds(len(specs), [s.name for s in specs], spec.breeds)
    g = make(game, players=len(specs), rules=rules_obj, **options)
    if opts.first is not None:
        # who starts is one setting: the player --first names sits at the seat the rules let
        # start (a rule file's [setup] first), so --first replaces it instead of adding to it
        k = starting_seat(opts.first, [s.name for s in specs], opts.seed)
        first = g.first_seat
        specs = seats_starting_with(specs, k, first)
        if "breeds" in options:  # each player keeps their breed
            options["breeds"] = seats_starting_with(options["breeds"], k, first)
            g = make(game, players=len(specs), rules=rules_obj, **options)
    rules_name = getattr(rules_obj, "name", None) or ("rulebook" if rules is None else rules)
    return game, g, specs, rules_name


def _game_name(opts: PlayOptions) -> str:
    """The game asked for (or chosen now), checked against the options that are one game's."""
    if opts.game is None:
        game = choose_game()
    elif opts.game not in game_names():
        raise fail(f"unknown game {opts.game!r} (games: {', '.join(game_names())})")
    else:
        game = opts.game
    spec = game_spec(game)
    if opts.breed and not spec.breeds:
        raise fail(f"--breed is for {_games_with(lambda g: bool(g.breeds))} only")
    if opts.hide_scores and not spec.hidden_scores:
        raise fail(
            f"--hide-scores is for {_games_with(lambda g: g.hidden_scores)} ({spec.title}'s "
            f"{spec.score_label}s are in plain sight)"
        )
    return game


def _games_with(has: Callable[[GameSpec], bool]) -> str:
    """The titles of the games whose spec ``has`` something (``Dolly Crush``)."""
    return " and ".join(game_spec(n).title for n in game_names() if has(game_spec(n)))


def _seat_specs(game: str, seat: list[str], players: int | None) -> list[SeatSpec]:
    """The seats given with ``--seat`` (checked against ``--players``), else asked for."""
    if seat:
        specs = [parse_seat(s, game) for s in seat]
        if players is not None and players != len(specs):
            raise fail(
                f"--players {players} but {len(specs)} --seat options: give one --seat per player"
            )
        if not 2 <= len(specs) <= 4:
            raise fail(f"a game has 2 to 4 seats, not {len(specs)} (one --seat per player)")
        return specs
    n = players if players is not None else choose_players()
    return choose_seats(game, n)
