"""Gymnasium adapter: Gymnasium's check_env, masks, bots as opponents, rewards, illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sheepfold.bots import available_bots  # noqa: E402
from sheepfold.core.protocol import IllegalAction, SheepfoldError  # noqa: E402
from sheepfold.interop.gymnasium import (  # noqa: E402
    ENV_IDS,
    DollyCrushEnv,
    ShaveASheepEnv,
    SheepfoldEnv,
)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(
    "env_id,kwargs",
    [
        (ENV_IDS["dolly-crush"], {}),
        (ENV_IDS["dolly-crush"], {"players": 3, "seat": "random"}),
        (ENV_IDS["shave-a-sheep"], {}),
        (ENV_IDS["shave-a-sheep"], {"players": 4, "variants": ["howling-wolf"], "seat": 2}),
    ],
)
def test_check_env(env_id: str, kwargs: dict, capsys) -> None:
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped)  # also builds the 'human' and 'ansi' render modes from the spec
    env.close()


def _episode(env, seed: int):
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    actions, total = [], 0.0
    while True:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert np.array_equal(mask.astype(np.int8), info["action_mask"]) and mask.any()
        action = env.action_space.sample(info["action_mask"])
        actions.append(int(action))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return actions, total, terminated, truncated, info


@pytest.mark.parametrize(
    "cls,kwargs",
    [
        (DollyCrushEnv, {"players": 2}),
        (ShaveASheepEnv, {"players": 3, "variants": ["my-friend-mr-wolf"]}),
    ],
)
def test_episodes_are_seeded_and_pay_the_win_share(cls, kwargs) -> None:
    env = cls(**kwargs)
    a1, r1, term, trunc, info = _episode(env, 5)
    a2, r2, *_ = _episode(env, 5)
    assert (a1, r1) == (a2, r2)
    assert term and not trunc
    assert not env.action_masks().any()
    winners = info["winners"]
    assert r1 == pytest.approx(1 / len(winners) if env.seat in winners else 0.0)
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    seeds = {tuple(_episode(env, s)[0]) for s in range(6)}
    assert len(seeds) > 1


@pytest.mark.parametrize(
    "game,name",
    [(g, b) for g in ("dolly-crush", "shave-a-sheep") for b in sorted(available_bots(g))],
)
def test_every_registered_bot_can_be_the_opponent(game: str, name: str, tmp_path: Any) -> None:
    # A few steps only: some bots think for a while (the bot layer tests their play); a game of
    # 8 wool, which the perfect bot solves in a moment (the whole rulebook game: 30 s or more).
    if name == "best-response":  # it plays a saved file: the best response to greedy, seat 0
        from sheepfold.analysis import exploitability

        found = exploitability("greedy", 2, {"wool": 8}, seat=1, against=())
        name = f"best-response:{found.save_best_response(tmp_path / 'br.npz', seat=0)}"
    if game == "dolly-crush":
        env: SheepfoldEnv = DollyCrushEnv(players=2, opponents=name, seat=1)
    else:
        env = ShaveASheepEnv(players=2, opponents=name, seat=1, rules={"wool": 8})
    obs, info = env.reset(seed=1)
    assert env.state.history and env.action_masks().any()  # the bot at seat 0 has played
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.observation_space.contains(obs) and 0.0 <= reward <= 1.0


def test_dolly_opponents_by_name_per_seat() -> None:
    names = sorted(available_bots("dolly-crush"))
    env = DollyCrushEnv(players=3, opponents=[names[0], names[-1]], seat=1)
    _, total, term, _, info = _episode(env, 2)
    assert term and info["seat"] == 1 and 0.0 <= total <= 1.0


def test_unknown_bot_and_bad_seat_are_refused() -> None:
    with pytest.raises(SheepfoldError, match="no bot named 'nobody'"):
        DollyCrushEnv(opponents="nobody")
    with pytest.raises(ValueError, match="opponents given"):
        DollyCrushEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat must be"):
        ShaveASheepEnv(seat=2)


def test_illegal_action_modes() -> None:
    env = DollyCrushEnv(illegal_action="lose")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(10)  # a swap before a dog card
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert "choose a dog card first" in info["illegal_action"]
    env = DollyCrushEnv(illegal_action="random")
    env.reset(seed=0)
    *_, info = env.step(10)
    assert "illegal_action" in info
    env = DollyCrushEnv(illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalAction):
        env.step(10)


def test_turn_limit_truncates() -> None:
    env = ShaveASheepEnv(players=2, max_turns=4)
    _, total, term, trunc, info = _episode(env, 0)
    assert trunc and not term and info["truncated"]
    assert total == pytest.approx(0.5)


def test_render_ansi() -> None:
    env = ShaveASheepEnv(render_mode="ansi", players=2, seat=1)
    env.reset(seed=0)
    text = env.render()
    assert "seen by seat 1" in text and "seat 1 to play" in text
