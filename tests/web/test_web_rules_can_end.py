"""The web refuses what `sheepfold rules check` refuses, in the same words (issue 48, item 4): a
rule set under which no game can end (a die of only pink faces) is refused by the rules check
and by a new table, whose bots would otherwise play it for ever."""

from __future__ import annotations

from typing import Any

from sheepfold.games.endings import no_end

PINK = {"die": ["pink"]}
#: what `sheepfold rules check` says of such a file, after the file's name
REFUSED = no_end(2, None)


def test_a_new_table_refuses_a_rule_set_whose_games_cannot_end(live_server: Any) -> None:
    body = {"game": "shave-a-sheep", "rules": PINK, "seats": [{"kind": "bot"}] * 2}
    r = live_server.http.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"] == REFUSED
    assert live_server.http.get("/api/tables").json() == []
    ok = live_server.http.post("/api/tables", json={**body, "rules": {"wool": 8}})
    assert ok.status_code == 201, ok.text


def test_the_rules_check_refuses_it_in_the_same_words(live_server: Any) -> None:
    r = live_server.http.post("/api/rules/shave-a-sheep/check", json=PINK)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["ok"] is False and out["detail"] == REFUSED, out
    r = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        content=b'die = ["pink"]\n',
        headers={"content-type": "application/toml"},
    )
    assert r.json()["detail"] == REFUSED, r.text
    fine = live_server.http.post("/api/rules/shave-a-sheep/check", json={"wool": 8})
    assert fine.json()["ok"] is True, fine.text
