"""Stable-Baselines3 out of the box: make_vec_env, sb3-contrib's MaskablePPO and its masks through
the wrappers, a trained model as an opponent (self-play) and as input to exploitability."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
torch = pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

from sheepfold.interop.gymnasium import ENV_IDS  # noqa: E402

torch.set_num_threads(1)  # 2 cores shared: more threads only make the small networks slower

CASES = [
    (ENV_IDS["shave-a-sheep"], {"players": 2, "opponents": "greedy"}),
    (ENV_IDS["dolly-crush"], {"players": 2, "opponents": "random"}),
    (ENV_IDS["dolly-crush"], {"observation": "grid", "reward": "points"}),
]


def _unwrapped_masks(vec) -> np.ndarray:
    return np.stack([env.unwrapped.action_masks() for env in vec.envs])


@pytest.mark.parametrize("env_id,kwargs", CASES)
def test_make_vec_env_and_maskable_ppo_learn(env_id: str, kwargs: dict) -> None:
    # make_vec_env asks for render_mode="rgb_array" and wraps each env in a Monitor
    vec = make_vec_env(env_id, n_envs=2, seed=0, env_kwargs=kwargs)
    assert vec.render_mode == "rgb_array"
    vec.reset()
    assert is_masking_supported(vec)
    masks = get_action_masks(vec)
    assert masks.dtype == bool and masks.shape == (2, vec.action_space.n)
    assert np.array_equal(masks, _unwrapped_masks(vec)) and masks.any(axis=1).all()

    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    episodes = [info for info in model.ep_info_buffer]
    assert episodes and all(0.0 <= ep["l"] for ep in episodes)

    obs = vec.reset()
    masks = get_action_masks(vec)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))
    frames = vec.get_images()
    assert all(f.dtype == np.uint8 and f.ndim == 3 and f.shape[2] == 3 for f in frames)
    vec.close()


def test_action_masks_through_gym_make_and_other_wrappers() -> None:
    env = gym.make(ENV_IDS["dolly-crush"], players=3)
    _, info = env.reset(seed=1)
    assert np.array_equal(env.action_masks().astype(np.int8), info["action_mask"])
    assert is_masking_supported(env) and np.array_equal(get_action_masks(env), env.action_masks())
    limited = gym.make(ENV_IDS["shave-a-sheep"], max_episode_steps=5)
    _, info = limited.reset(seed=2)
    assert not hasattr(limited, "action_masks")  # TimeLimit does not forward attributes...
    mask = limited.get_wrapper_attr("action_masks")()  # ...but this reaches it, as sb3 does
    assert np.array_equal(mask.astype(np.int8), info["action_mask"])
    assert np.array_equal(get_action_masks(limited), mask)


def test_a_trained_model_is_an_opponent_and_is_measured_exactly() -> None:
    from sheepfold.analysis import exploitability

    rules = {"wool": 8}
    vec = make_vec_env(ENV_IDS["shave-a-sheep"], n_envs=1, seed=0, env_kwargs={"rules": rules})
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    env = gym.make(ENV_IDS["shave-a-sheep"], rules=rules, opponents=model, seat=1)
    obs, info = env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(int(np.argmax(info["action_mask"])))
        if terminated or truncated:
            break
    movers = {p for p, _ in env.unwrapped.state.history if p >= 0}
    assert movers == {0, 1}  # the model played seat 0
    found = exploitability(model, 2, rules, seat=0, against=("random",))
    assert 0.0 <= found.shares["random"][0] <= 1.0 and found.exploitability >= -1e-9
