"""Pig Pen, registered (:mod:`sheepfold.core.registry`): what the layers above ``games`` need to
know about it. Nothing outside ``games/`` names this game: it plays in the lab, the records, the
adapters and the front ends through this spec and the protocol alone (docs/engine.md, "Adding a
game")."""

from __future__ import annotations

import random
from typing import Any

from sheepfold.core.protocol import Game, State
from sheepfold.core.registry import GameSpec, register_game
from sheepfold.games.pig_pen.game import DIE, PigGame, PigState, action_name
from sheepfold.games.pig_pen.record import PigCodec
from sheepfold.games.pig_pen.rules import PigRules


def invariants(state: State) -> list[tuple[str, str]]:
    """Conservation of the wool (pens + this turn's wool + what the 1s took = every face but
    the 1s rolled so far), the turn's wool is its rolls, no pen at the target before the end,
    scores = the pens."""
    assert isinstance(state, PigState)
    rules = state.game.rules
    bad: list[tuple[str, str]] = []
    held = sum(state.pens) + state.turn_wool + state.lost
    if held != state.rolled:
        bad.append(
            (
                "conservation",
                f"pens {state.pens} + turn wool {state.turn_wool} + lost {state.lost} "
                f"!= {state.rolled} rolled",
            )
        )
    if state.turn_wool != (0 if 1 in state.rolls else sum(state.rolls)):
        bad.append(("conservation", f"turn wool {state.turn_wool} but rolls {state.rolls}"))
    if not state.is_terminal():
        if max(state.pens) >= rules.target:
            bad.append(("conservation", f"a pen holds the target {rules.target} but play goes on"))
        if state.pens[state.turn] + state.turn_wool >= rules.target:
            bad.append(("conservation", "the roller reached the target but was not penned"))
    if state.turns > rules.max_turns * state.game.num_players:
        bad.append(("conservation", f"{state.turns} turns, past the turn limit"))
    if state.scores() != [float(p) for p in state.pens]:
        bad.append(("scores", f"scores {state.scores()} but the pens are {state.pens}"))
    return bad


def hidden_variant(state: State, rng: random.Random) -> State:
    """The same position with another seed (the only thing no seat sees)."""
    other = state.clone()
    other.seed = rng.randrange(2**31)
    return other


def move_boundary(state: State) -> bool:
    """A turn starts (the die is due and nothing rolled yet) or the game is over."""
    assert isinstance(state, PigState)
    return state.is_terminal() or (state.phase == DIE and not state.rolls)


def encoder(game: Game) -> Any:
    from sheepfold.games.pig_pen.observation import PigEncoder

    return PigEncoder(game)


def max_chance_outcomes(game: Game) -> int:
    """The die's faces."""
    assert isinstance(game, PigGame)
    return game.rules.faces


def max_decisions(game: Game) -> int:
    assert isinstance(game, PigGame)
    return game.max_decisions()


def max_chance_nodes(game: Game) -> int:
    assert isinstance(game, PigGame)
    return game.max_rolls()


SPEC = register_game(
    GameSpec(
        name="pig-pen",
        title="Pig Pen",
        game_class=PigGame,
        rules_class=PigRules,
        record=PigCodec(),
        move_boundary=move_boundary,
        invariants=invariants,
        hidden_variant=hidden_variant,
        action_name=action_name,
        encoder=encoder,
        max_chance_outcomes=max_chance_outcomes,
        max_decisions=max_decisions,
        max_chance_nodes=max_chance_nodes,
        score_label="pen",
        listed=False,
    )
)
