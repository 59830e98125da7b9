"""The rule sets of issue 50's storms (one request that froze the server, the perfect bot's count
inside a request, an expert's 56-second decisions), for the tests and bench/bench_abuse.py."""

from __future__ import annotations

BREEDS = ("pastore-maremmano", "australian-shepherd", "bobtail", "border-collie")

#: item 1: one POST froze the server for 14-45 s (565,075 chance steps in its deal)
DEAL_STORM = {
    "rows": 8,
    "cols": 8,
    "types": 2,
    "min_line": 2,
    "white_per_type": 1000,
    "black_per_type": 1000,
    "max_cleanup_rounds": 10000,
}
#: item 2: the perfect bot counted its positions inside the request
PERFECT_STORM = {"wool": 1000, "max_wool": 100}
#: item 5: 20-swap dog cards on an 8x8 flock with diagonal swaps (56 s of CPU per expert turn)
SWAP_STORM = {
    "rows": 8,
    "cols": 8,
    "adjacent": ["orthogonal", "diagonal"],
    "dog_swaps": {breed: [20] for breed in BREEDS},
}
