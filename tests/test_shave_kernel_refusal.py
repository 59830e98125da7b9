"""The compiled paths play the rule language's parts (every example file is played on the fast
path) and refuse, with the reason, only what the kernel still cannot play, never play the printed
rules in its place (the engine plays it: docs/spec/rule-language.md)."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from sheepfold.core.protocol import RulesError
from sheepfold.games.shave_a_sheep.game import ShaveGame
from sheepfold.games.shave_a_sheep.kernel.layout import kernel_refusal, rules_record
from sheepfold.rulesets import parse_ruleset, read_ruleset_file

EXAMPLES = sorted((Path(__file__).parent.parent / "docs/rulesets/shave-a-sheep").glob("*.toml"))


def _players(stem: str) -> int:
    return 4 if "teams" in stem else 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_kernel_plays_each_rule_file_on_the_fast_path(path: Path) -> None:
    from sheepfold.lab import fastsim_shave

    rules = read_ruleset_file(path).rules
    assert rules.language_parts(), "an example file sets a part of the language"
    players = _players(path.stem)
    game = ShaveGame(players, rules)
    assert kernel_refusal(rules, players) is None
    rules_record(game)
    job = SimpleNamespace(bots=("random",) * players, make_game=lambda seed: game)
    assert fastsim_shave.unsupported(job) is None


def test_the_printed_rules_and_every_preset_still_compile() -> None:
    from sheepfold.rulesets import builtin_rulesets

    for rs in [r for r in builtin_rulesets() if r.game == "shave-a-sheep"]:
        assert kernel_refusal(rs.rules) is None
        rules_record(ShaveGame(2, rs.rules))


#: a file the engine plays and the kernel cannot: more effects than the kernel's rows hold
#: (eight verbs of eight effects each, besides the printed verbs')
TOO_MANY = {
    "game": "shave-a-sheep",
    "name": "many-gifts",
    "die": ["white", "x2", "white/pink", "white/green", "gray/pink"]
    + [f"gift{i}" for i in range(8)],
    "verbs": {
        f"gift{i}": {"effects": [{"move": 1, "from": "middle", "to": "my sheep"}] * 8}
        for i in range(8)
    },
}


def test_a_file_the_kernel_cannot_play_is_refused_with_the_reason(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from sheepfold.cli.main import app
    from sheepfold.lab import fastsim_shave

    rules = parse_ruleset(TOO_MANY, "many-gifts.json").rules
    game = ShaveGame(2, rules)  # the engine plays it
    why = kernel_refusal(rules, 2)
    assert why is not None and "more than 64 effects" in why
    with pytest.raises(RulesError, match="more than 64 effects"):
        rules_record(game)
    job = SimpleNamespace(bots=("random", "random"), make_game=lambda seed: game)
    assert fastsim_shave.unsupported(job) == why
    path = tmp_path / "many-gifts.json"
    path.write_text(json.dumps(TOO_MANY))
    args = ["lab", "run", "shave-a-sheep", "-r", str(path), "-p", "2", "-n", "20", "-w", "1"]
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["job"]["engine"] == "engine"  # the lab falls back to the engine
    r = CliRunner().invoke(app, [*args, "--engine", "fast"])
    assert r.exit_code != 0 and "more than 64 effects" in r.output


def test_a_refusal_depends_on_the_player_count() -> None:
    """The teams file is a partition of four seats, not of two or three."""
    rules = read_ruleset_file(next(p for p in EXAMPLES if p.stem == "teams")).rules
    assert kernel_refusal(rules, 4) is None
    for n in (2, 3):
        assert "not a partition of" in (kernel_refusal(rules, n) or "")
