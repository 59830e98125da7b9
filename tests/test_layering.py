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
import io
import tokenize
from pathlib import Path

import pytest

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

GAME_NAMES = {"dolly-crush", "shave-a-sheep"}

#: the layers that speak to a game through its spec and drivers only (each engineer of the seam
#: work adds theirs: server, cli, bots, lab, interop...)
SEAM_CLEAN_LAYERS = {"server"}


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


def _game_names_imported(tree: ast.AST, module: str, path: Path) -> set[str]:
    """The names a module binds to a ``games`` module or to something imported from one."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            pkg = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            base = pkg[: len(pkg) - (node.level - 1)] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if layer_of(target) == "games" and target != "sheepfold":
                out.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if layer_of(a.name) == "games" and a.name != "sheepfold":
                    out.add(a.asname or a.name.split(".")[0])
    return out


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def seam_reach_ins(layers: set[str], source_of: dict[Path, str] | None = None) -> list[str]:
    """Each ``isinstance`` against a class of ``games/`` and each ``type: ignore[attr-defined]``
    in the modules of ``layers`` (``source_of``: texts to judge instead of the files)."""
    bad = []
    files = source_of or {p: p.read_text() for p, m in modules() if layer_of(m) in layers}
    for path, text in sorted(files.items()):
        module = module_name(path) if source_of is None else "sheepfold.server.x"
        where = path.relative_to(SRC.parent) if source_of is None else path
        tree = ast.parse(text, str(path))
        games = _game_names_imported(tree, module, path)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass")
                and len(node.args) == 2
            ):
                kinds = node.args[1]
                elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
                if any(_root(e) in games for e in elts):
                    bad.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and "attr-defined" in tok.string:
                bad.append(f"{where}:{tok.start[0]}: {tok.string}")
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


def test_no_seam_clean_layer_asks_which_game_it_holds() -> None:
    bad = seam_reach_ins(SEAM_CLEAN_LAYERS)
    assert not bad, (
        "a game's class checked, or its state reached into, outside games/ (give the game's "
        "driver in its GameSpec the job):\n" + "\n".join(bad)
    )


@pytest.mark.parametrize(
    "source",
    [
        "from sheepfold.games.dolly_crush.game import DollyGame\nisinstance(g, DollyGame)\n",
        "def f(g):\n    from sheepfold.games.shave_a_sheep import game\n"
        "    return isinstance(g, (int, game.ShaveGame))\n",
        "import sheepfold.games.dolly_crush.game\n"
        "issubclass(t, sheepfold.games.dolly_crush.game.DollyState)\n",
        "x = state.phase  # type: ignore[attr-defined]\n",
    ],
)
def test_the_seam_check_sees_a_reach_in(tmp_path: Path, source: str) -> None:
    path = tmp_path / "x.py"
    assert len(seam_reach_ins({"server"}, {path: source})) == 1


def test_the_seam_check_lets_the_protocol_be() -> None:
    source = (
        "from sheepfold.core.protocol import State\nfrom sheepfold.games import make\n"
        "isinstance(s, State)\nisinstance(make, dict)\n"
    )
    assert seam_reach_ins({"server"}, {Path("x.py"): source}) == []


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
