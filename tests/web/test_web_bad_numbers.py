"""Bad numbers and endless rules on the web (issue 50): NaN, infinities and 1e400 (JSON or
TOML) are refused with the field named, never a 500; ``max_turns`` has an upper bound; rules
under which no game can end open no table (people's or bots' alone) and publish nothing."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest
from fastapi import HTTPException

from polling import run_async
from sheepfold.server.gallery import refuse_endless

_addresses = (f"127.0.{b}.{c}" for b, c in itertools.product(range(60, 250), range(2, 250)))
HUGE = 2**63
ENDLESS = {"die": ["pink"]}  # a shear only: the middle never empties
SHAVE = "shave-a-sheep"


def post(srv: Any, path: str, body: Any) -> httpx.Response:
    """``body`` (JSON text, or an object) posted from an address of its own (no rate limit
    counts one test's requests together)."""
    transport = httpx.HTTPTransport(local_address=next(_addresses))
    with httpx.Client(base_url=srv.url, transport=transport, timeout=60) as c:
        if isinstance(body, str):
            headers = {"content-type": "application/toml" if "=" in body else "application/json"}
            return c.post(path, content=body, headers=headers)
        return c.post(path, json=body)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"wool": NaN}', "wool: not a number (NaN)"),
        ('{"wool": Infinity}', "wool: not a finite number (Infinity)"),
        ('{"max_wool": -Infinity}', "max_wool: not a finite number (-Infinity)"),
        ('{"wool": 1e400}', "wool: not a finite number (1e400)"),
        ('{"reaction_weights": [1, NaN]}', "reaction_weights.1: not a number (NaN)"),
        ("wool = nan", "wool: not a number (nan)"),
        ("wool = inf", "wool: not a finite number (inf)"),
        ("reaction_weights = [1.0, -inf]", "reaction_weights.1: not a finite number (-inf)"),
    ],
)
def test_the_rules_check_refuses_numbers_that_are_not_finite(live_server, body, said):
    r = post(live_server, f"/api/rules/{SHAVE}/check", body)
    assert r.status_code == 422, r.text
    assert r.json()["ok"] is False and said in r.json()["detail"]


def test_every_front_end_refuses_bad_numbers_with_the_field_named(live_server):
    seats = '"seats": [{}, {}]'
    for rules, said in (
        ('{"wool": NaN}', "rules.wool"),
        ('{"wool": 1e400}', "rules.wool"),
        ('{"reaction_weights": [1, Infinity]}', "rules.reaction_weights"),
        (f'{{"max_turns": {HUGE}}}', "rules.max_turns"),
    ):
        r = post(live_server, "/api/tables", f'{{"game": "{SHAVE}", {seats}, "rules": {rules}}}')
        assert r.status_code == 400 and said in r.json()["detail"], r.text
        published = f'{{"name": "n", "author": "ann", "rules": {rules}}}'
        r = post(live_server, f"/api/gallery/{SHAVE}", published)
        assert r.status_code == 422 and said.removeprefix("rules.") in r.json()["detail"], r.text
    r = post(live_server, f"/api/rules/{SHAVE}/check", {"max_turns": HUGE})
    assert r.status_code == 200 and r.json()["errors"][0]["field"] == "max_turns"
    assert "at most 1000000" in r.json()["detail"]


def test_rules_under_which_no_game_can_end_open_no_table(live_server):
    for seats in ([{}, {}], [{"kind": "bot", "bot": "random"}] * 2):
        r = post(live_server, "/api/tables", {"game": SHAVE, "seats": seats, "rules": ENDLESS})
        assert r.status_code == 422 and "no game can end" in r.json()["detail"], r.text
    r = post(live_server, f"/api/rules/{SHAVE}/check", ENDLESS)
    assert r.json()["ok"] is False and "no game can end" in r.json()["detail"]
    r = post(
        live_server, f"/api/gallery/{SHAVE}", {"name": "forever", "author": "ann", "rules": ENDLESS}
    )
    assert r.status_code == 422 and "no game can end" in r.json()["detail"], r.text
    # a rule set that can end opens its table, bots alone too
    seats = [{"kind": "bot", "bot": "random"}] * 2
    r = post(live_server, "/api/tables", {"game": SHAVE, "seats": seats, "rules": {"wool": 8}})
    assert r.status_code == 201, r.text


def test_a_gallery_rule_set_under_which_no_game_can_end_is_refused():
    """The check the publish routes make (server/gallery.py ``refuse_endless``): the words of
    ``sheepfold rules check``; rules the model refuses are left to the model's check."""
    with pytest.raises(HTTPException) as refused:
        run_async(refuse_endless(SHAVE, ENDLESS))
    assert refused.value.status_code == 422 and "no game can end" in str(refused.value.detail)
    run_async(refuse_endless(SHAVE, {"wool": 8}))
    run_async(refuse_endless(SHAVE, {"wool": "many"}))
