"""Hypothesis properties over the whole space of house rules (issue 13): rule sets are drawn
from every option of both games' rules models; each one the model accepts is played, and the
engine must keep the protocol's promises (``check_game``), conserve what the game is made of
(wool, cards), agree with the compiled kernel move by move, and end. Derandomized in CI (conftest's profile);
``make test-random`` explores at random."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sheepfold.core.conformance import check_game
from sheepfold.core.protocol import CHANCE, RulesError
from sheepfold.games.dolly_crush.game import DollyGame
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.games.shave_a_sheep import policy
from sheepfold.games.shave_a_sheep.game import CHOOSE, HOWL_GROW, HOWL_TARGET, ShaveGame
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel import policy as kpolicy
from sheepfold.games.shave_a_sheep.rules import COLOUR_ACTIONS, ShaveRules
from test_dolly_kernel import _walk_random_games
from test_shave_kernel import after, kernel_child, kernel_legal, vector

COLOURS = list(COLOUR_ACTIONS)
FACES = st.lists(st.sampled_from(COLOURS), min_size=1, max_size=3).map("/".join)


@st.composite
def shave_rules(draw: st.DrawFn) -> tuple[int, ShaveRules]:
    """(players, rules): any combination of the rules model's options, kept small enough to
    play many games; a combination the model refuses is not drawn (``assume``)."""
    wool = draw(st.integers(1, 24))
    max_wool = draw(st.integers(1, 6))
    opts: dict[str, Any] = {
        "wool": wool,
        "max_wool": max_wool,
        "auto_shear": draw(st.none() | st.integers(1, max_wool)),
        "variants": draw(
            st.sampled_from(
                [
                    [],
                    ["cutting-costs"],
                    ["howling-wolf"],
                    ["my-friend-mr-wolf"],
                    ["cutting-costs", "howling-wolf"],
                ]
            )
        ),  # fmt: skip
        "die": draw(st.none() | st.lists(FACES, min_size=1, max_size=7)),
        "full_bonus": draw(st.integers(0, 3)),
        "target": draw(st.none() | st.integers(1, wool)),
        "final_shear": draw(st.booleans()),
        "rerolls": draw(st.integers(0, 2)),
        "max_turns": 400,  # every game ends: a rule set that cannot end is cut, not hung
    }
    if not opts["variants"] or opts["variants"] == ["cutting-costs"]:
        opts["wolf_takes"] = draw(st.sampled_from(["all", "half", 1, 2]))
        opts["wolf_to"] = draw(st.sampled_from(["middle", "roller"]))
    if "cutting-costs" not in opts["variants"]:
        opts["shear_cost"] = draw(st.none() | st.integers(0, 3))
    try:
        rules = ShaveRules(**opts)
    except (ValidationError, RulesError):
        assume(False)
    return draw(st.integers(2, 4)), rules


@given(shave_rules(), st.integers(0, 2**32))
def test_shave_house_rules_keep_every_promise(drawn: tuple[int, ShaveRules], seed: int) -> None:
    players, rules = drawn
    game = ShaveGame(players, rules)
    check_game(game, num_games=2, seed=seed, max_steps=5_000, illegal_probes=1)
    prm = L.rules_record(game)
    trial = np.zeros(L.STATE_LEN, dtype=np.int64)
    rng = np.random.default_rng(seed)
    s = game.new_initial_state(seed)
    steps = 0
    while not s.is_terminal():
        steps += 1
        assert steps < 10_000, "the turn limit ends every game"
        # wool is conserved: the middle, the sheep and the safe piles hold it all
        assert s.middle + sum(s.sheep) + sum(s.piles) == rules.wool
        assert all(0 <= w <= rules.max_wool for w in s.sheep)
        if s.phase in (CHOOSE, HOWL_TARGET, HOWL_GROW):
            legal = s.legal_actions()
            assert kernel_legal(s, prm) == legal  # the kernel offers the same choices
            acts = np.array(legal, dtype=np.int64)
            me = s.current_player()
            got = kpolicy.greedy(
                L.from_state(s), me, acts, len(legal), s.phase == HOWL_TARGET, prm, trial
            )
            assert got == policy.greedy_action(s)  # and its greedy bot chooses alike
            a = legal[int(rng.integers(len(legal)))]
            assert kernel_child(s, a, prm) == vector(after(s, a))  # and plays them alike
            s.apply(a)
        else:
            s.apply(s.sample_chance())
    assert s.middle + sum(s.sheep) + sum(s.piles) == rules.wool
    out = s.outcome()
    assert out is not None and (out.truncated == (s.turns >= 400))  # ended, or cut at the limit


# -- Dolly Crush ---------------------------------------------------------------------------------
@st.composite
def dolly_rules(draw: st.DrawFn) -> tuple[int, DollyRules]:
    """(players, rules) over every Dolly Crush option; refused combinations are not drawn."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(2, 5))
    dogs = draw(st.integers(1, 5))
    opts: dict[str, Any] = {
        "rows": rows,
        "cols": cols,
        "min_line": draw(st.integers(2, max(2, min(4, max(rows, cols))))),
        "diagonals": draw(st.booleans()),
        "match_colour": draw(st.booleans()),
        "types": draw(st.integers(2, 8)),
        "white_per_type": draw(st.integers(0, 12)),
        "black_per_type": draw(st.integers(0, 5)),
        "white_points": draw(st.integers(0, 3)),
        "black_points": draw(st.integers(0, 4)),
        "dogs_per_player": dogs,
        "dog_swaps": {
            b: draw(st.lists(st.integers(0, 3), min_size=dogs, max_size=dogs))
            for b in ("pastore-maremmano", "bobtail", "border-collie", "australian-shepherd")
        },
        "swaps": draw(st.sampled_from(["exact", "up-to"])),
        "cascades": draw(st.booleans()),
        "end_points": draw(st.none() | st.integers(1, 30)),
        "rounds": draw(st.none() | st.integers(1, 6)),
        "max_cleanup_rounds": 200,
    }
    try:
        rules = DollyRules(**opts)
    except (ValidationError, RulesError):
        assume(False)
    return draw(st.integers(2, 4)), rules


# each example plays whole games on a drawn board: half the profile's examples (30 in CI, 150 in
# make test-random)
@settings(max_examples=max(settings().max_examples // 2, 30))
@given(dolly_rules(), st.integers(0, 2**32))
def test_dolly_house_rules_keep_every_promise(drawn: tuple[int, DollyRules], seed: int) -> None:
    players, rules = drawn
    game = DollyGame(players, rules)
    check_game(game, num_games=2, seed=seed, max_steps=5_000, illegal_probes=1)
    s = game.new_initial_state(seed)
    steps = 0
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        steps += 1
        assert steps < 20_000, "every Dolly Crush game ends (dog cards, rounds or the deck)"
        assert s.total_cards() == rules.deck_size()  # cards are conserved
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance())
        else:
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert s.total_cards() == rules.deck_size()
    assert s.outcome() is not None


@given(dolly_rules(), st.integers(0, 2**16))
def test_dolly_grid_kernel_agrees_with_the_engine_on_drawn_rules(
    drawn: tuple[int, DollyRules], seed: int
) -> None:
    """The compiled kernel of any board (``kernel.grid``) plays the drawn rules exactly as the
    engine does: legal swaps, combinations, best swaps, takes, refills, cascades and ends
    (the checks of tests/test_dolly_kernel.py, on rules drawn from the whole space)."""
    _, rules = drawn
    options = rules.model_dump(exclude={"name", "description", "dog_swaps"}, exclude_defaults=True)
    options["dogs_per_player"] = min(rules.dogs_per_player, 4)  # the walk's dog cards: 4 a breed
    with pytest.MonkeyPatch.context() as mp:
        _walk_random_games(options, 1, seed, mp)
