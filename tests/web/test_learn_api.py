"""The lessons' API and pages (server/learn.py): a lesson table, the coach's hint and who may have
one, the pages' routes, and the limits (from several client addresses)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sheepfold.server.limits import Rate


@pytest.fixture
def at() -> Iterator[Any]:
    """``at(srv, "127.0.0.7")``: an HTTP client of ``srv`` from that address."""
    made: list[httpx.Client] = []

    def make(srv: Any, address: str) -> httpx.Client:
        c = httpx.Client(
            base_url=srv.url, timeout=10, transport=httpx.HTTPTransport(local_address=address)
        )
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def lesson(srv: Any, game: str, http: httpx.Client | None = None, **body: Any) -> dict[str, Any]:
    r = (http or srv.http).post(f"/api/learn/{game}", json={"name": "Mia", **body})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("game", ["dolly-crush", "shave-a-sheep"])
def test_a_lesson_is_a_private_table_against_the_gentle_bot_with_the_seat_taken(live_server, game):
    got = lesson(live_server, game, seed=4)
    assert got["url"] == f"/learn/{game}/{got['table']}" and got["seat"] == 0
    info = live_server.http.get(f"/api/tables/{got['table']}").json()
    assert info["private"] and not info["replace_leavers"]
    people, bot = info["seats"]
    assert people["name"] == "Mia" and not people["free"]
    assert bot["kind"] == "bot" and bot["bot"] == ("easy" if game == "dolly-crush" else "random")
    assert info["ruleset"] == ("dolly-graded" if game == "dolly-crush" else "shave-rulebook")
    assert live_server.http.get("/api/tables").json() == []  # never in the lobby
    for page in (f"/learn/{game}", got["url"], f"/rules/{game}"):
        r = live_server.http.get(page)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"], page
        assert "Content-Security-Policy" in r.headers
    lesson_page = live_server.http.get(got["url"]).text
    assert 'id="coach"' in lesson_page and "/static/learn.js" in lesson_page
    assert "/static/table.js" in lesson_page  # the table page itself, with the coach


def test_the_hint_is_the_coach_bots_whole_turn_and_it_plays(live_server):
    got = lesson(live_server, "dolly-crush", seed=4)
    r = live_server.http.post(f"/api/tables/{got['table']}/hint", json={"token": got["token"]})
    assert r.status_code == 200, r.text
    hint = r.json()
    table = live_server.manager.get(got["table"])
    assert hint["seq"] == table.stored
    dog, *swaps = hint["actions"]
    assert dog.startswith("dog ") and all(s.startswith("swap ") for s in swaps)
    state = table.state.clone()
    before = state.scores()[0]
    for a in hint["actions"]:
        state.apply(state.string_to_action(a))  # legal, in this order
    assert state.current_player() != 0  # the whole turn
    assert state.scores()[0] - before == hint["gain"]
    # asked again: the same answer (computed once per position)
    again = live_server.http.post(f"/api/tables/{got['table']}/hint", json={"token": got["token"]})
    assert again.json() == hint


def test_no_hint_for_a_stranger_at_a_table_with_people_or_when_it_is_not_your_decision(
    live_server,
):
    got = lesson(live_server, "shave-a-sheep", seed=4)
    url = f"/api/tables/{got['table']}/hint"
    # a roll (chance) is not a decision: nothing to suggest
    assert live_server.http.post(url, json={"token": got["token"]}).json()["actions"] == []
    r = live_server.http.post(url, json={"token": "not-a-seat"})
    assert r.status_code == 403 and "not valid" in r.json()["detail"]
    assert live_server.http.post(url, json={"token": got["token"], "x": 1}).status_code == 422
    assert live_server.http.post(url, json={"token": "x" * 201}).status_code == 422
    assert live_server.http.post("/api/tables/nope/hint", json={"token": "t"}).status_code == 404
    t = live_server.create(game="dolly-crush", seats=[{}, {}])
    me = live_server.join(t["id"], "Ada")
    r = live_server.http.post(f"/api/tables/{t['id']}/hint", json={"token": me["token"]})
    assert r.status_code == 409 and "every other player is a bot" in r.json()["detail"]


def test_unknown_lessons_and_bad_names_are_refused_with_words(live_server):
    r = live_server.http.post("/api/learn/chess", json={"name": "Mia"})
    assert r.status_code == 404 and "lessons: dolly-crush, shave-a-sheep" in r.json()["detail"]
    assert live_server.http.get("/learn/chess").status_code == 404
    assert live_server.http.get("/rules/chess").status_code == 404
    r = live_server.http.post("/api/learn/dolly-crush", json={"name": "Mi\u202ea"})
    assert r.status_code == 422 and "U+202E" in r.json()["detail"]
    assert live_server.http.post("/api/learn/dolly-crush", json={"name": ""}).status_code == 422
    assert live_server.manager.tables == {}  # nothing half-made


def test_a_seed_only_on_a_test_server(make_server):
    srv = make_server(allow_seed=False)
    r = srv.http.post("/api/learn/dolly-crush", json={"name": "Mia", "seed": 3})
    assert r.status_code == 400 and "this server chooses the seeds" in r.json()["detail"]
    assert lesson(srv, "dolly-crush")["table"]


def test_hints_and_lessons_are_limited_per_address(make_server, at):
    srv = make_server(read_rate=Rate(0.001, 3), create_rate=Rate(0.001, 2))
    greedy, honest = at(srv, "127.0.0.2"), at(srv, "127.0.0.3")
    got = lesson(srv, "dolly-crush", greedy)
    lesson(srv, "dolly-crush", greedy)
    r = greedy.post("/api/learn/dolly-crush", json={"name": "Mia"})
    assert r.status_code == 429 and "Retry-After" in r.headers
    url = f"/api/tables/{got['table']}/hint"
    codes = [greedy.post(url, json={"token": got["token"]}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    mine = lesson(srv, "shave-a-sheep", honest)  # another address: its own budget
    assert honest.post(url, json={"token": got["token"]}).status_code == 200
    assert (
        honest.post(f"/api/tables/{mine['table']}/hint", json={"token": mine["token"]}).status_code
        == 200
    )


def test_the_lesson_page_is_the_table_page_with_the_coach(tmp_path):
    from sheepfold.server.api_site import STATIC
    from sheepfold.server.learn import lesson_table_page

    html = lesson_table_page(STATIC)
    assert html.count('id="coach"') == 1 and html.index('id="coach"') < html.index('id="banner"')
    assert html.index("/static/table.js") < html.index("/static/learn.js")
    (tmp_path / "table.html").write_text("<html><body>a changed page</body></html>")
    with pytest.raises(RuntimeError, match="anchor"):
        lesson_table_page(tmp_path)
