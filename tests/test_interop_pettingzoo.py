"""PettingZoo adapter: PettingZoo's own api_test and seed_test, seeding, masks, rewards, rendering."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from sheepfold.core.protocol import IllegalAction  # noqa: E402
from sheepfold.interop.pettingzoo import (  # noqa: E402
    SheepfoldAECEnv,
    dolly_crush_env,
    shave_a_sheep_env,
)

CASES = [
    (dolly_crush_env, {}),
    (dolly_crush_env, {"players": 4}),
    (shave_a_sheep_env, {}),
    (shave_a_sheep_env, {"players": 3, "variants": ["howling-wolf"]}),
    (shave_a_sheep_env, {"players": 4, "variants": ["cutting-costs", "my-friend-mr-wolf"]}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("make_env,kwargs", CASES)
def test_api_test(make_env, kwargs) -> None:
    api_test(make_env(**kwargs), num_cycles=300)


@pytest.mark.parametrize("make_env,kwargs", CASES)
def test_seed_test(make_env, kwargs) -> None:
    seed_test(lambda: make_env(**kwargs), num_cycles=300)


def _play(env, seed: int) -> tuple[list, dict]:
    env.reset(seed=seed)
    for i, a in enumerate(env.possible_agents):
        env.action_space(a).seed(seed + i)
    trace, final = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info)
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        assert env.observation_space(agent).contains(obs)
        action = env.action_space(agent).sample(mask)
        assert mask[action] == 1
        trace.append((agent, int(action)))
        env.step(action)
    return trace, final


def test_same_seed_same_game_and_win_shares() -> None:
    env = dolly_crush_env(players=3)
    t1, f1 = _play(env, 7)
    t2, f2 = _play(env, 7)
    t3, _ = _play(env, 8)
    assert t1 == t2 and t1 != t3
    assert f1.keys() == {"player_0", "player_1", "player_2"}
    rewards = [f1[a][0] for a in sorted(f1)]
    assert sum(rewards) == pytest.approx(1.0)
    winners = f1["player_0"][3]["winners"]
    assert all(
        r == pytest.approx(1 / len(winners)) if i in winners else r == 0
        for i, r in enumerate(rewards)
    )
    assert all(term and not trunc for _, term, trunc, _ in f1.values())


def test_only_the_seat_to_move_has_a_mask() -> None:
    env = shave_a_sheep_env(players=3)
    env.reset(seed=1)
    mover = env.agent_selection
    for a in env.possible_agents:
        mask = env.observe(a)["action_mask"]
        assert (mask.sum() > 0) == (a == mover)


def test_turn_limit_truncates_every_agent() -> None:
    env = shave_a_sheep_env(players=2, max_turns=3)
    _, final = _play(env, 0)
    assert all(trunc and not term for _, term, trunc, _ in final.values())
    assert [final[a][0] for a in sorted(final)] == [0.5, 0.5]
    assert final["player_0"][3]["truncated"] is True


def test_illegal_action_raises_with_the_rule() -> None:
    env = SheepfoldAECEnv("dolly-crush")
    env.reset(seed=0)
    with pytest.raises(IllegalAction, match="choose a dog card first"):
        env.step(10)  # a swap before a dog card


def test_render_ansi_shows_the_position() -> None:
    env = dolly_crush_env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("Dolly Crush, 2 players") and "seat 0 to play: dog" in text
    env2 = shave_a_sheep_env(render_mode="ansi", variants=["my-friend-mr-wolf"])
    env2.reset(seed=3)
    assert "wolf in the middle" in env2.render()


def test_rule_set_by_name_and_game_object() -> None:
    env = SheepfoldAECEnv("dolly-crush", players=2, rules="dolly-graded")
    assert env.game.dog_swaps[0] == (1, 2, 3, 4)
    from sheepfold.games import make

    g = make("shave-a-sheep", players=2, max_turns=10)
    assert SheepfoldAECEnv(g).game is g
    assert SheepfoldAECEnv("shave-a-sheep").game.rules.max_turns == 1000
    assert SheepfoldAECEnv("shave-a-sheep", max_turns=None).game.rules.max_turns is None
