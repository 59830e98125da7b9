"""Seat names are unique at a table under Unicode look-alikes (issue 50, item 11): "Ann",
"ann" and "Аnn" (a Cyrillic A) are one name; a person's join with a name that passes for
another seat's, a bot's included, is refused with words naming that seat and changes nothing;
a name the server gives (a profile's, a lesson's learner's, a leaver's bot) is numbered
instead; and a chat line says the seat beside the name."""

from __future__ import annotations

from typing import Any

import pytest

from sheepfold.server.limits import Rate
from sheepfold.server.profiles import HEADER
from sheepfold.server.texts import skeleton

#: names that pass for "Ann": case, a Cyrillic А, full-width letters, an accent (a combining
#: mark), a zero-width joiner inside, a Greek capital alpha, spaces around
ANNS = (
    "ann",
    "ANN",
    "\u0410nn",
    "\uff21\uff4e\uff4e",
    "A\u0301nn",
    "A\u200dnn",
    "\u0391nn",
    " Ann ",
)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        *(("Ann", a) for a in ANNS),
        ("Alice", "AIice"),  # a capital I for the l
        ("Alice", "A1ice"),  # a one for the l
        ("Bob", "B0b"),  # a zero for the o
        ("Kim", "Kirn"),  # rn for the m
        ("Mia", "\u039cia"),  # a Greek capital mu
        ("Helen", "\u0397elen"),  # a Greek capital eta
        ("Ann Lee", "Ann\u00a0 Lee"),  # a no-break space and a space
        ("Ann (bot)", "Ann \uff08bot\uff09"),  # full-width brackets
    ],
)
def test_look_alikes_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anna"), ("Tom", "Tim"), ("Bo", "Bob")])
def test_different_names_stay_different(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def seats(srv: Any, table: str) -> list[dict[str, Any]]:
    r = srv.http.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    return [{k: s[k] for k in ("name", "free", "kind")} for s in r.json()["seats"]]


def test_a_name_that_passes_for_another_seats_is_refused_and_changes_nothing(
    make_server: Any,
) -> None:
    srv = make_server(join_rate=Rate(1, 100))  # each refused join takes a token too
    t = srv.create(game="shave-a-sheep", seats=[{"kind": "bot", "name": "Dolly"}, {}, {}])
    srv.join(t["id"], "Ann", 1)
    before = seats(srv, t["id"])
    for name in ANNS:
        r = srv.http.post(f"/api/tables/{t['id']}/join", json={"name": name, "seat": 2})
        assert r.status_code == 409, (name, r.text)
        shown = name.strip()
        assert r.json()["detail"] == (
            f'"{shown}" looks like the name of seat 2 at this table ("Ann"): choose another name'
        )
    # a bot's name counts too
    r = srv.http.post(f"/api/tables/{t['id']}/join", json={"name": "d0lly"})
    assert r.status_code == 409
    assert r.json()["detail"] == (
        '"d0lly" looks like the name of seat 1 at this table ("Dolly"): choose another name'
    )
    assert seats(srv, t["id"]) == before  # nothing was taken
    assert srv.join(t["id"], "Anna", 2)["seat"] == 2  # a name of its own sits down


def test_a_table_whose_bots_look_alike_is_refused(live_server: Any) -> None:
    srv = live_server
    listed = len(srv.http.get("/api/tables").json())
    bots = [{"kind": "bot", "name": "Dolly"}, {"kind": "bot", "name": "D\u043elly"}]  # о
    r = srv.http.post("/api/tables", json={"game": "shave-a-sheep", "seats": [{}, *bots]})
    assert r.status_code == 400, r.text
    assert r.json()["detail"] == (
        'seats.2.name: "D\u043elly" looks like seats.1.name ("Dolly"): '
        "each seat needs a name of its own"
    )
    assert len(srv.http.get("/api/tables").json()) == listed  # no table was made
    # the default names of bots (one per seat) never clash
    t = srv.create(game="shave-a-sheep", seats=[{"kind": "bot"}] * 4)
    names = [s["name"] for s in seats(srv, t["id"])]
    assert len({skeleton(n) for n in names}) == 4


def test_names_the_server_gives_are_numbered(live_server: Any, ws_client: Any) -> None:
    srv = live_server
    # a profile's name was not chosen for this table: its seat takes the next number
    t = srv.create(game="shave-a-sheep", seats=[{}, {}])
    ann = srv.join(t["id"], "Ann", 0)
    r = srv.http.post("/api/profiles", json={"name": "ANN (bot)"})
    assert r.status_code == 201, r.text
    r = srv.http.post(
        f"/api/tables/{t['id']}/join",
        json={"name": "ignored", "seat": 1},
        headers={HEADER: r.json()["secret"]},
    )
    assert r.status_code == 200, r.text
    # Ann leaves: the bot that plays on for her is numbered past the name like its own
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", ann["token"])
    c.send({"type": "leave"})
    c.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "bot")
    assert [s["name"] for s in seats(srv, t["id"])] == ["Ann (bot) 2", "ANN (bot)"]
    # a learner named as the lesson's bot
    r = srv.http.post("/api/learn/shave-a-sheep", json={"name": "shaun"})
    assert r.status_code == 201, r.text
    assert [s["name"] for s in seats(srv, r.json()["table"])] == ["shaun 2", "Shaun"]


def test_a_chat_line_carries_the_seat(live_server: Any, ws_client: Any) -> None:
    srv = live_server
    t = srv.create(game="shave-a-sheep", seats=[{}, {}])
    srv.join(t["id"], "Ann", 0)
    other = srv.join(t["id"], "\u0410nna", 1)  # Cyrillic А: "Anna" is not "Ann"
    c = ws_client(f"{srv.ws_url}/ws/{t['id']}", other["token"])
    c.send({"type": "chat", "text": "hi, I am Ann", "ref": "chat"})
    line = c.wait(lambda m: m["type"] == "chat")["line"]
    assert (line["who"], line["seat"]) == ("\u0410nna", 1)  # the page shows "(seat 2)"
