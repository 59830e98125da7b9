"""The compiled paths refuse the rule language's own parts with the reason, never play the
printed rules in their place (the engine plays them: docs/spec/rule-language.md)."""

from pathlib import Path

import pytest

from sheepfold.core.protocol import RulesError
from sheepfold.games.shave_a_sheep.game import ShaveGame
from sheepfold.games.shave_a_sheep.kernel.layout import kernel_refusal, rules_record
from sheepfold.rulesets import read_ruleset_file

EXAMPLES = sorted((Path(__file__).parent.parent / "docs/rulesets/shave-a-sheep").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_kernel_refuses_a_rule_file_with_the_languages_parts(path: Path) -> None:
    rules = read_ruleset_file(path).rules
    why = kernel_refusal(rules)
    assert why is not None and "engine plays them" in why
    players = 4 if rules.language_parts() and "teams" in path.stem else 2
    with pytest.raises(RulesError, match="rule language"):
        rules_record(ShaveGame(players, rules))


def test_the_printed_rules_and_every_preset_still_compile() -> None:
    from sheepfold.rulesets import builtin_rulesets

    for rs in [r for r in builtin_rulesets() if r.game == "shave-a-sheep"]:
        assert kernel_refusal(rs.rules) is None
        rules_record(ShaveGame(2, rs.rules))
