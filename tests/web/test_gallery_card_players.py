"""A gallery card plays a rule set at the player counts it is meant for (issue 48): 2 and 4
players when it seats both, else the counts it seats (a file's teams, reaction weights), and
says which counts it played, each with its own figures and verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest

GAME = "shave-a-sheep"


def _made(srv: Any, monkeypatch: Any, name: str, rules: dict[str, Any]) -> tuple[Any, dict]:
    """A rule set published, its card made as the card's process makes it (the spec the server
    sends, 12 games a side, the rules engine: no kernel compiled) and stored by the server."""
    import sheepfold.lab.runner as lab_runner
    from sheepfold.lab import card

    body = {"author": "ewe", "description": "counts", "name": name, "rules": rules}
    r = srv.http.post(f"/api/gallery/{GAME}", json=body)
    assert r.status_code == 201, r.text
    gallery = srv.app.state.gallery
    version = gallery.store.version(GAME, r.json()["slug"], 1)
    spec = json.loads(json.dumps(gallery.lab._spec(version.id)))
    assert "players" not in spec  # the card chooses the counts from the rules
    monkeypatch.setattr(lab_runner, "resolve_engine", lambda job: "engine")
    made = json.loads(
        json.dumps(card.card({**spec, "games": 12, "exact_limit": 0}, lambda _: None))
    )
    gallery.lab._finish(version.id, made, 0, "")
    return version, made["card"]


def test_a_card_of_a_four_player_rule_set_has_two_and_four_players_results(
    make_server: Any, monkeypatch: Any
) -> None:
    srv = make_server(lab_workers=0)
    _, made = _made(srv, monkeypatch, "Short wool", {"wool": 20})
    assert made["players"] == [2, 4]
    parts = made["by_players"]
    assert [p["players"] for p in parts] == [2, 4]
    for p in parts:
        assert p["games"] == 12 and p["verdict"]
        assert {m["key"] for m in p["metrics"]} >= {"length_mean", "balance"}
    # at 4 players the games differ from 2 players': not one result copied
    lengths = [next(m["house"] for m in p["metrics"] if m["key"] == "length_mean") for p in parts]
    assert lengths[0] != lengths[1]
    lab = srv.http.get(f"/api/gallery/{GAME}/short-wool/1").json()["lab"]
    assert lab["status"] == "done" and lab["players"] == [2, 4]
    assert [p["players"] for p in lab["by_players"]] == [2, 4]
    assert all(isinstance(p["verdict"], str) and p["verdict"] for p in lab["by_players"])


@pytest.mark.parametrize(
    ("rules", "counts"),
    [
        ({"setup": {"teams": [[0, 1], [2, 3]]}}, [4]),  # the teams seat four
        ({"variants": ["howling-wolf"], "reaction_weights": [1, 1, 1]}, [3]),
    ],
)
def test_a_card_plays_only_the_counts_the_rule_set_seats(
    make_server: Any, monkeypatch: Any, rules: dict[str, Any], counts: list[int]
) -> None:
    """A rule set that seats only some counts is played at those (today: 2 players, refused)."""
    srv = make_server(lab_workers=0)
    version, made = _made(srv, monkeypatch, "Some seats", rules)
    assert made["players"] == counts
    assert [p["players"] for p in made["by_players"]] == counts
    assert srv.app.state.gallery.store.version(GAME, "some-seats", 1).lab_status == "done"
