"""The greedy heuristic of Shave a Sheep, shared by the greedy bot, the solver's ``greedy``
policy and the lab's fast simulator (one definition, so they never drift apart).

A position is scored for a seat (see docs/play.md): its safe pile plus a discounted value of the
wool on its sheep, minus the same for the strongest opponent; a position where the game is over
is worth a win or a loss, nothing in between. Greedy plays the legal action whose position scores
best (the first of equals).

The house rules need nothing of their own where the position after an action shows them (a wolf
whose wool goes to the roller's pile, a full sheep's bonus, a target that ends the game, a
shear's cost): the score sees it. A sheep counts as nearly safe from the auto-shear threshold
(house rule ``auto_shear``) on. Rolling again (house rule ``rerolls``) is scored as the chance-
weighted mean of each face's best action (no further reroll; a face that starts Howling Wolf's
race counts as the position as it is): greedy rerolls when that beats the face it has.
"""

from __future__ import annotations

from sheepfold.core.protocol import Action, Seat, SheepfoldError, State
from sheepfold.games.shave_a_sheep.game import CHOOSE, REROLL, ShaveState

#: how much one piece of wool on a sheep is worth, against one piece in a safe pile
SHEEP_WOOL_VALUE = 0.6
#: a full sheep is shorn automatically at its owner's next turn: its wool is nearly safe
FULL_SHEEP_VALUE = 0.85
WIN_VALUE = 1000.0


def shave_value(state: State, me: Seat) -> float:
    """How good ``state`` is for ``me`` (higher is better)."""
    if state.is_terminal():
        out = state.outcome()
        assert out is not None
        if out.truncated:
            return 0.0
        return WIN_VALUE * out.shares()[me] - (WIN_VALUE / 2 if me not in out.winners else 0.0)
    s = state
    assert isinstance(s, ShaveState)
    full = s.game.rules.shear_at

    def worth(seat: Seat) -> float:
        wool = s.sheep[seat]
        rate = FULL_SHEEP_VALUE if wool >= full else SHEEP_WOOL_VALUE
        return s.piles[seat] + rate * wool

    teams = s.game.team_of  # with teams: a team's wool together, against the best other team
    mine = sum(worth(k) for k in teams[me])
    others = max(
        (sum(worth(k) for k in teams[q]) for q in range(s.game.num_players) if q not in teams[me]),
        default=0.0,
    )
    return mine - others


def _after(state: State, action: Action) -> State:
    trial = state.clone()
    trial.apply_unchecked(action)
    return trial


def reroll_value(state: State, me: Seat) -> float:
    """The score of rolling again: each face's best action (not a further reroll), weighted by
    the face's chance; a face that starts Howling Wolf's race scores the position as it is."""
    base = _after(state, REROLL)
    total = 0.0
    for face, p in base.chance_outcomes():
        rolled = _after(base, face)
        assert isinstance(rolled, ShaveState)
        if rolled.phase != CHOOSE:
            total += p * shave_value(base, me)
            continue
        acts = [a for a in rolled.legal_actions() if a != REROLL]
        total += p * max(shave_value(_after(rolled, a), me) for a in acts)
    return total


def greedy_action(state: State) -> Action:
    """The action greedy plays at the decision ``state``: the best-scoring position after it."""
    me = state.current_player()
    best_action, best_value = None, float("-inf")
    for a in state.legal_actions():
        v = reroll_value(state, me) if a == REROLL else shave_value(_after(state, a), me)
        if v > best_value + 1e-9:
            best_action, best_value = a, v
    assert best_action is not None
    return best_action


def parse_table(arg: str, players: int) -> list[str | None] | None:
    """The seats' bots of ``perfect:BOT,-,BOT`` (None: its own seat; None for an empty ``arg``)."""
    if not arg:
        return None
    names = [x.strip() for x in arg.split(",")]
    if len(names) != players:
        raise SheepfoldError(
            f"perfect:{arg}: name one bot per seat ({players}), '-' for the perfect bot's own seat"
        )
    return [None if x in ("-", "") else x for x in names]
