"""The Dolly Crush examples of the rule language (docs/rulesets/dolly-crush/, issue 27): each is
accepted by ``rules check``, played to the end by bots and saved, replayed from its record, run
in the lab on the fast path and opened as a web table."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.records import replay
from sheepfold.games.dolly_crush.rules import DollyRules

pytest.importorskip("numba")

EXAMPLES = sorted(
    (Path(__file__).parent.parent / "docs" / "rulesets" / "dolly-crush").glob("*.toml")
)
runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"})

#: what each example changes, as the rules model reads it
CHANGES: dict[str, Any] = {
    "gravity-cascades": lambda r: r.refill == "gravity" and r.cascades,
    "plus-flock": lambda r: r.board().cells == 49 - 16,
    "diagonal-swaps": lambda r: "diagonal" in r.adjacent,
    "five-scores-double": lambda r: [(b.length, b.times) for b in r.bonuses] == [(5, 2)],
    "square-of-a-type": lambda r: any(c.kind == "pattern" for c in r.combinations or ()),
}


def test_every_example_is_here() -> None:
    assert {p.stem for p in EXAMPLES} == set(CHANGES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_is_checked_played_replayed_run_and_opened(path: Path, tmp_path: Path) -> None:
    data = tomllib.loads(path.read_text())
    rules = DollyRules(**{k: v for k, v in data.items() if k != "game"})
    assert CHANGES[path.stem](rules)
    assert len(path.read_text().splitlines()) <= 25  # a short file

    check = runner.invoke(app, ["rules", "check", str(path)])
    said = " ".join(check.output.split())  # the terminal's width may wrap the line
    assert check.exit_code == 0 and "valid dolly-crush rule set" in said, check.output

    rec = tmp_path / "game.json"
    args = ["play", "dolly-crush", "--rules", str(path), "--seat", "bot:greedy"]
    args += ["--seat", "bot:random", "--seed", "5", "--save", str(rec)]
    played = runner.invoke(app, args, input="\n")
    assert played.exit_code == 0, played.output
    assert "Final result" in played.output and "Traceback" not in played.output
    result = replay(json.loads(rec.read_text()))
    assert result.error is None and result.state.is_terminal()
    assert result.state.game.rules.key() == rules.key()  # the record carries the rules

    again = runner.invoke(app, ["replay", str(rec), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["finished"]

    lab = runner.invoke(
        app,
        ["lab", "run", "dolly-crush", "--rules", str(path), "--bot", "greedy"]
        + ["--games", "2", "--workers", "1", "--engine", "fast"],
    )
    assert lab.exit_code == 0, lab.output
    assert "decisions per game" in lab.output

    _open_a_table(data, tmp_path)


def _open_a_table(data: dict[str, Any], tmp_path: Path) -> None:
    """A web table with the example's rules: created through the API, joined, its first state
    shows the rule set's flock (a shaped one with its holes)."""
    from starlette.testclient import TestClient

    from sheepfold.server.app import create_app
    from sheepfold.server.tables import Settings

    rules = {k: v for k, v in data.items() if k != "game"}
    app_ = create_app(str(tmp_path / "web.sqlite"), Settings(bot_delay=0.0, allow_seed=True))
    with TestClient(app_) as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        made = client.post(
            "/api/tables", json={"game": "dolly-crush", "rules": rules, "seats": seats, "seed": 3}
        )
        assert made.status_code == 201, made.text
        table = made.json()
        assert table["rules"]["name"] == data["name"]
        joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Ann"}).json()
        with client.websocket_connect(f"/ws/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": joined["token"]})
            state = ws.receive_json()
            for _ in range(20):  # the state after the hello names the seat
                if state.get("type") == "state" and state.get("you") == 0:
                    break
                state = ws.receive_json()
        assert state["type"] == "state" and state["you"] == 0
        view = state["view"]
        board = DollyRules(**rules).board()
        assert len(view["flock"]) == board.rows and len(view["flock"][0]) == board.cols
        if board.holes:
            assert view["shape"] == list(board.shape or ())
        cards = [c for c in board.from_rows(view["flock"])]
        assert all(c is not None for c in cards)  # every cell dealt
