"""PettingZoo: the AEC env's global ``state()`` and ``state_space`` (the engine state is
``game_state``), and the one-game ParallelEnv under PettingZoo's ``parallel_api_test``; every
registered game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import sheepfold.games  # noqa: E402, F401  (registers the games)
from sheepfold.core.protocol import SheepfoldError  # noqa: E402
from sheepfold.core.registry import game_names  # noqa: E402
from sheepfold.interop.encoding import encoder_for  # noqa: E402
from sheepfold.interop.pettingzoo import env, parallel_env, raw_env  # noqa: E402

GAMES = [(name, players) for name in game_names() for players in (2, 3)]


@pytest.mark.parametrize("name,players", GAMES)
def test_state_is_every_seats_observation_through_the_wrappers(name: str, players: int) -> None:
    wrapped = env(name, players=players)
    wrapped.reset(seed=1)
    raw = wrapped.unwrapped
    for i, agent in enumerate(wrapped.possible_agents):  # the same moves every run
        wrapped.action_space(agent).seed(i)
    enc = encoder_for(raw.game)
    assert raw.state_space.shape == (players * enc.size,)
    for agent in wrapped.agent_iter(60):
        state = wrapped.state()  # the method through PettingZoo's wrappers, not an attribute
        assert raw.state_space.contains(state)
        want = [enc.encode(raw.game_state, s) for s in range(players)]
        assert np.array_equal(state, np.concatenate(want))
        obs, _, term, trunc, _ = wrapped.last()
        seat = raw.agent_name_mapping[agent]
        assert np.array_equal(state[seat * enc.size : (seat + 1) * enc.size], obs["observation"])
        wrapped.step(
            None if term or trunc else wrapped.action_space(agent).sample(obs["action_mask"])
        )


def test_state_before_reset_is_a_clear_error() -> None:
    with pytest.raises(SheepfoldError, match="reset"):
        raw_env("shave-a-sheep").state()


@pytest.mark.parametrize("name", game_names())
def test_api_test_still_passes_with_a_state_method(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PettingZoo's advice on dict spaces
        api_test(env(name, players=3), num_cycles=100)


@pytest.mark.parametrize("name,players", GAMES)
def test_parallel_env_passes_parallel_api_test(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the test's own complaints come as warnings
        warnings.filterwarnings("ignore", "Your environment", UserWarning)  # dict-space advice
        parallel_api_test(parallel_env(name, players=players), num_cycles=2000)


@pytest.mark.parametrize("name", game_names())
def test_parallel_env_plays_the_aec_game_to_its_end(name: str) -> None:
    par = parallel_env(name, players=3)
    aec = raw_env(name, players=3)
    obs, _ = par.reset(seed=5)
    aec.reset(seed=5)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        mover = aec.agent_selection
        for a in par.agents:
            assert np.array_equal(obs[a]["observation"], aec.observe(a)["observation"])
            assert np.array_equal(obs[a]["action_mask"], aec.observe(a)["action_mask"])
            assert obs[a]["action_mask"].any() == (a == mover)
        action = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        actions = {a: (action if a == mover else 0) for a in par.agents}
        obs, rew, term, trunc, info = par.step(actions)
        aec.step(action)
        assert np.array_equal(par.state(), aec.state())
        done = all(term[a] or trunc[a] for a in term)
        if done:
            assert par.agents == [] and set(info) == set(par.possible_agents)
            assert rew == aec.rewards and info == aec.infos
            assert all({"scores", "winners", "truncated"} <= set(i) for i in info.values())
    with pytest.raises(SheepfoldError, match="reset"):
        par.step({})


def test_parallel_env_refuses_a_step_without_the_movers_action() -> None:
    par = parallel_env("shave-a-sheep", players=2)
    par.reset(seed=0)
    with pytest.raises(ValueError, match="player_0 is to move"):
        par.step({"player_1": 0})
