"""Random rule programs drawn from the whole Shave a Sheep rule language (issue 27): every
part (setup, own and redefined verbs with conditions and effects on every kind of place and
amount, faces naming verbs, triggers on every event, the end, teams, a second wolf) keeps the
protocol's promises (``check_game``: conservation, records that replay to the same state,
clones that share nothing, determinism), and every game ends within a bound or ``rules check``
says it may not."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheepfold.core.conformance import check_game
from sheepfold.core.protocol import RulesError
from sheepfold.games import parse_rules
from sheepfold.games.endings import check_ending
from sheepfold.games.shave_a_sheep.game import ShaveGame
from sheepfold.games.shave_a_sheep.words import describe

AMOUNTS = [1, 2, 3, "all", "half up", "half down", "third down", "2/3 up", "up to 2"]
WHOSE = ["my", "left", "right", "leader", "last", "others"]
CONDITIONS = [
    "my sheep >= 1",
    "my pile < 3",
    "middle > 5",
    "room on my sheep",
    "alone last",
    "not alone leading",
    "others sheep <= 4",
]
COLOUR_FACES = ["white", "x2", "white/pink", "white/green", "gray/pink", "gray/green", "pink"]


@st.composite
def places(draw: Any, target: bool, partner: bool, wolves: int) -> str:
    whose = list(WHOSE) + ["target"] * target + ["partner"] * partner
    whose += ["wolf", "wolf 2"][:wolves]
    w = draw(st.sampled_from(whose))
    return (
        "middle"
        if draw(st.booleans()) and draw(st.booleans())
        else f"{w} {draw(st.sampled_from(['sheep', 'pile']))}"
    )


@st.composite
def effects(draw: Any, target: bool, partner: bool, wolves: int, shear: bool) -> dict[str, Any]:
    kinds = ["move", "move", "swap"] + ["shear"] * shear + ["wolf"] * bool(wolves)
    kind = draw(st.sampled_from(kinds))
    if kind == "move":
        src = draw(places(target, partner, wolves))
        dst = draw(places(target, partner, wolves).filter(lambda p: p != src))
        return {"move": draw(st.sampled_from(AMOUNTS)), "from": src, "to": dst}
    if kind == "shear":
        return {"shear": draw(st.sampled_from(["my", "others"] + ["target"] * target))}
    if kind == "swap":
        return {"swap": "target" if target else "left with right"}
    piece = draw(st.integers(1, wolves))
    at = draw(st.sampled_from(["home", "left"] + ["target"] * target))
    return {"wolf": at, "piece": piece}


@st.composite
def rule_files(draw: Any) -> tuple[int, dict[str, Any]]:
    teams = draw(st.booleans()) and draw(st.booleans())
    players = 4 if teams else draw(st.integers(2, 4))
    wolves = draw(st.integers(0, 2))
    data: dict[str, Any] = {"wool": draw(st.integers(8, 24)), "max_wool": draw(st.integers(2, 5))}
    setup: dict[str, Any] = {"sheep": draw(st.integers(0, 2)), "wolves": wolves}
    if teams:
        setup["teams"] = [[0, 2], [1, 3]]
    setup["first"] = draw(st.integers(0, players - 1))
    data["setup"] = setup
    verbs: dict[str, Any] = {}
    for i in range(draw(st.integers(0, 3))):
        targeted = draw(st.booleans())
        verb: dict[str, Any] = {
            "effects": draw(
                st.lists(effects(targeted, teams, wolves, True), min_size=1, max_size=3)
            ),
            "when": draw(st.lists(st.sampled_from(CONDITIONS), max_size=2)),
        }
        if targeted:
            verb["choose"] = "another player"
        verbs[f"verb-{i}"] = verb
    if draw(st.booleans()):  # a printed verb redefined
        verbs["wolf"] = {
            "choose": "another player",
            "effects": draw(st.lists(effects(True, teams, wolves, True), min_size=1, max_size=2)),
        }
    if verbs:
        data["verbs"] = verbs
    faces = draw(st.lists(st.sampled_from(COLOUR_FACES), min_size=1, max_size=4))
    faces += [f"{name}/white" if draw(st.booleans()) else name for name in verbs if name != "wolf"]
    data["die"] = faces
    triggers = []
    for _ in range(draw(st.integers(0, 2))):
        on = draw(st.sampled_from(["turn start", "after shear", "middle empty"]))
        triggers.append(
            {
                "on": on,
                "when": draw(st.lists(st.sampled_from(CONDITIONS), max_size=1)),
                "effects": draw(
                    st.lists(
                        effects(False, teams, wolves, on != "after shear"), min_size=1, max_size=2
                    )
                ),
            }
        )
    if triggers:
        data["triggers"] = triggers
    if draw(st.booleans()):
        data["end"] = {"turns_each": draw(st.integers(1, 12))}
    return players, data


@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(rule_files())
def test_random_rule_programs_keep_every_promise(drawn: tuple[int, dict[str, Any]]) -> None:
    players, data = drawn
    try:
        rules = parse_rules("shave-a-sheep", data)
    except RulesError:
        assume(False)
        raise
    assume(players in rules.player_counts())
    game = ShaveGame(players, rules)
    for _part, text in describe(game.program):  # every part has words
        assert text
    # the protocol's promises, under a turn limit (a drawn program may never end)
    limited = ShaveGame(players, rules.model_copy(update={"max_turns": 40}))
    check_game(limited, num_games=1, seed=7, max_steps=1_000, illegal_probes=1)
    # the game ends within a bound, or the rules check says it may not
    s = game.new_initial_state(seed=11)
    for _ in range(1_500):
        if s.is_terminal():
            break
        s.apply(s.legal_actions()[0] if s.current_player() >= 0 else s.sample_chance())
    if not s.is_terminal():  # solved: it may never end; else the check says it did not solve
        found = check_ending("shave-a-sheep", rules)  # (and `rules check` plays games instead)
        said = "may never end" if found.exact else "not solved exactly"
        assert found.refusal is not None or any(said in n for n in found.notes), found
    if rules.end is not None and rules.end.turns_each is not None:
        assert s.is_terminal() and s.turns < rules.end.turns_each * players
