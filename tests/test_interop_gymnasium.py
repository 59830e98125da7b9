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


def test_callable_opponents_see_their_own_seat() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs, mask))
        return int(np.flatnonzero(mask)[-1])

    env = DollyCrushEnv(players=3, opponents=["random", last_legal], seat=0)
    _, total, term, _, _ = _episode(env, 3)
    assert term and seen and 0.0 <= total <= 1.0
    seat_piece = env.encoder.views(seen[0][0])["seat"]
    assert seat_piece.tolist() == [0.0, 0.0, 1.0]  # it was asked in seat 2, with its view
    assert all(env.observation_space.contains(o) and m.dtype == bool and m.any() for o, m in seen)
    movers = [a for p, a in env.state.history if p == 2]
    assert len(movers) == len(seen)


def test_opponent_policies_are_checked() -> None:
    with pytest.raises(ValueError, match="neither a bot name nor a function"):
        ShaveASheepEnv(opponents=42)
    with pytest.raises(ValueError, match=r"opponents\[1\]: .* neither a bot name"):
        DollyCrushEnv(players=3, opponents=["random", object()])

    class Predicts:  # an SB3-style model: predict(obs, action_masks=..., deterministic=...)
        def predict(self, obs, action_masks=None, deterministic=False):
            return np.array([int(np.flatnonzero(m)[0]) for m in action_masks]), None

    env = ShaveASheepEnv(opponents=Predicts(), seat=1, rules={"wool": 8})
    _, total, term, trunc, _ = _episode(env, 0)
    assert (term or trunc) and 0.0 <= total <= 1.0
    env = ShaveASheepEnv(opponents=lambda obs, mask: 99, seat=1)
    with pytest.raises(SheepfoldError, match="opponent policy in seat 0 chose action 99"):
        env.reset(seed=0)


@pytest.mark.parametrize("rules", [None, {"rows": 4, "cols": 6}])
def test_grid_observation_is_the_flat_one_laid_out_on_the_flock(rules) -> None:
    env = DollyCrushEnv(observation="grid", rules=rules)
    board = env.game.board
    flat_size, kinds = env.encoder.size, board.kinds
    channels = kinds + flat_size - board.cells * kinds
    assert env.observation_space.shape == (board.rows, board.cols, channels)
    check_env(gym.make(ENV_IDS["dolly-crush"], observation="grid", rules=rules).unwrapped)
    obs, _ = env.reset(seed=4)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    grid = env._obs()
    flat = env.encoder.encode(env.state, env.seat)
    flock = env.encoder.views(flat)["flock"]
    assert np.array_equal(grid[:, :, :kinds].reshape(board.cells, kinds), flock)
    assert flock.any() and (grid[..., kinds:] == grid[0, 0, kinds:]).all()
    off = env.encoder.offsets["flock"][0]
    assert np.array_equal(grid[0, 0, kinds:], np.delete(flat, np.s_[off : off + flock.size]))


def test_grid_needs_a_board_and_options_are_checked() -> None:
    with pytest.raises(SheepfoldError, match="no board to lay out as a grid"):
        ShaveASheepEnv(observation="grid")
    with pytest.raises(SheepfoldError, match="observation must be one of flat, grid"):
        DollyCrushEnv(observation="image")
    with pytest.raises(ValueError, match="reward must be one of win, points"):
        DollyCrushEnv(reward="score")
    with pytest.raises(ValueError, match="points_scale must be positive"):
        DollyCrushEnv(reward="points", points_scale=0)


@pytest.mark.parametrize("opponents", ["random", "medium"])
def test_points_reward_pays_the_margin_as_it_changes(opponents: str) -> None:
    env = DollyCrushEnv(reward="points", points_scale=4.0, opponents=opponents, players=3)
    paid_before_the_end = 0
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)  # unseeded, it draws from the OS: a game may pay nothing
        before = start = env._points_margin()  # own points minus the best other seat's
        total = 0.0
        while True:
            obs, reward, terminated, truncated, info = env.step(
                env.action_space.sample(info["action_mask"])
            )
            total += reward
            after = env._points_margin()
            done = terminated or truncated
            share = env.state.outcome().shares()[env.seat] if done else 0.0
            assert reward == pytest.approx(share + (after - before) / 4.0)
            paid_before_the_end += not done and reward != 0
            before = after
            if done:
                break
        scores, me = info["scores"], env.seat
        margin = scores[me] - max(x for p, x in enumerate(scores) if p != me)
        assert total == pytest.approx(share + (margin - start) / 4.0)
    assert paid_before_the_end > 0


def test_render_rgb_array() -> None:
    env = gym.make(ENV_IDS["dolly-crush"], render_mode="rgb_array")
    assert env.render() is None  # nothing to draw before reset
    env.reset(seed=0)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] < 400 and first.shape[1] < 400
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.render().shape == first.shape and not np.array_equal(env.render(), first)


def test_a_registered_bot_is_an_opponent_by_name(monkeypatch) -> None:
    # docs/interop.md "Your own bot as an opponent"; a copy of the registry, restored afterwards
    import sheepfold.bots as bots

    bots.available_bots("dolly-crush")  # load ours first
    monkeypatch.setattr(bots, "_REGISTRY", {g: dict(v) for g, v in bots._REGISTRY.items()})
    monkeypatch.setattr(bots, "_LIMITS", dict(bots._LIMITS))
    asked: list[int] = []

    class FirstLegal(bots.Bot):
        name = "first-legal"

        def act(self, view):
            action = min(
                self.game.determinize(view, seed=self.rng.randrange(2**31)).legal_actions()
            )
            asked.append(action)
            return action

    @bots.register_bot("dolly-crush", "first-legal", "always the lowest legal action id")
    def _make(game, seat, seed, arg):
        return FirstLegal(game, seat, seed)

    env = gym.make(ENV_IDS["dolly-crush"], opponents="first-legal", seat=1)
    obs, info = env.reset(seed=0)
    assert asked and [a for p, a in env.unwrapped.state.history if p == 0] == asked
