"""The record contract (docs/spec/records.md): what ``to_record`` writes, what ``replay``
accepts and refuses, and the replay summary's fields."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sheepfold.core.play import resolve_chance
from sheepfold.core.records import (
    FORMAT,
    RecordError,
    parse_record,
    replay,
    save_record,
    summary,
    to_record,
)
from sheepfold.games import make

RECORDS = Path(__file__).parent / "records"


def random_game(
    name: str,
    players: int = 2,
    seed: int = 0,
    steps: int | None = None,
    chance_rng: random.Random | None = None,
    **rules: object,
):  # noqa: ANN201
    s = make(name, players, **rules).new_initial_state(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal() and (steps is None or n < steps):
        if s.is_chance_node():
            s.apply(s.sample_chance(chance_rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
        n += 1
    return s


def test_to_record_writes_the_contract_fields() -> None:
    s = random_game("dolly-crush", 3, seed=4)
    rec = to_record(s, ["ann", "bob", "cat"])
    assert list(rec)[:2] == ["format", "game"] and rec["format"] == FORMAT == "sheepfold-record/1"
    assert rec["game"] == "dolly-crush"
    assert rec["players"] == [
        {"name": "ann", "breed": "pastore-maremmano"},
        {"name": "bob", "breed": "australian-shepherd"},
        {"name": "cat", "breed": "bobtail"},
    ]
    assert "rules" not in rec  # the rulebook defaults: absent
    assert rec["seed"] == 4 and len(rec["deck"]) == 100 and "draws" not in rec
    assert all(set(m) == {"dog", "swaps"} for m in rec["moves"]) and len(rec["moves"]) == 12
    s = random_game("shave-a-sheep", 2, seed=5, variants=["my-friend-mr-wolf"], wool=20)
    rec = to_record(s)
    assert rec["players"] == [{"name": "seat 0"}, {"name": "seat 1"}]
    assert rec["rules"] == {"wool": 20, "variants": ["my-friend-mr-wolf"]}
    for m in rec["moves"]:
        assert set(m) <= {"roll", "action", "target", "mode"}
        if m["action"] == "wolf":
            assert m["mode"] in ("send", "raid") and ("target" in m) == (m["mode"] == "send")
        else:
            assert "mode" not in m
    with pytest.raises(ValueError):
        to_record(s, ["just one"])


def test_the_deck_is_top_card_first_and_fixes_the_deal() -> None:
    deck = json.loads((RECORDS / "dolly-cross.json").read_text())["deck"]
    out = replay({**json.loads((RECORDS / "dolly-cross.json").read_text()), "moves": []})
    assert out.error is None
    assert [c for row in summary(out.state, 0)["flock"] for c in row] == deck[:15]
    assert summary(out.state, 0)["deck_size"] == len(deck) - 15


def test_without_a_deck_the_standard_deck_is_shuffled_with_the_seed() -> None:
    base = {
        "format": FORMAT,
        "game": "dolly-crush",
        "moves": [],
        "players": [{"name": "a", "breed": "bobtail"}, {"name": "b", "breed": "border-collie"}],
    }
    a, a2, b = (summary(replay({**base, "seed": x}).state, 0) for x in (1, 1, 2))
    assert a == a2 and a["flock"] != b["flock"] and a["deck_size"] == 85


def test_any_game_finished_or_not_is_saved_and_replays(tmp_path: Path) -> None:
    for name, rules in (("dolly-crush", {}), ("shave-a-sheep", {"variants": ["howling-wolf"]})):
        for steps in (0, 7, 40, None):
            s = random_game(name, 3, seed=9, steps=steps, **rules)
            path = save_record(s, tmp_path / "sub" / f"{name}-{steps}.json", ["a", "b", "c"])
            out = replay(path)
            assert out.error is None and out.names == ("a", "b", "c")
            # a turn in progress is left out; whole turns are all there
            assert summary(out.state, out.moves_applied)["moves_applied"] == len(
                json.loads(path.read_text())["moves"]
            )
            if steps is None:
                assert out.state.snapshot() == s.snapshot()
    assert not list((tmp_path / "sub").glob(".*.tmp"))  # atomic writes leave nothing behind


def test_draws_that_are_not_the_deck_top_are_written_and_replayed() -> None:
    s = random_game("dolly-crush", 2, seed=3, chance_rng=random.Random(8))
    rec = to_record(s)
    assert "draws" in rec and len(rec["draws"]) == sum(1 for w, _ in s.history if w == -1)
    out = replay(json.dumps(rec))
    assert out.error is None and out.state.snapshot() == s.snapshot()
    rec["draws"][0] = "ram-black" if rec["draws"][0] != "ram-black" else "bell-white"
    rec["draws"] = rec["draws"][:1] + ["ram-black"] * 30  # more ram-black than the deck holds
    with pytest.raises(RecordError, match="draws") as e:
        replay(rec)
    assert e.value.field == "draws" and e.value.move is None


def test_new_optional_fields_are_accepted() -> None:
    rec = json.loads((RECORDS / "shave-rulebook.json").read_text())
    rec["event"] = "club night"
    rec["players"][0]["rating"] = 1500
    rec["moves"][0]["comment"] = "bold"
    out = replay(rec)
    assert out.error is None and out.moves_applied == 6


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"format": "sheepfold-record/2"}, "format", "sheepfold-record/1"),
        ({"game": "chess"}, "game", "dolly-crush"),
        ({"players": [{"name": "solo"}]}, "players", "at least 2"),
        ({"players": [{"name": str(i)} for i in range(5)]}, "players", "at most 4"),
        ({"players": [{"name": 3}, {"name": "b"}]}, "players.0.name", "string"),
        ({"moves": {"roll": "white"}}, "moves", "list"),
        ({"seed": "7"}, "seed", "integer"),
        ({"seed": True}, "seed", "integer"),
        ({"rules": {"wool": -3}}, "rules", "wool"),
        ({"rules": {"colour": "pink"}}, "rules", "unknown field"),
        ({"moves": [{"roll": 6, "action": "grow"}]}, "moves.0.roll", "string"),
        ({"moves": [{"roll": "white", "action": "fly"}]}, "moves.0.action", "grow"),
        ({"moves": [{"action": "grow"}]}, "moves.0.roll", "required"),
        ({"moves": [{"roll": "white", "action": "grow", "target": -1}]}, "moves.0.target", "0"),
    ],
)
def test_a_file_that_is_not_a_record_names_the_field(change: dict, field: str, words: str) -> None:
    rec = {**json.loads((RECORDS / "shave-rulebook.json").read_text()), **change}
    with pytest.raises(RecordError) as e:
        replay(json.dumps(rec))
    assert e.value.field == field or e.value.message.startswith(field), e.value.message
    assert words in e.value.message, e.value.message


@pytest.mark.parametrize(
    "move, k, words",
    [
        ({"roll": "white", "action": "grow", "target": 1}, 0, "only for swap and wolf"),
        ({"roll": "white", "action": "grow", "seat": 1}, 0, "seat 0's turn"),
        (
            {"roll": "gray/pink", "action": "wolf", "mode": "send", "target": 1},
            0,
            "My friend Mr. Wolf",
        ),
        ({"roll": "white", "grabber": 1, "target": 0, "grow": True}, 0, "Howling Wolf"),
        ({"roll": "white/pink"}, 0, "needs an 'action'"),
        ({"roll": "gray/green", "action": "swap"}, 0, "needs a 'target'"),
        ({"roll": "gray/green", "action": "wolf", "target": 2}, 0, "no seat 2"),
        ({"roll": "purple", "action": "grow"}, 0, "not a face"),
    ],
)
def test_a_move_that_breaks_a_rule_is_reported_with_its_index(
    move: dict, k: int, words: str
) -> None:
    rec = {
        "format": FORMAT,
        "game": "shave-a-sheep",
        "players": [{"name": "a"}, {"name": "b"}],
        "moves": [move],
    }
    out = replay(rec)
    assert out.error is not None and out.error.move == k and out.moves_applied == k
    assert words in out.error.message, out.error.message
    assert out.error.to_json() == {"error": out.error.message, "move": k}


def test_moves_after_the_end_are_refused() -> None:
    rec = json.loads((RECORDS / "dolly-graded-deck-out.json").read_text())
    rec["moves"].append({"dog": 0, "swaps": [["a1", "a2"]]})
    out = replay(rec)
    assert out.error and out.error.move == 1 and "already over" in out.error.message
    assert summary(out.state, out.moves_applied)["finished"] is True


def test_dolly_seat_field_must_match() -> None:
    rec = json.loads((RECORDS / "dolly-cross.json").read_text())
    rec["moves"][1]["seat"] = 0
    out = replay(rec)
    assert out.error and out.error.move == 1 and "seat 1's turn, not seat 0's" in out.error.message


def test_summary_fields_are_exactly_the_contract() -> None:
    d = summary(random_game("dolly-crush", 2, seed=1), 8)
    assert list(d) == [
        "game",
        "finished",
        "scores",
        "winners",
        "moves_applied",
        "flock",
        "deck_size",
        "collected",
        "dogs_left",
    ]
    assert len(d["flock"]) == 3 and all(len(r) == 5 for r in d["flock"])
    assert all(isinstance(x, int) for x in d["scores"])
    s = random_game("shave-a-sheep", 3, seed=1)
    sh = summary(s, 1)
    # the contract's fields, then the lead's extras: middle (wool in the middle), truncated
    assert list(sh) == [
        "game",
        "finished",
        "scores",
        "winners",
        "moves_applied",
        "pile",
        "sheep",
        "wolf",
        "middle",
        "truncated",
    ]
    assert sh["pile"] == s.piles and sh["scores"] == s.piles  # pile = each seat's safe pile
    assert sh["middle"] + sum(sh["sheep"]) + sum(sh["pile"]) == 30
    unfinished = summary(random_game("shave-a-sheep", 2, seed=1, steps=4), 2)
    assert unfinished["finished"] is False and unfinished["winners"] == []


def test_parse_record_accepts_text_bytes_paths_and_objects(tmp_path: Path) -> None:
    text = (RECORDS / "shave-rulebook.json").read_text()
    for source in (text, text.encode(), RECORDS / "shave-rulebook.json", json.loads(text)):
        assert parse_record(source).game == "shave-a-sheep"
    for bad, words in (
        ("[1, 2]", "JSON object"),
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ('{"seed": NaN}', "NaN"),
        ("[" * 100_000, "nested too deeply"),
        (tmp_path / "missing.json", "cannot read"),
    ):
        with pytest.raises(RecordError, match=words):
            parse_record(bad)
    (tmp_path / "latin1.json").write_bytes(b'{"name": "\xe9"}')
    with pytest.raises(RecordError, match="UTF-8"):
        parse_record(tmp_path / "latin1.json")


def test_resolve_chance_after_replay_is_a_no_op() -> None:
    out = replay(RECORDS / "dolly-cross.json")
    before = out.state.snapshot()
    resolve_chance(out.state)
    assert out.state.snapshot() == before


def test_mr_wolf_moves_mode_inference_and_raid_target() -> None:
    base = {
        "format": FORMAT,
        "game": "shave-a-sheep",
        "players": [{"name": "a"}, {"name": "b"}],
        "rules": {"variants": ["my-friend-mr-wolf"]},
    }
    # without 'mode': a target means send (option A)
    out = replay({**base, "moves": [{"roll": "gray/pink", "action": "wolf", "target": 1}]})
    assert out.error is None and summary(out.state, 1)["wolf"] == 1
    # a raid naming a target must name the wolf's seat
    out = replay(
        {
            **base,
            "moves": [
                {"roll": "gray/pink", "action": "wolf", "target": 1},
                {"roll": "white", "action": "grow"},
                {"roll": "gray/green", "action": "wolf", "mode": "raid", "target": 0},
            ],
        }
    )
    assert out.error and out.error.move == 2 and "seat 1" in out.error.message
    # a raid while the wolf is in the middle: Shave a Sheep ruling 9, whatever the target says
    out = replay(
        {**base, "moves": [{"roll": "gray/pink", "action": "wolf", "mode": "raid", "target": 1}]}
    )
    assert out.error and out.error.message.endswith("in the middle (ruling 9)")
