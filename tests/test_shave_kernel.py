"""Shave a Sheep's compiled kernel is the engine, exhaustively (in the spirit of OpenSpiel's
consistency tests): for small rule sets (every variant, custom dice, 2-4 players, a turn limit),
every reachable position of the engine, in every phase, is checked against the kernel: the legal
actions (same ids, same order), the chance outcomes and their probabilities, every transition
(the kernel's state vector after each action is the engine's child), terminality and the win
shares, the greedy policy's choice, and the position index (every turn start encodes to an index
that decodes back to it).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import pytest

from sheepfold.games.shave_a_sheep import policy
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.game import (
    CHOOSE,
    GRAB,
    HOWL_GROW,
    HOWL_TARGET,
    OVER,
    ROLL,
    ShaveGame,
    ShaveState,
)
from sheepfold.games.shave_a_sheep.kernel import index, step
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel import policy as kpolicy
from sheepfold.games.shave_a_sheep.rules import ShaveRules

RULES = [
    (2, dict(wool=7)),
    (3, dict(wool=6, max_wool=2)),
    (4, dict(wool=5, max_wool=2)),
    (2, dict(wool=6, variants=["cutting-costs"])),
    (3, dict(wool=5, max_wool=2, variants=["cutting-costs"])),
    (2, dict(wool=6, max_wool=3, variants=["howling-wolf"])),
    (3, dict(wool=5, max_wool=2, variants=["howling-wolf"], reaction_weights=[2.0, 0.0, 1.0])),
    (2, dict(wool=5, variants=["howling-wolf", "cutting-costs"])),
    (2, dict(wool=6, max_wool=3, variants=["my-friend-mr-wolf"])),
    (3, dict(wool=5, max_wool=2, variants=["my-friend-mr-wolf", "cutting-costs"])),
    (2, dict(wool=6, die=["white", "white", "gray", "x2/pink", "green/gray/pink"])),
    (3, dict(wool=5, max_wool=2, die=["gray/white", "gray", "x2"], variants=["howling-wolf"])),
    (2, dict(wool=6, max_wool=2, max_turns=5)),
    (3, dict(wool=5, max_wool=2, max_turns=4, variants=["my-friend-mr-wolf"])),
    (2, dict(wool=5, max_wool=2, max_turns=4, variants=["howling-wolf"])),
]
#: the house rules (docs/spec/rulings.md), each alone and some together
HOUSE = [
    (2, dict(wool=7, auto_shear=3)),
    (3, dict(wool=6, max_wool=3, auto_shear=2)),
    (2, dict(wool=7, wolf_takes="half")),
    (2, dict(wool=7, wolf_takes=2, wolf_to="roller")),
    (3, dict(wool=6, max_wool=2, wolf_to="roller")),
    (2, dict(wool=7, shear_cost=2)),
    (2, dict(wool=7, max_wool=3, shear_cost=3, wolf_to="roller")),
    (2, dict(wool=7, max_wool=3, full_bonus=2)),
    (3, dict(wool=6, max_wool=2, full_bonus=1, variants=["cutting-costs"])),
    (2, dict(wool=8, target=4)),
    (3, dict(wool=6, max_wool=2, target=3, final_shear=False)),
    (2, dict(wool=7, final_shear=False)),
    (2, dict(wool=6, max_wool=3, shear_cost=1, target=3, variants=["my-friend-mr-wolf"])),
    (2, dict(wool=5, max_wool=3, full_bonus=1, final_shear=False, variants=["howling-wolf"])),
    (
        2,
        dict(
            wool=7,
            max_wool=4,
            auto_shear=3,
            wolf_takes="half",
            wolf_to="roller",
            shear_cost=1,
            full_bonus=1,
            target=5,
            final_shear=False,
        ),
    ),  # fmt: skip
    (2, dict(wool=5, max_wool=3, rerolls=1)),
    (2, dict(wool=5, max_wool=2, rerolls=2, variants=["howling-wolf"])),
    (3, dict(wool=4, max_wool=2, rerolls=1, variants=["my-friend-mr-wolf"])),
    (2, dict(wool=6, max_wool=3, rerolls=1, max_turns=4, wolf_to="roller", target=4)),
]


def key(s: ShaveState) -> tuple[Any, ...]:
    """What identifies a position (the turn count only matters under a turn limit)."""
    turns = s.turns if s.game.rules.max_turns else 0
    return (s.middle, tuple(s.sheep), tuple(s.piles), s.wolf, s.turn, turns, s.phase, s.face,
            s.grabber, s.truncated, s.rerolls_used)  # fmt: skip


def reachable(game: ShaveGame) -> list[ShaveState]:
    """Every position the engine can reach from the set-up, each once."""
    start = game.new_initial_state(0)
    seen = {key(start)}
    out, todo = [], deque([start])
    while todo:
        s = todo.popleft()
        out.append(s)
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            if key(c) not in seen:
                seen.add(key(c))
                todo.append(c)
    return out


def vector(s: ShaveState) -> list[int]:
    return L.from_state(s).tolist()


def after(s: ShaveState, a: int) -> ShaveState:
    c = s.clone()
    c.apply(a)
    return c


def kernel_legal(s: ShaveState, prm: np.ndarray) -> list[int]:
    """The kernel's legal actions at a decision of the engine's position."""
    st, out = L.from_state(s), np.zeros(16, dtype=np.int64)
    if s.phase == CHOOSE:
        c = step.choices(st, s.face, prm, out)
    elif s.phase == HOWL_TARGET:
        c = step.howl_targets(s.grabber, prm, out)
    else:
        c = step.howl_choices(st, prm, out)
    return out[:c].tolist()


def kernel_child(s: ShaveState, a: int, prm: np.ndarray) -> list[int]:
    st = L.from_state(s)
    if s.phase == HOWL_TARGET:
        step.howl_take(st, a - L.WOLF0)
    elif a == L.REROLL:
        step.reroll(st)
    else:
        step.finish(st, a, prm)
    return st.tolist()


def check_chance(s: ShaveState, prm: np.ndarray, probs: np.ndarray) -> None:
    """The outcomes, their probabilities, and the kernel's draw of each outcome's slice."""
    outcomes = s.chance_outcomes()
    if s.phase == ROLL:
        assert [p for _, p in outcomes] == list(probs[: len(outcomes)])
        draw = step.roll
    else:
        n = s.game.num_players
        weights = probs[L.PROB_GRAB : L.PROB_GRAB + n]
        assert outcomes == [(k, w) for k, w in enumerate(weights) if w > 0]
        draw = step.grab
    below = 0.0
    for a, p in outcomes:  # the middle of each outcome's slice of [0, 1) draws it
        assert draw(int((below + p / 2) * 2**53), prm) == a
        below += p


@pytest.mark.parametrize("players,opts", RULES + HOUSE, ids=[f"{n}p-{o}" for n, o in RULES + HOUSE])
def test_every_reachable_position_agrees(players: int, opts: dict[str, Any]) -> None:
    game = ShaveGame(players, ShaveRules(**opts))
    prm, probs = L.rules_record(game), L.probabilities(game)
    trial = np.zeros(L.STATE_LEN, dtype=np.int64)
    positions = reachable(game)
    phases = {s.phase for s in positions}
    for s in positions:
        st = L.from_state(s)
        if s.phase == OVER:
            shares = [step.share(st, i, prm) for i in range(players)]
            out = s.outcome()
            assert out is not None and st[L.OVER] == 1
            assert shares == ([0.0] * players if out.truncated else list(out.shares()))
            continue
        assert st[L.OVER] == 0
        if s.phase in (ROLL, GRAB):
            check_chance(s, prm, probs)
            continue
        legal = s.legal_actions()
        assert kernel_legal(s, prm) == legal, s
        for a in legal:
            assert kernel_child(s, a, prm) == vector(after(s, a)), (s, a)
        me = s.current_player()
        acts = np.array(legal, dtype=np.int64)
        target = s.phase == HOWL_TARGET
        got = kpolicy.greedy(st, me, acts, len(legal), target, prm, trial)
        assert got == policy.greedy_action(s), s
    assert len(positions) > 50 and phases >= {ROLL, CHOOSE, OVER}
    if game.rules.howling_wolf:
        assert phases >= {GRAB, HOWL_TARGET, HOWL_GROW}


INDEXED = RULES[:12] + HOUSE


@pytest.mark.parametrize("players,opts", INDEXED, ids=[f"{n}p-{o}" for n, o in INDEXED])
def test_every_turn_start_has_its_index(players: int, opts: dict[str, Any]) -> None:
    """Every reachable turn start (a position of the solver) encodes to an index of its space
    that decodes back to it, and no two share an index."""
    rules = ShaveRules(**opts)
    space = S.Space(rules, players)
    prm = L.rules_record(ShaveGame(players, rules), turn_limit=False)
    back = np.zeros(L.STATE_LEN, dtype=np.int64)
    seen: dict[int, list[int]] = {}
    for s in reachable(ShaveGame(players, rules)):
        if s.phase != ROLL:
            continue
        st = L.from_state(s)
        st[L.TURNS] = 0
        x = int(index.encode(st, prm, space.ix))
        assert 0 <= x < space.size and x == space.index_of(s)
        index.decode(x, index.layer_of(x, space.ix), prm, space.ix, back)
        assert back.tolist() == st.tolist()
        assert seen.setdefault(x, st.tolist()) == st.tolist()
    assert len(seen) > 50


def test_index_roundtrip_and_start() -> None:
    space = S.Space(ShaveRules(wool=10, variants=["my-friend-mr-wolf"]), 3)
    for x in range(0, space.size, 7):
        assert space.index(*space.decode(x)) == x
    assert space.decode(space.start_index()) == (0, (0, 0, 0), (0, 0, 0), None)
    assert space.index_of(space.state_at(123)) == 123


def test_a_state_copy_writes_the_state_slots_only() -> None:
    """``step.copy`` from a scratch row longer than a state vector (the solver's rows are
    ``max(STATE_LEN, MAX_LEGAL)`` wide) into a state vector writes its STATE_LEN slots and
    nothing past them (it wrote the longer row's tail past the end: the heap corruption that
    aborted the greedy policy's evaluation with rerolls)."""
    from sheepfold.games.shave_a_sheep.kernel import layout as L
    from sheepfold.games.shave_a_sheep.kernel.step import copy

    src = np.arange(max(L.STATE_LEN, L.MAX_LEGAL), dtype=np.int64) + 1
    assert src.shape[0] > L.STATE_LEN
    big = np.full(src.shape[0] + 8, -7, dtype=np.int64)
    copy(big[: L.STATE_LEN], src)
    assert np.array_equal(big[: L.STATE_LEN], src[: L.STATE_LEN])
    assert np.all(big[L.STATE_LEN :] == -7)


@pytest.mark.parametrize("players,opts", RULES + HOUSE, ids=[f"{n}p-{o}" for n, o in RULES + HOUSE])
def test_the_plain_loops_play_what_turn_plays(players: int, opts: dict[str, Any]) -> None:
    """``play_random`` and ``play_greedy`` (one policy on every seat: ``turn_plain``) end each
    game as ``play`` does (``turn``, a policy per seat): the same state after the same turns,
    with the rerolls, the race, a turn limit and a target among these rule sets."""
    from sheepfold.games.shave_a_sheep.kernel import play
    from sheepfold.lab.fastsim_shave import no_exact

    prm = L.rules_record(ShaveGame(players, ShaveRules(**opts)))
    ix = no_exact().ix
    kit = play.scratch()
    a = np.zeros(L.STATE_LEN, dtype=np.int64)
    b = np.zeros(L.STATE_LEN, dtype=np.int64)
    tables = np.zeros((0, 1, 1), dtype=np.int8)
    for code, plain in ((play.RANDOM, play.play_random), (play.GREEDY, play.play_greedy)):
        seats = (np.full(players, code, dtype=np.int64), tables)
        for seed in range(100):
            turns = play.play(seed, a, seats, prm, ix, kit)
            args = (kit[0],) if code == play.RANDOM else kit
            assert plain(seed, b, prm, *args) == turns, (code, seed)
            assert np.array_equal(a, b), (code, seed)
