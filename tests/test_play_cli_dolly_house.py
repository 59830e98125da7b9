"""Issue 13, the terminal: Dolly Crush under house rules (``play --set``, ``replay``): the flock
at any size with its cell names, the new types' letters, "stop" under up-to swaps, and a header
naming the house rules in play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.records import replay

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"})

BOTS = ["--seat", "bot:greedy", "--seat", "bot:random"]


def invoke(args: list[str], lines: list[str] = ()):  # type: ignore[assignment]
    return runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "sets,header",
    [
        (["rows=4", "cols=6", "diagonals=true"], ["4 x 6 flock", "diagonal lines"]),
        (["types=8", "dogs_per_player=6"], ["8 sheep types", "6 dog cards each"]),
        (
            ["swaps=up-to", "cascades=true", "end_points=20"],
            ["up-to swaps", "cascades", "20 points"],
        ),
        (["rows=2", "cols=3", "min_line=2", "rounds=2"], ["2 x 3 flock", "lines of 2", "2 rounds"]),
    ],
)
def test_bots_play_house_rules_to_the_end(
    tmp_path: Path, sets: list[str], header: list[str]
) -> None:
    rec = tmp_path / "game.json"
    args = ["dolly-crush", *BOTS, "--seed", "4", "--save", str(rec)]
    for s in sets:
        args += ["--set", s]
    res = invoke(args)
    assert res.exit_code == 0, res.output
    out = res.output
    first = out.split("\n\n")[0]
    assert "House rules:" in first and all(h in first for h in header), first
    assert "Final result" in out and "Traceback" not in out
    data = json.loads(rec.read_text())
    result = replay(data)
    assert result.error is None and result.state.is_terminal()
    g = result.state.game
    # the flock is drawn at its size: a header of column numbers, one line per row letter
    cols = r"\s+".join(str(c) for c in range(1, g.rules.cols + 1))
    assert re.search(rf"^\s+{cols}\s*$", out, flags=re.M), out[:2000]
    last_row = "abcdefgh"[g.rules.rows - 1]
    assert re.search(rf"^{last_row} ", out, flags=re.M)
    # and the same record replays at the command line
    rep = runner.invoke(app, ["replay", str(rec), "--json"])
    assert rep.exit_code == 0, rep.output
    got = json.loads(rep.stdout)
    assert got["finished"] and len(got["flock"]) == g.rules.rows
    assert all(len(row) == g.rules.cols for row in got["flock"])
    people = runner.invoke(app, ["replay", str(rec)])
    assert people.exit_code == 0 and "moves applied" in people.output
    assert "House rules:" in people.output and all(h in people.output for h in header)


def test_a_person_stops_early_under_up_to_and_uses_big_cells(tmp_path: Path) -> None:
    rec = tmp_path / "up-to.json"
    res = invoke(
        [
            "dolly-crush",
            "--seat",
            "ann",
            "--seat",
            "bot:random",
            "--breed",
            "australian-shepherd",
            "--breed",
            "bobtail",
            "--seed",
            "5",
            "--set",
            "rows=5",
            "--set",
            "cols=7",
            "--set",
            "swaps=up-to",
            "--save",
            str(rec),
        ],
        ["stop", "dog 1", "e6-e7", "d7 e7", "z9-z8", "stop", "quit"],
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "choose a dog card first" in out  # "stop" before a dog card
    assert "swap 1 of up to 4" in out and "or stop" in out
    assert "'z9-z8' is not a move" in out or "not a cell" in out
    data = json.loads(rec.read_text())
    assert data["rules"]["swaps"] == "up-to"
    assert data["moves"][0] == {"dog": 0, "swaps": [["e6", "e7"], ["d7", "e7"]]}
    assert replay(data).error is None


def test_stop_is_refused_under_exact_swaps() -> None:
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:random", "--seed", "3"],
        ["dog 1", "stop", "quit"],
    )
    assert res.exit_code == 0
    assert "no stopping early" in " ".join(res.output.split())


def test_new_types_have_letters_and_the_key_lists_the_types_in_play() -> None:
    from rich.console import Console

    from sheepfold.cli.render import render_state
    from sheepfold.core.play import resolve_chance
    from sheepfold.games import make
    from sheepfold.games.dolly_crush.cards import TYPE_NAMES
    from sheepfold.games.dolly_crush.terminal import TYPE_LETTERS, card_text

    assert set(TYPE_LETTERS) == set(TYPE_NAMES)
    assert len(set(TYPE_LETTERS.values())) == len(TYPE_NAMES)
    assert card_text("heart-black").plain == "[H]" and card_text("clover-white").plain == " c "
    s = make("dolly-crush", rules={"types": 7, "rows": 6, "cols": 8}).new_initial_state(seed=2)
    resolve_chance(s)
    console = Console(width=120, no_color=True, record=True)
    console.print(render_state(s))
    text = console.export_text()
    assert "s star" in text and "heart" not in text
    assert re.search(r"^f\s", text, flags=re.M) and "8" in text.splitlines()[0]


def test_the_dolly_parser_reads_any_board() -> None:
    from sheepfold.core.drivers import BadInput
    from sheepfold.core.play import resolve_chance
    from sheepfold.games import make
    from sheepfold.games.dolly_crush.terminal import parse_move as parse_dolly

    g = make("dolly-crush", rules={"rows": 8, "cols": 8, "swaps": "up-to", "dogs_per_player": 6})
    s = g.new_initial_state(seed=1)
    resolve_chance(s)
    assert parse_dolly(s, "dog 6") == 5 and parse_dolly(s, "6") == 5  # cards 1 to 6
    with pytest.raises(BadInput, match="1 to 6"):
        parse_dolly(s, "dog 7")
    with pytest.raises(BadInput, match="dog card first"):
        parse_dolly(s, "stop")
    s.apply(0)
    assert parse_dolly(s, "h7-h8") == g.swap_action("h7", "h8")
    assert parse_dolly(s, "G8 h8") == g.swap_action("g8", "h8")
    assert parse_dolly(s, "stop") == g.stop
    for bad in ("h8-h9", "i1-i2", "a1-a3"):
        with pytest.raises(BadInput):
            parse_dolly(s, bad)


def test_cascades_are_announced_apart_from_the_combination(capsys) -> None:
    """The golden cascades record: c3-c4 takes ``Rrr`` (4 points), the refill's ``fff`` is
    taken too (3 more)."""
    from sheepfold.cli.play import SeatSpec, Session
    from sheepfold.core.records import new_game_state, parse_record

    path = Path(__file__).parent / "records" / "dolly-cascades.json"
    rec = parse_record(json.loads(path.read_text()))
    before = new_game_state(rec)
    while before.is_chance_node():
        before.apply(before.sample_chance())
    after = replay(json.loads(path.read_text())).state
    session = Session(after.game, [SeatSpec("ann"), SeatSpec("bob")], seed=1)
    session.state = after
    session.driver.after_decision(session, before, after, 0)
    out = " ".join(capsys.readouterr().out.split())
    assert "takes 3 sheep (1 black) at c1 c2 c3: +4 points" in out
    assert "the refill's lines (cascades): 3 sheep, +3 points." in out


def test_hint_plans_on_the_rule_set_board() -> None:
    res = invoke(
        [
            "dolly-crush",
            "--seat",
            "ann",
            "--seat",
            "bot:greedy",
            "--breed",
            "australian-shepherd",
            "--breed",
            "bobtail",
            "--seed",
            "6",
            "--set",
            "rows=5",
            "--set",
            "cols=7",
            "--set",
            "swaps=up-to",
        ],
        ["hint", "quit"],
    )
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    m = re.search(r"greedy would play: dog \d \(4 swaps\) \(plan: ([^;]*); (\d+) points\)", out)
    assert m, out[-1500:]
    cells = re.findall(r"[a-h]\d", m.group(1))
    assert all(c[0] <= "e" and 1 <= int(c[1]) <= 7 for c in cells)
    assert len(cells) <= 8  # up to 4 swaps of two cells (up-to: maybe fewer)
