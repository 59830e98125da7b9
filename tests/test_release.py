"""The release: one version, the citation file, and ``make dist``'s wheel installed into a fresh
virtual environment with the ``[rl]`` and ``[learn]`` extras, where the adapters run.

The slow test builds the sdist and the wheel as ``make dist`` does (``python -m build``: the
wheel is built from the sdist), checks what both contain, installs the wheel (not editable) into
a new venv with no access to this checkout or to the development environment's packages, and
runs an OpenSpiel, a PettingZoo, a Gymnasium and an SB3 snippet and ``sheepfold --help`` from
it, checking that ``sheepfold`` is imported from the venv's own site-packages.

The extras' wheels (torch and the rest, about 330 MB) are fetched once with ``pip download``
into ``build/release-test/wheelhouse`` and installed from there with ``--no-index`` (the
resolver still reads the wheel's own metadata: a dependency it forgot is missing in the venv);
the wheelhouse is fetched again when the wheel's requirements or the Python version change.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import sheepfold

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sheepfold"
RULE_FILES = ROOT / "docs" / "rulesets"
WHEELHOUSE = ROOT / "build" / "release-test" / "wheelhouse"
EXTRAS = "rl,learn"
CFF_REQUIRED = ("cff-version", "message", "title", "authors")


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def test_the_version_has_one_source() -> None:
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "sheepfold.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", sheepfold.__version__)
    # the version is written once in the package's source, as a literal the build reads
    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    assert source.count(sheepfold.__version__) == 1
    assert f'__version__ = "{sheepfold.__version__}"' in source


def test_citation_file_is_cff_1_2_with_the_release_version() -> None:
    yaml = pytest.importorskip("yaml")  # PyYAML: the dev extra installs it
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    missing = [key for key in CFF_REQUIRED if key not in data]
    assert not missing, f"CITATION.cff lacks the required keys {missing}"
    assert data["cff-version"] == "1.2.0"
    assert isinstance(data["message"], str) and data["message"].strip()
    assert isinstance(data["title"], str) and data["title"].strip()
    assert isinstance(data["authors"], list) and data["authors"]
    for author in data["authors"]:  # a person (family-names) or an entity (name)
        assert isinstance(author, dict) and ("family-names" in author or "name" in author)
    assert data.get("type", "software") in ("software", "dataset")
    assert str(data["version"]) == sheepfold.__version__
    assert data["license"] == _pyproject()["project"]["license"]
    assert all(isinstance(k, str) for k in data.get("keywords", []))


def test_changelog_has_the_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog")
    assert "## [Unreleased]" in text
    assert f"## [{sheepfold.__version__}]" in text


@pytest.mark.parametrize("doc", ["README.md", "docs/interop.md"])
def test_install_lines_name_this_wheel_and_no_package_index(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert f"dist/sheepfold-{sheepfold.__version__}-py3-none-any.whl[rl" in text
    assert "pip install -e '.[rl]'" in text
    # sheepfold is not on a package index: no line may install it from one
    assert not re.search(r"pip install '?sheepfold\[", text)


def _package_files() -> list[str]:
    """Every file the wheel must carry from src/sheepfold (no caches), as wheel paths."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            out.append("sheepfold/" + path.relative_to(PACKAGE).as_posix())
    return out


def _rule_files() -> list[Path]:
    return [p for p in sorted(RULE_FILES.rglob("*")) if p.suffix in (".toml", ".json")]


def _run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _build(out: Path) -> tuple[Path, Path]:
    """``make dist``'s command (an sdist, then the wheel from it), into ``out``."""
    _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)])
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    version = sheepfold.__version__
    assert [w.name for w in wheels] == [f"sheepfold-{version}-py3-none-any.whl"]
    assert [s.name for s in sdists] == [f"sheepfold-{version}.tar.gz"]
    return wheels[0], sdists[0]


def _check_wheel(wheel: Path) -> str:
    """The wheel carries every package file (code, static files, presets, py.typed) and the
    docs' rule files; its metadata the version, licence, authors, classifiers and extras.
    Returns the METADATA text."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(f"sheepfold-{sheepfold.__version__}.dist-info/METADATA").decode()
        for path in _rule_files():
            shipped = "sheepfold/docs/rulesets/" + path.relative_to(RULE_FILES).as_posix()
            assert z.read(shipped) == path.read_bytes()
    missing = [p for p in _package_files() if p not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert any(n.startswith("sheepfold/server/static/") for n in names)
    assert any(n.startswith("sheepfold/presets/") for n in names)
    assert _rule_files(), "docs/rulesets/ has no rule file to ship"
    fields = Parser().parsestr(meta)
    assert fields["Version"] == sheepfold.__version__
    assert fields["License-Expression"] == "MIT"
    assert "The sheepfold developers" in (fields["Author"] or fields["Author-email"] or "")
    assert fields.get_all("Classifier")
    assert {"rl", "learn"} <= set(fields.get_all("Provides-Extra"))
    return meta


def _check_sdist(sdist: Path) -> None:
    top = f"sheepfold-{sheepfold.__version__}/"
    with tarfile.open(sdist) as t:
        names = {n.removeprefix(top) for n in t.getnames()}
    for path in ("LICENSE", "README.md", "CHANGELOG.md", "CITATION.cff", "pyproject.toml"):
        assert path in names, f"the sdist lacks {path}"
    for path in _package_files():
        assert "src/" + path in names, f"the sdist lacks src/{path}"
    for path in _rule_files():
        assert path.relative_to(ROOT).as_posix() in names
    for folder in ("docs/spec/", "tests/", "examples/", "bench/"):
        assert any(n.startswith(folder) for n in names), f"the sdist lacks {folder}"


def _wheelhouse(wheel: Path, meta: str) -> Path:
    """The extras' wheels, fetched once for these requirements and this Python."""
    wanted = sorted(Parser().parsestr(meta).get_all("Requires-Dist") or [])
    key = hashlib.sha256("\n".join([sys.version, *wanted]).encode()).hexdigest()
    stamp = WHEELHOUSE / ".requirements-sha256"
    if stamp.is_file() and stamp.read_text() == key:
        return WHEELHOUSE
    if WHEELHOUSE.exists():
        for old in WHEELHOUSE.iterdir():
            old.unlink()
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(WHEELHOUSE)]
    _run([*pip, f"{wheel}[{EXTRAS}]"])
    for own in WHEELHOUSE.glob("sheepfold-*"):
        own.unlink()  # the wheel under test is installed from its own path, never from here
    stamp.write_text(key)
    return WHEELHOUSE


#: run by the venv's Python, from an empty folder: where sheepfold comes from, its data, and
#: one snippet per framework
SNIPPETS = r"""
import sys, sysconfig, time
t0 = time.perf_counter()
from importlib import resources
from pathlib import Path

import numpy as np
import sheepfold

site = Path(sysconfig.get_paths()["purelib"]).resolve()
where = Path(sheepfold.__file__).resolve()
assert where.is_relative_to(site), (where, site)
assert Path(sys.prefix).resolve() != Path(sys.base_prefix).resolve()
print("sheepfold", sheepfold.__version__, "from", where.parent)

# the package's data: presets, the web app's static files, the docs' rule files
from sheepfold.rulesets import builtin_rulesets, read_ruleset_file
assert {"howling-wolf", "dolly-graded"} <= {r.name for r in builtin_rulesets()}
assert (resources.files("sheepfold.server") / "static" / "index.html").is_file()
rules_dir = Path(str(resources.files("sheepfold"))) / "docs" / "rulesets"
shipped = sorted(rules_dir.rglob("*.toml")) + sorted(rules_dir.rglob("*.json"))
assert shipped, rules_dir
for path in shipped:
    print("rule file", path.relative_to(rules_dir), "->", read_ruleset_file(path).name)

print("data done at", round(time.perf_counter() - t0, 1), "s")

# OpenSpiel
import pyspiel
import sheepfold.interop.openspiel

game = pyspiel.load_game("python_shave_a_sheep", {"players": 2})
rng = np.random.default_rng(0)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))
print("openspiel returns", state.returns())

print("openspiel done at", round(time.perf_counter() - t0, 1), "s")

# PettingZoo
from sheepfold.interop.pettingzoo import dolly_crush_env

env = dolly_crush_env(players=2)
env.reset(seed=0)
steps = 0
for agent in env.agent_iter(max_iter=200):
    obs, reward, term, trunc, info = env.last()
    action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
    steps += 1
print("pettingzoo steps", steps, "state", env.state().shape)

print("pettingzoo done at", round(time.perf_counter() - t0, 1), "s")

# Gymnasium
import gymnasium as gym
import sheepfold.interop.gymnasium
from gymnasium.utils.env_checker import check_env

env = gym.make("sheepfold/ShaveASheep-v0", opponents="greedy")
check_env(env.unwrapped)
obs, info = env.reset(seed=0)
done = False
while not done:
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, term, trunc, info = env.step(action)
    done = term or trunc
print("gymnasium reward", reward)

print("gymnasium done at", round(time.perf_counter() - t0, 1), "s")

# Stable-Baselines3 (the learn extra)
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

torch.set_num_threads(1)
vec = make_vec_env("sheepfold/ShaveASheep-v0", n_envs=2, seed=0)
model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
model.learn(64)
print("sb3 steps", model.num_timesteps)
print("sb3 done at", round(time.perf_counter() - t0, 1), "s")
"""


@pytest.mark.slow
@pytest.mark.release
def test_the_wheel_installs_into_a_fresh_venv_and_runs(tmp_path: Path) -> None:
    t0 = time.perf_counter()
    wheel, sdist = _build(tmp_path / "dist")
    meta = _check_wheel(wheel)
    _check_sdist(sdist)
    t_build = time.perf_counter()
    house = _wheelhouse(wheel, meta)
    t_fetch = time.perf_counter()

    # nothing of this checkout or of the development environment: no PYTHONPATH (through it
    # pip would see src/'s sheepfold as installed), another folder
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=env)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    install = ["install", "--quiet", "--no-compile", "--no-index", "--find-links", str(house)]
    _run([*pip, *install, f"{wheel}[{EXTRAS}]"], env=env)
    _run([*pip, "check"], env=env)
    t_install = time.perf_counter()

    run = tmp_path / "run"
    run.mkdir()
    out = _run([str(python), "-c", SNIPPETS], cwd=run, env=env, timeout=300).stdout
    print("".join(line + "\n" for line in out.splitlines() if " done at " in line), end="")
    assert f"sheepfold {sheepfold.__version__} from {venv.resolve()}" in out
    for line in ("openspiel returns", "pettingzoo steps", "gymnasium reward", "sb3 steps 64"):
        assert line in out, out
    for path in _rule_files():
        assert f"rule file {path.relative_to(RULE_FILES)} ->" in out

    cli = _run([str(venv / "bin" / "sheepfold"), "--help"], cwd=run, env=env).stdout
    assert "Usage" in cli and "play" in cli
    t_end = time.perf_counter()
    print(
        f"build+checks {t_build - t0:.1f} s, wheelhouse {t_fetch - t_build:.1f} s, "
        f"venv+install {t_install - t_fetch:.1f} s, snippets+cli {t_end - t_install:.1f} s"
    )
