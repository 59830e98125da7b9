"""The fast simulators play by the engine's rules: their games, fed through the engine, agree."""

from __future__ import annotations

import numpy as np
import pytest

from sheepfold.bots import make_bot
from sheepfold.core.protocol import CHANCE
from sheepfold.games import make
from sheepfold.games.shave_a_sheep.game import HOWL_GROW, ROLL
from sheepfold.lab import fastsim_shave as fs

RULE_SETS = [
    {},
    {"variants": ["cutting-costs"]},
    {"variants": ["howling-wolf"]},
    {"variants": ["howling-wolf"], "reaction_weights": [3, 1, 0.5, 2]},
    {"variants": ["my-friend-mr-wolf"]},
    {
        "variants": ["my-friend-mr-wolf", "cutting-costs"],
        "die": ["white", "gray/green", "x2", "gray"],
    },
    {"wool": 12, "max_wool": 3, "max_turns": 25},
    {"wool": 40, "die": ["white/white", "x2", "white/pink", "white/pink", "gray/green", "green"]},
    # the house rules (docs/spec/rulings.md)
    {"auto_shear": 3, "wolf_takes": "half", "wolf_to": "roller", "target": 9},
    {"shear_cost": 2, "full_bonus": 2, "final_shear": False},
    {"rerolls": 2, "wolf_takes": 2, "shear_cost": 1},
    {"rerolls": 1, "variants": ["howling-wolf"]},
]
POLICY_MIXES = ("random", "greedy", "mixed")


def _policies(kind: str, n: int) -> list[int]:
    if kind == "random":
        return [fs.RANDOM] * n
    if kind == "greedy":
        return [fs.GREEDY] * n
    return [fs.GREEDY if s % 2 == 0 else fs.RANDOM for s in range(n)]


def _engine_standings(game, seed, actions):  # type: ignore[no-untyped-def]
    """Replay through the engine (every action checked) and collect the piles after each turn."""
    st = game.new_initial_state(seed=seed)
    standings = []
    started = 0
    for a in actions:
        if st.phase == ROLL and st.rerolls_used == 0:  # a turn starts (not a reroll)
            if started:
                standings.append([int(x) for x in st.scores()])
            started += 1
        st.apply(a)
    standings.append([int(x) for x in st.scores()])
    return st, standings


@pytest.mark.parametrize(
    "rules", RULE_SETS, ids=lambda r: ",".join(f"{k}" for k in r) or "rulebook"
)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mix", POLICY_MIXES)
def test_shave_fast_games_replay_exactly_in_the_engine(rules, players, mix):  # type: ignore[no-untyped-def]
    rules = dict(rules)
    if "reaction_weights" in rules:
        rules["reaction_weights"] = rules["reaction_weights"][:players]
    rules.setdefault("max_turns", 400)
    game = make("shave-a-sheep", players=players, rules=rules)
    pols = _policies(mix, players)
    seeds = np.arange(1000, 1024)
    r = fs.simulate(game, seeds, np.array([pols] * len(seeds)))
    greedy = [make_bot("greedy", game, s, 0) for s in range(players)]
    for k, seed in enumerate(seeds):
        actions = fs.trace(game, int(seed), pols)
        # every greedy decision is the one bots/greedy.py makes in that position
        st = game.new_initial_state(seed=int(seed))
        for a in actions:
            p = st.current_player()
            if p != CHANCE and pols[p] == fs.GREEDY:
                assert greedy[p].act(st.observe(p)) == a, f"seed {seed}: greedy differs at {st!r}"
            st.apply(a)
        st, standings = _engine_standings(game, int(seed), actions)
        out = st.outcome()
        assert out is not None
        assert [int(x) for x in out.scores] == list(r["scores"][k])
        assert out.truncated == bool(r["truncated"][k])
        assert len(standings) == r["length"][k]
        a, b = r["offsets"][k], r["offsets"][k + 1]
        assert standings == r["standings"][a:b].tolist()


def test_shave_common_random_numbers_share_the_dice():
    """Game s rolls the same die faces on every rule set with that die (paired comparisons)."""
    base = make("shave-a-sheep", rules={"max_turns": 50})
    cc = make("shave-a-sheep", rules={"variants": ["cutting-costs"], "max_turns": 50})
    for seed in range(5):
        ta = fs.trace(base, seed, [fs.RANDOM, fs.RANDOM])
        tb = fs.trace(cc, seed, [fs.RANDOM, fs.RANDOM])
        ra, rb = ta[0::2], tb[0::2]  # roll, decision, roll, decision...
        m = min(len(ra), len(rb))
        assert ra[:m] == rb[:m]


def test_shave_fast_simulator_is_reproducible():
    game = make("shave-a-sheep", rules={"max_turns": 300})
    pols = np.zeros((200, 2), dtype=np.int64)
    a = fs.simulate(game, np.arange(200), pols)
    b = fs.simulate(game, np.arange(200), pols)
    assert np.array_equal(a["scores"], b["scores"]) and np.array_equal(
        a["standings"], b["standings"]
    )
    c = fs.simulate(game, np.arange(1, 201), pols)
    assert not np.array_equal(a["scores"], c["scores"])


@pytest.mark.parametrize(
    "rules,players",
    [
        ({"wool": 10, "max_wool": 3}, 2),
        ({"wool": 10, "max_wool": 3, "variants": ["howling-wolf"]}, 2),
        ({"wool": 9, "max_wool": 3, "variants": ["my-friend-mr-wolf", "cutting-costs"]}, 3),
    ],
)
def test_shave_perfect_policy_is_the_solvers(rules, players):  # type: ignore[no-untyped-def]
    from sheepfold.games.shave_a_sheep import solver

    game = make("shave-a-sheep", players=players, rules=rules)
    ex = fs.exact_for(game, ["perfect"])
    sols = [
        solver.cached(game.rules, players, seat=s)[0] for s in range(1 if players == 2 else players)
    ]
    pols = [fs.PERFECT] * players
    checked = 0
    for seed in range(20):
        st = game.new_initial_state(seed=seed)
        for a in fs.trace(game, seed, pols, ex):
            p = st.current_player()
            if p != CHANCE and len(st.legal_actions()) > 1:
                sol = sols[0] if players == 2 else sols[p]
                if st.phase == HOWL_GROW:
                    # the solver re-derives this choice from its values: equal up to its tolerance
                    vals = sol.action_values(st)
                    pick = max if sol.kinds[p] == 0 else min
                    assert abs(vals[a] - pick(vals.values())) < 1e-8
                else:
                    assert sol.choice(st) == a
                checked += 1
            st.apply(a)
        assert st.is_terminal()
    assert checked > 50


def test_dolly_fast_path_equals_the_engine_with_greedy_bots():
    from sheepfold.lab.runner import make_job, run

    for rules, breeds in (
        (None, None),
        ({"dog_swaps": {"pastore-maremmano": [1, 2, 3, 4]}}, "mix"),
        # house rules: the grid kernel's greedy turn (up-to stops, cascades, rounds, odd boards)
        ({"rows": 4, "cols": 4, "diagonals": True, "types": 4, "swaps": "up-to"}, None),
        ({"min_line": 2, "types": 7, "cascades": True, "rounds": 2, "end_points": 40}, None),
        ({"rows": 5, "cols": 3, "match_colour": True, "types": 3, "dogs_per_player": 2}, "mix"),
    ):
        fast = make_job("dolly-crush", rules, bots=["greedy"], games=4, seed=11, breeds=breeds)
        assert fast.engine == "fast"
        slow = make_job(
            "dolly-crush", rules, bots=["greedy"], games=4, seed=11, breeds=breeds, engine="engine"
        )
        cols = ["game_index", "seed", "scores", "winners", "length", "standings", "breeds"]
        a = run(fast, workers=1).select(cols).to_pylist()
        b = run(slow, workers=1).select(cols).to_pylist()
        assert a == b


def test_dolly_compiled_search_agrees_with_the_reference():
    from sheepfold.games.dolly_crush import search
    from sheepfold.games.dolly_crush.kernel.search import best_swaps

    game = make("dolly-crush")
    for seed in range(12):
        st = game.new_initial_state(seed=seed)
        while st.is_chance_node():
            st.apply(st.sample_chance())
        for n in (1, 2, 3):
            assert best_swaps(st.flock, n, game.points) == search.reference_best_swaps(
                st.flock, n, game.points
            )
