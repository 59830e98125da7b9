"""Hypothesis properties of both engines and of the records boundary.

Every property plays random games (configurations drawn too: player counts, every allowed
Shave a Sheep variant set, house rules, both Dolly Crush editions and a short deck) and checks,
in every reachable state, what the rules promise.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from sheepfold.core.protocol import IllegalAction, State
from sheepfold.core.records import RecordError, replay, summary, to_record
from sheepfold.games import make
from sheepfold.games.dolly_crush.cards import EMPTY, find_lines
from sheepfold.games.dolly_crush.game import DOG
from sheepfold.games.dolly_crush.rules import GRADED_DOG_SWAPS
from sheepfold.games.shave_a_sheep.game import ROLL
from sheepfold.games.shave_a_sheep.rules import VARIANTS

SHAVE_RULES: list[dict[str, Any]] = [
    {"variants": list(c)}
    for r in range(len(VARIANTS) + 1)
    for c in itertools.combinations(VARIANTS, r)
    if not {"howling-wolf", "my-friend-mr-wolf"} <= set(c)
] + [
    {"wool": 9, "max_wool": 2, "variants": ["cutting-costs"]},
    {"die": ["white/white", "x2", "gray/green", "pink/green"], "variants": ["my-friend-mr-wolf"]},
    {"die": ["gray/pink", "white", "x2"], "variants": ["howling-wolf"]},
    {"max_turns": 15},
]
DOLLY_RULES: list[dict[str, Any]] = [
    {},
    {"dog_swaps": {b: list(c) for b, c in GRADED_DOG_SWAPS.items()}},
    {"white_per_type": 3, "black_per_type": 1},  # 20 cards: the deck runs out
    {"white_per_type": 5, "black_per_type": 0, "black_points": 7},
]

configs = st.one_of(
    st.tuples(st.just("dolly-crush"), st.integers(2, 4), st.sampled_from(range(len(DOLLY_RULES)))),
    st.tuples(
        st.just("shave-a-sheep"), st.integers(2, 4), st.sampled_from(range(len(SHAVE_RULES)))
    ),
)


@cache
def game_of(name: str, players: int, rules_index: int) -> Any:
    rules = (DOLLY_RULES if name == "dolly-crush" else SHAVE_RULES)[rules_index]
    return make(name, players, rules=rules)


def walk(
    config: tuple[str, int, int],
    seed: int,
    on_state: Callable[[State], None],
    stop_after: int | None = None,
) -> State:
    """Play a random game (chance: mostly the seeded deck/die, sometimes another outcome),
    calling ``on_state`` on every state reached; stop early after ``stop_after`` steps."""
    game = game_of(*config)
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    steps = 0
    while True:
        on_state(s)
        if s.is_terminal() or (stop_after is not None and steps >= stop_after):
            return s
        if s.is_chance_node():
            s.apply(s.sample_chance(rng if rng.random() < 0.3 else None))
        else:
            s.apply(rng.choice(s.legal_actions()))
        steps += 1


seeds = st.integers(0, 2**31 - 1)


# -- conservation and the flock ----------------------------------------------------------------
@given(
    st.tuples(st.just("dolly-crush"), st.integers(2, 4), st.sampled_from(range(len(DOLLY_RULES)))),
    seeds,
)
def test_cards_are_conserved_in_every_reachable_state(config: Any, seed: int) -> None:
    size = game_of(*config).rules.deck_size()

    def check(s: Any) -> None:
        on_table = sum(1 for c in s.flock if c != EMPTY)
        assert on_table + len(s.deck) + len(s.returning) + sum(map(len, s.collected)) == size

    walk(config, seed, check)


@given(
    st.tuples(
        st.just("shave-a-sheep"), st.integers(2, 4), st.sampled_from(range(len(SHAVE_RULES)))
    ),
    seeds,
)
def test_wool_is_conserved_in_every_reachable_state(config: Any, seed: int) -> None:
    rules = game_of(*config).rules

    def check(s: Any) -> None:
        assert s.middle + sum(s.sheep) + sum(s.piles) == rules.wool
        assert min(s.sheep) >= 0 and max(s.sheep) <= rules.max_wool and s.middle >= 0

    walk(config, seed, check)


@given(
    st.tuples(st.just("dolly-crush"), st.integers(2, 4), st.sampled_from(range(len(DOLLY_RULES)))),
    seeds,
)
def test_no_line_in_the_flock_when_a_turn_starts(config: Any, seed: int) -> None:
    starts = []

    def check(s: Any) -> None:
        if s.phase == DOG:
            starts.append(1)
            assert find_lines(s.flock) == [] and EMPTY not in s.flock

    walk(config, seed, check)


@given(configs, seeds)
def test_score_is_the_recount_of_what_was_collected(config: Any, seed: int) -> None:
    def check(s: Any) -> None:
        if config[0] == "dolly-crush":
            pts = s.game.points
            assert s.scores() == [float(sum(pts[c] for c in pile)) for pile in s.collected]
        else:
            assert s.scores() == [float(p) for p in s.piles]
        if s.is_terminal():
            out = s.outcome()
            if not out.truncated:
                best = max(s.scores())
                assert list(out.winners) == [i for i, v in enumerate(s.scores()) if v == best]

    walk(config, seed, check)


# -- records, rejections, clones ------------------------------------------------------------
def at_boundary(s: Any) -> bool:
    if s.is_terminal():
        return True
    return s.phase == (DOG if s.game.name == "dolly-crush" else ROLL)


@given(configs, seeds, st.integers(0, 400))
def test_replaying_a_record_reproduces_the_game(config: Any, seed: int, stop: int) -> None:
    s = walk(config, seed, lambda s: None, stop_after=stop)
    while not at_boundary(s):  # finish the turn in progress: records hold whole turns
        s.apply(s.sample_chance() if s.is_chance_node() else s.legal_actions()[0])
    rec = to_record(s, [f"player {i}" for i in range(s.game.num_players)])
    out = replay(json.dumps(rec))
    assert out.error is None
    assert out.state.snapshot() == s.snapshot()
    assert summary(out.state, out.moves_applied) == summary(s, len(rec["moves"]))
    assert out.names == tuple(f"player {i}" for i in range(s.game.num_players))


junk_actions = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-3, 20),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.lists(st.integers(0, 3), max_size=2),
)


@given(configs, seeds, st.integers(0, 300), st.lists(junk_actions, min_size=1, max_size=6))
def test_a_rejected_move_leaves_the_state_exactly_as_it_was(
    config: Any, seed: int, stop: int, actions: list[Any]
) -> None:
    s = walk(config, seed, lambda s: None, stop_after=stop)
    for a in actions:
        if type(a) is int and s.illegal_reason(a) is None:
            continue  # a legal move: not this property
        before = copy.deepcopy(dict(s.snapshot()))
        reason = s.illegal_reason(a)
        assert isinstance(reason, str) and reason
        try:
            s.apply(a)
        except IllegalAction as e:
            assert str(e) == reason
        else:
            raise AssertionError(f"{a!r} was applied")
        assert dict(s.snapshot()) == before


@given(configs, seeds, st.integers(0, 300), seeds)
def test_clones_never_share_state(config: Any, seed: int, stop: int, seed2: int) -> None:
    s = walk(config, seed, lambda s: None, stop_after=stop)
    original = copy.deepcopy(dict(s.snapshot()))
    c = s.clone()
    rng = random.Random(seed2)
    while not c.is_terminal() and len(c.history) < len(s.history) + 200:
        c.apply(c.sample_chance(rng) if c.is_chance_node() else rng.choice(c.legal_actions()))
    assert dict(s.snapshot()) == original
    # and the other way round: playing on the original leaves an earlier clone alone
    c2 = s.clone()
    kept = copy.deepcopy(dict(c2.snapshot()))
    while not s.is_terminal() and len(s.history) < len(kept["history"]) + 200:
        s.apply(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    assert dict(c2.snapshot()) == kept


# -- bad input never gives a traceback --------------------------------------------------------
def _base_records() -> list[dict[str, Any]]:
    out = []
    for config, seed in (
        (("dolly-crush", 2, 0), 1),
        (("dolly-crush", 3, 1), 2),
        (("dolly-crush", 2, 2), 3),
        (("shave-a-sheep", 2, 0), 4),
        (("shave-a-sheep", 3, 3), 5),
        (("shave-a-sheep", 2, 4), 6),
        (("shave-a-sheep", 4, 1), 7),
        (("shave-a-sheep", 2, 6), 8),
    ):
        s = walk(config, seed, lambda s: None, stop_after=120)
        while not at_boundary(s):
            s.apply(s.sample_chance() if s.is_chance_node() else s.legal_actions()[0])
        rec = to_record(s)
        rec["moves"] = rec["moves"][:12]
        out.append(rec)
    return out


BASE_RECORDS = _base_records()
junk_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.lists(st.integers(-2, 5), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from(
        [
            "a0",
            "d1",
            "c6",
            "ram-pink",
            "goat-white",
            "gray/purple",
            "x3",
            "wolf",
            "raid",
            "send",
            "-1",
            "",
            "A1",
            "ram_black",
            "white/",
            "/",
        ]
    ),
)


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _parent(obj: Any, path: tuple) -> Any:
    for k in path[:-1]:
        obj = obj[k]
    return obj


@st.composite
def malformed_records(draw: Any) -> str:
    rec = copy.deepcopy(draw(st.sampled_from(BASE_RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["drop", "retype", "retype", "text-cut", "text-insert", "add"]))
        paths = _paths(rec) if isinstance(rec, (dict, list)) else []
        if kind in ("drop", "retype", "add") and paths:
            path = draw(st.sampled_from(paths))
            parent = _parent(rec, path)
            if kind == "drop":
                del parent[path[-1]]
            elif kind == "retype":
                parent[path[-1]] = draw(junk_values)
            elif isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=5))] = draw(junk_values)
        elif kind.startswith("text"):
            text = json.dumps(rec)
            cut = draw(st.integers(0, len(text)))
            if kind == "text-cut":
                return text[:cut]
            return (
                text[:cut]
                + draw(st.sampled_from(list('{}[],:"\\x0 \x00é') + ["NaN", "1e999"]))
                + text[cut:]
            )
    return json.dumps(rec)


RUNNER = CliRunner()


def _check_replay_api(text: str | bytes) -> None:
    try:
        out = replay(text)
    except RecordError as e:
        assert isinstance(e.message, str) and e.message.strip()
        assert "Traceback" not in e.message
        assert set(e.to_json()) >= {"error", "move"}
        return
    if out.error is not None:
        assert out.error.message.strip() and isinstance(out.error.move, int)
        assert out.moves_applied == out.error.move


def _check_replay_cli(text: str | bytes) -> None:
    result = RUNNER.invoke(app(), ["replay", "-", "--json"], input=text)
    assert result.exit_code in (0, 2), (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    data = json.loads(result.stdout)
    if result.exit_code == 2:
        assert isinstance(data["error"], str) and data["error"].strip() and "move" in data
    else:
        assert {"game", "finished", "scores", "winners", "moves_applied"} <= set(data)
    human = RUNNER.invoke(app(), ["replay", "-"], input=text)  # for people: same status
    assert human.exit_code == result.exit_code, (human.output, human.exception)
    assert human.exception is None or isinstance(human.exception, SystemExit), human.exception


@lru_cache(maxsize=1)
def app() -> Any:
    from sheepfold.cli.main import app as sheepfold_app

    return sheepfold_app


@given(malformed_records())
def test_malformed_records_give_a_clear_error_never_a_traceback(text: str) -> None:
    _check_replay_api(text)
    _check_replay_cli(text)


@given(st.binary(max_size=40))
def test_garbage_bytes_give_a_clear_error(data: bytes) -> None:
    _check_replay_api(data)
    _check_replay_cli(data)


cells = st.sampled_from([f"{r}{c}" for r in "abc" for c in range(1, 6)])
dolly_moves = st.fixed_dictionaries(
    {"dog": st.integers(-1, 4), "swaps": st.lists(st.tuples(cells, cells), max_size=5)},
    optional={"seat": st.integers(0, 4)},
)
shave_moves = st.fixed_dictionaries(
    {
        "roll": st.sampled_from(
            [
                "white",
                "x2",
                "white/pink",
                "white/green",
                "gray/pink",
                "gray/green",
                "gray/white",
                "green/pink",
                "pink/white",
                "pink",
                "gray/green/white",
            ]
        )
    },
    optional={
        "action": st.sampled_from(["grow", "double", "swap", "wolf", "shear"]),
        "target": st.integers(0, 4),
        "grabber": st.integers(0, 4),
        "grow": st.booleans(),
        "mode": st.sampled_from(["send", "raid"]),
        "seat": st.integers(0, 4),
    },
)


@given(st.sampled_from(range(len(BASE_RECORDS))), st.data())
def test_random_illegal_moves_give_a_clear_error_and_nothing_half_applied(
    i: int, data: Any
) -> None:
    rec = copy.deepcopy(BASE_RECORDS[i])
    moves = rec["moves"]
    k = data.draw(st.integers(0, len(moves)))
    bad = data.draw(dolly_moves if rec["game"] == "dolly-crush" else shave_moves)
    rec["moves"] = moves[:k] + [bad] + moves[k:]
    text = json.dumps(rec)
    _check_replay_api(text)
    _check_replay_cli(text)
    try:
        out = replay(text)
    except RecordError:
        return
    if out.error is not None:
        assert out.error.move >= k  # the moves before it were legal
        before = replay(json.dumps({**rec, "moves": rec["moves"][: out.error.move]}))
        assert before.error is None
        assert before.state.snapshot() == out.state.snapshot()  # nothing half-applied
