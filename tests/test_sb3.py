"""The SB3 ``VecEnv`` on the Shave a Sheep batch (:mod:`sheepfold.vector.sb3`): SB3's step
conventions checked against the batch's own same-step autoreset, the end-of-game info against
the rewards, the masks as sb3-contrib reads them, and a short MaskablePPO run."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("stable_baselines3")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from sheepfold.core.protocol import IllegalAction  # noqa: E402
from sheepfold.vector import ShaveBatch  # noqa: E402
from sheepfold.vector.sb3 import ShaveSB3VecEnv  # noqa: E402

torch.set_num_threads(1)  # 2 cores shared: more threads only make the small networks slower

E = 16


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2, "opponents": "random", "seat": 0},
        {"players": 3, "opponents": ["greedy", "random"], "seat": "random"},
        {"players": 2, "opponents": "greedy", "seat": 1, "rules": "howling-wolf", "max_turns": 12},
    ],
)
def test_steps_match_the_batch_with_autoreset(kwargs: dict) -> None:
    """Obs, rewards, dones and terminal observations are those of ShaveBatch's own same-step
    autoreset (the kernel's path), step after step, over many ended games."""
    kwargs = dict(kwargs)
    players = kwargs.pop("players")
    venv = ShaveSB3VecEnv(E, players, seed=5, **kwargs)
    rules = kwargs.pop("rules", None)
    ref = ShaveBatch(E, players, rules, seed=5, autoreset=True, **kwargs)
    assert isinstance(venv, VecEnv) and venv.num_envs == E
    assert venv.observation_space.shape == (ref.obs_size,)
    assert venv.action_space.n == ref.num_actions
    obs = venv.reset()
    ref_obs, _ = ref.reset(seed=5)
    assert obs.dtype == np.float32 and np.array_equal(obs, ref_obs)
    rng = np.random.default_rng(0)
    ended, truncated = 0, 0
    for _ in range(300):
        mask = venv.action_masks()
        assert np.array_equal(mask, ref.legal_mask()) and mask.any(axis=1).all()
        actions = _random_legal(mask, rng)
        seats = ref.learner_seats()
        ref_obs, ref_rew, term, trunc, ref_info = ref.step(actions)
        obs, rewards, dones, infos = venv.step(actions)
        assert np.array_equal(obs, ref_obs)
        assert rewards.dtype == np.float32
        assert np.array_equal(rewards, ref_rew[np.arange(E), seats])
        assert np.array_equal(dones, term | trunc) and np.array_equal(dones, ref_info["_final"])
        for i in range(E):
            if not dones[i]:
                assert infos[i] == {} and rewards[i] == 0.0
                continue
            info = infos[i]
            ended += 1
            truncated += info["truncated"]
            assert np.array_equal(info["terminal_observation"], ref_info["final_obs"][i])
            assert info["TimeLimit.truncated"] == info["truncated"] == bool(trunc[i])
            assert info["seat"] == seats[i]
            scores, winners = info["scores"], info["winners"]
            assert scores.shape == (players,)
            if info["truncated"]:
                assert winners == [] and rewards[i] == pytest.approx(1 / players)
            else:
                assert winners == np.flatnonzero(scores == scores.max()).tolist()
                share = 1 / len(winners) if seats[i] in winners else 0.0
                assert rewards[i] == pytest.approx(share)
    assert ended > 2 * E  # many games ended and restarted
    if kwargs.get("max_turns"):
        assert truncated > 0


def test_seed_restarts_the_same_games() -> None:
    venv = ShaveSB3VecEnv(E, opponents="greedy", seat="random")

    def play(seed: int) -> np.ndarray:
        venv.seed(seed)
        out = [venv.reset()]
        rng = np.random.default_rng(1)
        for _ in range(60):
            out.append(venv.step(_random_legal(venv.action_masks(), rng))[0])
        return np.stack(out)

    first = play(11)
    assert np.array_equal(play(11), first)
    assert not np.array_equal(play(12), first)
    venv.set_options({"wool": 3})
    with pytest.raises(ValueError, match="no reset options"):
        venv.reset()


def test_masks_as_sb3_contrib_reads_them_and_the_attribute_calls() -> None:
    venv = VecMonitor(ShaveSB3VecEnv(E, seat="random"))
    venv.reset()
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.dtype == np.bool_ and masks.shape == (E, venv.action_space.n)
    assert np.array_equal(masks, venv.unwrapped.action_masks())
    rows = venv.env_method("action_masks", indices=[3, 5])
    assert len(rows) == 2 and np.array_equal(rows[1], masks[5])
    assert venv.get_attr("render_mode") == [None] * E
    assert venv.env_is_wrapped(VecMonitor) == [False] * E
    venv.set_attr("note", "x")
    assert venv.get_attr("note", indices=1) == ["x"]
    with pytest.raises(ValueError, match="one batch"):
        venv.set_attr("note", "y", indices=[0])
    with pytest.raises(AttributeError):
        venv.get_attr("no_such_attribute")
    assert not masks.all()  # some env has an illegal action: play it there
    bad = np.where(masks.all(axis=1), 0, np.argmin(masks, axis=1))
    with pytest.raises(IllegalAction, match="legal actions"):
        venv.step(bad)


def test_a_short_maskable_ppo_run() -> None:
    venv = VecMonitor(ShaveSB3VecEnv(E, opponents="random", seat="random"))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, n_epochs=1, seed=0)
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024
    episodes = list(model.ep_info_buffer)  # VecMonitor's, from our dones
    assert episodes and all(0.0 <= ep["r"] <= 1.0 and ep["l"] >= 1 for ep in episodes)
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(E), actions].all()
    venv.step(actions)  # legal: no IllegalAction
