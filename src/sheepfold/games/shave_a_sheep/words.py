"""Shave a Sheep's rules in words, generated from the program (:mod:`.program`): a sentence
for every place, amount, effect, condition, verb, face, trigger, the end and the setup. Every
front end (the terminal, the web table, the gallery) says the rules with these words, so none
can drift from what the engine plays.

The words speak to the roller (``you``; after a shear, the shorn sheep's owner). The chosen
player of a verb is "the chosen player" unless a name is given (``target=``).

* :func:`describe` is a program part by part (``(part, sentence)``);
* :func:`differences` is what changes from one program to another, part by part, in the same
  words (the gallery's and the lab's comparisons).
"""

from __future__ import annotations

from typing import Any

from sheepfold.games.shave_a_sheep.program import (
    Amount,
    Condition,
    Effect,
    End,
    Face,
    HomeWolf,
    Move,
    Place,
    PlaceWolf,
    Program,
    Race,
    Setup,
    Shear,
    Swap,
    Trigger,
    Verb,
)

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_FRACTIONS = {2: "half", 3: "a third", 4: "a quarter"}
_ORDINALS = ("first", "second")


def number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def times(n: int) -> str:
    """``once``, ``twice``, ``three times``."""
    return {1: "once", 2: "twice"}.get(n, f"{number(n)} times")


def pieces(n: int) -> str:
    return f"{number(n)} piece{'' if n == 1 else 's'}"


def _wolf(piece: int, wolves: int = 1) -> str:
    return "the wolf" if wolves <= 1 and piece == 0 else f"the {_ORDINALS[piece]} wolf"


def whose(w: str, piece: int = 0, target: str | None = None, wolves: int = 1) -> str:
    """A seat word as a possessive: ``your``, ``the chosen player's`` (or ``bob's``) ..."""
    if w == "me":
        return "your"
    if w == "target":
        return f"{target}'s" if target else "the chosen player's"
    if w == "wolf":
        return f"the player {_wolf(piece, wolves)} stands next to's"
    return {
        "left": "your left neighbour's",
        "right": "your right neighbour's",
        "leader": "the leading other player's",
        "last": "the last other player's",
        "partner": "your partner's",
        "others": "every other player's",
    }[w]


def place(p: Place, target: str | None = None, wolves: int = 1) -> str:
    """``the middle``, ``your sheep``, ``the chosen player's safe pile`` ..."""
    if p.where == "middle":
        return "the middle"
    thing = "sheep" if p.where == "sheep" else "safe pile"
    if p.whose == "wolf":
        return f"the {thing} {_wolf(p.piece, wolves)} stands next to"
    return f"{whose(p.whose, p.piece, target, wolves)} {thing}"


def amount(a: Amount) -> str:
    """``all the wool``, ``up to two pieces``, ``a third of the wool, rounded down``."""
    if a.kind == "all":
        return "all the wool"
    if a.kind == "number":
        return pieces(a.n) if a.n == 1 else f"up to {pieces(a.n)}"
    frac = _FRACTIONS.get(a.den) if a.num == 1 else None
    text = frac or f"{a.num}/{a.den}"
    text = f"{text} of the wool" if frac != "half" else "half the wool"
    return f"{text}, rounded {'up' if a.up else 'down'},"


def _onto(p: Place, target: str | None, wolves: int) -> str:
    if p.where == "middle":
        return "back to the middle"
    return f"onto {place(p, target, wolves)}"


def effect(e: Effect, target: str | None = None, wolves: int = 1) -> str:
    """An effect as a clause: ``take a third of the wool, rounded down, from the chosen
    player's sheep onto your sheep``."""
    if isinstance(e, Move):
        src = place(e.source, target, wolves)
        how = amount(e.amount)
        return f"take {how} from {src} {_onto(e.to, target, wolves)}".replace(",, ", ", ")
    if isinstance(e, Shear):
        text = f"shear {whose(e.whose, 0, target, wolves)} sheep onto its owner's safe pile"
        if e.whose == "me":
            text = "shear your sheep onto your safe pile"
        if e.cost:
            text += f", less {pieces(e.cost)} back to the middle"
        if e.bonus:
            text += f"; a full sheep also earns {pieces(e.bonus)} from the middle"
        return text
    if isinstance(e, Swap):
        a = "your sheep" if e.a == "me" else f"{whose(e.a, 0, target, wolves)} sheep"
        return f"swap {a} with {whose(e.b, 0, target, wolves)} sheep"
    if isinstance(e, PlaceWolf):
        to = "you" if e.at == "me" else whose(e.at, 0, target, wolves).removesuffix("'s")
        to = "the chosen player" if e.at == "target" and not target else to
        return f"send {_wolf(e.piece, wolves)} to {to}"
    assert isinstance(e, HomeWolf)
    return f"{_wolf(e.piece, wolves)} goes back to the middle"


def effects(es: tuple[Effect, ...], target: str | None = None, wolves: int = 1) -> str:
    return ", then ".join(effect(e, target, wolves) for e in es) or "nothing happens"


def condition(c: Condition, target: str | None = None, wolves: int = 1) -> str:
    """A condition as a clause: ``the chosen player's safe pile holds at least one piece``."""
    if c.kind == "wolf-away":
        text = f"{_wolf(c.piece, wolves)} stands next to another player"
    elif c.kind == "alone-last":
        text = "your safe pile is smaller than every other"
    elif c.kind == "alone-leader":
        text = "your safe pile is bigger than every other"
    elif c.kind == "room":
        text = f"{place(c.place, target, wolves)} has room for a piece and the middle has wool"
    else:
        most = "at least" if c.kind == "at-least" else "at most"
        text = f"{place(c.place, target, wolves)} holds {most} {pieces(c.n)}"
    return f"it is not so that {text}" if c.negate else text


def conditions(cs: tuple[Condition, ...], target: str | None = None, wolves: int = 1) -> str:
    return " and ".join(condition(c, target, wolves) for c in cs)


def race(r: Race, wolves: int = 1) -> str:
    lost = amount(r.take).removesuffix(",")
    return (
        "the race for the wolf: whoever grabs it first picks another player, whose sheep loses "
        f"{lost} {_onto(r.to, None, wolves)}; then you may {' or '.join(r.then)}"
    )


def verb(v: Verb, target: str | None = None, wolves: int = 1) -> str:
    """What a verb does (its rule file's own words, if it has them)."""
    if v.words:
        return v.words
    if v.race is not None:
        return race(v.race, wolves)
    if v.name == "pass":
        return "do nothing"
    if v.name == "reroll":
        return "roll the die again"
    text = effects(v.effects, target, wolves)
    if v.targeted and not target:
        text = f"choose another player: {text}"
    if v.when:
        text += f" (only when {conditions(v.when, target, wolves)})"
    return text


def condition_unmet(c: Condition, state: Any, me: int, target: int | None) -> str:
    """Why condition ``c`` does not hold now for the roller ``me``, in words."""
    cap = state.game.program.setup.cap
    if c.kind == "room" and c.place.where == "sheep" and c.place.whose == "me":
        if state.sheep[me] >= cap:
            return f"your sheep cannot take more wool: it carries {state.sheep[me]} of {cap}"
        return "the middle has no wool left"
    wolves = state.game.program.setup.wolves
    return f"it needs {condition(c, None if target is None else f'seat {target}', wolves)}"


def face(f: Face, program: Program) -> str:
    """A face and what it offers: ``white/pink (grow or shear)``."""
    verbs = {v.name: v for v in program.verbs}
    if any(verbs[n].race is not None for n in f.verbs):
        then = next(verbs[n].race for n in f.verbs if verbs[n].race is not None)
        assert then is not None
        return f"{f.text} (the wolf race, then you may {' or '.join(then.then)})"
    return f"{f.text} ({' or '.join(f.verbs)})"


_EVENTS = {
    "turn-start": "at the start of your turn",
    "after-shear": "after a sheep is shorn (you: its owner)",
    "middle-empty": "at the end of a turn that left the middle empty",
}


def trigger(t: Trigger, wolves: int = 1) -> str:
    if t.words:
        return t.words
    when = f", when {conditions(t.when, None, wolves)}" if t.when else ""
    return f"{_EVENTS[t.on]}{when}: {effects(t.effects, None, wolves)}"


def end(e: End) -> str:
    ways = []
    if e.middle_empty:
        ways.append("the middle is empty")
    if e.target is not None:
        ways.append(f"a safe pile holds {pieces(e.target)}")
    if e.turns_each is not None:
        ways.append(f"every player has had {e.turns_each} turns")
    text = "the game ends when " + " or ".join(ways)
    if e.final_shear:
        text += "; then every sheep is shorn one last time"
        if e.final_cost:
            text += f", each paying {pieces(e.final_cost)} back to the middle"
    else:
        text += "; only the safe piles count (no final shear)"
    return text


def setup(s: Setup, teams: tuple[tuple[int, ...], ...] = ()) -> str:
    text = f"{pieces(s.wool)} of wool in play, a sheep carries at most {pieces(s.cap)}"
    if s.sheep:
        text += f"; every sheep starts with {pieces(s.sheep)}"
    if s.first:
        text += f"; seat {s.first} starts"
    if s.wolves:
        text += f"; {'a wolf piece' if s.wolves == 1 else f'{number(s.wolves)} wolf pieces'}"
    if teams:
        sides = "; ".join(" and ".join(f"seat {x}" for x in t) for t in teams)
        text += f"; teams ({sides}): partners' safe piles count together"
    return text


def describe(program: Program) -> list[tuple[str, str]]:
    """The program part by part, as (part, sentence): the setup, the die, each verb a face
    offers, each trigger, the end, rolling again."""
    wolves = program.setup.wolves
    total = sum(program.counts)
    die = ", ".join(
        face(f, program) + ("" if c == 1 else f" ({number(c)} of {number(total)} faces)")
        for f, c in zip(program.faces, program.counts, strict=True)
    )
    out = [("setup", setup(program.setup, program.teams)), ("die", die)]
    shown = {n for f in program.faces for n in f.verbs}
    raced = {n for v in program.verbs if v.race is not None for n in v.race.then}
    for v in program.verbs:
        if v.name in shown or v.name in raced:
            out.append((v.name, verb(v, None, wolves)))
    for t in program.triggers:
        out.append(
            (_EVENTS[t.on].removeprefix("at the ").removeprefix("after "), trigger(t, wolves))
        )
    out.append(("end", end(program.end)))
    if program.rerolls:
        out.append(("rolling again", f"you may roll again {times(program.rerolls)} a turn"))
    return out


def _keyed(program: Program) -> dict[str, str]:
    """The parts by a key unique in the program (triggers numbered by event)."""
    out: dict[str, str] = {}
    for part, text in describe(program):
        key, k = part, 2
        while key in out:
            key, k = f"{part} ({k})", k + 1
        out[key] = text
    return out


def differences(a: Program, b: Program) -> list[str]:
    """What changes from ``a`` to ``b``, part by part, in the words of :func:`describe`:
    ``wolf: take all the wool ... → take a third of the wool, rounded down, ...``; a part only
    one has: ``steal: none → choose another player: ...``."""
    wa, wb = _keyed(a), _keyed(b)
    out = []
    for key in dict.fromkeys([*wa, *wb]):
        x, y = wa.get(key), wb.get(key)
        if x != y:
            out.append(f"{key}: {x or 'none'} → {y or 'none'}")
    return out


def changed(a: Program, b: Program) -> list[str]:
    """The parts of ``b`` that differ from ``a``, each in ``b``'s words (``wolf: choose another
    player: take half the wool, rounded up, ...``; a part ``b`` drops: ``raid: none``)."""
    wa, wb = _keyed(a), _keyed(b)
    return [
        f"{k}: {wb.get(k) or 'none'}" for k in dict.fromkeys([*wa, *wb]) if wa.get(k) != wb.get(k)
    ]
