"""Fair play in ratings (issue 50, item 7; issue 51: stand-ins): a rated game needs two people
who each made moves of their own, from different addresses; the same two people (or the same
two addresses) are rated together once a day; a person who went away is rated as last, and a
game bots finished for everyone is not rated (server/ratings.py: ``judge``)."""

from __future__ import annotations

import random
from typing import Any

from test_profiles_api import client_from, make_profile, play_to_the_end

from polling import wait_until
from sheepfold.server.limits import Rate
from sheepfold.server.profiles import HEADER
from sheepfold.server.ratings import MIN_OWN_MOVES, START, Person, judge

ONE_MOVE = {"game": "shave-a-sheep", "rules": {"wool": 1}, "auto_roll": True}  # the issue's farm
LONGER = {"game": "shave-a-sheep", "rules": {"wool": 12}, "auto_roll": True}
TWO = [{"kind": "human"}, {"kind": "human"}]
OPEN = dict(
    create_rate=Rate(0, 0), join_rate=Rate(0, 0), message_rate=Rate(0, 0), max_open_tables=0
)


def never(a: Person, b: Person) -> bool:
    return False


def person(profile: str, key: str, moves: int = MIN_OWN_MOVES, away: bool = False, place: int = 1):
    return Person(profile, key, moves, away, place)


# -- the rules, one by one -------------------------------------------------------------------
def test_two_people_from_two_addresses_who_each_moved_are_rated_by_their_places():
    v = judge([person("a", "10.0.0.1", place=1), person("b", "10.0.0.2", place=2)], never)
    assert v.ranks == {"a": 1, "b": 2} and v.notes == {}


def test_one_address_holding_both_seats_is_not_rated():
    v = judge([person("a", "10.0.0.1"), person("b", "10.0.0.1", place=2)], never)
    assert v.ranks == {}
    assert v.notes["a"] == "not rated: another player took a seat from your address"
    # an IPv6 /64 is one address (its client key)
    v = judge([person("a", "2001:db8::/64"), person("b", "2001:db8::/64", place=2)], never)
    assert v.ranks == {}


def test_a_person_who_made_fewer_own_moves_than_asked_is_not_rated_and_nor_is_their_opponent():
    v = judge([person("a", "10.0.0.1"), person("b", "10.0.0.2", moves=1, place=2)], never)
    assert v.ranks == {}
    assert v.notes["b"] == f"not rated: you made fewer than {MIN_OWN_MOVES} moves yourself"
    assert v.notes["a"].startswith("not rated: a rated game needs two people")


def test_a_three_person_game_rates_the_two_who_played_it():
    people = [
        person("a", "10.0.0.1", place=2),
        person("b", "10.0.0.2", place=3),
        person("c", "10.0.0.3", moves=0, place=1),  # a one-move win by the third: no play
    ]
    v = judge(people, never)
    assert v.ranks == {"a": 2, "b": 3} and set(v.notes) == {"c"}


def test_a_person_who_went_away_is_rated_as_last_and_the_one_who_stayed_keeps_the_game():
    # the stand-in won for the leaver: the one who stayed to the end is ahead in the rating
    v = judge([person("a", "10.0.0.1", away=True), person("b", "10.0.0.2", place=2)], never)
    assert v.ranks["b"] < v.ranks["a"] and v.left == {"a"}
    assert v.notes == {
        "a": "rated as last, and 40 points more for leaving: a bot finished the game for you"
    }


def test_a_game_bots_finished_after_both_people_went_away_is_not_rated():
    v = judge([person("a", "10.0.0.1", away=True), person("b", "10.0.0.2", away=True)], never)
    assert v.ranks == {}
    assert v.notes["a"] == v.notes["b"] == "not rated: bots finished the game for everyone"


def test_the_same_two_people_are_rated_together_once_a_day():
    a, b, c = person("a", "10.0.0.1"), person("b", "10.0.0.2", place=2), person("c", "10.0.0.3")
    v = judge([a, b], lambda x, y: {x.profile, y.profile} == {"a", "b"})
    assert v.ranks == {} and "in the last 24 hours" in v.notes["a"]
    assert judge([a, c], lambda x, y: {x.profile, y.profile} == {"a", "b"}).ranks


# -- over the server: the issue's farm, stand-ins, an honest game ---------------------------
def seat(srv: Any, spec: dict[str, Any], *who: tuple[dict[str, Any], str]) -> tuple[str, list]:
    """A new table of ``spec`` with each (profile, address) of ``who`` in its seat, in order:
    the table's id, and each seat's token."""
    t = srv.create(**spec, seats=[{"kind": "human"}] * len(who))
    tokens = []
    for i, (profile, address) in enumerate(who):
        with client_from(srv, address) as http:
            r = http.post(
                f"/api/tables/{t['id']}/join",
                json={"name": "x", "seat": i},
                headers={HEADER: profile["secret"]},
            )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return t["id"], tokens


def play(srv: Any, ws_client: Any, table: str, tokens: list[str], seed: int) -> dict[str, Any]:
    clients = {i: ws_client(f"{srv.ws_url}/ws/{table}", tok) for i, tok in enumerate(tokens)}
    final = play_to_the_end(clients, random.Random(seed))
    for c in clients.values():
        c.close()
    return final


def history(srv: Any, profile: dict[str, Any], games: int) -> list[dict[str, Any]]:
    """The profile's history once its ``games`` games are in it (newest first)."""
    return wait_until(  # type: ignore[no-any-return]
        lambda: (
            len(h := srv.http.get(f"/api/profiles/{profile['id']}").json()["history"]) >= games
            and h
        ),
        what=f"{games} games in the history",
    )


def test_the_issue_farm_one_address_two_profiles_one_move_games_does_not_climb(
    make_server, ws_client
):
    """The issue's farm: one address, two profiles, a one-move house rule, game after game.
    None of it is rated and the leaderboard stays empty; then an honest game between the
    farmer and someone else, from two addresses, is rated as always."""
    srv = make_server(**OPEN)
    home = client_from(srv, "127.0.0.20")
    farmer, puppet = make_profile(home, "Farmer"), make_profile(home, "Puppet")
    for k in range(8):
        table, tokens = seat(srv, ONE_MOVE, (farmer, "127.0.0.20"), (puppet, "127.0.0.20"))
        play(srv, ws_client, table, tokens, k)
    for entry in history(srv, farmer, 8):
        assert not entry["rated"] and entry["rating_note"].startswith("not rated")
    me = srv.http.get(f"/api/profiles/{farmer['id']}").json()
    assert me["ratings"] == []
    assert srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"] == []
    # an honest game: the farmer and Zoe, from two addresses, each playing their moves
    zoe = make_profile(client_from(srv, "127.0.0.21"), "Zoe")
    table, tokens = seat(srv, LONGER, (farmer, "127.0.0.20"), (zoe, "127.0.0.21"))
    play(srv, ws_client, table, tokens, 100)
    latest = history(srv, farmer, 9)[0]
    assert latest["table"] == table and latest["rated"] and latest["rating_note"] is None
    board = srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"]
    assert {r["name"] for r in board} == {"Farmer", "Zoe"}
    assert all(r["games"] == 1 for r in board)  # the farm added nothing
    home.close()


def test_two_addresses_farming_each_other_are_rated_once_a_day(make_server, ws_client):
    """The farm from two addresses (and a fresh profile on each side): the first game counts,
    the same pair of people, or of addresses, plays unrated for the next 24 hours."""
    srv = make_server(**OPEN)
    a, b = client_from(srv, "127.0.0.30"), client_from(srv, "127.0.0.31")
    ann, bob, bob2 = make_profile(a, "Ann"), make_profile(b, "Bob"), make_profile(b, "Bob 2")
    for k, (one, two) in enumerate([(ann, bob), (ann, bob), (ann, bob2)]):
        table, tokens = seat(srv, LONGER, (one, "127.0.0.30"), (two, "127.0.0.31"))
        play(srv, ws_client, table, tokens, k)
    first, *later = reversed(history(srv, ann, 3))
    assert first["rated"]
    for entry in later:
        assert not entry["rated"]
        assert entry["rating_note"] == (
            "not rated: the same players had a rated game together in the last 24 hours"
        )
    ratings = srv.http.get(f"/api/profiles/{ann['id']}").json()["ratings"]
    assert ratings[0]["games"] == 1
    a.close()
    b.close()


def test_stand_ins_moves_are_not_a_persons_a_game_they_finished_for_both_is_not_rated_and_a_leaver_is_last(
    make_server, ws_client
):
    """Issue 51: both people make their moves, go away, and the stand-ins finish: not rated
    for either (the bug: it was). A person who made one move before a stand-in played the
    rest of their game made one move: not rated, nor is the game for the one who stayed. One
    who made their moves and walked away is rated as last; the one who stayed is rated."""
    srv = make_server(**OPEN, leave_grace=0.05)
    a, b = client_from(srv, "127.0.0.40"), client_from(srv, "127.0.0.41")
    ann, bob = make_profile(a, "Ann"), make_profile(b, "Bob")
    rng = random.Random(7)

    def moves_then_away(table: str, tokens: list[str], moves: list[int]) -> None:
        """Each seat's person makes ``moves[seat]`` moves, then closes its connection (a bot
        stands in for them after the grace); until they all left, or the game is over."""
        clients = {i: ws_client(f"{srv.ws_url}/ws/{table}", tok) for i, tok in enumerate(tokens)}
        made = [0] * len(tokens)
        while clients:
            watcher = next(iter(clients.values()))
            st = watcher.wait_state(
                lambda m: m["view"]["finished"] or m["view"]["to_move"] in clients
            )
            if st["view"]["finished"]:
                break
            seat, seq = st["view"]["to_move"], st["seq"]
            me = clients[seat]
            me.wait_state(lambda m, seq=seq: m["seq"] >= seq)
            me.send({"type": "act", "action": rng.choice(me.last_state["view"]["legal_actions"])})
            made[seat] += 1
            for c in clients.values():  # each past the move: none answers an old state
                c.wait_state(lambda m, seq=seq: m["seq"] > seq)
            if made[seat] >= moves[seat]:
                clients.pop(seat).close()

    table, tokens = seat(srv, LONGER, (ann, "127.0.0.40"), (bob, "127.0.0.41"))
    moves_then_away(table, tokens, [MIN_OWN_MOVES, MIN_OWN_MOVES])
    both = history(srv, ann, 1)[0]
    assert both["table"] == table and not both["rated"]
    assert both["rating_note"] == "not rated: bots finished the game for everyone"
    assert srv.manager.get(table).seats[0].moves == MIN_OWN_MOVES  # theirs, not the stand-in's

    table, tokens = seat(srv, LONGER, (ann, "127.0.0.40"), (bob, "127.0.0.41"))
    moves_then_away(table, tokens, [1, 1000])  # Bob plays to the end, Ann's stand-in too
    entries = {p["name"]: history(srv, p, 2)[0] for p in (ann, bob)}
    assert all(e["table"] == table and not e["rated"] for e in entries.values())
    assert entries["Ann"]["rating_note"] == (
        f"not rated: you made fewer than {MIN_OWN_MOVES} moves yourself"
    )
    assert srv.http.get("/api/leaderboard/shave-a-sheep").json()["rows"] == []

    # Ann plays her moves and walks away, Bob plays to the end: rated, Ann as last (whatever
    # her stand-in made of her seat), Bob ahead of her
    table, tokens = seat(srv, LONGER, (ann, "127.0.0.40"), (bob, "127.0.0.41"))
    moves_then_away(table, tokens, [MIN_OWN_MOVES, 1000])
    entries = {p["name"]: history(srv, p, 3)[0] for p in (ann, bob)}
    assert all(e["table"] == table and e["rated"] for e in entries.values())
    assert entries["Ann"]["rating_note"] == (
        "rated as last, and 40 points more for leaving: a bot finished the game for you"
    )
    assert entries["Bob"]["rating_note"] is None
    assert entries["Bob"]["rating_after"] > START > entries["Ann"]["rating_after"]
    # reliability: a game left counts against it (the first: both left; the second: Ann left
    # after one move of hers), a game played to the end for it
    mine = {p["name"]: srv.http.get(f"/api/profiles/{p['id']}").json() for p in (ann, bob)}
    assert mine["Ann"]["reliability"]["words"] == "finished 0 of 3 games (0%)"
    assert mine["Bob"]["reliability"]["words"] == "finished 2 of 3 games (66%)"
    a.close()
    b.close()


def test_the_leaderboard_page_says_the_rule_the_server_applies():
    from pathlib import Path

    import sheepfold.server
    from sheepfold.server.i18n import page_texts

    page = (Path(sheepfold.server.__file__).parent / "static" / "leaderboard.html").read_text()
    said = " ".join(words for _, words in page_texts(page))
    assert f"made {MIN_OWN_MOVES} moves or more themselves, from different addresses" in said
    assert "the same two people are rated together once a day" in said
