"""OpenSpiel adapter: OpenSpiel's own random_sim_test, game metadata, and agreement with the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from sheepfold.core.protocol import IllegalAction  # noqa: E402
from sheepfold.games import make  # noqa: E402
from sheepfold.interop import openspiel as sos  # noqa: E402
from sheepfold.interop.encoding import encoder_for  # noqa: E402

SHAVE_VARIANTS = [
    "",
    "cutting-costs",
    "howling-wolf",
    "my-friend-mr-wolf",
    "cutting-costs+howling-wolf",
    "cutting-costs+my-friend-mr-wolf",
]
CONFIGS = [("python_dolly_crush", "")] + [
    ("python_shave_a_sheep", f"variants={v}") for v in SHAVE_VARIANTS
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("short,params", CONFIGS)
def test_random_sim_test(short: str, params: str, players: int) -> None:
    extra = f",{params}" if params else ""
    game = pyspiel.load_game(f"{short}(players={players}{extra})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "game_string",
    [
        "python_dolly_crush(players=3,rules=dolly-graded,breeds=border-collie+bobtail+australian-shepherd)",
        "python_dolly_crush(players=2,dog_swaps=pastore-maremmano:0/1/2/3+australian-shepherd:2,white_points=3)",
        "python_dolly_crush(players=2,white_per_type=3,black_per_type=1)",  # the deck runs out
        "python_shave_a_sheep(players=3,die=white+x2+gray/pink+white/green,wool=12,max_wool=3)",
        "python_shave_a_sheep(players=3,variants=howling-wolf,reaction_weights=1/0/3)",
        "python_shave_a_sheep(players=2,max_turns=4)",  # always truncated
        "python_shave_a_sheep(players=2,rules=my-friend-mr-wolf)",
    ],
)
def test_random_sim_test_rule_options(game_string: str) -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game(game_string), num_sims=2, serialize=True, verbose=False
    )


def test_game_metadata() -> None:
    dolly = pyspiel.load_game("python_dolly_crush(players=2)")
    t = dolly.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (dolly.min_utility(), dolly.max_utility(), dolly.utility_sum()) == (0.0, 1.0, 1.0)
    assert dolly.num_distinct_actions() == 26 and dolly.max_chance_outcomes() == 10
    # pastore-maremmano 4 x (dog + 1 swap) + australian-shepherd 4 x (dog + 4 swaps)
    assert dolly.max_game_length() == 8 + 20
    graded = pyspiel.load_game("python_dolly_crush(players=4,rules=dolly-graded)")
    assert graded.max_game_length() == 4 * (4 + 1 + 2 + 3 + 4)
    shave = pyspiel.load_game("python_shave_a_sheep(players=3)")
    assert shave.num_distinct_actions() == 13 and shave.max_chance_outcomes() == 6
    assert shave.max_game_length() == sos.DEFAULT_MAX_TURNS
    howl = pyspiel.load_game("python_shave_a_sheep(players=4,variants=howling-wolf,max_turns=50)")
    assert howl.max_game_length() == 100  # target + grow choice on a gray roll
    assert howl.max_chance_outcomes() == 6
    assert dolly.observation_tensor_shape() == [encoder_for(make("dolly-crush")).size]


def test_readable_action_strings() -> None:
    game = pyspiel.load_game("python_dolly_crush(players=2)")
    s = game.new_initial_state()
    assert s.is_chance_node()
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, 9) == "draw ram-black"
    rng = random.Random(3)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    assert [s.action_to_string(0, a) for a in s.legal_actions()] == [
        "dog 0",
        "dog 1",
        "dog 2",
        "dog 3",
    ]
    s.apply_action(2)
    names = [s.action_to_string(0, a) for a in s.legal_actions()]
    assert "swap b2-b3" in names and "swap a1-b1" in names
    shave = pyspiel.load_game("python_shave_a_sheep(players=2)").new_initial_state()
    assert shave.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "roll gray/green"
    shave.apply_action(5)
    assert [shave.action_to_string(0, a) for a in shave.legal_actions()] == [
        "swap seat 1",
        "wolf seat 1",
    ]


def test_draw_probabilities_follow_the_unseen_cards() -> None:
    s = pyspiel.load_game("python_dolly_crush(players=2)").new_initial_state()
    outcomes = dict(s.chance_outcomes())
    assert outcomes[0] == pytest.approx(15 / 100) and outcomes[1] == pytest.approx(5 / 100)
    s.apply_action(1)  # a black bell is dealt to a1
    outcomes = dict(s.chance_outcomes())
    assert outcomes[1] == pytest.approx(4 / 99) and outcomes[0] == pytest.approx(15 / 99)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_truncated_game_is_reported() -> None:
    game = pyspiel.load_game("python_shave_a_sheep(players=3,max_turns=2)")
    s = game.new_initial_state()
    rng = random.Random(0)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.legal_actions()))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert s.truncated()
    assert s.returns() == pytest.approx([1 / 3] * 3)
    assert str(s).endswith("truncated")
    assert s.engine_state.outcome().truncated


def test_observer_strings_and_tensors() -> None:
    game = pyspiel.load_game("python_shave_a_sheep(players=2,variants=my-friend-mr-wolf)")
    s = game.new_initial_state()
    s.apply_action(4)  # gray/pink
    obs0, obs1 = np.array(s.observation_tensor(0)), np.array(s.observation_tensor(1))
    assert obs0.shape == obs1.shape and not np.array_equal(obs0, obs1)  # seat-relative
    assert 0.0 <= obs0.min() and obs0.max() <= 1.0
    assert "rolled gray/pink" in s.observation_string(0)
    assert s.information_state_string(1).endswith("history: 4")
    assert np.array_equal(np.array(s.information_state_tensor(0)), obs0)
    s.apply_action(8)  # wolf seat 1 (option A)
    assert "wolf next to seat 1" in s.observation_string(1)


def test_bad_parameters_are_refused_with_a_reason() -> None:
    with pytest.raises(Exception, match="Howling Wolf and My friend Mr. Wolf"):
        pyspiel.load_game("python_shave_a_sheep(variants=howling-wolf+my-friend-mr-wolf)")
    with pytest.raises(Exception, match="unknown variant"):
        pyspiel.load_game("python_shave_a_sheep(variants=wolfpack)")
    with pytest.raises(Exception, match="max_turns"):
        pyspiel.load_game("python_shave_a_sheep(max_turns=0)")
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_dolly_crush(players=5)")
    with pytest.raises(sos.RulesError, match="separate list items with"):
        sos.engine_game("shave-a-sheep", {"variants": "cutting-costs,howling-wolf"})


def test_load_game_helper_builds_the_game_string() -> None:
    g = sos.load_game(
        "shave-a-sheep", players=3, variants=["cutting-costs", "howling-wolf"], max_turns=40
    )
    engine = g.new_initial_state().engine_state.game
    assert engine.num_players == 3 and engine.rules.max_turns == 40
    assert engine.rules.variants == ("cutting-costs", "howling-wolf")
    d = sos.load_game("dolly-crush", players=2, dog_swaps={"pastore-maremmano": [2, 2, 2, 2]})
    assert d.new_initial_state().engine_state.game.dog_swaps[0] == (2, 2, 2, 2)


def _agree(game_string: str, engine_game, seed: int) -> int:
    """Drive an OpenSpiel state and a separate engine state with the same actions."""
    os_state = pyspiel.load_game(game_string).new_initial_state()
    eng = engine_game.new_initial_state(seed=seed)
    enc = encoder_for(engine_game)
    rng = random.Random(seed)
    steps = 0
    while True:
        assert os_state.current_player() == eng.current_player()
        assert os_state.is_terminal() == eng.is_terminal()
        assert os_state.engine_state.scores() == eng.scores()
        if eng.is_terminal():
            break
        if eng.is_chance_node():
            assert os_state.is_chance_node()
            got = os_state.chance_outcomes()
            want = eng.chance_outcomes()
            assert [a for a, _ in got] == [a for a, _ in want]
            assert [p for _, p in got] == pytest.approx([p for _, p in want])
            assert os_state.legal_actions() == eng.legal_actions()
            action = eng.sample_chance(rng)
        else:
            p = eng.current_player()
            assert os_state.legal_actions() == eng.legal_actions()
            assert os_state.legal_actions(p) == eng.legal_actions()
            mask = os_state.legal_actions_mask(p)
            assert [i for i, m in enumerate(mask) if m] == eng.legal_actions()
            assert np.array_equal(
                np.array(os_state.observation_tensor(p), np.float32), enc.encode(eng, p)
            )
            action = rng.choice(eng.legal_actions())
            assert os_state.action_to_string(p, action) == eng.action_to_string(action)
        os_state.apply_action(action)
        eng.apply(action)
        steps += 1
        if steps % 37 == 0:  # a serialized and deserialized copy goes on identically
            _, os_state = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(os_state.get_game(), os_state)
            )
    assert os_state.returns() == pytest.approx(eng.returns())
    assert os_state.engine_state.outcome() == eng.outcome()
    return steps


@pytest.mark.parametrize(
    "name,players,options",
    [
        ("dolly-crush", 2, {"rules": "dolly-rulebook"}),  # the printed, unequal dog cards
        ("dolly-crush", 4, {"rules": "dolly-graded"}),
        ("shave-a-sheep", 2, {}),
        ("shave-a-sheep", 3, {"variants": ["cutting-costs", "howling-wolf"]}),
        ("shave-a-sheep", 4, {"variants": ["my-friend-mr-wolf"]}),
    ],
)
@pytest.mark.filterwarnings("ignore:Unequal dog cards")
def test_openspiel_state_agrees_with_the_engine(name: str, players: int, options: dict) -> None:
    opts = dict(options)
    rules = None
    if "rules" in opts:
        from sheepfold.rulesets import find_ruleset

        rules = find_ruleset(opts["rules"], name).rules
    if name == "shave-a-sheep":
        opts["max_turns"] = sos.DEFAULT_MAX_TURNS
    game_string = sos.game_string(name, players, **opts)
    engine_opts = {k: v for k, v in opts.items() if k != "rules"}
    engine_game = make(name, players=players, rules=rules, **engine_opts)
    total = sum(_agree(game_string, engine_game, seed) for seed in range(4))
    assert total > 50


def test_illegal_action_is_refused_and_the_state_unchanged() -> None:
    s = pyspiel.load_game("python_shave_a_sheep").new_initial_state()
    s.apply_action(0)  # roll white: grow only
    before = str(s)
    with pytest.raises(IllegalAction, match="offers grow, not wolf"):
        s.apply_action(8)
    assert str(s) == before and s.history() == [0]
