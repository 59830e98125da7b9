"""The solver against independent exact solutions built from the engine itself.

The reference here never touches the solver's transition model: it walks the engine
(ShaveState.legal_actions / chance_outcomes / apply) from the start, builds the whole game graph,
and solves it by a plain fixed-point iteration (optimal play) or a linear system (fixed
policies: Fractions for the tiniest games, numpy for the rest).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sheepfold.core.protocol import CHANCE, TERMINAL
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.game import ROLL, ShaveGame
from sheepfold.games.shave_a_sheep.rules import ShaveRules


def key(st):
    return (
        st.phase,
        st.turn,
        st.middle,
        tuple(st.sheep),
        tuple(st.piles),
        st.wolf,
        st.face,
        st.grabber,
        st.rerolls_used,
    )


def build_graph(game):
    """Every reachable engine node: key -> (player, [(prob or None, child key)], state)."""
    start = game.new_initial_state(0)
    nodes = {}
    todo = [start]
    nodes[key(start)] = None
    while todo:
        st = todo.pop()
        p = st.current_player()
        if p == TERMINAL:
            nodes[key(st)] = (p, [], st)
            continue
        if p == CHANCE:
            moves = st.chance_outcomes()
        else:
            moves = [(a, None) for a in st.legal_actions()]
        edges = []
        for a, prob in moves:
            c = st.clone()
            c.apply(a)
            k = key(c)
            edges.append((prob, k, a))
            if k not in nodes:
                nodes[k] = None
                todo.append(c)
        nodes[key(st)] = (p, edges, st)
    return key(start), nodes


def brute_force(nodes, seat_kind, focal, tol=1e-14):
    """Fixed point of the Bellman equations: seat_kind[s] in 'max'/'min'/'random'."""
    V = {k: 0.0 for k in nodes}
    for k, (p, _, st) in nodes.items():
        if p == TERMINAL:
            V[k] = st.returns()[focal]
    for _ in range(100_000):
        delta = 0.0
        for k, (p, edges, _st) in nodes.items():
            if p == TERMINAL:
                continue
            vals = [V[c] for _, c, _ in edges]
            if p == CHANCE:
                v = sum(pr * V[c] for pr, c, _ in edges)
            elif seat_kind[p] == "max":
                v = max(vals)
            elif seat_kind[p] == "min":
                v = min(vals)
            else:
                v = sum(vals) / len(vals)
            delta = max(delta, abs(v - V[k]))
            V[k] = v
        if delta < tol:
            return V
    raise AssertionError("the reference did not converge")


def linear_eval(nodes, policy, exact):
    """Fixed policies (policy(node_state) -> {action: prob}) as a linear system: every seat's share."""
    keys = list(nodes)
    ix = {k: i for i, k in enumerate(keys)}
    N = len(keys)
    n = next(iter(nodes.values()))[2].game.num_players
    one = Fraction(1) if exact else 1.0
    A = [[0 * one] * N for _ in range(N)] if exact else np.zeros((N, N))
    b = [[0 * one] * n for _ in range(N)] if exact else np.zeros((N, n))
    for k, (p, edges, st) in nodes.items():
        i = ix[k]
        A[i][i] += one
        if p == TERMINAL:
            for s in range(n):
                b[i][s] = (
                    Fraction(st.returns()[s]).limit_denominator(12) if exact else st.returns()[s]
                )
            continue
        if p == CHANCE:
            probs = {
                a: (Fraction(pr).limit_denominator(1000) if exact else pr) for pr, _, a in edges
            }
        else:
            probs = policy(st, exact)
        for _, c, a in edges:
            if a in probs:
                A[i][ix[c]] -= probs[a]
    if exact:
        x = gauss(A, b)
    else:
        x = np.linalg.solve(A, b)
    return {k: x[ix[k]] for k in keys}


def gauss(A, b):
    N = len(A)
    n = len(b[0])
    M = [row[:] + bb[:] for row, bb in zip(A, b, strict=False)]
    for c in range(N):
        piv = next(r for r in range(c, N) if M[r][c] != 0)
        M[c], M[piv] = M[piv], M[c]
        pv = M[c][c]
        M[c] = [v / pv for v in M[c]]
        for r in range(N):
            if r != c and M[r][c] != 0:
                f = M[r][c]
                M[r] = [a - f * bb for a, bb in zip(M[r], M[c], strict=False)]
    return [row[N : N + n] for row in M]


def uniform(st, exact):
    acts = st.legal_actions()
    pr = Fraction(1, len(acts)) if exact else 1.0 / len(acts)
    return {a: pr for a in acts}


CASES = [
    dict(wool=2),
    dict(wool=3, max_wool=2),
    dict(wool=4, max_wool=3),
    dict(wool=5, max_wool=2),
    dict(wool=6, max_wool=3),
    dict(wool=6),
    dict(wool=4, max_wool=2, variants=["cutting-costs"]),
    dict(wool=5, max_wool=1, variants=["cutting-costs"]),
    dict(wool=6, max_wool=3, variants=["cutting-costs"]),
    dict(wool=4, max_wool=3, variants=["howling-wolf"]),
    dict(wool=5, max_wool=2, variants=["howling-wolf"], reaction_weights=[1.0, 3.0]),
    dict(wool=4, max_wool=2, variants=["howling-wolf", "cutting-costs"]),
    dict(wool=4, max_wool=3, variants=["my-friend-mr-wolf"]),
    dict(wool=5, max_wool=2, variants=["my-friend-mr-wolf", "cutting-costs"]),
    dict(wool=4, max_wool=2, die=["white", "white", "gray/pink", "x2/green", "x2"]),
    dict(wool=4, max_wool=3, die=["gray/white", "green/pink", "white"], variants=["howling-wolf"]),
]


#: the house rules (docs/spec/rulings.md), each alone and all together
HOUSE_CASES = [
    dict(wool=5, max_wool=3, rerolls=1),
    dict(wool=5, max_wool=2, rerolls=2, variants=["howling-wolf"]),
    dict(wool=4, max_wool=2, rerolls=1, variants=["my-friend-mr-wolf"]),
    dict(wool=5, max_wool=3, auto_shear=2),
    dict(wool=5, max_wool=3, wolf_takes="half"),
    dict(wool=5, max_wool=2, wolf_takes=1, wolf_to="roller"),
    dict(wool=5, max_wool=3, shear_cost=2),
    dict(wool=5, max_wool=2, full_bonus=2),
    dict(wool=6, max_wool=3, target=3),
    dict(wool=5, max_wool=3, final_shear=False),
    dict(wool=6, max_wool=3, auto_shear=2, wolf_takes="half", wolf_to="roller", shear_cost=1,
         full_bonus=1, target=4, final_shear=False),
]  # fmt: skip


def _ids(c):
    return ",".join(f"{k}={v}" for k, v in c.items())


@pytest.mark.parametrize("opts", CASES + HOUSE_CASES, ids=[_ids(c) for c in CASES + HOUSE_CASES])
def test_minimax_equals_brute_force(opts):
    rules = ShaveRules(**opts)
    game = ShaveGame(2, rules)
    start, nodes = build_graph(game)
    ref = brute_force(nodes, {0: "max", 1: "min"}, focal=0)
    sol = S.solve_minimax(rules)
    assert abs(sol.start_value - ref[start]) < 1e-9
    # every turn start the engine reaches has the same value
    checked = 0
    for k, (_p, _, st) in nodes.items():
        if st.phase == ROLL:
            assert abs(float(sol.V[sol.space.index_of(st), 0]) - ref[k]) < 1e-9, st
            checked += 1
    assert checked > 1


POLICY_CASES = [CASES[0], CASES[1], CASES[6], CASES[9], CASES[12], CASES[14]]


@pytest.mark.parametrize("opts", POLICY_CASES, ids=[_ids(c) for c in POLICY_CASES])
def test_minimax_policies_are_worth_the_value(opts):
    """Both recorded policies, evaluated exactly (Fractions or numpy) on the engine's graph,
    give the minimax value: the policies are optimal, not just the numbers."""
    rules = ShaveRules(**opts)
    game = ShaveGame(2, rules)
    start, nodes = build_graph(game)
    sol = S.solve_minimax(rules)
    exact = len(nodes) < 150

    def policy(st, ex):
        return {sol.best_action(st): Fraction(1) if ex else 1.0}

    vals = linear_eval(nodes, policy, exact)
    assert abs(float(vals[start][0]) - sol.start_value) < 1e-9


@pytest.mark.parametrize(
    "opts",
    [CASES[0], CASES[1], CASES[6], CASES[10], CASES[13], CASES[14]],
    ids=[_ids(c) for c in (CASES[0], CASES[1], CASES[6], CASES[10], CASES[13], CASES[14])],
)
def test_random_table_equals_linear_system(opts):
    rules = ShaveRules(**opts)
    game = ShaveGame(2, rules)
    start, nodes = build_graph(game)
    exact = len(nodes) < 150
    ref = linear_eval(nodes, uniform, exact)
    ev = S.evaluate(rules, 2, ["random", "random"])
    for s in range(2):
        assert abs(ev.shares[s] - float(ref[start][s])) < 1e-9


@pytest.mark.parametrize(
    "opts",
    [
        dict(wool=4, max_wool=2),
        dict(wool=3, max_wool=2, variants=["howling-wolf"]),
        dict(wool=3, max_wool=2, variants=["my-friend-mr-wolf", "cutting-costs"]),
        dict(wool=4, max_wool=2, wolf_to="roller", full_bonus=1, target=3),
        dict(wool=4, max_wool=2, auto_shear=1, shear_cost=1, wolf_takes=1, final_shear=False),
    ],
    ids=["rulebook", "howling", "mrwolf-cc", "house-a", "house-b"],
)
def test_three_players_guaranteed_share_and_best_response(opts):
    rules = ShaveRules(**opts)
    game = ShaveGame(3, rules)
    start, nodes = build_graph(game)
    for seat in range(3):
        kinds = {s: "min" for s in range(3)}
        kinds[seat] = "max"
        ref = brute_force(nodes, kinds, focal=seat)
        sol = S.guaranteed_share(rules, 3, seat)
        assert abs(sol.start_value - ref[start]) < 1e-9
    kinds = {0: "random", 1: "max", 2: "random"}
    ref = brute_force(nodes, kinds, focal=1)
    br = S.best_response(rules, 3, 1, ["random", None, "random"])
    assert abs(br.start_value - ref[start]) < 1e-9
    ev = S.evaluate(rules, 3, ["random", "random", "random"])
    lin = linear_eval(nodes, uniform, False)
    assert np.allclose(ev.shares, lin[start], atol=1e-9)
    # the best response's own policy, evaluated as a table, is worth its computed share
    ev_br = S.evaluate(rules, 3, ["random", br, "random"])
    assert abs(ev_br.shares[1] - br.start_value) < 1e-9


def test_greedy_table_equals_engine_bot_evaluation():
    """The kernel's greedy mirror, evaluated exactly, equals the real greedy bot's decisions
    evaluated on the engine's graph (linear system)."""
    from sheepfold.bots.greedy import GreedyShave

    for opts in (
        dict(wool=5, max_wool=3),
        dict(wool=4, max_wool=2, variants=["howling-wolf"]),
        dict(wool=5, max_wool=3, variants=["my-friend-mr-wolf", "cutting-costs"]),
        dict(wool=5, max_wool=3, wolf_to="roller", full_bonus=1, target=4, auto_shear=2),
    ):
        rules = ShaveRules(**opts)
        game = ShaveGame(2, rules)
        start, nodes = build_graph(game)
        bots = [GreedyShave(game, s, 0) for s in range(2)]

        def policy(st, ex, bots=bots):
            p = st.current_player()
            if p == 1:
                return uniform(st, ex)
            return {bots[p].act(st.observe(p)): 1.0}

        ref = linear_eval(nodes, policy, False)
        ev = S.evaluate(rules, 2, ["greedy", "random"])
        assert np.allclose(ev.shares, ref[start], atol=1e-9), opts


@pytest.mark.parametrize(
    "players,opts",
    [
        (3, dict(wool=7, max_wool=3)),
        (3, dict(wool=6, max_wool=3, variants=["howling-wolf"])),
        (4, dict(wool=6, max_wool=2, variants=["my-friend-mr-wolf", "cutting-costs"])),
        (3, dict(wool=6, max_wool=3, auto_shear=2, wolf_to="roller", shear_cost=1, target=4)),
        (3, dict(wool=5, max_wool=2, rerolls=1, full_bonus=1)),
    ],
    ids=["3p", "3p-howling", "4p-mrwolf-cc", "3p-house", "3p-rerolls"],
)
def test_all_seats_at_once_by_rotation(players, opts):
    """The one-solve guaranteed shares of every seat (turned positions) equal the seat-by-seat
    solves at every position, and each seat's policy secures its share against the others'
    best joint reply."""
    from sheepfold.games.shave_a_sheep import solver_kernel as K

    rules = ShaveRules(**opts)
    space = S.Space(rules, players)
    together = S.guaranteed_shares_all(space, players)
    canon = np.array(
        [space.decode(x)[1][space.decode(x)[0]] < space.shear_at for x in range(space.size)]
    )
    for f in range(players):
        alone = S.guaranteed_share(space, players, f)
        assert np.abs(together[f].V[canon, 0] - alone.V[canon, 0]).max() < 1e-9
        pols = [None] * players
        pols[f] = S.Policy("table", together[f].tab)
        kinds, tab = S._kinds_and_tab(space, pols, None, True)
        assert kinds[f] == K.TABLE and all(kinds[i] == K.MIN for i in range(players) if i != f)
        V, _ = S._run(space, kinds, 1, f, tab, False, S.DEFAULT_TOL, None)
        assert abs(V[space.start_index(), 0] - alone.start_value) < 1e-9
    with pytest.raises(S.SolverError):
        S.guaranteed_shares_all(
            ShaveRules(wool=5, variants=["howling-wolf"], reaction_weights=[1, 2, 1]), 3
        )


def test_rerolls_are_positions_of_their_own():
    """A roll after r rerolls of the turn is a position of its own in the solver's index (house
    rule rerolls): as many as the rerolls allow, the rerolls used read back from the index."""
    plain = S.Space(ShaveRules(wool=5), 2)
    space = S.Space(ShaveRules(wool=5, rerolls=2), 2)
    assert space.size == 3 * plain.size and space.NR == 3
    for x in range(0, space.size, 7):
        t, sheep, piles, wolf = space.decode(x)
        assert space.index(t, sheep, piles, wolf, space.rerolled(x)) == x
        assert space.index_of(space.state_at(x)) == x
