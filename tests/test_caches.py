"""Caches that cannot go stale: numba's folder and the solver's keys follow the source they come
from (sheepfold/numba_cache.py), and an edit in a temporary copy of the package is a miss."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sheepfold
from sheepfold import numba_cache

PACKAGE = Path(sheepfold.__file__).parent


def copy_package(tmp_path: Path) -> Path:
    """A copy of the ``sheepfold`` package's source; returns the folder to put on PYTHONPATH."""
    root = tmp_path / "src"
    shutil.copytree(PACKAGE, root / "sheepfold", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name} no longer has {old!r}: update this test"
    path.write_text(text.replace(old, new), encoding="utf-8")


def run_in(root: Path, tmp_path: Path, code: str) -> dict:
    """Run ``code`` in a fresh interpreter that imports the copy at ``root``, its caches in
    ``tmp_path``; ``code`` prints one JSON object, returned with ``sheepfold.__file__``."""
    env = dict(os.environ)
    env.pop("SHEEPFOLD_NO_NUMBA", None)
    env.update(
        PYTHONPATH=str(root),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        SHEEPFOLD_HOME=str(tmp_path / "home"),
    )
    head = "import json, sheepfold\nout = {'file': sheepfold.__file__}\n"
    tail = "\nprint(json.dumps(out))\n"
    done = subprocess.run(
        [sys.executable, "-c", head + code + tail],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out: dict = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).is_relative_to(root), f"imported {out['file']}, not the copy"
    return out


# the kernel's refill (games/dolly_crush/kernel/refill.py) calls lines.column (kernel/lines.py):
# numba compiles the callee into the caller, and its own cache only checks the caller's file
TAKEN = """
import numpy as np
from sheepfold.games.dolly_crush.kernel import refill
hit = np.zeros(1 << 20, dtype=np.uint8)  # no row is a line
colline = np.zeros(1 << 12, dtype=np.uint8)
colline[0x111] = True  # a column of three card 0 is a line
tabs = (np.zeros(1 << 20, np.int16), np.zeros(1 << 12, np.int32), np.zeros(16, np.int32), hit, colline)
deck = np.zeros(16, dtype=np.int64)
rng = np.zeros(1, dtype=np.uint64)
# every cell holds card 0 (every column is a line): cleaned up once, the cards come back, and
# the clean-up gives up after its one round
x, n, aborted = refill.refill(np.uint64(0x111111111111111), 0, deck, 0, 1, rng, tabs)
out["aborted"] = bool(aborted)
stats = refill.refill.stats
out.update(hits=sum(stats.cache_hits.values()), misses=sum(stats.cache_misses.values()))
out["folder"] = stats.cache_path
"""


@pytest.mark.slow  # three interpreters compile a kernel: seconds
def test_a_kernel_is_compiled_again_when_a_constant_it_imports_changes(tmp_path):
    pytest.importorskip("numba")
    root = copy_package(tmp_path)
    first = run_in(root, tmp_path, TAKEN)
    assert (first["misses"], first["hits"]) == (1, 0)
    assert first["aborted"]  # column 0 is a line
    assert Path(first["folder"]).is_relative_to(tmp_path / "numba")
    again = run_in(root, tmp_path, TAKEN)
    assert (again["misses"], again["hits"]) == (0, 1)
    assert again["folder"] == first["folder"]
    # the low nibble's mask in lines.column: 15 -> 14 (card 0 = nibble 1 reads as nibble 0)
    edit(
        root / "sheepfold/games/dolly_crush/kernel/lines.py",
        "lo = (x >> np.uint64(4 * c)) & np.uint64(15)",
        "lo = (x >> np.uint64(4 * c)) & np.uint64(14)",
    )
    edited = run_in(root, tmp_path, TAKEN)
    assert (edited["misses"], edited["hits"]) == (1, 0)
    assert not edited["aborted"]  # the new constant, not the stale compiled code
    assert edited["folder"] != first["folder"]


# numba's compile events, as sheepfold.core.compiling's step counts them (callees included)
COMPILES = (
    "from sheepfold.core import compiling\n"
    "with compiling.step('the refill') as done:\n"
    + "\n".join("    " + line for line in TAKEN.strip().splitlines())
    + "\nout['compiles'] = done.kernels\n"
)


@pytest.mark.slow  # four interpreters, one of them compiles a kernel: seconds
def test_two_checkouts_of_the_same_sources_share_their_compiled_kernels(tmp_path):
    """Two copies of the package (two worktrees, a worktree and a wheel) on one cache folder,
    alternating: the first compiles, then nobody compiles again, neither evicting the other's
    kernels (numba filed them under each file's absolute path: each checkout compiled all)."""
    pytest.importorskip("numba")
    a, b = copy_package(tmp_path / "a"), copy_package(tmp_path / "b")
    refill = b / "sheepfold/games/dolly_crush/kernel/refill.py"
    os.utime(refill, (time.time() - 3600, time.time() - 3600))  # the same text, another time
    runs = [run_in(root, tmp_path, COMPILES) for root in (a, b, a, b)]
    assert runs[0]["compiles"] >= 2 and runs[0]["misses"] == 1  # the refill and lines.column
    assert [r["compiles"] for r in runs[1:]] == [0, 0, 0]
    assert [(r["misses"], r["hits"]) for r in runs[1:]] == [(0, 1)] * 3
    assert all(r["aborted"] for r in runs)
    assert len({r["folder"] for r in runs}) == 1
    assert Path(runs[0]["folder"]).is_relative_to(tmp_path / "numba")


def test_only_the_packages_kernels_are_filed_by_package_name():
    assert (
        numba_cache._package_of(
            "sheepfold.games.dolly_crush.kernel.lines",
            "/x/src/sheepfold/games/dolly_crush/kernel/lines.py",
        )
        == "sheepfold.games.dolly_crush.kernel"
    )
    assert (
        numba_cache._package_of("sheepfold.lab", "/x/sheepfold/lab/__init__.py") == "sheepfold.lab"
    )
    assert numba_cache._package_of("sheepfold.lab.x", "/x/sheepfold/vector/x.py") is None
    assert numba_cache._package_of("tests.kernel", "/x/tests/kernel.py") is None
    assert numba_cache._package_of("sheepfold.lab.x", "<string>") is None


KEY = """
from sheepfold.games.shave_a_sheep import solver
from sheepfold.games.shave_a_sheep.rules import ShaveRules
out["key"] = solver.cache_key(ShaveRules(), 2, "minimax")
"""


def test_the_solver_cache_key_follows_the_solver_source(tmp_path):
    root = copy_package(tmp_path)
    key = run_in(root, tmp_path, KEY)["key"]
    assert run_in(root, tmp_path, KEY)["key"] == key
    edit(root / "sheepfold/games/shave_a_sheep/solver_kernel.py", "CFG_LEN = 5", "CFG_LEN = 6")
    kernel_edited = run_in(root, tmp_path, KEY)["key"]
    assert kernel_edited != key
    # the rules kernel it imports counts too
    edit(
        root / "sheepfold/games/shave_a_sheep/kernel/layout.py",
        "PRM_LEN = P_COND + MAX_CONDS * CW",
        "PRM_LEN = 1 + P_COND + MAX_CONDS * CW",
    )
    rules_edited = run_in(root, tmp_path, KEY)["key"]
    assert rules_edited not in (key, kernel_edited)
    # games/shave_a_sheep/policy.py (the greedy heuristic) is imported by solver.py: it counts too
    edit(
        root / "sheepfold/games/shave_a_sheep/policy.py",
        "SHEEP_WOOL_VALUE = 0.6",
        "SHEEP_WOOL_VALUE = 0.5",
    )
    assert run_in(root, tmp_path, KEY)["key"] not in (key, kernel_edited, rules_edited)


def test_the_source_hash_follows_imports_of_every_form():
    names = numba_cache._imported(
        "sheepfold.lab.features",
        PACKAGE / "lab/features.py",
        "import sheepfold.lab  # comment\n"
        "from . import runner, metrics as m\n"
        "from ..games.dolly_crush import (\n    kernel,  # a comment\n    fastsearch as fs,\n)\n"
        "def f():\n    from sheepfold.bots import greedy\n",
    )
    assert set(names) >= {
        "sheepfold.lab",
        "sheepfold.lab.runner",
        "sheepfold.lab.metrics",
        "sheepfold.games.dolly_crush.kernel",
        "sheepfold.games.dolly_crush.fastsearch",
        "sheepfold.bots.greedy",
    }


def test_numba_follows_only_the_imports_it_can_freeze():
    text = (
        "try:\n    from sheepfold.bots import greedy\nexcept ImportError:\n    pass\n"
        "@_jit\ndef kernel(\n    x,\n):\n    return x\n"
        "def python_only():\n    from sheepfold.lab import runner\n"
        "class Holder:\n    import sheepfold.lab.metrics\n"
    )
    path = PACKAGE / "lab/fastsim_shave.py"
    top = numba_cache._imported(
        "sheepfold.lab.fastsim_shave", path, numba_cache._module_level(text)
    )
    assert "sheepfold.bots.greedy" in top
    assert not {"sheepfold.lab.runner", "sheepfold.lab.metrics"} & set(top)


def _uses_numba(tree: ast.AST) -> bool:
    """Whether a module compiles something: a name like jit, njit, vectorize, cfunc, stencil."""
    words = re.compile(r"jit|vectorize|cfunc|stencil")
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.alias):
            names = [node.name, node.asname or ""]
        elif isinstance(node, ast.FunctionDef):
            names = [node.name]
        if any(words.search(n) for n in names):
            return True
    return False


def test_every_module_with_compiled_kernels_is_hashed():
    found = {
        "sheepfold." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for path in PACKAGE.rglob("*.py")
        if _uses_numba(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert found == set(numba_cache.KERNEL_MODULES)


def test_the_numba_folder_is_under_the_chosen_base_and_old_ones_go(tmp_path, monkeypatch):
    numba = pytest.importorskip("numba")
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    base = tmp_path / "base"
    old = base / "sheepfold-0123456789abcdef"  # another source's, unused for 8 days
    recent = base / "sheepfold-fedcba9876543210"
    foreign = base / "other"  # not ours: never removed
    for folder in (old, recent, foreign):
        folder.mkdir(parents=True)
    week_ago = time.time() - 8 * 24 * 3600
    os.utime(old, (week_ago, week_ago))
    os.utime(foreign, (week_ago, week_ago))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base))
    path = numba_cache.ensure_numba_cache_dir()
    assert Path(path).parent == base
    assert Path(path).name == "sheepfold-" + numba_cache.kernel_hash()[:16]
    assert os.environ["NUMBA_CACHE_DIR"] == path == numba.config.CACHE_DIR  # numba was imported
    assert not old.exists() and recent.exists() and foreign.exists()
    # a subprocess inherits the chosen folder: it stands for its base, never nests
    assert numba_cache.ensure_numba_cache_dir() == path


def test_the_tests_keep_their_caches_out_of_home(tmp_path):
    """conftest.py points every cache the suite fills (numba's kernels, the solver's solutions,
    matplotlib's fonts) outside $HOME, and subprocesses inherit it: a run with an empty $HOME
    that compiles, solves and plots leaves that $HOME empty."""
    home = Path.home().resolve()
    for var in ("NUMBA_CACHE_DIR", "SHEEPFOLD_HOME", "MPLCONFIGDIR"):
        assert not Path(os.environ[var]).resolve().is_relative_to(home), var
    fake_home = tmp_path / "home"
    fake_home.mkdir()
    code = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from sheepfold.bots import dolly_mc
from sheepfold.games.shave_a_sheep import solver
from sheepfold.games.shave_a_sheep.rules import ShaveRules
dolly_mc.warm()
solver.cached(ShaveRules(wool=4, max_wool=2), 2)
plt.plot([0, 1]); plt.savefig({!r})
""".format(str(tmp_path / "plot.png"))
    env = {**os.environ, "HOME": str(fake_home)}
    env.pop("XDG_CACHE_HOME", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "plot.png").exists()
    assert not any(fake_home.iterdir()), sorted(str(p) for p in fake_home.rglob("*"))
