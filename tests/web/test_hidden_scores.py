"""Hidden scores stay hidden (issue 50, item 8): while a Dolly Crush table hides the scores
(``show_scores`` false, Dolly Crush ruling 9), no seat's view and no watcher's view holds a
number of another seat's score: not its score, its pile's cards or the points its bonuses by
length added (``bonus_points``, which every view used to carry); one's own show, and at the
end everything shows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sheepfold.core.drivers import table_driver
from sheepfold.games import make
from sheepfold.games.dolly_crush.game import DollyState

#: the rules of docs/rulesets/dolly-crush/five-scores-double.toml: a line of five scores double
BONUS_RULES = {"rows": 4, "cols": 6, "bonuses": [{"length": 5, "times": 2}]}
VIEWERS = (0, 1, 2, None)  # every seat and a watcher
DRIVER = table_driver("dolly-crush")


def mid_game() -> DollyState:
    """A game of three under ``BONUS_RULES`` after the deal, each seat with a pile and bonus
    points of its own (as turns would have left them)."""
    state = make("dolly-crush", players=3, rules=BONUS_RULES).new_initial_state(seed=5)
    assert isinstance(state, DollyState)
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    state.collected = [[0, 1], [2], [3, 4, 5]]
    state.bonus = [2, 4, 6]
    return state


def seen(state: DollyState, viewer: int | None, show_scores: bool = False) -> Any:
    """What the viewer's page is sent (the view as JSON, read back)."""
    return json.loads(json.dumps(DRIVER.view(state, viewer, show_scores)))


def with_other_hidden(state: DollyState, seat: int) -> DollyState:
    """``state`` with ``seat``'s hidden part changed: other cards in its pile (as many), more
    bonus points."""
    twin = state.clone()
    assert isinstance(twin, DollyState)
    kinds = state.game.board.kinds
    twin.collected[seat] = [(c + 1) % kinds for c in state.collected[seat]]
    twin.bonus[seat] += 7
    return twin


@pytest.mark.parametrize("viewer", VIEWERS)
def test_no_view_holds_a_number_of_anothers_hidden_score(viewer: int | None) -> None:
    state = mid_game()
    for seat in range(3):
        if seat == viewer:
            continue
        twin = with_other_hidden(state, seat)
        # the change shows when the scores show: the view below could tell it
        assert seen(twin, viewer, show_scores=True) != seen(state, viewer, show_scores=True)
        assert seen(twin, viewer) == seen(state, viewer), f"seat {seat}'s score leaks"
    view = seen(state, viewer)
    for seat in range(3):
        mine = seat == viewer
        assert (view["scores"][seat] is not None) == mine
        assert (view["bonus_points"][seat] is not None) == mine
        assert view["bonus_points"][seat] == (state.bonus[seat] if mine else None)
        assert len(view["collected"][seat]) == len(state.collected[seat])  # its size is public
    assert view["unseen"] is None


def test_every_number_shows_when_the_table_shows_scores_or_the_game_is_over() -> None:
    state = mid_game()
    for viewer in VIEWERS:
        assert seen(state, viewer, show_scores=True)["bonus_points"] == [2, 4, 6]
    over = state.clone()
    assert isinstance(over, DollyState)
    rng = random.Random(0)
    while not over.is_terminal():
        chance = over.is_chance_node()
        over.apply(over.sample_chance(rng) if chance else rng.choice(over.legal_actions()))
    for viewer in VIEWERS:
        view = seen(over, viewer)
        assert view["bonus_points"] == over.bonus and view["scores"] == over.scores()


def test_the_wire_hides_them_from_every_seat_and_watcher(live_server: Any, ws_client: Any) -> None:
    """The state messages of a live table that hides scores, for each seat and a watcher."""
    srv = live_server
    t = srv.create(game="dolly-crush", seats=[{}, {}], rules=BONUS_RULES, show_scores=False)
    url = f"{srv.ws_url}/ws/{t['id']}"
    clients: dict[int | None, Any] = {
        seat: ws_client(url, srv.join(t["id"], f"P{seat}")["token"]) for seat in (0, 1)
    }
    clients[None] = ws_client(url)
    for viewer, c in clients.items():
        assert c.last_state["you"] == viewer
        view = c.last_state["view"]
        own = [viewer == s for s in (0, 1)]
        assert [v is not None for v in view["bonus_points"]] == own
        assert [v is not None for v in view["scores"]] == own
