"""Why games end: each game's end reason, in words a designer reads.

The engines note why a game ended (its view's ``ended_by``: Shave a Sheep ``middle`` or
``target``; Dolly Crush ``dogs``, ``deck``, ``cleanup``, ``points`` or ``rounds``); a game the turn
limit stopped is ``turn-limit`` whatever the game. The lab stores the reason in every row
(column ``ended_by``) and reports the share of games that ended each way.

Some endings are what the rules mean to happen (the middle is empty, every dog card is played);
others are a sign that a rule set does not work as meant (:data:`UNINTENDED`): the deck running
out, the sheep cards running out (the last cards in the deck kept making lines), the
turn limit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheepfold.core.records import TURN_LIMIT, end_reason
from sheepfold.core.words import Msg

#: an ending the engine did not name (a game without end reasons)
OTHER = "rules"

#: reason -> what happened, for tables ("the deck ran out"), and for verdicts ("the deck now
#: runs out")
WORDS: dict[str, tuple[str, str]] = {
    "middle": (Msg("the middle ran out of wool"), Msg("the middle now runs out of wool")),
    "target": (Msg("a safe pile reached the target"), Msg("a safe pile now reaches the target")),
    "dogs": (Msg("every dog card was played"), Msg("every dog card now gets played")),
    "deck": (Msg("the deck ran out"), Msg("the deck now runs out")),
    "cleanup": (  # Dolly Crush ruling 6's words
        Msg("the sheep cards ran out: the last cards in the deck kept making lines"),
        Msg("the sheep cards now run out: the last cards in the deck keep making lines"),
    ),
    "points": (
        Msg("a player reached the points target"),
        Msg("a player now reaches the points target"),
    ),
    "rounds": (Msg("the last round was played"), Msg("the last round is now played")),
    TURN_LIMIT: (Msg("the turn limit stopped it"), Msg("the turn limit now stops it")),
    OTHER: (Msg("its rules ended it"), Msg("its rules now end it")),
}
#: endings that say a rule set may not work as meant
UNINTENDED = ("deck", "cleanup", TURN_LIMIT)


def reason_of(state: Any) -> str:
    """The end reason of a finished engine state (from its view, so any game)."""
    return end_reason(state) or OTHER


def words(reason: str, now: bool = False) -> str:
    """A reason in words ("the deck ran out"; ``now``: "the deck now runs out")."""
    plain = reason.replace("-", " ").replace("_", " ")
    past, present = WORDS.get(reason, (plain, Msg("{reason} now", reason=plain)))
    return present if now else past


def label(reason: str) -> str:
    """The metric label of a reason's share: ``ended: the deck ran out``."""
    return f"ended: {words(reason)}"


def order(reasons: Any) -> list[str]:
    """Reasons in a fixed order: the intended ones first (as :data:`WORDS` lists them)."""
    known = list(WORDS)
    return sorted(
        set(reasons), key=lambda r: (r in UNINTENDED, known.index(r) if r in known else 99, r)
    )


def shares(ended_by: np.ndarray) -> dict[str, float]:
    """``{reason: share of games}`` of a run's ``ended_by`` column (every game counted that has
    a reason)."""
    known = np.array([r for r in ended_by if r is not None], dtype=object)
    G = len(known)  # rows of a file resumed from one written before the column: no reason
    if G == 0:
        return {}
    vals, counts = np.unique(known.astype(str), return_counts=True)
    got = dict(zip(vals.tolist(), counts.tolist(), strict=True))
    return {r: round(got[r] / G, 6) for r in order(got)}


def shares_list(sh: dict[str, float]) -> str:
    """``the middle ran out of wool 97.0%, the turn limit stopped it 3.0%``."""
    from sheepfold.lab.metrics import fmt

    return ", ".join(f"{words(r)} {fmt(v, 'pct')}" for r, v in sh.items())


def shares_text(sh: dict[str, float]) -> str:
    """``How games ended: the middle ran out of wool 97.0%, ...`` ("" without end reasons)."""
    return "How games ended: " + shares_list(sh) if sh else ""


def unintended_note(sh: dict[str, float], games: int) -> str | None:
    """A warning when most games end by an unintended reason (else None)."""
    from sheepfold.lab.metrics import fmt

    bad = {r: v for r, v in sh.items() if r in UNINTENDED}
    if sum(bad.values()) <= 0.5:
        return None
    parts = ", ".join(f"{words(r)} in {fmt(v, 'pct', 0)}" for r, v in bad.items())
    return (
        f"most of {games} quick simulated games (greedy players) did not end as the rules "
        f"mean them to: {parts}"
    )
