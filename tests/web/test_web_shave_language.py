"""A web table opens with each of the rule language's examples (docs/rulesets/shave-a-sheep/,
issue 27), through the server's API, and plays by its rules: the table's first view is the
engine's set-up of that rule file."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.games.shave_a_sheep.kernel import layout as L
from test_shave_language_kernel import examples_here, game_of


@pytest.mark.parametrize("name,players,opts", examples_here(), ids=[e[0] for e in examples_here()])
def test_a_table_opens_with_each_example(
    live_server: Any, ws_client: Any, name: str, players: int, opts: dict[str, Any]
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    t = live_server.create(game="shave-a-sheep", rules=opts, seats=seats, seed=4)
    info = live_server.http.get(f"/api/tables/{t['id']}").json()
    assert info["game"] == "shave-a-sheep" and len(info["seats"]) == players, info
    me = live_server.join(t["id"], "Zoe")
    assert me["token"]
    game = game_of(players, opts)
    start = game.new_initial_state(0)
    assert L.rules_record(game).shape == (L.PRM_LEN,)  # the fast paths play it too
    c = ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])
    view = c.last_state["view"]
    assert view["die"] == list(game.faces) and view["players"] == players, view
    if view["turns"] == 0 and view["phase"] == "roll":  # nobody has played yet
        assert view["sheep"] == start.sheep and view["middle"] == start.middle, view
