"""The solver's transition model is the engine's: for turn starts reached by random engine
games, every decision path of every face leads to the same position (or the same final piles),
with the same probabilities."""

from __future__ import annotations

import random

import pytest

from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.game import (
    GRAB,
    HOWL_GROW,
    HOWL_TARGET,
    OVER,
    ROLL,
    WOLF0,
    ShaveGame,
)
from sheepfold.games.shave_a_sheep.rules import ShaveRules

RULES = [
    (2, dict(wool=12)),
    (3, dict(wool=10, max_wool=3)),
    (4, dict(wool=9, max_wool=2)),
    (2, dict(wool=10, variants=["cutting-costs"])),
    (3, dict(wool=9, max_wool=1, variants=["cutting-costs"])),
    (3, dict(wool=9, max_wool=3, variants=["howling-wolf"], reaction_weights=[2.0, 0.0, 1.0])),
    (2, dict(wool=8, variants=["howling-wolf", "cutting-costs"])),
    (3, dict(wool=9, max_wool=3, variants=["my-friend-mr-wolf"])),
    (4, dict(wool=8, max_wool=2, variants=["my-friend-mr-wolf", "cutting-costs"])),
    (2, dict(wool=8, die=["white", "white", "gray", "x2/pink", "green/gray/pink"])),
    (3, dict(wool=8, max_wool=3, die=["gray/white", "gray", "x2"], variants=["howling-wolf"])),
]


def engine_paths(st, f):
    """(decision path, successor state after the turn) for every path of face f."""
    out = []
    a = st.clone()
    a.apply(f)
    if a.phase == GRAB:
        for g, _ in a.chance_outcomes():
            b = a.clone()
            b.apply(g)
            assert b.phase == HOWL_TARGET
            for tgt in b.legal_actions():
                c = b.clone()
                c.apply(tgt)
                assert c.phase == HOWL_GROW
                for act in c.legal_actions():
                    d = c.clone()
                    d.apply(act)
                    out.append(((g, tgt - WOLF0, act), d))
        return out
    for act in a.legal_actions():
        b = a.clone()
        b.apply(act)
        out.append(((act,), b))
    return out


@pytest.mark.parametrize("players,opts", RULES, ids=[f"{n}p-{o}" for n, o in RULES])
def test_transitions_match_the_engine(players, opts):
    rules = ShaveRules(**opts)
    game = ShaveGame(players, rules)
    space = S.Space(rules, players)
    assert [p for _, p in game.new_initial_state(0).chance_outcomes()] == list(space.face_prob)
    rng = random.Random(sum(map(ord, repr(opts))) + players)
    seen = 0
    for gnum in range(6):
        st = game.new_initial_state(gnum)
        while st.phase != OVER and seen < 250:
            if st.phase == ROLL:
                x = space.index_of(st)
                t, sheep, piles, wolf = space.decode(x)
                assert (t, list(sheep), list(piles), wolf) == (st.turn, st.sheep, st.piles, st.wolf)
                assert sheep[t] < rules.max_wool
                for f in range(space.F):
                    mine = {
                        path: (idx, pl)
                        for path, idx, pl in space.successors(x, f)
                        if len(path) == 1 or space.grab_prob[path[0]] > 0
                    }
                    theirs = {}
                    for path, d in engine_paths(st, f):
                        if d.phase == OVER:
                            theirs[path] = (-1, tuple(d.piles))
                        else:
                            assert d.phase == ROLL
                            theirs[path] = (space.index_of(d), tuple(d.piles))
                    assert mine == theirs, (st, f)
                if space.race.any():
                    g0 = st.clone()
                    g0.apply(int(space.race.argmax()))
                    assert [p for _, p in g0.chance_outcomes()] == [
                        p for p in space.grab_prob if p > 0
                    ]
                seen += 1
            if st.current_player() == -1:
                st.apply(st.sample_chance(rng))
            else:
                st.apply(rng.choice(st.legal_actions()))
    assert seen > 30


def test_index_roundtrip_and_start():
    space = S.Space(ShaveRules(wool=10, variants=["my-friend-mr-wolf"]), 3)
    for x in range(0, space.size, 7):
        assert space.index(*space.decode(x)) == x
    assert space.decode(space.start_index()) == (0, (0, 0, 0), (0, 0, 0), None)
    assert space.index_of(space.state_at(123)) == 123
