"""The gallery's lab cards, computed in the background: a queue kept in the database, worked
through by ``Settings.lab_workers`` workers (one by default), each card in a process of its own.

The queue is the versions whose ``lab_status`` is ``queued`` or ``running``: a publish adds one,
a restart finds them all again. The next card is taken round-robin across the address ranges
that published them (an IPv4 /24, an IPv6 /64), a range that asks for fewer cards first within
each round (:func:`fair_order`): a flood from many addresses waits behind everyone else's first
card. A card left ``running`` by a server that died is queued again and computed from the
start, once: a server that dies again while it runs leaves it ``failed``, saying so (the starts
are counted in the database; a server stopped on purpose gives its start back).

A worker runs ``python -m sheepfold.lab.card`` (niced, one core) with the job on its standard
input and reads the card's JSON lines as they come: progress is written to the database after
every chunk of games, then the card and its plot, or why it failed. The event loop only waits on
the process's pipes: the tables never wait for a card. A card has :data:`WARM_UP` seconds to
compile its simulator (it says ``warmed`` when it has, before its first games), then
``lab_seconds * 2 +`` :data:`GRACE` seconds for all its games: past either it is stopped and
marked failed (its own budget caps it after a chunk of games; a chunk that never ends, rules
that cost far more than they should, is stopped here). The card's process leads a process group
of its own, killed with it, and asks Linux to kill it when the server dies
(``PR_SET_PDEATHSIG``): a kill -9 of the server leaves no card computing for nobody.

The server may not import the lab (tests/test_layering.py): the card's process does.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheepfold.core import compiling
from sheepfold.core.words import Msg, from_data, to_data
from sheepfold.server.connections import client_key
from sheepfold.server.gallery_store import plot_text
from sheepfold.server.i18n import DEFAULT, catalog, catalogs

if TYPE_CHECKING:
    from sheepfold.server.gallery_store import GalleryStore, Job
    from sheepfold.server.tables import Settings

log = logging.getLogger("sheepfold.server")

#: the package's folder, for the card process's import path (the same sheepfold as the server)
_SRC = str(Path(__file__).resolve().parents[2])
#: the card's process computes on one core (numba's and the BLAS's thread pools included)
ONE_CORE = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
#: the card's process: ``python`` and these arguments
CARD = ("-m", "sheepfold.lab.card")
#: one line of the card's output at most (the last one holds the SVG plot)
MAX_LINE = 1 << 22


def card_name(version_id: int) -> str:
    """The lock's name of a lab card a server computes (many servers: server/cluster.py)."""
    return f"lab card {version_id}"


#: seconds a card's process has to compile its simulator (cold, the first card after an update
#: of the server: minutes; warm, a second) before it says ``warmed``
WARM_UP = 300.0
#: seconds a card may take beyond twice its budget once warmed (its budget is checked after each
#: chunk of games, each player count plays one at least; then the exact figures and the plots)
GRACE = 30.0


def client_range(client: str) -> str:
    """The range a publisher's cards take their turns as, one party however many addresses it
    has there: an IPv4 address's /24, an IPv6 client's /64 (:func:`.connections.client_key`);
    anything else (a Unix socket's client, a name) as it is."""
    key = client_key((client, 0)) or client
    try:
        ip = ipaddress.IPv4Address(key)
    except ValueError:
        return key
    return str(ipaddress.IPv4Network((ip, 24), strict=False))


def _round_robin(jobs: Sequence[Job], party: Callable[[Job], str]) -> list[Job]:
    """``jobs`` (in the order they were queued) taken one of each ``party`` at a time: every
    party's first job, then every party's second, each round in the order they were queued."""
    seen: dict[str, int] = {}
    ranked = []
    for i, job in enumerate(jobs):
        rank = seen.get(party(job), 0)
        seen[party(job)] = rank + 1
        ranked.append((rank, i, job))
    return [job for _, _, job in sorted(ranked, key=lambda r: (r[0], r[1]))]


def fair_order(jobs: Sequence[Job]) -> list[Job]:
    """The open jobs in the order they are served: round-robin across the address ranges that
    published them (:func:`client_range`), and within a range across its addresses. A job's
    round is how many jobs of its range come before it (a running one included); within a
    round the ranges with fewer open jobs go first (a flood of cards waits behind a publisher
    of one), then the order they were queued. A newcomer's first card therefore waits behind
    the first card of the ranges that have no more open cards than it, and nothing else."""
    ranges: dict[str, list[Job]] = {}
    for job in jobs:  # ``jobs`` come in the order they were queued
        ranges.setdefault(client_range(job.client), []).append(job)
    queued = {job.id: i for i, job in enumerate(jobs)}
    ranked = [
        (turn, len(mine), queued[job.id], job)
        for mine in ranges.values()
        for turn, job in enumerate(_round_robin(mine, lambda j: j.client))
    ]
    return [job for *_, job in sorted(ranked, key=lambda r: r[:3])]


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` for a lab card's child: :func:`.compiling.die_with_parent` (killed when
    the server dies: call it on a thread that lives as long as the server, the event loop's),
    and run at idle priority. Elsewhere than Linux: nothing (the process group still goes)."""
    dies = compiling.die_with_parent()

    def preexec() -> None:
        dies()
        # the card runs only on CPU time nothing else wants (tables and bots first; its time
        # budget caps a card that waits too long): Linux's SCHED_IDLE, below any nice level
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    return preexec


class LabQueue:
    def __init__(self, store: GalleryStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.wake = asyncio.Event()
        self.busy: set[int] = set()  # version ids a worker holds now
        self.procs: set[asyncio.subprocess.Process] = set()
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Queue again (once) what a stopped server left running; start the workers."""
        try:
            running = [job.id for job in self.store.queue() if job.status == "running"]
            shared = getattr(self.store.storage, "shared", None)  # many servers: cluster.py
            if shared is not None:  # only the cards no live server computes
                running = [v for v in running if not shared.held(card_name(v))]
            if running:
                again, failed = self.store.requeue_running(running)
                log.info(
                    "gallery: %d lab card(s) left running are queued again, %d failed (the "
                    "server stopped twice while computing them)",
                    again,
                    failed,
                )
        except Exception as e:  # a read-only database: the server serves; /healthz tells
            log.error("gallery: the lab queue cannot be resumed: %s", e)
        loop = asyncio.get_event_loop()
        self.tasks = [loop.create_task(self._worker()) for _ in range(self.settings.lab_workers)]

    def order(self) -> list[int]:
        """The waiting jobs (no worker holds them yet), the next first."""
        return [
            j.id
            for j in fair_order(self.store.queue())
            if j.id not in self.busy and j.status == "queued"  # running: a worker holds it
        ]

    def waiting(self) -> int:
        """Jobs in the queue that no worker holds yet."""
        return len(self.order())

    def waiting_of(self, client: str, but_ruleset: int | None = None) -> int:
        """The open jobs (waiting or running) published from ``client``, leaving out those of
        ``but_ruleset`` (a new version takes their place)."""
        jobs = self.store.queue()
        return sum(1 for j in jobs if j.client == client and j.ruleset_id != but_ruleset)

    def poke(self) -> None:
        """A job was queued."""
        self.wake.set()

    async def close(self) -> None:
        """Stop the workers and their processes; their jobs stay ``running`` in the database,
        so the next start queues them again, and their start is given back (a stop on purpose
        is not the card's failure)."""
        running = set(self.busy)
        for t in self.tasks:
            t.cancel()
        for p in list(self.procs):
            _kill(p)
        for t in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for vid in running:
            with contextlib.suppress(Exception):  # the database is gone: the start counts
                self.store.started(vid, -1)

    async def _worker(self) -> None:
        while True:
            self.wake.clear()
            try:
                todo = self.order()
            except Exception as e:  # the database does not answer: wait for the next publish
                log.error("gallery: the lab queue cannot be read: %s", e)
                todo = []
            if not todo:
                await self.wake.wait()
                continue
            vid = todo[0]
            self.busy.add(vid)
            try:
                await self._run(vid)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # never lose a worker to one card
                log.exception("gallery: lab card %s failed", vid)
                self.store.set_lab(
                    vid, status="failed", message=Msg("the lab job failed: {why}", why=str(e))
                )
            finally:
                self.busy.discard(vid)
                with contextlib.suppress(Exception):
                    self._unclaim(vid)

    def _spec(self, vid: int) -> dict[str, Any] | None:
        v = self.store.lab_job(vid)
        if v is None:
            return None
        from sheepfold.server.gallery import base_options, version_base

        st = self.settings
        name, words = version_base(v)
        return {
            "game": v.game,
            "rules": v.rules,
            "base": base_options(v.game, name),
            "base_words": to_data(words),  # a Msg: the card stores it as data
            # no "players": the card plays the counts the rule set is meant for (2 and 4, or
            # those it seats: lab/card.py's player_counts), each count's games a side
            "games": st.lab_games,
            "seconds": st.lab_seconds,
            "seed": 0,
            "exact_limit": st.lab_exact_limit,
            # the plot is drawn in each language served (the card's process has no catalog)
            "catalogs": {lang: catalog(lang) for lang in catalogs() if lang != DEFAULT},
        }

    def _claim(self, vid: int) -> bool:
        """Take the queued card ``vid`` (running, one more start counted): True if it was still
        queued. One statement: under the database's row lock, a second server's claim of the
        same card finds it running and changes nothing (many servers on one PostgreSQL)."""
        from sqlalchemy import update

        from sheepfold.server.storage import versions_t as v

        with self.store.storage.transaction() as c:
            claim = (
                update(v)
                .where(v.c.id == vid, v.c.lab_status == "queued")
                .values(
                    lab_status="running",
                    lab_progress=0.0,
                    lab_message=None,
                    lab_attempts=v.c.lab_attempts + 1,
                )
            )
            if c.execute(claim).rowcount != 1:
                return False
        shared = getattr(self.store.storage, "shared", None)
        if shared is not None:  # held while this process computes it (its session's lock)
            shared.hold(card_name(vid))
        return True

    def _unclaim(self, vid: int) -> None:
        shared = getattr(self.store.storage, "shared", None)
        if shared is not None:
            shared.free(card_name(vid))

    async def _run(self, vid: int) -> None:
        spec = self._spec(vid)
        if spec is None:
            return
        if not self._claim(vid):  # another server's worker took it first
            return
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")]),
            **ONE_CORE,
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *CARD,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            limit=MAX_LINE,
            start_new_session=True,  # its own group, killed whole (uvloop has no process_group)
            preexec_fn=die_with_parent(),  # forked by the event loop's thread: the server's life
        )
        self.procs.add(proc)
        errors = asyncio.get_event_loop().create_task(_tail(proc.stderr))
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(spec).encode())
            await proc.stdin.drain()
            proc.stdin.close()
            result = await self._read(vid, proc.stdout)
            await asyncio.wait_for(proc.wait(), GRACE)
            err = await errors
        except TimeoutError:
            await _stop(proc, errors)
            self.store.set_lab(
                vid, status="failed", message=Msg("the lab job took far longer than its budget")
            )
            return
        except BaseException:  # the server stops (cancelled; the job stays "running", to
            await _stop(proc, errors)  # resume), or something broke: never leave it running
            raise
        finally:
            self.procs.discard(proc)
        self._finish(vid, result, proc.returncode, err)

    async def _read(self, vid: int, out: asyncio.StreamReader) -> dict[str, Any] | None:
        """Progress lines into the database; the last line (the card or an error) returned.
        TimeoutError past the card's deadlines: :data:`WARM_UP` until it says ``warmed``, then
        twice its budget and :data:`GRACE`."""
        async with asyncio.timeout(WARM_UP) as deadline:
            while True:
                line = await out.readline()
                if not line:
                    return None
                msg = self._line(vid, line)
                if msg is None:
                    continue
                if "progress" not in msg:
                    return msg
                if msg.get("warmed"):  # its games start: their deadline
                    loop = asyncio.get_running_loop()
                    deadline.reschedule(loop.time() + self.settings.lab_seconds * 2 + GRACE)

    def _line(self, vid: int, line: bytes) -> dict[str, Any] | None:
        """A line of the card's output: a progress line (written to the database), the last
        line (the card or an error), or None: not ours."""
        try:
            msg = json.loads(line)
        except ValueError:  # a library's chatter on standard output: not ours
            return None
        if not isinstance(msg, dict):
            return None
        if "progress" in msg:  # with a message while it warms up, without after
            self.store.set_lab(vid, progress=float(msg["progress"]), message=msg.get("message"))
        return dict(msg)

    def _finish(self, vid: int, result: dict[str, Any] | None, code: int | None, err: str) -> None:
        if result is not None and "card" in result:
            card = result["card"]
            plot = result.get("plot")
            others = result.get("plots")
            others = others if isinstance(others, dict) else {}
            self.store.set_lab(
                vid,
                status="done",
                progress=1.0,
                card=card,
                plot=plot_text({**others, "en": plot}) if isinstance(plot, str) else None,
                message=card.get("message"),
            )
            return
        if result is not None and "refused" in result:
            self.store.set_lab(vid, status="refused", message=_why(result["refused"]))
            return
        why = (result or {}).get("error") or Msg(
            "the lab process stopped (exit status {code})", code=code
        )
        if err:
            log.warning("gallery: lab card %s failed: %s", vid, err)
        self.store.set_lab(vid, status="failed", message=_why(why))


def _why(said: Any) -> Any:
    """A refusal's or a failure's words as the card's process sent them: words kept as data (a
    Msg again: translated where the gallery serves them), or its text, 500 characters at most."""
    words = from_data(said)
    return words if isinstance(words, Msg) else str(words)[:500]


async def _stop(proc: asyncio.subprocess.Process, errors: asyncio.Task[str]) -> None:
    """Kill a card's process and read its pipes to their end, so that its transport is closed
    before the event loop is (a server that stops while a card runs)."""
    errors.cancel()
    _kill(proc)
    with contextlib.suppress(Exception):
        await proc.communicate()


def _kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL to a card's process group (the process and anything it started)."""
    if proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


async def _tail(stream: asyncio.StreamReader | None, keep: int = 2000) -> str:
    """The last ``keep`` characters of a stream (read to the end: a full pipe never blocks)."""
    text = ""
    while stream is not None:
        chunk = await stream.read(65536)
        if not chunk:
            break
        text = (text + chunk.decode(errors="replace"))[-keep:]
    return text
