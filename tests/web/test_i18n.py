"""Languages (issue 29; server/i18n.py): the catalogs, the choice of a language, the pages
and the server's words translated where they are sent.

The catalogs: every text of the template (``locale/messages.pot``) has a translation in every
language (Italian, Spanish, ...) with the same ``{name}`` parameters, and the template is
current: extracting the texts again (``make i18n``'s command) finds no text it lacks and none it
no longer has.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from sheepfold.core.words import Msg, Number, from_data, joined, text_of, to_data
from sheepfold.server import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "sheepfold" / "server" / "locale"


def msgids(path: Path) -> set[str]:
    with path.open("rb") as f:
        return {m.id for m in read_po(f) if m.id and isinstance(m.id, str)}


#: every language with a catalog (all but English, the texts themselves)
TRANSLATED = sorted(po.parent.parent.name for po in LOCALE.glob("*/LC_MESSAGES/messages.po"))


def test_the_languages_are_served() -> None:
    assert {"it", "es"} <= set(TRANSLATED)
    assert set(i18n.catalogs()) == set(i18n.languages()) == {"en", *TRANSLATED}
    assert i18n.languages()["es"] == "Español"
    assert i18n.choose(None, None, "es-ES,es;q=0.9,en;q=0.8") == "es"
    assert "de" in TRANSLATED and i18n.languages()["de"] == "Deutsch"
    assert i18n.choose(None, None, "de-AT,de;q=0.9,en;q=0.8") == "de"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_has_a_translation_with_the_same_parameters(lang: str) -> None:
    with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = {m.id: m for m in read_po(f) if m.id}
    template = msgids(LOCALE / "messages.pot")
    assert len(template) > 400
    assert template == set(catalog), f"the {lang} catalog is not the template's (make i18n)"
    for msgid in template:
        m = catalog[msgid]
        assert isinstance(m.string, str) and m.string.strip(), f"no {lang} for {msgid!r}"
        assert not m.fuzzy, f"{msgid!r}: a fuzzy translation is not served"
        assert i18n.placeholders(m.string) == i18n.placeholders(msgid), msgid
    assert i18n.catalogs()[lang]["Start a table"] == catalog["Start a table"].string
    assert i18n.catalogs()["it"]["Start a table"] == "Apri un tavolo"


def test_the_template_is_current(tmp_path: Path) -> None:
    """Extracting again (as ``make i18n`` does) gives the template's texts, no more, no less."""
    out = tmp_path / "messages.pot"
    cmd = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg"]
    cmd += ["--no-default-keywords", "-k", "Msg", "--no-location", "--omit-header", "-o"]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    subprocess.run([*cmd, str(out), "."], cwd=ROOT, env=env, check=True, capture_output=True)
    fresh, kept = msgids(out), msgids(LOCALE / "messages.pot")
    assert fresh - kept == set(), "texts not in the catalog yet: run make i18n and translate"
    assert kept - fresh == set(), "texts no longer used: run make i18n"


def test_the_extractors_find_every_text() -> None:
    page = (
        '<html lang="en"><head><title>A &amp; B</title></head><body>\n'
        '<p class="x" title="the hint">Some  <b>bold</b>\n words</p>'
        '<input placeholder="e.g. Mia"><!-- not this --><script src="/a.js"></script>·</body>'
    )
    assert [t for _, t in i18n.page_texts(page)] == [
        "A & B",
        "the hint",
        "Some",
        "bold",
        "words",
        "e.g. Mia",
    ]
    script = """x = t("one {n}", { n }); y = SF.t('it\\'s'); z = at("no"); w = t(name);"""
    assert [t for _, t in i18n.script_texts(script)] == ["one {n}", "it's"]


def test_no_text_hides_where_the_extractor_cannot_read_it() -> None:
    """Babel's Python extractor reads no call inside an f-string: a ``Msg("...")`` there never
    reaches the catalog and stays English on every page (the lesson's "Your coach" did)."""
    import re

    inside = re.compile(r"""\bf(['"]).*\{Msg\(""")
    hidden = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "src" / "sheepfold").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if inside.search(line)
    ]
    assert hidden == []
    assert "Your coach" in msgids(LOCALE / "messages.pot")


def test_the_language_of_a_request() -> None:
    assert i18n.choose(None, None, None) == "en"
    assert i18n.choose(None, None, "it-IT,it;q=0.9,en;q=0.8") == "it"
    assert i18n.choose(None, None, "ja-JP,ko;q=0.9") == "en"  # none served: English
    assert i18n.choose(None, None, "ja-JP,fr-CA;q=0.9") == "fr"  # the first one served
    assert i18n.choose(None, None, "en;q=0.5, it;q=0.9") == "it"  # by the q-values
    assert i18n.choose(None, None, "it;q=0, en") == "en"  # q=0: not wanted
    assert i18n.choose(None, "it", "en") == "it"  # the cookie before the browser's
    assert i18n.choose("en", "it", "it") == "en"  # the link before everything
    assert i18n.choose("xx", "it", None) == "it"  # a language not served is ignored
    assert i18n.choose(None, None, "x;q=abc, " * 5000 + "it") == "en"  # read as far as bounded
    assert i18n.choose(None, "<script>", "a" * 100_000) == "en"


def test_a_third_language_is_one_file(tmp_path: Path, monkeypatch: Any) -> None:
    po = tmp_path / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Start a table"\nmsgstr "Ouvrir une table"\n\n'
        'msgid "took {n} sheep"\nmsgstr "a pris {n} moutons"\n\n'
        'msgid "Open the table"\nmsgstr ""\n\n'
        'msgid "{name} is playing…"\nmsgstr "{nom} joue…"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    i18n.catalogs.cache_clear()
    try:
        assert i18n.languages() == {"en": "English", "fr": "Français"}
        assert i18n.choose(None, None, "fr-CA") == "fr"
        assert i18n.localize(Msg("took {n} sheep", n=3), "fr") == "a pris 3 moutons"
        assert i18n.gettext("fr", "Open the table") == "Open the table"  # untranslated: English
        # a translation with other parameters than its text: the English, never an error
        assert i18n.gettext("fr", "{name} is playing…", name="Mia") == "Mia is playing…"
        html = i18n.page('<html lang="en"><h2>Start a table</h2><script src="/x.js">', "fr")
        assert '<html lang="fr">' in html and "<h2>Ouvrir une table</h2>" in html
    finally:
        i18n.catalogs.cache_clear()


def test_words_are_translated_where_they_are_sent() -> None:
    said = Msg("it is not your turn (waiting for {who})", who=Msg("the dice"))
    assert said == "it is not your turn (waiting for the dice)"  # English: the text itself
    assert i18n.localize(said, "it") == "non è il tuo turno (si aspetta il dado)"
    names = joined(["Mia", "Leo", "Ada"])
    assert names == "Mia, Leo and Ada" and i18n.localize(names, "it") == "Mia, Leo e Ada"
    value = {"events": [{"text": Msg("took {n} sheep", n=2), "who": "Mia"}], "n": 1}
    assert i18n.localize(value, "it") == {
        "events": [{"text": "ha preso 2 pecore", "who": "Mia"}],
        "n": 1,
    }
    assert i18n.localize(value, "en") is value  # English: nothing copied
    # an error keeps its words' template (str(e) would not)
    assert isinstance(text_of(ValueError(Msg("the game is over"))), Msg)
    # a parameter is never read as a template: a player's name with braces stays as it is
    assert i18n.localize(Msg("{name} is playing…", name="{n} {x}"), "it") == "{n} {x} sta giocando…"


@pytest.mark.parametrize(
    ("number", "english", "italian"),
    [
        (Number(1500, grouped=True), "1,500", "1.500"),
        (Number(1500), "1500", "1500"),  # as the lab writes it: no thousands
        (Number(50.2345, 1, percent=True), "50.2%", "50,2%"),
        (Number(-0.04, 1), "0.0", "0,0"),  # never "-0.0"
        (Number(0.44, 1, signed=True), "+0.4", "+0,4"),
        (Number(-12.0, 0, signed=True, percent=True), "-12%", "-12%"),
        (Number(2.675, 2), "2.67", "2,67"),  # the English digits, never rounded again
        (Number(120.0, None), "120", "120"),
        (Number(0.25, None), "0.25", "0,25"),
    ],
)
def test_a_number_in_a_readers_form(number: Number, english: str, italian: str) -> None:
    """A figure's English is the text the lab always wrote; a reader's language writes the same
    digits its own way, also after it was stored as data (inside words, at any depth)."""
    assert number == english and number.said("en") == english
    assert number.said("it") == i18n.localize(number, "it") == italian
    stored = json.loads(json.dumps(to_data(Msg("of {total}", total=number))))
    again = from_data(stored)
    assert again == f"of {english}" and again.params["total"].said("it") == italian
    assert i18n.localize(again, "it") == f"of {italian}"  # no catalog text: English words
    assert copy.deepcopy(number).said("it") == italian
    assert Number(50, 1, percent=True).said("fr") == "50,0\xa0%"  # where French puts it


def test_a_page_in_italian() -> None:
    source = (Path(i18n.__file__).parent / "static" / "index.html").read_text()
    page = i18n.page(source, "it")
    assert page.startswith('<!doctype html>\n<html lang="it">')
    assert "<h2>Apri un tavolo</h2>" in page and 'placeholder="es. Mia"' in page
    assert 'placeholder="es. Settimana lanosa"' in page
    data = page.split('<script type="application/json" id="sf-i18n">')[1].split("</script>")[0]
    assert "<" not in data  # nothing in the catalog can end the script early
    assert i18n.page(source, "en").count('<html lang="en">') == 1


@pytest.mark.parametrize("lang", ["it", "en"])
def test_server_messages_in_the_connection_language(
    live_server: Any, ws_client: Any, lang: str
) -> None:
    """An illegal move's error, the log and the bots' words in the page's language; two
    languages at one table, each connection its own."""
    t = live_server.create(game="dolly-crush", seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    j = live_server.join(t["id"], "Mia", 0)
    me = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang={lang}", token=j["token"])
    other = ws_client(f"{live_server.ws_url}/ws/{t['id']}?lang={'en' if lang == 'it' else 'it'}")
    mine = me.wait_state(lambda m: m["you"] == 0)
    theirs = other.wait_state(lambda m: True)
    opened = {"it": "il tavolo è aperto", "en": "the table is open"}
    assert mine["events"][0]["text"] == opened[lang]
    assert theirs["events"][0]["text"] == opened["en" if lang == "it" else "it"]
    me.send({"type": "turn", "dog": 0, "swaps": [], "ref": 7})
    error = me.wait(lambda m: m["type"] == "error")
    assert error["ref"] == 7
    assert (
        error["message"]
        == {
            "it": "la carta cane 1 fa esattamente 1 scambi, non 0",  # numbered as the page shows it
            "en": "dog card 1 makes exactly 1 swap(s), not 0",
        }[lang]
    )
    other.send({"type": "act", "action": "dog 0"})  # a spectator: words in the spectator's language
    error = other.wait(lambda m: m["type"] == "error")
    assert (
        error["message"]
        == {
            "en": "you are watching: take a seat to play",
            "it": "stai guardando: siediti per giocare",
        }["en" if lang == "it" else "it"]
    )


def test_the_api_speaks_the_reader_language(live_server: Any) -> None:
    games = live_server.http.get("/api/games", headers={"Accept-Language": "it"}).json()
    easy = next(x for x in games["dolly-crush"]["levels"] if x["name"] == "easy")
    assert easy["title"] == "Facile"
    graded = next(r for r in games["dolly-crush"]["rulesets"] if r["name"] == "dolly-graded")
    assert graded["title"] == "Graduata"
    english = live_server.http.get("/api/games").json()
    assert (
        next(x for x in english["dolly-crush"]["levels"] if x["name"] == "easy")["title"] == "Easy"
    )
    r = live_server.http.get("/api/i18n/it")
    assert r.status_code == 200 and r.json()["messages"]["Your turn!"] == "Tocca a te!"
    assert live_server.http.get("/api/i18n/xx").status_code == 404
    page = live_server.http.get("/?lang=it")
    assert page.headers["content-language"] == "it"
    assert "sheepfold_lang=it" in page.headers["set-cookie"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
