"""Issue 29: the rule editor's words in an Italian session (server/rules_api.py,
static/rules.js): each option's and part's label and description, what an entry of a list is
called, the words of each choice and the labels the editor says a place with, through
``GET /api/rules/{game}``; English reads as it always did."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

IT = {"Accept-Language": "it"}


def controls(ctl: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A control and every control inside it."""
    yield ctl
    for sub in (*ctl.get("fields", ()), ctl.get("item"), ctl.get("value")):
        if sub:
            yield from controls(sub)


def _rules(srv: Any, game: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = srv.http.get(f"/api/rules/{game}", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_the_rule_editors_options_read_in_italian(live_server: Any) -> None:
    it = {f["name"]: f for f in _rules(live_server, "dolly-crush", IT)["fields"]}
    en = {f["name"]: f for f in _rules(live_server, "dolly-crush")["fields"]}
    assert it["min_line"]["label"] == "Linea minima"
    assert it["min_line"]["description"] == "la linea più corta che conta"
    assert en["min_line"]["label"] == "Min line"
    assert en["min_line"]["description"] == "the shortest line that counts"
    # a description that names another option says it by its label, in the reader's words
    assert "“Punti delle bianche”" in it["points"]["description"]
    assert "“White points”" in en["points"]["description"]
    # and so does what an option left unset amounts to
    it_unset = _rules(live_server, "dolly-crush", IT)["unset"]["combinations"][0]
    assert "“Linea minima”" in it_unset and "“Stesso colore”" in it_unset
    assert "“Min line”" in _rules(live_server, "dolly-crush")["unset"]["combinations"][0]
    # a choice: offered as it is, said in words
    assert it["refill"]["choices"] == en["refill"]["choices"] == ["in-place", "gravity"]
    assert it["refill"]["words"] == ["sul posto", "gravità"]
    assert en["refill"]["words"] == ["in place", "gravity"]
    # a list's entry, and the labels the editor says a place with
    assert it["bonuses"]["noun"] == "premio" and en["bonuses"]["noun"] == "bonus"
    names = _rules(live_server, "dolly-crush", IT)["names"]
    assert names["white_per_type"] == "Bianche per tipo" and names["times"] == "Volte"
    assert _rules(live_server, "dolly-crush")["names"]["white_per_type"] == "White per type"


def test_every_word_of_the_shave_editor_is_italian(live_server: Any) -> None:
    """Every label, description and noun and every choice's words of Shave a Sheep's editor,
    the rule language's parts at any depth, differ from the English (all are translated)."""
    it = _rules(live_server, "shave-a-sheep", IT)
    en = _rules(live_server, "shave-a-sheep")
    pairs = [
        (a, b)
        for fi, fe in zip(it["fields"], en["fields"], strict=True)
        for a, b in zip(controls(fi), controls(fe), strict=True)
    ]
    said = 0
    for a, b in pairs:
        for key in ("label", "description", "about", "noun"):
            if b.get(key):
                assert a[key] != b[key], (key, b[key])
                said += 1
        if b.get("words"):
            assert a["choices"] == b["choices"]
            assert all(x != y for x, y in zip(a["words"], b["words"], strict=True)), a["words"]
            said += 1
    assert said > 60
    verbs = {f["name"]: f for f in it["fields"]}["verbs"]
    assert verbs["label"] == "Verbi" and verbs["noun"] == "verbo"
    assert it["names"]["max_wool"] == "Massimo di lana"
    # what an option left unset amounts to, the options it names by their labels
    assert it["unset"]["auto_shear"] == ["uguale a “Massimo di lana”, per esempio:", 5]
    assert en["unset"]["auto_shear"] == ["the same as “Max wool”, e.g.:", 5]
    assert set(it["unset"]) == set(en["unset"])
    assert all(it["unset"][k][0] != en["unset"][k][0] for k in en["unset"])
    assert all(it["unset"][k][1] == en["unset"][k][1] for k in en["unset"])
    checked = live_server.http.post(
        "/api/rules/shave-a-sheep/check", json={"max_wool": 4}, headers=IT
    ).json()
    assert checked["unset"]["auto_shear"] == ["uguale a “Massimo di lana”, per esempio:", 4]


def test_a_lab_card_reads_in_italian(make_server: Any, tmp_path: Any) -> None:
    """A gallery rule set's lab card: its plain sentence, its metrics' labels and the rule set
    it is measured against in Italian (the gallery's listing, a rule set, one version); in
    English as it always read."""
    from sheepfold.rulesets import find_ruleset  # noqa: F401  (the games registered)
    from sheepfold.server.gallery_store import GalleryStore
    from sheepfold.server.limits import Rate
    from sheepfold.server.storage import Storage

    db = str(tmp_path / "gallery.db")
    free = dict(create_rate=Rate(0, 0), join_rate=Rate(0, 0), max_open_tables=0)
    srv = make_server(db, lab_workers=0, **free)
    body = {"name": "Little wool", "author": "ewe", "description": "less", "rules": {"wool": 12}}
    assert srv.http.post("/api/gallery/shave-a-sheep", json=body).status_code == 201
    srv.stop()
    storage = Storage(db)
    store = GalleryStore(storage)
    [job] = store.queue()
    metric = {"rulebook": 30.0, "house": 12.0, "diff": -18.0, "lo": -19.0, "hi": -17.0, "p": 0.0}
    card = {
        "games": 100,
        "base": "the rulebook",
        "verdict": "This rule set makes games 60% shorter.",
        "metrics": [
            {**metric, "key": "length_mean", "label": "game length (turns), mean", "kind": "num"}
            | {"rel": -0.6, "significant": True},
            {**metric, "key": "balance", "label": "balance", "kind": "pct"}
            | {"rel": None, "diff": 0.1, "significant": True},
        ],
    }
    store.set_lab(job.id, status="done", progress=1.0, card=card)
    storage.close()
    srv = make_server(db, lab_workers=0, **free)
    for path in (
        "/api/gallery/shave-a-sheep/little-wool",
        "/api/gallery/shave-a-sheep/little-wool/1",
    ):
        it = srv.http.get(path, headers=IT).json()["lab"]
        assert it["headline"] == (
            "Con queste regole le partite durano il 60% in meno, e i posti vincono in modo più "
            "equilibrato che con il regolamento."
        )
        assert [m["label"] for m in it["metrics"]] == [
            "durata della partita (turni), media",
            "equilibrio",
        ]
        assert it["base"] == "il regolamento"
        en = srv.http.get(path).json()["lab"]
        assert en["headline"] == (
            "With these rules games get 60% shorter, and the seats win more evenly than with "
            "the rulebook."
        )
        assert [m["label"] for m in en["metrics"]] == ["game length (turns), mean", "balance"]
        assert en["base"] == "the rulebook"
        assert srv.http.get(path, headers=IT).json()["base"] == "il regolamento"
        assert srv.http.get(path).json()["base"] == "the rulebook"
    [listed] = srv.http.get("/api/gallery/shave-a-sheep", headers=IT).json()["entries"]
    assert listed["lab"]["headline"].startswith("Con queste regole le partite durano il 60%")


def test_a_history_entry_reads_in_italian(live_server: Any, ws_client: Any) -> None:
    """A finished game in a profile's history: its rules line (an option by its description,
    in the catalog) and its result in Italian; in English as it always read."""
    import random

    from test_profiles_api import join_as, make_profile, play_to_the_end

    from polling import wait_until

    zoe = make_profile(live_server.http, "Zoe")
    t = live_server.create(
        game="shave-a-sheep",
        rules={"wool": 6},
        auto_roll=True,
        seats=[{"kind": "human"}, {"kind": "bot"}],
        seed=8,
    )
    me = join_as(live_server, t["id"], zoe, 0)
    play_to_the_end(
        {0: ws_client(f"{live_server.ws_url}/ws/{t['id']}", me["token"])}, random.Random(1)
    )
    path = f"/api/profiles/{zoe['id']}"
    [en] = wait_until(
        lambda: live_server.http.get(path).json()["history"], what="the game in the history"
    )
    [it] = live_server.http.get(path, headers=IT).json()["history"]
    assert en["rules"] == "the rulebook, with pieces of wool in the middle at setup: 6"
    assert it["rules"] == "il regolamento, con pezzi di lana al centro all'inizio: 6"
    words = {"won": "vittoria", "2nd of 2": "2º su 2", "tied for first": "primo a pari merito"}
    assert it["result"] == words[en["result"]]
