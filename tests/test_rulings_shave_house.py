"""One test per Shave a Sheep house rule (docs/spec/rulings.md, "House rules"), on hand-built
positions (the helpers of test_rulings_shave.py): each option's effect, its limits, and the
rule sets it refuses with the reason."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sheepfold.core.protocol import IllegalAction
from sheepfold.core.records import replay, summary, to_record
from sheepfold.games import make
from sheepfold.games.shave_a_sheep.game import CHOOSE, PASS, REROLL, ROLL, SHEAR
from sheepfold.games.shave_a_sheep.policy import greedy_action
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from test_rulings_shave import play, position, record, roll


def refused(match: str, **opts: object) -> None:
    with pytest.raises(ValidationError, match=match):
        ShaveRules(**opts)  # type: ignore[arg-type]


def test_house_rule_auto_shear_shears_from_the_threshold() -> None:
    s = position(middle=10, sheep=[0, 2], turn=1, auto_shear=3)
    play(s, "white", "grow")  # seat 1 reaches 3 (of a cap of 5)
    play(s, "white", "grow")  # seat 1's next turn starts with the shear
    assert (s.turn, s.sheep, s.piles) == (1, [1, 0], [0, 3])
    # below the threshold nothing happens; the cap still stops growth at max_wool
    s = position(middle=10, sheep=[0, 1], turn=1, auto_shear=3)
    play(s, "white", "grow")
    play(s, "white", "grow")
    assert (s.sheep, s.piles) == ([1, 2], [0, 0])
    assert ShaveRules().shear_at == 5 and ShaveRules(max_wool=3).shear_at == 3
    refused("auto_shear is 6 but a sheep carries at most max_wool = 5", auto_shear=6)
    refused("auto_shear is 4 .* max_wool = 3", auto_shear=4, max_wool=3)


def test_house_rule_wolf_takes_half_rounded_up_or_a_number() -> None:
    s = position(middle=10, sheep=[0, 5], wolf_takes="half")
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.middle) == ([0, 2], 13)  # 5 -> 3 taken (rounded up)
    s = position(middle=10, sheep=[0, 1], wolf_takes="half")
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.middle) == ([0, 0], 11)  # a one-piece sheep loses it
    s = position(middle=10, sheep=[0, 4], wolf_takes=3)
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.middle) == ([0, 1], 13)
    s = position(middle=10, sheep=[0, 2], wolf_takes=3)
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.middle) == ([0, 0], 12)  # at most what is there
    refused("wolf_takes is 'all', 'half' or a number of pieces from 1 to 100, not 0", wolf_takes=0)
    refused("not 'most'", wolf_takes="most")


def test_house_rule_wolf_to_roller_moves_wool_to_roller_pile() -> None:
    s = position(middle=10, sheep=[1, 4], piles=[2, 0], wolf_to="roller")
    play(s, "gray/green", "wolf seat 1")
    assert (s.sheep, s.piles, s.middle) == ([1, 0], [6, 0], 10)
    s = position(middle=10, sheep=[0, 5], wolf_to="roller", wolf_takes="half")
    play(s, "gray/pink", "wolf seat 1")
    assert (s.sheep, s.piles, s.middle) == ([0, 2], [3, 0], 10)
    # greedy sends such a wolf to the fullest sheep rather than shear a small one of its own
    s = position(middle=10, sheep=[1, 4], wolf_to="roller")
    roll(s, "gray/pink")
    assert s.action_to_string(greedy_action(s)) == "wolf seat 1"
    # the standard wolf only: the variants that redefine gray refuse it
    for variant in ("howling-wolf", "my-friend-mr-wolf"):
        refused(f"{variant} redefines the gray face", variants=[variant], wolf_to="roller")
        refused(f"{variant} redefines the gray face", variants=[variant], wolf_takes="half")


def test_house_rule_shear_cost_pays_every_shear() -> None:
    s = position(middle=5, sheep=[4, 0], shear_cost=2)
    play(s, "white/pink", "shear")
    assert (s.piles, s.middle) == ([2, 0], 7)
    s = position(middle=5, sheep=[1, 0], shear_cost=2)
    play(s, "white/pink", "shear")  # at most what was shorn
    assert (s.piles, s.middle) == ([0, 0], 6)
    s = position(middle=5, sheep=[0, 5], shear_cost=2)
    play(s, "white", "grow")  # the auto-shear pays
    assert (s.piles, s.sheep, s.middle) == ([0, 3], [1, 0], 6)
    s = position(3, middle=1, sheep=[3, 2, 0], shear_cost=2)
    play(s, "white", "grow")  # the final shear pays, without restarting the game
    assert s.is_terminal() and s.piles == [2, 0, 0] and s.middle == 4
    # cutting-costs is a cost of 1, alone or with shear_cost = 1; any other cost conflicts
    assert ShaveRules(variants=["cutting-costs"]).cost == 1
    assert ShaveRules(variants=["cutting-costs"], shear_cost=1).cost == 1
    assert ShaveRules().cost == 0
    refused("cutting-costs variant is a shear cost of 1 .* shear_cost is 2",
            variants=["cutting-costs"], shear_cost=2)  # fmt: skip
    refused("no pile can ever grow", shear_cost=5)
    refused("no pile can ever grow", shear_cost=3, max_wool=3)
    ShaveRules(shear_cost=5, wolf_to="roller")  # a greedy wolf fills a pile
    ShaveRules(shear_cost=5, full_bonus=1)  # so does the bonus of a full sheep


def test_house_rule_full_bonus_rewards_the_shear_of_a_full_sheep() -> None:
    s = position(middle=10, sheep=[5, 0], full_bonus=2)
    play(s, "white/pink", "shear")
    assert (s.piles, s.middle) == ([7, 0], 8)
    s = position(middle=10, sheep=[4, 0], full_bonus=2)
    play(s, "white/pink", "shear")  # not full: no bonus
    assert (s.piles, s.middle) == ([4, 0], 10)
    # after the shear's cost; as many as there are; an empty middle ends the game
    s = position(middle=1, sheep=[5, 3], full_bonus=3, shear_cost=1)
    play(s, "white/pink", "shear")
    assert s.is_terminal() and s.piles == [6, 2] and s.middle == 1
    # the auto-shear of a full sheep earns it too (our ruling: that is how sheep get shorn full)
    s = position(middle=10, sheep=[0, 5], full_bonus=2)
    play(s, "white", "grow")
    assert (s.piles, s.middle) == ([0, 7], 7)
    # ... and when its bonus takes the last piece, the game ends at once: the final shear
    s = position(middle=2, sheep=[0, 5], full_bonus=2)
    play(s, "white", "grow")
    assert s.is_terminal() and (s.piles, s.sheep, s.middle) == ([1, 6], [0, 0], 0)
    # not on the final shear, and not below max_wool (an auto-shear threshold under it)
    s = position(middle=1, sheep=[0, 5], full_bonus=2)
    play(s, "white", "grow")
    assert s.is_terminal() and s.piles == [1, 5]
    s = position(middle=10, sheep=[0, 3], full_bonus=2, auto_shear=3)
    play(s, "white", "grow")
    assert (s.piles, s.middle) == ([0, 3], 9)


def test_house_rule_target_ends_the_game_at_the_end_of_the_turn() -> None:
    s = position(middle=10, sheep=[4, 2], piles=[3, 0], target=7)
    play(s, "white/pink", "shear")
    assert s.is_terminal() and s.piles == [7, 2] and s.winners() == [0]
    s = position(middle=10, sheep=[3, 2], piles=[3, 0], target=7)
    play(s, "white/pink", "shear")
    assert not s.is_terminal()
    # a pile reaching it by the auto-shear ends the game at the end of that turn
    s = position(middle=10, sheep=[0, 5], piles=[0, 3], target=8)
    play(s, "white", "grow")
    assert s.piles == [0, 8] and not s.is_terminal()
    play(s, "white", "grow")
    assert s.is_terminal() and s.piles == [1, 9]
    refused("target 31 can never be reached: only 30 pieces", target=31)


def test_house_rule_final_shear_off_counts_only_the_piles() -> None:
    s = position(3, middle=1, sheep=[3, 2, 0], piles=[1, 2, 0], final_shear=False)
    play(s, "white", "grow")
    assert s.is_terminal() and s.sheep == [4, 2, 0] and s.piles == [1, 2, 0]
    assert s.winners() == [1]


def test_house_rule_rerolls_roll_again_instead_of_acting() -> None:
    s = position(middle=10, rerolls=2)
    assert s.game.info.num_distinct_actions == 14
    assert make("shave-a-sheep", 2).info.num_distinct_actions == 13
    roll(s, "white")
    assert s.legal_actions()[-1] == REROLL
    s.apply(REROLL)
    assert s.phase == ROLL and s.turn == 0 and s.rerolls_used == 1
    roll(s, "x2")
    s.apply(REROLL)
    roll(s, "white/pink")
    assert REROLL not in s.legal_actions()  # used up
    with pytest.raises(IllegalAction, match="reroll"):
        s.apply(REROLL)
    s.apply(SHEAR)
    assert s.turn == 1 and s.rerolls_used == 0  # a new turn, new rerolls
    roll(s, "white")
    assert REROLL in s.legal_actions()
    # no rerolls: no such action
    s = position(middle=10)
    roll(s, "white")
    with pytest.raises(IllegalAction, match="only with the house rule rerolls"):
        s.apply(REROLL)
    # a face that offers nothing still lets the roller roll again
    s = position(middle=10, rerolls=1, die=["white", "pink"])
    roll(s, "white")
    s.sheep = [5, 0]
    assert s.legal_actions() == [PASS, REROLL]
    # a Howling Wolf race starts at once: no reroll
    s = position(middle=10, rerolls=1, variants=["howling-wolf"])
    roll(s, "gray/white")
    assert s.phase != CHOOSE
    refused("less than or equal to 3", rerolls=4)


def test_house_rule_rerolls_in_records() -> None:
    moves = [
        {"roll": "white", "rerolled": ["x2", "gray/pink"], "action": "grow"},
        {"roll": "x2", "action": "double"},
    ]
    r = replay(record(moves, rerolls=2))
    assert r.error is None
    out = summary(r.state, r.moves_applied)
    assert out["sheep"] == [1, 2] and out["middle"] == 27
    assert to_record(r.state, ["p0", "p1"])["moves"] == moves
    r = replay(record(moves))
    assert r.error and r.error.move == 0 and "rerolls" in r.error.message
    r = replay(record([{"roll": "white", "rerolled": ["x2"] * 2, "action": "grow"}], rerolls=1))
    assert r.error and "at most 1" in r.error.message
    r = replay(record([{"roll": "white", "rerolled": ["gray/white"], "action": "grow"}],
                      rerolls=1, variants=["howling-wolf"]))  # fmt: skip
    assert r.error and "race" in r.error.message


def test_house_rules_die_limits() -> None:
    refused("a die needs at least one face", die=[])
    refused("a die has at most 16 faces, this one has 17", die=["white"] * 17)
    refused("unknown colour 'blue'", die=["white/blue"])
    rules = ShaveRules(die=["white", "white", "pink"])
    game = make("shave-a-sheep", 2, rules=rules)
    assert game.face_probs == (2 / 3, 1 / 3)  # a face written twice comes up twice as often
