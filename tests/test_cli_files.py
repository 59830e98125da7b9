"""No file can crash the command line (issue 26): every rule file and record a stranger may send
is read by one bounded reader (``sheepfold.core.files``): its size in bytes before it is read,
its nesting before it is parsed, its text named when it is not UTF-8, and a record's moves and
cards before anything is replayed. Every refusal is one line naming the file, exit status 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core import files
from sheepfold.core.files import (
    MAX_DEPTH,
    MAX_RULES_BYTES,
    FileRefused,
    bracket_depth_over,
    parse_document,
    read_bytes,
)
from sheepfold.core.records import MAX_MOVES, RecordError, parse_record
from sheepfold.games.dolly_crush.record import MAX_CARDS

RUNNER = CliRunner()
RECORDS = Path(__file__).parent / "records"

DEEP_TOML = 'game = "shave-a-sheep"\nwool = ' + "[" * 5000 + "]" * 5000 + "\n"
DEEP_JSON = '{"game": "shave-a-sheep", "wool": ' + "[" * 5000 + "]" * 5000 + "}"
LATIN1_TOML = 'game = "shave-a-sheep"\nname = "caf\xe9"\n'.encode("latin-1")
HUGE_INT_JSON = '{"game": "shave-a-sheep", "wool": ' + "9" * 5000 + "}"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHEEPFOLD_HOME", str(tmp_path / "home"))
    return tmp_path


def one_line_error(result: object, *words: str) -> str:
    """The command refused with exit 2 and one line ``error: ...`` holding ``words``."""
    out = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 2, out  # type: ignore[attr-defined]
    assert "Traceback" not in out and not isinstance(result.exception, RecursionError)  # type: ignore[attr-defined]
    text = " ".join(out.split())  # the terminal's wrapping undone
    assert text.startswith("error:"), out
    for w in words:
        assert w in text, out
    return text


# -- rule files ---------------------------------------------------------------------------------
BAD_RULE_FILES = {
    "deep.toml": (DEEP_TOML.encode(), "nested too deeply"),
    "deep.json": (DEEP_JSON.encode(), "nested too deeply"),
    "latin1.toml": (LATIN1_TOML, "not UTF-8 text: byte 0xE9 at position 34"),
    "huge-int.json": (HUGE_INT_JSON.encode(), "not valid JSON: Exceeds the limit"),
    "huge-int.toml": (HUGE_INT_JSON.replace(":", " =").encode()[1:-1], "not valid TOML"),
    "big.toml": (b"#" * (MAX_RULES_BYTES + 1), "too large (65537 bytes)"),
}


@pytest.mark.parametrize("name", list(BAD_RULE_FILES))
@pytest.mark.parametrize(
    "command",
    [
        ["rules", "check"],
        ["rules", "show"],
        ["play", "shave-a-sheep", "--rules"],
        ["lab", "run", "shave-a-sheep", "--games", "1", "--rules"],
        ["solve", "shave-a-sheep", "--rules"],
        ["rules", "publish", "--server", "http://127.0.0.1:9", "--author", "ewe"],
    ],
)
def test_a_bad_rule_file_is_one_line_and_exit_2(home: Path, name: str, command: list[str]) -> None:
    data, words = BAD_RULE_FILES[name]
    path = home / name
    path.write_bytes(data)
    result = RUNNER.invoke(app, [*command, str(path)])
    one_line_error(result, str(path), words)


def test_a_device_or_a_huge_rule_file_is_refused_unread(home: Path) -> None:
    result = RUNNER.invoke(app, ["rules", "check", "/dev/zero"])
    one_line_error(result, "/dev/zero: too large", "at most 64 KiB")
    sparse = home / "sparse.toml"
    with sparse.open("wb") as f:
        f.truncate(100 * 1024 * 1024)  # 100 MB on paper, nothing on the disk
    result = RUNNER.invoke(app, ["rules", "check", str(sparse)])
    one_line_error(result, "too large (104857600 bytes)")  # measured, not read


def test_user_rule_sets_with_a_broken_file_are_still_listed(home: Path) -> None:
    rules = home / "home" / "rules"
    rules.mkdir(parents=True)
    (rules / "deep.toml").write_text(DEEP_TOML)
    result = RUNNER.invoke(app, ["rules", "list"])
    assert result.exit_code == 0 and "cutting-costs" in result.output


# -- records ------------------------------------------------------------------------------------
def _record(**extra: object) -> dict[str, object]:
    rec = json.loads((RECORDS / "shave-rulebook.json").read_text())
    rec.update(extra)
    return rec


def _dolly(**extra: object) -> dict[str, object]:
    rec = json.loads((RECORDS / "dolly-cross.json").read_text())
    rec.update(extra)
    return rec


def test_replay_refuses_a_huge_record_by_its_size(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.json"
    with sparse.open("wb") as f:
        f.truncate(100 * 1024 * 1024)
    result = RUNNER.invoke(app, ["replay", str(sparse), "--json"])
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["move"] is None and "too large (104857600 bytes)" in out["error"]
    assert str(sparse) in out["error"]
    result = RUNNER.invoke(app, ["replay", "/dev/zero"])
    one_line_error(result, "/dev/zero: too large", "at most 4 MiB")


def test_play_load_reads_a_record_within_its_cap() -> None:
    result = RUNNER.invoke(app, ["play", "--load", "/dev/zero"])
    one_line_error(result, "--load /dev/zero: too large", "at most 4 MiB")


def test_standard_input_is_read_no_further_than_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_RECORD_BYTES", 1000)
    result = RUNNER.invoke(app, ["replay", "-", "--json"], input=" " * 5000)
    assert result.exit_code == 2
    assert "standard input: too large" in json.loads(result.stdout)["error"]
    stream = io.BytesIO(b"x" * 10_000)
    with pytest.raises(FileRefused, match="too large"):
        read_bytes(stream, 100)
    assert stream.tell() == 101  # never more than the cap and one byte


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"[" * 100_000, "nested too deeply"),
        (b'{"format": "sheepfold-record/1", "game": "caf\xe9"}', "byte 0xE9 at position 45"),
        (b"\xef\xbb\xbf[1]", "a record is a JSON object"),  # a byte-order mark is no error
    ],
)
def test_record_text_problems_are_named(tmp_path: Path, data: bytes, words: str) -> None:
    path = tmp_path / "rec.json"
    path.write_bytes(data)
    result = RUNNER.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2 and words in json.loads(result.stdout)["error"]
    result = RUNNER.invoke(app, ["replay", str(path)])
    one_line_error(result, f"{path}: ", words)


def test_a_record_with_too_many_cards_or_moves_is_refused_before_replaying(
    tmp_path: Path,
) -> None:
    deck = ["ram-black"] * 5_000_000
    with pytest.raises(RecordError, match="deck: 5000000 cards, more than a record may hold"):
        parse_record(_dolly(deck=deck))
    # as a file it is 60 MB: refused by its size, unread (test_replay_refuses_a_huge_record...)
    big = [
        (_dolly(deck=deck[: MAX_CARDS + 1]), "deck", f"deck: {MAX_CARDS + 1} cards"),
        (_dolly(draws=deck[: MAX_CARDS + 1]), "draws", f"({MAX_CARDS})"),
        (
            _record(moves=[{"roll": "white", "action": "grow"}] * (MAX_MOVES + 1)),
            "moves",
            f"moves: {MAX_MOVES + 1} moves, more than a record may hold ({MAX_MOVES})",
        ),
    ]
    for rec, field, words in big:
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(rec))
        result = RUNNER.invoke(app, ["replay", str(path), "--json"])
        assert result.exit_code == 2, result.output
        out = json.loads(result.stdout)
        assert out["field"] == field and words in out["error"]
        with pytest.raises(RecordError, match="more than a record may hold"):
            parse_record(rec)
    result = RUNNER.invoke(app, ["analyse", str(tmp_path / "moves.json"), "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["field"] == "moves"
    result = RUNNER.invoke(app, ["analyse", str(tmp_path / "moves.json")])
    one_line_error(result, "more than a record may hold")


def test_a_record_at_the_caps_is_read() -> None:
    rec = _dolly(deck=[*_dolly()["deck"], *["ram-black"] * 100])  # type: ignore[list-item]
    assert parse_record(rec).game == "dolly-crush"
    assert parse_record(json.dumps(_record()).encode()).game == "shave-a-sheep"


def test_analyse_reads_standard_input_once() -> None:
    text = (RECORDS / "dolly-cross.json").read_text()
    result = RUNNER.invoke(app, ["analyse", "-"], input=text)
    one_line_error(result, "analyse reads Shave a Sheep records")


# -- the reader itself --------------------------------------------------------------------------
def test_depth_is_counted_outside_strings_and_comments() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert not bracket_depth_over(ok, "json", MAX_DEPTH)
    assert bracket_depth_over(deep, "json", MAX_DEPTH)
    assert bracket_depth_over("[{" * 40 + "}]" * 40, "json", MAX_DEPTH)
    quoted = json.dumps({"name": "[" * 500, "also": '\\"[' * 200})
    assert not bracket_depth_over(quoted, "json", MAX_DEPTH)
    assert parse_document(quoted.encode(), "json", "x")["name"] == "[" * 500
    toml = f'# {"[" * 500}\nname = \'{"[" * 500}\'\nabout = """\n{"{" * 500}\n"""\n'
    assert parse_document(toml, "toml", "x")["name"] == "[" * 500
    # many lists side by side are not deep
    assert not bracket_depth_over("[" + "[1]," * 10_000 + "[1]]", "json", MAX_DEPTH)


def test_toml_dotted_keys_count_as_depth() -> None:
    with pytest.raises(FileRefused, match="nested too deeply"):
        parse_document("a" + ".a" * 5000 + " = 1", "toml", "x.toml")
    with pytest.raises(FileRefused, match="nested too deeply"):
        parse_document("[" + ".".join(["t"] * 100) + "]\nx = 1", "toml", "x.toml")
    assert parse_document("[dog_swaps]\nbobtail = [1, 2]", "toml", "x.toml") == {
        "dog_swaps": {"bobtail": [1, 2]}
    }


def test_a_request_body_is_checked_like_a_file() -> None:
    """What the web server calls on a body: the same limits, the name it gives."""
    with pytest.raises(FileRefused) as e:
        parse_document(DEEP_TOML.encode(), "toml", "the rule set")
    assert str(e.value).startswith("the rule set: nested too deeply")
    assert e.value.problem.startswith("nested too deeply")
    with pytest.raises(FileRefused, match="too large"):
        parse_document(b" " * (MAX_RULES_BYTES + 1), "json", "the rule set")
    with pytest.raises(FileRefused, match="0xE9"):
        parse_document(LATIN1_TOML, "toml", "the rule set")
    assert parse_document(b'{"wool": 12}', "json", "the rule set") == {"wool": 12}
