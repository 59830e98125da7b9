"""The conformance checker (sheepfold.core.conformance) on both games, every player count, every
Shave a Sheep variant and allowed combination, house rules and the graded Dolly Crush edition;
plus sabotage tests showing that each check can fail."""

from __future__ import annotations

import itertools

import pytest

from sheepfold.core.conformance import ConformanceError, check_game
from sheepfold.games import make
from sheepfold.games.shave_a_sheep.rules import VARIANTS
from sheepfold.rulesets import find_ruleset

ALLOWED_VARIANT_SETS = [
    list(c)
    for r in range(len(VARIANTS) + 1)
    for c in itertools.combinations(VARIANTS, r)
    if not {"howling-wolf", "my-friend-mr-wolf"} <= set(c)
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", ["dolly-rulebook", "dolly-graded"])
def test_conformance_dolly(players: int, edition: str) -> None:
    rules = find_ruleset(edition, "dolly-crush").rules
    report = check_game(make("dolly-crush", players, rules=rules), num_games=3, seed=players)
    assert report.games == report.terminal == 3
    assert report.decisions > 0 and report.chance_events >= 45


def test_conformance_dolly_house_decks() -> None:
    # a small deck (the game ends on the empty deck), heavy black cards, every breed
    check_game(
        make("dolly-crush", 2, white_per_type=3, black_per_type=1, black_points=5),
        num_games=4,
        seed=11,
    )
    check_game(
        make(
            "dolly-crush",
            4,
            breeds=["border-collie", "bobtail", "australian-shepherd", "pastore-maremmano"],
            dog_swaps={"bobtail": 0},
        ),
        num_games=2,
        seed=12,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", ALLOWED_VARIANT_SETS, ids=lambda v: "+".join(v) or "rulebook")
def test_conformance_shave(players: int, variants: list[str]) -> None:
    report = check_game(
        make("shave-a-sheep", players, variants=variants),
        num_games=2,
        seed=players * 10 + len(variants),
    )
    assert report.games == report.terminal == 2


def test_conformance_shave_house_rules() -> None:
    check_game(
        make(
            "shave-a-sheep", 3, wool=12, max_wool=3, die=["white/white", "x2", "gray/green", "pink"]
        ),
        num_games=3,
        seed=5,
    )
    check_game(
        make(
            "shave-a-sheep",
            2,
            variants=["howling-wolf"],
            die=["gray/pink", "x2"],
            reaction_weights=[3, 1],
        ),
        num_games=3,
        seed=6,
    )
    report = check_game(make("shave-a-sheep", 2, max_turns=7), num_games=3, seed=7)
    assert report.truncated > 0


HOUSE_OPTIONS = [
    dict(auto_shear=3),
    dict(wolf_takes="half", wolf_to="roller"),
    dict(wolf_takes=2),
    dict(shear_cost=2),
    dict(full_bonus=3),
    dict(target=8),
    dict(final_shear=False),
    dict(rerolls=2),
    dict(rerolls=1, variants=["howling-wolf"]),
    dict(auto_shear=4, wolf_to="roller", shear_cost=1, target=10, final_shear=False, rerolls=3),
]


@pytest.mark.parametrize("opts", HOUSE_OPTIONS, ids=lambda o: ",".join(o))
def test_conformance_shave_each_house_rule(opts: dict) -> None:
    """docs/spec/rulings.md, "House rules": every option passes the engine's conformance."""
    report = check_game(make("shave-a-sheep", 3, wool=16, **opts), num_games=3, seed=8)
    assert report.games == report.terminal == 3


# -- the checker can fail -------------------------------------------------------------------
def _expect_check(check: str, game, num_games: int = 2) -> None:  # noqa: ANN001
    with pytest.raises(ConformanceError) as info:
        check_game(game, num_games=num_games, seed=3)
    assert info.value.check == check, str(info.value)
    assert f"[{check}]" in str(info.value)


def test_checker_catches_shared_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.shave_a_sheep.game import ShaveState

    real = ShaveState.clone

    def leaky(self):  # noqa: ANN001, ANN202
        c = real(self)
        c.sheep = self.sheep  # shared list
        return c

    monkeypatch.setattr(ShaveState, "clone", leaky)
    _expect_check("clone-independent", make("shave-a-sheep", 2))


def test_checker_catches_half_applied_illegal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.dolly_crush.game import DollyState

    real = DollyState.illegal_reason

    def sloppy(self, action):  # noqa: ANN001, ANN202
        reason = real(self, action)
        if reason is not None and isinstance(action, int) and not isinstance(action, bool):
            self.swaps_left += 0 if action < 0 else 1  # mutates before refusing
        return reason

    monkeypatch.setattr(DollyState, "illegal_reason", sloppy)
    _expect_check("illegal-unchanged", make("dolly-crush", 2))


def test_checker_catches_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.dolly_crush.cards import card_code
    from sheepfold.games.dolly_crush.game import DollyState

    real = DollyState.observe

    def leaky(self, seat):  # noqa: ANN001, ANN202
        v = real(self, seat)
        v["next_cards"] = [card_code(c) for c in self.deck[::-1]]
        return v

    monkeypatch.setattr(DollyState, "observe", leaky)
    _expect_check("observe", make("dolly-crush", 2))


def test_checker_catches_wrong_probabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.shave_a_sheep.game import ShaveState

    real = ShaveState.chance_outcomes
    monkeypatch.setattr(
        ShaveState, "chance_outcomes", lambda self: [(a, p * 0.9) for a, p in real(self)]
    )
    _expect_check("chance", make("shave-a-sheep", 2))


def test_checker_catches_lost_wool(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.shave_a_sheep.game import ShaveState

    def lossy_shear(self, seat):  # noqa: ANN001, ANN202
        self.piles[seat] += max(0, self.sheep[seat] - 1)
        self.sheep[seat] = 0

    monkeypatch.setattr(ShaveState, "_shear", lossy_shear)
    _expect_check("conservation", make("shave-a-sheep", 2))


def test_checker_catches_unsorted_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.dolly_crush.game import DollyState

    real = DollyState.legal_actions
    monkeypatch.setattr(DollyState, "legal_actions", lambda self: real(self)[::-1])
    _expect_check("legal-sorted", make("dolly-crush", 2))


def test_checker_catches_nondeterminism(monkeypatch: pytest.MonkeyPatch) -> None:
    import random as _random

    from sheepfold.games.shave_a_sheep.game import ShaveState

    real = ShaveState.sample_chance
    monkeypatch.setattr(
        ShaveState, "sample_chance", lambda self, rng=None: real(self, rng or _random.Random())
    )
    with pytest.raises(ConformanceError) as info:
        check_game(make("shave-a-sheep", 2), num_games=2, seed=3)
    assert info.value.check in ("determinism", "record")


def test_checker_catches_a_line_left_in_the_flock(monkeypatch: pytest.MonkeyPatch) -> None:
    from sheepfold.games.dolly_crush import game as dg

    def no_cleanup(self: dg.DollyState) -> None:  # the engine fills but stops cleaning up
        if dg.EMPTY in self.flock and self.deck:
            self.phase = dg.DRAW
            return
        self._after_settled()

    monkeypatch.setattr(dg.DollyState, "_settle", no_cleanup)
    # about a third of the deals hold a line: 12 games make one certain for this seed
    _expect_check("no-line", make("dolly-crush", 2), num_games=12)


def test_checker_catches_a_determinize_that_loses_the_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sheepfold.games.shave_a_sheep.game import ShaveGame

    real = ShaveGame.determinize

    def forgetful(self, view, seed=None):  # noqa: ANN001, ANN202
        d = real(self, view, seed)
        d.piles = [0] * len(d.piles)
        return d

    monkeypatch.setattr(ShaveGame, "determinize", forgetful)
    _expect_check("determinize", make("shave-a-sheep", 2, wool=6))
