"""Seeds nobody can guess: 128 bits from ``secrets`` for every table, every bit of them in the
deck and the dice, and an opening that does not pin the rest of the game down."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from sheepfold.core import protocol
from sheepfold.core.protocol import seeded_random
from sheepfold.games import make
from sheepfold.server.limits import Rate


def _seed_of(srv: Any, table: dict[str, Any]) -> int:
    return int(srv.manager.get(table["id"]).seed)


def test_every_table_gets_128_secret_bits(make_server, monkeypatch):
    srv = make_server(allow_seed=False)
    seeds = [
        _seed_of(srv, srv.create(game=g, seats=[{}, {}]))
        for g in ("dolly-crush", "shave-a-sheep", "dolly-crush")
    ]
    assert len(set(seeds)) == 3 and all(s >> 128 == 1 for s in seeds)
    drawn: list[int] = []

    def randbits(k: int) -> int:  # the seeds come from secrets.randbits(128), nothing else
        drawn.append(k)
        return 0xABCDEF

    monkeypatch.setattr(protocol.secrets, "randbits", randbits)
    t = srv.create(game="shave-a-sheep", seats=[{}, {}])
    assert drawn == [128] and _seed_of(srv, t) == (1 << 128) | 0xABCDEF
    stored = srv.manager.storage.load_all()
    assert {r.id: r.seed for r in stored}[t["id"]] == (1 << 128) | 0xABCDEF


def test_every_bit_of_a_wide_seed_moves_the_deck_and_the_dice():
    seed = protocol.secret_seed()
    for bit in (0, 70, 127):
        other = seed ^ (1 << bit)
        assert seeded_random(seed, 3).random() != seeded_random(other, 3).random()  # dice
        dolly = make("dolly-crush", players=2)
        a, b = dolly.new_initial_state(seed=seed), dolly.new_initial_state(seed=other)
        assert a.deck != b.deck
    # a seed below 2**64 keeps the stream it always had: recorded games replay the same
    assert seeded_random(12345, 7).random() == random.Random(12345 * 1_000_003 + 7).random()


def test_the_engines_play_whole_games_on_wide_seeds():
    for name in ("dolly-crush", "shave-a-sheep"):
        game = make(name, players=2)
        seed = protocol.secret_seed()
        state = game.new_initial_state(seed=seed)
        rng = random.Random(1)
        while not state.is_terminal():
            if state.current_player() == protocol.CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply(rng.choice(state.legal_actions()))
        again = game.new_initial_state(seed=seed)
        for _, a in state.history:
            again.apply(a)
        assert again.snapshot() == state.snapshot()


def test_the_first_cards_do_not_narrow_the_seed(make_server):
    """Tables are opened until two show the same first cards of their opening flock (the top
    row's first three: 10 kinds of card, so it happens within a few dozen tables); their seeds
    differ, and so does everything dealt later. With 2**128 seeds, any opening is shared by
    astronomically many seeds: it says nothing about the rest of the deck."""
    srv = make_server(allow_seed=False, create_rate=Rate(0, 0), max_open_tables=0)
    seen: dict[tuple[str, ...], list[Any]] = defaultdict(list)
    for _ in range(400):
        t = srv.create(game="dolly-crush", seats=[{}, {}])
        table = srv.manager.get(t["id"])
        first = tuple(table.state.observe(None)["flock"][0][:3])
        seen[first].append(table)
        if len(seen[first]) == 2:
            break
    a, b = seen[first]
    assert a.seed != b.seed
    assert a.state.deck != b.state.deck  # the cards still to come
    assert a.state.observe(None)["flock"] != b.state.observe(None)["flock"]
