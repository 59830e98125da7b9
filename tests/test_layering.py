"""The layering, checked: arrows point inward, toward the rules, never outward.

    core  <-  games  <-  bots  <-  (lab | interop | server)  <-  vector  <-  analysis  <-  cli

A module may import its own layer or any layer below it, never one above; lab, interop and
server sit side by side and import none of each other. Every import counts: at module level,
inside functions, under ``TYPE_CHECKING``, relative ones resolved. And no module outside
``games/`` branches on a game's name: what differs between the games comes from their
:class:`~sheepfold.core.registry.GameSpec`. In the layers of ``SEAM_CLEAN_LAYERS`` no module
asks which game it holds either (``isinstance`` against a class of ``games/``) or reaches into
one game's state past the protocol (``type: ignore[attr-defined]``): the game's drivers do it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sheepfold.games import GAME_NAMES as REGISTERED_GAMES

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "sheepfold"

# The order, bottom to top. Lab, interop and server share a rank but not a layer.
RANK = {
    "core": 0,
    "games": 1,
    "bots": 2,
    "lab": 3,
    "interop": 3,
    "server": 3,
    "vector": 4,  # batched simulation: on the interop's encoding
    "analysis": 5,  # research tools: on the solver, the bots and the vector kernels
    "cli": 6,
}

# Modules outside the layer packages, each placed in a layer.
LEAVES = {
    "sheepfold.numba_cache": "core",  # imports nothing of sheepfold: cache folders, source hashes
    "sheepfold.presets": "core",  # data only: the built-in rule sets' files
    "sheepfold.rulesets": "games",  # named rule sets: validated by the games' rules models
    "sheepfold.warm": "analysis",  # compiles every kernel: a tiny lab run, solve, batch step
    "sheepfold": "games",  # the package: re-exports the protocol and games.make
}

#: every registered game's name (a layer outside games/ compares none of them)
GAME_NAMES = set(REGISTERED_GAMES)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    """The layer a ``sheepfold`` module belongs to (None: not ours)."""
    parts = module.split(".")
    if parts[0] != "sheepfold":
        return None
    if len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    for leaf in sorted(LEAVES, key=len, reverse=True):
        if module == leaf or module.startswith(leaf + "."):
            if leaf == "sheepfold" and len(parts) > 1:
                continue
            return LEAVES[leaf]
    raise AssertionError(f"{module}: in no layer; place it in LEAVES")


def modules() -> list[tuple[Path, str]]:
    return sorted((p, module_name(p)) for p in PACKAGE.rglob("*.py"))


def imports(path: Path, module: str) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with its line; relative imports resolved."""
    is_package = path.name == "__init__.py"
    package = module.split(".") if is_package else module.split(".")[:-1]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from sheepfold import games`` imports the submodule: judge the name it names.
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if (SRC / Path(*sub.split("."))).is_dir() or (
                    SRC / Path(*sub.split("."))
                ).with_suffix(".py").is_file():
                    out.append((node.lineno, sub))
                else:
                    out.append((node.lineno, target))
    return sorted(set(out))


def backward_imports() -> list[str]:
    bad = []
    for path, module in modules():
        here = layer_of(module)
        assert here is not None
        for line, target in imports(path, module):
            there = layer_of(target)
            if there is None or there == here:
                continue
            if RANK[there] >= RANK[here]:
                where = f"{path.relative_to(SRC.parent)}:{line}"
                bad.append(f"{where}: {module} ({here}) imports {target} ({there})")
    return bad


def _names_a_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    return False


def name_comparisons() -> list[str]:
    bad = []
    for path, module in modules():
        if module.startswith("sheepfold.games"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare) and any(
                _names_a_game(e) for e in [node.left, *node.comparators]
            ):
                bad.append(f"{path.relative_to(SRC.parent)}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
                bad.append(
                    f"{path.relative_to(SRC.parent)}:{node.lineno}: case {ast.unparse(node)}"
                )
    return bad


def test_every_module_has_a_layer() -> None:
    for _, module in modules():
        assert layer_of(module) is not None


def test_no_import_runs_back_up() -> None:
    bad = backward_imports()
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_no_layer_outside_games_branches_on_a_game_name() -> None:
    bad = name_comparisons()
    assert not bad, "a game's name compared outside games/:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from sheepfold.bots import Bot\n", "sheepfold.games.x", "sheepfold.bots"),
        ("def f():\n    from ..server import app\n", "sheepfold.lab.x", "sheepfold.server.app"),
        ("import sheepfold.cli.main\n", "sheepfold.bots.x", "sheepfold.cli.main"),
    ],
)
def test_the_walk_sees_an_import_at_any_depth(
    tmp_path: Path, source: str, module: str, expected: str
) -> None:
    path = tmp_path / "x.py"
    path.write_text(source)
    assert [t for _, t in imports(path, module)] == [expected]


# -- one seam per game: no layer above games/ reaches into a game's classes ------------------
#: the modules checked by :func:`seam_breaches`: sheepfold's packages and modules by their name
#: under ``sheepfold`` (each engineer of issue 25 adds the layers they made seam-clean)
SEAM_CLEAN_LAYERS = {"bots", "lab", "interop", "vector", "analysis", "rulesets", "cli", "server"}

#: modules that exist for one game only (its fast simulator, its solver's tools, its bots'
#: compiled searches): they may use that game's classes, and nothing else may
ONE_GAME_MODULES = {
    "sheepfold.bots.dolly": "Dolly Crush's bots (levels easy to expert, on its search)",
    "sheepfold.vector.shave": "Shave a Sheep's batched simulator",
    "sheepfold.vector.dolly": "Dolly Crush's batched simulator",
    "sheepfold.analysis.exploitability": "Shave a Sheep's exploitability, on its exact solver",
}

GAME_PACKAGES = {p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()}


def _game_bindings(tree: ast.AST) -> set[str]:
    """The names a module binds to something of a game package (``ShaveGame``, ``sg``)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            parts = node.module.split(".")
            in_game = parts[:2] == ["sheepfold", "games"] and (
                (len(parts) > 2 and parts[2] in GAME_PACKAGES)
                or (len(parts) == 2 and any(a.name in GAME_PACKAGES for a in node.names))
            )
            if in_game:
                bound.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[:2] == ["sheepfold", "games"] and len(parts) > 2:
                    bound.add(a.asname or a.name)  # ``import sheepfold.games.x.game``: dotted
    return bound


def _is_game_class(node: ast.expr, bound: set[str]) -> bool:
    """``node`` names something bound to a game package (``ShaveGame``, ``sg.ShaveState``,
    ``sheepfold.games.dolly_crush.game.DollyState``)."""
    if isinstance(node, ast.Tuple):
        return any(_is_game_class(e, bound) for e in node.elts)
    if isinstance(node, (ast.Name, ast.Attribute)):
        dotted = ast.unparse(node)
        return any(dotted == b or dotted.startswith(b + ".") for b in bound)
    return False


def _in_layers(module: str, layers: set[str]) -> bool:
    parts = module.split(".")
    return len(parts) > 1 and parts[1] in layers


def _sources() -> list[tuple[str, str, str]]:
    return [(str(p.relative_to(SRC.parent)), m, p.read_text()) for p, m in modules()]


def seam_breaches(
    layers: set[str],
    exempt: dict[str, str] = ONE_GAME_MODULES,
    sources: list[tuple[str, str, str]] | None = None,
) -> list[str]:
    """Each ``isinstance`` against a game's classes and each ``type: ignore[attr-defined]``
    (outside compiled kernels) in the modules of ``layers``, but for the ``exempt`` ones.
    ``sources``: (where, module, text) of the modules (default: sheepfold's own)."""
    bad = []
    for where, module, text in sources if sources is not None else _sources():
        if not _in_layers(module, layers) or module in exempt:
            continue
        tree = ast.parse(text, where)
        bound = _game_bindings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass")
                and len(node.args) == 2
                and _is_game_class(node.args[1], bound)
            ):
                bad.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        if "kernel" not in module:
            for no, line in enumerate(text.splitlines(), 1):
                if re.search(r"type:\s*ignore\[[^\]]*attr-defined", line):
                    bad.append(f"{where}:{no}: {line.strip()}")
    return bad


def test_no_layer_outside_games_reaches_into_a_game() -> None:
    bad = seam_breaches(SEAM_CLEAN_LAYERS)
    assert not bad, (
        "a game's classes used outside games/ (put what differs in the game's spec):\n"
        + "\n".join(bad)
    )


def test_every_one_game_module_needs_its_exemption() -> None:
    # an exemption that is not needed any more goes: the list says only what is true
    sources = _sources()
    for module in ONE_GAME_MODULES:
        assert any(m == module for _, m, _ in sources), f"{module} does not exist"
        alone = [src for src in sources if src[1] == module]
        assert seam_breaches(SEAM_CLEAN_LAYERS, {}, alone), (
            f"{module} uses no game's classes: drop it from ONE_GAME_MODULES"
        )


@pytest.mark.parametrize(
    "source",
    [
        "from sheepfold.games.shave_a_sheep.game import ShaveGame\n"
        "def f(g):\n    return isinstance(g, ShaveGame)\n",
        "from sheepfold.games.shave_a_sheep import game as sg\n"
        "def f(s):\n    assert isinstance(s, (int, sg.ShaveState))\n",
        "def f(g):\n    return g.rules.wool  # type: ignore[attr-defined]\n",
        "import sheepfold.games.dolly_crush.game\n"
        "issubclass(t, sheepfold.games.dolly_crush.game.DollyState)\n",
    ],
)
def test_the_seam_check_sees_a_breach(source: str) -> None:
    sources = [("bots/x.py", "sheepfold.bots.x", source)]
    assert len(seam_breaches({"bots"}, {}, sources)) == 1
    assert seam_breaches({"server"}, {}, sources) == []  # only the layers asked for
    kernel = [("vector/x_kernel.py", "sheepfold.vector.x_kernel", source)]
    assert len(seam_breaches({"vector"}, {}, kernel)) == ("ignore" not in source)


def test_the_seam_check_lets_the_protocol_be() -> None:
    source = (
        "import sheepfold.games.dolly_crush.game\nfrom sheepfold.core.protocol import State\n"
        "from sheepfold.games import make\nimport sheepfold\n"
        "isinstance(s, State)\nisinstance(make, dict)\nisinstance(s, sheepfold.State)\n"
    )
    assert seam_breaches({"bots"}, {}, [("bots/x.py", "sheepfold.bots.x", source)]) == []
