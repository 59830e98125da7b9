"""Shave a Sheep's screens say the rules in play (issue 48, item 2): every example rule file,
every built-in rule set and a few house rules that the printed words got wrong are played by
seeded bots, and move by move what the terminal, the replay and the web table say is compared
with what the state changed.

What happened is found here without the engine's report (``ShaveState.fired``) that the
screens use: a trigger fired and changed something exactly when the same move played on a
copy of the game without that trigger ends elsewhere."""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sheepfold.cli.replay import happened, step_text
from sheepfold.core.protocol import CHANCE
from sheepfold.games.shave_a_sheep import words
from sheepfold.games.shave_a_sheep.game import ROLL, ShaveGame, ShaveState
from sheepfold.games.shave_a_sheep.table import ShaveTable, player
from sheepfold.games.shave_a_sheep.terminal import ShaveTerminal
from sheepfold.rulesets import builtin_rulesets, parse_ruleset, read_ruleset_file

DOCS = Path(__file__).parent.parent / "docs" / "rulesets"
FILES = sorted((DOCS / "shave-a-sheep").glob("*.toml")) + [
    p for p in sorted(DOCS.glob("*.toml")) if 'game = "shave-a-sheep"' in p.read_text()
]
#: house rules the printed words got wrong: a sheep shorn at 4 of 5, a move onto another
#: seat's safe pile (not an auto-shear), a shear of another player's sheep, a double of three
EXTRA = {
    "auto-four-gift": """
game = "shave-a-sheep"
name = "auto-four-gift"
auto_shear = 4
die = ["white", "x2", "white/pink", "gift", "gray/pink", "shear-other"]
[verbs.gift]
choose = "another player"
effects = [{ move = 2, from = "middle", to = "target pile" }]
[verbs.shear-other]
choose = "another player"
when = ["target sheep >= 1"]
effects = [{ shear = "target" }]
""",
    "double-three": """
game = "shave-a-sheep"
name = "double-three"
[verbs.double]
effects = [{ move = 3, from = "middle", to = "my sheep" }]
""",
}
NAMES = ["Mia", "Leo", "Ada", "Tom"]


def rulesets() -> list[tuple[str, Any]]:
    out = [(p.stem, read_ruleset_file(p).rules) for p in FILES]
    out += [(rs.name, rs.rules) for rs in builtin_rulesets() if rs.game == "shave-a-sheep"]
    out += [(k, parse_ruleset(tomllib.loads(v), "test").rules) for k, v in EXTRA.items()]
    return out


RULESETS = rulesets()


class Said:
    """A terminal context that keeps what the driver says."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def who(self, seat: int) -> str:
        return self.names[seat]


def _without(rules: Any, players: int, drop: int) -> ShaveGame:
    """The game without its trigger ``drop`` (the oracle's copy)."""
    g = ShaveGame(players, rules)
    t = g.program.triggers[drop]
    g.triggers_on = {on: tuple(x for x in ts if x[0] is not t) for on, ts in g.triggers_on.items()}
    return g


def _changed_by(g: ShaveGame, before: ShaveState, after: ShaveState) -> bool:
    """Whether the actions from ``before`` to ``after``, played in ``g`` (a game without one
    trigger), end elsewhere than ``after``."""
    other = g.determinize(before.observe(None), seed=before.seed)
    try:
        for _, a in after.history[len(before.history) :]:
            other.apply_unchecked(a)
    except Exception:  # the game without the trigger went otherwise (ended, another phase)
        return True
    return other.position() != after.position() or other.phase != after.phase


def _play(name: str, rules: Any, seed: int) -> int:
    """One seeded game, checked move by move; the auto-shears it saw."""
    players = rules.player_counts()[0]
    names = NAMES[:players]
    g = ShaveGame(players, rules)
    driver, table = ShaveTerminal(g), ShaveTable()
    oracles = [_without(rules, players, i) for i in range(len(g.program.triggers))]
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    turn_start = s.clone()
    auto_seen = 0
    while not s.is_terminal():
        who = s.current_player()
        if who == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        # the web table's buttons: one for each legal decision, in the rules' words
        labels = table.view(s, who, True)["labels"]
        legal = s.legal_actions()
        assert set(labels) == {g.names[a] for a in legal}, name
        for a in legal:
            label = labels[g.names[a]]
            assert not re.search(r"\bseat \d", label), (name, label)
            _, k = g.by_id[a]
            if k is not None and not g.by_id[a][0].words:
                assert player(k) in label, (name, label)
        a = rng.choice(legal)
        said = driver.describe(s, a, names)
        # the menu and log name a chosen player by name, never a seat counted from 0
        assert not re.match(r"[\w-]+ \d\b", said), (name, said)
        _, k = g.by_id[a]
        if k is not None:
            assert names[k] in said, (name, said)
        before = s.clone()
        notes = [text for _, text in table.narrate(before.clone(), who, a, True)]
        s.apply(a)
        while s.current_player() == CHANCE and not s.is_terminal():  # the terminal settles
            s.apply(s.sample_chance(rng))
        ctx = Said(names)
        driver.after_decision(ctx, before, s, a)  # type: ignore[arg-type]
        fired = [_changed_by(o, before, s) for o in oracles]
        auto = [line for line in ctx.lines if line.startswith("Auto-shear")]
        web_auto = [n for n in notes if n.startswith("Auto-shear")]
        assert bool(auto) == fired[0] == bool(web_auto), (name, ctx.lines, fired)
        if auto:
            auto_seen += 1
            seat = s.turn  # the auto-shear shears the next roller's sheep
            m = re.match(
                rf"Auto-shear: {names[seat]}'s sheep carries (\d+) \(at least (\d+)\)", auto[0]
            )
            assert m, auto
            assert int(m.group(2)) == rules.shear_at <= int(m.group(1)) <= rules.max_wool
            assert f"{player(seat)}'s sheep carries {m.group(1)}" in web_auto[0]
        for i, t in enumerate(g.program.triggers[1:], start=1):  # the rule file's own
            told = [line for line in ctx.lines if words.trigger(t, g.program.setup.wolves) in line]
            assert bool(told) == fired[i], (name, ctx.lines, fired)
        # the replay: the move in words (what was rolled, what was done), then the same lines
        if s.is_terminal() or s.phase == ROLL:
            step = step_text(turn_start, s, None, names)
            assert said in step and "action " not in step and "target " not in step, step
            assert happened(turn_start, s, names)[-len(ctx.lines) :] == ctx.lines or not ctx.lines
            turn_start = s.clone()
    return auto_seen


@pytest.mark.parametrize(("name", "rules"), RULESETS, ids=[n for n, _ in RULESETS])
def test_every_screen_says_what_the_move_did(name: str, rules: Any) -> None:
    seen = sum(_play(name, rules, seed) for seed in range(4))
    if name in ("shave-rulebook", "auto-four-gift", "cutting-costs"):
        assert seen, name  # the games checked an auto-shear too


def _labels(rules: Any) -> dict[str, str]:
    """Every button a seat is offered in a few seeded games: action name -> label."""
    g = ShaveGame(2, rules)
    table = ShaveTable()
    out: dict[str, str] = {}
    for seed in range(4):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal():
            who = s.current_player()
            if who == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            out.update(table.view(s, who, True)["labels"])
            s.apply(rng.choice(s.legal_actions()))
    return out


def test_buttons_say_the_rules_in_play() -> None:
    """A double that grows three, a wolf that takes half onto the roller's safe pile, an own
    verb: each button says what it does, never the printed rule's words or the verb's id."""
    by = dict(RULESETS)
    double = _labels(by["double-three"])["double"]
    assert "three pieces" in double and "two" not in double, double
    wolf = _labels(by["greedy-wolf"])["wolf seat 1"]
    assert "half the wool, rounded up" in wolf and "onto your safe pile" in wolf, wolf
    assert "back to the middle" not in wolf
    own = _labels(by["auto-four-gift"])
    assert own["shear-other seat 0"] == (
        "Shear-other: shear {player 0}'s sheep onto its owner's safe pile"
    )
    assert (
        own["gift seat 1"]
        == "Gift: take up to two pieces from the middle onto {player 1}'s safe pile"
    )
    rulebook = _labels(by["shave-rulebook"])
    assert (
        rulebook["wolf seat 0"]
        == "Wolf: take all the wool from {player 0}'s sheep back to the middle"
    )
