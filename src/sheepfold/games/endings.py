"""Whether a game under a rule set can end: the one check that ``sheepfold rules check``, the
web's rules check (``POST /api/rules/{game}/check``) and a new table (``POST /api/tables``) make,
so that the web refuses exactly what the command line refuses, in the same words.

:func:`ending_refusal` is that check, with one budget for every front end:

1. a rule set whose games end after a number of turns each (``[end] turns_each``) can end;
2. else a few games are played at random (:data:`PLAYOUTS`, at most :data:`PLAYOUT_STEPS`
   steps each): one that ends shows that games can end, and nothing is solved (most rule sets);
3. else, where the game has an exact solver (Shave a Sheep) and the fewest players its rules
   seat fit :data:`REFUSAL_EXACT` positions, the solver says whether any game can end: a rule
   set under which none can (a die of only pink faces: nothing ever takes wool out of the
   middle) is refused.

A rule set none of these settles (too big to solve, or a part the solver does not play) is not
refused: ``rules check`` says what it knows (:func:`check_ending`: the solver's notes for every
player count within its budgets, and the lengths of games played, ``cli/rules.py``), and says
"may never end" only when the solver finds that a game can go on for ever, or played games did.

What a game under the rules costs (a deal's and a turn's chance steps, a bot's search: from
the rules alone, :mod:`sheepfold.games.costs`) is the other half of the one check, each front
end with its limits (:mod:`sheepfold.bots.costs`); the solver's size here is counted the same
way (``solver.space_size``: no index built before a refusal).

The cost is bounded by steps played and positions solved, never by a clock. The web asks off
the event loop (``asyncio.to_thread``), one solve at a time, and answers a rule set it checked
before from memory.
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from sheepfold.core.registry import game_spec
from sheepfold.core.words import Msg

#: games played at random before anything is solved, each at most :data:`PLAYOUT_STEPS` steps
#: (decisions and chance outcomes): one game that ends is enough
PLAYOUTS = 4
PLAYOUT_STEPS = 5_000
#: the most positions solved to decide a refusal, the same for every front end (about 10 s on
#: a busy 2-core machine; the rulebook's 2 players: 23,610 positions, under a second). Reached
#: only when no game played at random ended.
REFUSAL_EXACT = 300_000
#: the most positions ``rules check`` solves for its notes (whether a game may go on for ever)
#: for the fewest players the rules seat, and for each further player count: seconds to a
#: minute (the rulebook's 3 players: 1.47 million positions, about 50 s)
EXACT_FIRST = 3_000_000
EXACT_MORE = 600_000


@dataclass(frozen=True)
class EndingCheck:
    """What ``rules check`` found: ``refusal`` (why no game can end; None: a game can), the
    player counts solved exactly, and notes in words (a game that may go on for ever, why it
    was not solved exactly)."""

    refusal: str | None = None
    exact: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: every game ends within a number of turns the rules set (nothing to measure)
    bounded: bool = False


def no_end(players: int, target: int | None) -> str:
    """The words that refuse a rule set under which no game can end."""
    if target:
        return Msg(
            "no game can end under these rules with {n} players: no roll and no move ever "
            "empties the middle (the game ends when the middle is empty or a safe pile holds "
            "the target, {target})",
            n=players,
            target=target,
        )
    return Msg(
        "no game can end under these rules with {n} players: no roll and no move ever empties "
        "the middle (the game ends when the middle is empty)",
        n=players,
    )


def _turns_each(rules: Any) -> int | None:
    end = getattr(rules, "end", None)
    return None if end is None else end.turns_each


def _fewest(rules: Any) -> int:
    counts = getattr(rules, "player_counts", None)
    return min(counts()) if counts else 2


def played_to_an_end(game: str, rules: Any, players: int) -> bool:
    """Whether one of :data:`PLAYOUTS` games played at random (seeded: the same games every
    time) ends within :data:`PLAYOUT_STEPS` steps."""
    from sheepfold.games import make

    unlimited = {"max_turns": None} if "max_turns" in type(rules).model_fields else {}
    made = make(game, players, rules=rules.model_copy(update=unlimited))
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = made.new_initial_state(seed=seed)
        for _ in range(PLAYOUT_STEPS):
            if state.is_terminal():
                return True
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return True
    return False


def _refusal(game: str, rules: Any) -> str | None:
    """:func:`ending_refusal`, unremembered."""
    spec = game_spec(game)
    if not spec.has_exact_solver or not isinstance(rules, spec.rules_class):
        return None  # (Dolly Crush: every game ends, when the cards run out at the latest)
    if _turns_each(rules) is not None:
        return None
    players = _fewest(rules)
    if played_to_an_end(game, rules, players):
        return None
    from sheepfold.games.shave_a_sheep import solver

    rules = rules.model_copy(update={"rerolls": 0})  # a reroll changes no ending (below)
    size = solver.space_size(rules, players)  # counted from the rules: no index built
    if size is None or size > REFUSAL_EXACT:  # (None: a rule set the solver does not solve)
        return None
    try:
        with _ONE_SOLVE_AT_A_TIME:
            ending = solver.ending(rules, players)
    except solver.SolverError:  # a rule set the solver does not solve: not refused
        return None
    return None if ending.can_end else no_end(players, rules.target)


def ending_refusal(game: str, rules: Any) -> str | None:
    """Why no game can end under ``rules`` (a validated rules model of ``game``; None: games
    can end, or the check cannot tell within its budget): the one check of every front end,
    bounded by :data:`PLAYOUT_STEPS` and :data:`REFUSAL_EXACT`. A rule set checked before is
    answered from memory (the most recent :data:`MAX_REMEMBERED`)."""
    key = (game, json.dumps(rules.model_dump(mode="json"), sort_keys=True))
    with _MEMORY:
        if key in _REFUSALS:
            return _REFUSALS[key]
    refusal = _refusal(game, rules)
    with _MEMORY:
        if len(_REFUSALS) >= MAX_REMEMBERED:
            _REFUSALS.pop(next(iter(_REFUSALS)))
        _REFUSALS[key] = refusal
    return refusal


#: one solve at a time (each holds a solver's tables: memory, and CPU shared with the tables
#: being played), and the rule sets checked, with their refusals (the oldest forgotten first)
_ONE_SOLVE_AT_A_TIME = threading.Lock()
_MEMORY = threading.Lock()
_REFUSALS: dict[tuple[str, str], str | None] = {}
MAX_REMEMBERED = 256


def check_ending(game: str, rules: Any) -> EndingCheck:
    """What ``sheepfold rules check`` says about how games under ``rules`` end: the refusal of
    :func:`ending_refusal` (every front end's), then, where the game has an exact solver, each
    player count solved within :data:`EXACT_FIRST` (the fewest players) and
    :data:`EXACT_MORE` (each further count) positions, with a note when a game may go on for
    ever if the players keep it going."""
    refusal = ending_refusal(game, rules)
    if refusal is not None:
        return EndingCheck(refusal, (_fewest(rules),))
    turns = _turns_each(rules)
    if turns is not None:
        return EndingCheck(
            notes=(f"every game ends: after at most {turns} turns each",), bounded=True
        )
    if not game_spec(game).has_exact_solver:
        return EndingCheck()
    from sheepfold.games.shave_a_sheep import solver

    notes: list[str] = []
    if getattr(rules, "rerolls", 0):  # a smaller space to search: rerolls change no ending
        rules = rules.model_copy(update={"rerolls": 0})
        notes.append(
            "whether games end is checked without rerolls: a reroll only changes which face a "
            "turn acts on, and every face can still come up"
        )
    exact: list[int] = []
    for i, n in enumerate(rules.player_counts()):
        try:
            size = solver.count_positions(rules, n)
        except solver.SolverError as e:  # a rule set the solver does not solve: why, in words
            if i == 0:
                notes = [f"whether games end is not solved exactly ({_why(e)})"]
            break
        if size > (EXACT_FIRST if i == 0 else EXACT_MORE):
            if i == 0:
                notes = [
                    f"whether games end is not solved exactly: {size:,} positions with {n} "
                    "players are too many to solve here"
                ]
            break
        ending = solver.ending(rules, n)
        exact.append(n)
        if not ending.can_end:  # more players than the fewest, or a game too big to refuse
            notes.append(no_end(n, rules.target))
        elif not ending.always_ends:
            notes.append(
                f"with {n} players a game may never end: if everyone keeps it going, "
                f"{100 * (1 - ending.least):.2f}% of games never end"
            )
    return EndingCheck(None, tuple(exact), tuple(notes))


def _why(e: Exception) -> str:
    """A solver's refusal without its own lead-in (``the solver cannot solve this rule set:``)."""
    text = str(e)
    return text.partition(": ")[2] if text.startswith("the solver cannot") else text
