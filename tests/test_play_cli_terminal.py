"""Terminal play (issue 16, "A terminal game people enjoy"): the end screen says why the game
ended, clean-ups are announced, fair dog cards by default, save / load / undo, line editing,
and a replay to step through."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app

runner = CliRunner()
BOTS = ["--seat", "bot:greedy", "--seat", "bot:random", "--seed", "2"]
DOLLY_BOTS = ["dolly-crush", *BOTS, "--breed", "bobtail", "--breed", "border-collie"]


def invoke(args: list[str], lines: list[str] | None = None):
    return runner.invoke(app, ["play", *args], input="\n".join(lines or []) + "\n")


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 1. the end screen says why the game ended ----------------------------------------------
@pytest.mark.parametrize(
    "extra, reason",
    [
        ([], "because every dog card has been played."),
        (["--set", "white_per_type=4", "--set", "black_per_type=0"], "the deck ran out"),
        (
            ["--set", "types=2", "--set", "max_cleanup_rounds=1"],
            "because the sheep cards ran out: the last cards in the deck kept making lines.",
        ),
        (["--set", "end_points=6"], "Greedy bot reached the points target of 6"),
        (["--set", "rounds=1"], "The game ended after 1 round."),
        (["--set", "rounds=2"], "The game ended after 2 rounds."),
    ],
)
def test_dolly_end_screen_says_why(extra: list[str], reason: str) -> None:
    res = invoke([*DOLLY_BOTS, *extra])
    assert res.exit_code == 0, res.output
    end = flat(res.output.split("The game is over")[1])
    assert reason in end


@pytest.mark.parametrize(
    "extra, reason",
    [
        ([], "because the last piece of wool left the middle: every sheep was shorn"),
        (["--set", "target=8"], "Random bot's safe pile reached the target of 8"),
        (["--set", "max_turns=6"], "at the turn limit (6 turns): no result"),
    ],
)
def test_shave_end_screen_says_why(extra: list[str], reason: str) -> None:
    res = invoke(["shave-a-sheep", *BOTS, *extra])
    assert res.exit_code == 0, res.output
    end = flat(res.output.split("The game is over")[1])
    assert reason in end


@pytest.mark.parametrize("seed", range(4))
def test_shave_end_screen_under_a_shear_cost_does_not_contradict_the_board(seed: int) -> None:
    """Cutting costs: the final shear pays a piece per sheep back, so the middle it leaves is
    not empty; the end screen says so instead of only "the last piece left the middle"."""
    res = invoke(
        ["shave-a-sheep", "--seat", "bot:greedy", "--seat", "bot:random", "--seed", str(seed)]
        + ["--rules", "cutting-costs"]
    )
    assert res.exit_code == 0, res.output
    end = res.output.split("The game is over")[1]
    middle = int(re.search(r"wool in the middle: (\d+)", end).group(1))  # type: ignore[union-attr]
    text = flat(end)
    assert "the last piece of wool left the middle" in text
    if middle:
        assert f"The final shear paid {middle} piece" in text
        assert f"so the middle shows {middle}" in text
    else:
        assert "paid" not in text


# -- 2. Dolly Crush clean-ups are announced -----------------------------------------------------
def _cleanups_by_the_engine(seed: int, extra: list[str]) -> int:
    """The clean-ups of the same all-bots game, counted by watching the engine's cards waiting
    to be shuffled back (independent of the CLI's note)."""
    from sheepfold.bots import make_bot
    from sheepfold.cli.common import resolve_rules
    from sheepfold.games import make

    sets = [extra[i + 1] for i in range(0, len(extra), 2)]
    g = make(
        "dolly-crush",
        players=2,
        rules=resolve_rules("dolly-crush", None, sets, []),
        breeds=["bobtail", "border-collie"],
    )
    bots = [make_bot(b, g, i, seed=seed * 31 + i) for i, b in enumerate(["greedy", "random"])]
    st = g.new_initial_state(seed=seed)
    count = 0
    while not st.is_terminal():
        if st.is_chance_node():
            rounds = st.cleanup_rounds
            st.apply_unchecked(st.sample_chance(None))
            count += st.cleanup_rounds > rounds
        else:
            st.apply(bots[st.current_player()].act(st.observe(st.current_player())))
    return count


@pytest.mark.parametrize("extra", [[], ["--set", "types=3"]])
def test_dolly_cleanups_are_announced(extra: list[str]) -> None:
    res = invoke([*DOLLY_BOTS, *extra])
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    notes = re.findall(r"Clean-up: the refill made lines at ((?:[a-h]\d ?)+)\.", out)
    expected = _cleanups_by_the_engine(2, extra)
    assert len(notes) == expected
    if extra:
        assert expected > 0
    for cells in notes:
        assert len(cells.split()) >= 3
    assert out.count("score for nobody") == expected


# -- 3. the Howling Wolf face label ---------------------------------------------------------
def test_howling_wolf_gray_face_is_labelled_as_the_race() -> None:
    res = invoke(
        ["shave-a-sheep", "--seat", "ann", "--seat", "bot:greedy", "--seed", "5"]
        + ["--rules", "howling-wolf"],
        ["1"] * 400,
    )
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert re.search(r"rolled (gray/white|white/gray) \(the wolf race, then you may grow\)", out)
    assert "grow or wolf" not in out and "wolf or grow" not in out
    # the faces without gray keep their choices
    assert re.search(r"rolled (white/green \(grow or swap\)|green/pink \(swap or shear\))", out)


# -- 4. fair dog cards by default ------------------------------------------------------------
def _swaps_shown(out: str) -> set[str]:
    """The dog cards' swap counts in the seat table (``0:1 1:2 ...``)."""
    return set(re.findall(r"\b\d:(\d)\b", out))


def test_dolly_defaults_to_the_graded_dog_cards(tmp_path) -> None:
    rec = tmp_path / "g.json"
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "1"]
        + ["--save", str(rec)],
        ["quit"],
    )
    assert res.exit_code == 0, res.output
    head = flat(res.output.split("\n\n")[0])
    assert "rules: dolly-graded" in head
    assert "Fair dog cards: the graded edition (dolly-graded)" in head
    assert "--rules dolly-rulebook" in head
    assert "Warning" not in res.output
    assert _swaps_shown(res.output) == {"1", "2", "3", "4"}
    import json

    cards = json.loads(rec.read_text())["rules"]["dog_swaps"]  # the record keeps the cards
    assert set(map(tuple, cards.values())) == {(1, 2, 3, 4)}


def test_dolly_rulebook_cards_come_with_a_warning() -> None:
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "1"]
        + ["--rules", "dolly-rulebook"],
        ["quit"],
    )
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert "Warning: unequal dog cards (Pastore Maremmano 1 swap a card; Australian" in out
    assert "decide the game" in out
    assert _swaps_shown(res.output) == {"1", "4"}


def test_dolly_chosen_breeds_keep_the_rulebook() -> None:
    """--breed picks the printed cards of those breeds: no silent change of rules."""
    res = invoke(
        ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "1"]
        + ["--breed", "bobtail", "--breed", "border-collie"],
        ["quit"],
    )
    out = flat(res.output)
    assert "rules: rulebook" in out and "Dog cards: every seat's dog cards: 1 swap a card." in out


# -- 5. save, load and undo -------------------------------------------------------------------
def _dolly_turn(dog: int) -> list[str]:
    """Ann's turn with graded dog card ``dog`` (dog + 1 swaps): a1-a2 back and forth."""
    return [f"dog {dog + 1}"] + ["a1-a2"] * (dog + 1)  # dog cards typed from 1


DOLLY_ANN = ["dolly-crush", "--seat", "ann", "--seat", "bot:greedy", "--seed", "3"]


def _moves(path) -> list:
    import json

    return json.loads(path.read_text())["moves"]


def test_dolly_save_during_the_game_then_load_goes_on_the_same(tmp_path, monkeypatch) -> None:
    # short relative names: a long temporary path (xdist's) would be folded by the terminal
    monkeypatch.chdir(tmp_path)
    full, part, rest = Path("full.json"), Path("part.json"), Path("rest.json")
    turns = [line for d in range(4) for line in _dolly_turn(d)]
    res = invoke([*DOLLY_ANN, "--save", str(full)], turns)
    assert res.exit_code == 0 and "Final result" in res.output, res.output

    first, second = _dolly_turn(0) + _dolly_turn(1), _dolly_turn(2) + _dolly_turn(3)
    # save in the middle of a turn: the record has whole turns, and the game goes on
    res = invoke(DOLLY_ANN, [*first, "dog 3", "a1-a2", f"save {part}", "a1-a2", "a1-a2", "quit"])
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert (
        f"Saved the game so far (whole turns; your turn in progress is not in it) in {part}" in out
    )
    assert f"sheepfold play --load {part}" in out
    assert out.count("ann takes") + out.count("ann made no line") == 3  # the game went on
    assert len(_moves(part)) == 4

    res = invoke(["--load", str(part), "--save", str(rest)], second)
    assert res.exit_code == 0, res.output
    assert f"continued from {part} after 4 moves" in flat(res.output)
    assert "Greedy bot plays" in res.output  # the bot seat is a bot again
    assert "Final result" in res.output
    assert _moves(rest) == _moves(full)


def test_shave_save_then_load_goes_on_the_same(tmp_path) -> None:
    full, part, rest = tmp_path / "full.json", tmp_path / "part.json", tmp_path / "rest.json"
    args = ["shave-a-sheep", "--seat", "ann", "--seat", "bot:greedy", "--seed", "4"]
    assert invoke([*args, "--save", str(full)], ["1"] * 300).exit_code == 0
    res = invoke(args, ["1"] * 5 + [f"save {part}", "quit"])
    assert "Saved the game so far (whole turns)" in flat(res.output)
    res = invoke(["--load", str(part), "--save", str(rest)], ["1"] * 300)
    assert res.exit_code == 0 and "Final result" in res.output, res.output
    assert _moves(rest) == _moves(full)


def test_save_refuses_to_replace_another_file_and_needs_a_name(tmp_path) -> None:
    other = tmp_path / "other.json"
    other.write_text("keep me")
    res = invoke(DOLLY_ANN, ["save", f"save {other}", "quit"])
    out = flat(res.output)
    assert "Save where? Type save FILE" in out
    assert "exists already" in out and other.read_text() == "keep me"


def test_load_takes_everything_from_the_record(tmp_path) -> None:
    part = tmp_path / "p.json"
    invoke(DOLLY_ANN, [f"save {part}", "quit"])
    res = invoke(["--load", str(part), "--seed", "4"], [])
    assert res.exit_code == 2 and "--load takes the game, rules, seed and seats" in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    res = invoke(["--load", str(bad)], [])
    assert res.exit_code == 2 and "not a record sheepfold can continue" in res.output


def test_undo_takes_back_swaps_then_the_dog_card(tmp_path) -> None:
    rec = tmp_path / "u.json"
    lines = ["undo", "dog 3", "a1-a2", "b1-b2", "undo", "undo", "undo", "dog 1", "c1-c2", "quit"]
    res = invoke([*DOLLY_ANN, "--save", str(rec)], lines)
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert out.count("Nothing to undo") == 1
    assert "Undone: the last swap is taken back." in out
    assert "Undone: the dog card is taken back." in out
    assert _moves(rec)[0] == {"dog": 0, "swaps": [["c1", "c2"]]}


def test_shave_has_nothing_to_undo() -> None:
    res = invoke(
        ["shave-a-sheep", "--seat", "ann", "--seat", "bot:greedy", "--seed", "3"], ["undo"]
    )
    assert "a Shave a Sheep move is final" in flat(res.output)


# -- 6. line editing and history --------------------------------------------------------------
def _play_in_a_terminal(
    args: list[str],
    keys: list[bytes],
    timeout: float = 60,
    command: str = "play",
    prompt: bytes = b"\n> ",
) -> str:
    """The real command on a pseudo-terminal, typing ``keys`` one line at a time, each once
    a new ``prompt`` waits for it."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sheepfold.cli.main", command, *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout

    def read_some() -> bool:
        nonlocal out
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            return True
        try:
            data = os.read(master, 65536)
        except OSError:  # the command has ended
            return False
        out += data
        return bool(data)

    try:
        prompts = 0
        for key in keys:
            # a new prompt, and nothing after it: readline is waiting for keys (raw mode)
            while time.monotonic() < deadline:
                if not read_some():
                    break
                if out.count(prompt) > prompts and out.endswith(prompt.lstrip(b"\n")):
                    break
            prompts = out.count(prompt)
            os.write(master, key)
        while time.monotonic() < deadline and proc.poll() is None:
            read_some()
        while read_some() and select.select([master], [], [], 0.1)[0]:
            pass
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return out.decode(errors="replace")


def test_typed_moves_have_history_and_line_editing_on_a_terminal() -> None:
    out = _play_in_a_terminal(
        DOLLY_ANN,
        [
            b"hint\r",
            b"\x1b[A\r",  # up arrow: the line before ("hint") again
            b"dog 9\x7f1\r",  # backspace: "dog 1"
            b"quit\r",
        ],
    )
    assert out.count("greedy would play") == 2, out[-3000:]
    assert "Not a move" not in out and "^[[A" not in out
    assert "ann plays: dog 1" in re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)


def test_no_line_editing_on_a_pipe() -> None:
    from sheepfold.cli import prompts as play

    play._line_editing = None
    res = invoke(DOLLY_ANN, ["quit"])
    assert res.exit_code == 0
    assert play._line_editing is False


# -- 7. replay --step -------------------------------------------------------------------------
def _a_dolly_record(tmp_path):
    rec = tmp_path / "d.json"
    turns = [line for d in range(4) for line in _dolly_turn(d)]
    assert invoke([*DOLLY_ANN, "--save", str(rec)], turns).exit_code == 0
    return rec


def test_replay_step_prints_every_position_without_a_terminal(tmp_path) -> None:
    rec = _a_dolly_record(tmp_path)
    n = len(_moves(rec))
    res = runner.invoke(app, ["replay", str(rec), "--step"])
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert "Start (8 moves)" in out and n == 8
    for k in range(1, n + 1):
        assert f"Move {k} of {n}" in out
    assert "ann: dog 1 (1 swap), swap a1-a2" in out
    assert "changed cells (underlined): a1 a2" in out
    assert re.search(r"Greedy bot takes \d+ sheep: \+\d+ points", out)
    assert "deck: 85 -> " in out
    assert "The game ended because every dog card has been played" in out
    assert out.endswith("8 moves applied.")


def test_replay_step_shows_wool_moving_and_keeps_the_error_contract() -> None:
    from pathlib import Path

    records = Path(__file__).parent / "records"
    res = runner.invoke(app, ["replay", str(records / "shave-cutting-costs-end.json"), "--step"])
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    # the move in the rules' words (what was rolled and what it offers, what was done)
    assert "bob: rolled x2 (double), double (take up to two pieces from the middle" in out
    assert "wool in the middle: 1 -> 2" in out and "ann: safe pile 0 -> 2" in out
    assert "The final shear paid 2 pieces back to the middle" in out
    bad = runner.invoke(app, ["replay", str(records / "shave-illegal-swap.json"), "--step"])
    assert bad.exit_code == 2
    assert "Move 1 of" in bad.output and "error: move 1: swap needs another player" in flat(
        bad.output
    )


def test_replay_step_at_a_terminal_waits_for_enter_and_quits_on_q(tmp_path) -> None:
    rec = _a_dolly_record(tmp_path)
    out = _play_in_a_terminal(
        [str(rec), "--step"], [b"\r", b"\r", b"q\r"], command="replay", prompt=b"quit] "
    )
    out = flat(re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out))
    assert "Move 2 of 8" in out and "Move 3 of 8" not in out
    assert "Stopped after 2 of 8 moves." in out


# -- 8. --screen: the board redrawn with what changed since you last looked ---------------------
def test_screen_shows_what_changed_since_your_last_look() -> None:
    res = invoke([*DOLLY_ANN, "--screen"], ["dog 1", "a1-a2", "dog 2", "b1-b2", "b2-b3", "quit"])
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    screens = out.split("ann · Dolly Crush · seed 3")
    assert len(screens) >= 4  # one per decision of ann's
    assert "Since you last looked:" not in screens[1]  # the first look
    last = screens[-1]
    assert "Since you last looked: changed cells (underlined):" in last
    assert re.search(r"Greedy bot takes \d+ sheep: \+\d+ points", last)
    assert "Greedy bot plays: dog" in last  # the bot's moves meanwhile, in the log
    # the bots' turns draw no board of their own
    assert out.count("key: b bell") == len(screens) - 1


def test_screen_keeps_hidden_scores_hidden() -> None:
    res = invoke(
        [*DOLLY_ANN, "--screen", "--hide-scores"],
        ["dog 1", "a1-a2", "dog 2", "b1-b2", "b2-b3", "quit"],
    )
    out = flat(res.output)
    assert re.search(r"Greedy bot takes \d+ sheep", out)
    assert "points" not in out.split("Since you last looked")[-1].replace("(1 pt)", "")


def test_interactive_dolly_defaults_to_fair_cards_and_rulebook_means_the_printed_ones() -> None:
    # game 1 (Dolly Crush), rules: Enter, 2 players, seats: Enter Enter, breeds: Enter Enter
    res = runner.invoke(app, ["play", "--seed", "1"], input="1\n\n\n\n\n\n\nquit\n")
    assert res.exit_code == 0, res.output
    assert "rules [dolly-graded]" in res.output and "rules: dolly-graded" in flat(res.output)
    res = runner.invoke(app, ["play", "--seed", "1"], input="1\nrulebook\n\n\n\n\n\nquit\n")
    assert res.exit_code == 0, res.output
    assert "rules: dolly-rulebook" in flat(res.output) and "Warning: unequal dog cards" in flat(
        res.output
    )
