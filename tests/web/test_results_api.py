"""An end that tells the story (issue 51): GET /api/tables/{id}/results, a finished table's
results (place, name, points, what each seat gathered, the rating before and after for rated
people) and the moments that decided it (the biggest swing, the lead changes: the lab's
per-game features on this game's standings), in words (server/results.py)."""

from __future__ import annotations

import random
from typing import Any

from test_profiles_api import SHORT_SHAVE, join_as, make_profile, play_to_the_end

from polling import wait_until
from sheepfold.games.shave_a_sheep.words import pieces
from sheepfold.server.results import standings


def lead_story(points: list[list[float]], winner: int) -> tuple[int, int]:
    """The test's own count, as games/features.py documents it: (lead changes, the turn the
    winner led from for good). The leader after a turn: the strictly highest score."""
    changes, last, good_from = 0, None, 1
    for turn, scores in enumerate(points[1:], start=1):
        top = max(scores)
        leader = scores.index(top) if scores.count(top) == 1 else None
        if leader is not None:
            changes += last is not None and leader != last
            last = leader
        if leader != winner:
            good_from = turn + 1
    return changes, good_from


def biggest_swing(points: list[list[float]]) -> int:
    """The turn that moved one seat's margin over the best of the others the most (the
    earliest of them)."""

    def margins(scores: list[float]) -> list[float]:
        return [x - max(scores[:i] + scores[i + 1 :]) for i, x in enumerate(scores)]

    gains = [
        (after - before, turn)
        for turn in range(1, len(points))
        for before, after in zip(margins(points[turn - 1]), margins(points[turn]), strict=True)
    ]
    best = max(g for g, _ in gains)
    return min(turn for g, turn in gains if g == best)


def finished_rated_game(srv: Any, ws_client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Mia and Leo (profiles) and the bot Timmy play a short Shave a Sheep game to the end,
    rated: the table and the final view."""
    mia, leo = make_profile(srv.http, "Mia"), make_profile(srv.http, "Leo")
    t = srv.create(**SHORT_SHAVE, seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}], seed=3)
    a, b = join_as(srv, t["id"], mia, 0), join_as(srv, t["id"], leo, 1)
    ca = ws_client(f"{srv.ws_url}/ws/{t['id']}", a["token"])
    cb = ws_client(f"{srv.ws_url}/ws/{t['id']}", b["token"])
    final = play_to_the_end({0: ca, 1: cb}, random.Random(4))
    for p in (mia, leo):  # the profiles wrote the result (and the ratings)
        wait_until(
            lambda p=p: srv.http.get(f"/api/profiles/{p['id']}").json()["history"],
            what="the game in the history",
        )
    return {**t, "mia": mia, "leo": leo}, final


def test_the_results_of_a_rated_game(live_server, ws_client):
    srv = live_server
    t, final = finished_rated_game(srv, ws_client)
    r = srv.http.get(f"/api/tables/{t['id']}/results")
    assert r.status_code == 200, r.text
    got = r.json()
    rows = got["rows"]
    # places, names and points: by place, each seat's as the game scored it
    assert sorted(row["seat"] for row in rows) == [0, 1, 2]
    names = {0: "Mia", 1: "Leo", 2: "Timmy"}
    for row in rows:
        assert row["name"] == names[row["seat"]]
        assert row["points"] == final["scores"][row["seat"]]
        better = [s for s in range(3) if final["scores"][s] > final["scores"][row["seat"]]]
        assert row["place"] == 1 + len(better)
        assert row["place_words"] == {1: "1st", 2: "2nd", 3: "3rd"}[row["place"]]
        # Shave a Sheep: the wool in the safe pile, in words (the final view's piles)
        pile, left = final["piles"][row["seat"]], final["sheep"][row["seat"]]
        said = f"{pieces(pile)} in the safe pile"
        assert row["gathered"] == (f"{said}, {pieces(left)} left on the sheep" if left else said)
    assert [row["place"] for row in rows] == sorted(row["place"] for row in rows)
    # the rating before and after, as the profiles show it; none for the bot
    for who, seat in (("mia", 0), ("leo", 1)):
        entry = srv.http.get(f"/api/profiles/{t[who]['id']}").json()["history"][0]
        row = next(x for x in rows if x["seat"] == seat)
        assert entry["rated"] and row["rating"] == {
            "before": entry["rating_before"],
            "after": entry["rating_after"],
        }
    assert next(x for x in rows if x["seat"] == 2)["rating"] is None
    assert next(x for x in rows if x["seat"] == 2)["bot"] is True
    # the moments, in words: the lead changes and the turn the winner led from for good, as
    # the test counts them on the game's standings
    points = standings(srv.manager.get(t["id"]))
    assert points[-1] == final["scores"]
    moments = got["moments"]
    winners = final["winners"]
    changes, good_from = lead_story(points, winners[0] if len(winners) == 1 else -1)
    said = {0: "The lead never changed hands", 1: "The lead changed hands once"}
    assert said.get(changes, f"The lead changed hands {changes} times") in moments
    if len(winners) == 1:
        name = names[winners[0]]
        assert (
            f"{name} led from the first turn to the end"
            if good_from == 1
            else f"{name} took the lead for good on turn {good_from}"
        ) in moments
    assert moments[0].startswith(f"The biggest swing: on turn {biggest_swing(points)}, ")
    assert "_" not in " ".join(moments)  # words, never identifiers


def test_the_results_wait_for_the_end(live_server):
    t = live_server.create(**SHORT_SHAVE, seats=[{"kind": "human"}] * 2, seed=1)
    r = live_server.http.get(f"/api/tables/{t['id']}/results")
    assert r.status_code == 409 and "not over yet" in r.json()["detail"]
    assert live_server.http.get("/api/tables/nosuch/results").status_code == 404


def test_dolly_crush_results_name_the_cards_each_seat_took(live_server, ws_client):
    bots = [{"kind": "bot", "bot": "greedy", "name": n} for n in ("Ann", "Ben")]
    t = live_server.create(game="dolly-crush", seats=bots, seed=7)
    final = wait_until(
        lambda: (v := live_server.http.get(f"/api/tables/{t['id']}").json())["finished"] and v,
        what="the bots' end",
    )
    rows = live_server.http.get(f"/api/tables/{t['id']}/results").json()["rows"]
    assert {row["name"] for row in rows} == {"Ann", "Ben"} and final["finished"]
    for row in rows:
        assert row["rating"] is None and row["bot"]
        words = row["gathered"]
        assert "-" not in words  # "2 white lamb cards", never "lamb-white"
        assert words == "no card" or ("white" in words or "black" in words)
    # in the reader's language (the Italian of static words and of the moments)
    italian = live_server.http.get(f"/api/tables/{t['id']}/results?lang=it").json()
    assert {row["place_words"] for row in italian["rows"]} <= {"1º", "2º"}
    assert any(m.startswith("Il comando") for m in italian["moments"]), italian["moments"]
