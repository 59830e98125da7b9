"""``lab run``'s progress moves from the start (issue 26): the first chunks hold one game for
each worker and grow from there (2, 4, ... up to the chunk size), so that slow bots report their
first game as soon as it ends; a chunk size asked for is kept as it is."""

from __future__ import annotations

from sheepfold.lab.runner import _chunks, make_job, run


def test_chunks_grow_from_one_game_per_worker() -> None:
    sizes = [len(c) for c in _chunks(list(range(40)), 8, workers=2)]
    assert sizes == [1, 1, 2, 2, 4, 4, 8, 8, 8, 2]
    assert [len(c) for c in _chunks(list(range(20)), 8)] == [8, 8, 4]
    every = [i for c in _chunks(list(range(100)), 7, workers=3) for i in c]
    assert every == list(range(100))


def test_the_first_game_is_reported_when_it_ends() -> None:
    job = make_job("shave-a-sheep", bots=["random"], games=12, engine="engine")
    reports: list[int] = []
    table = run(job, workers=1, progress=lambda done, total: reports.append(done))
    assert reports[:2] == [0, 1]  # before: 0, then a whole chunk of 3 games at once
    assert reports[-1] == 12 and table.num_rows == 12
    same = run(job, workers=1, chunk_size=12)  # the chunks do not change the games
    assert same.column("scores").to_pylist() == table.column("scores").to_pylist()
