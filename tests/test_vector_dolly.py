"""DollyBatch (sheepfold.vector) agrees with the engine: random legal actions on many games, and
every env's recorded history, replayed through the engine step by step, gives the same seat to
move, legal masks, observations (every seat's, both layouts), rewards, ends and scores, on the
rulebook, the fair default, the grid kernel's odd rule sets and every example rule file of the
rule language; the same seed gives the same games; bad input says which env and why."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sheepfold.core.protocol import CHANCE, IllegalAction, SheepfoldError
from sheepfold.games.dolly_crush.game import DollyGame
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.interop import build_game
from sheepfold.interop.encoding import GridEncoder, encoder_for

pytest.importorskip("numba")

from sheepfold.vector.dolly import DollyBatch  # noqa: E402

DOGS = {"pastore-maremmano": [1, 2, 0, 1], "bobtail": [2, 1, 1, 1], "border-collie": [1, 3, 2, 0]}
EXAMPLES = sorted(
    (Path(__file__).parent.parent / "docs" / "rulesets" / "dolly-crush").glob("*.toml")
)


def _game(players: int, options: dict[str, Any]) -> DollyGame:
    """A game of ``options`` with short dog cards (games of a few turns: many of them end)."""
    k = options.get("dogs_per_player", 4)
    dogs = {b: c[:k] for b, c in list(DOGS.items())[:players]}
    return DollyGame(players, DollyRules(dog_swaps=dogs, **options), breeds=list(dogs))


def _example(path: Path) -> DollyGame:
    data = tomllib.loads(path.read_text())
    return DollyGame(2, DollyRules(**{k: v for k, v in data.items() if k != "game"}))


#: (what it covers, the game): every part of the rule language the grid kernel plays
GAMES: list[tuple[str, Any]] = [
    ("rulebook", lambda: DollyGame(2)),
    ("three seats", lambda: _game(3, {})),
    ("diagonal lines", lambda: _game(2, {"rows": 4, "cols": 4, "diagonals": True, "types": 3})),
    ("up-to swaps", lambda: _game(2, {"rows": 2, "cols": 6, "min_line": 2, "swaps": "up-to"})),
    (
        "colour, cascades",
        lambda: _game(
            2, {"rows": 5, "cols": 3, "match_colour": True, "types": 2, "cascades": True}
        ),
    ),  # noqa: E501
    (
        "end points",
        lambda: _game(2, {"rows": 6, "cols": 5, "types": 8, "min_line": 4, "end_points": 12}),
    ),  # noqa: E501
    (
        "rounds",
        lambda: _game(
            3,
            {
                "rows": 3,
                "cols": 3,
                "types": 3,
                "rounds": 3,
                "dogs_per_player": 2,
                "max_cleanup_rounds": 4,
            },
        ),
    ),  # noqa: E501
    (
        "tiny cascades",
        lambda: _game(
            2, {"rows": 2, "cols": 2, "min_line": 2, "types": 5, "cascades": True, "end_points": 9}
        ),
    ),  # noqa: E501
    (
        "shape, diagonal swaps",
        lambda: _game(2, {"shape": ["XXX.", "XXXX", ".XXX"], "types": 3, "adjacent": ["diagonal"]}),
    ),  # noqa: E501
    (
        "gravity cascades",
        lambda: _game(
            2, {"shape": [".XX", "XXX", "X.X"], "types": 3, "refill": "gravity", "cascades": True}
        ),
    ),  # noqa: E501
    (
        "pattern, points",
        lambda: _game(
            2,
            {
                "rows": 4,
                "cols": 4,
                "types": 3,
                "combinations": [{"kind": "pattern", "cells": ["XX", "XX"]}],
                "points": {"bell": {"white": 3}, "lamb": {"black": 5}},
            },
        ),
    ),
    (
        "bonuses, gravity",
        lambda: _game(
            2,
            {
                "rows": 4,
                "cols": 6,
                "types": 3,
                "combinations": [
                    {"kind": "line", "length": 3, "directions": ["rows"]},
                    {"kind": "line", "length": 2, "directions": ["columns"], "colour": True},
                ],
                "bonuses": [{"length": 4, "times": 2}, {"length": 5, "times": 3}],
                "cascades": True,
                "refill": "gravity",
                "max_cleanup_rounds": 3,
            },
        ),
    ),
    (
        "small deck",
        lambda: _game(
            2, {"rows": 3, "cols": 3, "types": 3, "white_per_type": 4, "black_per_type": 1}
        ),
    ),  # noqa: E501
] + [(p.stem, lambda p=p: _example(p)) for p in EXAMPLES]


class Replay:
    """Engine states that follow the batch's envs: each step applies the new part of every
    env's recorded history (checked moves: a card the engine's deck lacks is refused)."""

    def __init__(self, batch: DollyBatch) -> None:
        self.batch = batch
        self.states = [batch.game.new_initial_state(seed=0) for _ in range(batch.num_envs)]
        self.done = [0] * batch.num_envs

    def restart(self, env: int) -> None:
        self.states[env] = self.batch.game.new_initial_state(seed=0)
        self.done[env] = 0

    def follow(self, env: int) -> Any:
        hist = self.batch.history(env)
        for a in hist[self.done[env] :]:
            self.states[env].apply(a)
        self.done[env] = len(hist)
        return self.states[env]


def _check(batch: DollyBatch, s: Any, env: int, obs: np.ndarray, mask: np.ndarray, views) -> None:
    enc = encoder_for(batch.game)
    to_move = s.current_player()
    assert to_move != CHANCE, "the batch never stands at a draw"
    assert int(batch.current_player()[env]) == max(to_move, -1)
    want = np.zeros(batch.num_actions, bool)
    if to_move >= 0:
        want[s.legal_actions()] = True
    assert np.array_equal(mask[env], want)
    assert batch.flocks()[env].tolist() == s.flock
    assert batch.scores()[env].tolist() == s.scores()
    deciders = [seat for seat, _ in s.history if seat >= 0]
    seen = to_move if to_move >= 0 else (deciders[-1] if deciders else 0)
    assert np.array_equal(obs[env], enc.encode(s, seen))
    for q in range(batch.num_players):  # any seat's view
        assert np.array_equal(views[q][env], enc.encode(s, q))


@pytest.mark.parametrize("make", [g for _, g in GAMES], ids=[n for n, _ in GAMES])
def test_the_batch_plays_the_engines_games(make) -> None:
    game = make()
    batch = DollyBatch(6, game=game, autoreset=False, record=True)
    replay = Replay(batch)
    obs, info = batch.reset(seed=3)
    for env in range(batch.num_envs):
        _check(
            batch,
            replay.follow(env),
            env,
            obs,
            info["action_mask"],
            [batch.observe(q) for q in range(game.num_players)],
        )  # noqa: E501
    rng = np.random.default_rng(game.num_players)
    games = steps = 0
    while games < 12 and steps < 1500:
        acts = batch.sample_actions(rng)
        resets = batch.over()  # the games that ended (or ended at their deal)
        acts[resets] = 0
        obs, rew, term, trunc, info = batch.step(acts, resets=resets)
        steps += 1
        assert not trunc.any()
        views = [batch.observe(q) for q in range(game.num_players)]
        for env in range(batch.num_envs):
            if resets[env]:
                replay.restart(env)
            s = replay.follow(env)
            _check(batch, s, env, obs, info["action_mask"], views)
            out = s.outcome()
            if resets[env] and out is not None:  # dealt DEALS times, it ended at each deal
                assert batch.over()[env] and not term[env] and not rew[env].any()
                continue
            assert bool(term[env]) == (out is not None)
            if out is not None:
                games += 1
                assert np.allclose(rew[env], out.shares())
                scores, winners, cut = batch.outcomes(term)
                assert scores[env].tolist() == list(out.scores)
                assert winners[env] == list(out.winners) and not cut[env]
            else:
                assert not rew[env].any()
    assert games >= 12


def test_the_grid_layout_is_the_single_envs() -> None:
    game = _game(2, {"shape": [".XX", "XXX", "X.X"], "types": 3, "refill": "gravity"})
    batch = DollyBatch(4, game=game, observation="grid", record=True, autoreset=False)
    grid = GridEncoder(encoder_for(game))
    obs, _ = batch.reset(seed=1)
    assert obs.shape == (4, *grid.shape) == (4, *batch.obs_shape)
    rng = np.random.default_rng(0)
    replay = Replay(batch)
    for _ in range(20):
        obs, _, term, _, _ = batch.step(batch.sample_actions(rng), resets=batch.over())
        for env in range(4):
            if batch.history(env) and len(batch.history(env)) < replay.done[env]:
                replay.restart(env)
            s = replay.follow(env)
            if s.current_player() >= 0:
                assert np.array_equal(obs[env], grid.encode(s, s.current_player()))


def test_seats_played_inside_agree_with_the_engine() -> None:
    from sheepfold.lab.fastsim_dolly import greedy_turn

    game = _game(3, {"swaps": "up-to"})
    batch = DollyBatch(
        6, game=game, opponents=["greedy", "random"], seat=1, record=True, autoreset=False
    )
    obs, info = batch.reset(seed=2)
    rng = np.random.default_rng(1)
    replay = Replay(batch)
    greedy_turns = 0
    for _ in range(60):
        for env in range(batch.num_envs):
            hist = batch.history(env)
            s = game.new_initial_state(seed=0)
            i = 0
            while i < len(hist):  # the greedy seat's whole turns are the lab's fast path's
                if s.current_player() == 0 and s.phase == 1:
                    plan = greedy_turn(s)
                    assert hist[i : i + len(plan)] == plan
                    greedy_turns += 1
                s.apply(hist[i])
                i += 1
            assert s.current_player() == 1 or s.is_terminal()
            if not s.is_terminal():
                assert np.array_equal(obs[env], encoder_for(game).encode(s, 1))
        assert (batch.learner_seats() == 1).all()
        obs, _, term, _, info = batch.step(batch.sample_actions(rng), resets=batch.over())
    del replay
    assert greedy_turns > 20


def test_the_same_seed_gives_the_same_games() -> None:
    def run(seed: int, n: int) -> list[np.ndarray]:
        batch = DollyBatch(n, 2, seed=seed)
        out = [batch.reset(seed=seed)[0][:3]]
        for _ in range(150):  # the first legal action: the decks alone differ between envs
            o, r, _, _, _ = batch.step(np.argmax(batch.legal_mask(), axis=1))
            out += [o[:3], r[:3]]
        return out

    a, b, c = run(5, 3), run(5, 40), run(6, 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_autoreset_starts_the_next_game_in_the_same_step() -> None:
    batch = DollyBatch(8, game=_game(2, {"dogs_per_player": 2}), record=True)
    batch.reset(seed=1)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(60):
        obs, rew, term, trunc, info = batch.step(batch.sample_actions(rng))
        assert np.array_equal(term, info["_final"])
        for env in np.flatnonzero(term):
            seen += 1
            assert rew[env].sum() == pytest.approx(1.0)
            assert info["final_obs"][env].any() and not np.array_equal(
                info["final_obs"][env], obs[env]
            )
            assert all(a < batch.game.board.kinds for a in batch.history(env))  # only the deal
        assert not batch.over().any()
    assert seen > 8


def test_bad_input_says_which_env_and_why() -> None:
    batch = DollyBatch(3, 2, autoreset=False)
    batch.reset(seed=0)
    acts = np.argmax(batch.legal_mask(), axis=1)
    acts[1] = batch.game.swap0  # a swap at a dog decision
    with pytest.raises(
        IllegalAction, match=r"env 1: action 4 is not legal at seat 0's dog .*\[0, 1, 2, 3\]"
    ):  # noqa: E501
        batch.step(acts)
    with pytest.raises(ValueError, match=r"one int per env, shape \(3,\)"):
        batch.step([0, 0])
    with pytest.raises(ValueError, match="random, greedy, medium inside, not 'hard'"):
        DollyBatch(2, 2, opponents="hard")
    with pytest.raises(SheepfoldError, match="plays Dolly Crush, not 'shave-a-sheep'"):
        from sheepfold.games.shave_a_sheep.game import ShaveGame

        DollyBatch(2, game=ShaveGame(2))  # type: ignore[arg-type]
    with pytest.raises(SheepfoldError, match="no history"):
        batch.history(0)


#: the greedy seat's rule sets: (what it covers, the game, whether its search is the packed
#: kernel's): the fair default, the rulebook with three seats, and gravity with cascades (a
#: turn's search is the rulebook's) on the packed kernel; diagonal lines and up-to swaps on the
#: grid kernel
GREEDY_GAMES = [
    ("fair default", lambda: build_game("dolly-crush", 2, None), True),
    ("rulebook, three seats", lambda: DollyGame(3), True),
    ("gravity, cascades", lambda: build_game("dolly-crush", 2, GRAVITY), True),
    ("diagonal lines", lambda: _game(2, {"rows": 4, "cols": 4, "diagonals": True}), False),
    ("up-to swaps", lambda: _game(2, {"swaps": "up-to"}), False),
]
GRAVITY = {"refill": "gravity", "cascades": True}


@pytest.mark.parametrize(
    ("label", "make", "packed"), GREEDY_GAMES, ids=[g[0] for g in GREEDY_GAMES]
)
def test_the_greedy_seats_play_the_engines_greedy_bot(label: str, make: Any, packed: bool) -> None:
    """Every decision of a greedy seat inside the batch is the engine's greedy bot's
    (``make_bot("greedy")``, bots/dolly.py) in the same position, game after game: each env's
    recorded game replayed through the engine, the bot asked at each of its seats' decisions."""
    from sheepfold.bots import make_bot
    from sheepfold.vector import dolly_kernel as K

    game = make()
    batch = DollyBatch(
        16, game=game, opponents="greedy", seat="random", record=True, autoreset=False
    )
    assert batch._kit[0][K.P_PACKED] == int(packed)
    batch.reset(seed=11)
    rng = np.random.default_rng(5)
    games = decisions = 0
    while games < 48:
        over = batch.over()
        for env in np.flatnonzero(over):
            learner = int(batch.learner_seats()[env])
            bots = {p: make_bot("greedy", game, p, seed=int(env)) for p in range(game.num_players)}
            s = game.new_initial_state(seed=0)
            for a in batch.history(env):
                p = s.current_player()
                if p >= 0 and p != learner:
                    assert bots[p].act(s.observe(p)) == a, (label, env, games)
                    decisions += 1
                s.apply(a)
            assert s.is_terminal()
            games += 1
        acts = batch.sample_actions(rng)
        acts[over] = 0
        batch.step(acts, resets=over)
    assert decisions > 48 * 3
