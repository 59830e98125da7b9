"""Shave a Sheep's packed position, its rules record (the rule program, encoded) and its
position index (plain Python and numpy: no numba needed).

**The state vector** (``int64[STATE_LEN]``), one turn of one game:

====================  =========================================================================
``MIDDLE``            wool in the middle
``TURN``              the seat whose turn it is (the roller)
``TURNS``             turns completed so far
``WOLF``              wolf piece 0's code: 0 = in the middle, ``1 + k`` = next to seat ``k``
                      (always 0 in a program without wolf pieces)
``OVER``              1 once the game is over (``TRUNCATED`` 1 too if the turn limit ended it)
``SHEEP + i``         wool on seat ``i``'s sheep (``i < MAX_PLAYERS``)
``PILE + i``          seat ``i``'s safe pile
``REROLLED``          the rerolls used in this turn (``rerolls``; 0 at a turn start)
``WOLF1``             wolf piece 1's code, as ``WOLF`` (a program with two wolf pieces)
====================  =========================================================================

**Action ids** are the engine's (:mod:`sheepfold.games.shave_a_sheep.program`): the printed
verbs' ``GROW`` ... ``REROLL`` (0..13), a rule set's own verbs from 14 (a targeted verb takes
four ids, ``base + k`` for seat ``k``).

**The rules** every kernel takes (:func:`rules_record`) are one int64 array ``prm`` (one array,
not a record of several: numba counts references to every array a compiled function passes on,
and a turn passes its rules many times): the program of
:mod:`sheepfold.games.shave_a_sheep.program` as fixed-width rows, played by :mod:`.step`. The
header: ``P_N`` (players), ``P_WOOL``, ``P_CAP``, ``P_START`` / ``P_FIRST`` / ``P_WOLVES`` (the
setup), ``P_MAXT`` (the turn limit, 0 = none), ``P_FACES``, ``P_DIE`` (the faces printed),
``P_REROLLS``, the end (``P_MEND`` the middle empty, ``P_TARGET``, ``P_TEACH`` the turns in
all, ``P_FINAL`` / ``P_FCOST`` the final shear), ``P_TEAMS`` with ``P_TEAM + s`` /
``P_PARTNER + s``, the triggers' counts, ``P_AUTO`` / ``P_ACOST`` / ``P_ABONUS`` (the printed
auto-shear alone, read near), ``P_SKIP`` (the roller's sheep from which a position is no turn
start) and ``P_SHEAR_AT`` (the greedy policy's full-sheep threshold). Per face: ``P_COUNT + f``
(times printed), ``P_FNV`` / ``P_FV`` (its verbs, ascending ids), ``P_RACE + f`` (it starts the
race), ``P_COL + f`` (its first column in a decision table, ``P_COLS`` in all: see
:func:`columns`), ``P_ROLL + f`` the die's cumulative probability up to face ``f``; from
``P_GRAB + s`` the grab's up to seat ``s`` (-1: never grabs), both as thresholds on a 53-bit
random integer: ``bits < threshold`` exactly when ``bits / 2**53`` is below the probability
summed one by one as the engine's ``sample_chance`` does. Then ``P_ACT + a`` (action id to
verb), the verbs' rows (``P_VERB``), the race (``P_RTAKE``, ``P_RTO``, ``P_RTHEN``), the
triggers' (``P_TRIG``), the effects' (``P_EFF``) and the conditions' (``P_COND``). A program
the rows cannot hold, or with a part the kernel has no counterpart for, is refused
(:class:`KernelRefusal`) with the reason. The probabilities themselves, for the solver, are in
:func:`probabilities`.

**The position index** (:func:`position_index`): the solver's numbering of every position at
the start of a turn (after the turn-start triggers, before the roll). Positions are grouped by
their *layer* B = the wool banked (the sum of the piles), inside a layer by *block* (the pile
vector): ``index = off[B] + ((pile_rank * ns + sheep_rank) * NT + turn) * NW + wolf code``,
where ``ns`` counts the sheep vectors holding at most ``W - B - 1`` pieces (the middle is never
empty at a turn's start), ``NT`` is the number of seats that may roll (``n``, or 1 in the index
of the positions where seat 0 rolls: the solver's rotation needs no others) and ``NW`` is
``(n + 1) ** wolves`` times the rerolls' values (the wolf code ``w0 + (n + 1) * w1``). Piles
never shrink (the solver refuses a program that takes wool out of a pile), so a turn stays in
its block or climbs to a higher layer.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import NamedTuple

import numpy as np

from sheepfold.core.protocol import RulesError
from sheepfold.games.shave_a_sheep import program
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
from sheepfold.games.shave_a_sheep.program import MAX_SEATS
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
    "KernelRefusal",
    "kernel_refusal",
    "from_state",
    "position_index",
    "rules_record",
]

# state slots
MIDDLE, TURN, TURNS, WOLF, OVER, TRUNCATED, SHEEP = range(7)
PILE = SHEEP + MAX_PLAYERS
REROLLED = PILE + MAX_PLAYERS
#: the second wolf piece's code (a program with ``Setup.wolves == 2``; always 0 otherwise)
WOLF1 = REROLLED + 1
STATE_LEN = WOLF1 + 1

# prm's header slots
P_N, P_WOOL, P_CAP, P_SKIP, P_SHEAR_AT, P_MAXT, P_FACES, P_COLS = range(8)
P_TARGET, P_FINAL, P_FCOST, P_REROLLS, P_DIE, P_MEND, P_TEACH, P_START = range(8, 16)
P_FIRST, P_WOLVES, P_TEAMS, P_NTRIG, P_ANYSHEAR, P_RACEV, P_AUTO, P_ACOST = range(16, 24)
P_ABONUS, P_NSTART, P_NEMPTY, P_RNEAR = range(24, 28)
MAX_FACES = 16
#: the verbs a face offers at most; the verbs, effects, conditions and triggers of a program
MAX_FACE_VERBS, MAX_VERBS, MAX_EFFECTS, MAX_CONDS, MAX_TRIGGERS = 8, 24, 64, 64, 8
#: the legal actions of one decision at most (every face verb targeted, and REROLL): the size
#: of every kernel's legal-action buffer
MAX_LEGAL = 32
#: action ids a program may use: the printed 0..13, then 4 a verb
MAX_ACTIONS = 14 + MAX_SEATS * MAX_VERBS
P_RACE = 32
P_ROLL = P_RACE + MAX_FACES
P_GRAB = P_ROLL + MAX_FACES
P_COL = P_GRAB + MAX_PLAYERS
P_COUNT = P_COL + MAX_FACES
#: ``P_TEAM + s``: seat s's team (its own seat when there are no teams); ``P_PARTNER + s``: its
#: partner (-1: none)
P_TEAM = P_COUNT + MAX_FACES
P_PARTNER = P_TEAM + MAX_PLAYERS
#: ``P_FNV + f``: the verbs face f offers; ``P_FV + f * MAX_FACE_VERBS + j``: the j-th (a verb
#: number), by ascending action id
P_FNV = P_PARTNER + MAX_PLAYERS
P_FV = P_FNV + MAX_FACES
#: ``P_ACT + a``: the verb number of action id a (-1: none)
P_ACT = P_FV + MAX_FACES * MAX_FACE_VERBS
#: the verbs, ``VW`` slots each from ``P_VERB + v * VW``: V_BASE (first id), V_TGT (targeted),
#: V_NC / V_C0 (its conditions: how many, the first row), V_NE / V_E0 (its effects), V_FAST
#: (its shape, ``FAST_*`` below, read by step.py's short paths) and its two numbers
#: (V_A0, V_A1)
P_VERB = P_ACT + MAX_ACTIONS
V_BASE, V_TGT, V_NC, V_C0, V_NE, V_E0, V_FAST, V_A0, V_A1 = range(9)
VW = 9
#: the race (one verb of a program at most: the printed wolf's ids): its take (an amount), its
#: destination (a place), its ``then`` verbs (how many, then their numbers by ascending id)
P_RTAKE = P_VERB + MAX_VERBS * VW
P_RTO = P_RTAKE + 5
P_RNTHEN = P_RTO + 3
P_RTHEN = P_RNTHEN + 1
#: the triggers, ``TW`` slots each from ``P_TRIG + t * TW``: T_ON (its event), T_NC / T_C0
#: (its conditions), T_NE / T_E0 (its effects)
P_TRIG = P_RTHEN + MAX_FACE_VERBS
T_ON, T_NC, T_C0, T_NE, T_E0 = range(5)
TW = 5
#: the effects, ``EW`` slots each from ``P_EFF + e * EW``: E_KIND, E_OTHERS (1: once for each
#: other seat), E_NEAR (1: step.py may read it near: see its "places and seats"), then by kind: a Move's amount (E_AK kind, E_AN number, E_ANUM / E_ADEN / E_AUP
#: a fraction) and places (E_SW, E_SWH, E_SP: where, whose, wolf piece; E_DW, E_DWH, E_DP);
#: a Shear's whose (E_SWH), cost (E_AN) and bonus (E_ANUM); a Swap's two whose (E_SWH, E_DWH);
#: a wolf piece (E_SP) and where it goes (E_DWH)
P_EFF = P_TRIG + MAX_TRIGGERS * TW
(E_KIND, E_OTHERS, E_NEAR, E_AK, E_AN, E_ANUM, E_ADEN, E_AUP) = range(8)
(E_SW, E_SWH, E_SP, E_DW, E_DWH, E_DP) = range(8, 14)
EW = 14
#: the conditions, ``CW`` slots each from ``P_COND + c * CW``: C_KIND, C_W / C_WH / C_P (the
#: place), C_NUM (the number), C_NEG (negated), C_PIECE (the wolf piece), C_NEAR (1: read near)
P_COND = P_EFF + MAX_EFFECTS * EW
C_KIND, C_W, C_WH, C_P, C_NUM, C_NEG, C_PIECE, C_NEAR = range(8)
CW = 8
PRM_LEN = P_COND + MAX_CONDS * CW
#: probabilities(): face f's at f, seat s's chance to grab the wolf at PROB_GRAB + s
PROB_GRAB = MAX_FACES

# the codes of the program's parts
K_MOVE, K_SHEAR, K_SWAP, K_PLACE_WOLF, K_HOME_WOLF = 1, 2, 3, 4, 5
EFFECT_KINDS: dict[type, int] = {
    program.Move: K_MOVE,
    program.Shear: K_SHEAR,
    program.Swap: K_SWAP,
    program.PlaceWolf: K_PLACE_WOLF,
    program.HomeWolf: K_HOME_WOLF,
}
A_NUMBER, A_ALL, A_FRACTION = 0, 1, 2
AMOUNT_KINDS = {"number": A_NUMBER, "all": A_ALL, "fraction": A_FRACTION}
WHERE_MIDDLE, WHERE_SHEEP, WHERE_PILE = 0, 1, 2
WHERES = {"middle": WHERE_MIDDLE, "sheep": WHERE_SHEEP, "pile": WHERE_PILE}
W_ME, W_TARGET, W_WOLF, W_LEFT, W_RIGHT, W_LEADER, W_LAST, W_PARTNER, W_OTHERS = range(9)
WHOSE_CODES = {w: i for i, w in enumerate(program.WHOSE)}
C_AT_LEAST, C_AT_MOST, C_ROOM, C_WOLF_AWAY, C_ALONE_LAST, C_ALONE_LEADER = range(6)
CONDITION_KINDS = {
    "at-least": C_AT_LEAST,
    "at-most": C_AT_MOST,
    "room": C_ROOM,
    "wolf-away": C_WOLF_AWAY,
    "alone-last": C_ALONE_LAST,
    "alone-leader": C_ALONE_LEADER,
}
ON_TURN_START, ON_AFTER_SHEAR, ON_MIDDLE_EMPTY = 0, 1, 2
#: a verb's shape (``V_FAST``), found in its data (its conditions and effects, whatever rule or
#: option wrote them): step.py plays the shapes but the general one on a short path of their
#: own, the same effect as its rows. FAST_GROW: no target, "my sheep has room" alone, one move
#: of V_A0 pieces from the middle to my sheep; FAST_SHEAR: no target, no condition, one shear of
#: my sheep at cost V_A0 and bonus V_A1, and no after-shear trigger; FAST_SWAP: a target, no
#: condition, one swap of my sheep with the target's; FAST_TAKE: a target, no condition, one
#: move of an amount (the effect's row) of the target's sheep to the middle (V_A0 = 0) or my
#: pile (V_A0 = 1)
FAST_NONE, FAST_GROW, FAST_SHEAR, FAST_SWAP, FAST_TAKE = range(5)
EVENTS = {
    "turn-start": ON_TURN_START,
    "after-shear": ON_AFTER_SHEAR,
    "middle-empty": ON_MIDDLE_EMPTY,
}


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


class KernelRefusal(RulesError):
    """A program the compiled kernel cannot play (a part it has no counterpart for, or more
    parts than its fixed rows hold): every fast path refuses it with this reason rather than
    play something else."""


def program_of(game: ShaveGame) -> program.Program:
    """The program an engine game plays (``game.program``; compiled from its rules until the
    engine carries one)."""
    prog = getattr(game, "program", None)
    return prog if isinstance(prog, program.Program) else program.compile_rules(game.rules)


def rules_record(game: ShaveGame, turn_limit: bool = True) -> np.ndarray:
    """The kernels' rules (``prm``) of an engine game: its program and player count, encoded
    (see the module's docstring). ``turn_limit=False`` leaves out ``max_turns`` (the solver
    plays every game to its end). Cached by the program's content (a Program is a frozen,
    hashable value): a copy of the cached array is returned. Raises :class:`KernelRefusal`
    for a program the kernel cannot play, with the reason."""
    return _record(program_of(game), game.num_players, game.rules.shear_at, turn_limit).copy()


def kernel_refusal(rules: ShaveRules, num_players: int = 2) -> str | None:
    """Why the compiled kernel (and so the solver, the lab's fast path and the batch) cannot
    play a rule set at this player count, in words; None when it can. It plays the printed
    rules, every option and the rule language's parts (docs/spec/rule-language.md); it refuses
    only a part it has no counterpart for or more parts than its fixed rows hold."""
    try:
        _record(program.compile_rules(rules), num_players, rules.shear_at, True)
    except KernelRefusal as e:
        return str(e)
    return None


@functools.lru_cache(maxsize=256)
def _record(prog: program.Program, n: int, shear_at: int, turn_limit: bool) -> np.ndarray:
    return _Encoder(prog, n).encode(shear_at, turn_limit)


class _Encoder:
    """One program into ``prm``'s rows; every part is dispatched on its kind, and a kind with
    no kernel counterpart raises :class:`KernelRefusal` (``tests/test_shave_language_kernel.py``
    encodes one of every part)."""

    def __init__(self, prog: program.Program, n: int) -> None:
        self.prog, self.n = prog, n
        self.prm = np.zeros(PRM_LEN, dtype=np.int64)
        self.verb_no = {v.name: i for i, v in enumerate(prog.verbs)}
        self.ne = self.nc = 0

    def refuse(self, why: str) -> KernelRefusal:
        return KernelRefusal(f"the compiled kernel cannot play this rule set: {why}")

    def encode(self, shear_at: int, turn_limit: bool) -> np.ndarray:
        prog, n, prm = self.prog, self.n, self.prm
        su, end = prog.setup, prog.end
        if len(prog.faces) > MAX_FACES:
            raise self.refuse(f"{len(prog.faces)} different faces (at most {MAX_FACES})")
        if len(prog.verbs) > MAX_VERBS:
            raise self.refuse(f"{len(prog.verbs)} verbs (at most {MAX_VERBS})")
        if len(prog.triggers) > MAX_TRIGGERS:
            raise self.refuse(f"{len(prog.triggers)} triggers (at most {MAX_TRIGGERS})")
        if not 0 <= su.wolves <= 2:
            raise self.refuse(f"{su.wolves} wolf pieces (at most 2)")
        if su.sheep * n > su.wool:
            raise self.refuse(f"{n} sheep of {su.sheep} pieces need more than {su.wool} wool")
        prm[:P_RACEV] = 0
        prm[P_N], prm[P_WOOL], prm[P_CAP] = n, su.wool, su.cap
        prm[P_SHEAR_AT] = shear_at
        prm[P_MAXT] = (prog.max_turns or 0) if turn_limit else 0
        prm[P_FACES] = len(prog.faces)
        prm[P_TARGET] = end.target or 0
        prm[P_FINAL], prm[P_FCOST] = int(end.final_shear), end.final_cost
        prm[P_REROLLS], prm[P_DIE] = prog.rerolls, sum(prog.counts)
        prm[P_MEND] = int(end.middle_empty)
        prm[P_TEACH] = (end.turns_each or 0) * n
        prm[P_START], prm[P_FIRST], prm[P_WOLVES] = su.sheep, su.first % n, su.wolves
        prm[P_ACT : P_ACT + MAX_ACTIONS] = -1
        self.any_shear = any(t.on == "after-shear" for t in prog.triggers)
        prm[P_ANYSHEAR] = int(self.any_shear)
        for i, v in enumerate(prog.verbs):
            self.verb(i, v)
        prm[P_RACEV] = -1
        for f, face in enumerate(prog.faces):
            self.face(f, face)
        prm[P_COUNT : P_COUNT + len(prog.counts)] = prog.counts
        self.teams()
        for t, trig in enumerate(prog.triggers):
            self.trigger(t, trig)
        prm[P_NTRIG] = len(prog.triggers)
        prm[P_NSTART] = sum(t.on == "turn-start" for t in prog.triggers)
        prm[P_NEMPTY] = sum(t.on == "middle-empty" for t in prog.triggers)
        auto = self.auto_shear()
        prm[P_SKIP] = su.cap + 1
        if auto is not None:
            prm[P_AUTO] = 1
            prm[P_SKIP], prm[P_ACOST], prm[P_ABONUS] = auto
        col = 0
        for f in range(len(prog.faces)):
            prm[P_COL + f] = col
            col += race_slots(n) if prm[P_RACE + f] else 1
        prm[P_COLS] = col
        total = sum(prog.counts)
        prm[P_ROLL : P_ROLL + len(prog.faces)] = _thresholds(tuple(c / total for c in prog.counts))
        prm[P_GRAB : P_GRAB + n] = _thresholds(_grab_probs(prog, n))
        return prm

    # -- the parts -----------------------------------------------------------------------
    def verb(self, i: int, v: program.Verb) -> None:
        prm = self.prm
        row = P_VERB + i * VW
        prm[row + V_BASE], prm[row + V_TGT] = v.base, int(v.targeted)
        prm[row + V_NC], prm[row + V_C0] = self.conditions(v.when)
        prm[row + V_NE], prm[row + V_E0] = self.effects(v.effects)
        prm[row + V_FAST : row + V_A1 + 1] = self.shape(v)
        if v.name == "reroll":
            return  # REROLL is the turn's (rerolls), not a verb's
        for a in v.ids:
            if not 0 <= a < MAX_ACTIONS:
                raise self.refuse(
                    f"the verb {v.name!r} uses action id {a} (at most {MAX_ACTIONS - 1})"
                )
            prm[P_ACT + a] = i

    def shape(self, v: program.Verb) -> tuple[int, int, int]:
        """A verb's ``(V_FAST, V_A0, V_A1)``: its shape (``FAST_*``) from its data."""
        effects, when = v.effects, v.when
        if v.race is not None or len(effects) != 1:
            return FAST_NONE, 0, 0
        (e,) = effects
        if not v.targeted:
            if (
                when == (program.Condition("room", program.MY_SHEEP),)
                and isinstance(e, program.Move)
                and e.amount.kind == "number"
                and (e.source, e.to) == (program.MIDDLE, program.MY_SHEEP)
            ):
                return FAST_GROW, e.amount.n, 0
            if not when and isinstance(e, program.Shear) and e.whose == "me":
                return (FAST_NONE, 0, 0) if self.any_shear else (FAST_SHEAR, e.cost, e.bonus)
            return FAST_NONE, 0, 0
        if when:
            return FAST_NONE, 0, 0
        if isinstance(e, program.Swap) and {e.a, e.b} == {"me", "target"}:
            return FAST_SWAP, 0, 0
        if (
            isinstance(e, program.Move)
            and e.source == program.TARGET_SHEEP
            and e.to in (program.MIDDLE, program.MY_PILE)
        ):
            return FAST_TAKE, int(e.to == program.MY_PILE), 0
        return FAST_NONE, 0, 0

    def face(self, f: int, face: program.Face) -> None:
        prm, prog = self.prm, self.prog
        names = sorted(dict.fromkeys(face.verbs), key=lambda name: prog.verb(name).base)
        if len(names) > MAX_FACE_VERBS:
            raise self.refuse(
                f"the face {face.text} offers {len(names)} verbs (at most {MAX_FACE_VERBS})"
            )
        prm[P_FNV + f] = len(names)
        for j, name in enumerate(names):
            if name == "reroll":
                raise self.refuse(f"the face {face.text} offers 'reroll' as a verb")
            prm[P_FV + f * MAX_FACE_VERBS + j] = self.verb_no[name]
        races = [name for name in names if prog.verb(name).race is not None]
        if races:
            self.race(prog.verb(races[0]))
            prm[P_RACE + f] = 1

    def race(self, v: program.Verb) -> None:
        prm, race = self.prm, v.race
        assert race is not None
        if v.base != WOLF0 or not v.targeted:
            raise self.refuse(f"a race is played only as the wolf's verb, not {v.name!r}")
        no = self.verb_no[v.name]
        if prm[P_RACEV] not in (-1, no):
            raise self.refuse("two different verbs start a race")
        prm[P_RACEV] = no
        prm[P_RTAKE : P_RTAKE + 5] = self.amount(race.take)
        prm[P_RTO : P_RTO + 3] = self.place(race.to)
        prm[P_RNEAR] = int(self.near(race.to))
        if race.to.whose == "others" and race.to.where != "middle":
            raise self.refuse(f"the race's wool goes to every other seat's {race.to.where}")
        then = sorted(dict.fromkeys(race.then), key=lambda name: self.prog.verb(name).base)
        if len(then) > MAX_FACE_VERBS:
            raise self.refuse(f"the race offers {len(then)} verbs (at most {MAX_FACE_VERBS})")
        prm[P_RNTHEN] = len(then)
        for j, name in enumerate(then):
            tv = self.prog.verb(name)
            if tv.targeted or tv.race is not None or name == "reroll":
                raise self.refuse(f"the verb {name!r} after a race must be one without a target")
            prm[P_RTHEN + j] = self.verb_no[name]

    def teams(self) -> None:
        prm, n = self.prm, self.n
        for s in range(MAX_PLAYERS):
            prm[P_TEAM + s], prm[P_PARTNER + s] = s, -1
        if not self.prog.teams:
            return
        seen: set[int] = set()
        for t, team in enumerate(self.prog.teams):
            for s in team:
                if not 0 <= s < n or s in seen:
                    raise self.refuse(
                        f"the teams {self.prog.teams} are not a partition of {n} seats"
                    )
                seen.add(s)
                prm[P_TEAM + s] = n + t
                others = [o for o in team if o != s]
                prm[P_PARTNER + s] = others[0] if others else -1
        prm[P_TEAMS] = len(self.prog.teams)

    def trigger(self, t: int, trig: program.Trigger) -> None:
        prm = self.prm
        if trig.on not in EVENTS:
            raise self.refuse(f"a trigger on {trig.on!r}")
        if trig.on == "after-shear" and any(isinstance(e, program.Shear) for e in trig.effects):
            raise self.refuse("an after-shear trigger that shears (it would fire itself)")
        row = P_TRIG + t * TW
        prm[row + T_ON] = EVENTS[trig.on]
        prm[row + T_NC], prm[row + T_C0] = self.conditions(trig.when)
        prm[row + T_NE], prm[row + T_E0] = self.effects(trig.effects)

    def conditions(self, conds: tuple[program.Condition, ...]) -> tuple[int, int]:
        first = self.nc
        for c in conds:
            if self.nc >= MAX_CONDS:
                raise self.refuse(f"more than {MAX_CONDS} conditions")
            if c.kind not in CONDITION_KINDS:
                raise self.refuse(f"a condition of kind {c.kind!r}")
            row = P_COND + self.nc * CW
            self.prm[row + C_KIND] = CONDITION_KINDS[c.kind]
            self.prm[row + C_W : row + C_W + 3] = self.place(c.place)
            self.prm[row + C_NUM], self.prm[row + C_NEG] = c.n, int(c.negate)
            self.prm[row + C_PIECE] = self.piece(c.piece)
            self.prm[row + C_NEAR] = int(
                c.kind == "wolf-away"
                or (c.kind in ("at-least", "at-most", "room") and self.near(c.place))
            )
            self.nc += 1
        return len(conds), first

    def effects(self, effects: tuple[program.Effect, ...]) -> tuple[int, int]:
        first = self.ne
        for e in effects:
            if self.ne >= MAX_EFFECTS:
                raise self.refuse(f"more than {MAX_EFFECTS} effects")
            kind = EFFECT_KINDS.get(type(e))
            if kind is None:
                raise self.refuse(f"an effect of kind {type(e).__name__}")
            row = np.zeros(EW, dtype=np.int64)
            row[E_KIND] = kind
            whose: list[str] = []
            if isinstance(e, program.Move):
                row[E_AK : E_AK + 5] = self.amount(e.amount)
                row[E_SW : E_SW + 3] = self.place(e.source)
                row[E_DW : E_DW + 3] = self.place(e.to)
                whose = [e.source.whose, e.to.whose]
            elif isinstance(e, program.Shear):
                row[E_SWH], row[E_AN], row[E_ANUM] = self.whose(e.whose), e.cost, e.bonus
                whose = [e.whose]
            elif isinstance(e, program.Swap):
                if e.a == e.b == "others":
                    raise self.refuse("a swap of every other sheep with every other sheep")
                row[E_SWH], row[E_DWH] = self.whose(e.a), self.whose(e.b)
                whose = [e.a, e.b]
            elif isinstance(e, program.PlaceWolf):  # at ``others``: the first of them
                row[E_SP], row[E_DWH] = self.piece(e.piece), self.whose(e.at)
            else:
                assert isinstance(e, program.HomeWolf)
                row[E_SP] = self.piece(e.piece)
            row[E_OTHERS] = int("others" in whose)
            two = ("me", "target")
            if isinstance(e, program.Move):
                row[E_NEAR] = int(self.near(e.source, e.to))
            elif isinstance(e, program.Shear):
                row[E_NEAR] = int(e.whose in two and not self.any_shear)
            elif isinstance(e, program.Swap):
                row[E_NEAR] = int(e.a in two and e.b in two)
            elif isinstance(e, program.PlaceWolf):
                row[E_NEAR] = int(e.at in two)
            else:
                row[E_NEAR] = 1
            self.prm[P_EFF + self.ne * EW : P_EFF + (self.ne + 1) * EW] = row
            self.ne += 1
        return len(effects), first

    def amount(self, a: program.Amount) -> list[int]:
        if a.kind not in AMOUNT_KINDS:
            raise self.refuse(f"an amount of kind {a.kind!r}")
        if a.kind == "fraction" and (a.den <= 0 or a.num < 0):
            raise self.refuse(f"the fraction {a.num}/{a.den}")
        return [AMOUNT_KINDS[a.kind], a.n, a.num, a.den, int(a.up)]

    def place(self, p: program.Place) -> list[int]:
        if p.where not in WHERES:
            raise self.refuse(f"a place {p.where!r}")
        return [WHERES[p.where], self.whose(p.whose), self.piece(p.piece)]

    def whose(self, w: str) -> int:
        if w not in WHOSE_CODES:
            raise self.refuse(f"a seat named {w!r}")
        return WHOSE_CODES[w]

    def piece(self, k: int) -> int:
        if not 0 <= k < 2:
            raise self.refuse(f"wolf piece {k} (the kernel has two: 0 and 1)")
        return k

    def auto_shear(self) -> tuple[int, int, int] | None:
        """(threshold, cost, bonus) when the program's turn start is the printed auto-shear
        alone (Shave a Sheep ruling 5: a sheep holding the threshold is shorn before the roll)
        and no shear fires a trigger: then step.py reads it near, and a position whose roller's
        sheep holds the threshold is no turn start (``P_SKIP``; else ``cap + 1``: every
        position may be one)."""
        starts = [t for t in self.prog.triggers if t.on == "turn-start"]
        if len(starts) != 1 or self.any_shear:
            return None
        (t,) = starts
        if not (len(t.when) == 1 and len(t.effects) == 1):
            return None
        c, e = t.when[0], t.effects[0]
        if c != program.Condition("at-least", program.MY_SHEEP, c.n) or e != program.Shear(
            "me", getattr(e, "cost", 0), getattr(e, "bonus", 0)
        ):
            return None
        assert isinstance(e, program.Shear)
        return c.n, e.cost, e.bonus

    def near(self, *places: program.Place) -> bool:
        """Whether step.py may read these places near: the middle, or the sheep or pile of me,
        the target or a wolf piece's seat."""
        return all(p.where == "middle" or p.whose in ("me", "target", "wolf") for p in places)


def _grab_probs(prog: program.Program, n: int) -> tuple[float, ...]:
    from sheepfold.games.shave_a_sheep.game import grab_chances

    return grab_chances(prog.reaction_weights or (1.0,) * n)


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
    wolves = getattr(state, "wolves", None)
    if wolves is None:
        wolves = [state.wolf]
    st[WOLF] = 0 if wolves[0] is None else wolves[0] + 1
    if len(wolves) > 1:
        st[WOLF1] = 0 if wolves[1] is None else wolves[1] + 1
    st[OVER] = int(state.is_terminal())
    st[TRUNCATED] = int(state.truncated)
    n = state.game.num_players
    st[SHEEP : SHEEP + n] = state.sheep
    st[PILE : PILE + n] = state.piles
    st[REROLLED] = state.rerolls_used
    return st


def position_index(
    n: int, wool: int, cap: int, wolves: int | bool, seat0_only: bool = False, rerolls: int = 0
) -> tuple[Index, int]:
    """The position index of a rule set (see the module's docstring) and its size; with
    ``seat0_only``, of the positions where seat 0 rolls. The caller bounds the sizes first:
    ``(cap + 1) ** n`` sheep vectors and ``(wool + 1) ** n`` piles. With the house rule
    ``rerolls`` a roll after ``r`` rerolls of the turn is a position of its own: the last
    code of the index is ``wolf code * (rerolls + 1) + r`` (``NW`` counts both, ``NR`` the
    second)."""
    nr = rerolls + 1
    nw = (n + 1) ** int(wolves) * nr
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
