"""Shave a Sheep's rules, compiled: legal actions, their effects, the end of a turn.

The one fast copy of the engine's rules (:mod:`sheepfold.games.shave_a_sheep.game`), over the
state vector of :mod:`.layout`; ``tests/test_shave_kernel.py`` checks every reachable position of
small rule sets against the engine. A turn, as the kernels play it::

    face = roll(bits, prm)                   # chance: the die
    if prm[P_RACE + face]:                   # Howling Wolf's race (Shave a Sheep ruling 8)
        g = grab(bits, prm)                  #   chance: who grabs the wolf
        howl_take(st, k)                     #   g picks k != g: one piece back
        n = howl_choices(st, prm, out)       #   the roller: GROW or PASS
    else:
        n = choices(st, face, prm, out)      # the roller's legal actions (REROLL: roll again,
                                             #   reroll(st); house rule rerolls)
    act(st, a, prm); end_turn(st, prm)      # = finish(st, a, prm)

The house rules (``prm``'s ``P_SHEAR_AT`` ... ``P_REROLLS``, docs/spec/rulings.md "House rules")
are played once each, as in the engine: ``shear`` (the cost, the full bonus),
``wolf`` (how much, where to), ``end_turn`` (the auto-shear threshold, the target, the final
shear), ``choices`` and ``reroll`` (rerolls).

Every function changes ``st`` in place; the legal-action functions write ascending engine action
ids into ``out`` and return how many (the engine's ``legal_actions`` order).
"""

from __future__ import annotations

from typing import Any

from sheepfold.numba_cache import ensure_numba_cache_dir

ensure_numba_cache_dir()

from numba import njit  # noqa: E402

from sheepfold.games.shave_a_sheep.kernel.layout import (  # noqa: E402
    DOUBLE,
    F_DOUBLE,
    F_GROW,
    F_SHEAR,
    F_SWAP,
    F_WOLF,
    GROW,
    MIDDLE,
    OVER,
    P_BONUS,
    P_CAP,
    P_CUT,
    P_FACES,
    P_FINAL,
    P_GRAB,
    P_MASK,
    P_MAXT,
    P_MRWOLF,
    P_N,
    P_REROLLS,
    P_ROLL,
    P_SHEAR_AT,
    P_TARGET,
    P_WOOL,
    P_WTAKE,
    P_WTO,
    PASS,
    PILE,
    RAID,
    REROLL,
    REROLLED,
    SHEAR,
    SHEEP,
    SWAP0,
    TRUNCATED,
    TURN,
    TURNS,
    WOLF,
    WOLF0,
)

#: the decorator of every kernel of the package (cached on disk, see sheepfold.numba_cache)
jit: Any = njit(cache=True, nogil=True)
#: the same for the small rules of a turn: inlined into their callers (numba's own inlining,
#: which also lets it drop the reference counting of the arrays passed: 4x faster games)
inline: Any = njit(cache=True, nogil=True, inline="always")


@inline
def copy(dst, src):  # type: ignore[no-untyped-def]
    """``dst[:] = src`` for two state vectors, as a plain loop (no slice objects)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@jit
def new_game(st, prm):  # type: ignore[no-untyped-def]
    """The set-up: all the wool in the middle, seat 0 to roll."""
    st[:] = 0
    st[MIDDLE] = prm[P_WOOL]


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


@inline
def grow(st, seat, pieces, prm):  # type: ignore[no-untyped-def]
    put = room(st, seat, prm)
    if pieces < put:
        put = pieces
    st[SHEEP + seat] += put
    st[MIDDLE] -= put


@inline
def shear(st, seat, prm, in_play):  # type: ignore[no-untyped-def]
    """The sheep's wool to the pile, less the shear's cost back to the middle (at most what was
    shorn: Shave a Sheep ruling 7, house rule shear_cost); a shear ``in_play`` (pink or the
    auto-shear, not the final shear) of a full sheep also moves ``full_bonus`` pieces from the
    middle (as many as there are) to the pile, after the cost (house rule full_bonus)."""
    wool = st[SHEEP + seat]
    pay = prm[P_CUT] if prm[P_CUT] < wool else wool
    st[MIDDLE] += pay
    st[PILE + seat] += wool - pay
    st[SHEEP + seat] = 0
    if in_play and wool >= prm[P_CAP]:
        bonus = prm[P_BONUS] if prm[P_BONUS] < st[MIDDLE] else st[MIDDLE]
        st[MIDDLE] -= bonus
        st[PILE + seat] += bonus


@inline
def wolf(st, me, k, prm):  # type: ignore[no-untyped-def]
    """The standard wolf on seat ``k``'s sheep (Shave a Sheep ruling 4): all (house rule
    wolf_takes: half rounded up, or a number) back to the middle (wolf_to: or to ``me``'s pile)."""
    wool = st[SHEEP + k]
    code = prm[P_WTAKE]
    take = wool
    if code == -1:
        take = (wool + 1) // 2
    elif code > 0 and code < wool:
        take = code
    st[SHEEP + k] -= take
    if prm[P_WTO]:
        st[PILE + me] += take
    else:
        st[MIDDLE] += take


@inline
def choices(st, face, prm, out):  # type: ignore[no-untyped-def]
    """The roller's legal actions on a normal ``face`` (PASS alone when it offers none)."""
    n = prm[P_N]
    mask = prm[P_MASK + face]
    me = st[TURN]
    c = 0
    r = room(st, me, prm)
    if mask & F_GROW and r > 0:
        out[c] = GROW
        c += 1
    if mask & F_DOUBLE and r > 0:
        out[c] = DOUBLE
        c += 1
    if mask & F_SHEAR:
        out[c] = SHEAR
        c += 1
    if mask & F_SWAP:
        for k in range(n):
            if k != me:
                out[c] = SWAP0 + k
                c += 1
    if mask & F_WOLF:
        for k in range(n):
            if k != me:
                out[c] = WOLF0 + k
                c += 1
        if prm[P_MRWOLF] and st[WOLF] > 0 and st[WOLF] - 1 != me:
            out[c] = RAID
            c += 1
    if c == 0:
        out[0] = PASS
        c = 1
    if st[REROLLED] < prm[P_REROLLS]:  # house rule rerolls: roll again
        out[c] = REROLL
        c += 1
    return c


@inline
def reroll(st):  # type: ignore[no-untyped-def]
    """The roller rolls again instead of acting (house rule rerolls): one reroll used."""
    st[REROLLED] += 1


@inline
def howl_targets(grabber, prm, out):  # type: ignore[no-untyped-def]
    """Howling Wolf: the grabber's choices, ``WOLF0 + k`` for every other seat (Shave a Sheep ruling 8)."""
    c = 0
    for k in range(prm[P_N]):
        if k != grabber:
            out[c] = WOLF0 + k
            c += 1
    return c


@inline
def howl_take(st, target):  # type: ignore[no-untyped-def]
    """Howling Wolf: one piece of the target's sheep goes back to the middle."""
    if st[SHEEP + target] > 0:
        st[SHEEP + target] -= 1
        st[MIDDLE] += 1


@inline
def howl_choices(st, prm, out):  # type: ignore[no-untyped-def]
    """Howling Wolf: after the grab the roller may grow one piece (if its sheep can) or pass."""
    if room(st, st[TURN], prm) > 0:
        out[0] = GROW
        out[1] = PASS
        return 2
    out[0] = PASS
    return 1


@inline
def act(st, a, prm):  # type: ignore[no-untyped-def]
    """The roller's action ``a`` (a normal face's, or Howling Wolf's GROW / PASS; not REROLL,
    see :func:`reroll`); the turn is not finished (see :func:`end_turn`)."""
    me = st[TURN]
    if a == GROW:
        grow(st, me, 1, prm)
    elif a == DOUBLE:
        grow(st, me, 2, prm)
    elif a == SHEAR:
        shear(st, me, prm, True)
    elif a < WOLF0:  # swap sheep
        k = a - SWAP0
        x = st[SHEEP + me]
        st[SHEEP + me] = st[SHEEP + k]
        st[SHEEP + k] = x
    elif a < RAID:
        k = a - WOLF0
        if prm[P_MRWOLF]:  # option A: the wolf goes to k's sheep and brings one piece
            st[WOLF] = k + 1
            if st[SHEEP + k] > 0:
                st[SHEEP + k] -= 1
                st[PILE + me] += 1
        else:
            wolf(st, me, k, prm)
    elif a == RAID:  # option B: up to two pieces, the wolf goes home
        k = st[WOLF] - 1
        take = st[SHEEP + k] if st[SHEEP + k] < 2 else 2
        st[SHEEP + k] -= take
        st[PILE + me] += take
        st[WOLF] = 0
    # PASS: nothing


@inline
def game_ends(st, prm):  # type: ignore[no-untyped-def]
    """The middle is empty (Shave a Sheep ruling 6) or a pile holds the target (house rule)."""
    if st[MIDDLE] == 0:
        return True
    if prm[P_TARGET] > 0:
        for s in range(prm[P_N]):
            if st[PILE + s] >= prm[P_TARGET]:
                return True
    return False


@inline
def end_turn(st, prm):  # type: ignore[no-untyped-def]
    """The end of a turn: when the game ends (:func:`game_ends`), the final shear
    (Shave a Sheep ruling 6, in seat order, unless the house rule final_shear is off; a shear's
    payment does not restart the game); the end of a game that reached its turn limit (no next turn, so no
    auto-shear: docs/engine.md, "Truncated games"); else the next seat's turn, with its
    auto-shear (Shave a Sheep ruling 5, at the house rule's threshold)."""
    n = prm[P_N]
    st[REROLLED] = 0
    if game_ends(st, prm):
        final_shear(st, prm)
        return
    st[TURNS] += 1
    if prm[P_MAXT] > 0 and st[TURNS] >= prm[P_MAXT]:
        st[TRUNCATED] = 1
        st[OVER] = 1
        return
    t = st[TURN] + 1
    if t == n:
        t = 0
    st[TURN] = t
    if st[SHEEP + t] >= prm[P_SHEAR_AT]:
        shear(st, t, prm, True)
        if st[MIDDLE] == 0:  # its full bonus took the last piece: the game ends at once
            final_shear(st, prm)


@inline
def final_shear(st, prm):  # type: ignore[no-untyped-def]
    """The end: every sheep shorn one last time in seat order (Shave a Sheep ruling 6, unless
    the house rule final_shear is off; its payments do not restart the game)."""
    if prm[P_FINAL]:
        for s in range(prm[P_N]):
            shear(st, s, prm, False)
    st[OVER] = 1


@inline
def finish(st, a, prm):  # type: ignore[no-untyped-def]
    """The roller's action ``a``, then the end of the turn."""
    act(st, a, prm)
    end_turn(st, prm)


@inline
def share(st, seat, prm):  # type: ignore[no-untyped-def]
    """``seat``'s win share of a finished game: 1/k if it is one of k tied winners, else 0 (0
    for everyone in a truncated game)."""
    if st[TRUNCATED]:
        return 0.0
    n = prm[P_N]
    best = st[PILE]
    for s in range(1, n):
        if st[PILE + s] > best:
            best = st[PILE + s]
    if st[PILE + seat] != best:
        return 0.0
    k = 0
    for s in range(n):
        if st[PILE + s] == best:
            k += 1
    return 1.0 / k
