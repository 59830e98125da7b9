"""Games that can go on for ever: every seat's share is its own, never 1 - another's, and the
share of games that never end is reported beside the win shares (issue 18's two examples)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.protocol import CHANCE, TERMINAL
from sheepfold.games.shave_a_sheep import solver as S
from sheepfold.games.shave_a_sheep.game import ShaveGame
from sheepfold.games.shave_a_sheep.rules import ShaveRules

CAP_1_CUTTING_COSTS = ShaveRules(wool=12, max_wool=1, variants=("cutting-costs",))
GRAY_WHITE_DIE = ShaveRules(wool=12, die=("gray/white",))


def _solve_json(tmp_path, rules: ShaveRules, *extra: str) -> dict:
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"game": "shave-a-sheep", **rules.model_dump(exclude_none=True)}))
    res = CliRunner().invoke(
        app, ["solve", "shave-a-sheep", "-r", str(path), "--no-cache", "--json", *extra]
    )
    assert res.exit_code == 0, res.output
    return json.loads(res.output.strip().splitlines()[-1])


def _play_out(rules: ShaveRules, sol: S.Solution, limit: int = 10_000) -> tuple[float, ...] | None:
    """Both minimax policies played through the engine on a die of one face (no chance at all):
    the returns, or None when a position comes back (the game cycles for ever)."""
    st = ShaveGame(2, rules).new_initial_state(0)
    seen = set()
    for _ in range(limit):
        p = st.current_player()
        if p == TERMINAL:
            return tuple(st.returns())
        if p == CHANCE:
            ((a, _),) = st.chance_outcomes()
        else:
            key = (st.phase, st.turn, st.middle, tuple(st.sheep), tuple(st.piles), st.wolf)
            if key in seen:
                return None
            seen.add(key)
            a = sol.choice(st)
        st.apply(a)
    raise AssertionError("neither ended nor cycled")


def test_cap_1_with_cutting_costs_nobody_wins_and_every_game_never_ends(tmp_path) -> None:
    out = _solve_json(tmp_path, CAP_1_CUTTING_COSTS)
    assert out["win_share"] == [0.0, 0.0]  # was [0, 1]: seat 1 as 1 - seat 0
    assert out["never_ends"] == pytest.approx(1.0)
    assert out["first_player_advantage"] == 0.0  # was -0.5
    out = _solve_json(tmp_path, CAP_1_CUTTING_COSTS, "--table", "random")  # the table alone
    assert out["table"]["win_share"] == [0.0, 0.0]
    assert out["table"]["never_ends"] == pytest.approx(1.0)


def test_cap_1_with_cutting_costs_says_so_in_words(tmp_path) -> None:
    path = tmp_path / "house.json"
    data = {"game": "shave-a-sheep", **CAP_1_CUTTING_COSTS.model_dump(exclude_none=True)}
    path.write_text(json.dumps(data))
    res = CliRunner().invoke(app, ["solve", "shave-a-sheep", "-r", str(path), "--no-cache"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "100.0000% of games never end, both seats playing perfectly" in text
    assert "-50" not in text


@pytest.mark.parametrize("wool", [8, 12])
def test_a_one_face_gray_white_die_gives_each_seat_its_own_share(wool: int) -> None:
    rules = ShaveRules(wool=wool, die=("gray/white",))
    sol = S.solve_minimax(S.Space(rules, 2))
    ev = S.minimax_shares(sol)
    played = _play_out(rules, sol)  # the engine, with no chance: one game decides it
    if played is None:
        assert ev.shares == pytest.approx((0.0, 0.0)) and ev.endless == pytest.approx(1.0)
    else:
        assert ev.shares == pytest.approx(played) and ev.endless == pytest.approx(0.0)
    assert ev.shares[1] == pytest.approx(1 - ev.shares[0] - ev.endless)


def test_the_rulebook_game_always_ends_and_its_shares_add_up() -> None:
    ev = S.minimax_shares(S.solve_minimax(S.Space(ShaveRules(wool=12), 2)))
    assert ev.endless < 1e-9
    assert sum(ev.shares) == pytest.approx(1.0, abs=1e-9)


def _check(tmp_path, rules: ShaveRules):
    path = tmp_path / "house.toml"
    lines = [f"{k} = {json.dumps(v)}" for k, v in rules.model_dump(exclude_none=True).items()]
    path.write_text('game = "shave-a-sheep"\n' + "\n".join(lines) + "\n")
    res = CliRunner().invoke(app, ["rules", "check", str(path)])
    return res.exit_code, " ".join(res.output.split())


@pytest.mark.parametrize(
    "rules", [ShaveRules(wool=12, die=("gray",)), CAP_1_CUTTING_COSTS], ids=["gray-die", "cap-1-cc"]
)
def test_rules_check_refuses_rules_under_which_no_game_can_end(tmp_path, rules) -> None:
    code, text = _check(tmp_path, rules)
    assert code == 2
    assert "no game can end under these rules with 2 players" in text


def test_rules_check_says_when_a_game_may_never_end(tmp_path) -> None:
    code, text = _check(tmp_path, GRAY_WHITE_DIE)
    assert code == 0, text
    assert "with 2 players a game may never end: if everyone keeps it going, 100.00%" in text


def test_rules_check_passes_the_rulebook_quietly(tmp_path) -> None:
    code, text = _check(tmp_path, ShaveRules(wool=8))
    assert code == 0, text
    assert "checked exactly with 2, 3, 4 players" in text and "never end" not in text


@pytest.mark.parametrize(
    ("rules", "can_end", "always_ends"),
    [
        (ShaveRules(wool=8), True, True),
        (ShaveRules(wool=8, die=("gray",)), False, False),
        (ShaveRules(wool=8, die=("gray/white",)), True, False),
        (ShaveRules(wool=8, max_wool=1, variants=("cutting-costs",)), False, False),
        (ShaveRules(wool=8, variants=("howling-wolf",)), True, True),
    ],
)
def test_ending_at_3_players(rules, can_end, always_ends) -> None:
    e = S.ending(rules, 3)
    assert (e.can_end, e.always_ends) == (can_end, always_ends)


def test_a_three_player_solve_says_games_may_never_end(tmp_path) -> None:
    out = _solve_json(tmp_path, GRAY_WHITE_DIE, "-p", "3")
    assert out["never_ends_at_most"] == pytest.approx(1.0)
    out = _solve_json(tmp_path, ShaveRules(wool=8), "-p", "3")
    assert out["never_ends_at_most"] < 1e-6


def test_a_big_three_player_solve_asks_two_players_whether_games_may_never_end(
    tmp_path, monkeypatch
) -> None:
    import sheepfold.cli.solve as cs

    monkeypatch.setattr(cs, "ENDING_BUDGET", 0)  # as if the game were too big to check
    out = _solve_json(tmp_path, GRAY_WHITE_DIE, "-p", "3")
    assert "never_ends_at_most" not in out
    assert out["never_ends_at_most_2_players"] == pytest.approx(1.0)


def test_rules_check_does_not_solve_a_game_too_big_to_check_quickly(tmp_path, monkeypatch) -> None:
    import sheepfold.cli.rules as cr

    monkeypatch.setattr(cr, "SIM_GAMES", 4)  # its games are measured instead: a few will do
    monkeypatch.setattr(cr, "SIM_BATCH", 4)
    code, text = _check(tmp_path, ShaveRules(wool=1000, max_wool=100))  # 8.3 billion positions
    assert code == 0, text
    assert "whether games end is not solved exactly (8,289,332,600 positions" in text
