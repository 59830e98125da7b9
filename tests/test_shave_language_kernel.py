"""The rule language in the compiled kernel: every part of Shave a Sheep's language
(:mod:`sheepfold.games.shave_a_sheep.program`) has a kernel counterpart, and the exhaustive
engine-kernel agreement (every reachable position, as ``tests/test_shave_kernel.py`` checks the
printed rules) covers each part at least once, by a coverage check over the parts the rule sets
below compile to (not a hand-kept list: a new part of the language fails it until a rule set
uses it).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from sheepfold.games.shave_a_sheep import policy, program
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
from sheepfold.games.shave_a_sheep.kernel import layout as L
from sheepfold.games.shave_a_sheep.kernel import policy as kpolicy
from sheepfold.games.shave_a_sheep.kernel import step
from sheepfold.games.shave_a_sheep.rules import ShaveRules
from test_shave_kernel import HOUSE, RULES, check_chance, reachable, vector

TARGETED = "another player"

#: small rule sets written in the language (each part of it used by one at least: see
#: test_the_agreement_covers_every_part)
LANGUAGE: list[tuple[int, dict[str, Any]]] = [
    # a face that steals one piece from another player's safe pile
    (2, dict(wool=6, max_wool=2, die=["white", "steal", "pink", "gray"], verbs={
        "steal": {"choose": TARGETED, "when": ["target pile >= 1"],
                  "effects": [{"move": 1, "from": "target pile", "to": "my pile"}]}})),
    # teams of two at four players, a gift to the partner
    (4, dict(wool=5, max_wool=1, die=["white", "pink", "gift"], setup={"teams": [[0, 2], [1, 3]]},
             verbs={"gift": {"effects": [{"move": 1, "from": "my sheep", "to": "partner sheep"}]}})),
    # catch-up: the player alone with the smallest pile grows one piece before rolling
    (3, dict(wool=5, max_wool=2, die=["white", "pink", "gray", "x2"], triggers=[
        {"on": "turn start", "when": ["alone last"],
         "effects": [{"move": 1, "from": "middle", "to": "my sheep"}]}])),
    # every sheep starts with two pieces; seat 1 starts
    (2, dict(wool=8, max_wool=3, setup={"sheep": 2, "first": 1})),
    # Mr. Wolf with two wolf pieces
    (2, dict(wool=5, max_wool=2, variants=["my-friend-mr-wolf"], setup={"wolves": 2},
             die=["white", "gray", "pink", "wolf2/raid2"], verbs={
        "wolf2": {"choose": TARGETED, "effects": [
            {"wolf": "target", "piece": 2}, {"move": 1, "from": "target sheep", "to": "my pile"}]},
        "raid2": {"when": ["wolf 2 away"], "effects": [
            {"move": 2, "from": "wolf 2 sheep", "to": "my pile"}, {"wolf": "home", "piece": 2}]}})),
    # the wolf takes a third, rounded down, onto the roller's sheep
    (2, dict(wool=7, max_wool=3, verbs={"wolf": {"choose": TARGETED, "effects": [
        {"move": "third down", "from": "target sheep", "to": "my sheep"}]}})),
    # a face that returns one piece from every other sheep to the middle
    (3, dict(wool=5, max_wool=2, die=["white", "pink", "tax", "x2"], verbs={
        "tax": {"effects": [{"move": 1, "from": "others sheep", "to": "middle"}]}})),
    # the game ends after 2 turns each or when the middle is empty
    (2, dict(wool=8, max_wool=3, end={"turns_each": 2})),
    # it goes on with an empty middle, and ends after 3 turns each
    (2, dict(wool=4, max_wool=2, end={"middle_empty": False, "turns_each": 3},
             die=["white", "pink", "green"])),
    # neighbours, the leader and the last, at-most and negated conditions
    (3, dict(wool=5, max_wool=2, die=["white", "nudge", "turn", "pink"], verbs={
        "nudge": {"when": ["not my sheep >= 2", "middle <= 4"],
                  "effects": [{"move": 1, "from": "leader pile", "to": "last pile"}]},
        "turn": {"when": ["room on left sheep"],
                 "effects": [{"swap": "left with right"}, {"move": 1, "from": "middle",
                                                             "to": "left sheep"}]}})),
    # after a shear and when the middle is empty
    (2, dict(wool=6, max_wool=2, die=["white", "pink", "x2"], triggers=[
        {"on": "after shear", "when": ["my pile >= 2"],
         "effects": [{"move": 1, "from": "middle", "to": "my sheep"}]},
        {"on": "middle empty", "when": ["alone leading"],
         "effects": [{"move": 1, "from": "my sheep", "to": "middle"}]}])),
    # the race with a changed take and destination, and two verbs after it
    (2, dict(wool=5, max_wool=3, variants=["howling-wolf"], verbs={"wolf": {
        "choose": TARGETED, "race": {"take": "half up", "to": "my pile",
                                     "then": ["grow", "double"]}}})),
    # shears of others and of a target, a wolf piece at the others, swaps with the others
    (3, dict(wool=5, max_wool=2, setup={"wolves": 1}, die=["white", "clip", "gather", "x2"],
             verbs={
        "clip": {"choose": TARGETED, "when": ["target sheep >= 1", "wolf sheep <= 1"],
                 "effects": [{"shear": "target", "cost": 1}, {"wolf": "left"}]},
        "gather": {"effects": [{"shear": "others", "bonus": 1}, {"swap": "others"},
                               {"move": "half down", "from": "wolf sheep", "to": "middle"}]}})),
]  # fmt: skip


def ids(cases: list[tuple[int, dict[str, Any]]]) -> list[str]:
    return [f"{n}p-{sorted(o)}-{i}" for i, (n, o) in enumerate(cases)]


def game_of(players: int, opts: dict[str, Any]) -> ShaveGame:
    return ShaveGame(players, ShaveRules(**opts))


# -- every part has a kernel counterpart ---------------------------------------------------------
def _literal(cls: type, name: str) -> set[str]:
    return set(typing.get_args(typing.get_type_hints(cls)[name]))


def language_parts() -> set[str]:
    """Every part of the language, from program.py's own types (its effect classes, the
    Literals of amounts, places, conditions and triggers) and the features of its setup, end,
    teams and race."""
    parts = {f"effect:{t.__name__}" for t in typing.get_args(program.Effect)}
    parts |= {f"amount:{k}" for k in _literal(program.Amount, "kind")}
    parts |= {f"amount:fraction-up:{b}" for b in (True, False)}
    parts |= {f"whose:{w}" for w in typing.get_args(program.Whose)}
    parts |= {f"where:{w}" for w in typing.get_args(program.Where)}
    parts |= {f"condition:{k}" for k in _literal(program.Condition, "kind")}
    parts |= {"condition:negate"}
    parts |= {f"trigger:{k}" for k in _literal(program.Trigger, "on")}
    parts |= {f"setup:{f.name}" for f in dataclasses.fields(program.Setup)}
    parts |= {f"end:{f.name}" for f in dataclasses.fields(program.End)}
    parts |= {"teams", "race", "race:take", "race:to", "race:then", "verb:targeted", "verb:own"}
    parts |= {"rerolls", "reaction_weights", "max_turns"}
    return parts


def _places(e: object) -> Iterator[program.Place]:
    if isinstance(e, program.Move):
        yield e.source
        yield e.to


def _whose(e: object) -> Iterator[str]:
    if isinstance(e, program.Move):
        yield e.source.whose
        yield e.to.whose
    elif isinstance(e, program.Shear):
        yield e.whose
    elif isinstance(e, program.Swap):
        yield e.a
        yield e.b
    elif isinstance(e, program.PlaceWolf):
        yield e.at


def parts_used(prog: program.Program) -> set[str]:
    """The parts of the language a program uses (a setting that differs from the printed
    rules' counts as its part used)."""
    out: set[str] = set()
    printed = program.Setup()
    for f in dataclasses.fields(program.Setup):
        if getattr(prog.setup, f.name) != getattr(printed, f.name):
            out.add(f"setup:{f.name}")
    end = program.End()
    for f in dataclasses.fields(program.End):
        if getattr(prog.end, f.name) != getattr(end, f.name):
            out.add(f"end:{f.name}")
    if prog.teams:
        out.add("teams")
    if prog.rerolls:
        out.add("rerolls")
    if prog.reaction_weights is not None:
        out.add("reaction_weights")
    if prog.max_turns is not None:
        out.add("max_turns")
    effects: list[object] = []
    conds: list[program.Condition] = []
    for v in prog.verbs:
        effects += v.effects
        conds += v.when
        if v.targeted and v.effects:
            out.add("verb:targeted")
        if v.base >= program.FIRST_OWN_ID:
            out.add("verb:own")
        if v.race is not None:
            out.add("race")
            if v.race.take != program.Race().take:
                out.add("race:take")
            if v.race.to != program.Race().to:
                out.add("race:to")
            if v.race.then != program.Race().then:
                out.add("race:then")
            effects.append(program.Move(v.race.take, program.TARGET_SHEEP, v.race.to))
    for t in prog.triggers:
        out.add(f"trigger:{t.on}")
        effects += t.effects
        conds += t.when
    for e in effects:
        out.add(f"effect:{type(e).__name__}")
        out |= {f"whose:{w}" for w in _whose(e)}
        for p in _places(e):
            out.add(f"where:{p.where}")
        if isinstance(e, program.Move):
            out.add(f"amount:{e.amount.kind}")
            if e.amount.kind == "fraction":
                out.add(f"amount:fraction-up:{e.amount.up}")
    for c in conds:
        out.add(f"condition:{c.kind}")
        if c.negate:
            out.add("condition:negate")
        if c.kind in ("at-least", "at-most", "room"):
            out.add(f"whose:{c.place.whose}")
            out.add(f"where:{c.place.where}")
    return out


def test_the_agreement_covers_every_part() -> None:
    """Every part of the language is played by one rule set at least of the exhaustive
    agreement tests (this file's and tests/test_shave_kernel.py's)."""
    used: set[str] = set()
    for players, opts in LANGUAGE + RULES + HOUSE:
        used |= parts_used(game_of(players, opts).program)
    missing = language_parts() - used
    assert not missing, f"parts of the language no agreement rule set uses: {sorted(missing)}"


def test_the_encoder_knows_every_kind_of_part() -> None:
    """The kernel's codes are exactly program.py's kinds (a new kind without a counterpart
    fails here)."""
    assert set(L.EFFECT_KINDS) == set(typing.get_args(program.Effect))
    assert set(L.AMOUNT_KINDS) == _literal(program.Amount, "kind")
    assert set(L.WHOSE_CODES) == set(typing.get_args(program.Whose))
    assert set(L.WHERES) == set(typing.get_args(program.Where))
    assert set(L.CONDITION_KINDS) == _literal(program.Condition, "kind")
    assert set(L.EVENTS) == _literal(program.Trigger, "on")


def _with(game: ShaveGame, prog: program.Program) -> ShaveGame:
    g = game_of(game.num_players, {})
    g.program = prog
    return g


def test_one_of_every_part_encodes_and_an_unknown_part_is_refused() -> None:
    """Every agreement rule set encodes; a part the kernel has no counterpart for is refused
    with its reason, never played as something else."""
    for players, opts in LANGUAGE:
        prm = L.rules_record(game_of(players, opts))
        assert prm.shape == (L.PRM_LEN,)
    base = game_of(2, {})
    prog = base.program

    @dataclasses.dataclass(frozen=True)
    class Teleport:  # an effect the language does not have
        seat: str = "me"

    grow = prog.verb("grow")
    odd_effect = dataclasses.replace(grow, effects=(Teleport(),))  # type: ignore[arg-type]
    odd_cond = dataclasses.replace(grow, when=(program.Condition("sunny"),))  # type: ignore[arg-type]
    odd_place = dataclasses.replace(
        grow,
        effects=(program.Move(program.ALL, program.Place("barn"), program.MY_SHEEP),),  # type: ignore[arg-type]
    )
    odd_whose = dataclasses.replace(
        grow,
        effects=(program.Move(program.ALL, program.Place("sheep", "uncle"), program.MY_SHEEP),),  # type: ignore[arg-type]
    )
    odd_amount = dataclasses.replace(
        grow,
        effects=(program.Move(program.Amount("most"), program.MIDDLE, program.MY_SHEEP),),  # type: ignore[arg-type]
    )
    for verb, why in [
        (odd_effect, "Teleport"),
        (odd_cond, "sunny"),
        (odd_place, "barn"),
        (odd_whose, "uncle"),
        (odd_amount, "most"),
    ]:
        verbs = tuple(verb if v.name == "grow" else v for v in prog.verbs)
        with pytest.raises(L.KernelRefusal, match=why):
            L.rules_record(_with(base, dataclasses.replace(prog, verbs=verbs)))
    odd_trigger = program.Trigger("midnight", ())  # type: ignore[arg-type]
    with pytest.raises(L.KernelRefusal, match="midnight"):
        L.rules_record(_with(base, dataclasses.replace(prog, triggers=(odd_trigger,))))


def test_the_compiled_form_is_cached_by_content() -> None:
    """Two games of equal rule programs share one encoding (a copy each)."""
    players, opts = LANGUAGE[0]
    L._record.cache_clear()
    a = L.rules_record(game_of(players, opts))
    b = L.rules_record(game_of(players, dict(opts)))
    assert L._record.cache_info().hits == 1
    assert np.array_equal(a, b) and a is not b


# -- the exhaustive agreement on the language ---------------------------------------------------
def kernel_legal(s: ShaveState, prm: np.ndarray) -> list[int]:
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
        step.race_take(st, a - L.WOLF0, prm)
    elif a == L.REROLL:
        step.reroll(st)
    else:
        step.finish(st, a, prm)
    return st.tolist()


def after(s: ShaveState, a: int) -> ShaveState:
    c = s.clone()
    c.apply(a)
    return c


@pytest.mark.parametrize("players,opts", LANGUAGE, ids=ids(LANGUAGE))
def test_every_reachable_position_agrees_on_the_language(
    players: int, opts: dict[str, Any]
) -> None:
    game = game_of(players, opts)
    prm, probs = L.rules_record(game), L.probabilities(game)
    trial = np.zeros(L.STATE_LEN, dtype=np.int64)
    start = np.zeros(L.STATE_LEN, dtype=np.int64)
    step.new_game(start, prm)
    assert start.tolist() == vector(game.new_initial_state(0))
    positions = reachable(game)
    phases = {s.phase for s in positions}
    for s in positions:
        st = L.from_state(s)
        if s.phase == OVER:
            shares = [step.share(st, i, prm) for i in range(players)]
            out = s.outcome()
            assert out is not None and st[L.OVER] == 1
            assert shares == ([0.0] * players if out.truncated else list(out.shares())), s
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
        got = kpolicy.greedy(st, me, acts, len(legal), s.phase == HOWL_TARGET, prm, trial)
        assert got == policy.greedy_action(s), s
    assert len(positions) > 20 and phases >= {ROLL, CHOOSE, OVER}
    if game.program.verb("wolf").race is not None:
        assert phases >= {GRAB, HOWL_TARGET, HOWL_GROW}


# -- the issue's examples on the fast paths -----------------------------------------------------
#: the examples of docs/rulesets/shave-a-sheep/ (issue 27), as rule files: (file stem, players,
#: the file's content); the shipped files replace these where they exist (examples_here)
EXAMPLES: list[tuple[str, int, dict[str, Any]]] = [
    ("steal-face", 2, dict(die=["white", "x2", "white/pink", "white/green", "gray/pink", "steal"],
        verbs={"steal": {"choose": TARGETED, "when": ["target pile >= 1"],
                         "effects": [{"move": 1, "from": "target pile", "to": "my pile"}]}})),
    ("teams", 4, dict(setup={"teams": [[0, 2], [1, 3]]})),
    ("catch-up", 3, dict(triggers=[{"on": "turn start", "when": ["alone last"],
                                    "effects": [{"move": 1, "from": "middle", "to": "my sheep"}]}])),
    ("two-starting-pieces", 2, dict(setup={"sheep": 2})),
    ("two-wolves", 2, dict(variants=["my-friend-mr-wolf"], setup={"wolves": 2},
        die=["white", "x2", "white/pink", "gray/green", "gray/pink", "wolf2/raid2"], verbs={
        "wolf2": {"choose": TARGETED, "effects": [
            {"wolf": "target", "piece": 2}, {"move": 1, "from": "target sheep", "to": "my pile"}]},
        "raid2": {"when": ["wolf 2 away"], "effects": [
            {"move": 2, "from": "wolf 2 sheep", "to": "my pile"}, {"wolf": "home", "piece": 2}]}})),
    ("wolf-third", 2, dict(verbs={"wolf": {"choose": TARGETED, "effects": [
        {"move": "third down", "from": "target sheep", "to": "my sheep"}]}})),
    ("return-one", 3, dict(die=["white", "x2", "white/pink", "white/green", "gray/pink", "tax"],
        verbs={"tax": {"effects": [{"move": 1, "from": "others sheep", "to": "middle"}]}})),
    ("thirty-turns", 2, dict(end={"turns_each": 30})),
]  # fmt: skip


def examples_here() -> list[tuple[str, int, dict[str, Any]]]:
    """The shipped example files where s-engine has written them (docs/rulesets/shave-a-sheep/),
    else this file's."""
    import json
    import tomllib
    from pathlib import Path

    folder = Path(__file__).parents[1] / "docs" / "rulesets" / "shave-a-sheep"
    files = sorted(folder.glob("*.toml")) + sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return EXAMPLES
    out = []
    for f in files:
        data = tomllib.loads(f.read_text()) if f.suffix == ".toml" else json.loads(f.read_text())
        players = 4 if data.get("setup", {}).get("teams") else 2
        out.append((f.stem, players, {k: v for k, v in data.items() if k != "game"}))
    return out


@pytest.mark.parametrize("name,players,opts", examples_here(), ids=[e[0] for e in examples_here()])
def test_the_lab_runs_each_example_on_the_fast_path(
    name: str, players: int, opts: dict[str, Any], tmp_path: Any
) -> None:
    import json

    from typer.testing import CliRunner

    from sheepfold.cli.main import app

    rules = tmp_path / f"{name}.json"
    rules.write_text(json.dumps({"game": "shave-a-sheep", "name": name, **opts}))
    args = ["lab", "run", "shave-a-sheep", "-r", str(rules), "-p", str(players), "-n", "200"]
    r = CliRunner().invoke(app, [*args, "-w", "1", "--engine", "fast", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 200 and data["job"]["engine"] == "fast"


def _refusing(players: int = 2) -> ShaveGame:
    """A game whose program the kernel cannot play: a swap of every other sheep with every
    other sheep."""
    game = game_of(players, {})
    swap = program.Swap("others", "others")
    verbs = tuple(
        dataclasses.replace(v, effects=(swap,)) if v.name == "swap" else v
        for v in game.program.verbs
    )
    game.program = dataclasses.replace(game.program, verbs=verbs)
    return game


def test_every_fast_consumer_refuses_what_the_kernel_cannot_play() -> None:
    """The lab's fast path, the batched simulator and the solver refuse such a program with
    the reason, never play the printed rules instead."""
    from types import SimpleNamespace

    from sheepfold.games.shave_a_sheep import solver as S
    from sheepfold.lab import fastsim_shave
    from sheepfold.vector import ShaveBatch

    game = _refusing()
    why = "cannot play this rule set: a swap of every other sheep"
    job = SimpleNamespace(bots=("random", "random"), make_game=lambda seed: game)
    assert why in (fastsim_shave.unsupported(job) or "")
    with pytest.raises(L.KernelRefusal, match=why):
        ShaveBatch(4, 2, game=game)
    with pytest.raises(L.KernelRefusal, match=why):
        fastsim_shave.simulate(game, np.arange(2), np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(S.SolverError, match=why):
        _space_of(game)


def _space_of(game: ShaveGame) -> Any:
    """The solver's space of an engine game (its program, not only its rules)."""
    from sheepfold.games.shave_a_sheep import solver as S

    orig = S.ShaveGame
    try:
        S.ShaveGame = lambda n, rules: game  # type: ignore[assignment,misc]
        return S.Space(game.rules, game.num_players)
    finally:
        S.ShaveGame = orig  # type: ignore[misc]


@pytest.mark.parametrize(
    "opts,why",
    [
        (EXAMPLES[0][2], "takes wool out of a safe pile"),
        (EXAMPLES[7][2], "turns each"),
        (dict(end={"middle_empty": False, "turns_each": 3}), "turns each"),
    ],
)
def test_the_solver_refuses_with_the_reason(opts: dict[str, Any], why: str) -> None:
    from sheepfold.games.shave_a_sheep import solver as S

    with pytest.raises(S.SolverError, match=why):
        S.Space(ShaveRules(**opts), 2)


def test_the_solver_solves_the_new_state_exactly() -> None:
    """Starting wool and the first seat are the kernel's new game: the solver's value of such
    a program is the printed game's value at that position (solved separately)."""
    from sheepfold.games.shave_a_sheep import solver as S

    base = S.solve_minimax(ShaveRules(wool=10, max_wool=3))
    start = base.space.index(1, [2, 2], [0, 0], None)
    got = S.solve_minimax(ShaveRules(wool=10, max_wool=3, setup={"sheep": 2, "first": 1}))
    assert abs(got.start_value - float(base.V[start, 0])) < 1e-12


# -- the short paths of step.py (a verb's shape, layout's V_FAST) ---------------------------------
#: rule sets whose verbs take every short path: a grow of a number, a shear (a cost and a bonus),
#: a swap, a take to the middle or to the roller's pile; a rule set's own verbs of those shapes
SHAPED: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (3, dict(wolf_takes="half", wolf_to="roller", variants=["cutting-costs"], full_bonus=2)),
    (2, dict(wolf_takes=2, rerolls=1)),
    (2, dict(wool=20, die=["white", "x2", "pink", "green", "gray", "sprout", "snip"], verbs={
        "sprout": {"when": ["room on my sheep"],
                   "effects": [{"move": 3, "from": "middle", "to": "my sheep"}]},
        "snip": {"effects": [{"shear": "my", "cost": 2, "bonus": 1}]}})),
]  # fmt: skip


def _shapes(game: ShaveGame, prm: np.ndarray) -> dict[str, tuple[int, ...]]:
    rows = (L.P_VERB + i * L.VW for i in range(len(game.program.verbs)))
    return {
        v.name: tuple(int(x) for x in prm[r + L.V_FAST : r + L.V_A1 + 1])
        for v, r in zip(game.program.verbs, rows, strict=True)
    }


def test_a_verbs_shape_comes_from_its_data_not_its_name() -> None:
    """The encoder finds a verb's shape in its conditions and effects: a rule set's own verb
    of a printed verb's shape takes its short path, a printed verb changed takes the rows."""
    game = game_of(*SHAPED[-1])
    shapes = _shapes(game, L.rules_record(game))
    assert shapes["grow"] == (L.FAST_GROW, 1, 0) and shapes["double"] == (L.FAST_GROW, 2, 0)
    assert shapes["sprout"] == (L.FAST_GROW, 3, 0)
    assert shapes["shear"] == (L.FAST_SHEAR, 0, 0) and shapes["snip"] == (L.FAST_SHEAR, 2, 1)
    assert shapes["swap"][0] == L.FAST_SWAP and shapes["wolf"] == (L.FAST_TAKE, 0, 0)
    half = game_of(*SHAPED[2])
    assert _shapes(half, L.rules_record(half))["wolf"] == (L.FAST_TAKE, 1, 0)
    for players, opts in LANGUAGE:  # a condition, a second effect, another place: the rows
        g = game_of(players, opts)
        for v in g.program.verbs:
            shape = _shapes(g, L.rules_record(g))[v.name][0]
            if v.name in ("steal", "gift", "tax", "nudge", "turn", "wolf2", "raid", "raid2"):
                assert shape == L.FAST_NONE, v.name
    third = game_of(*LANGUAGE[5])
    assert _shapes(third, L.rules_record(third))["wolf"][0] == L.FAST_NONE  # onto my sheep
    after_shear = game_of(*LANGUAGE[10])
    assert after_shear.program.triggers
    assert _shapes(after_shear, L.rules_record(after_shear))["shear"][0] == L.FAST_NONE


def _rows_only(prm: np.ndarray) -> np.ndarray:
    """``prm`` with every verb's shape cleared: every verb played from its rows."""
    out = prm.copy()
    for v in range(L.MAX_VERBS):
        out[L.P_VERB + v * L.VW + L.V_FAST] = L.FAST_NONE
    return out


@pytest.mark.parametrize("players,opts", SHAPED, ids=ids(SHAPED))
def test_the_short_paths_play_what_the_rows_say(players: int, opts: dict[str, Any]) -> None:
    """The same games, random and greedy, with every verb on its short path and with every
    verb played from its rows."""
    from sheepfold.games.shave_a_sheep.kernel import play
    from sheepfold.lab.fastsim_shave import exact_for

    game = game_of(players, opts)
    prm = L.rules_record(game)
    rows = _rows_only(prm)
    assert not np.array_equal(prm, rows)
    legal = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    ix = exact_for(game, ("greedy",)).ix
    greedy = (np.full(players, play.GREEDY, dtype=np.int64), np.zeros((0, 1, 1), dtype=np.int8))
    for seed in range(200):
        a = np.zeros(L.STATE_LEN, dtype=np.int64)
        b = np.zeros(L.STATE_LEN, dtype=np.int64)
        assert play.play_random(seed, a, prm, legal) == play.play_random(seed, b, rows, legal)
        assert np.array_equal(a, b), seed
        ta = play.play(seed, a, greedy, prm, ix, play.scratch())
        assert ta == play.play(seed, b, greedy, rows, ix, play.scratch())
        assert np.array_equal(a, b), seed
        assert play.play_greedy(seed, b, rows, *play.scratch()) == ta  # turn_plain's loop
        assert np.array_equal(a, b), seed
