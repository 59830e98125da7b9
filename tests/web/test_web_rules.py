"""The rules API: every option of each game's rules model as data, rule sets checked by the model
with the messages `sheepfold rules check` gives, and their TOML files read back."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w

from polling import wait_until
from sheepfold.core.protocol import RulesError
from sheepfold.games import GAME_NAMES, parse_rules, rules_class
from sheepfold.rulesets import parse_ruleset, read_ruleset_file
from sheepfold.server.plain_words import in_words, option_names
from sheepfold.server.rules_api import MAX_BODY, rule_fields


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A rules folder of our own, with one user rule set in it."""
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    rules = tmp_path / "home" / "rules"
    rules.mkdir(parents=True)
    (rules / "short.toml").write_text(
        'game = "shave-a-sheep"\nname = "short"\ndescription = "a quick one"\nwool = 9\n'
    )
    return rules


def cli_message(game: str, options: dict, tmp_path: Path) -> str:
    """What `sheepfold rules check` says about these options (the file name left out)."""
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps({"game": game, **options}))
    with pytest.raises(RulesError) as e:
        read_ruleset_file(path)
    return str(e.value).removeprefix(f"{path}: ")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_option_of_the_model_is_listed(live_server, home, game):
    r = live_server.http.get(f"/api/rules/{game}")
    assert r.status_code == 200
    data = r.json()
    cls = rules_class(game)
    fields = {f["name"]: f for f in data["fields"]}
    names = option_names(rule_fields(cls))
    assert list(fields) == list(cls.model_fields)  # new options come by themselves
    rulebook = cls().model_dump(mode="json")
    assert data["rulebook"] == rulebook
    for name, f in fields.items():
        # the model's own description, other options named in words ("Max wool")
        assert f["description"] == in_words(cls.model_fields[name].description or "", names)
        assert f["rulebook"] == rulebook[name]
        assert f["kind"] in (
            "choice",
            "integer",
            "number",
            "boolean",
            "text",
            "list",
            "map",
            "object",
            "json",
        )
    names = {r["name"]: r for r in data["rulesets"]}
    for r in names.values():  # each rule set with every option
        assert parse_rules(game, r["rules"]).model_dump(mode="json") == r["rules"]
    if game == "shave-a-sheep":
        assert fields["wool"] | {"kind": "integer", "min": 1, "max": 1000} == fields["wool"]
        assert fields["variants"]["item"]["choices"] == [
            "cutting-costs",
            "howling-wolf",
            "my-friend-mr-wolf",
        ]
        assert fields["die"]["kind"] == "list" and fields["die"]["nullable"]
        assert names["howling-wolf"]["rules"]["variants"] == ["howling-wolf"]
        assert names["short"]["source"] == "yours" and names["short"]["rules"]["wool"] == 9
    assert live_server.http.get("/api/rules/chess").status_code == 404


@pytest.mark.parametrize(
    "game, options",
    [
        ("shave-a-sheep", {"max_wool": 0}),
        ("shave-a-sheep", {"variants": ["nope"]}),
        ("shave-a-sheep", {"die": []}),
        ("shave-a-sheep", {"die": ["white/purple"], "wool": "many"}),
        ("shave-a-sheep", {"variants": ["howling-wolf", "my-friend-mr-wolf"]}),
        ("shave-a-sheep", {"colour": "blue"}),
        ("dolly-crush", {"white_per_type": 0, "black_per_type": 0}),
        ("dolly-crush", {"dog_swaps": {"poodle": 3}}),
    ],
)
def test_check_gives_the_models_messages(live_server, tmp_path, game, options):
    r = live_server.http.post(f"/api/rules/{game}/check", json=options)
    assert r.status_code == 200
    data = r.json()
    assert data["ok"] is False and data["input"] == options
    assert data["detail"] == cli_message(game, options, tmp_path)
    joined = "; ".join(
        f"{e['where']}: {e['message']}" if e["where"] else e["message"] for e in data["errors"]
    )
    assert joined == data["detail"]
    for e in data["errors"]:  # each names the option it is about (or none: the whole set)
        assert e["field"] in (*options, "")


def test_check_normalizes_and_writes_the_rule_set_file(live_server):
    options = {"game": "shave-a-sheep", "wool": 12, "die": [" White / PINK ", "x2"]}
    data = live_server.http.post("/api/rules/shave-a-sheep/check", json=options).json()
    assert data["ok"] is True
    assert data["rules"]["die"] == ["white/pink", "x2"]
    assert data["options"] == {"wool": 12, "die": ["white/pink", "x2"]}
    back = parse_ruleset(tomllib.loads(data["toml"]), "download", "shave-a-sheep")
    assert back.rules.model_dump(mode="json") == data["rules"]
    # a TOML rule-set file (an upload) is checked the same way
    r = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        content=data["toml"],
        headers={"Content-Type": "application/toml"},
    )
    assert r.json()["rules"] == data["rules"]
    # rules for the other game, text that is not TOML
    wrong = live_server.http.post("/api/rules/dolly-crush/check", json=options).json()
    assert not wrong["ok"] and wrong["errors"][0]["field"] == "game"
    bad = live_server.http.post(
        "/api/rules/shave-a-sheep/check",
        content="wool = = 3",
        headers={"Content-Type": "application/toml"},
    ).json()
    assert not bad["ok"] and bad["detail"].startswith("not valid TOML")


def test_check_refuses_a_big_or_deep_body(live_server):
    big = {"description": "x" * MAX_BODY}
    r = live_server.http.post("/api/rules/shave-a-sheep/check", json=big)
    assert r.status_code == 413 and "at most 64 KiB, as a rule file is" in r.json()["detail"]

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(5):
            yield b" " * MAX_BODY

    r = live_server.http.post("/api/rules/shave-a-sheep/check", content=chunks())
    assert r.status_code == 413
    deep = live_server.http.post("/api/rules/shave-a-sheep/check", content="[" * 10_000)
    assert deep.status_code == 422
    deep = deep.json()
    assert deep["ok"] is False and deep["detail"].startswith("nested too deeply")
    r = live_server.http.post("/api/rules/shave-a-sheep/check", content="[1, 2]")
    assert r.json()["ok"] is False


# -- the lobby's rule editor, in the browser ---------------------------------------------------
@pytest.mark.browser
def test_edit_check_download_and_play_a_rule_set(browser, live_server, tmp_path, shots):
    from playwright.sync_api import expect
    from test_web_browser import new_page

    page = new_page(browser)
    page.goto(live_server.url)
    page.click("#game-choice [data-game='shave-a-sheep']")
    page.click("#rules-editor summary")
    field = lambda name: page.locator(f"[data-field='{name}']")  # noqa: E731
    expect(field("wool").locator("input")).to_have_value("30")
    # a rule-set file read into the form, its bad option marked with the server's message
    page.set_input_files(
        "#rules-upload",
        files=[
            {"name": "mine.toml", "mimeType": "text/plain", "buffer": b"wool = 0\nmax_wool = 3\n"}
        ],
    )
    low = live_server.http.post("/api/rules/shave-a-sheep/check", json={"wool": 0}).json()
    expect(field("wool").locator(".field-error")).to_have_text(low["errors"][0]["message"])
    expect(field("max_wool").locator("input")).to_have_value("3")
    expect(page.locator("#create-btn")).to_be_disabled()
    # a preset: its options in the form; an invalid edit is refused next to the option
    page.select_option("#ruleset", "howling-wolf")
    expect(field("wool").locator(".field-error")).to_be_empty()
    expect(field("max_wool").locator("input")).to_have_value("5")
    expect(field("variants").locator("input[value='1']")).to_be_checked()
    expect(page.locator("#create-btn")).to_be_enabled()
    field("max_wool").locator("input").fill("0")
    zero = live_server.http.post("/api/rules/shave-a-sheep/check", json={"max_wool": 0}).json()
    expect(field("max_wool").locator(".field-error")).to_have_text(zero["errors"][0]["message"])
    expect(page.locator("#create-btn")).to_be_disabled()
    page.screenshot(path=str(shots / "rules-editor.png"), full_page=True)
    field("max_wool").locator("input").fill("7")
    field("wool").locator("input").fill("12")
    for i, face in enumerate(["white", "x2", "gray/pink"]):  # a list: a row per face
        page.click("[data-field='die'] > button[data-act='add']")
        field(f"die.{i}").locator("input").fill(face)
    expect(field("max_wool").locator(".field-error")).to_be_empty()
    expect(page.locator("#create-btn")).to_be_enabled()
    # the download is a rule-set file that reads back as these very rules
    with page.expect_download() as d:
        page.click("#rules-download")
    saved = tmp_path / d.value.suggested_filename
    d.value.save_as(saved)
    assert saved.name == "howling-wolf.toml"
    rules = read_ruleset_file(saved, "shave-a-sheep").rules
    assert rules.options() == {
        "wool": 12,
        "max_wool": 7,
        "variants": ["howling-wolf"],
        "die": ["white", "x2", "gray/pink"],
    }
    # the table is played with them, and says so
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    house = page.locator("#house-rules")
    expect(house).to_contain_text("House rules")
    # in the game's words, part by part (the setup, the die, the wolf race): never a key
    table_id = page.url.rsplit("/", 1)[1]
    lines = live_server.http.get(f"/api/tables/{table_id}/rules").json()["house_rules"]
    expect(house.locator("li")).to_have_count(len(lines))
    expect(house.locator("li").first).to_contain_text("12 pieces of wool in play")
    expect(house.locator("li").first).to_contain_text("at most seven pieces")
    expect(house).to_contain_text("the race for the wolf")
    expect(house).not_to_contain_text("max_wool")
    page.screenshot(path=str(shots / "house-rules.png"), full_page=True)
    table = live_server.manager.get(page.url.rsplit("/", 1)[1])
    assert table.game.rules == rules.model_copy(update={"name": "howling-wolf"})
    assert not page.errors


@pytest.mark.browser
def test_the_table_page_draws_any_flock_die_and_decision(browser, live_server, ws_client, shots):
    """The page draws what the view says: a flock of `rows` x `cols` with new sheep types, a die
    of 12 faces, a button for each decision listed (reroll). The views are the server's, reshaped
    (the engines do not make them yet), and sent by a stand-in for the WebSocket."""
    from playwright.sync_api import expect
    from test_web_browser import new_page

    def view_of(game: str) -> dict:
        t = live_server.create(game=game, seats=[{}, {}], seed=4)
        return ws_client(f"{live_server.ws_url}/ws/{t['id']}").last_state

    def show(state: dict, sent: list) -> object:
        page = new_page(browser)

        def stand_in(ws):
            ws.on_message(lambda m: sent.append(json.loads(m)))
            ws.send(json.dumps(state))

        page.route_web_socket("**/ws/*", stand_in)
        page.goto(live_server.url + f"/t/{state['table']['id']}")
        return page

    dolly = view_of("dolly-crush")
    types = ["bell", "clover", "star", "heart", "ram", "goat"]
    flock = [
        [f"{types[(r + c) % 6]}-{'black' if c == 5 else 'white'}" for c in range(6)]
        for r in range(4)
    ]
    dolly["view"].update(rows=4, cols=6, flock=flock, dog_swaps=[[1, 2, 3, 4, 5]] * 2)
    page = show(dolly, [])
    cells = page.locator("#flock .cell")
    expect(cells).to_have_count(24)
    assert cells.last.get_attribute("data-cell") == "d6"
    columns = page.eval_on_selector("#flock", "el => getComputedStyle(el).gridTemplateColumns")
    assert len(columns.split()) == 6
    expect(page.locator("[data-cell='a2'] .word")).to_have_text("Clover")
    expect(page.locator("[data-cell='a6'] .word")).to_have_text("Goat")  # no icon: its name
    expect(page.locator(".player >> nth=0").locator(".dogchip")).to_have_count(5)
    page.screenshot(path=str(shots / "dolly-4x6.png"), full_page=True)
    assert not page.errors

    shave = view_of("shave-a-sheep")
    faces = ["white", "x2", "white/pink", "gray/green"] * 3
    shave["view"].update(die=faces, roll="x2", phase="choose", to_move=0, turn=0)
    shave["view"]["legal_actions"] = ["double", "reroll"]
    shave["you"] = 0
    sent: list = []
    page = show(shave, sent)
    expect(page.locator("#die")).to_be_visible()
    page.click(".act[data-action='reroll']")
    reroll = {"type": "act", "action": "reroll"}
    wait_until(lambda: page.evaluate("0") or reroll in sent, what="the reroll sent")  # pumps
    shave["view"].update(roll=None, phase="roll", legal_actions=[])
    page = show(shave, [])
    expect(page.locator("#board")).to_contain_text(" · ".join(faces))
    assert not page.errors


def test_option_kinds_come_from_the_types():
    """The kinds the new options will need (booleans, Literal and Enum choices, lists, maps,
    anything else as JSON) are read from the model's types, not from a list of names."""
    import enum
    from typing import Literal

    from pydantic import BaseModel, Field

    from sheepfold.server.rules_api import rule_fields

    class Shape(enum.Enum):
        SQUARE = "square"
        ROUND = "round"

    class Inner(BaseModel):
        x: int = 0

    class Rules(BaseModel):
        diagonals: bool = Field(default=False, description="lines may run diagonally")
        swaps: Literal["exact", "up-to"] = "exact"
        shape: Shape = Shape.SQUARE
        rows: int = Field(default=3, ge=2, le=9)
        types: tuple[str, ...] = ("bell", "lamb")
        weights: tuple[float, ...] | None = None
        points: dict[str, int] = Field(default_factory=dict)
        pair: tuple[int, int] = (1, 2)
        inner: Inner = Field(default_factory=Inner)
        cap: int | None = Field(default=None, ge=1)

    got = {f["name"]: f for f in rule_fields(Rules)}
    assert list(got) == list(Rules.model_fields)
    assert got["diagonals"]["kind"] == "boolean" and got["diagonals"]["rulebook"] is False
    assert got["diagonals"]["description"] == "lines may run diagonally"
    assert got["swaps"] | {"kind": "choice", "choices": ["exact", "up-to"]} == got["swaps"]
    assert got["shape"]["kind"] == "choice" and got["shape"]["choices"] == ["square", "round"]
    assert got["rows"] | {"kind": "integer", "min": 2, "max": 9, "rulebook": 3} == got["rows"]
    assert got["types"]["kind"] == "list" and got["types"]["item"]["kind"] == "text"
    assert got["weights"]["kind"] == "list" and got["weights"]["nullable"]
    assert got["points"]["kind"] == "map" and got["points"]["value"]["kind"] == "integer"
    assert got["pair"]["kind"] == "json"  # a fixed-length tuple: one JSON text
    assert got["inner"]["kind"] == "object"  # a model: a group of its fields
    assert got["cap"] | {"kind": "integer", "min": 1, "nullable": True} == got["cap"]


@pytest.mark.browser
def test_the_editor_draws_options_it_has_never_seen(browser, live_server, monkeypatch):
    """A rules model with a boolean and a Literal (as the new options will be): the editor draws a
    checkbox and a select, and a problem of the whole rule set shows below the form."""
    from typing import Literal

    from playwright.sync_api import expect
    from pydantic import BaseModel, ConfigDict, Field, model_validator
    from test_web_browser import new_page

    import sheepfold.games
    import sheepfold.rulesets

    class Toy(BaseModel):
        model_config = ConfigDict(frozen=True, extra="forbid")
        diagonals: bool = Field(default=False, description="lines may run diagonally")
        swaps: Literal["exact", "up-to"] = Field(default="exact", description="how swaps count")
        rows: int = Field(default=3, ge=2, le=9, description="rows of the flock")

        @model_validator(mode="after")
        def _fits(self) -> Toy:
            if self.diagonals and self.swaps == "up-to":
                raise ValueError("diagonal lines need exact swaps")
            return self

    real = sheepfold.games.rules_class
    monkeypatch.setattr(
        sheepfold.games, "rules_class", lambda g: Toy if g == "shave-a-sheep" else real(g)
    )
    monkeypatch.setattr(sheepfold.rulesets, "all_rulesets", lambda game=None: [])
    page = new_page(browser)
    page.goto(live_server.url)
    page.click("#game-choice [data-game='shave-a-sheep']")
    page.click("#rules-editor summary")
    page.locator("[data-field='diagonals'] input[type=checkbox]").check()
    page.locator("[data-field='swaps'] select").select_option(label="up to")  # the choice in words
    expect(page.locator("#rules-general")).to_have_text("diagonal lines need exact swaps")
    expect(page.locator("#create-btn")).to_be_disabled()
    page.locator("[data-field='diagonals'] input[type=checkbox]").uncheck()
    expect(page.locator("#create-btn")).to_be_enabled()
    with page.expect_download() as d:
        page.click("#rules-download")
    text = Path(d.value.path()).read_text()
    assert tomllib.loads(text) | {"diagonals": False, "swaps": "up-to", "rows": 3} == tomllib.loads(
        text
    )
    assert not page.errors
