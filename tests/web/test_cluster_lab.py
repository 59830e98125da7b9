"""Lab cards are claimed once (server/gallery_lab.py): of two servers' workers that both saw a
card queued, one takes it and the other changes nothing; on PostgreSQL a card a live server
computes is never queued again by another server's start."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from sheepfold.server.gallery_lab import LabQueue, card_name
from sheepfold.server.gallery_store import GalleryStore
from sheepfold.server.storage import Storage, rulesets_t, versions_t
from sheepfold.server.tables import Settings


def queued_card(storage: Storage) -> int:
    now = time.time()
    with storage.transaction() as c:
        rid = c.execute(
            insert(rulesets_t).values(
                game="shave-a-sheep",
                slug=f"r{now}",
                name="r",
                author="a",
                token_hash="0" * 64,
                client="127.0.0.1",
                created=now,
            )
        ).inserted_primary_key[0]
        vid = c.execute(
            insert(versions_t).values(
                ruleset_id=rid,
                version=1,
                description="",
                rules={},
                changes=[],
                differences=[],
                client="127.0.0.1",
                created=now,
                lab_status="queued",
                lab_queued=now,
            )
        ).inserted_primary_key[0]
    return int(vid)


def status(storage: Storage, vid: int) -> tuple[str, int]:
    with storage.engine.connect() as c:
        r = c.execute(
            select(versions_t.c.lab_status, versions_t.c.lab_attempts).where(versions_t.c.id == vid)
        ).one()
    return r.lab_status, r.lab_attempts


def test_a_card_is_claimed_once_by_two_servers_workers(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "lab.db"))
    first, second = (LabQueue(GalleryStore(storage), Settings()) for _ in range(2))
    vid = queued_card(storage)
    assert first.order() == second.order() == [vid]
    assert first._claim(vid) is True
    assert second._claim(vid) is False  # it saw the card queued; it was taken meanwhile
    assert status(storage, vid) == ("running", 1)
    assert second.order() == []  # a running card is nobody else's to take
    storage.close()


@pytest.mark.postgres
def test_a_starting_server_requeues_only_the_cards_of_servers_that_are_gone(postgres_url):
    from sheepfold.server.cluster import ClusterStorage

    live, starting = ClusterStorage(postgres_url), ClusterStorage(postgres_url)
    busy = LabQueue(GalleryStore(live), Settings())
    computing, orphan = queued_card(live), queued_card(live)
    assert busy._claim(computing) and busy._claim(orphan)
    busy._unclaim(orphan)  # as if the server computing it had died: its lock is free
    assert live.held(card_name(computing)) and not live.held(card_name(orphan))

    async def start() -> None:
        queue = LabQueue(GalleryStore(starting), Settings(lab_workers=0))
        queue.start()

    from polling import run_async

    run_async(start())
    assert status(live, computing) == ("running", 1)  # a live server computes it
    assert status(live, orphan) == ("queued", 1)  # queued again, once
    live.close()
    starting.close()
