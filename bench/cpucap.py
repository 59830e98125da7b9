"""A process's CPU capped at a fraction of a core, by a cgroup of its own (Linux, root).

bench_cluster.py uses it to give every server process the same CPU budget (``--server-cores``):
on a machine with few cores, where the load-generating client, haproxy and PostgreSQL share
the cores with the servers, capping each server at, say, 0.4 of a core stands in for one small
core per server, so that adding a server adds CPU to the servers and not to the others. Both
cgroup layouts are handled: v2's unified hierarchy (``cpu.max``) and v1's ``cpu`` controller
(``cpu.cfs_quota_us``). A capped process's threads and later children stay in its cgroup.

    with Caps(0.4) as caps:
        caps.cap(pid)   # the process pid and its threads: at most 0.4 of a core
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from types import TracebackType

PERIOD_US = 10_000  # a short period: a capped server is held back milliseconds at a time, not tens
ROOT = Path("/sys/fs/cgroup")


def _hierarchy() -> tuple[Path, int]:
    """The cgroup folder to make caps under, and its layout's version (1 or 2)."""
    v1 = ROOT / "cpu"
    if (v1 / "cpu.cfs_quota_us").exists():
        return v1, 1
    if (ROOT / "cgroup.controllers").exists():
        own = Path("/proc/self/cgroup").read_text().splitlines()
        path = next((line.split("::", 1)[1] for line in own if line.startswith("0::")), "/")
        return ROOT / path.lstrip("/"), 2
    raise OSError(f"no cgroup cpu controller under {ROOT}")


class Caps:
    """Cgroups made for capped processes, removed on exit (their processes moved back)."""

    def __init__(self, cores: float) -> None:
        if not 0.01 <= cores <= os.cpu_count():  # type: ignore[operator]
            raise ValueError(f"a cap of {cores} cores: give a number from 0.01 to the core count")
        self.cores = cores
        self.base, self.version = _hierarchy()
        self.made: list[Path] = []

    def cap(self, pid: int) -> None:
        """Process ``pid`` (every thread) limited to ``cores`` of CPU time per second."""
        group = self.base / f"sheepfold-cap-{os.getpid()}-{pid}"
        try:
            group.mkdir()
            self.made.append(group)
            quota = max(1000, round(self.cores * PERIOD_US))
            if self.version == 1:
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                with contextlib.suppress(OSError):  # already on where a parent enabled it
                    (self.base / "cgroup.subtree_control").write_text("+cpu")
                (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as e:
            raise OSError(
                f"could not cap process {pid} at {self.cores} cores in {group} ({e.strerror}): "
                "capping needs root and a writable cgroup cpu controller"
            ) from e

    def throttled(self) -> float:
        """Seconds the capped processes were held back by their caps, all together (a cap
        that binds shows here: a saturated server spends part of each period waiting)."""
        key, unit = ("throttled_time", 1e9) if self.version == 1 else ("throttled_usec", 1e6)
        total = 0.0
        for group in self.made:
            with contextlib.suppress(OSError, KeyError, ValueError):
                lines = (group / "cpu.stat").read_text().splitlines()
                total += int(dict(line.split() for line in lines)[key]) / unit
        return total

    def __enter__(self) -> Caps:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        parent = self.base / "cgroup.procs"
        for group in self.made:
            with contextlib.suppress(OSError):
                for pid in (group / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        parent.write_text(pid)
                group.rmdir()
        self.made = []
