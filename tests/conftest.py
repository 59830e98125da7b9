"""Shared test settings: caches out of $HOME, hypothesis profiles.

* ``ci`` (the default, ``make test`` and ``make test-fast``): derandomized (the same examples on
  every run), no example database to depend on; sized for a 2-core CI machine.
* ``random`` (``make test-random``, ``HYPOTHESIS_PROFILE=random``): new random examples on every
  run, more of them; a failure prints its reproduction blob: pin it in the test with
  ``@example(...)`` so the derandomized suite checks it from then on.
* ``dev``: fewer examples, for a quick local run.

``make test`` runs the tests on one pytest-xdist worker per CPU (``-n logical``; a bare
``pytest``: all in this process): each worker has its own temporary folders (``tmp_path``), its own
SHEEPFOLD_HOME, its own browser and PostgreSQL server; servers listen on port 0. The tests that
must not run beside each other are grouped below (``RUN_APART``): each group runs on one worker,
one test after another.
"""

import argparse
import os
import random
import tempfile

# The caches the tests fill stay under the system temp folder, never in $HOME; set before anything
# imports sheepfold or numba, and inherited by the subprocesses the tests start (set either
# variable yourself to choose another folder):
# - numba's compiled kernels: one fixed folder, reused run after run. Compiling them all cold
#   takes over 100 s here, and reuse is safe: the kernels go to a subfolder named by a hash of
#   their source (sheepfold/numba_cache.py), so an edit to a kernel is a miss, never stale code.
#   The xdist workers share it: numba writes each cache file whole under a temporary name and
#   renames it, so two workers compiling one kernel at once only do the work twice.
# - SHEEPFOLD_HOME (the solver's cache, user rule sets): a fresh folder for each session, removed
#   at exit, as it holds more than caches; the solutions the tests need take under a second. Each
#   xdist worker makes its own (it inherits the folder its controller made, marked by
#   SHEEPFOLD_TEST_MADE_HOME): two tests running at once never see each other's files.
os.environ.setdefault(
    "NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "sheepfold-tests", "numba")
)
# - matplotlib's font cache (the lab's plots), likewise reused
os.environ.setdefault(
    "MPLCONFIGDIR", os.path.join(tempfile.gettempdir(), "sheepfold-tests", "matplotlib")
)
if os.environ.get("SHEEPFOLD_HOME", "") in ("", os.environ.get("SHEEPFOLD_TEST_MADE_HOME")):
    _home = tempfile.TemporaryDirectory(prefix="sheepfold-tests-home-")
    os.environ["SHEEPFOLD_HOME"] = os.environ["SHEEPFOLD_TEST_MADE_HOME"] = _home.name

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "random",
    max_examples=300,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# A second core compiles the kernels while the first runs the tests: `sheepfold warm` in a
# background process (sheepfold.warm), whose workloads come in the order the suite needs them
# last-first. Cold (a fresh machine, CI) compiling takes minutes; warm it only loads them. It
# changes no result: a test that needs a kernel before the warm-up got to it compiles it itself.
# SHEEPFOLD_TEST_WARM=0 turns it off.
_warm: dict[str, object] = {}


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    worker = hasattr(config, "workerinput")  # an xdist worker: its controller warms
    if worker or os.environ.get("SHEEPFOLD_TEST_WARM", "1") == "0" or config.option.collectonly:
        return
    folder = os.path.join(tempfile.gettempdir(), "sheepfold-tests")
    os.makedirs(folder, exist_ok=True)
    log = open(os.path.join(folder, "warm.log"), "w")  # noqa: SIM115
    _warm["log"] = log
    _warm["proc"] = subprocess.Popen(
        [sys.executable, "-m", "sheepfold.cli.main", "warm"],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole at the end
    )


def pytest_unconfigure(config) -> None:  # type: ignore[no-untyped-def]
    import signal

    proc = _warm.pop("proc", None)
    if proc is not None and proc.poll() is None:  # type: ignore[attr-defined]
        os.killpg(proc.pid, signal.SIGKILL)  # type: ignore[attr-defined]
        proc.wait()  # type: ignore[attr-defined]
    if "log" in _warm:
        _warm.pop("log").close()  # type: ignore[attr-defined]


# -- the xdist workers ---------------------------------------------------------------------------
#: tests that must never run at the same time as each other, by node id prefix: each group is one
#: unit of work, run by one worker, one test after another.
#: - ray: local Ray instances and a two-node cluster on this machine share Ray's session folder
#:   (a local ``ray.init`` may join a running cluster) and claim the CPUs; the cluster (a module
#:   fixture) starts once
#: - cluster: the PostgreSQL + haproxy + three ``sheepfold serve`` cluster of test_cluster.py is a
#:   module fixture: its tests on one worker start it once (spread over two workers, each would
#:   start its own, six servers on a 2-core machine)
RUN_APART = {
    "ray": (
        "tests/test_lab_ray_cluster.py::",
        "tests/test_lab_runner.py::test_ray_",
        "tests/test_lab_depth.py::test_kingmaking_on_ray_local",
    ),
    "cluster": ("tests/web/test_cluster.py::",),
}


def group_of(nodeid: str) -> str | None:
    """The RUN_APART group of a test, by its node id."""
    return next((g for g, keys in RUN_APART.items() if nodeid.startswith(keys)), None)


# xdist's own --dist loadgroup cannot be used: with pytest 9.2 it silently stops grouping
# (pytest-dev/pytest-xdist#1386). This scheduler is xdist's loadscope with every test its own
# unit of work, but for the groups: the tests go out one or two at a time to whichever worker is
# free, groups first (the largest units).
@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):  # type: ignore[no-untyped-def]
    if config.getvalue("dist") != "load":
        return None  # another --dist asked for: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class RunApartScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid) or nodeid

    return RunApartScheduling(config, log)


#: the markers of the longest tests (pyproject.toml): a worker deals them out first
LONG = ("slow", "browser", "postgres")
#: long tests without those markers (they stay in make test-fast), also dealt out first: mypy on
#: the whole package (test_typing.py; a minute of one core with no mypy cache) left to the end
#: would run alone while the other workers sit idle
LONG_TESTS = ("tests/test_typing.py::",)


def order_of(text: str) -> str | int:
    """``--order``'s value: ``reverse``, or a seed (an integer) to shuffle by."""
    if text == "reverse":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: say reverse, or a whole number to shuffle the tests by"
        ) from None


def pytest_addoption(parser) -> None:  # type: ignore[no-untyped-def]
    parser.addoption(
        "--order",
        type=order_of,
        default=None,
        metavar="reverse|SEED",
        help="run the tests reversed, or shuffled by SEED (make test-order): finds a test that "
        "passes only after another has run",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:  # type: ignore[no-untyped-def]
    """``--order``: the tests reversed or shuffled (the same order on every worker). Then, on
    xdist workers, the longest tests first (each keeps its order): they start while every
    worker is busy and the short ones fill in at the end, instead of one long test running alone
    at the end. Every worker collects the same order (the scheduler checks it)."""
    order = config.getoption("order")
    if order == "reverse":
        items.reverse()
    elif order is not None:
        random.Random(order).shuffle(items)
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: not long(item))


def long(item: pytest.Item) -> bool:
    """One of the longest tests (LONG, LONG_TESTS)."""
    return item.nodeid.startswith(LONG_TESTS) or any(item.get_closest_marker(m) for m in LONG)
