"""ShaveParallelBatch (PettingZoo ParallelEnv style over many games) agrees with single
environments: every game, replayed from its recorded history into the PettingZoo AEC
environment's state, shows the same observation and action mask to every agent, and the same
rewards and ends; the same seed gives the same games."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from sheepfold.interop.pettingzoo import raw_env  # noqa: E402
from sheepfold.vector import ShaveParallelBatch  # noqa: E402


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, None), (3, "howling-wolf"), (4, {"variants": ["my-friend-mr-wolf"], "max_turns": 30})],
)
def test_the_parallel_batch_agrees_with_single_envs(players, rules) -> None:
    env = ShaveParallelBatch(6, players, rules, record=True)
    single = raw_env("shave-a-sheep", players=players, rules=rules)
    single.reset(seed=0)
    states = [env.game.new_initial_state(seed=0) for _ in range(env.num_envs)]
    done = [0] * env.num_envs
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(players)
    ended_games = 0
    for _ in range(150):
        for i in range(env.num_envs):  # the single env, set to game i's position
            for a in env.history(i)[done[i] :]:
                states[i].apply(a)
            done[i] = len(env.history(i))
            single.game_state = states[i]
            for agent in env.agents:
                want = single.observe(agent)
                assert np.array_equal(obs[agent]["observation"][i], want["observation"])
                assert np.array_equal(obs[agent]["action_mask"][i], want["action_mask"])
        # each agent: a random legal action where it is to move, -1 elsewhere
        actions = {}
        for agent in env.agents:
            mask = obs[agent]["action_mask"].astype(bool)
            pick = np.full(env.num_envs, -1, np.int64)
            for i in np.flatnonzero(mask.any(axis=1)):
                pick[i] = rng.choice(np.flatnonzero(mask[i]))
            actions[agent] = pick
        before = [s.clone() for s in states]
        obs, rewards, terms, truncs, infos = env.step(actions)
        for i in range(env.num_envs):
            s = before[i]
            seat = s.current_player()
            s.apply(int(actions[f"player_{seat}"][i]))
            if not infos["player_0"]["_final"][i]:  # the chance the batch drew: its history
                while s.is_chance_node():
                    s.apply(env.history(i)[len(s.history)])
            out = s.outcome()  # a game ends on a decision, never on a chance event
            assert bool(infos["player_0"]["_final"][i]) == (out is not None)
            assert bool(terms["player_0"][i] or truncs["player_0"][i]) == (out is not None)
            shares = out.shares() if out is not None else [0.0] * players
            for agent, k in env.agent_name_mapping.items():
                assert rewards[agent][i] == pytest.approx(shares[k])
            if out is not None:
                ended_games += 1
                assert bool(truncs["player_1"][i]) == out.truncated
                states[i] = env.game.new_initial_state(seed=0)  # the next game has begun
                done[i] = 0
    assert ended_games >= 3


def test_the_same_seed_gives_the_same_games_and_bad_actions_are_named() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = ShaveParallelBatch(16, 3, "howling-wolf")
        obs, _ = env.reset(seed=seed)
        out = []
        for _ in range(50):
            acts = {a: np.argmax(obs[a]["action_mask"], axis=1) for a in env.agents}
            obs, rew, _, _, _ = env.step(acts)
            out += [obs["player_2"]["observation"], rew["player_0"]]
        return out

    a, b, c = run(1), run(1), run(2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    env = ShaveParallelBatch(4, 2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_0 is to move in games"):
        env.step({"player_1": np.zeros(4, np.int64)})
    with pytest.raises(ValueError, match="unknown agent"):
        env.step({"player_7": np.zeros(4, np.int64)})
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step({"player_0": np.zeros(3, np.int64)})
