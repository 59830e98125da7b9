"""Shave a Sheep's rules, compiled: the rule program's interpreter (legal actions, their
effects, the end of a turn).

The one fast copy of the engine's rules (:mod:`sheepfold.games.shave_a_sheep.game`), over the
state vector of :mod:`.layout`, playing the program that :func:`.layout.rules_record` encoded
into ``prm`` (docs/spec/rule-language.md; the contract is
:mod:`sheepfold.games.shave_a_sheep.program`'s docstrings). ``tests/test_shave_kernel.py`` and
``tests/test_shave_language_kernel.py`` check every reachable position of small rule sets
against the engine. A turn, as the kernels play it::

    face = roll(bits, prm)                   # chance: the die
    if prm[P_RACE + face]:                   # the race (Howling Wolf's, Shave a Sheep ruling 8)
        g = grab(bits, prm)                  #   chance: who grabs the wolf
        race_take(st, k, prm)                #   g picks k != g: the race's take
        n = howl_choices(st, prm, out)       #   the roller: the race's ``then`` verbs or PASS
    else:
        n = choices(st, face, prm, out)      # the roller's legal actions (REROLL: roll again,
                                             #   reroll(st); house rule rerolls)
    act(st, a, prm); end_turn(st, prm)      # = finish(st, a, prm)

Each part of the language is played once here: a verb's conditions (:func:`holds`) and effects
(:func:`effect`: Move, Shear, Swap, PlaceWolf, HomeWolf, each over the seats its places name,
:func:`seat_of`), the triggers (:func:`fire`), the end (:func:`end_turn`, :func:`final_shear`)
and the teams (:func:`share`). A verb whose data has one of a few shapes (layout's ``V_FAST``,
found by the encoder in its conditions and effects, whoever wrote them: a grow of a number, a
shear of my sheep, a swap with the target, a take of the target's sheep) is offered and played on
a short path of its own in :func:`offer` and :func:`act`, the same effect as its rows
(``tests/test_shave_language_kernel.py`` plays every game both ways): the printed verbs have those
shapes, and the rulebook's hot loop reads no effect row.

Every function changes ``st`` in place; the legal-action functions write ascending engine action
ids into ``out`` and return how many (the engine's ``legal_actions`` order).
"""

from __future__ import annotations

from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

from numba import njit  # noqa: E402

from sheepfold.games.shave_a_sheep.kernel.layout import (  # noqa: E402
    A_ALL,
    A_NUMBER,
    C_ALONE_LAST,
    C_ALONE_LEADER,
    C_AT_LEAST,
    C_AT_MOST,
    C_KIND,
    C_NEAR,
    C_NEG,
    C_NUM,
    C_PIECE,
    C_W,
    C_WOLF_AWAY,
    CW,
    E_AK,
    E_AN,
    E_ANUM,
    E_DP,
    E_DW,
    E_DWH,
    E_KIND,
    E_NEAR,
    E_OTHERS,
    E_SP,
    E_SW,
    E_SWH,
    EW,
    FAST_GROW,
    FAST_NONE,
    FAST_SHEAR,
    FAST_SWAP,
    K_HOME_WOLF,
    K_MOVE,
    K_PLACE_WOLF,
    K_SHEAR,
    K_SWAP,
    MAX_FACE_VERBS,
    MIDDLE,
    ON_AFTER_SHEAR,
    ON_MIDDLE_EMPTY,
    ON_TURN_START,
    OVER,
    P_ABONUS,
    P_ACOST,
    P_ACT,
    P_ANYSHEAR,
    P_AUTO,
    P_CAP,
    P_COND,
    P_EFF,
    P_FACES,
    P_FCOST,
    P_FINAL,
    P_FIRST,
    P_FNV,
    P_FV,
    P_GRAB,
    P_MAXT,
    P_MEND,
    P_N,
    P_NEMPTY,
    P_NSTART,
    P_NTRIG,
    P_PARTNER,
    P_REROLLS,
    P_RNEAR,
    P_RNTHEN,
    P_ROLL,
    P_RTAKE,
    P_RTHEN,
    P_RTO,
    P_SKIP,
    P_START,
    P_TARGET,
    P_TEACH,
    P_TEAM,
    P_TEAMS,
    P_TRIG,
    P_VERB,
    P_WOOL,
    PASS,
    PILE,
    REROLL,
    REROLLED,
    SHEEP,
    STATE_LEN,
    T_C0,
    T_E0,
    T_NC,
    T_NE,
    T_ON,
    TRUNCATED,
    TURN,
    TURNS,
    TW,
    V_A0,
    V_A1,
    V_BASE,
    V_C0,
    V_E0,
    V_FAST,
    V_NC,
    V_NE,
    V_TGT,
    VW,
    W_LAST,
    W_LEADER,
    W_LEFT,
    W_ME,
    W_OTHERS,
    W_PARTNER,
    W_RIGHT,
    W_TARGET,
    W_WOLF,
    WHERE_MIDDLE,
    WHERE_SHEEP,
    WOLF,
    WOLF0,
    WOLF1,
)

#: the decorator of every kernel of the package (cached on disk, see sheepfold.numba_cache);
#: ``error_model="numpy"``: no division-by-zero checks (the encoder never writes a zero divisor).
#: ``_nrt=True`` said explicitly: numba compiles a callee with its caller's reference counting
#: unless the callee names its own, and a kernel that allocates may be called from a ``bare`` one.
#: ``forceinline=False`` said explicitly for the same reason: a callee of an :data:`inline` rule
#: would otherwise be inlined too
_OPTIONS: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "error_model": "numpy",
    "forceinline": False,
}
jit: Any = njit(**{**_OPTIONS, "_nrt": True})
#: the same for a kernel that allocates no array (every rule below, the hot loops): compiled
#: without numba's reference counting (``_nrt=False``). With it, every array a kernel passes
#: to an inlined rule is counted up and down again (an atomic add each, and a barrier to the
#: optimiser): the random games' loop held 65 such calls where the printed-rules kernel's held
#: 25 (docs/engine.md, "Speed of the rule interpreter"). A kernel compiled so cannot allocate
#: (numba refuses it when it compiles); the arrays it gets are owned by its caller.
bare: Any = njit(**{**_OPTIONS, "_nrt": False})
#: the same for the small rules of a turn: inlined into their callers by LLVM
#: (``forceinline``: its ``alwaysinline``; plain calls of every small rule made the random games
#: 2-3x slower). Each rule is typed once; numba's own inlining (``inline="always"``) typed the
#: callee again at every call site, and cost a third more compile time for the same speed of
#: the random games (docs/engine.md, "Compile time"; not of the greedy ones: :data:`typed_inline`
#: below). Inlined only into the shared entry points at the end of
#: this module and into one hot loop (:func:`.play.turn_plain`, one policy on every seat):
#: every other kernel calls those, so the interpreter is compiled a few times, not once per
#: call site.
inline: Any = njit(cache=True, nogil=True, error_model="numpy", forceinline=True)
#: numba's own inlining (``inline="always"``: the callee typed again at each call site, in its
#: caller's types) for the greedy policy's value function only (:mod:`.policy`'s ``worth`` and
#: ``value``): inlined by LLVM instead, the greedy games played 0.6-0.7x as fast; two small
#: functions, so typing them again costs little compile time (docs/engine.md, "The greedy
#: simulator")
typed_inline: Any = njit(cache=True, nogil=True, error_model="numpy", inline="always")


@inline
def copy(dst, src):  # type: ignore[no-untyped-def]
    """``dst[:STATE_LEN] = src[:STATE_LEN]`` for two state vectors, as a plain loop (no slice
    objects). Only the state's slots: a scratch row may be longer than a state vector (the
    solver's are ``max(STATE_LEN, MAX_LEGAL)`` wide), and copying a longer row's tail into a
    state vector wrote past its end (a heap corruption, the solver's abort with rerolls)."""
    for i in range(STATE_LEN):
        dst[i] = src[i]


@inline
def wolf_slot(piece):  # type: ignore[no-untyped-def]
    """The state slot of wolf piece ``piece`` (0 or 1)."""
    return WOLF if piece == 0 else WOLF1


@bare
def new_game(st, prm):  # type: ignore[no-untyped-def]
    """The set-up (Setup): the wool in the middle less each sheep's starting pieces, the first
    seat to roll, then its turn start (:func:`start_turn`)."""
    st[:] = 0
    n = prm[P_N]
    st[MIDDLE] = prm[P_WOOL] - n * prm[P_START]
    for s in range(n):
        st[SHEEP + s] = prm[P_START]
    st[TURN] = prm[P_FIRST]
    start_turn(st, prm)


@inline
def roll(bits, prm):  # type: ignore[no-untyped-def]
    """The face a 53-bit random integer rolls (see layout's P_ROLL; the last face if none)."""
    nf = prm[P_FACES]
    for f in range(nf):
        if bits < prm[P_ROLL + f]:
            return f
    return nf - 1


@inline
def grab(bits, prm):  # type: ignore[no-untyped-def]
    """The seat a 53-bit random integer makes grab the wolf (seats of weight 0 never do)."""
    last = -1
    for s in range(prm[P_N]):
        if prm[P_GRAB + s] >= 0:
            last = s
            if bits < prm[P_GRAB + s]:
                return s
    return last


@inline
def room(st, seat, prm):  # type: ignore[no-untyped-def]
    """Pieces ``seat``'s sheep can still take: its free room, at most the middle."""
    r = prm[P_CAP] - st[SHEEP + seat]
    return st[MIDDLE] if st[MIDDLE] < r else r


# -- places and seats ---------------------------------------------------------------------
# Two copies of each part's reading, by design: a *near* one, inlined into every caller, for
# the places the printed verbs name (the middle; my, the target's or a wolf piece's sheep and
# pile) and no pass over the others, and the general one (every whose, every event), compiled
# once as its own function and called. The encoder marks which rows the near one may read
# (E_NEAR, C_NEAR, P_AUTO, P_RNEAR): both play the same part the same way, the near one only
# keeps the inlining (and its compile time) small.
@inline
def near_slot(st, where, whose, piece, me, tgt):  # type: ignore[no-untyped-def]
    """The state slot of a place naming the middle, ``me``, the target or a wolf piece's seat
    (-1: no such seat now)."""
    if where == WHERE_MIDDLE:
        return MIDDLE
    s = me if whose == W_ME else (tgt if whose == W_TARGET else st[wolf_slot(piece)] - 1)
    if s < 0:
        return -1
    return (SHEEP if where == WHERE_SHEEP else PILE) + s


@bare
def seat_of(st, whose, piece, me, tgt, other, prm):  # type: ignore[no-untyped-def]
    """The seat a place's ``whose`` names for roller ``me`` (``tgt``: the chosen seat, -1 none;
    ``other``: the seat ``others`` stands for in this pass), -1 when it names none (the wolf at
    home, no target, no partner)."""
    if whose == W_ME:
        return me
    if whose == W_TARGET:
        return tgt
    n = prm[P_N]
    if whose == W_WOLF:
        return st[wolf_slot(piece)] - 1
    if whose == W_LEFT:
        return (me + 1) % n
    if whose == W_RIGHT:
        return (me + n - 1) % n
    if whose == W_OTHERS:  # outside a pass over the others (a wolf placed): the first of them
        return other if other >= 0 else (me + 1) % n
    if whose == W_PARTNER:
        return prm[P_PARTNER + me]
    best = -1  # W_LEADER / W_LAST: the first from the roller's left on a tie
    for i in range(1, n):
        s = (me + i) % n
        if best < 0:
            best = s
        elif whose == W_LEADER and st[PILE + s] > st[PILE + best]:
            best = s
        elif whose == W_LAST and st[PILE + s] < st[PILE + best]:
            best = s
    return best


@bare
def place_slot(st, prm, row, me, tgt, other):  # type: ignore[no-untyped-def]
    """The state slot of the place written at ``prm[row:row + 3]`` (where, whose, piece; -1:
    a seat's place when no seat is named)."""
    where = prm[row]
    if where == WHERE_MIDDLE:
        return MIDDLE
    s = seat_of(st, prm[row + 1], prm[row + 2], me, tgt, other, prm)
    if s < 0:
        return -1
    return (SHEEP if where == WHERE_SHEEP else PILE) + s


@inline
def amount(prm, row, have):  # type: ignore[no-untyped-def]
    """The pieces the amount at ``prm[row:row + 5]`` takes of ``have`` (at most ``have``)."""
    kind = prm[row]
    if kind == A_NUMBER:
        x = prm[row + 1]
    elif kind == A_ALL:
        x = have
    else:
        num, den = prm[row + 2], prm[row + 3]
        x = (have * num + den - 1) // den if prm[row + 4] else have * num // den
    if x > have:
        return have
    return x if x > 0 else 0


@inline
def move(st, prm, src, dst, take):  # type: ignore[no-untyped-def]
    """``take`` pieces (cut to the source's and the destination's room) from slot to slot."""
    if src < 0 or dst < 0 or src == dst:
        return
    if take > st[src]:
        take = st[src]
    if SHEEP <= dst < PILE:
        r = prm[P_CAP] - st[dst]
        if take > r:
            take = r
    if take > 0:
        st[src] -= take
        st[dst] += take


# -- conditions -----------------------------------------------------------------------------
@inline
def test(st, prm, row, x, me):  # type: ignore[no-untyped-def]
    """A condition's test of the place at slot ``x`` (-1: none; at-least, at-most, room)."""
    kind = prm[row + C_KIND]
    if x < 0:
        return False
    if kind == C_AT_LEAST:
        return st[x] >= prm[row + C_NUM]
    if kind == C_AT_MOST:
        return st[x] <= prm[row + C_NUM]
    # C_ROOM: a sheep below its cap, and wool in the middle
    return st[MIDDLE] > 0 and (x < SHEEP or x >= PILE or st[x] < prm[P_CAP])


@bare
def holds_far(st, prm, row, me, tgt):  # type: ignore[no-untyped-def]
    """Whether the condition at ``row`` holds (any place): a place whose seat is named by
    ``others`` holds when it holds for every other seat; a place that names no seat does not
    hold; then ``negate`` inverts the answer."""
    kind = prm[row + C_KIND]
    if kind == C_ALONE_LAST or kind == C_ALONE_LEADER:
        ok = True
        for s in range(prm[P_N]):
            if s != me:
                if kind == C_ALONE_LAST and st[PILE + s] <= st[PILE + me]:
                    ok = False
                if kind == C_ALONE_LEADER and st[PILE + s] >= st[PILE + me]:
                    ok = False
    elif kind == C_WOLF_AWAY:
        w = st[wolf_slot(prm[row + C_PIECE])]
        ok = w > 0 and w - 1 != me
    else:
        n = prm[P_N]
        every = prm[row + C_W + 1] == W_OTHERS and prm[row + C_W] != WHERE_MIDDLE
        ok = True
        for i in range(1, n if every else 2):
            if not test(st, prm, row, place_slot(st, prm, row + C_W, me, tgt, (me + i) % n), me):
                ok = False
                break
    return ok != (prm[row + C_NEG] != 0)


@inline
def holds(st, prm, row, me, tgt):  # type: ignore[no-untyped-def]
    """Whether the condition at ``row`` holds for roller ``me`` and target ``tgt``."""
    if not prm[row + C_NEAR]:
        return holds_far(st, prm, row, me, tgt)
    if prm[row + C_KIND] == C_WOLF_AWAY:
        w = st[wolf_slot(prm[row + C_PIECE])]
        ok = w > 0 and w - 1 != me
    else:
        x = near_slot(st, prm[row + C_W], prm[row + C_W + 1], prm[row + C_W + 2], me, tgt)
        ok = test(st, prm, row, x, me)
    return ok != (prm[row + C_NEG] != 0)


@inline
def all_hold(st, prm, nc, c0, me, tgt):  # type: ignore[no-untyped-def]
    for c in range(nc):
        if not holds(st, prm, P_COND + (c0 + c) * CW, me, tgt):
            return False
    return True


# -- effects --------------------------------------------------------------------------------
@inline
def shear_seat(st, seat, cost, bonus, prm):  # type: ignore[no-untyped-def]
    """The sheep's wool to the pile, less ``cost`` back to the middle (at most what was shorn:
    Shave a Sheep ruling 7, house rule shear_cost); a full sheep also earns ``bonus`` pieces
    from the middle (as many as there are), after the cost (house rule full_bonus)."""
    wool = st[SHEEP + seat]
    pay = cost if cost < wool else wool
    st[MIDDLE] += pay
    st[PILE + seat] += wool - pay
    st[SHEEP + seat] = 0
    if bonus > 0 and wool >= prm[P_CAP]:
        b = bonus if bonus < st[MIDDLE] else st[MIDDLE]
        st[MIDDLE] -= b
        st[PILE + seat] += b


@inline
def plain(st, prm, row, me, tgt, other):  # type: ignore[no-untyped-def]
    """Every effect but a shear, for any place: a Move, a Swap, a PlaceWolf, a HomeWolf."""
    kind = prm[row + E_KIND]
    if kind == K_MOVE:
        src = place_slot(st, prm, row + E_SW, me, tgt, other)
        if src >= 0:
            dst = place_slot(st, prm, row + E_DW, me, tgt, other)
            move(st, prm, src, dst, amount(prm, row + E_AK, st[src]))
    elif kind == K_SWAP:
        a = seat_of(st, prm[row + E_SWH], 0, me, tgt, other, prm)
        b = seat_of(st, prm[row + E_DWH], 0, me, tgt, other, prm)
        if a >= 0 and b >= 0:
            x = st[SHEEP + a]
            st[SHEEP + a] = st[SHEEP + b]
            st[SHEEP + b] = x
    elif kind == K_PLACE_WOLF:
        at = seat_of(st, prm[row + E_DWH], 0, me, tgt, other, prm)
        if at >= 0:
            st[wolf_slot(prm[row + E_SP])] = at + 1
    elif kind == K_HOME_WOLF:
        st[wolf_slot(prm[row + E_SP])] = 0


@bare
def after_shear(st, prm, me):  # type: ignore[no-untyped-def]
    """The after-shear triggers whose conditions hold, ``me`` the shorn seat (their effects do
    not shear: the encoder refuses one that does, so this never fires itself)."""
    for t in range(prm[P_NTRIG]):
        tr = P_TRIG + t * TW
        if prm[tr + T_ON] == ON_AFTER_SHEAR:
            if all_hold(st, prm, prm[tr + T_NC], prm[tr + T_C0], me, -1):
                for e in range(prm[tr + T_NE]):
                    row = P_EFF + (prm[tr + T_E0] + e) * EW
                    if prm[row + E_OTHERS]:
                        n = prm[P_N]
                        for i in range(1, n):
                            plain(st, prm, row, me, -1, (me + i) % n)
                    else:
                        plain(st, prm, row, me, -1, -1)


@bare
def effect_far(st, prm, row, me, tgt):  # type: ignore[no-untyped-def]
    """One effect in play, any place, any kind (an effect of ``others``: once for each other
    seat, from the roller's left); a shear fires the after-shear triggers."""
    n = prm[P_N]
    others = prm[row + E_OTHERS] != 0
    for i in range(1, n if others else 2):
        other = (me + i) % n if others else -1
        if prm[row + E_KIND] == K_SHEAR:
            s = seat_of(st, prm[row + E_SWH], 0, me, tgt, other, prm)
            if s >= 0:
                shear_seat(st, s, prm[row + E_AN], prm[row + E_ANUM], prm)
                if prm[P_ANYSHEAR]:
                    after_shear(st, prm, s)
        else:
            plain(st, prm, row, me, tgt, other)


@inline
def effect(st, prm, row, me, tgt):  # type: ignore[no-untyped-def]
    """One effect of a verb in play for roller ``me`` and target ``tgt`` (a move and a shear
    read near, inlined; the rest: :func:`effect_far`)."""
    if not prm[row + E_NEAR]:
        effect_far(st, prm, row, me, tgt)
        return
    kind = prm[row + E_KIND]
    if kind == K_MOVE:
        src = near_slot(st, prm[row + E_SW], prm[row + E_SWH], prm[row + E_SP], me, tgt)
        if src >= 0:
            dst = near_slot(st, prm[row + E_DW], prm[row + E_DWH], prm[row + E_DP], me, tgt)
            move(st, prm, src, dst, amount(prm, row + E_AK, st[src]))
    elif kind == K_SHEAR:  # near: no after-shear trigger
        s = me if prm[row + E_SWH] == W_ME else tgt
        if s >= 0:
            shear_seat(st, s, prm[row + E_AN], prm[row + E_ANUM], prm)
    else:  # a swap, a wolf piece: one call (no other rows to read near)
        effect_far(st, prm, row, me, tgt)


@bare
def fire(st, prm, on, me):  # type: ignore[no-untyped-def]
    """The triggers of event ``on`` (turn start, middle empty) whose conditions hold, in order,
    for ``me``."""
    for t in range(prm[P_NTRIG]):
        tr = P_TRIG + t * TW
        if prm[tr + T_ON] == on and all_hold(st, prm, prm[tr + T_NC], prm[tr + T_C0], me, -1):
            for e in range(prm[tr + T_NE]):
                effect_far(st, prm, P_EFF + (prm[tr + T_E0] + e) * EW, me, -1)


# -- a turn ---------------------------------------------------------------------------------
@inline
def offer(st, prm, v, me, out, c):  # type: ignore[no-untyped-def]
    """Write verb ``v``'s ids that are offered (a targeted verb: each other seat for which its
    conditions hold) into ``out`` from ``c``; returns the new count. A verb of a shape
    (layout's ``V_FAST``) is offered on its short path: a grow when my sheep has room, a swap or
    a take (no condition) for every other seat, a shear always."""
    vr = P_VERB + v * VW
    fast = prm[vr + V_FAST]
    if fast != FAST_NONE:
        if fast == FAST_GROW:
            if room(st, me, prm) > 0:
                out[c] = prm[vr + V_BASE]
                c += 1
        elif fast == FAST_SHEAR:
            out[c] = prm[vr + V_BASE]
            c += 1
        else:
            base = prm[vr + V_BASE]
            for k in range(prm[P_N]):
                if k != me:
                    out[c] = base + k
                    c += 1
        return c
    return offer_rows(st, prm, vr, me, out, c)


@bare
def offer_rows(st, prm, vr, me, out, c):  # type: ignore[no-untyped-def]
    """:func:`offer` of the verb at row ``vr`` read from its rows (its conditions), compiled
    once and called: the short paths stay small where they are inlined."""
    nc, c0 = prm[vr + V_NC], prm[vr + V_C0]
    if prm[vr + V_TGT]:
        for k in range(prm[P_N]):
            if k != me and all_hold(st, prm, nc, c0, me, k):
                out[c] = prm[vr + V_BASE] + k
                c += 1
    elif all_hold(st, prm, nc, c0, me, -1):
        out[c] = prm[vr + V_BASE]
        c += 1
    return c


@inline
def _choices(st, face, prm, out):  # type: ignore[no-untyped-def]
    """The roller's legal actions on a normal ``face``: its verbs' offered ids, ascending
    (PASS alone when it offers none), then REROLL while rerolls remain (house rule rerolls)."""
    me = st[TURN]
    c = 0
    fv = P_FV + face * MAX_FACE_VERBS
    for j in range(prm[P_FNV + face]):
        c = offer(st, prm, prm[fv + j], me, out, c)
    if c == 0:
        out[0] = PASS
        c = 1
    if st[REROLLED] < prm[P_REROLLS]:
        out[c] = REROLL
        c += 1
    return c


@inline
def reroll(st):  # type: ignore[no-untyped-def]
    """The roller rolls again instead of acting (house rule rerolls): one reroll used."""
    st[REROLLED] += 1


@inline
def howl_targets(grabber, prm, out):  # type: ignore[no-untyped-def]
    """The race: the grabber's choices, ``WOLF0 + k`` for every other seat
    (Shave a Sheep ruling 8; a race is the wolf's verb, layout's encoder refuses others)."""
    c = 0
    for k in range(prm[P_N]):
        if k != grabber:
            out[c] = WOLF0 + k
            c += 1
    return c


@inline
def howl_take(st, target):  # type: ignore[no-untyped-def]
    """Howling Wolf's printed take: one piece of the target's sheep back to the middle (the
    race of any program: :func:`race_take`)."""
    if st[SHEEP + target] > 0:
        st[SHEEP + target] -= 1
        st[MIDDLE] += 1


@bare
def race_far(st, prm, target):  # type: ignore[no-untyped-def]
    """The slot the race's take goes to, any place."""
    return place_slot(st, prm, P_RTO, st[TURN], target, -1)


@inline
def _race_take(st, target, prm):  # type: ignore[no-untyped-def]
    """The race: the program's take of the target's sheep goes to its place (``me``: the
    roller)."""
    src = SHEEP + target
    if prm[P_RNEAR]:
        dst = near_slot(st, prm[P_RTO], prm[P_RTO + 1], prm[P_RTO + 2], st[TURN], target)
    else:
        dst = race_far(st, prm, target)
    move(st, prm, src, dst, amount(prm, P_RTAKE, st[src]))


@inline
def _howl_choices(st, prm, out):  # type: ignore[no-untyped-def]
    """The race: after the grab the roller may use one of the race's ``then`` verbs that is
    offered, or pass (ascending ids)."""
    me = st[TURN]
    c = 0
    passed = False
    for j in range(prm[P_RNTHEN]):
        v = prm[P_RTHEN + j]
        if not passed and prm[P_VERB + v * VW + V_BASE] > PASS:
            out[c] = PASS
            c += 1
            passed = True
        c = offer(st, prm, v, me, out, c)
    if not passed:
        out[c] = PASS
        c += 1
    return c


@inline
def act(st, a, prm):  # type: ignore[no-untyped-def]
    """The roller's action ``a`` (a face's verb, or one after the race; not REROLL, see
    :func:`reroll`): its verb's effects, in order; the turn is not finished (see
    :func:`end_turn`)."""
    v = prm[P_ACT + a]
    if v < 0:
        return
    vr = P_VERB + v * VW
    me = st[TURN]
    tgt = a - prm[vr + V_BASE] if prm[vr + V_TGT] else -1
    fast = prm[vr + V_FAST]
    if fast != FAST_NONE:  # a verb of a shape (layout's V_FAST): its one effect, short
        if fast == FAST_GROW:
            put = room(st, me, prm)
            if prm[vr + V_A0] < put:
                put = prm[vr + V_A0]
            if put > 0:
                st[SHEEP + me] += put
                st[MIDDLE] -= put
        elif fast == FAST_SHEAR:
            shear_seat(st, me, prm[vr + V_A0], prm[vr + V_A1], prm)
        elif fast == FAST_SWAP:
            x = st[SHEEP + me]
            st[SHEEP + me] = st[SHEEP + tgt]
            st[SHEEP + tgt] = x
        else:  # FAST_TAKE
            have = st[SHEEP + tgt]
            take = amount(prm, P_EFF + prm[vr + V_E0] * EW + E_AK, have)
            st[SHEEP + tgt] = have - take
            st[PILE + me if prm[vr + V_A0] else MIDDLE] += take
        return
    act_rows(st, prm, vr, me, tgt)


@bare
def act_rows(st, prm, vr, me, tgt):  # type: ignore[no-untyped-def]
    """:func:`act` of the verb at row ``vr`` read from its rows (its effects, in order),
    compiled once and called."""
    for e in range(prm[vr + V_NE]):
        effect(st, prm, P_EFF + (prm[vr + V_E0] + e) * EW, me, tgt)


@inline
def game_ends(st, prm):  # type: ignore[no-untyped-def]
    """The end (End): the middle is empty (Shave a Sheep ruling 6), a pile (a team's piles
    together) holds the target (house rule), or every seat has had its turns (``turns_each``: this turn is the last)."""
    if st[MIDDLE] == 0 and prm[P_MEND]:
        return True
    if prm[P_TARGET] > 0:
        for s in range(prm[P_N]):
            if score(st, s, prm) >= prm[P_TARGET]:
                return True
    return prm[P_TEACH] > 0 and st[TURNS] + 1 >= prm[P_TEACH]


@inline
def start_turn(st, prm):  # type: ignore[no-untyped-def]
    """A turn's start, before its roll: the turn-start triggers (the printed auto-shear,
    Shave a Sheep ruling 5: ``P_AUTO``, read near), then the end at once if they emptied the
    middle."""
    if prm[P_AUTO]:
        t = st[TURN]
        if st[SHEEP + t] >= prm[P_SKIP]:
            shear_seat(st, t, prm[P_ACOST], prm[P_ABONUS], prm)
    elif prm[P_NSTART]:
        fire(st, prm, ON_TURN_START, st[TURN])
    if st[MIDDLE] == 0 and prm[P_MEND]:
        final_shear(st, prm)


@inline
def end_turn(st, prm):  # type: ignore[no-untyped-def]
    """The end of a turn: the middle-empty triggers (the middle is empty), then when the game
    ends (:func:`game_ends`) the final shear (Shave a Sheep ruling 6); the end of a game that
    reached its turn limit (no next turn, so no turn start: docs/engine.md, "Truncated games");
    else the next seat's turn start (:func:`start_turn`)."""
    st[REROLLED] = 0
    if st[MIDDLE] == 0 and prm[P_NEMPTY]:
        fire(st, prm, ON_MIDDLE_EMPTY, st[TURN])
    if game_ends(st, prm):
        final_shear(st, prm)
        return
    st[TURNS] += 1
    if prm[P_MAXT] > 0 and st[TURNS] >= prm[P_MAXT]:
        st[TRUNCATED] = 1
        st[OVER] = 1
        return
    t = st[TURN] + 1
    if t == prm[P_N]:
        t = 0
    st[TURN] = t
    start_turn(st, prm)


@bare
def final_shear(st, prm):  # type: ignore[no-untyped-def]
    """The end: every sheep shorn one last time in seat order at the final cost
    (Shave a Sheep ruling 6, unless the house rule final_shear is off; no bonus, no trigger, its payments do
    not restart the game)."""
    if prm[P_FINAL]:
        for s in range(prm[P_N]):
            shear_seat(st, s, prm[P_FCOST], 0, prm)
    st[OVER] = 1


@inline
def _finish(st, a, prm):  # type: ignore[no-untyped-def]
    """The roller's action ``a``, then the end of the turn."""
    act(st, a, prm)
    end_turn(st, prm)


@inline
def score(st, seat, prm):  # type: ignore[no-untyped-def]
    """What ``seat``'s side has banked: its pile, or its team's piles together."""
    if prm[P_TEAMS] == 0:
        return st[PILE + seat]
    tot = 0
    for s in range(prm[P_N]):
        if prm[P_TEAM + s] == prm[P_TEAM + seat]:
            tot += st[PILE + s]
    return tot


@inline
def share(st, seat, prm):  # type: ignore[no-untyped-def]
    """``seat``'s win share of a finished game: 1/k if it is one of k tied winners (with teams:
    every seat of a team with the biggest piles together wins), else 0 (0 for everyone in a
    truncated game)."""
    if st[TRUNCATED]:
        return 0.0
    n = prm[P_N]
    best = score(st, 0, prm)
    for s in range(1, n):
        x = score(st, s, prm)
        if x > best:
            best = x
    if score(st, seat, prm) != best:
        return 0.0
    k = 0
    for s in range(n):
        if score(st, s, prm) == best:
            k += 1
    return 1.0 / k


# -- the shared entry points ------------------------------------------------------------------
# Each is compiled once (its helpers inlined into it) and called by every kernel that needs
# it: the lab's games, the solver, the bots' playouts and the batched simulator. Inlining the
# interpreter into each caller instead (numba's inline="always", then) multiplied the code numba and
# LLVM optimise by the number of call sites: minutes of cold compiling (docs/engine.md,
# "Compile time"). The random and greedy hot loop alone (:func:`.play.turn_plain`) inlines
# the underscored bodies: a copy per policy, where calls per turn cost most.
@bare
def choices(st, face, prm, out):  # type: ignore[no-untyped-def]
    """:func:`_choices`: the roller's legal actions on a normal ``face``, into ``out``."""
    return _choices(st, face, prm, out)


@bare
def howl_choices(st, prm, out):  # type: ignore[no-untyped-def]
    """:func:`_howl_choices`: the roller's choices after the race's take, into ``out``."""
    return _howl_choices(st, prm, out)


@bare
def race_take(st, target, prm):  # type: ignore[no-untyped-def]
    """:func:`_race_take`: the race's take of the target's sheep."""
    _race_take(st, target, prm)


@bare
def finish(st, a, prm):  # type: ignore[no-untyped-def]
    """:func:`_finish`: the roller's action ``a``, then the end of the turn."""
    _finish(st, a, prm)
