"""One source of game facts: every fact an adapter or the lab declares about a game (OpenSpiel's
GameType and GameInfo, the PettingZoo and Gymnasium spaces and metadata, the lab's players and
win shares) is the game's :class:`~sheepfold.core.protocol.GameInfo`, and a game's own sizes are
its spec's true bounds. Every registered game, every player count, its default rule set and
every built-in rule set of it: a game added inside ``games/`` is checked with no edit here.

Issue 25: Dolly Crush's GameInfo said it was not perfect information while the OpenSpiel adapter
said it was; the rulebook game's longest length was 40 decisions in its GameInfo and 28 in its
spec (28 is the true bound: tests/test_game_length_bounds.py reaches it); Shave a Sheep's
``max_decisions`` without a turn limit raised a raw TypeError.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from sheepfold.core.protocol import Game, GameInfo, RulesError
from sheepfold.core.registry import game_names, game_spec
from sheepfold.games import make
from sheepfold.interop import build_game
from sheepfold.rulesets import all_rulesets

#: the facts a game's rules do not change (the rest are sizes: :meth:`Game.derive_info`)
FIXED = (
    "name",
    "title",
    "min_players",
    "max_players",
    "perfect_information",
    "description",
    "min_utility",
    "max_utility",
    "utility_sum",
)


def _cases() -> list[tuple[str, int, str | None]]:
    """(game, players, rule set: None for the front ends' default) for every registered game."""
    out: list[tuple[str, int, str | None]] = []
    for name in game_names():
        info = game_spec(name).game_class.info
        rulesets: list[str | None] = [None, *(rs.name for rs in all_rulesets(name))]
        for players in range(info.min_players, info.max_players + 1):
            out += [(name, players, rs) for rs in rulesets]
    return out


#: a rule set whose seats are unequal warns (the printed Dolly Crush edition): not under test here
pytestmark = pytest.mark.filterwarnings("ignore:.*decide the game:UserWarning")

CASES = _cases()
IDS = [f"{g}-{p}p-{rs or 'default'}" for g, p, rs in CASES]


def _game(name: str, players: int, ruleset: str | None) -> Game:
    """The game the adapters play (a turn limit where the rules leave it open)."""
    return build_game(name, players, ruleset)


def test_every_registered_game_is_checked() -> None:
    assert {g for g, _, _ in CASES} == set(game_names()) and len(game_names()) >= 2


@pytest.mark.parametrize("name,players,ruleset", CASES, ids=IDS)
def test_a_games_info_is_its_class_facts_and_its_spec_bounds(
    name: str, players: int, ruleset: str | None
) -> None:
    spec = game_spec(name)
    cls_info = spec.game_class.info
    assert (cls_info.name, cls_info.title) == (spec.name, spec.title)
    g = _game(name, players, ruleset)
    info = g.info
    assert isinstance(info, GameInfo)
    for f in FIXED:
        assert getattr(info, f) == getattr(cls_info, f), f
    assert info.max_chance_outcomes == spec.max_chance_outcomes(g)
    assert info.max_game_length == spec.max_decisions(g) > 0
    assert info.max_chance_nodes == spec.max_chance_nodes(g)
    assert info.min_utility <= 1 / players <= info.max_utility
    # a game's own actions: every decision's id is below the declared count, and named
    s = g.new_initial_state(seed=1)
    while s.is_chance_node():
        s.apply(s.sample_chance())
    legal = s.legal_actions()
    assert legal and max(legal) < info.num_distinct_actions


def test_a_game_that_may_never_end_has_no_bound_and_says_why() -> None:
    """Without a turn limit (a game whose spec says it has one, left unset), the lengths are 0 in
    GameInfo, and the spec's bounds raise a RulesError naming the missing limit (it was a raw
    TypeError: None * 2)."""
    endless = [n for n in game_names() if game_spec(n).turn_limit]
    assert endless  # Shave a Sheep: the wolf puts wool back
    for name in endless:
        spec = game_spec(name)
        g = make(name, 2, rules={"max_turns": None})
        assert g.info.max_game_length == g.info.max_chance_nodes == 0
        for bound in (spec.max_decisions, spec.max_chance_nodes):
            with pytest.raises(RulesError, match="max_turns"):
                bound(g)


@pytest.mark.parametrize("name,players,ruleset", CASES, ids=IDS)
def test_openspiel_declares_the_games_facts(name: str, players: int, ruleset: str | None) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from sheepfold.interop import openspiel as sos

    game = sos.load_game(name, players, **({"rules": ruleset} if ruleset else {}))
    info = game.engine.info
    assert info == _game(name, players, ruleset).info  # the same game as the other adapters
    T = pyspiel.GameType
    t = game.get_type()
    assert t.information == (
        T.Information.PERFECT_INFORMATION
        if info.perfect_information
        else T.Information.IMPERFECT_INFORMATION
    )
    assert t.utility == (T.Utility.ZERO_SUM if info.utility_sum == 0 else T.Utility.CONSTANT_SUM)
    assert (t.min_num_players, t.max_num_players) == (info.min_players, info.max_players)
    assert info.title in t.long_name
    assert t.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC and info.max_chance_nodes > 0
    assert t.reward_model == T.RewardModel.TERMINAL  # returns() are zeros until the end
    assert game.num_players() == players
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.max_chance_outcomes() == info.max_chance_outcomes
    assert game.max_game_length() == info.max_game_length
    assert game.max_chance_nodes_in_history() == info.max_chance_nodes
    assert (game.min_utility(), game.max_utility()) == (info.min_utility, info.max_utility)
    assert game.utility_sum() == info.utility_sum


@pytest.mark.parametrize("name,players,ruleset", CASES, ids=IDS)
def test_pettingzoo_declares_the_games_facts(name: str, players: int, ruleset: str | None) -> None:
    pytest.importorskip("pettingzoo")
    from sheepfold.interop.pettingzoo import raw_env

    env = raw_env(name, players=players, rules=ruleset)
    info = _game(name, players, ruleset).info
    assert env.game.info == info
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    assert name.replace("-", "_") in env.metadata["name"]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == info.num_distinct_actions
        assert env.observation_space(agent)["action_mask"].shape == (info.num_distinct_actions,)
    env.reset(seed=3)
    rewards = _play_aec(env)
    assert all(info.min_utility <= r <= info.max_utility for r in rewards.values())
    assert sum(rewards.values()) == pytest.approx(info.utility_sum)


def _play_aec(env: Any) -> dict[str, float]:
    """Play one game of first legal actions; each agent's total reward."""
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        action = None if termination or truncation else int(obs["action_mask"].argmax())
        env.step(action)
    return total


@pytest.mark.parametrize("name,players,ruleset", CASES, ids=IDS)
def test_gymnasium_declares_the_games_facts(name: str, players: int, ruleset: str | None) -> None:
    pytest.importorskip("gymnasium")
    from sheepfold.interop.gymnasium import SheepfoldEnv

    env = SheepfoldEnv(name, players=players, rules=ruleset)
    info = _game(name, players, ruleset).info
    assert env.game.info == info
    assert env.action_space.n == info.num_distinct_actions
    env.reset(seed=5)
    assert env.action_masks().shape == (info.num_distinct_actions,)


@pytest.mark.parametrize("name", game_names())
def test_the_lab_plays_the_games_players_and_utility(name: str) -> None:
    """The lab takes exactly the players GameInfo gives, and its win shares are the utility."""
    pytest.importorskip("pyarrow")
    from sheepfold.lab.runner import LabError, chunk_to_table, engine_chunk, make_job

    info = game_spec(name).game_class.info
    for players in (info.min_players, info.max_players):
        job = make_job(name, players=players, games=3, seed=2, engine="engine")
        table = chunk_to_table(job, engine_chunk(job, range(3)))
        for shares in table.column("shares").to_pylist():
            assert len(shares) == players
            assert all(info.min_utility <= x <= info.max_utility for x in shares)
            assert sum(shares) == pytest.approx(info.utility_sum)
    for players in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(
            (RulesError, LabError), match=f"{info.min_players} to {info.max_players}"
        ):
            make_job(name, players=players, games=1, engine="engine")


def test_gameinfo_fields_are_all_compared() -> None:
    """A new GameInfo field must be added to the fixed facts or derived from the spec here."""
    sizes = {"num_distinct_actions", "max_chance_outcomes", "max_game_length", "max_chance_nodes"}
    assert {f.name for f in fields(GameInfo)} == set(FIXED) | sizes
