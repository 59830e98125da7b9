"""Dolly Crush's rule language (issue 27, docs/spec/rule-language.md): every part of the rules
model is exercised by the engine-kernel agreement test (a coverage check that reads the parts
from the model, not from a list kept by hand), random rule programs from the whole language
keep every promise, bad and hostile files are refused with a reason, the parts play as the
reference says, and the words describe each part.
"""

from __future__ import annotations

import json
import re
import tomllib
import typing
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from sheepfold.core.conformance import check_game
from sheepfold.core.protocol import CHANCE
from sheepfold.games.dolly_crush import words
from sheepfold.games.dolly_crush.cards import EMPTY
from sheepfold.games.dolly_crush.game import DOG, DollyGame
from sheepfold.games.dolly_crush.rules import (
    DollyRules,
    LengthBonus,
    LineCombination,
    PatternCombination,
    TypePoints,
)
from test_dolly_kernel import GRID_RULES, _grid_dogs, _walk_random_games

pytest.importorskip("numba")

INFORMATIONAL = ("name", "description")
PART_MODELS: dict[str, type[BaseModel]] = {
    "combinations": LineCombination,  # each kind of combination: below
    "points": TypePoints,
    "bonuses": LengthBonus,
}


def _choices(annotation: Any) -> list[Any]:
    """Every Literal value an annotation allows (through tuples, unions, Optional)."""
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    out: list[Any] = []
    for arg in typing.get_args(annotation):
        out += _choices(arg)
    return out


def _model_parts(prefix: str, model: type[BaseModel]) -> set[str]:
    parts = set()
    for name, field in model.model_fields.items():
        if name == "kind":
            continue
        parts.add(f"{prefix}.{name}")
        parts |= {f"{prefix}.{name}={c}" for c in _choices(field.annotation)}
    return parts


def language_parts() -> set[str]:
    """Every part of the language, read from the rules model: each option (set to something
    other than its default), each choice of an option with choices, each field (and choice) of
    each kind of combination, of a type's points and of a bonus."""
    parts: set[str] = set()
    for name, field in DollyRules.model_fields.items():
        if name in INFORMATIONAL:
            continue
        parts.add(name)
        if name != "combinations":
            parts |= {f"{name}={c}" for c in _choices(field.annotation)}
    for kind in (LineCombination, PatternCombination):
        tag = typing.get_args(kind.model_fields["kind"].annotation)[0]
        parts.add(f"combinations={tag}")
        parts |= _model_parts(f"combinations.{tag}", kind)
    parts |= _model_parts("points", TypePoints)
    parts |= _model_parts("bonuses", LengthBonus)
    return parts


def _flat(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _used_in(prefix: str, part: BaseModel) -> set[str]:
    used = set()
    for name, field in type(part).model_fields.items():
        value = getattr(part, name)
        if name == "kind" or value is None:
            continue
        if field.is_required() or value != field.default:
            used.add(f"{prefix}.{name}")
        used |= {f"{prefix}.{name}={v}" for v in _flat(value)}
    return used


def parts_used(rules: DollyRules) -> set[str]:
    """The parts a rule set exercises (choices at their default count: every game plays them)."""
    used: set[str] = set()
    default = DollyRules()
    for name, field in DollyRules.model_fields.items():
        if name in INFORMATIONAL:
            continue
        value = getattr(rules, name)
        if value != getattr(default, name):
            used.add(name)
        if name not in ("combinations", "points", "bonuses"):
            used |= {f"{name}={v}" for v in _flat(value) if v in _choices(field.annotation)}
    for c in rules.combinations or ():
        used.add(f"combinations={c.kind}")
        used |= _used_in(f"combinations.{c.kind}", c)
    for p in rules.points.values():
        used |= _used_in("points", p)
    for b in rules.bonuses:
        used |= _used_in("bonuses", b)
    return used


def _rules(options: dict[str, Any]) -> DollyRules:
    return DollyRules(dog_swaps=_grid_dogs(options), **options)


def test_every_part_of_the_language_is_in_the_agreement_test() -> None:
    """The engine-kernel agreement test (tests/test_dolly_kernel.py, GRID_RULES) exercises
    every part the rules model has: a part added to the model fails here until a rule set of
    the agreement test plays it."""
    parts = language_parts()
    assert {"shape", "adjacent=diagonal", "combinations=pattern", "refill=gravity"} <= parts
    assert "bonuses.times" in parts and "combinations.line.directions=diagonals" in parts
    used: set[str] = set()
    for options in GRID_RULES:
        used |= parts_used(_rules(options))
    missing = sorted(parts - used)
    assert not missing, f"parts of the language no agreement rule set plays: {missing}"


def test_the_coverage_check_sees_a_missing_part() -> None:
    used: set[str] = set()
    for options in GRID_RULES:
        if "refill" not in options:
            used |= parts_used(_rules(options))
    assert "refill=gravity" in language_parts() - used


# -- random rule programs from the whole language -----------------------------------------------
PATTERNS = [["XX", "XX"], ["XX"], ["X", "X"], ["X.", ".X"], ["XXX"], ["X.", "XX"], [".X", "XX"]]


@st.composite
def programs(draw: st.DrawFn) -> dict[str, Any]:
    """A rule program drawn from every part of the language (kept small enough to play)."""
    opts: dict[str, Any] = {"types": draw(st.integers(2, 5)), "max_cleanup_rounds": 30}
    if draw(st.booleans()):
        rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
        grid = ["".join(draw(st.sampled_from("XXX.")) for _ in range(cols)) for _ in range(rows)]
        opts["shape"] = grid
    else:
        opts["rows"], opts["cols"] = draw(st.integers(1, 4)), draw(st.integers(2, 5))
    opts["adjacent"] = draw(
        st.sampled_from([["orthogonal"], ["diagonal"], ["orthogonal", "diagonal"]])
    )
    if draw(st.booleans()):
        combos = []
        for _ in range(draw(st.integers(1, 3))):
            colour = draw(st.booleans())
            if draw(st.booleans()):
                dirs = draw(
                    st.lists(
                        st.sampled_from(["rows", "columns", "diagonals"]), min_size=1, max_size=3
                    )
                )
                length = draw(st.integers(2, 4))
                combos.append(
                    {"kind": "line", "length": length, "directions": dirs, "colour": colour}
                )
            else:
                combos.append(
                    {"kind": "pattern", "cells": draw(st.sampled_from(PATTERNS)), "colour": colour}
                )
        opts["combinations"] = combos
    else:
        opts["min_line"] = draw(st.integers(2, 4))
        opts["diagonals"] = draw(st.booleans())
        opts["match_colour"] = draw(st.booleans())
    if draw(st.booleans()):
        opts["points"] = {"bell": {"white": draw(st.integers(0, 3))}, "lamb": {"black": 4}}
    opts["white_points"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        opts["bonuses"] = [
            {"length": draw(st.integers(2, 4)), "times": draw(st.integers(2, 3))}
            for _ in range(draw(st.integers(1, 2)))
        ]
    opts["refill"] = draw(st.sampled_from(["in-place", "gravity"]))
    opts["cascades"] = draw(st.booleans())
    opts["swaps"] = draw(st.sampled_from(["exact", "up-to"]))
    opts["white_per_type"] = draw(st.integers(4, 12))
    opts["black_per_type"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        opts["rounds"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        opts["end_points"] = draw(st.integers(5, 20))
    try:
        _rules(opts)
    except ValidationError:
        assume(False)
    return opts


@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(programs(), st.integers(0, 2**16))
def test_random_rule_programs_keep_every_promise(options: dict[str, Any], seed: int) -> None:
    rules = _rules(options)
    game = DollyGame(2, rules, breeds=["pastore-maremmano", "bobtail"])
    check_game(game, num_games=1, seed=seed, max_steps=4_000, illegal_probes=1)
    s = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not s.is_terminal():  # the game ends (dog cards, rounds, the deck, the clean-up)
        steps += 1
        assert steps < 5_000
        assert s.total_cards() == rules.deck_size()  # the cards are conserved
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance())
        else:
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert s.total_cards() == rules.deck_size()
    with pytest.MonkeyPatch.context() as mp:  # the kernel plays it as the engine does
        _walk_random_games(options, 1, seed, mp)


# -- the parts, by hand -------------------------------------------------------------------------
B, b, L, l, F = 0, 1, 2, 3, 4  # bell white/black, lamb white/black, butterfly white  # noqa: E741
PLUS = ["..XXX..", "..XXX..", "XXXXXXX", "XXXXXXX", "XXXXXXX", "..XXX..", "..XXX.."]


def test_a_shaped_flock_has_cells_and_holes_with_their_names() -> None:
    board = DollyRules(shape=PLUS).board()
    assert board.cells == 49 - 16 and board.holes
    assert board.cell_name(0) == "a3" and board.cell_name(board.cells - 1) == "g5"
    assert board.parse_cell("c1") == 6
    with pytest.raises(ValueError, match="a1 is a hole"):
        board.parse_cell("a1")
    game = DollyGame(2, DollyRules(shape=PLUS))
    s = game.new_initial_state(seed=1)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance())
    view = s.observe(0)
    assert view["shape"] == PLUS and view["flock"][0][0] is None and view["flock"][0][2]
    assert game.determinize(view, seed=2).flock == s.flock  # the holes are skipped back
    # the adapters' observation: the whole grid, the holes masked in their own channel
    from sheepfold.interop.encoding import observer_for

    grid = observer_for(game, "grid").encode(s, 0)
    kinds = game.board.kinds
    assert grid.shape[:2] == (7, 7)
    assert grid[0, 0, kinds] == 1 and grid[0, 0, :kinds].sum() == 0  # a1: a hole
    assert grid[0, 2, kinds] == 0 and grid[0, 2, :kinds].sum() == 1  # a3: a card


def test_lines_stop_at_holes_and_patterns_fit_on_cells() -> None:
    board = DollyRules(shape=["XX.XX", "XXXXX"], types=3).board()
    assert board.find_lines([B, B, B, B] + [L, F, L, F, L]) == []  # a1-b2, b4-b5: runs of two
    assert board.find_lines([B, B, B, B] + [L, L, L, F, L]) == [4, 5, 6]
    sq = DollyRules(
        rows=3, cols=3, types=3, combinations=[{"kind": "pattern", "cells": ["XX", "XX"]}]
    ).board()
    f = [B, b, L, B, B, F, L, l, F]
    assert sq.find_lines(f) == [0, 1, 3, 4]  # a square of bells, colour apart
    col = DollyRules(
        rows=3,
        cols=3,
        types=3,
        combinations=[{"kind": "pattern", "cells": ["XX", "XX"], "colour": True}],
    ).board()
    assert col.find_lines(f) == []  # one black bell: not one colour


def test_diagonal_swaps_are_moves() -> None:
    game = DollyGame(2, DollyRules(adjacent=["orthogonal", "diagonal"]))
    assert len(game.board.swaps) == 22 + 16
    a = game.swap_action("a1", "b2")
    assert game.action_name(a) == "swap a1-b2"
    only = DollyGame(2, DollyRules(adjacent=["diagonal"]))
    from sheepfold.core.protocol import IllegalAction

    with pytest.raises(IllegalAction, match="diagonally adjacent"):
        only.swap_action("a1", "a2")


def test_bonuses_count_each_card_once_at_its_largest_bonus() -> None:
    rules = DollyRules(
        rows=2,
        cols=6,
        types=3,
        combinations=[
            {"kind": "line", "length": 3, "directions": ["rows"]},
            {"kind": "pattern", "cells": ["XX", "XX"]},
        ],
        bonuses=[{"length": 5, "times": 2}, {"length": 6, "times": 3}],
    )
    board, pts = rules.board(), rules.card_points()
    top = [B, B, B, B, B, L]
    bottom = [F, F, F, L, B, B]
    # a line of 5 bells (double) and one of 3 butterflies (no bonus); no square of one type
    assert board.score(top + bottom, pts) == 5 * 1 * 2 + 3 * 1
    f = [B, B, B, B, B, B] + [B, B, F, L, F, L]
    # six bells: triple (the largest bonus, once, not 2 x 3); b1 and b2 only in a square of
    # bells (with a1, a2): taken, no bonus; a1 and a2 in the line and the square: once, triple
    assert board.find_lines(f) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert board.score(f, pts) == 6 * 3 + 2


def test_points_by_type() -> None:
    r = DollyRules(points={"ram": {"white": 2, "black": 4}, "bell": {"black": 7}})
    pts = r.card_points()
    assert pts[8:10] == (2, 4) and pts[0:2] == (1, 7) and pts[2:4] == (1, 2)
    assert DollyGame(2, r).points == pts


def test_gravity_lets_cards_fall_over_holes_and_refills_at_the_top() -> None:
    rules = DollyRules(shape=["XX", ".X", "XX"], types=3, refill="gravity", min_line=3)
    board = rules.board()
    # cells: a1 a2 / b2 / c1 c2; column 1 is a1, c1 (b1 a hole), column 2 is a2, b2, c2
    f = [B, L, EMPTY, EMPTY, F]
    board.fall(f)
    assert f == [EMPTY, EMPTY, L, B, F]  # a1's bell fell over the hole to c1, a2's lamb to b2
    game = DollyGame(2, DollyRules(rows=3, cols=3, types=3, refill="gravity"))
    deal = [F, B, L, B, L, F, L, B, L]  # a: F B L / b: B L F / c: L B L, no line
    s = game.new_initial_state(seed=0, deck=deal + [L, F, B] + [F, L, B] * 10)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance())
    assert s.flock == deal and s.phase == DOG
    s.apply(0)  # dog card 0: one swap
    s.apply(game.swap_action("b2", "c2"))  # row c: three lambs, taken
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance())
    assert s.collected[0] == [L, L, L]
    # rows a and b fell one row down; the new cards L, F, B entered at the top, a1 first
    assert s.flock == [L, F, B, F, B, L, B, B, F]


def test_gravity_refill_matches_the_reference_wording() -> None:
    told = words.describe(DollyRules(refill="gravity", cascades=True))["refill"]
    assert "fall down its column" in told and "again and again" in told


# -- bad and hostile input -----------------------------------------------------------------------
BAD: list[tuple[dict[str, Any], str]] = [
    ({"shape": ["XX", "X"]}, "every row must be as long"),
    ({"shape": ["XQ"]}, "write X for a cell and . for a hole"),
    ({"shape": ["X" * 9]}, "1 to 8 X or . marks"),
    ({"shape": ["X"] * 9}, "1 to 8 rows"),
    ({"shape": [".X", "XX"], "rows": 3}, "give the shape alone"),
    ({"shape": ["..", "XX"]}, "first and last rows must hold a cell"),
    ({"shape": ["X.", "X."]}, "first and last columns must hold a cell"),
    ({"min_line": 4, "combinations": [{"kind": "line"}]}, "min_line is shorthand"),
    ({"diagonals": True, "combinations": [{"kind": "line"}]}, "diagonals is shorthand"),
    ({"match_colour": True, "combinations": [{"kind": "line"}]}, "match_colour is shorthand"),
    ({"combinations": []}, "at least one combination"),
    ({"combinations": [{"kind": "line"}] * 9}, "at most 8 combinations"),
    ({"combinations": [{"kind": "blob"}]}, "'line', 'pattern'"),
    ({"combinations": [{"kind": "line", "length": 6}]}, "fits nowhere"),
    ({"combinations": [{"kind": "line", "directions": ["up"]}]}, "directions"),
    ({"combinations": [{"kind": "pattern", "cells": ["X"]}]}, "at least two X"),
    ({"combinations": [{"kind": "pattern", "cells": ["XXXXX"]}]}, "1 to 4 X or . marks"),
    ({"combinations": [{"kind": "pattern", "cells": ["XXXX"] * 4}]}, "fits nowhere"),
    ({"combinations": [{"kind": "pattern", "cells": ["XX"], "size": 2}]}, "size"),
    ({"points": {"goat": {"white": 1}}}, "unknown sheep type 'goat'"),
    ({"points": {"ram": {"grey": 1}}}, "grey"),
    ({"points": {"heart": {"white": 1}}}, "not in a deck of 5 types"),
    ({"points": {"ram": {"white": 101}}}, "less than or equal to 100"),
    ({"bonuses": [{"length": 5, "times": 2}] * 9}, "at most 8 bonuses"),
    ({"bonuses": [{"length": 5, "times": 11}]}, "less than or equal to 10"),
    ({"bonuses": [{"length": 6, "times": 2}]}, "a line of 6 fits nowhere"),
    (
        {
            "combinations": [{"kind": "pattern", "cells": ["XX"]}],
            "bonuses": [{"length": 3, "times": 2}],
        },
        "needs a line combination",
    ),
    ({"adjacent": ["sideways"]}, "adjacent"),
    ({"adjacent": []}, "adjacent"),
    ({"refill": "sideways"}, "'in-place' or 'gravity'"),
    (
        {"shape": ["XXX", "XXX"], "white_per_type": 0, "black_per_type": 1},
        "the flock alone needs 6",
    ),
]


@pytest.mark.parametrize("options,message", BAD, ids=[m for _, m in BAD])
def test_bad_rules_say_what_is_wrong(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as e:
        DollyRules(**options)
    assert message in str(e.value), str(e.value)


@pytest.mark.parametrize("key", ["combinations", "bonuses"])
def test_a_hostile_file_is_refused_before_its_parts_are_read(key: str) -> None:
    """A million bad parts are refused by their count: none of them is validated (else each
    would be an error of its own)."""
    with pytest.raises(ValidationError) as e:
        DollyRules(**{key: [{"kind": "blob", "times": -1}] * 1_000_000})
    assert len(e.value.errors()) == 1 and f"at most 8 {key}" in str(e.value)


# -- today's rule sets are unchanged ------------------------------------------------------------
def _presets() -> list[dict[str, Any]]:
    out = []
    for f in sorted(resources.files("sheepfold.presets").iterdir()):
        if f.name.startswith("dolly-") and f.name.endswith(".toml"):
            out.append(tomllib.loads(f.read_text()))
    docs = Path(__file__).parent.parent / "docs" / "rulesets" / "graded-cascades.toml"
    return [*out, tomllib.loads(docs.read_text())]


@pytest.mark.parametrize("preset", _presets(), ids=lambda p: p["name"])
def test_existing_rule_sets_keep_their_options_and_key(preset: dict[str, Any]) -> None:
    data = {k: v for k, v in preset.items() if k not in ("game", "from")}  # on the rulebook
    r = DollyRules(**data)
    for part in ("shape", "adjacent", "combinations", "points", "bonuses", "refill"):
        assert part not in r.options() and f"'{part}'" not in r.key()
    assert r.board().rulebook_geometry  # still the packed kernels' fast path
    assert DollyRules(**r.options()).key() == r.key()


def test_a_language_rule_set_round_trips_through_its_options() -> None:
    r = DollyRules(
        shape=PLUS,
        adjacent=["diagonal", "orthogonal"],
        combinations=[
            {"kind": "line", "directions": ["columns", "rows"]},
            {"kind": "pattern", "cells": ["X.", "XX"], "colour": True},
        ],
        points={"ram": {"white": 2}},
        bonuses=[{"length": 5, "times": 2}],
        refill="gravity",
    )
    assert r.adjacent == ("orthogonal", "diagonal")  # one order: equal rules are equal
    again = DollyRules(**r.options())
    assert again == r and again.key() == r.key()
    assert DollyRules(**r.model_dump(exclude={"name", "description"})) == r
    # ``sheepfold rules show`` spells it out as a file that reads back as the same rules
    from sheepfold.rulesets import rules_toml

    data = tomllib.loads(rules_toml("dolly-crush", r))
    assert data.pop("game") == "dolly-crush" and data.pop("from") == "rulebook"
    assert DollyRules(**data) == r
    # a record's rules are validated strictly, from JSON (core/records.py)
    text = json.dumps(r.options())
    assert DollyRules.model_validate_json(text, strict=True, context={"strict": True}) == r


# -- words ---------------------------------------------------------------------------------------
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_the_words_describe_every_part_without_identifiers() -> None:
    r = DollyRules(
        shape=PLUS,
        adjacent=["orthogonal", "diagonal"],
        combinations=[
            {"kind": "line", "length": 4, "directions": ["rows", "diagonals"], "colour": True},
            {"kind": "pattern", "cells": ["XX", "XX"]},
        ],
        points={"ram": {"white": 2, "black": 4}},
        bonuses=[{"length": 5, "times": 2}],
        refill="gravity",
        cascades=True,
        rounds=3,
        end_points=30,
    )
    told = words.describe(r)
    assert list(told) == list(words.PARTS)
    text = " ".join(told.values())
    assert not SNAKE.search(text), SNAKE.search(text)
    assert "rows a-b columns 3-5, rows c-e columns 1-7, rows f-g columns 3-5" in told["flock"]
    assert "orthogonally or diagonally adjacent" in told["swaps"]
    assert (
        "line of 4 or more cards of one type and one colour along a row or a diagonal"
        in (told["combinations"])
    )
    assert "2 by 2 square" in told["combinations"]
    assert "A ram card scores white 2 points and black 4 points" in told["scoring"]
    assert "line of 5 or more scores double" in told["scoring"]
    assert "fall down its column" in told["refill"] and "again and again" in told["refill"]
    assert "3 rounds" in told["end"] and "30 points" in told["end"]
    assert not SNAKE.search(" ".join(words.summary(r)))


def test_differences_name_only_the_parts_that_differ() -> None:
    assert words.differences(DollyRules()) == {}
    diff = words.differences(DollyRules(refill="gravity", bonuses=[{"length": 3, "times": 2}]))
    assert list(diff) == ["scoring", "refill"]
    before, after = diff["refill"]
    assert "refilled from the top of the deck" in before and "fall down" in after
    base = DollyRules(rows=4, cols=4)
    assert list(words.differences(DollyRules(rows=4, cols=4, cascades=True), base)) == ["refill"]


def test_the_terminal_and_the_table_use_the_words() -> None:
    from sheepfold.games.dolly_crush.terminal import help_text, house_rules

    r = DollyRules(combinations=[{"kind": "pattern", "cells": ["XX", "XX"]}], refill="gravity")
    assert "a 2 by 2 square of cards of one type" in house_rules(r)
    assert "gravity refill" in house_rules(r)
    helped = help_text(DollyGame(2, r))
    assert words.describe(r)["combinations"] in helped and words.describe(r)["refill"] in helped


def test_bonus_points_show_in_the_view_and_come_back_from_it() -> None:
    rules = DollyRules(types=3, bonuses=[{"length": 4, "times": 2}])
    game = DollyGame(2, rules)
    deal = [B, B, L, B, F, F, L, B, F, L, L, F, F, L, B]  # no line
    s = game.new_initial_state(seed=0, deck=deal + [L, F, B, b, l, 5] * 8)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance())
    assert s.flock == deal
    s.apply(0)
    s.apply(game.swap_action("a3", "b3"))  # row a: four bells, double
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance())
    assert s.collected[0] == [B] * 4 and s.bonus == [4, 0] and s.scores()[0] == 8.0
    view = s.observe(0)
    assert view["bonus_points"] == [4, 0]
    assert game.determinize(view, seed=1).scores() == s.scores()


def test_the_gallery_describes_a_dolly_rule_set_part_by_part_in_words() -> None:
    from sheepfold.server.gallery import differences

    lines = differences(
        "dolly-crush", {}, {"refill": "gravity", "adjacent": ["orthogonal", "diagonal"]}
    )
    assert len(lines) == 2
    assert any("fall down its column" in line for line in lines)
    assert any("diagonally adjacent" in line for line in lines)
    assert not any("_" in line for line in lines)
