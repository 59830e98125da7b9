"""A process pool that one Ctrl-C stops: the lab's runs and the tournaments play on it."""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent (else every worker prints its own traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_pool(
    fn: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    workers: int,
    collect: Callable[[Any], None],
    ahead: int = 2,
) -> None:
    """``fn(*task)`` for every task on ``workers`` forked processes, each result handed to
    ``collect`` as it finishes (in the main process). At most ``ahead`` tasks per worker are
    queued, so an interrupt finds little queued work. An interrupt (KeyboardInterrupt) or any
    error terminates the workers (what is queued never runs) and is raised again: what ``collect``
    received is kept, and no process is left behind."""
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=mp.get_context("fork"), initializer=_ignore_sigint
    )
    pending: set[Future[Any]] = set()
    it = iter(tasks)
    try:
        for task in it:
            pending.add(pool.submit(fn, *task))
            if len(pending) >= workers * ahead:
                break
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in ready:
                collect(f.result())
                more = next(it, None)
                if more is not None:
                    pending.add(pool.submit(fn, *more))
        pool.shutdown(wait=True)
    except BaseException:
        # the queued tasks are not cancelled one by one: the pool's own thread would then fail
        # on them as the workers stop (CPython 3.11: InvalidStateError, printed as a traceback);
        # stopping the workers marks them failed, and nobody waits for them
        _stop_workers(pool)
        raise


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's workers and wait until they and the pool's own thread are gone.

    A worker terminated in the middle of sending its result leaves the pool's thread waiting,
    for ever, for the rest of that message (it was reading it). Once every worker is dead, the
    only other end of that pipe is this process's own copy of the writing end: closing it ends
    the wait (end of file), the thread takes the pool for broken and ends, and ``shutdown`` can
    wait for it (6 hangs in 120 interrupted runs before)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:  # the workers this pool started, by their own handles
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    # the pool's own thread reaps the dead workers and ends: waiting for it means that no
    # worker is left behind, not even one that is dead but not yet reaped
    pool.shutdown(wait=True, cancel_futures=True)
