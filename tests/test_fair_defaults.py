"""Fair defaults everywhere (issue 17): a Dolly Crush game made by any front end without a rule
set gives every seat the same dog cards (the game spec's default rule set, ``dolly-graded``),
whatever breeds the seats hold; the printed cards stay one option away, with a warning that
they decide the game.

Before: the adapters, the tournament and the lab dealt seat 1 the Australian Shepherd on the
printed cards (4 swaps a card against 1). Breeds given without a rule set keep their printed
cards, as the terminal decided (no silent change of rules), with the warning.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.core.registry import game_spec
from sheepfold.games import make, parse_rules
from sheepfold.rulesets import fair_default

runner = CliRunner()


def equal_dogs(game: Any) -> bool:
    return len(set(game.dog_swaps)) == 1


def test_the_default_is_the_spec_s_and_the_engine_keeps_the_printed_cards() -> None:
    assert game_spec("dolly-crush").default_ruleset == "dolly-graded"
    assert game_spec("shave-a-sheep").default_ruleset is None
    assert not equal_dogs(make("dolly-crush", players=2))  # the engine itself: the rulebook
    name, rules = fair_default("dolly-crush", lambda base: parse_rules("dolly-crush", base))
    assert name == "dolly-graded" and equal_dogs(make("dolly-crush", 4, rules))
    # house rules the graded cards cannot take fall back to the rulebook (and then warn)
    six = fair_default(
        "dolly-crush",
        lambda base: parse_rules(
            "dolly-crush", {**(base.options() if base else {}), "dogs_per_player": 6}
        ),
    )
    assert six[0] is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_default_is_fair(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sheepfold.interop.openspiel  # noqa: F401

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning for the default
        game = pyspiel.load_game(f"python_dolly_crush(players={players})")
        house = pyspiel.load_game(f"python_dolly_crush(players={players},swaps=up-to)")
    assert equal_dogs(game.engine) and equal_dogs(house.engine)
    with pytest.warns(UserWarning, match="Unequal dog cards decide the game"):
        printed = pyspiel.load_game("python_dolly_crush(rules=dolly-rulebook)")
    assert not equal_dogs(printed.engine)


def test_pettingzoo_default_is_fair() -> None:
    pytest.importorskip("pettingzoo")
    from sheepfold.interop.pettingzoo import dolly_crush_env, raw_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert equal_dogs(raw_env("dolly-crush").game)
        assert equal_dogs(raw_env("dolly-crush", players=4, rules={"cascades": True}).game)
        dolly_crush_env(breeds=["bobtail", "border-collie"])  # printed cards, equal: 1 swap
    with pytest.warns(UserWarning, match="Unequal dog cards"):  # breeds keep printed cards
        dolly_crush_env(breeds=["bobtail", "australian-shepherd"])
    with pytest.warns(UserWarning, match="Unequal dog cards"):
        assert not equal_dogs(raw_env("dolly-crush", rules="dolly-rulebook").game)
    with pytest.warns(UserWarning, match="Unequal dog cards"):  # one breed's cards changed
        one = raw_env("dolly-crush", rules={"dog_swaps": {"pastore-maremmano": [2, 3, 4, 5]}})
    assert one.game.dog_swaps == ((2, 3, 4, 5), (1, 2, 3, 4))  # the other keeps graded cards


def test_gymnasium_default_is_fair() -> None:
    gym = pytest.importorskip("gymnasium")
    from sheepfold.interop.gymnasium import ENV_IDS

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(ENV_IDS["dolly-crush"])
        assert equal_dogs(env.unwrapped.game)
        env.close()
    with pytest.warns(UserWarning, match="Unequal dog cards"):
        env = gym.make(ENV_IDS["dolly-crush"], rules="dolly-rulebook")
    env.close()


def test_play_default_is_fair() -> None:
    args = ["play", "dolly-crush", "--seat", "bot:random", "--seat", "bot:random", "--seed", "3"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "rules: dolly-graded" in r.output and "Fair dog cards" in r.output
    printed = runner.invoke(app, [*args, "--rules", "dolly-rulebook"])
    assert printed.exit_code == 0 and "unequal dog cards" in printed.output
    # chosen breeds keep their printed cards (no silent change of rules), with the warning
    chosen = runner.invoke(app, [*args, "--breed", "bobtail", "--breed", "australian-shepherd"])
    assert chosen.exit_code == 0 and "unequal dog cards" in chosen.output


def _tournament(*extra: str) -> Any:
    args = ["tournament", "dolly-crush", "--bot", "random", "--bot", "random"]
    return runner.invoke(app, [*args, "--games", "2", "--workers", "1", "--json", *extra])


def test_tournament_default_is_fair() -> None:
    r = _tournament()
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    game = make("dolly-crush", 2, report["rules"], breeds=report["breeds"])
    assert equal_dogs(game) and "Unequal" not in r.output
    printed = _tournament("--rules", "dolly-rulebook")
    assert printed.exit_code == 0 and "Unequal dog cards decide the game" in printed.output


def test_lab_default_is_fair(tmp_path: Any) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "run.parquet"
    args = ["lab", "run", "dolly-crush", "--games", "2", "--workers", "1"]
    r = runner.invoke(app, [*args, "--out", str(out)])
    assert r.exit_code == 0, r.output
    meta = pq.read_schema(out).metadata
    text = b" ".join(meta.values()).decode() if meta else ""
    assert "dolly-graded" in text and "Unequal" not in r.output
    printed = runner.invoke(app, [*args, "--rules", "rulebook", "--out", str(tmp_path / "b.pq")])
    assert printed.exit_code == 0 and "Unequal dog cards decide the game" in printed.output


def test_a_web_table_created_without_options_is_fair() -> None:
    pytest.importorskip("fastapi")
    from sheepfold.server.table_requests import CreateTable, resolve_spec
    from sheepfold.server.tables import TableManager

    def game_of(**options: Any) -> Any:
        spec = resolve_spec(CreateTable(game="dolly-crush", seats=[{}, {}], **options))
        return spec, TableManager.make_game("dolly-crush", 2, spec)

    spec, game = game_of()
    assert spec["ruleset"] == "dolly-graded" and equal_dogs(game)
    # the printed cards, asked for by name, stay one option away
    spec, game = game_of(ruleset="dolly-rulebook")
    assert not equal_dogs(game)
