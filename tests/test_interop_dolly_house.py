"""Issue 13: the adapters (Gymnasium, PettingZoo, OpenSpiel) and the observation tensor take
every Dolly Crush rule set: sizes follow the rules (cells, card kinds, dog cards, action count
with "stop"), random play runs to the end, and the frameworks' own checks pass."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sheepfold.games import make
from sheepfold.interop.encoding import encoder_for, legal_mask

#: odd rule sets, one or more house rules each
HOUSE: dict[str, dict[str, Any]] = {
    "4x6-diagonals": {"rows": 4, "cols": 6, "diagonals": True},
    "2x3-lines-of-2": {"rows": 2, "cols": 3, "min_line": 2},
    "8-types": {"types": 8},
    "up-to": {"swaps": "up-to"},
    "6-dogs": {"dogs_per_player": 6},
    "8x8-colour-cascades": {"rows": 8, "cols": 8, "match_colour": True, "cascades": True},
    "rounds-points": {"rounds": 2, "end_points": 25, "dogs_per_player": 2},
}
IDS = list(HOUSE)


def expected_sizes(game: Any) -> tuple[int, int, int, int]:
    r = game.rules
    cells, kinds = r.rows * r.cols, 2 * r.types
    swaps = r.rows * (r.cols - 1) + r.cols * (r.rows - 1)
    actions = r.dogs_per_player + swaps + (1 if r.swaps == "up-to" else 0)
    return cells, kinds, r.dogs_per_player, actions


@pytest.mark.parametrize("name", IDS)
def test_the_tensor_follows_the_rule_set(name: str) -> None:
    g = make("dolly-crush", players=3, rules=HOUSE[name])
    cells, kinds, dogs, actions = expected_sizes(g)
    assert g.info.num_distinct_actions == actions == g.num_actions
    assert g.info.max_chance_outcomes == kinds
    enc = encoder_for(g)
    shapes = dict(enc.pieces)
    assert shapes["flock"] == (cells, kinds)
    assert shapes["deck"] == shapes["returning"] == (kinds,)
    assert shapes["collected"] == (3, kinds)
    assert shapes["dogs_left"] == shapes["dog_swaps"] == (3, dogs)
    assert shapes["dog"] == (dogs,)
    assert ("rounds" in shapes) == (g.rules.rounds is not None)
    # random play to the end: every tensor has the layout's size, values in [0, 1]
    rng = random.Random(5)
    s = g.new_initial_state(seed=5)
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        for seat in range(3):
            x = enc.encode(s, seat)
            assert x.shape == (enc.size,) and x.min() >= 0.0 and x.max() <= 1.0
        mask = legal_mask(s, actions)
        assert mask.sum() == len(s.legal_actions()) > 0
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    assert steps <= g.info.max_game_length
    text = enc.text(s, 0)
    assert text.count("\n") >= g.rules.rows + 2


def test_the_rulebook_layout_is_unchanged() -> None:
    """15 cells x 10 kinds, 4 dog cards, 26 actions: the default rules keep their tensor."""
    g = make("dolly-crush", players=2)
    enc = encoder_for(g)
    assert dict(enc.pieces)["flock"] == (15, 10) and g.info.num_distinct_actions == 26
    assert enc.size == 2 + 4 + 2 + 150 + 10 + 10 + 20 + 8 + 8 + 4 + 1 + 2


# -- Gymnasium ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", IDS)
def test_gymnasium_env_plays_every_rule_set(name: str) -> None:
    pytest.importorskip("gymnasium")
    from sheepfold.interop.gymnasium import DollyCrushEnv

    opponent = "greedy" if name in ("up-to", "8-types", "rounds-points") else "random"
    env = DollyCrushEnv(players=2, rules=HOUSE[name], opponents=opponent)
    _, _, _, actions = expected_sizes(env.game)
    assert env.action_space.n == actions
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        while True:
            assert env.observation_space.contains(obs)
            assert info["action_mask"].shape == (actions,) and info["action_mask"].any()
            obs, reward, terminated, truncated, info = env.step(
                env.action_space.sample(info["action_mask"])
            )
            if terminated or truncated:
                assert terminated and not truncated and 0.0 <= reward <= 1.0
                break
    env.close()


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("name", ["4x6-diagonals", "up-to"])
def test_gymnasium_check_env(name: str) -> None:
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from sheepfold.interop.gymnasium import ENV_IDS

    env = gym.make(ENV_IDS["dolly-crush"], players=2, rules=HOUSE[name])
    check_env(env.unwrapped)  # the spec lets it build the 'human' and 'ansi' render modes too
    env.close()


# -- PettingZoo --------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["2x3-lines-of-2", "8-types", "up-to", "6-dogs"])
def test_pettingzoo_api_test(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from sheepfold.interop.pettingzoo import dolly_crush_env

    api_test(dolly_crush_env(players=3, rules=HOUSE[name]), num_cycles=200)


@pytest.mark.parametrize("name", IDS)
def test_pettingzoo_random_play_to_the_end(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from sheepfold.interop.pettingzoo import dolly_crush_env

    env = dolly_crush_env(players=2, rules=HOUSE[name])
    env.reset(seed=3)
    raw = env.unwrapped
    _, _, _, actions = expected_sizes(raw.game)
    for i, a in enumerate(env.possible_agents):
        env.action_space(a).seed(i)
        assert env.observation_space(a)["action_mask"].shape == (actions,)
    ended = set()
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert env.observation_space(agent).contains(obs)
        if term or trunc:
            ended.add(agent)
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert ended == set(env.possible_agents)
    assert raw.game_state.is_terminal()


# -- OpenSpiel ---------------------------------------------------------------------------------
def _os_params(rules: dict[str, Any]) -> str:
    parts = []
    for k, v in rules.items():
        parts.append(f"{k}={'true' if v is True else 'false' if v is False else v}")
    return ",".join(parts)


@pytest.mark.parametrize("name", IDS)
def test_openspiel_random_sim_test(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sheepfold.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"python_dolly_crush(players=2,{_os_params(HOUSE[name])})")
    engine = game.new_initial_state().engine_state.game
    _, kinds, _, actions = expected_sizes(engine)
    assert game.num_distinct_actions() == actions
    assert game.max_chance_outcomes() == kinds
    assert game.observation_tensor_shape() == [encoder_for(engine).size]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["4x6-diagonals", "up-to", "8-types"])
def test_openspiel_state_agrees_with_the_engine(name: str) -> None:
    pytest.importorskip("pyspiel")
    from sheepfold.interop import build_game
    from sheepfold.interop import openspiel as sos
    from test_interop_openspiel import _agree

    game_string = sos.game_string("dolly-crush", 2, **HOUSE[name])
    engine_game = build_game("dolly-crush", 2, HOUSE[name])  # on the same default rule set
    assert sum(_agree(game_string, engine_game, seed) for seed in range(2)) > 20


def test_openspiel_names_the_stop_action() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sheepfold.interop.openspiel  # noqa: F401

    game = pyspiel.load_game("python_dolly_crush(players=2,swaps=up-to,rows=4,cols=7)")
    s = game.new_initial_state()
    engine = s.engine_state.game
    assert s.action_to_string(0, engine.stop) == engine.action_name(engine.stop)
    last = engine.swap0 + len(engine.board.swaps) - 1
    assert "d7" in s.action_to_string(0, last)
    assert np.asarray(s.observation_tensor(0)).size == encoder_for(engine).size
