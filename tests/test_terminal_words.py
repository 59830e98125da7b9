"""Plain words at the terminal and in the words every front end shares (issue 51): bots by their
level's words, dog cards numbered 1-4 as the web shows them (typed and told), no ruling's
number, Dolly Crush's cards by their words, and Dolly Crush ruling 6's end in the ruling's own
words (the terminal's end screen, the web's end reason, the log, the lab's endings)."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.drivers import table_driver, terminal_driver
from sheepfold.core.words import Msg
from sheepfold.games import make
from sheepfold.games.dolly_crush import words as dolly_words
from sheepfold.games.dolly_crush.terminal import parse_move
from sheepfold.lab import endings
from sheepfold.server.i18n import localize

runner = CliRunner()
RAN_OUT = "the sheep cards ran out: the last cards in the deck kept making lines"
#: a game of two types whose clean-up stops at once: Dolly Crush ruling 6's end
CLEANUP_END = ["--set", "types=2", "--set", "max_cleanup_rounds=1"]


def play(*args: str, lines: tuple[str, ...] = ()) -> str:
    res = runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())


def test_the_terminal_names_bots_by_their_level_and_never_cites_a_ruling() -> None:
    out = play("dolly-crush", "--seat", "bot:greedy", "--seat", "bot:random", "--seed", "2")
    assert "Greedy bot" in out and "Random bot" in out
    assert "bot:" not in out
    assert "ruling" not in out.lower()


def test_two_bots_of_one_level_keep_apart() -> None:
    out = play("shave-a-sheep", "--seat", "greedy", "--seat", "greedy", "--seed", "1")
    assert "Greedy bot (2)" in out and "bot:" not in out


def test_the_terminal_numbers_dog_cards_from_1() -> None:
    game = make("dolly-crush", 2)
    state = game.new_initial_state(seed=1)
    while state.current_player() < 0:
        state.apply_unchecked(state.sample_chance(None))
    assert parse_move(state, "dog 1") == 0 and parse_move(state, "d4") == 3
    assert parse_move(state, "4") == 3
    driver = terminal_driver(game)
    assert driver.describe(state, 0, ["Ann", "Ben"]).startswith("dog 1 ")
    prompt = driver.prompt(state, 0, "Ann", ["Ann", "Ben"])
    assert "dog 1 (" in prompt and "dog 4 (" in prompt and "dog 0" not in prompt
    # a typed number the web does not show is refused, in the web's numbers
    for typed in ("dog 0", "dog 5"):
        try:
            parse_move(state, typed)
        except Exception as e:  # BadInput
            assert "dog cards 1 to 4" in str(e)
        else:
            raise AssertionError(f"{typed!r} was taken")
    assert "cards 1 to 4" in driver.help()


def test_a_person_types_dog_cards_as_the_web_shows_them() -> None:
    out = play(
        "dolly-crush",
        "--seat",
        "ann",
        "--seat",
        "bot:greedy",
        "--seed",
        "2",
        lines=("dog 0", "quit"),
    )
    assert "there is no dog card 0: a player has dog cards 1 to 4" in out
    assert "dog 1 (" in out


def test_dolly_cards_by_their_words() -> None:
    said = dolly_words.cards_words(["flower-white", "lamb-black", "bell-white", "bell-white"])
    assert said == "a white flower, a black lamb and 2 white bell cards"
    assert "-" not in said
    # the table's log says the sheep a turn took in those words
    game, rng = make("dolly-crush", 2), random.Random(3)
    state, driver, took = game.new_initial_state(seed=3), table_driver("dolly-crush"), []
    while not state.is_terminal() and not took:
        p = state.current_player()
        a = state.sample_chance(None) if p < 0 else rng.choice(state.legal_actions())
        took = [t for _, t in driver.narrate(state, p, a, True) if t.startswith("took ")]
    assert took and re.search(r": (a|\d+) (white|black) \w+", took[0]), took
    assert not re.search(r"\w-(white|black)|\((white|black)\)", took[0]), took


def test_ruling_6s_end_in_the_rulings_words_at_the_terminal() -> None:
    out = play("dolly-crush", "--seat", "bot:greedy", "--seat", "bot:random", *CLEANUP_END)
    assert f"The game ended because {RAN_OUT}." in out
    assert "clean-up gave up" not in out and "rounds of lines" not in out


def test_ruling_6s_end_in_the_log_and_the_end_reason() -> None:
    """The table's log says the end (the driver's note at the draw that ends it) and the end
    reason the web sends (server/broadcast.py: the terminal driver's ``end_reason``)."""
    game = make("dolly-crush", 2, {"types": 2, "max_cleanup_rounds": 1})
    state = game.new_initial_state(seed=1)
    driver, notes = table_driver("dolly-crush"), []
    while not state.is_terminal():
        p = state.current_player()
        a = state.sample_chance(None) if p < 0 else state.legal_actions()[0]
        notes += [text for _, text in driver.narrate(state, p, a, True)]
    assert state.aborted
    assert notes[-1] == RAN_OUT
    reason = terminal_driver(game).end_reason(state, ["Ann", "Ben"])
    assert reason == f"The game ended because {RAN_OUT}."
    assert isinstance(reason, Msg)  # translated where it is sent
    assert endings.words("cleanup") == RAN_OUT


def test_ruling_6s_words_in_italian() -> None:
    said = localize(Msg("The game ended because {why}.", why=dolly_words.RAN_OUT), "it")
    assert said == (
        "La partita è finita perché le carte pecora sono finite: le ultime carte del mazzo "
        "continuavano a formare linee."
    )
    cards = localize(dolly_words.cards_words(["flower-white", "lamb-black"]), "it")
    assert cards == "una carta fiore bianca e una carta agnello nera"


def test_a_shave_move_is_told_with_names_never_your() -> None:
    """A move once made is told to everyone at the terminal: each player by name (the menu
    still speaks to the player who decides)."""
    out = play("shave-a-sheep", "--seat", "bot:greedy", "--seat", "bot:random", "--seed", "3")
    plays = [line for line in out.split("Random bot") if "plays: grow" in line]
    assert plays
    assert "take one piece from the middle onto Greedy bot's sheep" in out
    assert "onto Random bot's sheep" in out
    assert "your sheep" not in out and "your safe pile" not in out


def test_rule_set_titles_read_as_titles() -> None:
    from sheepfold.server.plain_words import ruleset_title

    assert ruleset_title("shave-a-sheep", "my-friend-mr-wolf") == "My Friend Mr Wolf"
    assert ruleset_title("shave-a-sheep", "race-to-twelve") == "Race to Twelve"
    assert ruleset_title("shave-a-sheep", "howling-wolf") == "Howling Wolf"
    assert ruleset_title("dolly-crush", "dolly-graded") == "Graded"
    said = localize(Msg(ruleset_title("shave-a-sheep", "my-friend-mr-wolf")), "it")
    assert said == "Il mio amico signor Lupo"  # the catalog has the title


def test_an_engine_reason_reaches_a_player_without_its_ruling_number():
    from sheepfold.core.words import for_players

    assert for_players("the face white offers grow, not wolf (ruling 3)") == (
        "the face white offers grow, not wolf"
    )
    assert for_players("dog card 2 has already been played (ruling 7: a dog card is spent)") == (
        "dog card 2 has already been played (a dog card is spent)"
    )


def test_the_shave_terminal_counts_seats_from_1_as_the_web_does():
    from sheepfold.core.drivers import BadInput
    from sheepfold.games.shave_a_sheep import game as sg
    from sheepfold.games.shave_a_sheep.game import ShaveGame
    from sheepfold.games.shave_a_sheep.terminal import parse_move

    g = ShaveGame(3)
    s = g.new_initial_state(seed=0)
    s.apply(g.face_index("white/green"))
    names = ["Ann", "Ben", "Cy"]
    assert parse_move(s, "swap 3", names) == parse_move(s, "swap cy", names) == sg.SWAP0 + 2
    with pytest.raises(BadInput, match=r"there is no seat 0 \(seats 1 to 3\)"):
        parse_move(s, "swap 0", names)
