"""The Gymnasium vector env of Shave a Sheep (sheepfold.vector.gym_shave): made by
``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``, checked with what
Gymnasium's checker offers vector envs, and played for a few hundred steps."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import sheepfold.interop.gymnasium  # noqa: E402,F401  (registers the ids)
from sheepfold.core.protocol import IllegalAction  # noqa: E402
from sheepfold.interop.encoding import encoder_for  # noqa: E402
from sheepfold.vector.gym_shave import ShaveASheepVectorEnv  # noqa: E402


def make(num_envs: int = 8, **kw):
    return gym.make_vec(
        "sheepfold/ShaveASheep-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        **kw,
    )


def test_make_vec_gives_the_batched_vector_env() -> None:
    envs = make(16, players=3, opponents="greedy", rules="howling-wolf")
    assert isinstance(envs, gym.vector.VectorEnv)
    assert isinstance(envs.unwrapped, ShaveASheepVectorEnv)
    single = gym.make("sheepfold/ShaveASheep-v0", players=3, rules="howling-wolf")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert envs.action_masks().shape == (16, single.action_space.n)
    assert np.array_equal(info["action_mask"], envs.action_masks())


def test_what_the_checker_offers_vector_envs() -> None:
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.utils.passive_env_checker import check_obs

    envs = make(8)
    check_obs(envs.reset(seed=3)[0], envs.observation_space, "reset")
    # determinism: the same seed and actions give the same data (data_equivalence, as
    # check_reset_seed_determinism and check_step_determinism use it)
    runs = []
    for _ in range(2):
        out = [envs.reset(seed=3)]
        for _ in range(50):
            a = _masked(envs, np.random.default_rng(len(out)))
            out.append(envs.step(a))
        runs.append(out)
    assert data_equivalence(runs[0], runs[1])
    obs = runs[0][-1][0]
    check_obs(obs, envs.observation_space, "step")
    envs.close()


def _masked(envs, rng) -> np.ndarray:
    mask = envs.action_masks()
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


def test_a_few_hundred_steps_against_greedy_with_a_random_seat() -> None:
    envs = make(32, opponents="greedy", seat="random")
    obs, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    total = np.zeros(2)
    finished = 0
    pending = np.zeros(32, bool)
    for _ in range(400):
        obs, rew, term, trunc, info = envs.step(_masked(envs, rng))
        assert envs.observation_space.contains(obs)
        assert not rew[pending].any()  # the reset step of an env rewards nothing
        done = term | trunc
        for i in np.flatnonzero(done):
            finished += 1
            total[info["seat"][i]] += rew[i]
        assert np.all(rew[~done] == 0)
        pending = done
    assert finished > 50
    assert set(np.unique(info["seat"])) == {0, 1}
    assert total.sum() / finished < 0.45  # a random learner loses to greedy


def test_the_learners_observation_is_the_single_envs_encoding() -> None:
    envs = make(4, players=3, seat=2)
    obs, _ = envs.reset(seed=4)
    batch = envs.unwrapped.batch
    assert np.all(batch.current_player() == 2)
    assert np.array_equal(obs, batch.observe(2))
    assert encoder_for(batch.game).size == obs.shape[1]


def test_an_illegal_action_names_the_env() -> None:
    envs = make(4)
    envs.reset(seed=0)
    a = np.argmax(envs.action_masks(), axis=1)
    a[1] = int(np.flatnonzero(~envs.action_masks()[1])[0])
    with pytest.raises(IllegalAction, match="env 1: action"):
        envs.step(a)


@pytest.mark.parametrize("max_turns", [6, None])
def test_end_of_game_info_is_the_single_envs(max_turns) -> None:
    """The vector env's games are not the single env's games of the same seed (the kernel
    draws its own chance), so each ended game is replayed through the engine and the single
    env's own info for that final position is the reference."""
    from sheepfold.interop.gymnasium import SheepfoldEnv

    envs = ShaveASheepVectorEnv(
        16, players=3, rules="howling-wolf", max_turns=max_turns, record=True
    )
    single = SheepfoldEnv(envs.batch.game, seat=0)
    envs.reset(seed=2)
    rng = np.random.default_rng(1)
    checked = truncations = 0
    for _ in range(300):
        _, _, term, trunc, info = envs.step(_masked(envs, rng))
        ended = term | trunc
        for key in ("scores", "winners", "truncated"):
            assert key in info if ended.any() else key not in info
            if ended.any():
                assert np.array_equal(info["_" + key], ended)
        for i in np.flatnonzero(ended):
            state = single.game.new_initial_state()
            for a in envs.batch.history(i):
                state.apply(a)
            single.state = state
            want = single._info()
            assert list(info["scores"][i]) == want["scores"]
            assert info["winners"][i] == want["winners"]
            assert bool(info["truncated"][i]) == want["truncated"] == bool(trunc[i])
            checked += 1
            truncations += bool(trunc[i])
    assert checked >= 20
    assert (truncations > 0) == (max_turns is not None)
