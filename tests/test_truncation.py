"""Truncated Shave a Sheep games: one rule everywhere (docs/engine.md, "Truncated games").

Engine games with seeded random decisions, on small rule sets with small turn limits (every
allowed variant combination, 2-4 players, caps of 1-3 so that full sheep are common), are played
again from the engine's own history by every other implementation: the differential reference
(``RefShave``), the compiled kernel (the lab's fast simulator, the solver's simulations) and the OpenSpiel,
PettingZoo and Gymnasium adapters. Each must end in the engine's position: middle, sheep, piles,
wolf, seat to move, over, truncated, winners. The spread holds games cut by the limit while the
next seat's sheep is full (it must not be shorn), games whose limit turn emptied the middle (a
normal end) and games that end before the limit; ``test_the_games_cover_the_edge_cases`` checks
that it still does.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
import pytest

from sheepfold.core.protocol import CHANCE
from sheepfold.core.records import to_record
from sheepfold.games import make
from sheepfold.games.shave_a_sheep.game import WOLF0, ShaveState
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel import step
from sheepfold.lab import fastsim_shave as fs
from test_rulings_reference import SHAVE_SETS, RefShave, shave_position


class Case(NamedTuple):
    players: int
    variants: tuple[str, ...]
    wool: int
    cap: int
    max_turns: int
    seed: int

    def game(self) -> Any:
        return make(
            "shave-a-sheep",
            self.players,
            variants=list(self.variants),
            wool=self.wool,
            max_wool=self.cap,
            max_turns=self.max_turns,
        )


def _case(k: int) -> Case:
    rng = random.Random(k)
    return Case(
        players=2 + k % 3,
        variants=tuple(SHAVE_SETS[k // 3 % len(SHAVE_SETS)]),
        wool=rng.randint(3, 12),
        cap=rng.randint(1, 3),
        max_turns=rng.randint(1, 12),
        seed=k,
    )


CASES = [_case(k) for k in range(90)]  # every (players, variants) pair five times


@functools.cache
def engine_game(case: Case) -> ShaveState:
    """The engine's game of ``case``: chance from the seed, decisions by ``Random(seed)``."""
    s = case.game().new_initial_state(seed=case.seed)
    rng = random.Random(case.seed)
    while not s.is_terminal():
        s.apply(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    return s


def kind(case: Case) -> str:
    s = engine_game(case)
    if s.truncated:
        full = s.sheep[(s.turn + 1) % case.players] >= case.cap
        return "truncated-next-sheep-full" if full else "truncated"
    return "limit-turn-empties-the-middle" if s.turns == case.max_turns - 1 else "ends"


def _id(case: Case) -> str:
    return f"seed{case.seed}-{kind(case)}"


def expected(case: Case) -> tuple:
    s = engine_game(case)
    return shave_position(s) + (s.winners(),)


def turns_of(history: Sequence[tuple[int, int]]) -> list[tuple[int | None, int | None, int]]:
    """An engine history cut into turns: (grabber, target seat, the roller's decision); grabber
    and target are None outside a Howling Wolf race."""
    out: list[tuple[int | None, int | None, int]] = []
    it = iter(history)
    for seat, _face in it:
        assert seat == CHANCE
        seat, a = next(it)
        if seat == CHANCE:  # the race: the grab, the grabber's target, the roller's grow or pass
            _, target = next(it)
            _, decision = next(it)
            out.append((a, target - WOLF0, decision))
        else:
            out.append((None, None, a))
    return out


def test_the_games_cover_the_edge_cases() -> None:
    kinds = {kind(case) for case in CASES}
    assert kinds == {
        "truncated-next-sheep-full",
        "truncated",
        "limit-turn-empties-the-middle",
        "ends",
    }


# -- the differential reference -------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_reference(case: Case) -> None:
    ref = RefShave(case.players, case.wool, case.cap, list(case.variants), case.max_turns)
    for move in to_record(engine_game(case))["moves"]:
        assert not ref.over
        ref.play(move)
    assert ref.position() + (ref.winners(),) == expected(case)


# -- the compiled kernel (the lab's fast simulator, the solver's simulations) ---------------------
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_kernel(case: Case) -> None:
    """The moves of the kernel's turn (``kernel.play.turn``): a race's target takes one piece
    back to the middle (``howl_take``), then the roller's decision and the end of the turn
    (``finish`` = ``act`` + ``end_turn``, which honours the turn limit)."""
    game = case.game()
    prm = L.rules_record(game)
    st = L.from_state(game.new_initial_state(seed=case.seed))
    for grabber, target, decision in turns_of(engine_game(case).history):
        assert not st[L.OVER]
        if grabber is not None:
            step.howl_take(st, target)
        step.finish(st, decision, prm)
    n = case.players
    scores, trunc = st[L.PILE : L.PILE + n], bool(st[L.TRUNCATED])
    winners = np.flatnonzero(fs.winners_of(scores[None, :], np.array([trunc]))[0]).tolist()
    got = (
        int(st[L.MIDDLE]),
        st[L.SHEEP : L.SHEEP + n].tolist(),
        scores.tolist(),
        None if st[L.WOLF] == 0 else int(st[L.WOLF]) - 1,
        int(st[L.TURN]),
        bool(st[L.OVER]),
        trunc,
        winners,
    )
    assert got == expected(case)


# -- the adapters ---------------------------------------------------------------------------------
class Script:
    """An engine history replayed into an adapter: its random generator (``random`` draws each
    chance outcome in turn) and its opponents' bots (``act``) read the history in order."""

    def __init__(self, game: Any, history: Sequence[tuple[int, int]]) -> None:
        self.items: list[tuple[int, int, float]] = []
        s = game.new_initial_state(seed=0)
        for seat, a in history:
            draw = -1.0
            if (
                seat == CHANCE
            ):  # the middle of the outcome's slice of [0, 1), as sample_chance reads it
                below = 0.0
                for b, pr in s.chance_outcomes():
                    if b == a:
                        draw = below + pr / 2
                        break
                    below += pr
            self.items.append((seat, a, draw))
            s.apply(a)
        self.pos = 0

    def _next(self) -> tuple[int, int, float]:
        item = self.items[self.pos]
        self.pos += 1
        return item

    def random(self) -> float:
        seat, _, draw = self._next()
        assert seat == CHANCE
        return draw

    def randrange(self, stop: int) -> int:
        return 0  # the new state's seed: chance comes from random() here

    def act(self, view: dict[str, Any]) -> int:
        seat, a, _ = self._next()
        assert seat == view["seat"]
        return a

    def decision(self, seat: int) -> int:
        s, a, _ = self._next()
        assert s == seat
        return a

    def done(self) -> bool:
        return self.pos == len(self.items)


def _shares(case: Case) -> list[float]:
    return engine_game(case).returns()


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_openspiel(case: Case) -> None:
    pytest.importorskip("pyspiel")
    from sheepfold.interop.openspiel import load_game

    options: dict[str, Any] = dict(wool=case.wool, max_wool=case.cap, max_turns=case.max_turns)
    if case.variants:
        options["variants"] = list(case.variants)
    state = load_game("shave-a-sheep", case.players, **options).new_initial_state()
    for _, a in engine_game(case).history:
        state.apply_action(a)
    es = state.engine_state
    assert shave_position(es) + (es.winners(),) == expected(case)
    assert state.is_terminal() and state.truncated() == engine_game(case).truncated
    assert state.returns() == _shares(case)
    assert str(state).endswith("\ntruncated") == engine_game(case).truncated


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pettingzoo(case: Case) -> None:
    pytest.importorskip("pettingzoo")
    from sheepfold.interop.pettingzoo import SheepfoldAECEnv

    game = case.game()
    script = Script(game, engine_game(case).history)
    env = SheepfoldAECEnv(game)
    env._rng = script  # chance draws from the engine's game (reset without a seed keeps it)
    env.reset()
    while not script.done():
        env.step(script.decision(env.agent_name_mapping[env.agent_selection]))
    s = env.game_state
    assert shave_position(s) + (s.winners(),) == expected(case)
    trunc = engine_game(case).truncated
    for agent, seat in env.agent_name_mapping.items():
        assert env.truncations[agent] == trunc and env.terminations[agent] == (not trunc)
        assert env.rewards[agent] == _shares(case)[seat]
        assert env.infos[agent]["truncated"] == trunc
        assert env.infos[agent]["winners"] == engine_game(case).winners()


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gymnasium(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")
    import sheepfold.bots
    from sheepfold.interop import gymnasium as gym_adapter

    game = case.game()
    script = Script(game, engine_game(case).history)
    env = gym_adapter.SheepfoldEnv(game, seat=0)
    # the environment's generator and its opponents replay the engine's game
    monkeypatch.setattr(gym_adapter, "random", SimpleNamespace(Random=lambda *_: script))
    monkeypatch.setattr(sheepfold.bots, "make_bot", lambda *_: script)
    env.reset(seed=0)
    terminated = truncated = False
    info: dict[str, Any] = {}
    reward = 0.0
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(script.decision(0))
    assert script.done()
    s = env.state
    assert shave_position(s) + (s.winners(),) == expected(case)
    trunc = engine_game(case).truncated
    assert (truncated, terminated) == (trunc, not trunc)
    assert reward == _shares(case)[0]
    assert info["truncated"] == trunc and info["winners"] == engine_game(case).winners()
