"""Friends over real HTTP (server/friends.py): made once both added each other, a free seat
saved for a friend invited by name, a table for the host's friends only; each from addresses
of its own (tests/web/addresses.py), bounded per address and per profile."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx
import pytest
from addresses import http_from, ipv4

from sheepfold.server import friends as friends_module
from sheepfold.server.limits import Rate
from sheepfold.server.profiles import HEADER

TWO = {"game": "shave-a-sheep", "seats": [{"kind": "human"}, {"kind": "human"}]}


class Person:
    """A person with a profile, whose requests come from an address of their own."""

    def __init__(self, server: Any, name: str, n: int) -> None:
        self.http = http_from(server.url, ipv4(n))
        r = self.http.post("/api/profiles", json={"name": name})
        assert r.status_code == 201, r.text
        self.profile = r.json()
        self.id = self.profile["id"]
        self.http.headers[HEADER] = self.profile["secret"]

    def friends(self) -> dict[str, Any]:
        r = self.http.get("/api/friends")
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def add(self, other: Person) -> httpx.Response:
        return self.http.post(f"/api/friends/{other.id}")

    def sit(self, table: str, seat: int) -> httpx.Response:
        return self.http.post(f"/api/tables/{table}/join", json={"name": "x", "seat": seat})


def names(entries: list[dict[str, Any]]) -> list[str]:
    return [e["name"] for e in entries]


def befriend(a: Person, b: Person) -> None:
    assert a.add(b).json()["friends"] is False  # a request, until b adds a back
    assert b.add(a).json()["friends"] is True


@pytest.fixture
def family(live_server: Any) -> tuple[Person, Person, Person]:
    return (
        Person(live_server, "Ann", 0),
        Person(live_server, "Ben", 1),
        Person(live_server, "Cy", 2),
    )


def test_friends_are_friends_once_both_added_and_either_can_end_it(family):
    ann, ben, _ = family
    assert ann.add(ben).json()["friends"] is False
    assert names(ben.friends()["asked_you"]) == ["Ann"] and ben.friends()["friends"] == []
    assert names(ann.friends()["you_asked"]) == ["Ben"]
    assert ben.add(ann).json()["friends"] is True
    for me, other in ((ann, "Ben"), (ben, "Ann")):
        got = me.friends()
        assert names(got["friends"]) == [other] and got["asked_you"] == got["you_asked"] == []
        assert got["friends"][0]["link"].startswith("/players/")
    assert ann.add(ben).json()["friends"] is True  # adding again changes nothing
    assert ben.http.delete(f"/api/friends/{ann.id}").status_code == 200
    assert ann.friends()["friends"] == [] == ben.friends()["friends"]
    assert ann.friends()["asked_you"] == []  # removed for both, not a request left behind
    r = ann.add(ann)
    assert r.status_code == 422 and "your own profile" in r.json()["detail"]
    assert ann.http.post("/api/friends/nobody").status_code == 404
    assert ann.http.post("/api/friends/x.y").status_code == 404  # not an id's form
    assert httpx.get(f"{ann.http.base_url}/api/friends").status_code == 401  # no profile


def test_a_seat_saved_for_a_friend_by_name_is_theirs_to_take_or_decline(live_server, family):
    ann, ben, cy = family
    table = live_server.create(**TWO)["id"]
    r = ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "name": "Ben"})
    assert r.status_code == 403 and "take a seat" in r.json()["detail"]
    assert ann.sit(table, 0).status_code == 200
    r = ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "name": "Ben"})
    assert r.status_code == 403
    assert r.json()["detail"].startswith('"Ben" is not one of your friends')
    befriend(ann, ben)
    for bad, where in (
        ({"seat": 1, "name": "B\u202een"}, "name"),  # a stranger's text: plain text only
        ({"seat": 1, "name": "x" * 33}, "name"),
        ({"seat": 9, "name": "Ben"}, "seat"),
        ({"seat": 1}, "the friend's name"),
        ({"seat": 1, "friend": "x.y" + "z" * 40}, "friend"),  # not an id's form
    ):
        r = ann.http.post(f"/api/tables/{table}/invite", json=bad)
        assert r.status_code == 422 and where in r.json()["detail"], r.text
    r = ann.http.post(f"/api/tables/{table}/invite", json={"seat": 0, "name": "Ben"})
    assert r.status_code == 409 and "seat 1 is not free" in r.json()["detail"]
    r = ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "name": "ben"})
    assert r.status_code == 201, r.text
    seat = live_server.http.get(f"/api/tables/{table}").json()["seats"][1]
    assert seat["free"] is False and seat["held_for"] == "Ben"
    # Ann's "Your tables" says whom the seat is saved for (it said "a free seat")
    [entry] = ann.http.get("/api/profiles/me/tables").json()
    assert (entry["seats"][1]["free"], entry["seats"][1]["held_for"]) == (False, "Ben")
    # nobody else takes it: not by its number, not as "any free seat", not with a profile
    r = live_server.http.post(f"/api/tables/{table}/join", json={"name": "Zed", "seat": 1})
    assert r.status_code == 409 and r.json()["detail"] == "seat 2 is saved for Ben"
    assert (
        live_server.http.post(f"/api/tables/{table}/join", json={"name": "Zed"}).status_code == 409
    )
    assert cy.sit(table, 1).status_code == 409
    # Ben sees it, declines it: the seat is free again
    (inv,) = ben.friends()["invitations"]
    assert (inv["from"], inv["seat"], inv["link"]) == ("Ann", 1, f"/t/{table}")
    assert names([{"name": i["to"]} for i in ann.friends()["invited"]]) == ["Ben"]
    assert cy.http.delete(f"/api/invitations/{inv['id']}").status_code == 404  # not Cy's
    assert ben.http.delete(f"/api/invitations/{inv['id']}").status_code == 200
    seat = live_server.http.get(f"/api/tables/{table}").json()["seats"][1]
    assert seat["free"] is True and seat["held_for"] is None
    assert ben.friends()["invitations"] == []
    # invited again (by id this time), Ben accepts: the seat is his profile's
    r = ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "friend": ben.id})
    assert r.status_code == 201
    (inv,) = ben.friends()["invitations"]
    r = ben.http.post(f"/api/invitations/{inv['id']}/accept")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1 and r.json()["seat_link"].startswith(f"/t/{table}#seat=")
    seat = live_server.http.get(f"/api/tables/{table}").json()["seats"][1]
    assert (seat["name"], seat["profile"], seat["held_for"]) == ("Ben", ben.id, None)
    assert ben.friends()["invitations"] == [] and ann.friends()["invited"] == []


def test_removing_a_friend_frees_the_seat_saved_for_them(live_server, family):
    ann, ben, _ = family
    table = live_server.create(**TWO)["id"]
    ann.sit(table, 0)
    befriend(ann, ben)
    assert (
        ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "name": "Ben"}).status_code
        == 201
    )
    ann.http.delete(f"/api/friends/{ben.id}")
    assert live_server.http.get(f"/api/tables/{table}").json()["seats"][1]["free"] is True
    assert ben.friends()["invitations"] == []


def test_a_table_for_friends_only_is_listed_and_open_to_the_hosts_friends_only(live_server, family):
    ann, ben, cy = family
    r = live_server.http.post("/api/tables", json={**TWO, "who_may_sit": "friends"})
    assert r.status_code == 401 and "needs your profile" in r.json()["detail"]
    r = ann.http.post("/api/tables", json={**TWO, "who_may_sit": "anyone, really"})
    assert r.status_code == 422 and "who_may_sit" in r.json()["detail"]
    r = ann.http.post("/api/tables", json={**TWO, "who_may_sit": "friends"})
    assert r.status_code == 201, r.text
    info = r.json()
    table = info["id"]
    assert info["friends_only"] is True and info["private"] is True and len(table) == 16
    assert ann.sit(table, 0).status_code == 200  # the host sits
    befriend(ann, ben)
    lobby = [t["id"] for t in live_server.http.get("/api/tables").json()]
    assert table not in lobby  # never in the lobby
    (listed,) = ben.friends()["tables"]
    assert (listed["id"], listed["friends"], listed["free"]) == (table, ["Ann"], 1)
    assert listed["friends_only"] is True
    assert cy.friends()["tables"] == []  # not Cy's friend
    # a seat: refused to anyone else, even with the link, in words
    r = live_server.http.post(f"/api/tables/{table}/join", json={"name": "Zed"})
    assert r.status_code == 409 and r.json()["detail"].startswith(
        "This table is for the host's friends"
    )
    r = cy.sit(table, 1)
    assert r.status_code == 409 and "ask Ann to add you as a friend" in r.json()["detail"]
    r = ben.sit(table, 1)
    assert r.status_code == 200, r.text
    # a friend's table elsewhere: a private table's link is never listed to friends
    other = ann.http.post("/api/tables", json={**TWO, "private": True}).json()["id"]
    ann.sit(other, 0)
    assert [t["id"] for t in ben.friends()["tables"]] == [table]


def test_friend_requests_and_invitations_are_rate_limited_per_address(make_server):
    server = make_server(invite_rate=Rate(1 / 3600, 2))
    ann, ben, cy, dee = (Person(server, n, i) for i, n in enumerate(("Ann", "Ben", "Cy", "Dee")))
    assert ann.add(ben).status_code == 200
    assert ann.add(cy).status_code == 200
    r = ann.add(dee)
    assert r.status_code == 429 and "friend requests and invitations" in r.json()["detail"]
    assert dee.add(ann).status_code == 200  # another address: its own bucket


def test_a_profile_has_a_bounded_number_of_friends_and_invitations(
    live_server, family, monkeypatch
):
    ann, ben, cy = family
    monkeypatch.setattr(friends_module, "MAX_FRIENDS", 1)
    monkeypatch.setattr(friends_module, "MAX_INVITATIONS", 1)
    befriend(ann, ben)
    r = ann.add(cy)
    assert r.status_code == 409 and "at most 1" in r.json()["detail"]
    tables = [live_server.create(**TWO)["id"] for _ in range(2)]
    for t in tables:
        ann.sit(t, 0)
    assert (
        ann.http.post(
            f"/api/tables/{tables[0]}/invite", json={"seat": 1, "name": "Ben"}
        ).status_code
        == 201
    )
    r = ann.http.post(f"/api/tables/{tables[1]}/invite", json={"seat": 1, "name": "Ben"})
    assert r.status_code == 409 and "invitations waiting already" in r.json()["detail"]


def test_friends_and_saved_seats_in_a_database_of_an_older_version_and_after_a_restart(
    make_server, tmp_path
):
    db = str(tmp_path / "old.db")
    server = make_server(db)
    server.stop()
    with sqlite3.connect(db) as c:  # as an older version made it: no friends' tables
        c.execute("DROP TABLE sf_friends")
        c.execute("DROP TABLE sf_invitations")
    server = make_server(db)
    ann, ben = Person(server, "Ann", 0), Person(server, "Ben", 1)
    befriend(ann, ben)
    table = server.create(**TWO)["id"]
    ann.sit(table, 0)
    assert (
        ann.http.post(f"/api/tables/{table}/invite", json={"seat": 1, "name": "Ben"}).status_code
        == 201
    )
    server.stop()
    server = make_server(db)  # the seat is still saved for Ben after a restart
    seat = server.http.get(f"/api/tables/{table}").json()["seats"][1]
    assert seat["free"] is False and seat["held_for"] == "Ben"
    r = server.http.post(f"/api/tables/{table}/join", json={"name": "Zed", "seat": 1})
    assert r.status_code == 409
    ben.http = http_from(server.url, ipv4(1), headers={HEADER: ben.profile["secret"]})
    (inv,) = ben.friends()["invitations"]
    assert inv["from"] == "Ann"
