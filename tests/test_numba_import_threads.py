"""Two threads may import kernel modules at once (issue 50): the server's bot warm-up imports the
expert's playouts in its thread while a table's bot, a rules check or a lab card imports another
kernel module in another. Every ``bench/bench_abuse.py`` run logged "the bots' warm-up failed:
ImportError: cannot import name 'NullCache' from partially initialized module
'numba.core.caching'": the second thread's ``from numba.core import caching``
(``numba_cache.install_locator``) started numba's ``caching`` beside the first thread's
``import numba``, each then waited for a module the other held, and Python broke the cycle with
a half-made module. ``install_locator`` now imports numba whole, one thread at a time."""

from __future__ import annotations

import subprocess
import sys

# A fresh interpreter (numba not imported yet). Thread "warm-up" imports the expert's playouts
# as BotWarmUp does (bots.warmup.module) and is held just before numba's ``dispatcher`` runs
# (numba half imported, ``numba.core`` complete) until thread "table" is either importing
# numba's ``caching`` itself (the race of the bug) or waiting for the warm-up's import of numba
# (numba_cache's lock, wrapped here to say so); then both go on. Each thread's error is printed.
RACE = """
import importlib.abc, importlib.machinery, sys, threading, traceback

warm_up_inside, table_going = threading.Event(), threading.Event()


class Held(importlib.abc.Loader):
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        warm_up_inside.set()
        table_going.wait()
        self.loader.exec_module(module)


class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        me = threading.current_thread().name
        if name == "numba.core.caching" and me == "table":
            table_going.set()
        if name == "numba.core.dispatcher" and me == "warm-up":
            spec = importlib.machinery.PathFinder.find_spec(name, path, target)
            spec.loader = Held(spec.loader)
            return spec
        return None


sys.meta_path.insert(0, Watch())
from sheepfold import numba_cache
from sheepfold.bots import warmup
import sheepfold.games.shave_a_sheep.kernel  # the packages (not their numba modules)
assert "numba" not in sys.modules

lock = getattr(numba_cache, "_NUMBA_IMPORT", None)
if lock is not None:
    class Told:
        def __enter__(self):
            if threading.current_thread().name == "table":
                table_going.set()
            return lock.__enter__()

        def __exit__(self, *exc):
            return lock.__exit__(*exc)

    numba_cache._NUMBA_IMPORT = Told()
errors = []


def load(name):
    try:
        warmup.module(name)
    except BaseException:
        errors.append(traceback.format_exc())


warm = threading.Thread(target=load, args=("sheepfold.bots.dolly_mc",), name="warm-up")
warm.start()
warm_up_inside.wait()
table = threading.Thread(
    target=load, args=("sheepfold.games.shave_a_sheep.kernel.step",), name="table"
)
table.start()
warm.join()
table.join()
print("".join(errors) or "both imported")
"""


def test_two_threads_import_kernel_modules_while_numba_is_half_imported() -> None:
    # the timeout only stops a hang (a lock renamed: the table thread never says it waits)
    run = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "both imported", run.stdout
