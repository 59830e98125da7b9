"""A process pool that one Ctrl-C stops: the lab's runs and the tournaments play on it."""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C until the block ends, then act on it as usual.

    The first ``submit`` forks the workers, and a fork runs Python's at-fork handlers (the
    logging module's, among others) in this process: a KeyboardInterrupt raised inside one of
    them is printed as "Exception ignored" and lost, and the run went on to its end. While the
    workers are forked the interrupt is only noted; it is raised once they are all started."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if noted and callable(before):
            before(signal.SIGINT, None)


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
        with _ctrl_c_held():
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
