"""A saved best response as a bot: ``best-response:FILE`` plays the exact best response that
:func:`sheepfold.analysis.exploitability` computed against a policy (Shave a Sheep).

The file is the solver's solution file (:func:`~sheepfold.games.shave_a_sheep.solver.save_solution`:
values and decision table) with the rules, the player count and the policy it answers added.
The bot refuses a game of other rules (``max_turns`` aside: the solver plays every game to its
end) or another seat than the one it was solved for. It decides like the perfect bot: the exact
position from the view, then the solution's action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from sheepfold.bots import register_bot
from sheepfold.bots.perfect import SolutionBot
from sheepfold.core.protocol import Game, Seat, SheepfoldError

FORMAT = "sheepfold-best-response-1"


def rules_key(rules: Any) -> str:
    """What the rules do, ``max_turns`` left out (the solver ignores it)."""
    return str(rules.model_copy(update={"max_turns": None}).key())


def save(sol: Any, path: str | Path, against: str = "") -> Path:
    """Save a best response (a solver Solution) with its rules and players to ``path`` (.npz)."""
    from sheepfold.games.shave_a_sheep import solver

    path = Path(path)
    if path.suffix != ".npz":
        raise SheepfoldError(f"a best response is saved as .npz, not {path.name!r}")
    solver.save_solution(sol, path)
    with np.load(path) as d:
        fields = dict(d)
    rules = sol.space.rules.model_dump(mode="json")
    fields.update(
        format=np.array(FORMAT),
        rules=np.array(json.dumps(rules)),
        players=np.array(sol.space.n),
        against=np.array(against),
    )
    np.savez(path, **fields)
    return path


def load(path: str | Path) -> Any:
    """The Solution saved in ``path`` (its ``space`` rebuilt from the saved rules)."""
    from sheepfold.games.shave_a_sheep import solver
    from sheepfold.games.shave_a_sheep.rules import ShaveRules

    path = Path(path)
    try:
        with np.load(path) as d:
            if str(d["format"]) != FORMAT:
                raise KeyError("format")
            rules = ShaveRules(**json.loads(str(d["rules"])))
            players = int(d["players"])
    except (OSError, KeyError, ValueError) as e:
        raise SheepfoldError(f"{path}: not a saved best response ({e})") from e
    sol = solver.load_solution(solver.Space(rules, players), path)
    if sol is None:
        raise SheepfoldError(f"{path}: its solution does not fit its rules")
    return sol


class BestResponseBot(SolutionBot):
    name = "best-response"

    def __init__(self, game: Game, seat: Seat, seed: int | None, path: str | Path) -> None:
        super().__init__(game, seat, seed)
        self.solution = load(path)
        space = self.solution.space
        if space.n != game.num_players or rules_key(space.rules) != rules_key(game.rules):
            raise SheepfoldError(
                f"{path}: a best response for {space.n} players and other rules than this game's"
            )
        if self.solution.seat != seat:
            raise SheepfoldError(
                f"{path}: a best response for seat {self.solution.seat}, not seat {seat}"
            )


@register_bot(
    "shave-a-sheep",
    "best-response",
    "the exact best response to a policy, saved by sheepfold.analysis.exploitability "
    "(best-response:FILE)",
)
def _make(game: Game, seat: Seat, seed: int | None, arg: str) -> BestResponseBot:
    if not arg:
        raise SheepfoldError(
            "best-response needs its file: best-response:FILE (Exploitability.save_best_response)"
        )
    return BestResponseBot(game, seat, seed, arg)
