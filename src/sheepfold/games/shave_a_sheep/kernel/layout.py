"""Shave a Sheep's packed position, its rules record and its position index (plain Python and
numpy: no numba needed).

**The state vector** (``int64[STATE_LEN]``), one turn of one game:

====================  =========================================================================
``MIDDLE``            wool in the middle
``TURN``              the seat whose turn it is (the roller)
``TURNS``             turns completed so far
``WOLF``              the wolf code: 0 = in the middle, ``1 + k`` = next to seat ``k`` (My friend
                      Mr. Wolf only; always 0 otherwise)
``OVER``              1 once the game is over (``TRUNCATED`` 1 too if the turn limit ended it)
``SHEEP + i``         wool on seat ``i``'s sheep (``i < MAX_PLAYERS``)
``PILE + i``          seat ``i``'s safe pile
``REROLLED``          the rerolls used in this turn (house rule ``rerolls``; 0 at a turn start)
====================  =========================================================================

**Action ids** are the engine's (:mod:`sheepfold.games.shave_a_sheep.game`): ``GROW``, ``DOUBLE``,
``SHEAR``, ``SWAP0 + k``, ``WOLF0 + k``, ``RAID``, ``PASS``, ``REROLL``. **Face bits**: one bit per action a
face offers (``F_GROW`` ... ``F_WOLF``), a face's bits OR-ed together in ``face_mask``.

**The rules** every kernel takes (:func:`rules_record`) are one int64 array ``prm`` (one array,
not a record of several: numba counts references to every array a compiled function passes on,
and a turn passes its rules many times). Slots: ``P_N`` (players), ``P_WOOL``, ``P_CAP`` (what a
sheep carries), ``P_CUT`` (the pieces a shear pays: Cutting costs or ``shear_cost``), ``P_MRWOLF``
(My friend Mr. Wolf), ``P_MAXT`` (the turn limit, 0 = none), ``P_FACES`` (distinct faces); the
house rules ``P_SHEAR_AT`` (the auto-shear threshold), ``P_WTAKE`` (the wolf takes: 0 all,
-1 half, else that many), ``P_WTO`` (1: the wolf's wool goes to the roller's pile),
``P_BONUS`` (``full_bonus``), ``P_TARGET`` (0 = none), ``P_FINAL`` (1: the final shear),
``P_REROLLS`` and ``P_DIE`` (the die's faces, a face printed twice counted twice); from
``P_COUNT + f`` how many times face ``f`` is printed; from ``P_MASK + f`` face ``f``'s bits, from
``P_RACE + f`` whether it starts Howling Wolf's race, from ``P_COL + f`` its first column in a
decision table (``P_COLS`` columns in all: see :func:`columns`), from ``P_ROLL + f`` the die's cumulative
probability up to face ``f`` and from ``P_GRAB + s`` the grab's up to seat ``s`` (-1: the seat
never grabs), both as thresholds on a 53-bit random integer: ``bits < threshold`` exactly when
``bits / 2**53`` is below the probability summed one by one as the engine's ``sample_chance``
does. The probabilities themselves, for the solver, are in :func:`probabilities`.

**The position index** (:func:`position_index`): the solver's numbering of every position at
the start of a turn (after the auto-shear, before the roll). Positions are grouped by their
*layer* B = the wool banked (the sum of the piles), inside a layer by *block* (the pile vector):
``index = off[B] + ((pile_rank * ns + sheep_rank) * NT + turn) * NW + wolf code``, where ``ns``
counts the sheep vectors holding at most ``W - B - 1`` pieces (the middle is never empty at a
turn's start), ``NT`` is the number of seats that may roll (``n``, or 1 in the index of the
positions where seat 0 rolls: the solver's rotation needs no others) and ``NW`` is ``n + 1``
with My friend Mr. Wolf, else 1. Piles never shrink, so a turn stays in its block or climbs to a
higher layer.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

from sheepfold.core.protocol import RulesError
from sheepfold.games.shave_a_sheep.game import (
    DOUBLE,
    GROW,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PASS,
    RAID,
    REROLL,
    SHEAR,
    SWAP0,
    WOLF0,
    ShaveGame,
    ShaveState,
)
from sheepfold.games.shave_a_sheep.rules import ShaveRules

__all__ = [
    "DOUBLE",
    "GROW",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "PASS",
    "RAID",
    "REROLL",
    "SHEAR",
    "SWAP0",
    "WOLF0",
    "Index",
    "from_state",
    "position_index",
    "rules_record",
]

# state slots
MIDDLE, TURN, TURNS, WOLF, OVER, TRUNCATED, SHEEP = range(7)
PILE = SHEEP + MAX_PLAYERS
REROLLED = PILE + MAX_PLAYERS
STATE_LEN = REROLLED + 1

# face bits
F_GROW, F_DOUBLE, F_SHEAR, F_SWAP, F_WOLF = 1, 2, 4, 8, 16
FACE_BITS = {"grow": F_GROW, "double": F_DOUBLE, "shear": F_SHEAR, "swap": F_SWAP, "wolf": F_WOLF}

# prm slots
P_N, P_WOOL, P_CAP, P_CUT, P_MRWOLF, P_MAXT, P_FACES, P_COLS = range(8)
P_SHEAR_AT, P_WTAKE, P_WTO, P_BONUS, P_TARGET, P_FINAL, P_REROLLS, P_DIE = range(8, 16)
MAX_FACES = 16
P_MASK = 16
P_RACE = P_MASK + MAX_FACES
P_ROLL = P_RACE + MAX_FACES
P_GRAB = P_ROLL + MAX_FACES
P_COL = P_GRAB + MAX_PLAYERS
P_COUNT = P_COL + MAX_FACES
PRM_LEN = P_COUNT + MAX_FACES
#: probabilities(): face f's at f, seat s's chance to grab the wolf at PROB_GRAB + s
PROB_GRAB = MAX_FACES


class Index(NamedTuple):
    """The position index (see the module's docstring; :func:`position_index`), as the kernels
    take it: numba compiles a NamedTuple's fields by name, at a plain tuple's speed."""

    #: ``off[B]``: the first index of layer B (``off[-1]``: the index's size)
    off: np.ndarray
    #: ``cnt_le[L]``: the sheep vectors holding at most L pieces (L = 0 .. wool - 1)
    cnt_le: np.ndarray
    #: a pile vector's rank in its block (by its code ``piles @ pw_p``)
    pile_rank: np.ndarray
    #: a sheep vector's rank (by its code ``sheep @ pw_s``)
    sv_rank: np.ndarray
    #: the codes' place values: ``(cap + 1) ** i`` for the sheep, ``(wool + 1) ** i`` for the piles
    pw_s: np.ndarray
    pw_p: np.ndarray
    #: every sheep vector (rows), fewest pieces first; every pile vector, layer by layer
    sv_arr: np.ndarray
    pv: np.ndarray
    #: ``block_start[B]``: layer B's first pile vector (row of ``pv``)
    block_start: np.ndarray
    #: ``[NT, NW, NR]``: the seats that may roll, the last code's values, the rerolls' values
    shape: np.ndarray


def rules_record(game: ShaveGame, turn_limit: bool = True) -> np.ndarray:
    """The kernels' rules (``prm``) of an engine game: its rule set and player count.
    ``turn_limit=False`` leaves out ``max_turns`` (the solver plays every game to its end)."""
    r = game.rules
    why = kernel_refusal(r)
    if why:
        raise RulesError(why)
    prm = np.zeros(PRM_LEN, dtype=np.int64)
    prm[: P_FACES + 1] = [
        game.num_players,
        r.wool,
        r.max_wool,
        r.cost,
        int(r.mr_wolf),
        (r.max_turns or 0) if turn_limit else 0,
        len(game.faces),
    ]
    prm[P_SHEAR_AT : P_DIE + 1] = [
        r.shear_at,
        wolf_code(r.wolf_takes),
        int(r.wolf_to == "roller"),
        r.full_bonus,
        r.target or 0,
        int(r.final_shear),
        r.rerolls,
        len(r.faces),
    ]
    prm[P_COUNT : P_COUNT + len(game.faces)] = [r.faces.count(f) for f in game.faces]
    n, col = game.num_players, 0
    for f, acts in enumerate(game.face_actions):
        prm[P_MASK + f] = sum(FACE_BITS[a] for a in acts)
        prm[P_RACE + f] = int(game.face_races[f])
        prm[P_COL + f] = col
        col += race_slots(n) if game.face_races[f] else 1
    prm[P_COLS] = col
    prm[P_ROLL : P_ROLL + len(game.faces)] = _thresholds(game.face_probs)
    prm[P_GRAB : P_GRAB + game.num_players] = _thresholds(game.grab_probs)
    return prm


def kernel_refusal(rules: ShaveRules) -> str | None:
    """Why the compiled kernel (and so the solver, the lab's fast path and the batch) cannot
    play a rule set, in words; None when it can. It plays the printed rules and every option;
    the rule language's own parts are played by the engine only, for now (docs/spec/rule-language.md)."""
    parts = rules.language_parts()
    if not parts:
        return None
    return (
        "the compiled simulator plays the printed rules and their options, not yet the rule "
        f"language's own parts ({', '.join(parts)}): the engine plays them"
    )


def wolf_code(takes: str | int) -> int:
    """``P_WTAKE``'s code of ``wolf_takes``: 0 all, -1 half, else the number of pieces."""
    if takes == "all":
        return 0
    if takes == "half":
        return -1
    return int(takes)


def race_slots(n: int) -> int:
    """A race face's decisions in a table: slot 0 (unused), ``1 + g`` the seat grabber g sends
    the wolf to, ``1 + n + g * n + k`` the roller's GROW or PASS after g took a piece of k's."""
    return 1 + n + n * n


def columns(prm: np.ndarray, face: int, slots: range | list[int]) -> list[int]:
    """The table columns of ``face``'s decision ``slots``. A decision table (the solver's
    policies) has one row per position and ``prm[P_COLS]`` columns: one per normal face (the
    roller's action) and :func:`race_slots` per face that starts Howling Wolf's race."""
    return [int(prm[P_COL + face]) + s for s in slots]


def probabilities(game: ShaveGame) -> np.ndarray:
    """The die's probabilities (face ``f`` at ``f``) and the grab's (seat ``s`` at
    ``PROB_GRAB + s``), as floats: the solver's weights."""
    out = np.zeros(PROB_GRAB + MAX_PLAYERS)
    out[: len(game.faces)] = game.face_probs
    out[PROB_GRAB : PROB_GRAB + game.num_players] = game.grab_probs
    return out


def _thresholds(probs: tuple[float, ...]) -> list[int]:
    """Each outcome's running sum (added one by one, as the engine's sample_chance does) as a
    threshold on a 53-bit integer ``bits``: ``bits < t`` exactly when ``bits / 2**53 < sum``
    (-1 for an outcome of probability 0: never drawn)."""
    out = []
    acc = 0.0
    for p in probs:
        if p == 0:
            out.append(-1)
            continue
        acc += p
        out.append(math.ceil(acc * 2.0**53))  # exact: a power of two scales a float exactly
    return out


def from_state(state: ShaveState) -> np.ndarray:
    """The state vector of an engine state (any phase: the turn's roll is not part of it)."""
    st = np.zeros(STATE_LEN, dtype=np.int64)
    st[MIDDLE] = state.middle
    st[TURN] = state.turn
    st[TURNS] = state.turns
    st[WOLF] = 0 if state.wolf is None else state.wolf + 1
    st[OVER] = int(state.is_terminal())
    st[TRUNCATED] = int(state.truncated)
    n = state.game.num_players
    st[SHEEP : SHEEP + n] = state.sheep
    st[PILE : PILE + n] = state.piles
    st[REROLLED] = state.rerolls_used
    return st


def position_index(
    n: int, wool: int, cap: int, mr_wolf: bool, seat0_only: bool = False, rerolls: int = 0
) -> tuple[Index, int]:
    """The position index of a rule set (see the module's docstring) and its size; with
    ``seat0_only``, of the positions where seat 0 rolls. The caller bounds the sizes first:
    ``(cap + 1) ** n`` sheep vectors and ``(wool + 1) ** n`` piles. With the house rule
    ``rerolls`` a roll after ``r`` rerolls of the turn is a position of its own: the last
    code of the index is ``wolf code * (rerolls + 1) + r`` (``NW`` counts both, ``NR`` the
    second)."""
    nr = rerolls + 1
    nw = (n + 1 if mr_wolf else 1) * nr
    nt = 1 if seat0_only else n
    # sheep vectors, sorted by total wool (a prefix = every vector up to a total)
    svs = sorted(itertools.product(range(cap + 1), repeat=n), key=lambda v: (sum(v), v))
    sv_arr = np.array(svs, dtype=np.int64).reshape(len(svs), n)
    pw_s = np.array([(cap + 1) ** i for i in range(n)], dtype=np.int64)
    sv_rank = np.zeros((cap + 1) ** n, dtype=np.int64)
    sv_rank[sv_arr @ pw_s] = np.arange(len(svs))
    sums = sv_arr.sum(axis=1)
    # cnt_le[L] = sheep vectors with total <= L, for L = 0 .. wool-1
    cnt_le = np.array([int(np.sum(sums <= L)) for L in range(wool)], dtype=np.int64)
    # pile vectors of every layer B = 0 .. wool-1
    pw_p = np.array([(wool + 1) ** i for i in range(n)], dtype=np.int64)
    pile_rank = np.zeros((wool + 1) ** n, dtype=np.int64)
    n_piles = np.array([math.comb(B + n - 1, n - 1) for B in range(wool)], dtype=np.int64)
    block_start = np.concatenate([[0], np.cumsum(n_piles)]).astype(np.int64)
    pv = np.zeros((int(block_start[-1]), n), dtype=np.int64)
    for B in range(wool):
        for r, comp in enumerate(_compositions(B, n)):
            pv[block_start[B] + r] = comp
            pile_rank[int(np.dot(comp, pw_p))] = r
    sizes = n_piles * cnt_le[::-1] * nt * nw  # layer B: sheep totals <= wool-B-1
    off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    shape = np.array([nt, nw, nr], dtype=np.int64)
    ix = Index(off, cnt_le, pile_rank, sv_rank, pw_s, pw_p, sv_arr, pv, block_start, shape)
    return ix, int(off[-1])


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every vector of ``parts`` non-negative ints summing to ``total``, in lexicographic order."""
    if parts == 1:
        return [(total,)]
    out = []
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            out.append((first, *rest))
    return out
