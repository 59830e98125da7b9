"""How often a Dolly Crush game ends because the sheep cards ran out (Dolly Crush ruling 6: the
clean-up cannot leave a flock without lines, the last cards in the deck kept making lines).

    .venv/bin/python bench/dolly_ruling6.py [--games N] [--players 2,3,4] [--rules NAME]
        [--workers W]

Plays ``N`` games (default 2,000) of greedy bots at every seat on the lab's fast path (the
compiled greedy turn, the rules engine's deck: :mod:`sheepfold.lab.fastsim_dolly`), seeds
0..N-1, for each number of players, under the rules the web and the terminal deal by default
(``dolly-graded``; ``--rules dolly-rulebook``: the printed dog cards), and prints the share of
games that ended this way with its 95% confidence interval (Wilson's), next to how the other
games ended. Measured (2,000 games each, greedy bots): graded 4 players 27.0% (25.1% to
29.0%), 3 players 0.6%, 2 players 0%; the printed dog cards, 4 players: 0.1%.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from sheepfold.lab.endings import order, words
from sheepfold.lab.runner import Job, run
from sheepfold.rulesets import find_ruleset

#: the engine's end reason of Dolly Crush ruling 6's end (``DollyState.ended_by``)
RAN_OUT = "cleanup"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a share ``k`` of ``n`` (Wilson's score interval)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def ended(players: int, games: int, workers: int | None, rules: dict[str, Any]) -> list[str]:
    """The end reason of each of ``games`` games of ``players`` greedy bots (the fast path)
    under ``rules`` (options; empty: the rulebook)."""
    job = Job(
        game="dolly-crush",
        players=players,
        rules=rules,
        bots=("greedy",),
        games=games,
        engine="fast",
    )
    table = run(job, workers=workers, standings=False)
    return [str(r) for r in table.column("ended_by").to_pylist()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", default="2,3,4", help="numbers of players, e.g. 4 or 2,3,4")
    ap.add_argument(
        "--rules",
        default="dolly-graded",
        help="a rule set's name or file (default: dolly-graded, what the web and terminal deal)",
    )
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    args = ap.parse_args()
    rules = find_ruleset(args.rules, "dolly-crush").rules.model_dump(mode="json")
    print(
        f"Dolly Crush ({args.rules}), greedy bots at every seat, "
        f"{args.games:,} games each (seeds 0..)"
    )
    print(f"ruling 6's end: {words(RAN_OUT)}")
    for players in (int(p) for p in args.players.split(",")):
        t0 = time.perf_counter()
        reasons = ended(players, args.games, args.workers, rules)
        n, k = len(reasons), reasons.count(RAN_OUT)
        lo, hi = wilson(k, n)
        others = ", ".join(
            f"{words(r)} {reasons.count(r) / n:.1%}" for r in order(reasons) if r != RAN_OUT
        )
        print(
            f"{players} players: {k}/{n} = {k / n:.1%} ended so (95% CI {lo:.1%} to {hi:.1%}); "
            f"others: {others or '-'}  [{time.perf_counter() - t0:.0f} s]"
        )


if __name__ == "__main__":
    main()
