"""Where numba keeps compiled kernels (``cache=True`` needs a writable folder).

Called before numba is imported by every module that compiles kernels (the solver, the lab), so
they all share one folder: ``$NUMBA_CACHE_DIR`` if set, else ``($XDG_CACHE_HOME or
~/.cache)/sheepfold/numba``, else a folder under the system temp folder.
"""

from __future__ import annotations

import os
import tempfile


def ensure_numba_cache_dir() -> str:
    """Choose (and create) the cache folder and export it as ``NUMBA_CACHE_DIR``."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return os.environ["NUMBA_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "sheepfold", "numba")
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".probe{os.getpid()}")
        with open(probe, "w") as f:
            f.write("")
        os.remove(probe)
    except OSError:
        path = os.path.join(tempfile.gettempdir(), "sheepfold-numba")
        os.makedirs(path, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = path
    return path
