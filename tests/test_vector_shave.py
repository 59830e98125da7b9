"""ShaveBatch (sheepfold.vector) agrees with the engine: every env's recorded history, replayed
through the engine, gives the same positions, legal masks, observations, rewards and ends, for
odd rule sets too; the same seed gives the same games; bad input says which env and why."""

from __future__ import annotations

import numpy as np
import pytest

from sheepfold.core.protocol import IllegalAction
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.interop.encoding import encoder_for
from sheepfold.vector import ShaveBatch

pytest.importorskip("numba")

#: (players, rules): the odd ones (each with a short turn limit somewhere, so truncation shows)
RULE_SETS = [
    (2, None),
    (2, dict(die=["white", "white", "gray", "x2/pink", "green/gray/pink"])),
    (2, "howling-wolf"),
    (3, dict(variants=["howling-wolf"], reaction_weights=[2.0, 0.0, 1.0])),
    (2, "my-friend-mr-wolf"),
    (3, dict(variants=["my-friend-mr-wolf", "cutting-costs"], max_turns=40)),
    (2, "cutting-costs"),
    (2, dict(rerolls=2, variants=["howling-wolf"])),
    (3, dict(rerolls=1, wolf_takes="half")),
    (2, dict(target=8, full_bonus=1, final_shear=False)),
    (2, dict(wolf_to="roller", wolf_takes=2)),
    (4, dict(wool=20, max_turns=30)),
    (4, dict(variants=["howling-wolf"], auto_shear=4, max_wool=6)),
]


class Replay:
    """Engine states that follow the batch's envs: each step applies the new part of every
    env's recorded history (checked moves)."""

    def __init__(self, batch: ShaveBatch) -> None:
        self.batch = batch
        self.enc = encoder_for(batch.game)
        self.states = [batch.game.new_initial_state(seed=0) for _ in range(batch.num_envs)]
        self.done = [0] * batch.num_envs

    def restart(self, env: int) -> None:
        self.states[env] = self.batch.game.new_initial_state(seed=0)
        self.done[env] = 0

    def follow(self, env: int):
        hist = self.batch.history(env)
        for a in hist[self.done[env] :]:
            self.states[env].apply(a)
        self.done[env] = len(hist)
        return self.states[env]

    def check(self, env: int, obs: np.ndarray, mask: np.ndarray, views: list[np.ndarray]):
        b = self.batch
        s = self.follow(env)
        assert np.array_equal(L.from_state(s), b.states[env]), env
        assert int(b.current_player()[env]) == max(s.current_player(), -1)
        want = np.zeros(b.num_actions, bool)
        if s.current_player() >= 0:
            want[s.legal_actions()] = True
        assert np.array_equal(mask[env], want)
        if s.current_player() >= 0:
            assert np.array_equal(obs[env], self.enc.encode(s, s.current_player()))
        for q in range(b.num_players):  # any seat's view
            assert np.array_equal(views[q][env], self.enc.encode(s, q))
        return s


@pytest.mark.parametrize(("players", "rules"), RULE_SETS)
def test_the_batch_plays_the_engines_games(players, rules) -> None:
    batch = ShaveBatch(12, players, rules, autoreset=False, record=True)
    replay = Replay(batch)
    obs, info = batch.reset(seed=3)
    rng = np.random.default_rng(players)
    ended = np.zeros(batch.num_envs, bool)
    games = steps = 0
    while games < 40 and steps < 3000:
        acts = batch.sample_actions(rng)
        resets = ended.copy()
        acts[resets] = 0
        obs, rew, term, trunc, info = batch.step(acts, resets=resets)
        steps += 1
        views = [batch.observe(q) for q in range(players)]
        for env in range(batch.num_envs):
            if resets[env]:
                replay.restart(env)
            s = replay.check(env, obs, info["action_mask"], views)
            out = s.outcome()
            assert bool(term[env] or trunc[env]) == (out is not None)
            if out is not None:
                games += 1
                assert np.allclose(rew[env], out.shares())
                assert bool(trunc[env]) == out.truncated
            else:
                assert not rew[env].any()
        ended = term | trunc
    assert games >= 40


def test_the_same_seed_gives_the_same_games() -> None:
    def run(seed: int) -> list[np.ndarray]:
        batch = ShaveBatch(64, 3, "howling-wolf", seed=seed)
        out = [batch.reset()[0]]
        rng = np.random.default_rng(7)
        for _ in range(200):
            o, r, _, _, _ = batch.step(batch.sample_actions(rng))
            out += [o, r]
        return out

    a, b, c = run(5), run(5), run(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_env_i_plays_the_same_game_whatever_the_batch_size() -> None:
    small, big = ShaveBatch(2, record=True), ShaveBatch(50, record=True)
    small.reset(seed=9)
    big.reset(seed=9)
    for _ in range(30):  # always the first legal action: the dice alone differ between envs
        small.step(np.argmax(small.legal_mask(), axis=1))
        big.step(np.argmax(big.legal_mask(), axis=1))
    assert small.history(1) == big.history(1)


def test_autoreset_starts_the_next_game_in_the_same_step() -> None:
    batch = ShaveBatch(16, 2, dict(wool=8), record=True)
    batch.reset(seed=1)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(400):
        obs, rew, term, trunc, info = batch.step(batch.sample_actions(rng))
        done = term | trunc
        assert np.array_equal(done, info["_final"])
        for env in np.flatnonzero(done):
            seen += 1
            assert rew[env].sum() == pytest.approx(1.0)
            assert info["final_obs"][env].any()
            assert len(batch.history(env)) <= 2  # the new game: its first roll (and grab)
        assert not batch.over().any()
    assert seen > 10


def test_seats_played_inside_agree_with_the_engine() -> None:
    batch = ShaveBatch(8, 3, "howling-wolf", opponents=["greedy", "random"], seat=1, record=True)
    obs, info = batch.reset(seed=2)
    rng = np.random.default_rng(1)
    from sheepfold.games.shave_a_sheep.policy import greedy_action

    for _ in range(100):
        assert np.all(batch.current_player() == 1)
        obs, rew, term, trunc, info = batch.step(batch.sample_actions(rng))
        for env in range(batch.num_envs):
            s = batch.game.new_initial_state(seed=0)
            for a in batch.history(env):  # the greedy seat 0 plays the engine's greedy move
                if s.current_player() == 0:
                    assert a == greedy_action(s)
                s.apply(a)
            assert np.array_equal(obs[env], encoder_for(batch.game).encode(s, 1))


def test_bad_actions_say_which_env_and_why() -> None:
    batch = ShaveBatch(4, 2, autoreset=False)
    batch.reset(seed=0)
    mask = batch.legal_mask()
    acts = np.argmax(mask, axis=1)
    illegal = int(np.flatnonzero(~mask[2])[0])
    acts[2] = illegal
    before = batch.states
    with pytest.raises(IllegalAction, match=rf"env 2: action {illegal} is illegal .*legal actions"):
        batch.step(acts)
    assert np.array_equal(batch.states, before)  # nothing played
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        batch.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="integers"):
        batch.step(np.full(4, 0.5))
    with pytest.raises(ValueError, match="only random, greedy"):
        ShaveBatch(4, opponents="perfect")
