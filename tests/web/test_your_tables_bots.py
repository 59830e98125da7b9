""" "Your tables" (issue 51): a bot's seat is named as a bot with its level, a free seat as
free and a person by name; it called every bot "a free seat" (server/profiles.py)."""

from __future__ import annotations

from test_profiles_api import SHORT_SHAVE, join_as, make_profile

from sheepfold.server.profiles import HEADER


def test_your_tables_tell_a_bot_from_a_free_seat_and_a_person(live_server):
    mia = make_profile(live_server.http, "Mia")
    t = live_server.create(
        **SHORT_SHAVE,
        own_pace=True,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}],
        seed=4,
    )
    join_as(live_server, t["id"], mia, 0)
    mine = live_server.http.get("/api/profiles/me/tables", headers={HEADER: mia["secret"]})
    [entry] = mine.json()
    you, bot, free = entry["seats"]
    assert (you["name"], you["person"], you["free"], you["bot"]) == ("Mia", True, False, None)
    assert (bot["person"], bot["free"], bot["bot"]) == (False, False, "greedy")
    assert (free["name"], free["person"], free["free"], free["bot"]) == (None, False, True, None)
