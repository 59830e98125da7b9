"""What the lab takes from the exact solver (games/shave_a_sheep/solver.py).

- the perfect policy for the fast simulator: the solver's decision table (2 players: the
  minimax solution, both seats; 3-4 players: each seat's guaranteed-share policy);
- exact win shares for the policies a run plays (``solver.evaluate``): the outcome uncertainty
  of every position a game passes through.

Solutions come from the solver's disk cache when they are there; exact win shares are cached
next to it (``$SHEEPFOLD_HOME/cache/lab``), keyed like the solver's (``solver.cache_key``: the
rules, the player count, the policies and the solver's source).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

#: the largest position space the lab asks the solver for (the tables live in memory)
MAX_POSITIONS = 3_000_000


def unsupported(game: Any) -> str | None:
    """None if the solver can give this game's tables; else why not."""
    try:
        from sheepfold.games.shave_a_sheep import solver
    except ImportError:
        return "the exact solver (games/shave_a_sheep/solver.py) is not installed"
    try:
        size = solver.count_positions(game.rules, game.num_players)
    except Exception as e:  # SolverError: too big
        return f"the solver cannot take this game: {e}"
    if size > MAX_POSITIONS:
        return (
            f"{size:,} positions: too many for the lab's exact tables (at most {MAX_POSITIONS:,})"
        )
    return None


_SPACES: dict[tuple[str, int], Any] = {}


def space(game: Any) -> Any:
    from sheepfold.games.shave_a_sheep import solver

    key = (game.rules.key(), game.num_players)
    if key not in _SPACES:
        why = unsupported(game)
        if why:
            from sheepfold.lab.runner import LabError

            raise LabError(why)
        _SPACES[key] = solver.Space(game.rules, game.num_players)
    return _SPACES[key]


_TABLES: dict[tuple[str, int], np.ndarray] = {}


def policy_tables(game: Any) -> np.ndarray:
    """int8 ``(tables, positions, columns)``: one minimax table (2 players) or one
    guaranteed-share table per seat (3-4 players)."""
    from sheepfold.games.shave_a_sheep import solver

    key = (game.rules.key(), game.num_players)
    if key not in _TABLES:
        sp = space(game)
        n = game.num_players
        if n == 2:
            sol, _ = solver.cached(game.rules, 2, space=sp)
            _TABLES[key] = np.ascontiguousarray(sol.tab[None, ...], dtype=np.int8)
        else:
            tabs = [solver.cached(game.rules, n, seat=s, space=sp)[0].tab for s in range(n)]
            _TABLES[key] = np.ascontiguousarray(np.stack(tabs), dtype=np.int8)
    return _TABLES[key]


_SHARES: dict[str, np.ndarray] = {}


def win_shares(game: Any, policies: Sequence[str]) -> np.ndarray:
    """Exact win shares ``(positions, players)`` when the seats play ``policies``."""
    from sheepfold.games.shave_a_sheep import solver

    pols = [p.partition(":")[0] for p in policies]
    if len(pols) == 1:
        pols = pols * game.num_players
    key = solver.cache_key(game.rules, game.num_players, f"shares:{','.join(pols)}")
    if key in _SHARES:
        return _SHARES[key]
    path = solver.cache_dir().parent / "lab" / f"shares-{key}.npy"
    V = None
    if path.exists():
        try:
            V = np.load(path)
        except (OSError, ValueError):
            V = None
    if V is None:
        V = np.ascontiguousarray(
            solver.evaluate(space(game), game.num_players, pols).V, dtype=np.float64
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.npy")
            np.save(tmp, V)
            os.replace(tmp, path)
        except OSError:
            pass
    _SHARES[key] = V
    return V


def exact_start_shares(game: Any, policies: Sequence[str]) -> tuple[float, ...]:
    """Every seat's exact win share from the first position (for the tests and docs)."""
    V = win_shares(game, policies)
    x = space(game).start_index()
    return tuple(float(v) for v in V[x])


def exact_skill_gap(game: Any, strong: str = "perfect", base: str = "greedy") -> dict[str, Any]:
    """How much ``strong`` gains over ``base``, exactly (the solver's win shares from the first
    position): ``strong``'s win share in a table of ``base`` bots, averaged over the seats it can
    take, minus ``base``'s own share in a table of ``base`` bots (averaged over the seats too).

    Returns ``gap`` (a difference of shares), ``strong_share``, ``base_share`` and
    ``strong_by_seat`` (``strong``'s share in each seat). 0 means skill beyond ``base`` buys
    nothing; with 2 players and ``base_share`` 1/2, +0.10 means 60% wins against ``base``."""
    n = game.num_players
    by_seat = []
    for s in range(n):
        pols = [base] * n
        pols[s] = strong
        by_seat.append(exact_start_shares(game, pols)[s])
    base_shares = exact_start_shares(game, [base] * n)
    strong_share = sum(by_seat) / n
    base_share = sum(base_shares) / n
    return {
        "strong": strong,
        "base": base,
        "gap": strong_share - base_share,
        "strong_share": strong_share,
        "base_share": base_share,
        "strong_by_seat": by_seat,
    }
