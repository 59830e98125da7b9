"""Group commit: the actions tables accepted in one turn of the event loop, in one transaction.

A table that accepts an intent queues its new engine actions here; at the end of that turn of
the event loop they are written (every table in one transaction), and only when the commit has
returned are the new views broadcast and the bots woken. If it fails, every table in it goes
back to its last committed position and each sender gets an error.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg
from sheepfold.server.storage import Storage

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

Pending = tuple["Table", int, list[tuple[int, int]], bool, Any]


class GroupCommit:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.pending: list[Pending] = []
        self.later: set[Table] = set()  # tables whose broadcast waits for the commit
        self._flush_soon = False
        self.closed = False
        self.commits = 0  # transactions (a batch of tables each)

    def queue_write(
        self, table: Table, start: int, actions: list[tuple[int, int]], finished: bool, sender: Any
    ) -> None:
        if self.closed:
            raise SheepfoldError("the server is shutting down")
        self.pending.append((table, start, actions, finished, sender))
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_event_loop().call_soon(self.flush)

    def after_commit(self, table: Table) -> None:
        """``table`` broadcasts (and schedules) once the commit in progress has returned."""
        self.later.add(table)

    def flush(self) -> None:
        """Commit every pending action of every table in one transaction, then tell everyone."""
        self._flush_soon = False
        batch, self.pending = self.pending, []
        tables: dict[str, Table] = {}
        if batch:
            self._commit(batch)
            for t, *_ in batch:
                tables[t.id] = t
        for t in self.later:
            tables[t.id] = t
        self.later = set()
        for t in tables.values():
            if not t.dirty:
                t.broadcast()
                t.schedule()

    def _commit(self, batch: list[Pending]) -> None:
        try:
            self.storage.append_many([(t.id, start, acts, fin) for t, start, acts, fin, _ in batch])
            self.commits += 1
        except Exception as e:
            for t, *_ in batch:
                if t.dirty:
                    t.roll_back()
            for *_, sender in batch:
                if sender is not None:
                    conn, ref = sender
                    conn.error(
                        Msg(
                            "the move could not be saved, so it did not happen ({error}); try "
                            "again",
                            error=type(e).__name__,
                        ),
                        ref=ref,
                    )
        else:
            for t, *_ in batch:
                t.committed()
