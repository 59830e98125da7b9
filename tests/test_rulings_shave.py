"""One test per Shave a Sheep ruling (docs/spec/rulings.md), on hand-built positions.

A position is a fresh state whose wool is placed by hand (the rule set's wool is the total, so
wool stays conserved); rolls and grabs are applied explicitly, so every outcome is exact.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sheepfold.core.protocol import CHANCE, IllegalAction, RulesError
from sheepfold.core.records import RecordError, replay, summary, to_record
from sheepfold.games import make
from sheepfold.games.shave_a_sheep.game import (
    CHOOSE,
    DOUBLE,
    GRAB,
    GROW,
    HOWL_GROW,
    HOWL_TARGET,
    PASS,
    RAID,
    ROLL,
    SHEAR,
    SWAP0,
    WOLF0,
    ShaveState,
)
from sheepfold.games.shave_a_sheep.rules import HOWLING_DIE, STANDARD_DIE
from sheepfold.rulesets import RuleSet, find_ruleset, save_ruleset


def position(
    players: int = 2,
    middle: int = 20,
    sheep: list[int] | None = None,
    piles: list[int] | None = None,
    wolf: int | None = None,
    turn: int = 0,
    **rules: object,
) -> ShaveState:
    sheep = list(sheep or [0] * players)
    piles = list(piles or [0] * players)
    g = make("shave-a-sheep", players, wool=middle + sum(sheep) + sum(piles), **rules)
    s = g.new_initial_state(seed=0)
    s.middle, s.sheep, s.piles, s.wolf, s.turn = middle, sheep, piles, wolf, turn
    return s


def roll(s: ShaveState, face: str) -> None:
    s.apply(s.game.face_index(face))


def play(s: ShaveState, face: str, action: str) -> None:
    roll(s, face)
    s.apply(s.string_to_action(action))


def record(moves: list[dict], players: int = 2, **rules: object) -> dict:
    out = {
        "format": "sheepfold-record/1",
        "game": "shave-a-sheep",
        "players": [{"name": f"p{i}"} for i in range(players)],
        "moves": moves,
    }
    if rules:
        out["rules"] = rules
    return out


def test_shave_ruling_1_players() -> None:
    for n in (2, 3, 4):
        s = make("shave-a-sheep", n).new_initial_state(seed=1)
        assert s.sheep == [0] * n and s.piles == [0] * n and s.turn == 0
        assert s.current_player() == CHANCE  # seat 0's roll comes first
        roll(s, "white")
        assert s.current_player() == 0
    for n in (1, 5):
        with pytest.raises(RulesError, match="2 to 4 players"):
            make("shave-a-sheep", n)
    s = position(3)
    order = []
    for _ in range(4):
        order.append(s.turn)
        play(s, "white", "grow")
    assert order == [0, 1, 2, 0]  # clockwise


def test_shave_ruling_2_wool() -> None:
    s = make("shave-a-sheep", 2).new_initial_state()
    assert s.middle == 30 and s.game.rules.max_wool == 5
    assert make("shave-a-sheep", 2, wool=12).new_initial_state().middle == 12
    s = position(sheep=[4, 0])
    play(s, "white", "grow")
    assert s.sheep == [5, 0]  # the cap, reached
    s = position(sheep=[4, 0])
    play(s, "x2", "double")
    assert s.sheep == [5, 0] and s.middle == 19  # never above the cap
    s = position(sheep=[0, 5], turn=0)
    play(s, "gray/green", "swap seat 1")  # swapping moves wool, never above the cap
    assert s.sheep == [5, 0] and max(s.sheep) <= s.game.rules.max_wool


def test_shave_ruling_3_die() -> None:
    g = make("shave-a-sheep", 2)
    assert (
        g.faces
        == STANDARD_DIE
        == ("white", "x2", "white/pink", "white/green", "gray/pink", "gray/green")
    )
    s = g.new_initial_state()
    assert s.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    # a face with two colours offers two actions; exactly one is carried out
    roll(s, "white/pink")
    assert s.legal_actions() == [GROW, SHEAR]
    s.apply(GROW)
    assert s.sheep == [1, 0] and s.piles == [0, 0] and s.phase == ROLL and s.turn == 1
    roll(s, "x2")
    assert s.legal_actions() == [DOUBLE]
    # the rulebook's "white / white" is the one-action white face
    w = make("shave-a-sheep", 2, die=["White / White", "x2"])
    assert w.faces == ("white", "x2") and w.face_actions[0] == ("grow",)
    # the seeded die is fair and reproducible
    s.apply(DOUBLE)
    rng = random.Random(5)
    counts = [0] * 6
    for _ in range(6000):
        counts[s.sample_chance(rng)] += 1
    assert all(850 < c < 1150 for c in counts), counts
    a = g.new_initial_state(seed=3)
    assert [a.sample_chance() for _ in range(2)] == [
        g.new_initial_state(seed=3).sample_chance()
    ] * 2
    # records: the face must be on the die, the action one of its actions
    r = replay(record([{"roll": "gray/white", "action": "wolf", "target": 1}]))
    assert r.error and r.error.move == 0 and "not a face of the die" in r.error.message
    r = replay(record([{"roll": "white/pink", "action": "double"}]))
    assert r.error and "offers grow or shear, not double (ruling 3)" in r.error.message
    r = replay(record([{"roll": "pink / white", "action": "shear"}]))  # colours in any order
    assert r.error is None and r.moves_applied == 1


def test_shave_ruling_4_actions() -> None:
    # double: with four on the sheep only one goes on, the other stays in the middle
    s = position(middle=10, sheep=[4, 0])
    play(s, "x2", "double")
    assert (s.sheep, s.middle) == ([5, 0], 9)
    # double with one piece left in the middle: only that one goes on (and the game ends)
    s = position(middle=1, sheep=[2, 0])
    play(s, "x2", "double")
    assert s.middle == 0 and s.is_terminal() and s.piles == [3, 0]
    # grow: one piece
    s = position(middle=5, sheep=[1, 2])
    play(s, "white", "grow")
    assert (s.sheep, s.middle) == ([2, 2], 4)
    # swap: the sheep and their wool change places
    s = position(sheep=[3, 1], piles=[2, 7])
    play(s, "gray/green", "swap seat 1")
    assert s.sheep == [1, 3] and s.piles == [2, 7]
    # wolf: all of the target's wool back to the middle; the wolf goes home
    s = position(middle=5, sheep=[1, 4])
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.middle, s.wolf) == ([1, 0], 9, None)
    # a bare sheep is a legal, empty target of the wolf
    s = position(middle=5, sheep=[2, 0])
    roll(s, "gray/pink")
    assert WOLF0 + 1 in s.legal_actions()
    s.apply(WOLF0 + 1)
    assert (s.sheep, s.middle) == ([2, 0], 5)
    # shear: all the wool to the safe pile; a bare sheep may be shorn, for nothing
    s = position(middle=5, sheep=[3, 0])
    play(s, "white/pink", "shear")
    assert (s.sheep, s.piles) == ([0, 0], [3, 0])
    play(s, "gray/pink", "shear")
    assert (s.sheep, s.piles, s.turn) == ([0, 0], [3, 0], 0)
    # another player's sheep only
    s = position(3)
    roll(s, "gray/green")
    assert s.legal_actions() == [SWAP0 + 1, SWAP0 + 2, WOLF0 + 1, WOLF0 + 2]
    assert "not your own" in (s.illegal_reason(SWAP0) or "")
    assert "not your own" in (s.illegal_reason(WOLF0) or "")
    assert "no seat 3" in (s.illegal_reason(SWAP0 + 3) or "")


def test_shave_ruling_5_auto_shear() -> None:
    s = position(middle=10, sheep=[0, 4], turn=1)
    play(s, "white", "grow")  # seat 1 reaches the cap
    assert s.sheep == [0, 5] and s.turn == 0
    play(s, "white", "grow")  # seat 0's turn ends: seat 1's begins with the auto-shear
    assert s.phase == ROLL and s.turn == 1  # before the roll
    assert s.sheep == [1, 0] and s.piles == [0, 5]
    # a sheep with less than the maximum is not shorn
    s = position(middle=10, sheep=[0, 4], turn=0)
    play(s, "white", "grow")
    assert s.sheep == [1, 4] and s.piles == [0, 0]
    # the sheep is shorn at its owner's turn: after a swap, the full sheep is seat 0's
    s = position(middle=10, sheep=[2, 5], turn=0)
    play(s, "white/green", "swap seat 1")
    assert (s.turn, s.sheep, s.piles) == (1, [5, 2], [0, 0])
    play(s, "white", "grow")
    assert (s.turn, s.sheep, s.piles) == (0, [0, 3], [5, 0])
    # a record's next move sees the auto-shear already done
    moves = [{"roll": "white", "action": "grow"}, {"roll": "x2", "action": "double"}] * 3
    r = replay(record(moves, wool=9, max_wool=3))
    assert r.error is None
    out = summary(r.state, r.moves_applied)
    # s0 grow 1, s1 double 2, s0 grow 2, s1 double 3 (cap), s0 grow 3, s1 shorn (3) then
    # doubles 2, s0 shorn (3): the summary after the last move already shows that shear
    assert out["sheep"] == [0, 2] and out["pile"] == [3, 3] and out["middle"] == 1


def test_shave_ruling_6_end() -> None:
    # the last piece leaves the middle: every sheep is shorn, in seat order; ties share
    s = position(3, middle=1, sheep=[3, 2, 0], piles=[4, 6, 1])
    play(s, "white", "grow")
    assert s.is_terminal() and s.sheep == [0, 0, 0] and s.piles == [8, 8, 1]
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5, 0.0]
    assert s.turn == 0 and s.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        s.apply(0)
    # a simulation limit stops the game and reports it as truncated, not as a result
    s = make("shave-a-sheep", 2, max_turns=3).new_initial_state(seed=0)
    for _ in range(3):
        play(s, "white", "grow")
    assert s.is_terminal() and s.truncated
    out = s.outcome()
    assert out is not None and out.truncated and out.winners == () and s.winners() == []
    assert s.returns() == [0.5, 0.5]
    r = replay(record([{"roll": "white", "action": "grow"}] * 3, max_turns=3))
    assert summary(r.state, r.moves_applied)["truncated"] is True
    assert summary(r.state, r.moves_applied)["winners"] == []
    r = replay(record([{"roll": "white", "action": "grow"}] * 4, max_turns=3))
    assert r.error and r.error.move == 3 and "over" in r.error.message
    # no limit by default (play)
    assert make("shave-a-sheep", 2).rules.max_turns is None


def test_shave_ruling_7_cutting_costs() -> None:
    cc = {"variants": ["cutting-costs"]}
    s = position(middle=5, sheep=[3, 0], **cc)
    play(s, "white/pink", "shear")
    assert (s.piles, s.middle) == ([2, 0], 6)  # one shorn piece pays the cut
    play(s, "white/pink", "shear")  # a bare sheep pays nothing
    assert (s.piles, s.middle) == ([2, 0], 6)
    # the auto-shear pays too
    s = position(middle=5, sheep=[0, 5], **cc)
    play(s, "white", "grow")
    assert (s.piles, s.sheep, s.middle) == ([0, 4], [1, 0], 5)
    # the final shear pays, and its payment does not restart the game
    s = position(3, middle=1, sheep=[3, 2, 0], **cc)
    play(s, "white", "grow")
    assert s.is_terminal() and s.piles == [3, 1, 0] and s.middle == 2
    assert s.total_wool() == 6


def test_shave_ruling_8_howling_wolf() -> None:
    hw = {"variants": ["howling-wolf"]}
    g = make("shave-a-sheep", 3, **hw)
    assert (
        g.faces
        == HOWLING_DIE
        == ("gray/white", "white/green", "green/pink", "pink/white", "white/gray", "x2")
    )
    # a face that shows gray always starts the race, whichever side the gray is on
    for face in ("gray/white", "white/gray"):
        s = position(3, middle=5, sheep=[2, 3, 0], **hw)
        roll(s, face)
        assert s.phase == GRAB and s.current_player() == CHANCE
        assert s.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]  # the roller too
    # the grabber (here seat 1, not the roller) picks a sheep other than their own
    s.apply(1)
    assert s.phase == HOWL_TARGET and s.current_player() == 1
    assert s.legal_actions() == [WOLF0 + 0, WOLF0 + 2]
    assert "other than their own" in (s.illegal_reason(WOLF0 + 1) or "")
    s.apply(WOLF0 + 0)  # the roller's own sheep: one piece back to the middle
    assert (s.sheep, s.middle) == ([1, 3, 0], 6)
    # then the roller may add one piece to their own sheep
    assert s.phase == HOWL_GROW and s.current_player() == 0 and s.legal_actions() == [GROW, PASS]
    s.apply(GROW)
    assert (s.sheep, s.middle, s.turn) == ([2, 3, 0], 5, 1)
    # a bare target loses nothing; the roller may pass
    s = position(2, middle=5, sheep=[2, 0], **hw)
    roll(s, "white/gray")
    s.apply(0)  # the roller grabbed
    s.apply(WOLF0 + 1)
    s.apply(PASS)
    assert (s.sheep, s.middle) == ([2, 0], 5)
    # other faces are ordinary
    roll(s, "green/pink")
    assert s.phase == CHOOSE and s.legal_actions() == [SHEAR, SWAP0 + 0]
    # lead decision: any face with gray races, and the grow is offered whatever its other colour
    s = position(2, middle=5, sheep=[1, 1], die=["gray/pink", "x2"], reaction_weights=[3, 1], **hw)
    roll(s, "gray/pink")
    assert s.chance_outcomes() == [(0, 0.75), (1, 0.25)]
    s.apply(1)
    s.apply(WOLF0)
    assert s.legal_actions() == [GROW, PASS]
    # records
    r = replay(
        record(
            [
                {"roll": "gray/white", "grabber": 1, "target": 0, "grow": True},
                {"roll": "x2", "action": "double"},
            ],
            **hw,
        )
    )
    assert r.error is None and summary(r.state, 2)["sheep"] == [1, 2]
    r = replay(record([{"roll": "gray/white", "action": "grow"}], **hw))
    assert r.error and "ruling 8" in r.error.message
    r = replay(record([{"roll": "gray/white", "grabber": 0, "target": 0, "grow": False}], **hw))
    assert r.error and "other than their own" in r.error.message
    r = replay(record([{"roll": "gray/white", "grabber": 0, "target": 1}], **hw))
    assert r.error and "'grow'" in r.error.message


def test_shave_ruling_9_mr_wolf() -> None:
    mw = {"variants": ["my-friend-mr-wolf"]}
    s = position(2, middle=10, sheep=[0, 3], **mw)
    roll(s, "gray/pink")
    assert s.legal_actions() == [SHEAR, WOLF0 + 1]  # no raid: the wolf is in the middle
    assert "in the middle (ruling 9)" in (s.illegal_reason(RAID) or "")
    s.apply(WOLF0 + 1)  # A: the wolf goes next to seat 1, one piece to my safe pile
    assert (s.wolf, s.sheep, s.piles) == (1, [0, 2], [1, 0])
    roll(s, "gray/green")  # seat 1: the wolf stands next to them, so no raid for them
    assert RAID not in s.legal_actions()
    assert "next to you (ruling 9)" in (s.illegal_reason(RAID) or "")
    s.apply(SWAP0 + 0)  # the sheep swap; the wolf stays next to seat 1 (a seat, not a sheep)
    assert (s.wolf, s.sheep) == (1, [2, 0])
    play(s, "white", "grow")  # seat 0: 3 on the sheep; seat 1 is bare
    s.sheep = [3, 0]
    roll(s, "gray/pink")  # seat 1 ... is the roller now
    assert s.turn == 1
    s.apply(WOLF0 + 0)  # A again: the wolf moves to seat 0
    assert (s.wolf, s.sheep, s.piles) == (0, [2, 0], [1, 1])
    # B: up to two pieces of that player's sheep, the wolf back to the middle (min(2, wool))
    for wool, taken in ((4, 2), (1, 1), (0, 0)):
        s = position(3, middle=10, sheep=[0, 0, wool], wolf=2, **mw)
        roll(s, "gray/green")
        assert RAID in s.legal_actions()
        s.apply(RAID)
        assert (s.wolf, s.sheep[2], s.piles[0]) == (None, wool - taken, taken)
    # A may send the wolf to the seat it already stands next to
    s = position(3, middle=10, sheep=[0, 2, 2], wolf=1, **mw)
    roll(s, "gray/pink")
    s.apply(WOLF0 + 1)
    assert (s.wolf, s.sheep) == (1, [0, 1, 2])
    # Howling Wolf and My friend Mr. Wolf together are refused
    with pytest.raises(RulesError, match="choose one of them"):
        make("shave-a-sheep", 2, variants=["howling-wolf", "my-friend-mr-wolf"])
    with pytest.raises(RecordError, match="ruling 9") as e:
        replay(record([], variants=["howling-wolf", "my-friend-mr-wolf"]))
    assert e.value.field == "rules"
    # records: send / raid
    r = replay(
        record(
            [
                {"roll": "gray/pink", "action": "wolf", "mode": "send", "target": 1},
                {"roll": "white", "action": "grow"},
                {"roll": "gray/green", "action": "wolf", "mode": "raid"},
            ],
            **mw,
        )
    )
    # the wolf went to bare seat 1 (nothing taken), seat 1 grew one, seat 0 raids that piece
    assert r.error is None
    assert summary(r.state, 3)["pile"] == [1, 0] and summary(r.state, 3)["wolf"] is None
    r = replay(record([{"roll": "gray/pink", "action": "wolf", "mode": "raid"}], **mw))
    assert r.error and "ruling 9" in r.error.message


def test_shave_ruling_10_your_own_rules(tmp_path: Path) -> None:
    g = make(
        "shave-a-sheep",
        2,
        die=["white", "white/x2", "pink"],
        wool=10,
        max_wool=3,
        variants=["cutting-costs"],
    )
    s = g.new_initial_state()
    assert g.faces == ("white", "white/x2", "pink") and s.middle == 10
    s.sheep, s.middle = [2, 0], 8
    play(s, "white/x2", "double")
    assert s.sheep == [3, 0] and s.middle == 7  # the custom cap
    play(s, "pink", "shear")  # seat 1 shears its bare sheep; seat 0 is auto-shorn at 3
    assert (s.turn, s.sheep, s.piles, s.middle) == (0, [0, 0], [2, 0], 8)  # paying one
    # a rule set has a name, is saved as TOML or JSON and loaded again
    mine = RuleSet("shave-a-sheep", g.rules.model_copy(update={"name": "short-shear"}), "test")
    for suffix in (".toml", ".json"):
        path = save_ruleset(mine, tmp_path / f"short-shear{suffix}")
        loaded = find_ruleset(str(path), "shave-a-sheep")
        assert loaded.rules == mine.rules and loaded.name == "short-shear"
    # rule sets that make no sense are refused, saying why
    for bad, why in (
        ({"die": ["white/purple"]}, "unknown colour 'purple'"),
        ({"max_wool": 0}, "max_wool"),
        ({"wool": 0}, "wool"),
        ({"die": []}, "at least one face"),
        ({"variants": ["wolf-pack"]}, "unknown variant"),
    ):
        with pytest.raises(RulesError, match=why):
            make("shave-a-sheep", 2, **bad)
    # a game under house rules round-trips through its record
    s = g.new_initial_state(seed=4)
    for face, act in (("white/x2", "double"), ("pink", "shear"), ("white", "grow")):
        play(s, face, act)
    r = replay(json.dumps(to_record(s)))
    assert r.error is None and r.state.snapshot() == s.snapshot()
