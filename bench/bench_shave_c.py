"""Shave a Sheep's fast random and greedy simulators (numba) against a plain C loop of the same
rules.

The C loop (``bench/c/shave_random.c``) uses the same counter-based random streams and the same
draws as ``fastsim_shave._play`` with the random policy on every seat (or the greedy policy on
every seat, the same value function in the same order of operations), so on the same seeds
both must count the same (seat-0 wins, turns): that is checked first, with each policy, for
every rule set below and for a few more (custom die, cutting costs, reaction weights,
truncation, no turn limit); any difference prints MISMATCH and exits 1. Then games per second of CPU time, each side
measured on the same seeds (C: its game loop alone; numba: the ``bench`` call, after a warm-up
call that compiles or loads the cache). Goal: numba within 2x of C. "wins" is what
``fastsim_shave.bench`` counts: games where seat 0's pile is larger than seat 1's. The C
arguments come from the engine's game (rules, die, grab weights); of the simulator only
``fastsim_shave.bench`` is used.

The C file is compiled with ``cc -std=c99 -O2`` (``-O3 -march=native`` measured the same
within noise) into a temporary directory; with no C compiler (cc, gcc or clang) the bench says
so and exits 0. ``python bench/bench_shave_c.py [--quick]``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sheepfold.games import make
from sheepfold.lab import fastsim_shave as fs

QUICK = "--quick" in sys.argv
SOURCE = Path(__file__).parent / "c" / "shave_random.c"
CFLAGS = ["-std=c99", "-O2"]
GOAL = 2.0

# (label, players, rules, games timed, policy): 30 wool, max_turns 1000; about 1 s of C each
TIMED = [
    ("2p rulebook", 2, {}, 600_000, "random"),
    ("4p rulebook", 4, {}, 500_000, "random"),
    ("2p howling-wolf", 2, {"variants": ["howling-wolf"]}, 500_000, "random"),
    ("2p my-friend-mr-wolf", 2, {"variants": ["my-friend-mr-wolf"]}, 800_000, "random"),
    ("2p rulebook, greedy", 2, {}, 100_000, "greedy"),
    ("4p rulebook, greedy", 4, {}, 60_000, "greedy"),
]
#: the C file's POLICY argument
C_POLICY = {"random": 0, "greedy": 1}
# rule sets only checked for identical results (fewer games)
CHECKED = [
    ("3p cutting-costs", 3, {"variants": ["cutting-costs"]}),
    ("4p howling-wolf", 4, {"variants": ["howling-wolf"]}),
    (
        "3p howling-wolf, weights 0/1/2",
        3,
        {"variants": ["howling-wolf"], "reaction_weights": [0, 1, 2]},
    ),
    (
        "4p my-friend-mr-wolf, cutting-costs",
        4,
        {"variants": ["my-friend-mr-wolf", "cutting-costs"]},
    ),
    (
        "3p custom die, 40 wool, cap 3",
        3,
        {"die": ["white", "white", "x2", "gray/pink", "green", "pink"], "wool": 40, "max_wool": 3},
    ),
    (
        "2p howling-wolf, custom die",
        2,
        {"variants": ["howling-wolf"], "die": ["gray", "white/gray", "x2", "green/pink"]},
    ),
    ("2p rulebook, max_turns 20", 2, {"max_turns": 20}),
    ("4p my-friend-mr-wolf, max_turns 30", 4, {"variants": ["my-friend-mr-wolf"], "max_turns": 30}),
    (
        "2p cutting-costs, 1 wool, cap 1",
        2,
        {"variants": ["cutting-costs"], "wool": 1, "max_wool": 1},
    ),
    ("2p rulebook, no turn limit", 2, {"max_turns": None}),
]
CHECK_GAMES = 20_000


def compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


BITS = {"grow": 1, "double": 2, "swap": 4, "wolf": 8, "shear": 16}  # the C file's face bits


def c_args(game, seed0: int, count: int, policy: str = "random") -> list[str]:  # type: ignore[no-untyped-def]
    """The C program's arguments for the engine's ``game`` (its rules, die and grab weights)
    and the policy every seat plays."""
    r = game.rules
    n = game.num_players
    mode = 1 if r.howling_wolf else (2 if r.mr_wolf else 0)
    masks = [sum(BITS[a] for a in acts) for acts in game.face_actions]
    races = [mode == 1 and m & BITS["wolf"] != 0 for m in masks]  # how the C file derives them
    assert races == list(game.face_races), "the C loop derives the Howling Wolf race differently"
    cum, acc = [], 0.0
    for pr in game.face_probs:  # accumulated one by one, as the engine and the simulator do
        acc += pr
        cum.append(acc)
    gcum, acc = [], 0.0
    for w in game.grab_probs:  # a seat with weight 0 never grabs: -1
        if w > 0:
            acc += w
        gcum.append(acc if w > 0 else -1.0)
    head = (n, r.wool, r.max_wool, int(r.cutting_costs), mode, r.max_turns or 0, seed0, count)
    return [
        *(str(x) for x in (*head, len(game.faces))),
        *(str(m) for m in masks),
        *(float(x).hex() for x in cum),  # exact, bit for bit
        *(float(x).hex() for x in gcum),
        str(C_POLICY[policy]),
    ]


def run_c(exe: str, game, seed0: int, count: int, policy: str = "random") -> tuple[int, int, float]:  # type: ignore[no-untyped-def]
    out = subprocess.run(
        [exe, *c_args(game, seed0, count, policy)], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1]), float(out[2])


def run_numba(game, seed0: int, count: int, policy: str = "random") -> tuple[int, int, float]:  # type: ignore[no-untyped-def]
    c = time.process_time()
    wins, turns = fs.bench(game, seed0, count, policy)
    return wins, turns, time.process_time() - c


def make_game(players: int, rules: dict):  # type: ignore[no-untyped-def]
    return make("shave-a-sheep", players=players, rules={"wool": 30, "max_turns": 1000, **rules})


def main() -> int:
    cc = compiler()
    if cc is None:
        print("no C compiler (cc, gcc, clang): the C comparison is skipped")
        return 0
    tmp = tempfile.mkdtemp(prefix="sheepfold-cbench-")
    try:
        exe = str(Path(tmp) / "shave_random")
        subprocess.run([cc, *CFLAGS, "-o", exe, str(SOURCE)], check=True)
        print(f"C: {cc} {' '.join(CFLAGS)} {SOURCE.name}; times are CPU seconds (one core)")
        fs.bench(make_game(2, {}), 0, 100)  # compile / load numba's cache before any timing
        fs.bench(make_game(2, {}), 0, 100, "greedy")

        bad = 0
        check_games = CHECK_GAMES // 4 if QUICK else CHECK_GAMES
        for policy, games in (("random", check_games), ("greedy", check_games // 10)):
            for label, players, rules in CHECKED:
                game = make_game(players, rules)
                c = run_c(exe, game, 1000, games, policy)[:2]
                nb = fs.bench(game, 1000, games, policy)
                if c != nb:
                    print(f"MISMATCH {label}, {policy}: C (wins, turns) {c}, numba {nb}")
                    bad += 1
        print(
            f"identical (wins, turns) on {2 * len(CHECKED) - bad} of {2 * len(CHECKED)} more "
            f"rule sets and policies (random {check_games:,} games each, greedy {check_games // 10:,})"
        )

        print(
            f"\n{'rules (30 wool, max 1000 turns)':<24} {'games':>9} {'turns/game':>10} "
            f"{'C games/s':>12} {'numba games/s':>14} {'numba/C':>8}  goal <= {GOAL:g}x"
        )
        for label, players, rules, count, policy in TIMED:
            count = count // 5 if QUICK else count
            game = make_game(players, rules)
            fs.bench(game, 0, 100, policy)  # warm-up
            cw, ct, csec = run_c(exe, game, 0, count, policy)
            nw, nt, nsec = run_numba(game, 0, count, policy)
            if (cw, ct) != (nw, nt):
                print(f"MISMATCH {label}: C (wins, turns) {(cw, ct)}, numba {(nw, nt)}")
                bad += 1
                continue
            ratio = nsec / csec
            print(
                f"{label:<24} {count:>9,} {ct / count:>10.1f} {count / csec:>12,.0f} "
                f"{count / nsec:>14,.0f} {ratio:>7.2f}x  {'met' if ratio <= GOAL else 'NOT met'}"
            )
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
