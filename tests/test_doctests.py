"""The package's doctests run (they were never run: pytest collects ``tests/`` only). A module
is imported only when its source holds an example, so this stays cheap: no optional framework
or compiled kernel is loaded for a module without one."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import sheepfold

PACKAGE = Path(sheepfold.__file__).parent


def _modules_with_examples() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


MODULES = _modules_with_examples()


def test_the_package_has_doctests() -> None:
    assert "sheepfold" in MODULES  # the package's own docstring shows how to start a game


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    result = doctest.testmod(
        importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 0, f"{name}: an example that doctest does not see"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
