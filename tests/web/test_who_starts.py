"""Who starts (issue 51): a table opened without a choice draws its first player at random
(the rulebook's "best bleat" at a table of strangers: the host always started, and in a
4-player Dolly Crush game seat 0 won 40.5%), from the table's own seed, and says who in its
info and its log; the host's choice is kept; a rule file's ``[setup] first`` wins over the draw;
"Play again" draws again, everyone keeping their neighbours (server/seating.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from polling import wait_until
from sheepfold.server.limits import Rate
from sheepfold.server.seating import drawn_starter

BOTS = [{"kind": "bot", "bot": "random", "name": n} for n in ("Ann", "Ben", "Cy")]
DOLLY = {"game": "dolly-crush", "seats": [{"kind": "human"}, *BOTS]}


@pytest.fixture
def srv(make_server: Any) -> Any:
    """A server that opens as many tables as a test asks for."""
    return make_server(create_rate=Rate(0, 0), max_open_tables=0)


def opened(srv: Any, **spec: Any) -> dict[str, Any]:
    """A table opened as the lobby's API is asked (no first_player unless given)."""
    r = srv.http.post("/api/tables", json=spec)
    assert r.status_code == 201, r.text
    return r.json()


def names(info: dict[str, Any]) -> list[str | None]:
    return [s["name"] for s in info["seats"]]


def log_of(srv: Any, table: str) -> list[str]:
    return [e["text"] for e in srv.manager.get(table).log.events]


def test_a_table_without_a_choice_draws_who_starts_from_its_seed(srv: Any) -> None:
    written = [None, "Ann", "Ben", "Cy"]  # the person (no name yet), then the bots
    starters = Counter()
    for seed in range(12):
        info = opened(srv, **DOLLY, seed=seed)
        first = info["first"]
        assert first["how"] == "random" and first["seat"] == 0  # Dolly Crush: seat 0 starts
        k = first["turned"]
        assert k == drawn_starter(seed, 4)  # from the seed: a seeded table starts the same
        assert names(info) == written[k:] + written[:k]  # turned: everyone keeps neighbours
        starters[k] += 1
        assert log_of(srv, info["id"])[:2] == [  # the page names whoever sits at seat 0
            "the table is open",
            "{player 0} starts (drawn at random)",
        ]
    assert len(starters) == 4  # every seat started some table (the host did not always)
    # the same seed draws the same first player
    again = opened(srv, **DOLLY, seed=5)
    assert again["first"]["turned"] == drawn_starter(5, 4)


def test_the_draw_is_fair_over_many_seeds() -> None:
    counts = Counter(drawn_starter(seed, 4) for seed in range(4000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(900 < n < 1100 for n in counts.values()), counts


def test_the_hosts_choice_is_kept(srv: Any) -> None:
    info = opened(srv, **DOLLY, first_player=2, seed=1)
    assert info["first"] == {"seat": 0, "how": "chosen", "turned": 0}
    assert names(info) == ["Ben", "Cy", None, "Ann"]  # the chosen seat starts
    assert not any("drawn at random" in e for e in log_of(srv, info["id"]))
    # "pick at random" said out loud draws as the default does
    drawn = opened(srv, **DOLLY, first_player="random", seed=1)
    assert drawn["first"]["how"] == "random" and drawn["first"]["turned"] == drawn_starter(1, 4)


def test_a_rule_file_that_says_who_starts_wins_over_the_draw(srv: Any) -> None:
    for seed in range(6):
        info = opened(
            srv,
            game="shave-a-sheep",
            rules={"setup": {"first": 1}},
            seats=[{"kind": "human"}, *BOTS[:2]],
            seed=seed,
        )
        assert info["first"] == {"seat": 1, "how": None, "turned": 0}
        assert names(info) == [None, "Ann", "Ben"]  # as written: Ann (seat 2) starts


def test_play_again_draws_again_and_everyone_keeps_their_neighbours(srv: Any) -> None:
    bots = [{"kind": "bot", "bot": "random", "name": n} for n in ("Ann", "Ben", "Cy", "Dee")]
    spec = {"game": "shave-a-sheep", "rules": {"wool": 6}, "auto_roll": True, "seats": bots}
    old = opened(srv, **spec, seed=2)
    wait_until(
        lambda: srv.http.get(f"/api/tables/{old['id']}").json()["finished"], what="the bots' end"
    )
    r = srv.http.post(f"/api/tables/{old['id']}/again")
    assert r.status_code == 201, r.text
    new = r.json()
    table = srv.manager.get(new["id"])
    k = new["first"]["turned"]
    assert new["first"]["how"] == "random" and k == drawn_starter(table.seed, 4)
    # the same bots in the same order round the table: old seat i is seat i - k now
    assert all(names(new)[(i - k) % 4] == name for i, name in enumerate(names(old))), (
        names(old),
        names(new),
        k,
    )
    assert any("starts (drawn at random)" in e for e in log_of(srv, new["id"]))
    # over many "Play again" tables each seat would start: the draw uses each new table's seed
    assert len({drawn_starter(seed, 4) for seed in range(2, 14)}) == 4
