"""A rule set's cost, known from the rules alone before anything runs (games/costs.py), checked
by the one rules check with a limit per front end (bots/costs.py) (issue 50, items 1, 2 and 5): the storms of
the issue are refused at the web and by a gallery card, the command line says what they cost,
and every rule set that ships stays accepted."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sheepfold.bots.costs import LIMITS, cost_problems, cost_refusal, search_of
from sheepfold.cli.main import app as cli_app
from sheepfold.games import make, parse_rules
from sheepfold.games.costs import rule_cost
from sheepfold.games.shave_a_sheep import solver
from sheepfold.rulesets import all_rulesets, resolve
from sheepfold.server.rules_api import checked, table_cost_refusal
from storms import BREEDS, DEAL_STORM, PERFECT_STORM, SWAP_STORM

ROOT = Path(__file__).resolve().parents[1]
DOCS_RULESETS = sorted((ROOT / "docs" / "rulesets").rglob("*.toml"))

#: issue 50 item 5 (its clean-up kept short: only the search is over)
SEARCH_STORM = {**SWAP_STORM, "max_cleanup_rounds": 100}


def _seats(bot: str, players: int = 2) -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": bot}] + [{"kind": "human"}] * (players - 1)


def _no_keys(text: str) -> None:
    """Words for people: no snake_case key, no bot option syntax."""
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    assert ":" not in text.replace(": choose", ""), text


def test_the_deal_storm_is_refused_at_the_web_and_the_gallery_in_words():
    for front, who in (("web", "a web table"), ("gallery", "a gallery card")):
        _, rules, problems = checked("dolly-crush", DEAL_STORM, front=front)
        assert rules is None
        assert problems == [
            (
                "max_cleanup_rounds",  # the option it comes from: the editor points at it
                f"a deal or a turn could take up to 640,064 chance steps; {who} allows 40,000",
            )
        ]
        _no_keys(problems[0][1])
    # a table of people only: the deal alone refuses it
    rules = parse_rules("dolly-crush", DEAL_STORM)
    refusal = table_cost_refusal("dolly-crush", rules, _seats("random"), "random")
    assert refusal is not None and "640,064 chance steps" in refusal


def test_the_deal_bound_is_an_upper_bound_of_real_deals_and_turns():
    """Deals and turns that clean up until the rules give up (two types, lines of two) never
    draw more than the bound says: the flock, then a flock a clean-up round."""
    rules = parse_rules(
        "dolly-crush",
        {"rows": 3, "cols": 3, "types": 2, "min_line": 2, "max_cleanup_rounds": 30},
    )
    cost = rule_cost("dolly-crush", rules, 2)
    assert cost.deal_steps == 9 * 31 and cost.turn_steps == 9 * 31
    assert cost.cleanup_rounds == 30
    most_deal = most_turn = 0
    for seed in range(20):
        state = make("dolly-crush", 2, rules=rules).new_initial_state(seed=seed)
        rng = random.Random(seed)
        steps, dealing = 0, True
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                steps += 1
                continue
            if dealing:
                most_deal, dealing = max(most_deal, steps), False
            else:
                most_turn = max(most_turn, steps)
            steps = 0
            state.apply(rng.choice(state.legal_actions()))
        most_deal = max(most_deal, steps) if dealing else most_deal
    assert 9 < most_deal <= cost.deal_steps  # some deal cleaned up
    assert most_turn <= cost.turn_steps


def test_the_command_line_accepts_the_deal_storm_and_says_what_it_costs(tmp_path):
    path = tmp_path / "storm.toml"
    lines = [f"{k} = {v}" for k, v in DEAL_STORM.items()]
    path.write_text('game = "dolly-crush"\nname = "storm"\n' + "\n".join(lines) + "\n")
    result = CliRunner().invoke(cli_app, ["rules", "check", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "a valid dolly-crush rule set named 'storm'" in out
    assert "a deal: at most 640,064 chance steps; a turn: at most 640,064" in out
    assert "a web table refuses it: a deal or a turn could take up to 640,064" in out
    assert "not measured by playing them" in out  # no minute of silent games


def test_the_perfect_storm_is_over_the_webs_positions_counted_without_the_index(monkeypatch):
    """Item 2: the positions come from the rules by arithmetic: the solver's index (seconds
    for 1,000 wool) is never built to refuse a table."""

    def no_index(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the solver's position index was built")

    monkeypatch.setattr(solver, "Space", no_index)
    rules = parse_rules("shave-a-sheep", PERFECT_STORM)
    assert rule_cost("shave-a-sheep", rules, 2).positions == 8_289_332_600
    refusal = table_cost_refusal("shave-a-sheep", rules, _seats("perfect"), "random")
    assert refusal == (
        "the perfect bot would solve 8,289,332,600 positions of the 2-player game first; "
        "a web table allows 60,000,000: choose another bot"
    )
    _no_keys(refusal)
    # the rule set itself is fine (other bots, people): only the perfect seat is refused
    assert table_cost_refusal("shave-a-sheep", rules, _seats("greedy"), "random") is None
    assert checked("shave-a-sheep", PERFECT_STORM)[2] == []


@pytest.mark.parametrize(
    "rules, players",
    [({}, 2), ({}, 3), ({"wool": 12, "max_wool": 3}, 4), ({"rerolls": 1, "wool": 20}, 2)],
)
def test_the_counted_positions_are_the_solvers(rules, players):
    parsed = parse_rules("shave-a-sheep", rules)
    assert solver.space_size(parsed, players) == solver.count_positions(parsed, players)
    two_wolves = resolve("shave-a-sheep", str(ROOT / "docs/rulesets/shave-a-sheep/two-wolves.toml"))
    assert solver.space_size(two_wolves, 2) == solver.count_positions(two_wolves, 2)


def test_the_expert_on_the_search_storm_is_refused_at_a_web_table():
    rules = parse_rules("dolly-crush", SEARCH_STORM)
    cost = rule_cost("dolly-crush", rules, 2)
    assert cost.deal_steps == 64 * 101  # within a web table's chance steps
    refusal = table_cost_refusal("dolly-crush", rules, _seats("expert"), "random")
    assert refusal is not None
    assert refusal.startswith(
        f"the Expert bot could test up to {search_of(cost, 'expert'):,} combinations for one "
        "decision under these rules with 2 players; a web table allows 1,500,000,000"
    )
    _no_keys(refusal)
    assert search_of(cost, "expert:iterations=2000,time=0.5") == search_of(cost, "expert")
    # a table of people, or of a bot that searches within the limit, opens
    assert table_cost_refusal("dolly-crush", rules, _seats("human"), "random") is None
    assert table_cost_refusal("dolly-crush", rules, _seats("medium"), "random") is None
    # the bot that stands in for a player who leaves searches too
    assert table_cost_refusal("dolly-crush", rules, _seats("human"), "expert") is not None
    # a gallery card plays greedy bots: 20 swaps on this board are over a card's search
    gallery = cost_problems("dolly-crush", rules, "gallery")
    assert [w for _, w in gallery] == [
        f"the Greedy bot could test up to {search_of(cost, 'greedy'):,} combinations for one "
        "decision under these rules with 2 players; a gallery card allows 50,000,000"
    ]


def test_the_bots_search_grows_with_the_board_and_the_swaps():
    """The bound reads the rules: more swaps a card, more swaps on the board, more players."""

    def expert(options: dict[str, Any], players: int = 2) -> int:
        return search_of(
            rule_cost("dolly-crush", resolve("dolly-crush", options), players), "expert"
        )

    graded = {"from": "dolly-graded"}
    assert expert(graded) < expert(graded, 4)
    assert expert(graded) < expert({**graded, "adjacent": ["orthogonal", "diagonal"]})
    assert expert({**graded, "dog_swaps": dict.fromkeys(BREEDS, 4)}) < expert(
        {**graded, "dog_swaps": dict.fromkeys(BREEDS, 12)}
    )
    assert search_of(rule_cost("dolly-crush", resolve("dolly-crush", graded)), "random") == 0


def _shipped() -> list[tuple[str, Any, bool]]:
    """(game, data, as a file) of every built-in rule set and every docs/rulesets file."""
    out = [
        (game, r.rules.model_dump(mode="json"), False)
        for game in ("dolly-crush", "shave-a-sheep")
        for r in all_rulesets(game)
        if r.source == "built-in"
    ]
    for path in DOCS_RULESETS:
        data = tomllib.loads(path.read_text())
        out.append((data["game"], data, True))
    return out


@pytest.mark.parametrize("front", ["web", "gallery", "cli"])
def test_every_rule_set_that_ships_stays_accepted(front):
    shipped = _shipped()
    assert len(shipped) > 20
    for game, data, file in shipped:
        _, rules, problems = checked(game, data, file, front)
        assert rules is not None and problems == [], (game, data.get("name"), problems)


def test_the_default_rule_sets_take_every_bot_level_at_a_web_table():
    for game, bots in (
        ("dolly-crush", ("random", "easy", "medium", "greedy", "hard", "expert")),
        ("shave-a-sheep", ("random", "greedy", "perfect")),
    ):
        for r in all_rulesets(game):
            if r.source != "built-in":
                continue
            for players in r.rules.player_counts() if game == "shave-a-sheep" else (2, 3, 4):
                if game == "shave-a-sheep" and players > 2:
                    bots = ("random", "greedy")  # the perfect bot of 3 and 4: cached, bigger
                for bot in bots:
                    seats = _seats(bot, players)
                    refusal = table_cost_refusal(game, r.rules, seats, "random")
                    assert refusal is None, (r.name, players, bot, refusal)


def test_the_limits_are_per_front_end_and_the_command_line_is_the_most_generous():
    web, gallery, cli = LIMITS["web"], LIMITS["gallery"], LIMITS["cli"]
    assert gallery.chance_steps <= web.chance_steps < cli.chance_steps
    assert gallery.search < web.search < cli.search
    assert web.positions < cli.positions
    rules = parse_rules("dolly-crush", DEAL_STORM)
    assert cost_refusal("dolly-crush", rules, "cli") is None
    assert cost_refusal("dolly-crush", rules, "web") is not None


def test_the_specs_search_shapes_are_the_bots_defaults():
    """The Dolly Crush spec bounds the bots' searches with their shapes (games cannot import
    bots): the numbers agree with the bots' own defaults."""
    import inspect

    from sheepfold.bots import dolly
    from sheepfold.games.dolly_crush import spec

    def default(cls: type, name: str) -> Any:
        return inspect.signature(cls.__init__).parameters[name].default

    hard = dolly.LookaheadDollyBot
    assert spec.HARD_REPLIES == default(hard, "candidates") * default(hard, "samples")
    assert spec.EXPERT_PLANS == default(dolly.ExpertDollyBot, "plans")
    assert spec.EXPERT_ENDS == dolly.MAX_CANDIDATES
    assert "per = max(1, min(4, " in inspect.getsource(dolly.ExpertDollyBot._search_turn)
    assert spec.EXPERT_FIRST == 4
