"""The Dolly Crush bot levels: registered names, legal whole games, view-only decisions."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from sheepfold.bots import available_bots, make_bot
from sheepfold.bots.tournament import TournamentConfig, run_tournament
from sheepfold.core.play import play_game, resolve_chance
from sheepfold.core.protocol import SheepfoldError
from sheepfold.games import make
from sheepfold.games.dolly_crush.game import SWAP0
from sheepfold.games.dolly_crush.search import apply_swaps, best_swaps, combination_points

# Budgets counted in playouts, never a clock (time=0): the same seed plays the same game under
# any load, so a test may compare two runs.
LEVELS = ["easy", "medium", "hard:time=0", "expert:iterations=24,time=0"]
ONE_SWAP = ["pastore-maremmano", "bobtail"]


def test_the_four_levels_are_registered_by_name() -> None:
    names = available_bots("dolly-crush")
    for level in ("easy", "medium", "hard", "expert"):
        assert level in names and names[level]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "breeds",
    [
        ONE_SWAP,
        ["australian-shepherd", "bobtail"],
        ["bobtail", "border-collie", "pastore-maremmano"],
    ],
)
def test_every_level_plays_whole_legal_games(level: str, breeds: list[str]) -> None:
    game = make("dolly-crush", players=len(breeds), breeds=breeds)
    bots = [
        make_bot(level if s == 0 else "medium", game, s, seed=s + 3) for s in range(len(breeds))
    ]
    state = play_game(game, bots, seed=11)  # play_game applies with apply(): illegal raises
    assert state.is_terminal()
    assert sum(state.returns()) == pytest.approx(1.0)


def test_graded_dog_cards_are_all_played() -> None:
    game = make(
        "dolly-crush",
        rules={"dog_swaps": {"pastore-maremmano": [1, 2, 3, 4], "bobtail": [1, 2, 3, 4]}},
        breeds=ONE_SWAP,
    )
    for level in ("easy", "medium", "hard:time=0", "expert:iterations=12,time=0"):
        state = play_game(
            game, [make_bot(level, game, 0, 1), make_bot("medium", game, 1, 2)], seed=4
        )
        assert state.is_terminal()


def _position(game, seed: int, decisions: int):  # type: ignore[no-untyped-def]
    """A game between medium bots stopped after some decisions (a decision is due)."""
    s = game.new_initial_state(seed=seed)
    bots = [make_bot("medium", game, p, p) for p in range(game.num_players)]
    resolve_chance(s)
    for _ in range(decisions):
        s.apply(bots[s.current_player()].act(s.observe(s.current_player())))
        resolve_chance(s)
    return s


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("decisions", [0, 2, 5])
def test_a_decision_does_not_depend_on_the_hidden_deck_order(level: str, decisions: int) -> None:
    game = make("dolly-crush", breeds=ONE_SWAP)
    state = _position(game, seed=21, decisions=decisions)
    other = state.clone()
    random.Random(99).shuffle(other.deck)  # same cards, another order: the view cannot tell
    assert other.deck != state.deck
    seat = state.current_player()
    assert state.observe(seat) == other.observe(seat)
    a = make_bot(level, game, seat, seed=5).act(state.observe(seat))
    b = make_bot(level, game, seat, seed=5).act(other.observe(seat))
    assert a == b
    # ...and the decision is legal in both
    assert state.illegal_reason(a) is None and other.illegal_reason(b) is None


@pytest.mark.parametrize("level", ["hard:time=0", "expert:iterations=400,time=0"])
def test_without_a_clock_a_slow_machine_plays_the_same_playouts(level: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``time=0``: the playout budget alone ends the search; a clock that jumps 10 s at every
    look (a very loaded machine) changes neither the work done nor the decision."""
    from sheepfold.bots import dolly, dolly_mc

    game = make("dolly-crush", breeds=ONE_SWAP)
    state = _position(game, seed=8, decisions=2)
    seat = state.current_player()
    view = state.observe(seat)

    def decide() -> tuple[int, int]:
        played = []
        real_mc, real_one = dolly_mc.playouts, dolly._playout

        def mc(ys, *args):  # type: ignore[no-untyped-def]
            played.append(len(ys) * len(args[4]))  # candidates x seeds
            return real_mc(ys, *args)

        def one(*args):  # type: ignore[no-untyped-def]
            played.append(1)
            return real_one(*args)

        with monkeypatch.context() as m:
            m.setattr(dolly_mc, "playouts", mc)
            m.setattr(dolly, "_playout", one)
            action = make_bot(level, game, seat, seed=5).act(view)
        return action, sum(played)

    calm = decide()
    clock = itertools.count(0.0, 10.0)
    monkeypatch.setattr(dolly, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    assert decide() == calm and calm[1] > 0


def test_medium_takes_the_most_points_of_the_search() -> None:
    game = make("dolly-crush", breeds=["australian-shepherd", "bobtail"])
    for seed in range(5):
        s = _position(game, seed=seed, decisions=0)
        flock = s.flock[:]
        bot = make_bot("medium", game, 0, 0)
        s.apply(bot.act(s.observe(0)))
        seq = []
        while s.current_player() == 0:
            a = bot.act(s.observe(0))
            seq.append(a - SWAP0)
            s.apply(a)
        best, _ = best_swaps(flock, 4, game.points)
        assert len(seq) == 4
        assert combination_points(apply_swaps(flock, seq), game.points) == best


def test_bad_bot_options_are_a_clear_error() -> None:
    game = make("dolly-crush")
    with pytest.raises(SheepfoldError, match="expert"):
        make_bot("expert:bogus=3", game, 0, 0)
    for bad in ("time=-1", "time=nan", "time=soon"):
        with pytest.raises(SheepfoldError, match="bad options for the hard bot"):
            make_bot(f"hard:{bad}", game, 0, 0)
    with pytest.raises(SheepfoldError, match="Dolly Crush"):
        from sheepfold.bots.dolly import GreedyDollyBot

        GreedyDollyBot(make("shave-a-sheep"), 0, 0)


def test_medium_beats_easy_over_100_duplicate_games() -> None:
    cfg = TournamentConfig(
        game="dolly-crush",
        bots=("medium", "easy"),
        games=100,
        duplicate=True,
        seed=1,
        breeds=tuple(ONE_SWAP),
        workers=1,
    )
    s = run_tournament(cfg).summary()
    row = s["head_to_head"][0]
    assert row["bot"] == "medium" and row["games"] == 100
    assert row["share"] > 0.6 and row["ci95"][0] > 0.5


def test_medium_against_itself_in_duplicate_is_exactly_even() -> None:
    # deterministic bots, every deal played from both seats: luck cancels out exactly
    cfg = TournamentConfig(
        game="dolly-crush",
        bots=("medium", "medium"),
        games=40,
        duplicate=True,
        seed=2,
        breeds=tuple(ONE_SWAP),
        workers=1,
    )
    s = run_tournament(cfg).summary()
    assert s["head_to_head"][0]["share"] == pytest.approx(0.5)
