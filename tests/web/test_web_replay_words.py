"""The web replay says the rules in play (issue 48, item 2): each frame of a finished game's
replay (``GET /api/tables/ID/replay``) says what the move did in the words of the table's rule
set, the log's words (server/replay.py), in the reader's language; never the engine's names of
the moves, a seat number or an identifier. What a frame says is what its view shows changed."""

from __future__ import annotations

import re
from typing import Any

from polling import wait_until

BOTS = [{"kind": "bot", "bot": "random"}] * 2
#: a seat's player in the server's words: the page writes the player's name there
MARK = re.compile(r"\{player (\d)\}")
#: what a person never reads: an engine's name of a move, a seat number, a snake_case key
RAW = re.compile(r"\bseat \d|\b[a-z]+_[a-z_]+\b|^(?:dog \d|swap [a-z]\d|wolf seat|grab seat)")
NUMBERS = {"one": 1, "two": 2, "three": 3}

#: Shave a Sheep under house rules: a double that takes three pieces, a wolf whose wool goes to
#: the roller, and a verb of the file's own (with a dash in its name) that shears another sheep
SHAVE = {
    "wool": 40,
    "max_wool": 30,
    "wolf_to": "roller",
    "die": ["x2", "x2", "gray", "shear-other", "white/green", "x2"],  # gray: the wolf, always
    "verbs": {
        "double": {"effects": [{"move": 3, "from": "middle", "to": "my sheep"}]},
        "shear-other": {"choose": "another player", "effects": [{"shear": "target"}]},
    },
}
#: Dolly Crush under house rules: diagonal swaps, and cards worth other points
DOLLY = {"adjacent": ["orthogonal", "diagonal"], "white_points": 3, "black_points": 5}


def replay(srv: Any, rules: dict[str, Any], game: str, **headers: str) -> list[dict[str, Any]]:
    """A game of two random bots under ``rules``, played to its end, and its replay's frames
    (in the language of ``headers``)."""
    t = srv.create(game=game, rules=rules, seats=BOTS, seed=7)
    table = srv.manager.get(t["id"])
    wait_until(lambda: table.finished() and not table.dirty, what="the bots' game to end")
    r = srv.http.get(f"/api/tables/{t['id']}/replay", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["frames"]


def moves(frames: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any], list[str]]]:
    """Each frame after the start with the view before it and its lines, a seat's player
    written as the page writes it (``player K``). Every frame says something, and never an
    engine's name."""
    out = []
    for before, f in zip(frames, frames[1:], strict=False):
        assert f["said"], f"a frame that says nothing: {f}"
        for line in f["said"]:
            assert not RAW.search(line), line
        out.append((before["view"], f, [MARK.sub(r"player \1", line) for line in f["said"]]))
    return out


def test_shave_replay_says_the_house_rules_moves(live_server: Any) -> None:
    frames = replay(live_server, SHAVE, "shave-a-sheep")
    assert frames[0]["event"] == "start" and frames[-1]["view"]["finished"]
    seen = set()
    for before, f, lines in moves(frames):
        if len(lines) > 1:  # the end's frame, or a rule fired after the move: told below
            continue
        me, after, text = f["seat"], f["view"], lines[0]
        if text.startswith("rolled "):
            verb, what = "rolled", text.removeprefix("rolled ")
        else:  # a decision: the player who made it by name (issue 51), then what it did
            said = re.fullmatch(r"player (\d) plays ([\w-]+): (.*)", text)
            assert said and int(said[1]) == me, text
            verb, what = said[2], said[3]
        seen.add(verb)
        if verb == "double":  # the file's double: three pieces, as many as the middle had
            said = re.search(rf"up to (\w+) pieces from the middle onto player {me}'s sheep", what)
            assert said, text
            grew = min(NUMBERS[said[1]], before["middle"], 30 - before["sheep"][me])
            assert after["sheep"][me] - before["sheep"][me] == grew, (text, before, after)
            assert before["middle"] - after["middle"] == grew, (text, before, after)
        elif verb == "wolf":  # wool_to roller: the bitten sheep's wool onto the roller's pile
            k = int(
                re.fullmatch(
                    rf"take all the wool from player (\d)'s sheep onto player {me}'s safe pile",
                    what,
                )[1]
            )  # type: ignore[index]
            assert after["sheep"][k] == 0, (text, before, after)
            assert after["piles"][me] - before["piles"][me] == before["sheep"][k], text
            assert after["middle"] == before["middle"], text
        elif verb == "shear-other":  # the file's own verb, in its effect's words
            k = int(re.fullmatch(r"shear player (\d)'s sheep onto its owner's safe pile", what)[1])  # type: ignore[index]
            assert k != me and after["sheep"][k] == 0, (text, before, after)
            assert after["piles"][me] == before["piles"][me], text
        elif verb == "rolled":  # the roll's frame: the roller's, the face the view shows
            assert f["seat"] == before["turn"] and after["roll"] in what, (text, after)
    assert {"double", "wolf", "shear-other", "rolled"} <= seen, seen
    assert frames[-1]["said"][-1].startswith("the game ends: the final shear"), frames[-1]


def test_dolly_replay_says_the_house_rules_points(live_server: Any) -> None:
    frames = replay(live_server, DOLLY, "dolly-crush")
    took = 0
    for before, f, lines in moves(frames):
        me, after, text = f["seat"], f["view"], " · ".join(lines)
        dog = re.match(r"played dog card (\d) \((\d) swaps?\)", text)
        if dog:  # the card as the page numbers them, from 1, gone from the seat's hand
            n = int(dog[1]) - 1
            assert n in before["dogs_left"][me] and n not in after["dogs_left"][me], text
        else:
            assert re.match(r"swapped [a-z]\d+ and [a-z]\d+|stopped swapping", text), text
        pile = len(after["collected"][me]) - len(before["collected"][me])
        gained = after["scores"][me] - before["scores"][me]
        said = re.search(r"took (\d+) sheep \((\d+) points?\)", text)
        if said:  # the sheep taken and their points under the file's points
            took += 1
            assert (int(said[1]), int(said[2])) == (pile, gained), (text, before, after)
        else:
            assert pile == 0 and gained == 0, (text, before, after)
    assert took, "no frame took sheep"


def test_a_wolf_race_is_the_grabbers_frame(make_server: Any) -> None:
    """Howling Wolf: a grab is a frame of the seat that won the race, then its pick's frame
    says whose sheep the wolf bites, in the rules' words."""
    srv = make_server(react_min=0.0, react_max=0.0)
    frames = replay(srv, {"from": "howling-wolf", "wool": 12}, "shave-a-sheep")
    races = 0
    for (_, grab, said), (_, pick, picked) in zip(moves(frames), moves(frames)[1:], strict=False):
        if said == [f"player {grab['seat']} grabbed the wolf"]:  # by name (issue 51)
            races += 1
            assert pick["seat"] == grab["seat"] and grab["view"]["phase"] == "howl-target"
            assert re.fullmatch(
                rf"player {grab['seat']} picks player \d's sheep: it loses .+", picked[0]
            ), picked
    assert races, "no race in the game"


def test_the_replay_speaks_the_readers_language(live_server: Any) -> None:
    frames = replay(live_server, SHAVE, "shave-a-sheep", **{"Accept-Language": "it"})
    rolls = [f for f in frames[1:] if f["said"][0].startswith("ha tirato ")]
    assert rolls and not any(line.startswith("rolled ") for f in frames for line in f["said"])
