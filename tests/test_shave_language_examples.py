"""The rule language's Shave a Sheep examples (docs/rulesets/shave-a-sheep/, issue 27): each
file is checked by ``sheepfold rules check``, played to the end by bots, replayed from its
record; each part does what its words say, on hand-built positions; the words have no
identifiers; hostile files are refused with the reason and where."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.protocol import RulesError
from sheepfold.core.records import replay
from sheepfold.games import make, parse_rules
from sheepfold.games.shave_a_sheep.game import ShaveGame, ShaveState
from sheepfold.games.shave_a_sheep.words import describe, differences
from sheepfold.rulesets import builtin_rulesets, read_ruleset_file

runner = CliRunner()
EXAMPLES = Path(__file__).parent.parent / "docs" / "rulesets" / "shave-a-sheep"
FILES = sorted(EXAMPLES.glob("*.toml"))
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def game_of(name: str, players: int = 2) -> ShaveGame:
    rules = read_ruleset_file(EXAMPLES / f"{name}.toml").rules
    g = make("shave-a-sheep", players, rules)
    assert isinstance(g, ShaveGame)
    return g


def at(g: ShaveGame, face: str) -> ShaveState:
    s = g.new_initial_state(seed=0)
    s.apply(g.face_index(face))
    return s


def test_every_example_is_shipped() -> None:
    assert [f.stem for f in FILES] == [
        "catch-up",
        "fleece-storm",
        "steal-face",
        "teams",
        "thirty-turns",
        "two-wolves",
        "wolf-third",
        "woolly-start",
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_is_checked_played_to_the_end_and_replayed(path: Path, tmp_path: Path) -> None:
    check = runner.invoke(app, ["rules", "check", str(path)])
    assert check.exit_code == 0, check.output
    assert "a valid shave-a-sheep rule set" in " ".join(check.output.split())
    players = read_ruleset_file(path).rules.player_counts()[0]
    seats = [x for i in range(players) for x in ("--seat", ("bot:greedy", "bot:random")[i % 2])]
    rec = tmp_path / "game.json"
    play = runner.invoke(
        app,
        ["play", "shave-a-sheep", "--rules", str(path), *seats, "--seed", "3", "--save", str(rec)],
    )
    assert play.exit_code == 0, play.output
    assert "The game ended because" in " ".join(play.output.split())
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0, again.output
    out = replay(rec.read_text())
    assert out.error is None and out.state.is_terminal()
    data = json.loads(rec.read_text())
    # the file's parts round-trip: options -> record -> the same rules
    assert data["rules"] == read_ruleset_file(path).rules.options()
    assert out.state.game.rules.key() == read_ruleset_file(path).rules.key()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_words_are_words(path: Path) -> None:
    rules = read_ruleset_file(path).rules
    g = make("shave-a-sheep", rules.player_counts()[0], rules)
    assert isinstance(g, ShaveGame)
    for part, text in describe(g.program):
        assert not SNAKE.search(text), (part, text)
        assert text and not text[0].isupper(), (part, text)
    rulebook = ShaveGame(g.num_players).program
    changes = differences(rulebook, g.program)
    assert changes, "an example changes the rulebook"
    for line in changes:
        assert not SNAKE.search(line), line


def test_the_words_of_the_examples() -> None:
    def words(name: str, players: int = 2) -> dict[str, str]:
        return dict(describe(game_of(name, players).program))

    assert words("steal-face")["steal"] == (
        "choose another player: take one piece from the chosen player's safe pile onto your "
        "safe pile (only when the chosen player's safe pile holds at least one piece)"
    )
    assert words("wolf-third")["wolf"] == (
        "choose another player: take a third of the wool, rounded down, from the chosen "
        "player's sheep onto your sheep"
    )
    assert words("fleece-storm")["storm"] == (
        "take one piece from every other player's sheep back to the middle"
    )
    assert "your safe pile is smaller than every other: take one piece from the middle onto " in (
        " ".join(words("catch-up").values())
    )
    assert "every sheep starts with two pieces" in words("woolly-start")["setup"]
    assert "two wolf pieces" in words("two-wolves")["setup"]
    assert "send the second wolf to the chosen player" in words("two-wolves")["cub"]
    assert "partners' safe piles count together" in words("teams", 4)["setup"]
    assert words("thirty-turns")["end"].startswith(
        "the game ends when the middle is empty or every player has had 30 turns"
    )
    # the difference part by part, in the same words
    assert differences(ShaveGame(2).program, game_of("wolf-third").program) == [
        "wolf: choose another player: take all the wool from the chosen player's sheep back to "
        "the middle → choose another player: take a third of the wool, rounded down, from the "
        "chosen player's sheep onto your sheep"
    ]


# -- what each part does ------------------------------------------------------------------
def test_steal_takes_one_piece_of_a_chosen_pile_only_when_there_is_one() -> None:
    g = game_of("steal-face")
    s = at(g, "steal")
    assert s.legal_actions() == [12]  # nobody has a pile: pass
    s = g.new_initial_state(seed=0)
    s.piles, s.middle = [0, 3], 27
    s.apply(g.face_index("steal"))
    steal = g.verbs["steal"]
    assert s.legal_actions() == [steal.base + 1]
    assert s.action_to_string(steal.base + 1) == "steal seat 1"
    s.apply(steal.base + 1)
    assert s.piles == [1, 2] and s.total_wool() == 30
    s = at(g, "steal")
    assert "seat 1's safe pile holds at least one piece" in (s.illegal_reason(steal.base + 1) or "")


def test_teams_count_partners_piles_together_and_win_together() -> None:
    g = game_of("teams", 4)
    with pytest.raises(RulesError, match="the teams name seat 2"):
        game_of("teams", 2)
    s = g.new_initial_state(seed=0)
    s.piles, s.middle = [5, 4, 3, 0], 18
    assert s.scores() == [8.0, 4.0, 8.0, 4.0]
    s.middle, s.piles = 0, [5, 4, 3, 0]
    s.sheep = [0, 0, 0, 18]
    s._final_shear("middle")
    assert s.outcome() is not None and s.outcome().winners == (1, 3)  # type: ignore[union-attr]
    assert s.observe(None)["teams"] == [[0, 2], [1, 3]]


def test_catch_up_grows_the_sheep_of_the_player_alone_last_before_the_roll() -> None:
    g = game_of("catch-up")
    s = g.new_initial_state(seed=0)
    assert s.sheep == [0, 0]  # a tie is not alone last
    s.piles, s.middle = [3, 0], 27
    s.apply(g.face_index("white"))
    s.apply(0)  # seat 0 grows; seat 1 is alone last: it grows before rolling
    assert s.turn == 1 and s.sheep == [1, 1] and s.middle == 25


def test_every_sheep_starts_with_two_pieces() -> None:
    for n in (2, 3, 4):
        s = game_of("woolly-start", n).new_initial_state(seed=0)
        assert s.sheep == [2] * n and s.middle == 30 - 2 * n


def test_two_wolf_pieces_are_sent_and_raid_apart() -> None:
    g = game_of("two-wolves")
    s = g.new_initial_state(seed=0)
    s.sheep, s.middle = [0, 4], 26
    s.apply(g.face_index("cub/cub-raid/green"))
    cub, raid = g.verbs["cub"], g.verbs["cub-raid"]
    assert raid.base not in s.legal_actions()  # the second wolf is in the middle
    s.apply(cub.base + 1)
    assert s.wolves == [None, 1] and s.wolf is None and s.sheep == [0, 3] and s.piles == [1, 0]
    assert s.observe(None)["wolves"] == [None, 1]
    s.apply(g.face_index("white"))
    s.apply(0)  # seat 1 grows: the second wolf stands next to it, so it may not raid
    s.apply(g.face_index("cub/cub-raid/green"))
    assert cub.base + 1 in s.legal_actions() and raid.base in s.legal_actions()
    s.apply(raid.base)  # seat 0 raids the sheep the second wolf stands next to
    assert s.wolves == [None, None] and s.piles == [3, 0] and s.sheep == [0, 2]
    c = s.clone()
    c.wolves[1] = 0
    assert s.wolves[1] is None  # clones never share state


def test_the_wolf_takes_a_third_rounded_down_onto_the_rollers_sheep() -> None:
    g = game_of("wolf-third")
    s = g.new_initial_state(seed=0)
    s.sheep, s.middle = [1, 5], 24
    s.apply(g.face_index("gray/pink"))
    s.apply(7 + 1)
    assert s.sheep == [2, 4] and s.middle == 24  # 5 // 3 = 1
    s = g.new_initial_state(seed=0)
    s.sheep, s.middle = [4, 2], 24
    s.apply(g.face_index("gray/pink"))
    s.apply(7 + 1)
    assert s.sheep == [4, 2]  # 2 // 3 = 0


def test_the_storm_returns_one_piece_of_every_other_sheep() -> None:
    g = game_of("fleece-storm", 3)
    s = g.new_initial_state(seed=0)
    s.sheep, s.middle = [2, 0, 3], 25
    s.apply(g.face_index("storm"))
    s.apply(g.verbs["storm"].base)
    assert s.sheep == [2, 0, 2] and s.middle == 26


def test_thirty_turns_each_end_the_game() -> None:
    g = game_of("thirty-turns")
    s = g.new_initial_state(seed=0)
    s.middle, s.piles = 30, [0, 0]
    while not s.is_terminal():
        s.apply(s.game.face_index("gray/pink") if s.current_player() < 0 else 2)  # shear
    assert s.ended_by == "turns" and s.turns == 59


# -- hostile and meaningless files ----------------------------------------------------------
VERB = {"effects": [{"move": 1, "from": "middle", "to": "my sheep"}]}


@pytest.mark.parametrize(
    "rules, words",
    [
        ({"verbs": {f"v{i}": VERB for i in range(17)}}, "verbs: at most 16 verbs, not 17"),
        (
            {"verbs": {"v": {"effects": [VERB["effects"][0]] * 9}}, "die": ["v"]},
            "verbs.v.effects",
        ),
        ({"verbs": {"v": {**VERB, "when": ["alone last"] * 9}}, "die": ["v"]}, "verbs.v.when"),
        ({"triggers": [{"on": "turn start", **VERB}] * 9}, "triggers"),
        ({"die": ["white"] * 17}, "at most 16 faces"),
        ({"verbs": {"x" * 25: VERB}}, "at most 24 characters"),
        ({"verbs": {"v": VERB}}, "verbs.v: no face of the die shows it"),
        (
            {"triggers": [{"on": "after shear", "effects": [{"shear": "my"}]}]},
            "would fire itself for ever",
        ),
        (
            {
                "triggers": [
                    {
                        "on": "turn start",
                        "effects": [{"move": 1, "from": "target pile", "to": "middle"}],
                    }
                ]
            },
            "triggers.0.effects.0.from: 'target' is the player a verb chooses",
        ),
        (
            {
                "verbs": {"v": {"effects": [{"move": 1, "from": "partner pile", "to": "my pile"}]}},
                "die": ["v"],
            },
            "verbs.v.effects.0.from: 'partner' needs teams",
        ),
        (
            {
                "verbs": {"v": {"effects": [{"move": 1, "from": "wolf sheep", "to": "my pile"}]}},
                "die": ["v"],
            },
            "no wolf pieces are in play",
        ),
        (
            {
                "verbs": {"v": {"effects": [{"move": 1, "from": "middle", "to": "my shep"}]}},
                "die": ["v"],
            },
            "verbs.v.effects.0.to: 'my shep' is not a place",
        ),
        (
            {
                "verbs": {"v": {"effects": [{"move": "half", "from": "middle", "to": "my sheep"}]}},
                "die": ["v"],
            },
            "say how a fraction is rounded",
        ),
        ({"verbs": {"swap": VERB}}, "the printed swap chooses another player"),
        ({"end": {"middle_empty": False}}, "needs another end"),
        ({"setup": {"sheep": 6}}, "a sheep carries at most max_wool = 5"),
        ({"setup": {"teams": [[0, 1], [1, 2]]}}, "seat 1 is in two teams"),
        ({"variants": ["my-friend-mr-wolf"], "setup": {"wolves": 0}}, "wolves is at least 1"),
    ],
)
def test_a_bad_rule_file_is_refused_saying_what_and_where(rules: dict, words: str) -> None:
    with pytest.raises(RulesError) as e:
        parse_rules("shave-a-sheep", rules)
    assert words in str(e.value), str(e.value)


def test_an_alias_of_the_shorthand_given_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "both.toml"
    path.write_text('game = "shave-a-sheep"\nwool = 20\n[setup]\nwool = 24\n')
    with pytest.raises(RulesError, match="setup.wool and wool say the same thing"):
        read_ruleset_file(path)
    path.write_text('game = "shave-a-sheep"\n[setup]\nwool = 24\ncap = 4\n')
    rules = read_ruleset_file(path).rules
    assert (rules.wool, rules.max_wool, rules.options()) == (24, 4, {"wool": 24, "max_wool": 4})


def test_the_printed_rule_sets_keep_their_keys_and_options() -> None:
    """No language part appears in a built-in rule set's key or options (records, caches)."""
    for rs in builtin_rulesets():
        if rs.game != "shave-a-sheep":
            continue
        for part in ("setup", "verbs", "triggers", "end"):
            assert f"'{part}'" not in rs.rules.key()
            assert part not in rs.rules.options()


def test_the_terminal_says_what_the_rules_do_and_reads_own_verbs() -> None:
    from sheepfold.games.shave_a_sheep.terminal import action_text, face_text, parse_move

    names = ["ann", "bob"]
    s = at(game_of("wolf-third"), "gray/pink")
    wolf = dict((a, t) for a, t in ((a, action_text(s, a, names)) for a in s.legal_actions()))[8]
    assert (
        wolf
        == "wolf bob (take a third of the wool, rounded down, from bob's sheep onto your sheep)"
    )
    assert "back to the middle" not in wolf  # the rulebook's words no longer hold
    roller = at(ShaveGame(2), "gray/pink")
    assert "back to the middle" in action_text(roller, 8, names)
    g = game_of("steal-face")
    s = g.new_initial_state(seed=0)
    s.piles, s.middle = [0, 3], 27
    s.apply(g.face_index("steal"))
    assert parse_move(s, "steal bob", names) == parse_move(s, "steal 2", names) == 15
    assert face_text(g, g.face_index("steal")) == "steal (steal)"
    assert action_text(s, 15, names).startswith("steal bob (take one piece from bob's safe pile")


def test_a_decision_is_read_by_its_name_as_the_protocol_reads_it() -> None:
    """ShaveState.string_to_action looks a decision's name up in the game's names: the action,
    or the refusal, that naming every legal action and comparing gives (protocol.State's),
    for the printed rule sets and the examples' own verbs, in every phase of played games;
    its apply_named (unchecked) applies what the protocol's (checked) applies, or nothing."""
    import random
    from typing import Any

    from sheepfold.core.protocol import CHANCE, IllegalAction, State

    def read(s: ShaveState, text: str) -> object:
        try:
            return s.string_to_action(text)
        except IllegalAction as e:
            return str(e)

    def protocol(s: ShaveState, text: str) -> object:
        try:
            return State.string_to_action(s, text)
        except IllegalAction as e:
            return str(e)

    def applied(s: ShaveState, text: str, apply: Any) -> object:
        trial = s.clone()
        try:
            return apply(trial, text), trial.snapshot()
        except IllegalAction as e:
            assert trial == s  # nothing half-applied
            return str(e)

    shave = [rs.rules for rs in builtin_rulesets() if rs.game == "shave-a-sheep"]
    shave += [read_ruleset_file(f).rules for f in FILES]
    games = [make("shave-a-sheep", r.player_counts()[-1], r) for r in shave]
    for i, g in enumerate(games):
        assert isinstance(g, ShaveGame)
        s, rng = g.new_initial_state(seed=i), random.Random(i)
        texts = [*g.names.values(), "roll white", "grab seat 1", "  Grow ", "SWAP   seat 1", "x"]
        while not s.is_terminal():
            for text in texts:
                assert read(s, text) == protocol(s, text), (text, s)
                assert applied(s, text, ShaveState.apply_named) == applied(
                    s, text, State.apply_named
                ), (text, s)
            p = s.current_player()
            s.apply(s.sample_chance() if p == CHANCE else rng.choice(s.legal_actions()))
        assert read(s, "grow") == protocol(s, "grow")
