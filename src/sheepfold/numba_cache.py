"""Caches that cannot go stale: a hash of the source they come from, and numba's cache folder.

Numba's own cache (``cache=True``) only notices an edit to the file a kernel is defined in (by
its time stamp and size): a constant or a compiled function imported from another module is
frozen into the compiled code and an edit to it is NOT noticed. So every cache of the package is
keyed by :func:`source_hash`, the sha256 of the source text of the modules it depends on, found
by following their imports, never by a version number kept by hand:

- numba: :func:`ensure_numba_cache_dir` puts every kernel in ``<base>/sheepfold-<hash>``, the
  hash of :data:`KERNEL_MODULES` and their top-level imports (and the numba version): an edit to
  a kernel or to anything it imports gives a new, empty folder. ``<base>`` is ``$NUMBA_CACHE_DIR`` if set, else
  ``($XDG_CACHE_HOME or ~/.cache)/sheepfold/numba``, else a folder under the system temp folder.
  The folders of other sources are removed once nobody used them for a week (the folder in use
  is touched each time it is chosen; numba makes its folder again if it has to save into it), so
  an edit costs one compilation and no disk for good.
- the solver's disk cache: ``solver.cache_key`` hashes ``solver.py`` and what it imports, also
  inside functions (the greedy bot's constants, say).

It is called before numba is imported by every module that compiles kernels (the solver, the
lab, Dolly Crush's compiled search), so they all share one folder.

Inside that folder numba would file each kernel under a hash of its source file's absolute
path: every checkout (a worktree, a copy in a temporary folder, an installed wheel) compiled
everything once more, cold, for sources the folder already held (measured: two copies of the
package, the expert's default playouts, 93 compilations each). The folder's hash already says
the sources are the same, so :func:`ensure_numba_cache_dir` also gives numba a locator of its
own (:func:`install_locator`): a kernel of a ``sheepfold`` module is filed under its module's
package name (``sheepfold.games.dolly_crush.kernel``), wherever its file lies, and stamped with
the sha256 of its file's text (not its time stamp). Two checkouts of the same sources share their
compiled kernels, neither evicts the other's (the same stamp), and a checkout of other sources
has a folder of its own.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

#: the modules that define compiled kernels (``tests/test_caches.py`` checks the list is whole)
KERNEL_MODULES = (
    "sheepfold.games.shave_a_sheep.solver_kernel",
    "sheepfold.games.shave_a_sheep.kernel.step",
    "sheepfold.games.shave_a_sheep.kernel.index",
    "sheepfold.games.shave_a_sheep.kernel.policy",
    "sheepfold.games.shave_a_sheep.kernel.play",
    "sheepfold.games.dolly_crush.kernel.lines",
    "sheepfold.games.dolly_crush.kernel.search",
    "sheepfold.games.dolly_crush.kernel.refill",
    "sheepfold.games.dolly_crush.kernel.policy",
    "sheepfold.games.dolly_crush.kernel.grid",
    "sheepfold.games.dolly_crush.kernel.order",
    "sheepfold.bots.dolly_mc",
    "sheepfold.lab.fastsim_shave",
    "sheepfold.games.features",
    "sheepfold.vector.batch_kernel",
    "sheepfold.vector.shave_kernel",
    "sheepfold.vector.dolly_kernel",
    "sheepfold.analysis.stochastic",
)

_PACKAGE = Path(__file__).resolve().parent  # the folder of the ``sheepfold`` package
_PREFIX = "sheepfold-"  # the name of the folders this module makes (and may remove)
_UNUSED_FOR = 7 * 24 * 3600  # seconds: then another source's folder is removed
# an import statement (a false match in a docstring only adds a module to the hash)
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^#\n]*)|import[ \t]+([^#\n]*))",
    re.M,
)
_BODY = re.compile(r"(?:async[ \t]+def|def|class)\b|@")  # a line that starts a def or class body


def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` if it belongs to the package (no import needed)."""
    parts = name.split(".")
    if parts[0] != "sheepfold":
        return None
    path = _PACKAGE.joinpath(*parts[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_level(text: str) -> str:
    """``text`` without the bodies of its top-level functions and classes (the indented lines
    after a ``def``, ``class`` or decorator at the start of a line, a closing bracket going on)."""
    kept, inside = [], False
    for line in text.split("\n"):
        if line[:1] not in ("", " ", "\t", "#", ")", "]", "}"):
            inside = _BODY.match(line) is not None
        kept.append("" if inside and line[:1] in (" ", "\t") else line)
    return "\n".join(kept)


def _imported(name: str, path: Path, text: str) -> list[str]:
    """Every module named by an import statement of ``text`` (module ``name``, file ``path``),
    relative imports resolved; ``from a import b`` names ``a`` and ``a.b`` (b may be a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for source, names, plain in _IMPORT.findall(text):
        if plain:
            found += [item.split()[0] for item in plain.split(",") if item.split()]
            continue
        dots = len(source) - len(source.lstrip("."))
        if dots:
            up = package.split(".")[: len(package.split(".")) - dots + 1]
            source = ".".join(up + [source[dots:]] if source[dots:] else up)
        found.append(source)
        names = re.sub(r"#[^\n]*", "", names).strip("()")  # comments inside parentheses
        words = (item.split() for item in names.split(","))
        found += [f"{source}.{w[0]}" for w in words if w]
    return found


@cache
def source_hash(*modules: str, lazy: bool = True) -> str:
    """The sha256 (hex) of the source of ``modules`` and of every ``sheepfold`` module they
    import, transitively (imports are read from the text: nothing is imported). ``lazy``: also
    follow the imports inside functions (what a result may depend on); else only the top-level
    ones (what numba can freeze into compiled code: the globals a kernel reads when compiled)."""
    texts: dict[str, str] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in texts or path is None:
            continue
        texts[name] = path.read_text(encoding="utf-8")
        todo += _imported(name, path, texts[name] if lazy else _module_level(texts[name]))
    digest = hashlib.sha256()
    for name in sorted(texts):
        digest.update(f"{name}\0{texts[name]}\0".encode())
    return digest.hexdigest()


def kernel_hash() -> str:
    """The hash that names numba's cache folder: the kernels' sources and numba's version (read
    from its ``_version.py``: ``importlib.metadata`` costs more than the rest together)."""
    spec = importlib.util.find_spec("numba")
    numba_version = "none"  # no numba: the kernels run as plain Python, nothing is cached
    if spec is not None and spec.origin is not None:
        try:
            numba_version = Path(spec.origin).with_name("_version.py").read_text(encoding="utf-8")
        except OSError:
            numba_version = spec.origin
    text = f"{source_hash(*KERNEL_MODULES, lazy=False)}|{numba_version}"
    return hashlib.sha256(text.encode()).hexdigest()


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".probe{os.getpid()}")
        with open(probe, "w") as f:
            f.write("")
        os.remove(probe)
        return True
    except OSError:
        return False


def _remove_unused(base: str, keep: str) -> None:
    """Remove the folders of other sources that nobody chose for :data:`_UNUSED_FOR`."""
    old = time.time() - _UNUSED_FOR
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(_PREFIX) and entry.path != keep and entry.is_dir():
            try:
                if entry.stat().st_mtime < old:
                    shutil.rmtree(entry.path, ignore_errors=True)
            except OSError:
                pass


def _is_ours(path: str) -> bool:
    name = os.path.basename(path)
    return re.fullmatch(re.escape(_PREFIX) + "[0-9a-f]{16}", name) is not None


@cache
def _file_hash(path: str, mtime_ns: int, size: int) -> str:
    """The sha256 of file ``path``'s bytes (cached while its time stamp and size stay)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _package_of(module: str, py_file: str) -> str | None:
    """The package name a kernel of ``module`` (defined in ``py_file``) is filed under: the
    module's package when it is a ``sheepfold`` module and ``py_file`` is that module's file
    (``.../sheepfold/games/dolly_crush/kernel/lines.py``), else None."""
    parts = module.split(".")
    if parts[0] != "sheepfold" or not py_file.endswith(".py"):
        return None
    path = Path(os.path.abspath(py_file))
    init = path.name == "__init__.py"
    stem = path.parent if init else path.with_suffix("")
    if stem.parts[-len(parts) :] != tuple(parts):
        return None
    return module if init else ".".join(parts[:-1])


_LOCATOR: Any = None  # the locator class, once made (numba imported)
#: held while one thread imports numba and installs the locator: a second thread (a server's
#: warm-up and a table's bot, each importing a kernel module) waits for the whole package
_NUMBA_IMPORT = threading.Lock()


def install_locator() -> Any:
    """Put numba's locator for the package's kernels first in numba's list (once; numba must be
    installed): a kernel of a ``sheepfold`` module, cached in one of this module's folders
    (named by the sources' hash), is filed under its package's name and stamped with its file's
    sha256, so every checkout of the same sources finds it (the module's docstring). Any other
    function, or a ``NUMBA_CACHE_DIR`` not chosen here, keeps numba's own locators. Returns the
    class.

    Thread-safe: numba is imported whole, by one thread at a time. Two threads importing it at
    once fail: while one is inside ``import numba``, ``numba.core`` is already complete, so the
    other's ``from numba.core import caching`` starts ``caching`` beside it; each then waits for
    a module the other holds, and Python breaks that cycle by handing one of them a half-made
    module ("cannot import name 'NullCache' from partially initialized module")."""
    global _LOCATOR
    if _LOCATOR is not None:
        return _LOCATOR
    with _NUMBA_IMPORT:
        if _LOCATOR is None:
            _LOCATOR = _make_locator()
    return _LOCATOR


def _make_locator() -> Any:
    """Import numba (the whole package first, then its submodules) and install
    ``SheepfoldLocator``; the class. The caller holds :data:`_NUMBA_IMPORT`."""
    import numba  # noqa: F401  (whole, before any submodule: see install_locator)
    from numba.core import caching
    from numba.core import config as numba_config

    config: Any = numba_config

    class SheepfoldLocator(caching._CacheLocator):  # type: ignore[misc, name-defined]
        """numba's cache locator for the package's kernels: by package name and content."""

        def __init__(self, py_func: Any, py_file: str, package: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(config.CACHE_DIR, package)

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            st = os.stat(self._py_file)
            return _file_hash(self._py_file, st.st_mtime_ns, st.st_size)

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            folder = config.CACHE_DIR
            if not folder or not _is_ours(os.path.normpath(folder)):
                return None
            package = _package_of(getattr(py_func, "__module__", None) or "", py_file)
            if package is None or not os.path.isfile(py_file):
                return None
            self = cls(py_func, py_file, package)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    impl: Any = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]  # numba 0.60
    impl._locator_classes = [SheepfoldLocator] + [
        c for c in impl._locator_classes if c.__name__ != SheepfoldLocator.__name__
    ]
    return SheepfoldLocator


def ensure_numba_cache_dir() -> str:
    """Choose (and create) numba's cache folder for the current kernels, export it as
    ``NUMBA_CACHE_DIR`` (subprocesses inherit it) and, if numba is already imported, tell it."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        base = os.path.normpath(base)
        if _is_ours(base):  # exported by a parent process (maybe of other sources): its base
            base = os.path.dirname(base)
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(home, "sheepfold", "numba")
    path = os.path.join(base, _PREFIX + kernel_hash()[:16])
    if not _writable(path):
        base = os.path.join(tempfile.gettempdir(), "sheepfold-numba")
        path = os.path.join(base, _PREFIX + kernel_hash()[:16])
        os.makedirs(path, exist_ok=True)
    os.utime(path)  # in use: not removed by another source's process
    _remove_unused(base, path)
    os.environ["NUMBA_CACHE_DIR"] = path
    numba = sys.modules.get("numba")
    if numba is not None and hasattr(numba, "config"):  # imported first: it read the old value
        numba.config.CACHE_DIR = path
    if importlib.util.find_spec("numba") is not None:  # the kernels' modules import it next
        install_locator()
    return path
