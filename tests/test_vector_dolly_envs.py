"""The envs over the Dolly Crush batch: ``gymnasium.make_vec("sheepfold/DollyCrush-v0",
vectorization_mode="vector_entry_point")`` (both observation layouts, the single env's spaces,
end-of-game info), the PettingZoo-parallel-style batch, and the SB3 ``VecEnv`` (SB3's step
conventions against the batch's own autoreset, the shaped reward, masks, a short MaskablePPO
run)."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import sheepfold.interop.gymnasium  # noqa: E402,F401  (registers the ids)
from sheepfold.core.protocol import IllegalAction  # noqa: E402
from sheepfold.vector import DollyBatch, DollyParallelBatch  # noqa: E402
from sheepfold.vector.gym_dolly import DollyCrushVectorEnv  # noqa: E402

E = 12


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("observation", ["flat", "grid"])
def test_make_vec_gives_the_batched_vector_env(observation: str) -> None:
    kw = dict(players=3, rules="dolly-graded", observation=observation)
    envs = gym.make_vec(
        "sheepfold/DollyCrush-v0",
        num_envs=E,
        vectorization_mode="vector_entry_point",
        opponents=["greedy", "random"],
        seat="random",
        **kw,
    )
    assert isinstance(envs.unwrapped, DollyCrushVectorEnv)
    single = gym.make("sheepfold/DollyCrush-v0", **kw)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"], envs.action_masks())
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        obs, rew, term, trunc, info = envs.step(_random_legal(envs.action_masks(), rng))
        assert envs.observation_space.contains(obs) and not trunc.any()
        for i in np.flatnonzero(term):
            ended += 1
            assert info["_scores"][i] and not info["truncated"][i]
            scores = info["scores"][i]
            assert info["winners"][i] == np.flatnonzero(scores == scores.max()).tolist()
            won = info["seat"][i] in info["winners"][i]
            assert rew[i] == pytest.approx(1 / len(info["winners"][i]) if won else 0.0)
    assert ended > 0


def test_the_parallel_batch() -> None:
    env = DollyParallelBatch(E, players=3, rules="dolly-graded")
    observations, _ = env.reset(seed=1)
    assert env.agents == ["player_0", "player_1", "player_2"]
    space = env.observation_space("player_0")
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(200):
        movers = env.batch.current_player()
        for a, seat in env.agent_name_mapping.items():
            mask = observations[a]["action_mask"]
            assert np.array_equal(mask.any(axis=1), movers == seat)
            assert observations[a]["observation"].shape == (E, *space["observation"].shape)
        actions = {a: _random_legal(observations[a]["action_mask"], rng) for a in env.agents}
        observations, rewards, terms, truncs, infos = env.step(actions)
        done = terms["player_0"]
        ended += int(done.sum())
        total = sum(rewards[a] for a in env.agents)
        assert np.allclose(total[done], 1.0) and not total[~done].any()
        assert not truncs["player_1"].any()
    assert ended > 0
    assert env.state().shape == (E, env.batch.obs_size)


pytest.importorskip("stable_baselines3")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from sheepfold.vector.sb3 import DollySB3VecEnv  # noqa: E402

torch.set_num_threads(1)  # 2 cores shared: more threads only make the small networks slower


@pytest.mark.parametrize("reward", ["win", "points"])
def test_sb3_steps_match_the_batch_with_autoreset(reward: str) -> None:
    kwargs = dict(opponents="greedy", seat="random")
    venv = DollySB3VecEnv(E, 2, seed=5, reward=reward, points_scale=4.0, **kwargs)
    ref = DollyBatch(E, 2, seed=5, autoreset=True, **kwargs)
    assert venv.observation_space.shape == (ref.obs_size,)
    obs = venv.reset()
    ref_obs, _ = ref.reset(seed=5)
    assert np.array_equal(obs, ref_obs)
    rng = np.random.default_rng(0)
    ended = 0
    paid = np.zeros(E)

    def margins() -> np.ndarray:  # the learner's points minus the best other's, game start
        s, me = ref.scores().astype(float), ref.learner_seats()
        mine = s[np.arange(E), me]
        s[np.arange(E), me] = -np.inf
        return mine - s.max(axis=1)

    start = margins()
    for _ in range(400):
        mask = venv.action_masks()
        assert np.array_equal(mask, ref.legal_mask())
        actions = _random_legal(mask, rng)
        seats = ref.learner_seats()
        ref_obs, ref_rew, term, _, ref_info = ref.step(actions)
        obs, rewards, dones, infos = venv.step(actions)
        assert np.array_equal(obs, ref_obs) and np.array_equal(dones, term)
        paid += rewards
        win = ref_rew[np.arange(E), seats]
        if reward == "win":
            assert np.array_equal(rewards, win)
        for i in np.flatnonzero(dones):
            ended += 1
            info = infos[i]
            assert np.array_equal(info["terminal_observation"], ref_info["final_obs"][i])
            assert not info["TimeLimit.truncated"] and info["seat"] == seats[i]
            if reward == "points":  # the single env's: the win share plus the final margin
                s = info["scores"]
                margin = s[seats[i]] - np.delete(s, seats[i]).max()
                want = win[i] + (margin - start[i]) / 4.0
                assert paid[i] == pytest.approx(want, abs=1e-4)
            paid[i] = 0.0
        start = np.where(dones, margins(), start)
    assert ended > E


def test_a_short_maskable_ppo_run() -> None:
    venv = VecMonitor(DollySB3VecEnv(E, opponents="random", seat="random"))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, n_epochs=1, seed=0)
    model.learn(total_timesteps=768)
    assert model.num_timesteps >= 768
    episodes = list(model.ep_info_buffer)
    assert episodes and all(0.0 <= ep["r"] <= 1.0 and ep["l"] >= 1 for ep in episodes)
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(E), actions].all()
    venv.step(actions)
    bad = np.argmin(get_action_masks(venv), axis=1)
    with pytest.raises(IllegalAction, match="not legal"):
        venv.step(bad)


def test_the_documented_training_command_writes_its_curve(tmp_path) -> None:
    import csv

    from sheepfold.vector.dolly_train import main

    argv = ["--steps", "512", "--every", "512", "--envs", "16", "--n-steps", "32"]
    main([*argv, "--games", "6", "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert [int(r["steps"]) for r in rows] == [0, 512]
    assert all(0.0 <= float(r[k]) <= 1.0 for r in rows for k in ("vs_random", "vs_greedy"))
    assert (tmp_path / "model.zip").exists()
