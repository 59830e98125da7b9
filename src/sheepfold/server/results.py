"""The end of a game, told: the results table and the moments that decided it.

    GET /api/tables/{id}/results    a finished table's results, in the reader's language

The results: each seat's place, name and points, what it gathered (Dolly Crush: its cards,
alike ones counted together; Shave a Sheep: the wool in its safe pile, and on its sheep if the
game ended without a final shear) and, for a person whose game was rated, the rating before and
after (as the profiles stored them at the end: :func:`rating_changes`, the one place this reads
the ratings). The moments: the lead changes and the turn the winner took the lead for good (the
lab's per-game features, ``games/features.py``, on this game's standings after every turn, a turn
begun where the lab's begins), and the biggest swing (the turn that changed one seat's margin
over the best of the others the most). Served once the end is committed: the game is over,
every pile face up, so nothing hidden while it was played is told before its time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from sqlalchemy import select

from sheepfold.core.deadline import check
from sheepfold.core.registry import game_spec
from sheepfold.core.words import Msg
from sheepfold.server import i18n
from sheepfold.server.clients import CLIENT, ManagerDep
from sheepfold.server.profiles import ordinal, places_of
from sheepfold.server.storage import profile_games_t
from sheepfold.server.table_requests import table_or_404

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

router = APIRouter(dependencies=CLIENT)


def rating_changes(table: Table) -> dict[int, dict[str, int]]:
    """Each rated seat's rating before and after the game (seat -> ``{"before", "after"}``),
    the numbers people see, as the profiles wrote them when it ended (server/profiles.py's
    ``record``; server/ratings.py's ``shown``). A seat whose game was not rated is left out."""
    from sheepfold.server.ratings import shown

    g = profile_games_t.c
    q = select(g.seat, g.rating_before, g.rating_after).where(g.table_id == table.id)
    with table.manager.storage.engine.connect() as c:
        rows = c.execute(q).all()
    return {
        r.seat: {"before": shown(r.rating_before), "after": shown(r.rating_after)}
        for r in rows
        if r.rating_before is not None and r.rating_after is not None
    }


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


def results_table(table: Table) -> list[dict[str, Any]]:
    """The finished table's seats by place (then by seat): place, its words, name, points,
    what the seat gathered (None where the game has no words for it) and its rating change."""
    places = places_of(table)
    scores = table.state.scores()
    view = table.state.observe(None)
    ratings = rating_changes(table)
    rows = [
        {
            "seat": s.seat,
            "place": places[s.seat],
            "place_words": ordinal(places[s.seat]),
            "name": table.seating.who(s.seat),
            "bot": s.kind == "bot" or s.stand_in is not None,
            "points": _number(scores[s.seat]),
            "gathered": table.driver.gathered(view, s.seat),  # the game's words (its driver)
            "rating": ratings.get(s.seat),
        }
        for s in table.seats
    ]
    return sorted(rows, key=lambda r: (r["place"], r["seat"]))


# -- the moments that decided it -----------------------------------------------------------------
def standings(table: Table) -> list[list[float]]:
    """The scores before the first turn and after each turn (a turn begins where the lab's
    begins: its game's ``move_boundary``, as lab/runner.py plays a game)."""
    boundary = game_spec(table.name).move_boundary
    probe = table.manager.new_state(table.game, table.seed)
    points: list[list[float]] = []
    for _, a in table.state.history:
        check()  # in a worker: stopped at its deadline
        if not probe.is_terminal() and boundary(probe):
            points.append(list(probe.scores()))
        probe.apply_unchecked(a)
    points.append(list(probe.scores()))
    return points


def _margins(scores: list[float]) -> list[float]:
    """Each seat's margin over the best of the others (negative: behind)."""
    return [x - max(scores[:i] + scores[i + 1 :]) for i, x in enumerate(scores)]


def _margin_words(m: float) -> str:
    if m > 0:
        return Msg("{n} ahead", n=_number(m))
    if m < 0:
        return Msg("{n} behind", n=_number(-m))
    return Msg("tied for the lead")


def moments(table: Table) -> list[str]:
    """The moments that decided the finished game, in words: the biggest swing, how often the
    lead changed hands, and when the winner took the lead for good."""
    import numpy as np

    from sheepfold.games.features import game_features

    points = standings(table)
    if len(points) < 2 or table.game.num_players < 2:
        return []
    who = table.seating.who
    out: list[str] = []
    # the biggest swing: the turn that moved one seat's margin the most (its gain, on a tie the
    # earliest turn)
    margins = [_margins(scores) for scores in points]
    best = (0.0, 0, 0)
    for turn in range(1, len(points)):
        for seat, (was, now) in enumerate(zip(margins[turn - 1], margins[turn], strict=True)):
            if now - was > best[0]:
                best = (now - was, turn, seat)
    gain, turn, seat = best
    if gain > 0:
        out.append(
            Msg(
                "The biggest swing: on turn {turn}, {name} went from {before} to {after}",
                turn=turn,
                name=who(seat),
                before=_margin_words(margins[turn - 1][seat]),
                after=_margin_words(margins[turn][seat]),
            )
        )
    # the lab's features: the lead changes and the turn the winner led from for good
    outcome = table.state.outcome()
    winners = list(outcome.winners) if outcome is not None and not outcome.truncated else []
    winner = winners[0] if len(winners) == 1 else -1
    after_turns = np.asarray(points[1:], dtype=np.float64).round().astype(np.int64)
    changes, _, _, decisive = game_features(
        np.array([0, len(after_turns)], dtype=np.int64), after_turns, np.array([winner])
    )[0]
    if changes == 0:
        out.append(Msg("The lead never changed hands"))
    elif changes == 1:
        out.append(Msg("The lead changed hands once"))
    else:
        out.append(Msg("The lead changed hands {n} times", n=int(changes)))
    if winner >= 0 and decisive == 0:
        out.append(Msg("{name} led from the first turn to the end", name=who(winner)))
    elif winner >= 0:
        out.append(
            Msg("{name} took the lead for good on turn {turn}", name=who(winner), turn=decisive + 1)
        )
    return out


def results_of(table: Table) -> dict[str, Any]:
    """The finished table's results (its rows by place) and the moments that decided it."""
    return {"rows": results_table(table), "moments": moments(table)}


@router.get("/api/tables/{table_id}/results")
async def results(table_id: str, request: Request, m: ManagerDep) -> dict[str, Any]:
    t = await table_or_404(m, table_id)
    if not t.finished() or t.dirty:
        raise HTTPException(409, Msg("the game is not over yet: its results show when it ends"))
    told = await m.off_loop(
        lambda: results_of(t),
        Msg(
            "this game's results take more than {seconds} s to work out, so this server stopped it",
            seconds=f"{m.settings.work_deadline:g}",
        ),
    )
    return i18n.localize(told, request.state.lang)  # type: ignore[no-any-return]
