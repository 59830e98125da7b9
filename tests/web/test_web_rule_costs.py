"""The web refuses, before anything runs, a rule set or a table that would cost more than a web
table allows (games/costs.py; issue 50, items 1, 2 and 5): the rules check points at the
option, a new table and the perfect bot's readiness answer 422 in words, and a table within
the limits still opens."""

from __future__ import annotations

from typing import Any

from sheepfold.games.shave_a_sheep import solver
from test_rule_costs import DEAL_STORM, PERFECT_STORM, SEARCH_STORM


def _table(srv: Any, game: str, rules: dict[str, Any], bot: str | None = None, path: str = ""):
    seats = [{"kind": "bot", "bot": bot} if bot else {}, {}]
    body = {"game": game, "rules": rules, "seats": seats}
    return srv.http.post(f"/api/tables{path}", json=body)


def test_the_rules_check_refuses_the_deal_storm_at_its_option(live_server):
    r = live_server.http.post("/api/rules/dolly-crush/check", json=DEAL_STORM)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is False
    words = "a deal or a turn could take up to 640,064 chance steps; a web table allows 40,000"
    assert body["errors"] == [
        {"field": "max_cleanup_rounds", "where": "max_cleanup_rounds", "message": words}
    ]
    # fewer clean-up rounds: the same flock is fine
    fine = {**DEAL_STORM, "max_cleanup_rounds": 600}
    assert live_server.http.post("/api/rules/dolly-crush/check", json=fine).json()["ok"]


def test_a_table_of_the_deal_storm_is_refused_before_its_deal(live_server):
    r = _table(live_server, "dolly-crush", DEAL_STORM)
    assert r.status_code == 422, r.text
    assert "640,064 chance steps; a web table allows 40,000" in r.json()["detail"]


def test_the_perfect_storm_is_refused_without_counting_positions(live_server, monkeypatch):
    def no_index(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the solver's position index was built in a request")

    monkeypatch.setattr(solver, "Space", no_index)
    for path in ("", "/ready?start=true"):
        r = _table(live_server, "shave-a-sheep", PERFECT_STORM, "perfect", path)
        assert r.status_code == 422, (path, r.text)
        assert "would solve 8,289,332,600 positions" in r.json()["detail"]
    r = _table(live_server, "shave-a-sheep", PERFECT_STORM, "greedy")
    assert r.status_code == 201, r.text  # the rule set itself is played


def test_an_expert_on_the_search_storm_is_refused_and_people_may_play_it(live_server):
    r = _table(live_server, "dolly-crush", SEARCH_STORM, "expert")
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail.startswith("the Expert bot could test up to ")
    assert detail.endswith("a web table allows 1,500,000,000: choose an easier bot")
    assert _table(live_server, "dolly-crush", SEARCH_STORM).status_code == 201


def test_the_gallery_refuses_to_publish_what_a_card_cannot_play(live_server):
    """A gallery card plays its games with the greedy bot: 20-swap cards on an 8 x 8 flock with
    diagonal swaps are over a card's search (a web table would take them, with people)."""
    from fastapi import HTTPException

    from sheepfold.server.gallery import checked_rules

    try:
        checked_rules("dolly-crush", SEARCH_STORM)
    except HTTPException as e:
        assert e.status_code == 422
        assert "the Greedy bot could test up to" in e.detail
        assert "a gallery card allows 50,000,000" in e.detail
    else:
        raise AssertionError("published")
