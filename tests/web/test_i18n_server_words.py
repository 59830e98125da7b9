"""Issue 29: the words the server builds, in an Italian session (server/i18n.py, core/words.py).

A house rule's sentences (each game's parts and an option's line), Shave a Sheep's log (a roll,
each kind of decision, the race, the end) and the server's errors (a bad intent, the chat's,
a rate limit, an HTTP error's detail, a validation problem) reach an Italian reader in Italian,
and an English reader in the English they always read.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sheepfold.core.drivers import ChanceStep
from sheepfold.games.shave_a_sheep import game as sg
from sheepfold.games.shave_a_sheep.game import ShaveGame
from sheepfold.games.shave_a_sheep.table import ShaveTable
from sheepfold.games.shave_a_sheep.terminal import end_reason
from sheepfold.rulesets import find_ruleset
from sheepfold.server.i18n import catalogs, localize
from sheepfold.server.limits import Rate

IT = {"Accept-Language": "it"}


def _house(srv: Any, table: str, headers: dict[str, str] | None = None) -> list[str]:
    r = srv.http.get(f"/api/tables/{table}/rules", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()["house_rules"]


def test_an_italian_table_of_each_game_reads_its_house_rules_in_italian(live_server: Any) -> None:
    dolly = live_server.create(game="dolly-crush", seats=[{}, {}], rules={"diagonals": True})
    it = _house(live_server, dolly["id"], IT)
    assert any(
        line.startswith(
            "Una combinazione è una linea di 3 o più carte di un solo tipo lungo una riga, "
            "una colonna o una diagonale"
        )
        and "(invece di: Una combinazione è una linea di 3 o più carte" in line
        for line in it
    ), it
    english = _house(live_server, dolly["id"])
    assert any(line.startswith("A combination is a line of 3 or more cards") for line in english)
    assert len(english) == len(it)

    shave = live_server.create(
        game="shave-a-sheep", seats=[{}, {}], rules={"wolf_takes": "half", "max_turns": 40}
    )
    it = _house(live_server, shave["id"], IT)
    assert (
        "lupo: scegli un altro giocatore: sposta tutta la lana dalla pecora del giocatore "
        "scelto al centro → scegli un altro giocatore: sposta metà della lana, arrotondando per "
        "eccesso, dalla pecora del giocatore scelto al centro"
    ) in it, it
    # an option no part says: its description (a text of the catalog) and its value
    assert "Solo per le simulazioni: fermati e segnala una partita interrotta: 40." in it
    english = _house(live_server, shave["id"])
    assert "Simulations only: stop and report a truncated game: 40." in english
    assert (
        "wolf: choose another player: take all the wool from the chosen player's sheep back to "
        "the middle → choose another player: take half the wool, rounded up, from the chosen "
        "player's sheep back to the middle"
    ) in english


def test_italian_shave_log_lines_for_rolls_every_decision_and_the_end() -> None:
    """Howling Wolf with a reroll: a roll, a decision with its effects, a pass, a reroll, the
    race's pick and the race's words, the end's note and the end reason."""
    rules = find_ruleset("howling-wolf", "shave-a-sheep").rules.model_copy(update={"rerolls": 1})
    table = ShaveTable()
    seen: dict[str, tuple[str, str]] = {}
    ends = []
    for seed in range(6):
        rng = random.Random(seed)
        s = ShaveGame(3, rules).new_initial_state(seed=seed)
        while not s.is_terminal():
            who = s.current_player()
            a = rng.choice(s.legal_actions()) if who >= 0 else s.sample_chance()
            for _seat, text in table.narrate(s.clone(), who, a, True):
                seen.setdefault(str(text), (text, localize(text, "it")))
            s.apply(a)
        ends.append(localize(end_reason(s, ["Mia", "Leo", "Ada"]), "it"))
    said = {it for _en, it in seen.values()}
    assert "ha tirato rosa/bianco (tosa o cresci)" in said  # a roll
    assert "ha tirato grigio/bianco (la corsa al lupo, poi {player 0} può cresci)" in said
    # the decisions (issue 51): the player who made it, each printed verb with what it does,
    # every player by name ({player K}: the page names them, static/table.js), never "tua"
    assert (
        "{player 0} gioca «cresci»: sposta un pezzo dal centro sulla pecora di {player 0}" in said
    )
    assert (
        "{player 1} gioca «doppio»: sposta fino a due pezzi dal centro sulla pecora di {player 1}"
        in said
    )
    assert (
        "{player 2} gioca «tosa»: tosa la pecora di {player 2} nel mucchio al sicuro del suo "
        "padrone" in said
    )
    assert (
        "{player 0} gioca «scambio»: scambia la pecora di {player 0} con la pecora di {player 1}"
        in said
    )
    assert "{player 0} passa" in said and "{player 1} tira di nuovo il dado" in said
    assert any(
        " sceglie la pecora di {player " in t and t.endswith(": perde un pezzo") for t in said
    )
    assert not [t for t in said if " tua " in t or " tuo " in t], said
    assert any(t.startswith("Tosatura automatica: la pecora di {player ") for t in said), said
    assert (
        "la partita finisce: la tosatura finale sposta la lana di ogni pecora nel suo mucchio "
        "al sicuro"
    ) in said
    # every line the log said had its Italian (no English text left over)
    for english, italian in seen.values():
        assert english != italian, english
    assert ends and all(e.startswith("La partita è finita perché") for e in ends), ends
    race = table.chance(_at_grab(rules), {})
    assert isinstance(race, ChanceStep) and race.kind == "race"
    assert localize(race.won, "it") == "ha afferrato per primo il lupo!"
    assert localize(race.unclaimed, "it") == "ha afferrato il lupo (nessuno ha ululato in tempo)"


def _at_grab(rules: Any) -> Any:
    """A Howling Wolf state at its race (a gray face rolled)."""
    for seed in range(50):
        s = ShaveGame(3, rules).new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if s.is_terminal():
                break
            if s.phase == sg.GRAB:
                return s
            s.apply(rng.choice(s.legal_actions()) if s.current_player() >= 0 else s.sample_chance())
    raise AssertionError("no race in 50 games")


def test_an_italian_shave_table_logs_and_ends_in_italian(live_server: Any, ws_client: Any) -> None:
    t = live_server.create(
        game="shave-a-sheep", rules={"wool": 3}, seats=[{"kind": "bot"}, {"kind": "bot"}]
    )
    it = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang=it")
    end = it.wait_state(lambda m: m["ended"] is not None, timeout=60)
    assert end["ended"].startswith("La partita è finita perché"), end["ended"]
    texts = [e["text"] for e in end["events"]]
    assert any(x.startswith("la partita finisce: la tosatura finale") for x in texts), texts
    en = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang=en")
    assert en.wait_state(lambda m: True)["ended"].startswith("The game ended because")


def test_server_errors_in_italian(make_server: Any, ws_client: Any) -> None:
    srv = make_server(chat_rate=Rate(0.01, 3), check_rate=Rate(1e-6, 1))
    t = srv.create(game="shave-a-sheep", seats=[{}, {}], auto_roll=True)
    mia, leo = srv.join(t["id"], "Mia", 0), srv.join(t["id"], "Leo", 1)
    url = f"{srv.ws_url}/ws/{t['id']}?lang=it"
    a = ws_client(url, mia["token"], source="127.0.0.2")
    b = ws_client(url, leo["token"], source="127.0.0.2")  # the same address as Mia
    a.wait_state(lambda m: m["view"]["phase"] == "choose")

    def error(c: Any) -> str:
        return str(c.wait(lambda m: m["type"] == "error")["message"])

    a.send("{not json")
    assert error(a) == "non è JSON: un messaggio è un oggetto JSON con un 'type'"
    a.send({"type": "dance"})
    assert error(a).startswith("tipo di messaggio sconosciuto 'dance' (un tavolo di")
    a.send({"type": "act", "action": ["grow"]})
    assert error(a) == "'action' deve essere il nome di una mossa, come 'grow' o 'swap b2-b3'"
    b.send({"type": "chat_switch", "on": False})  # Leo is not the host
    assert error(b) == (
        "solo chi ospita (il primo posto tenuto da una persona) accende o spegne la chat"
    )
    a.send({"type": "chat", "text": "x" * 201})
    assert error(a) == "una riga di chat ha al massimo 200 caratteri (questa ne ha 201)"
    # the address's bucket (3 lines) empties before Leo's own: the address's refusal
    for c, n in ((a, 2), (b, 1)):
        for i in range(n):
            c.send({"type": "chat", "text": f"ciao {i}"})
    b.wait(lambda m: m["type"] == "chat" and m["line"]["text"] == "ciao 0")
    b.send({"type": "chat", "text": "ancora"})
    assert error(b).startswith(
        "hai superato il limite di righe di chat dal tuo indirizzo (al massimo 3 alla volta, "
        "poi uno ogni 100 s): riprova tra"
    )
    # HTTP: a 4xx's detail, a validation problem, a rate limit's 429, by the request's language
    r = srv.http.get("/api/tables/nope/replay", headers=IT)
    assert r.status_code == 404 and r.json()["detail"] == "nessun tavolo 'nope'"
    assert srv.http.get("/api/tables/nope/replay").json()["detail"] == "no table 'nope'"
    r = srv.http.post("/api/tables?lang=it", json={"game": "dolly-crush", "seats": [{}], "x": 1})
    assert r.json()["detail"] == (
        "seats: richiede almeno 2 elementi, non 1; x: campo sconosciuto"
    ), r.text
    srv.http.cookies.clear()  # ?lang= is remembered: a reader of English again
    r = srv.http.post("/api/tables", json={"game": "dolly-crush", "seats": [{}], "x": 1})
    assert r.json()["detail"] == "seats: needs at least 2 items, not 1; x: unknown field"
    assert srv.http.post("/api/rules/shave-a-sheep/check", json={}).status_code == 200
    r = srv.http.post("/api/rules/shave-a-sheep/check", json={}, headers=IT)
    assert r.status_code == 429
    assert r.json()["detail"].startswith(
        "hai superato il limite di set di regole controllati dal tuo indirizzo"
    ), r.text


def test_an_italian_lab_card_reads_its_verdict_and_base_in_italian(
    make_server: Any, monkeypatch: Any
) -> None:
    """A card as its process makes it (the verdict and the base stored as data) reads in
    Italian, the base a built-in rule set's words; in English as the lab says it. A card stored
    before (plain text) shows its verdict as it is."""
    import json

    import sheepfold.lab.runner as lab_runner
    from sheepfold.core.words import from_data
    from sheepfold.lab import card

    srv = make_server(lab_workers=0)
    body = {"author": "ewe", "description": "free shears"}
    rules = {"from": "race-to-twelve", "shear_cost": 0, "rerolls": 0}
    for name in ("No costs", "Old card"):
        r = srv.http.post("/api/gallery/shave-a-sheep", json={**body, "name": name, "rules": rules})
        assert r.status_code == 201, r.text
    gallery = srv.app.state.gallery
    new, old = (gallery.store.version("shave-a-sheep", s, 1) for s in ("no-costs", "old-card"))
    spec = json.loads(json.dumps(gallery.lab._spec(new.id)))  # as the card's process reads it
    monkeypatch.setattr(lab_runner, "resolve_engine", lambda job: "engine")  # no kernel compiled
    warming: list[Any] = []
    # a budget of 1 ns: capped after the second chunk (the first is free); no exact figures
    # at 2 players only: the notes of one count (a card of several names each count's)
    made = card.card(
        {**spec, "players": 2, "games": 40, "seconds": 1e-9, "exact_limit": 0}, warming.append
    )
    stored = json.loads(json.dumps(made["card"]))  # the JSON line the server reads
    gallery.store.set_lab(new.id, progress=0.0, message=warming[0]["message"])
    said = srv.http.get("/api/gallery/shave-a-sheep/no-costs/1", headers=IT).json()["lab"]
    assert said["message"].startswith("avvio del simulatore"), said
    gallery.store.set_lab(
        new.id, status="done", progress=1.0, card=stored, message=stored["message"]
    )
    before = {
        "base": "the race to twelve rules",
        "verdict": "This rule set makes games 60% shorter.",
    }
    gallery.store.set_lab(old.id, status="done", progress=1.0, card=before)

    path = "/api/gallery/shave-a-sheep/no-costs/1"
    it, en = srv.http.get(path, headers=IT).json(), srv.http.get(path).json()
    assert en["lab"]["verdict"] == from_data(stored["verdict"])  # the lab's English
    assert "this rule set" in en["lab"]["verdict"].lower()
    assert "the race to twelve rules" in en["lab"]["verdict"]
    assert it["lab"]["verdict"].startswith("Questo set di regole"), it["lab"]["verdict"]
    assert "le regole «Corsa al dodici»" in it["lab"]["verdict"]
    for english in ("this rule set", "race to twelve", "measurabl", "games", "turns"):
        assert english not in it["lab"]["verdict"].lower(), it["lab"]["verdict"]
    assert it["lab"]["base"] == it["base"] == "le regole «Corsa al dodici»"
    assert en["lab"]["base"] == en["base"] == "the race to twelve rules"
    assert it["lab"]["headline"].endswith("con le regole «Corsa al dodici».")
    assert en["lab"]["message"].startswith("capped at 8 games a side (of 40): the time budget")
    assert "; no exact figures: " in en["lab"]["message"], en["lab"]["message"]
    assert it["lab"]["message"].startswith("fermato a 8 partite per parte (su 40)")
    assert "; nessun valore esatto: " in it["lab"]["message"], it["lab"]["message"]

    it = srv.http.get("/api/gallery/shave-a-sheep/old-card/1", headers=IT).json()["lab"]
    assert it["verdict"] == "This rule set makes games 60% shorter."  # as it was stored
    assert it["base"] == "le regole «Corsa al dodici»"  # a built-in's words: in the catalog


def test_an_italian_lab_card_writes_its_numbers_and_draws_its_plot_in_italian(
    make_server: Any, monkeypatch: Any
) -> None:
    """A card as its process makes it and the server stores it: its numbers (the verdict's, a
    capped run's "of 1,500") in Italian form, its plot drawn in Italian (labels, legend, the
    axes' decimal comma); the English card and plot are what the lab made, byte for byte. A
    plot stored before (one English SVG) is served to every reader as it is."""
    import json
    import re

    import sheepfold.lab.runner as lab_runner
    from sheepfold.core.words import from_data
    from sheepfold.lab import card

    srv = make_server(lab_workers=0)
    body = {"author": "ewe", "description": "free shears"}
    for name in ("No costs", "Old plot"):
        rules = {"shear_cost": 0, "rerolls": 0}
        r = srv.http.post("/api/gallery/shave-a-sheep", json={**body, "name": name, "rules": rules})
        assert r.status_code == 201, r.text
    gallery = srv.app.state.gallery
    new, old = (gallery.store.version("shave-a-sheep", s, 1) for s in ("no-costs", "old-plot"))
    spec = json.loads(json.dumps(gallery.lab._spec(new.id)))  # as the card's process reads it
    assert set(spec["catalogs"]) == set(catalogs()) - {"en"}  # every language but English
    monkeypatch.setattr(lab_runner, "resolve_engine", lambda job: "engine")  # no kernel compiled
    # a budget of 1 ns: capped after the second chunk (of 1,500 games); no exact figures
    made = card.card({**spec, "games": 1500, "seconds": 1e-9, "exact_limit": 0}, lambda _: None)
    gallery.lab._finish(new.id, json.loads(json.dumps(made)), 0, "")  # as the server stores it

    path = "/api/gallery/shave-a-sheep/no-costs/1"
    it, en = srv.http.get(path, headers=IT).json()["lab"], srv.http.get(path).json()["lab"]
    assert "(of 1,500)" in en["message"] and "(su 1.500)" in it["message"], it["message"]
    english = from_data(made["card"]["verdict"])
    assert en["verdict"] == english
    decimals = re.findall(r"\d+\.\d+", english)
    assert decimals, english  # the mean lengths: "(91.84 turns)"
    for number in decimals:
        assert number.replace(".", ",") in it["verdict"], (number, it["verdict"])
    assert not re.search(r"\d\.\d", it["verdict"]), it["verdict"]

    plot_it = srv.http.get(en["plot"], params={"lang": "it"})
    assert plot_it.headers["content-type"].startswith("image/svg+xml")
    svg = plot_it.text
    assert svg == made["plots"]["it"]
    for italian in ("Quanto durano le partite (partite finite)", "quota di partite (%)"):
        assert italian in svg
    assert re.search(r"il regolamento: media \d+,\d, mediana \d+ turni", svg), svg[-3000:]
    assert re.search(r">\d,\d</text>", svg)  # a tick of the share axis: "0,5"
    for english_word in ("How long games last", "share of games", "mean ", ">0.5<", "turns"):
        assert english_word not in svg, english_word
    english_plot = srv.http.get(en["plot"], params={"lang": "en"}).text  # (?lang= is remembered)
    assert english_plot == made["plot"]  # as the lab drew it
    assert "How long games last (finished games)" in made["plot"]

    gallery.store.set_lab(old.id, status="done", progress=1.0, card={}, plot="<svg>old</svg>")
    said = srv.http.get("/api/gallery/shave-a-sheep/old-plot/1/plot.svg", headers=IT)
    assert said.text == "<svg>old</svg>"


def test_a_card_refused_for_its_rules_says_why_in_italian(make_server: Any) -> None:
    """Rules that do not fit the card's two players: the card's process sends the rules' words
    as data, the gallery translates them (the English as the rules say it)."""
    import json

    from sheepfold.core.protocol import RulesError
    from sheepfold.games.shave_a_sheep.game import ShaveGame
    from sheepfold.games.shave_a_sheep.rules import ShaveRules
    from sheepfold.lab.card import _why

    srv = make_server(lab_workers=0)
    rules = {"variants": ["howling-wolf"], "reaction_weights": [1, 1, 1]}
    body = {"author": "ewe", "description": "three howls", "name": "Three howls", "rules": rules}
    assert srv.http.post("/api/gallery/shave-a-sheep", json=body).status_code == 201
    with pytest.raises(RulesError) as raised:
        ShaveGame(2, ShaveRules.model_validate(rules))
    refused = json.loads(json.dumps({"refused": _why(raised.value)}))
    gallery = srv.app.state.gallery
    version = gallery.store.version("shave-a-sheep", "three-howls", 1)
    gallery.lab._finish(version.id, refused, 1, "")
    path = "/api/gallery/shave-a-sheep/three-howls/1"
    en, it = srv.http.get(path).json()["lab"], srv.http.get(path, headers=IT).json()["lab"]
    assert en["status"] == it["status"] == "refused"
    assert en["message"] == "reaction_weights has 3 entries for 2 players"
    assert it["message"] == "reaction_weights ha 3 voci per 2 giocatori"
    failed = json.loads(json.dumps({"error": _why(ValueError("a\nb"))}))
    gallery.lab._finish(version.id, failed, 1, "")
    assert srv.http.get(path, headers=IT).json()["lab"]["message"] == "a"  # its first line


def test_a_bad_body_in_italian(live_server: Any) -> None:
    """A request body's problems in Italian: not JSON, none, a choice, a bound of one, a wrong
    type (its value in words)."""

    def detail(path: str, **kw: Any) -> str:
        r = live_server.http.post(path, headers={**IT, **kw.pop("headers", {})}, **kw)
        assert r.status_code == 422, r.text
        return str(r.json()["detail"])

    json_type = {"content-type": "application/json"}
    assert detail("/api/tables", content=b"{not json", headers=json_type) == (
        "il corpo della richiesta non è JSON valido"
    )
    assert detail("/api/tables") == "la richiesta non ha un corpo: ci vuole un oggetto JSON"
    spec = {"game": "dolly-crush", "seats": [{"kind": "robot"}, {}]}
    assert detail("/api/tables", json=spec) == (
        "seats.0.kind: atteso 'human' o 'bot', arrivato il testo \"robot\""
    )
    assert detail("/api/tables", json={"game": "dolly-crush", "seats": "x"}) == (
        'seats: atteso una lista, arrivato il testo "x"'
    )
    assert detail("/api/profiles", json={"name": ""}) == ("name: non deve essere vuoto")
    r = live_server.http.post("/api/tables", content=b"{not json", headers=json_type)
    assert r.json()["detail"] == "the request's body is not valid JSON"
    r = live_server.http.post("/api/tables", json=spec)
    assert r.json()["detail"] == "seats.0.kind: expected 'human' or 'bot', got the string \"robot\""


def test_a_bad_rule_set_in_italian(live_server: Any) -> None:
    """The rules' own errors (issue 29) reach an Italian reader in Italian wherever a rule set
    is refused: the rules' check (a bad face colour, a rule-language problem at its path, a
    bad Dolly breed, an unknown base), a table's rules and breeds, a gallery upload; an English
    reader reads the English the models always wrote."""

    def check(game: str, rules: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        r = live_server.http.post(f"/api/rules/{game}/check", json=rules, headers=headers)
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        assert out["ok"] is False, out
        return out

    colours = "(the colours are white, x2, green, gray, pink)"
    face = {"die": ["white", "white/purple"]}
    it, en = check("shave-a-sheep", face, IT), check("shave-a-sheep", face, {})
    assert en["detail"] == f"die: die face 'white/purple': unknown colour 'purple' {colours}"
    assert it["detail"] == (
        "die: faccia del dado 'white/purple': colore sconosciuto 'purple' "
        "(i colori sono white, x2, green, gray, pink)"
    )
    # a problem of the language: its path kept apart, its words in Italian
    steal = {"effects": [{"move": 1, "from": "middle", "to": "middle"}]}
    lang = {"verbs": {"steal": steal}, "die": ["white", "steal"]}
    it, en = check("shave-a-sheep", lang, IT), check("shave-a-sheep", lang, {})
    assert en["errors"] == [
        {
            "field": "verbs",
            "where": "verbs.steal.effects.0",
            "message": "the wool would go from middle to the same place",
        }
    ]
    assert it["errors"][0]["where"] == "verbs.steal.effects.0"
    assert it["errors"][0]["message"] == "la lana andrebbe da middle allo stesso luogo"
    assert it["detail"] == "verbs.steal.effects.0: la lana andrebbe da middle allo stesso luogo"
    breeds = "pastore-maremmano, australian-shepherd, bobtail, border-collie"
    dogs = {"dog_swaps": {"fluffy": 2}}
    it, en = check("dolly-crush", dogs, IT), check("dolly-crush", dogs, {})
    assert en["detail"] == f"dog_swaps: unknown breed 'fluffy' (breeds: {breeds})"
    assert it["detail"] == f"dog_swaps: razza sconosciuta 'fluffy' (razze: {breeds})"
    based = {"from": "no-such-rules", "wool": 20}
    it, en = check("shave-a-sheep", based, IT), check("shave-a-sheep", based, {})
    assert en["detail"].startswith("from: from: no shave-a-sheep rule set named 'no-such-rules'")
    assert it["detail"].startswith(
        "from: from: nessun set di regole di shave-a-sheep si chiama 'no-such-rules' (noti: "
    ), it["detail"]

    named = {"name": "Bell\u0007"}  # a text others are shown: a control character
    assert check("shave-a-sheep", named, IT)["detail"] == (
        "name: il carattere U+0007 alla posizione 5 non è ammesso (niente caratteri di "
        "controllo, di formato, separatori, a uso privato o non assegnati)"
    )
    assert check("shave-a-sheep", named, {})["detail"] == (
        "name: the character U+0007 at position 5 is not allowed (no control, format, "
        "separator, private-use or unassigned characters)"
    )

    # a table's rules and its breeds, refused in the request's language
    def refused(spec: dict[str, Any], headers: dict[str, str]) -> str:
        r = live_server.http.post("/api/tables", json=spec, headers=headers)
        assert r.status_code == 400, r.text
        return str(r.json()["detail"])

    table = {"game": "shave-a-sheep", "seats": [{}, {}], "rules": {"wolf_takes": "most"}}
    assert refused(table, IT) == (
        "rules.wolf_takes: wolf_takes è 'all', 'half' o un numero di pezzi da 1 a 100, non 'most'"
    )
    assert refused(table, {}) == (
        "rules.wolf_takes: wolf_takes is 'all', 'half' or a number of pieces from 1 to 100, "
        "not 'most'"
    )
    table = {"game": "dolly-crush", "seats": [{}, {}], "breeds": ["bobtail", "bobtail"]}
    assert refused(table, IT) == "una razza è usata al massimo da un giocatore (regola 3)"
    assert refused(table, {}) == "a breed is used by one player at most (ruling 3)"
    table = {"game": "dolly-crush", "seats": [{}, {}], "breeds": ["bobtail", "poodle"]}
    assert refused(table, IT) == f"razza sconosciuta 'poodle' (razze: {breeds})"

    # a gallery upload
    body = {"author": "ewe", "description": "", "name": "Wide", "rules": {"rows": 2, "min_line": 6}}
    r = live_server.http.post("/api/gallery/dolly-crush", json=body, headers=IT)
    assert r.status_code == 422, r.text
    assert r.json()["detail"] == (
        "rules: un gregge 2 x 5 non ha linee di 6 carte (la sua riga o colonna più lunga ne "
        "contiene 5)"
    )
    r = live_server.http.post("/api/gallery/dolly-crush", json=body)
    assert r.json()["detail"] == (
        "rules: a 2 x 5 flock has no line of 6 cards (its longest row or column holds 5)"
    )
