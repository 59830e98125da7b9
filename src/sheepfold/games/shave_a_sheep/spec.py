"""Shave a Sheep, registered (:mod:`sheepfold.core.registry`): what the layers above ``games``
need to know about it."""

from __future__ import annotations

import random
from typing import Any

from sheepfold.core.drivers import TerminalDriver
from sheepfold.core.protocol import Game, RulesError, State
from sheepfold.core.registry import GameSpec, register_game
from sheepfold.games.costs import RuleCost
from sheepfold.games.shave_a_sheep import words
from sheepfold.games.shave_a_sheep.game import ROLL, ShaveGame, ShaveState, action_name
from sheepfold.games.shave_a_sheep.program import Move, compile_rules
from sheepfold.games.shave_a_sheep.record import ShaveCodec
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from sheepfold.games.shave_a_sheep.table import ShaveTable


def invariants(state: State) -> list[tuple[str, str]]:
    """Conservation of the wool, no sheep above its cap, scores = the safe piles (with teams:
    the team's piles together), no wolf piece outside the program's, an empty middle ends the
    game (where the program's end says so)."""
    assert isinstance(state, ShaveState)
    prog = state.game.program
    wool, cap = prog.setup.wool, prog.setup.cap
    bad: list[tuple[str, str]] = []
    if state.total_wool() != wool:
        bad.append(
            (
                "conservation",
                f"middle {state.middle} + sheep {state.sheep} + piles {state.piles} != {wool}",
            )
        )
    if state.middle < 0 or min(state.sheep) < 0 or min(state.piles) < 0:
        bad.append(("conservation", f"negative wool: {state!r}"))
    if max(state.sheep) > cap:
        bad.append(("conservation", f"a sheep carries more than {cap}: {state.sheep}"))
    teams = state.game.team_of
    expected = [float(sum(state.piles[s] for s in teams[q])) for q in range(len(state.piles))]
    if state.scores() != expected:
        bad.append(("scores", f"scores {state.scores()} but the piles are {state.piles}"))
    if not state.is_terminal() and state.middle == 0 and prog.end.middle_empty:
        bad.append(("conservation", "the middle is empty but the game goes on (ruling 6)"))
    for piece, seat in enumerate(state.wolves):
        if seat is not None and piece >= prog.setup.wolves:
            bad.append(
                ("conservation", f"wolf piece {piece + 1} stands next to a seat, out of play")
            )
    return bad


def hidden_variant(state: State, rng: random.Random) -> State:
    """The same position with another seed (the only thing no seat sees)."""
    other = state.clone()
    assert isinstance(other, ShaveState)
    other.seed = rng.randrange(2**31)
    return other


def move_boundary(state: State) -> bool:
    """A turn starts (the die is due, and not because the roller rolls again) or the game is
    over."""
    assert isinstance(state, ShaveState)
    return state.is_terminal() or (state.phase == ROLL and state.rerolls_used == 0)


def encoder(game: Game) -> Any:
    from sheepfold.games.shave_a_sheep.observation import ShaveEncoder

    return ShaveEncoder(game)


def max_chance_outcomes(game: Game) -> int:
    """The die's faces, or the seats racing for the Howling Wolf."""
    assert isinstance(game, ShaveGame)
    return max(len(game.faces), game.num_players)


def _turns(game: Game) -> int:
    """The turn limit (``max_turns``, or every seat's ``turns_each``); :class:`RulesError`
    without one (the wolf puts wool back: a game may never end, so it has no longest length)."""
    assert isinstance(game, ShaveGame)
    prog = game.program
    limits = [t for t in (prog.max_turns,) if t is not None]
    if prog.end.turns_each is not None:
        limits.append(prog.end.turns_each * game.num_players)
    if not limits:
        raise RulesError(
            "a Shave a Sheep game without a turn limit (max_turns) may never end (the wolf "
            "puts wool back): it has no longest length"
        )
    return min(limits)


def max_decisions(game: Game) -> int:
    """A decision per turn up to the turn limit (two in a race for the wolf), and one per
    reroll."""
    assert isinstance(game, ShaveGame)
    per_turn = (2 if any(game.face_races) else 1) + game.program.rerolls
    return _turns(game) * per_turn


def max_chance_nodes(game: Game) -> int:
    """A roll per turn and one per reroll, and a race for the wolf (who grabs it) on a face
    that starts one, once a turn, up to the turn limit."""
    assert isinstance(game, ShaveGame)
    return _turns(game) * _chance_per_turn(game)


def _chance_per_turn(game: ShaveGame) -> int:
    """A turn's chance events: its roll, a roll a reroll, a race for the wolf."""
    return 1 + game.program.rerolls + any(game.face_races)


def cost(rules: ShaveRules, players: int) -> RuleCost:
    """What a game costs (:class:`~sheepfold.games.costs.RuleCost`): no deal (the wool is
    counted out, nothing drawn); a turn rolls the die once and once a reroll, and races for
    the wolf once; the perfect bot solves the solver's positions first (counted from the
    rules: :func:`~sheepfold.games.shave_a_sheep.solver.space_size`). No bot searches a
    decision: ``greedy`` looks one roll ahead, ``perfect`` reads its solution."""
    from sheepfold.games.shave_a_sheep import solver

    turn = _chance_per_turn(ShaveGame(players, rules))
    return RuleCost(players, turn_steps=turn, positions=solver.space_size(rules, players))


def terminal(game: Game) -> TerminalDriver:
    """The terminal's driver (:mod:`sheepfold.games.shave_a_sheep.terminal`; it imports rich)."""
    from sheepfold.games.shave_a_sheep.terminal import ShaveTerminal

    return ShaveTerminal(game)


def differences(a: ShaveRules, b: ShaveRules) -> list[str]:
    """What changes from rules ``a`` to ``b``, part by part, in the program's words."""
    return words.differences(compile_rules(a), compile_rules(b))


#: each rules option's category, for the gallery's filters (an option not named: "other")
CATEGORIES = {
    "wool": "wool",
    "max_wool": "wool",
    "die": "die",
    "rerolls": "die",
    "variants": "variants",
    "auto_shear": "shearing",
    "shear_cost": "shearing",
    "full_bonus": "shearing",
    "wolf_takes": "wolf",
    "wolf_to": "wolf",
    "reaction_weights": "wolf",
    "target": "end",
    "final_shear": "end",
    "max_turns": "end",
    "setup": "wool",
    "verbs": "die",
    "triggers": "shearing",
    "end": "end",
}


def score_bound(state: State) -> list[float] | None:
    """The most each seat may still have in its safe pile: its pile plus all the wool still in
    play (the middle and every sheep's wool; wool is never made or lost, only moved). Sound when
    no part of the rules takes wool out of a safe pile (no move *from* a pile): then piles only
    grow; rules with such a move give None."""
    assert isinstance(state, ShaveState)
    prog = state.game.program
    effects = [e for v in prog.verbs for e in v.effects]
    effects += [e for t in prog.triggers for e in t.effects]
    if any(isinstance(e, Move) and e.source.where == "pile" for e in effects):
        return None
    in_play = float(state.middle + sum(state.sheep))
    return [s + in_play for s in state.scores()]


SPEC = register_game(
    GameSpec(
        name="shave-a-sheep",
        title="Shave a Sheep",
        game_class=ShaveGame,
        rules_class=ShaveRules,
        record=ShaveCodec(),
        move_boundary=move_boundary,
        invariants=invariants,
        hidden_variant=hidden_variant,
        action_name=action_name,
        encoder=encoder,
        max_chance_outcomes=max_chance_outcomes,
        max_decisions=max_decisions,
        max_chance_nodes=max_chance_nodes,
        turn_limit=True,
        has_exact_solver=True,
        table=ShaveTable(),
        categories=CATEGORIES,
        score_label="safe pile",
        terminal=terminal,
        differences=differences,
        score_bound=score_bound,
        cost=cost,
    )
)
