"""``sheepfold play`` driven through standard input (issue 2, item 6)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.records import replay

ENV = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}


def run_play(
    args: list[str], lines: list[str], timeout: float = 120
) -> subprocess.CompletedProcess:
    """The real command in a subprocess, stdin a pipe (as a person at a terminal would type)."""
    return subprocess.run(
        [sys.executable, "-m", "sheepfold.cli.main", "play", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def result_scores(out: str) -> dict[int, int]:
    """Seat -> score, read from the result screen's table."""
    tail = out[out.index("Final result") :]
    rows = re.findall(r"^\s*(?:WINNER)?\s+(\d)\s+.+?\s+(\d+)\s*$", tail, flags=re.M)
    return {int(s): int(v) for s, v in rows}


def result_winners(out: str) -> set[int]:
    tail = out[out.index("Final result") :]
    return {int(s) for s in re.findall(r"^\s*WINNER\s+(\d)\s", tail, flags=re.M)}


def check_record(path: Path, out: str, n: int) -> dict:
    data = json.loads(path.read_text())
    rep = replay(data)
    assert rep.error is None, rep.error
    assert rep.state.is_terminal()
    shown = result_scores(out)
    assert shown == {s: int(v) for s, v in enumerate(rep.state.scores())}
    assert len(shown) == n
    assert result_winners(out) == set(rep.state.winners())
    return data


# -- whole games ---------------------------------------------------------------------------
def test_play_dolly_whole_game_one_person_and_bots(tmp_path):
    rec = tmp_path / "dolly.json"
    # The person plays Bobtail (1 swap per card): every turn is "dog D" then one swap.
    turn = ["dog 1", "a1-a2", "dog 2", "b2 b3", "3", "c4-c5", "d4", "a5 b5"]  # cards 1-4
    r = run_play(
        [
            "dolly-crush",
            "--seat",
            "ann",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--breed",
            "bobtail",
            "--breed",
            "pastore-maremmano",
            "--breed",
            "border-collie",
            "--seed",
            "11",
            "--save",
            str(rec),
        ],
        turn * 3,
    )
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "The game is over" in out and "Final result" in out
    assert "Traceback" not in out + r.stderr
    assert "Greedy bot plays: dog" in out  # the bots' moves are shown as they happen
    assert re.search(r"^a\s", out, flags=re.M) and re.search(r"^c\s", out, flags=re.M)  # the flock
    data = check_record(rec, out, 3)
    assert [p["name"] for p in data["players"]] == ["ann", "bot:greedy", "bot:random"]
    assert len(data["moves"]) == 12  # 4 dog cards x 3 players


@pytest.mark.parametrize("rules", [None, "cutting-costs", "howling-wolf", "my-friend-mr-wolf"])
def test_play_shave_whole_game_one_person_and_bots(tmp_path, rules):
    rec = tmp_path / "shave.json"
    args = [
        "shave-a-sheep",
        "--seat",
        "ann",
        "--seat",
        "bot:greedy",
        "--seat",
        "random",
        "--seed",
        "5",
        "--save",
        str(rec),
    ]
    if rules:
        args += ["--rules", rules]
    r = run_play(args, ["1"] * 1500)  # always the first entry of the numbered menu
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Final result" in out and "Traceback" not in out + r.stderr
    assert "wool in the middle" in out and "safe pile" in out
    assert "Greedy bot rolled" in out
    if rules == "howling-wolf":
        assert "drawn by the engine's chance" in out
    check_record(rec, out, 3)


# -- input handling (in process, quicker) -----------------------------------------------------
runner = CliRunner()


def invoke(args: list[str], lines: list[str]):
    return runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")


def test_illegal_and_unreadable_input_get_a_reason_and_a_new_prompt(tmp_path):
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:random", "--seed", "3"],
        ["dog 7", "z9", "b1-b3", "a1-a2", "help", "dog 1", "dog 2", "7", "c5-c6", "b1 b2", "quit"],
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "there is no dog card 7" in out
    assert "'z9' is not a move" in out
    assert "b1 and b3 are not adjacent" in out
    # a swap before a dog card: the engine's reason (ruling text), not a crash
    assert "choose a dog card first" in out
    assert "Dolly Crush moves" in out  # help
    # mid-turn: another dog card is refused with the engine's reason (Dolly Crush ruling 7)
    assert "dog card 1 is in play" in out
    assert "a dog card is already in play" in out  # a bare number mid-turn
    assert "c5-c6" in out and "is not a cell" in out
    assert out.count("ann, choose a dog card") >= 6  # re-prompted after every refusal
    assert "Game stopped (quit)" in out
    assert "Traceback" not in out


def test_shave_illegal_input_gets_the_engine_reason():
    res = invoke(
        ["shave-a-sheep", "--seat", "ann", "--seat", "bot:greedy", "--seed", "3"],
        ["raid", "swap 9", "swap zed", "fly", "99", "wolf 2", "quit"],
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "'raid' exists only in My friend Mr. Wolf" in out
    assert "there is no seat 9" in out
    assert "no player called 'zed'" in out
    assert "'fly' is not a move" in out
    assert "choose a number from 1 to" in out
    # the first roll of seed 3 is white (grow only): the wolf is not on offer
    assert "offers grow, not wolf" in out and "(ruling" not in out  # no ruling numbers
    assert "Traceback" not in out


def test_end_of_input_quits_and_saves_the_whole_turns(tmp_path):
    rec = tmp_path / "part.json"
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "4", "--save", str(rec)],
        ["dog 1", "a1-a2", "dog 2"],  # then the input ends in the middle of a turn
    )
    assert res.exit_code == 0, res.output
    assert "end of input" in res.output and "saved" in res.output
    data = json.loads(rec.read_text())
    rep = replay(data)
    assert rep.error is None and not rep.state.is_terminal()
    assert len(data["moves"]) == 2  # ann's turn and the bot's; the turn in progress is left out
    assert data["moves"][0] == {"dog": 0, "swaps": [["a1", "a2"]]}


def test_interactive_setup_when_no_game_is_given(tmp_path):
    rec = tmp_path / "i.json"
    lines = ["2", "", "", "", "bot:nobody", "bot:greedy"] + ["1"] * 600
    res = invoke(["--seed", "9", "--save", str(rec)], lines)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Which game?" in out and "How many players" in out and "Who sits where?" in out
    assert "no bot named 'nobody'" in out
    assert "Final result" in out
    data = json.loads(rec.read_text())
    assert data["game"] == "shave-a-sheep"
    assert [p["name"] for p in data["players"]] == ["player", "bot:greedy"]


def test_players_option_asks_who_sits_where():
    res = invoke(["dolly-crush", "--players", "3", "--seed", "1"], ["bot:random", "", "", "quit"])
    assert res.exit_code == 0, res.output
    assert "seat 3 [greedy]" in res.output
    assert "3 players" in res.output


def test_all_bots_game_runs_to_the_end_and_hides_scores_until_then():
    res = invoke(
        [
            "dolly-crush",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            "2",
            "--breed",
            "bobtail",
            "--breed",
            "border-collie",
            "--hide-scores",
        ],
        [],
    )
    assert res.exit_code == 0, res.output
    body, result = res.output.split("The game is over")
    assert "hidden" in body and "points." not in body
    assert "Final result" in result and "hidden" not in result


@pytest.mark.parametrize(
    "args, message",
    [
        (["nope"], "unknown game 'nope'"),
        (["shave-a-sheep", "--breed", "bobtail"], "--breed is for Dolly Crush only"),
        (
            ["dolly-crush", "--seat", "a", "--seat", "b", "--breed", "bobtail"],
            "1 --breed options for 2 seats",
        ),
        (
            [
                "dolly-crush",
                "--seat",
                "a",
                "--seat",
                "b",
                "--breed",
                "bobtail",
                "--breed",
                "bobtail",
            ],
            "a breed is used by one player at most",
        ),
        (["dolly-crush", "--seat", "a", "--players", "3"], "--players 3 but 1 --seat"),
        (["dolly-crush", "--seat", "a"], "2 to 4 seats"),
        (["dolly-crush", "--seat", "a", "--seat", "bot:x"], "no bot named 'x'"),
        (
            ["dolly-crush", "--seat", "a", "--seat", "b", "--rules", "no-such-rules"],
            "no rule set named",
        ),
        (
            ["shave-a-sheep", "--seat", "a", "--seat", "b", "--hide-scores"],
            "--hide-scores is for Dolly Crush",
        ),
    ],
)
def test_bad_options_get_a_one_line_error(args, message):
    res = invoke(args, [])
    assert res.exit_code == 2
    assert message in " ".join(res.output.split())
    assert "Traceback" not in res.output


def test_seed_is_reproducible():
    a = invoke(
        [
            "dolly-crush",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            "8",
            "--breed",
            "bobtail",
            "--breed",
            "border-collie",
        ],
        [],
    )
    b = invoke(
        [
            "dolly-crush",
            "--seat",
            "bot:greedy",
            "--seat",
            "bot:random",
            "--seed",
            "8",
            "--breed",
            "bobtail",
            "--breed",
            "border-collie",
        ],
        [],
    )
    assert a.output == b.output


# -- the parsers -----------------------------------------------------------------------------
def test_dolly_parser_accepts_the_friendly_forms():
    from sheepfold.core.drivers import BadInput
    from sheepfold.core.play import resolve_chance
    from sheepfold.games import make
    from sheepfold.games.dolly_crush.game import swap_action
    from sheepfold.games.dolly_crush.terminal import parse_move as parse_dolly

    s = make("dolly-crush").new_initial_state(seed=1)
    resolve_chance(s)
    for text in ("dog 3", "d3", "3", "DOG 3", " dog  3 "):  # the cards as the table numbers them
        assert parse_dolly(s, text) == 2
    s.apply(0)
    b2b3 = swap_action("b2", "b3")
    for text in ("b2-b3", "b2 b3", "b3-b2", "swap b2-b3", "B2B3", "b2,b3"):
        assert parse_dolly(s, text) == b2b3
    for bad in ("b2-b4", "x1-x2", "3", "hello", ""):
        with pytest.raises(BadInput):
            parse_dolly(s, bad)


def test_shave_parser_accepts_menu_numbers_words_and_names():
    from sheepfold.core.drivers import BadInput
    from sheepfold.games import make
    from sheepfold.games.shave_a_sheep import game as sg
    from sheepfold.games.shave_a_sheep.terminal import parse_move as parse_shave

    g = make("shave-a-sheep", players=3)
    s = g.new_initial_state(seed=0)
    s.apply(g.faces.index("gray/green"))
    names = ["ann", "bob", "cy"]
    legal = s.legal_actions()
    assert parse_shave(s, "1", names) == legal[0]
    assert parse_shave(s, str(len(legal)), names) == legal[-1]
    assert parse_shave(s, "swap 1", names) == sg.SWAP0  # seats counted from 1, as on the web
    assert parse_shave(s, "swap seat 2", names) == sg.SWAP0 + 1
    assert parse_shave(s, "wolf bob", names) == sg.WOLF0 + 1
    assert parse_shave(s, "grow", names) == sg.GROW  # parsed; the engine then says it is illegal
    assert s.illegal_reason(sg.GROW) is not None
    for bad in ("swap", "wolf", "0", "42", "fly away", "swap dora"):
        with pytest.raises(BadInput):
            parse_shave(s, bad, names)


def test_dolly_ruling_4_the_table_picks_the_starting_player(tmp_path):
    """Dolly Crush ruling 4: the front end lets the table pick who starts; the order stays
    clockwise."""
    save = tmp_path / "first.json"
    result = invoke(
        [
            "dolly-crush",
            "--seat",
            "ann",
            "--seat",
            "bob",
            "--seat",
            "bot:random",
            "--breed",
            "bobtail",
            "--breed",
            "border-collie",
            "--breed",
            "pastore-maremmano",
            "--first",
            "bob",
            "--seed",
            "5",
            "--save",
            str(save),
        ],
        ["quit"],
    )
    assert result.exit_code == 0, result.output
    rec = json.loads(save.read_text())
    assert [p["name"] for p in rec["players"]] == ["bob", "bot:random", "ann"]
    assert [p["breed"] for p in rec["players"]] == ["border-collie", "pastore-maremmano", "bobtail"]
    bad = invoke(["dolly-crush", "--seat", "ann", "--seat", "bob", "--first", "zoe"], [])
    assert bad.exit_code == 2 and "--first 'zoe'" in bad.output


#: a short game whose record the --save tests write
SAVING = ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "4"]


def test_save_never_replaces_a_record_without_force(tmp_path):
    rec = tmp_path / "game.json"
    rec.write_text("my old game\n")
    args = [*SAVING, "--save", str(rec)]
    res = invoke(args, ["quit"])
    assert res.exit_code == 2 and "--force" in res.output
    assert "Dolly Crush" not in res.output  # refused before the game began
    assert rec.read_text() == "my old game\n"
    res = invoke([*args, "--force"], ["quit"])
    assert res.exit_code == 0, res.output
    assert json.loads(rec.read_text())["game"] == "dolly-crush"


def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    res = invoke([*SAVING, "--save", str(blocker / "game.json")], ["quit"])
    assert res.exit_code == 2 and "cannot write in" in res.output
    res = invoke([*SAVING, "--save", str(tmp_path)], ["quit"])
    assert res.exit_code == 2 and "that is a folder" in res.output


def test_a_save_that_fails_after_the_game_exits_1(tmp_path, monkeypatch):
    import sheepfold.core.records as records

    def broken(*a, **k):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(records, "save_record", broken)
    rec = tmp_path / "g.json"
    args = [*SAVING, "--save", str(rec)]
    res = invoke(args, ["quit"])
    assert res.exit_code == 1
    said = " ".join(res.output.split())  # the terminal wraps a long path's line anywhere
    assert "Could not save the record" in said and "disk full" in said
