"""Shave a Sheep's rules in words, generated from the program (:mod:`.program`): a sentence
for every place, amount, effect, condition, verb, face, trigger, the end and the setup. Every
front end (the terminal, the web table, the gallery) says the rules with these words, so none
can drift from what the engine plays.

The words speak to the roller (``you``; after a shear, the shorn sheep's owner). The chosen
player of a verb is "the chosen player" unless a name is given (``target=``); ``target`` may
also name the players of other seat words (``{"me": ..., "target": ..., "left": ...}``: the
table's log tells a move by another player in the third person, every player by name).

* :func:`describe` is a program part by part (``(part, sentence)``);
* :func:`differences` is what changes from one program to another, part by part, in the same
  words (the gallery's and the lab's comparisons).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sheepfold.core.words import Msg, chained
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

_NUMBERS = (
    Msg("no"),
    Msg("one"),
    Msg("two"),
    Msg("three"),
    Msg("four"),
    Msg("five"),
    Msg("six"),
    Msg("seven"),
    Msg("eight"),
    Msg("nine"),
    Msg("ten"),
)


def number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def times(n: int) -> str:
    """``once``, ``twice``, ``three times``."""
    if n == 1:
        return Msg("once")
    if n == 2:
        return Msg("twice")
    return Msg("{n} times", n=number(n))


def pieces(n: int) -> str:
    if n == 0:
        return Msg("no pieces")
    if n == 1:
        return Msg("one piece")
    return Msg("{n} pieces", n=number(n))


def seat(k: int) -> str:
    """A seat by its number, inside a sentence (``seat 1``)."""
    return Msg("seat {k}", k=k)


#: the printed verbs' names, as the log and the rules say them (a rule set's own verb is said
#: by its own name)
_VERB_WORDS = {
    "grow": Msg("grow"),
    "double": Msg("double"),
    "swap": Msg("swap"),
    "wolf": Msg("wolf"),
    "shear": Msg("shear"),
    "raid": Msg("raid"),
    "pass": Msg("pass"),
    "reroll": Msg("reroll"),
}
#: the die's colours (a face's text: ``white/pink``)
_COLOUR_WORDS = {
    "white": Msg("white"),
    "green": Msg("green"),
    "gray": Msg("gray"),
    "pink": Msg("pink"),
}


def verb_name(name: str) -> str:
    """A verb's name in words (the printed ones translatable)."""
    return _VERB_WORDS.get(name, name)


def face_text(text: str) -> str:
    """A face's colours in words (``white/pink``)."""
    return chained(
        [_COLOUR_WORDS.get(c, c) for c in text.split("/")],
        lambda a, b: Msg("{a}/{b}", a=a, b=b),
    )


def _or(items: Sequence[str]) -> str:
    return chained(list(items), lambda a, b: Msg("{a} or {b}", a=a, b=b))


def _and(items: Sequence[str]) -> str:
    return chained(items, lambda a, b: Msg("{a} and {b}", a=a, b=b))


def _semi(items: Sequence[str]) -> str:
    return chained(items, lambda a, b: Msg("{a}; {b}", a=a, b=b))


def _wolf(piece: int, wolves: int = 1) -> str:
    if wolves <= 1 and piece == 0:
        return Msg("the wolf")
    return Msg("the first wolf") if piece == 0 else Msg("the second wolf")


#: a place of a seat word's player (not the wolf's, not a named one), each as a subject, after
#: "from" and after "onto": whole sentences' pieces, so that a language says them its own way
_PLACES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("me", "sheep"): (Msg("your sheep"), Msg("from your sheep"), Msg("onto your sheep")),
    ("me", "pile"): (
        Msg("your safe pile"),
        Msg("from your safe pile"),
        Msg("onto your safe pile"),
    ),
    ("target", "sheep"): (
        Msg("the chosen player's sheep"),
        Msg("from the chosen player's sheep"),
        Msg("onto the chosen player's sheep"),
    ),
    ("target", "pile"): (
        Msg("the chosen player's safe pile"),
        Msg("from the chosen player's safe pile"),
        Msg("onto the chosen player's safe pile"),
    ),
    ("left", "sheep"): (
        Msg("your left neighbour's sheep"),
        Msg("from your left neighbour's sheep"),
        Msg("onto your left neighbour's sheep"),
    ),
    ("left", "pile"): (
        Msg("your left neighbour's safe pile"),
        Msg("from your left neighbour's safe pile"),
        Msg("onto your left neighbour's safe pile"),
    ),
    ("right", "sheep"): (
        Msg("your right neighbour's sheep"),
        Msg("from your right neighbour's sheep"),
        Msg("onto your right neighbour's sheep"),
    ),
    ("right", "pile"): (
        Msg("your right neighbour's safe pile"),
        Msg("from your right neighbour's safe pile"),
        Msg("onto your right neighbour's safe pile"),
    ),
    ("leader", "sheep"): (
        Msg("the leading other player's sheep"),
        Msg("from the leading other player's sheep"),
        Msg("onto the leading other player's sheep"),
    ),
    ("leader", "pile"): (
        Msg("the leading other player's safe pile"),
        Msg("from the leading other player's safe pile"),
        Msg("onto the leading other player's safe pile"),
    ),
    ("last", "sheep"): (
        Msg("the last other player's sheep"),
        Msg("from the last other player's sheep"),
        Msg("onto the last other player's sheep"),
    ),
    ("last", "pile"): (
        Msg("the last other player's safe pile"),
        Msg("from the last other player's safe pile"),
        Msg("onto the last other player's safe pile"),
    ),
    ("partner", "sheep"): (
        Msg("your partner's sheep"),
        Msg("from your partner's sheep"),
        Msg("onto your partner's sheep"),
    ),
    ("partner", "pile"): (
        Msg("your partner's safe pile"),
        Msg("from your partner's safe pile"),
        Msg("onto your partner's safe pile"),
    ),
    ("others", "sheep"): (
        Msg("every other player's sheep"),
        Msg("from every other player's sheep"),
        Msg("onto every other player's sheep"),
    ),
    ("others", "pile"): (
        Msg("every other player's safe pile"),
        Msg("from every other player's safe pile"),
        Msg("onto every other player's safe pile"),
    ),
}
_SUBJECT, _FROM, _ONTO = 0, 1, 2


#: whom a verb's seat words name: the chosen player's name, or a name for each seat word
Names = str | Mapping[str, str] | None


def _named(whose: str, target: Names) -> str | None:
    """The name ``target`` gives seat word ``whose`` (None: it is said in words)."""
    if isinstance(target, Mapping):
        return target.get(whose)
    return target if whose == "target" else None


def _place(p: Place, form: int, target: Names, wolves: int) -> str:
    """``p`` as a subject (``your sheep``), after "from" or after "onto"."""
    if p.where == "middle":
        return (Msg("the middle"), Msg("from the middle"), Msg("back to the middle"))[form]
    sheep = p.where == "sheep"
    if p.whose == "wolf":
        w = _wolf(p.piece, wolves)
        if sheep:
            return (
                Msg("the sheep {wolf} stands next to", wolf=w),
                Msg("from the sheep {wolf} stands next to", wolf=w),
                Msg("onto the sheep {wolf} stands next to", wolf=w),
            )[form]
        return (
            Msg("the safe pile {wolf} stands next to", wolf=w),
            Msg("from the safe pile {wolf} stands next to", wolf=w),
            Msg("onto the safe pile {wolf} stands next to", wolf=w),
        )[form]
    name = _named(p.whose, target)
    if name:
        if sheep:
            return (
                Msg("{name}'s sheep", name=name),
                Msg("from {name}'s sheep", name=name),
                Msg("onto {name}'s sheep", name=name),
            )[form]
        return (
            Msg("{name}'s safe pile", name=name),
            Msg("from {name}'s safe pile", name=name),
            Msg("onto {name}'s safe pile", name=name),
        )[form]
    return _PLACES[(p.whose, "sheep" if sheep else "pile")][form]


def _sheep_of(w: Any, target: Names, wolves: int) -> str:
    """A seat word's player's sheep (the wolf's: the sheep of the player the wolf is next to)."""
    if w == "wolf":
        return Msg("the player {wolf} stands next to's sheep", wolf=_wolf(0, wolves))
    return _place(Place("sheep", w), _SUBJECT, target, wolves)


def place(p: Place, target: Names = None, wolves: int = 1) -> str:
    """``the middle``, ``your sheep``, ``the chosen player's safe pile`` ..."""
    return _place(p, _SUBJECT, target, wolves)


def amount(a: Amount, comma: bool = True) -> str:
    """``all the wool``, ``up to two pieces``, ``a third of the wool, rounded down,`` (the
    comma that ends a fraction's clause left out: ``comma=False``)."""
    if a.kind == "all":
        return Msg("all the wool")
    if a.kind == "number":
        return pieces(a.n) if a.n == 1 else Msg("up to {n}", n=pieces(a.n))
    if a.num == 1 and a.den == 2:
        text = Msg("half the wool")
    elif a.num == 1 and a.den == 3:
        text = Msg("a third of the wool")
    elif a.num == 1 and a.den == 4:
        text = Msg("a quarter of the wool")
    else:
        text = Msg("{num}/{den} of the wool", num=a.num, den=a.den)
    if a.up:
        return (
            Msg("{part}, rounded up,", part=text) if comma else Msg("{part}, rounded up", part=text)
        )
    return (
        Msg("{part}, rounded down,", part=text) if comma else Msg("{part}, rounded down", part=text)
    )


def _onto(p: Place, target: Names, wolves: int) -> str:
    return _place(p, _ONTO, target, wolves)


def _send(at: str, w: str, target: Names, wolves: int) -> str:
    """``send the wolf to ...``: the wolf ``w`` sent to the player of seat word ``at``."""
    name = _named(at, target)
    if name:
        return Msg("send {wolf} to {name}", wolf=w, name=name)
    if at == "me":
        return Msg("send {wolf} to you", wolf=w)
    if at == "target":
        return Msg("send {wolf} to the chosen player", wolf=w)
    if at == "wolf":
        return Msg(
            "send {wolf} to the player {other} stands next to", wolf=w, other=_wolf(0, wolves)
        )
    return {
        "left": lambda: Msg("send {wolf} to your left neighbour", wolf=w),
        "right": lambda: Msg("send {wolf} to your right neighbour", wolf=w),
        "leader": lambda: Msg("send {wolf} to the leading other player", wolf=w),
        "last": lambda: Msg("send {wolf} to the last other player", wolf=w),
        "partner": lambda: Msg("send {wolf} to your partner", wolf=w),
        "others": lambda: Msg("send {wolf} to every other player", wolf=w),
    }[at]()


def effect(e: Effect, target: Names = None, wolves: int = 1) -> str:
    """An effect as a clause: ``take a third of the wool, rounded down, from the chosen
    player's sheep onto your sheep``."""
    if isinstance(e, Move):
        return Msg(
            "take {how} {source} {onto}",
            how=amount(e.amount),
            source=_place(e.source, _FROM, target, wolves),
            onto=_onto(e.to, target, wolves),
        )
    if isinstance(e, Shear):
        if e.whose == "me" and not _named("me", target):
            text = Msg("shear your sheep onto your safe pile")
        else:
            text = Msg(
                "shear {sheep} onto its owner's safe pile",
                sheep=_sheep_of(e.whose, target, wolves),
            )
        if e.cost:
            text = Msg("{shear}, less {n} back to the middle", shear=text, n=pieces(e.cost))
        if e.bonus:
            text = Msg(
                "{shear}; a full sheep also earns {n} from the middle",
                shear=text,
                n=pieces(e.bonus),
            )
        return text
    if isinstance(e, Swap):
        return Msg(
            "swap {a} with {b}",
            a=_sheep_of(e.a, target, wolves),
            b=_sheep_of(e.b, target, wolves),
        )
    if isinstance(e, PlaceWolf):
        return _send(e.at, _wolf(e.piece, wolves), target, wolves)
    assert isinstance(e, HomeWolf)
    return Msg("{wolf} goes back to the middle", wolf=_wolf(e.piece, wolves))


def effects(es: tuple[Effect, ...], target: Names = None, wolves: int = 1) -> str:
    return chained(
        [effect(e, target, wolves) for e in es],
        lambda a, b: Msg("{a}, then {b}", a=a, b=b),
        empty=Msg("nothing happens"),
    )


def condition(c: Condition, target: Names = None, wolves: int = 1) -> str:
    """A condition as a clause: ``the chosen player's safe pile holds at least one piece``."""
    text: str
    if c.kind == "wolf-away":
        text = Msg("{wolf} stands next to another player", wolf=_wolf(c.piece, wolves))
    elif c.kind == "alone-last":
        text = Msg("your safe pile is smaller than every other")
    elif c.kind == "alone-leader":
        text = Msg("your safe pile is bigger than every other")
    elif c.kind == "room":
        text = Msg(
            "{place} has room for a piece and the middle has wool",
            place=place(c.place, target, wolves),
        )
    elif c.kind == "at-least":
        text = Msg(
            "{place} holds at least {n}", place=place(c.place, target, wolves), n=pieces(c.n)
        )
    else:
        text = Msg("{place} holds at most {n}", place=place(c.place, target, wolves), n=pieces(c.n))
    return Msg("it is not so that {condition}", condition=text) if c.negate else text


def conditions(cs: tuple[Condition, ...], target: Names = None, wolves: int = 1) -> str:
    return _and([condition(c, target, wolves) for c in cs])


def race(r: Race, wolves: int = 1) -> str:
    return Msg(
        "the race for the wolf: whoever grabs it first picks another player, whose sheep loses "
        "{lost} {onto}; then you may {then}",
        lost=amount(r.take, comma=False),
        onto=_onto(r.to, None, wolves),
        then=_or([verb_name(n) for n in r.then]),
    )


def verb(v: Verb, target: Names = None, wolves: int = 1) -> str:
    """What a verb does (its rule file's own words, if it has them)."""
    if v.words:
        return v.words
    if v.race is not None:
        return race(v.race, wolves)
    if v.name == "pass":
        return Msg("do nothing")
    if v.name == "reroll":
        return Msg("roll the die again")
    text = effects(v.effects, target, wolves)
    if v.targeted and not target:
        text = Msg("choose another player: {effects}", effects=text)
    if v.when:
        text = Msg(
            "{effects} (only when {conditions})",
            effects=text,
            conditions=conditions(v.when, target, wolves),
        )
    return text


def condition_unmet(c: Condition, state: Any, me: int, target: int | None) -> str:
    """Why condition ``c`` does not hold now for the roller ``me``, in words."""
    cap = state.game.program.setup.cap
    if c.kind == "room" and c.place.where == "sheep" and c.place.whose == "me":
        if state.sheep[me] >= cap:
            return Msg(
                "your sheep cannot take more wool: it carries {n} of {cap}",
                n=state.sheep[me],
                cap=cap,
            )
        return Msg("the middle has no wool left")
    wolves = state.game.program.setup.wolves
    said = condition(c, None if target is None else seat(target), wolves)
    return Msg("it needs {condition}", condition=said)


def face(f: Face, program: Program, roller: str | None = None) -> str:
    """A face and what it offers: ``white/pink (grow or shear)``; ``roller``: the name of the
    player who rolled it, where others read it (the race's face: "then Ann may grow")."""
    verbs = {v.name: v for v in program.verbs}
    if any(verbs[n].race is not None for n in f.verbs):
        then = next(verbs[n].race for n in f.verbs if verbs[n].race is not None)
        assert then is not None
        if roller is not None:
            return Msg(
                "{face} (the wolf race, then {name} may {then})",
                face=face_text(f.text),
                name=roller,
                then=_or([verb_name(n) for n in then.then]),
            )
        return Msg(
            "{face} (the wolf race, then you may {then})",
            face=face_text(f.text),
            then=_or([verb_name(n) for n in then.then]),
        )
    return Msg(
        "{face} ({verbs})", face=face_text(f.text), verbs=_or([verb_name(n) for n in f.verbs])
    )


_EVENTS = {
    "turn-start": Msg("at the start of your turn"),
    "after-shear": Msg("after a sheep is shorn (you: its owner)"),
    "middle-empty": Msg("at the end of a turn that left the middle empty"),
}
#: each event's trigger as a part of the program (describe)
_EVENT_PARTS = {
    "turn-start": Msg("start of your turn"),
    "after-shear": Msg("a sheep is shorn (you: its owner)"),
    "middle-empty": Msg("end of a turn that left the middle empty"),
}


def trigger(t: Trigger, wolves: int = 1) -> str:
    if t.words:
        return t.words
    if t.when:
        return Msg(
            "{event}, when {conditions}: {effects}",
            event=_EVENTS[t.on],
            conditions=conditions(t.when, None, wolves),
            effects=effects(t.effects, None, wolves),
        )
    return Msg("{event}: {effects}", event=_EVENTS[t.on], effects=effects(t.effects, None, wolves))


def end(e: End) -> str:
    ways: list[str] = []
    if e.middle_empty:
        ways.append(Msg("the middle is empty"))
    if e.target is not None:
        ways.append(Msg("a safe pile holds {n}", n=pieces(e.target)))
    if e.turns_each is not None:
        ways.append(Msg("every player has had {n} turns", n=e.turns_each))
    text = Msg("the game ends when {ways}", ways=_or(ways))
    if e.final_shear:
        text = Msg("{end}; then every sheep is shorn one last time", end=text)
        if e.final_cost:
            text = Msg(
                "{end}, each paying {n} back to the middle", end=text, n=pieces(e.final_cost)
            )
    else:
        text = Msg("{end}; only the safe piles count (no final shear)", end=text)
    return text


def setup(s: Setup, teams: tuple[tuple[int, ...], ...] = ()) -> str:
    text = Msg(
        "{wool} of wool in play, a sheep carries at most {cap}",
        wool=pieces(s.wool),
        cap=pieces(s.cap),
    )
    if s.sheep:
        text = Msg("{setup}; every sheep starts with {n}", setup=text, n=pieces(s.sheep))
    if s.first:
        text = Msg("{setup}; seat {k} starts", setup=text, k=s.first)
    if s.wolves == 1:
        text = Msg("{setup}; a wolf piece", setup=text)
    elif s.wolves:
        text = Msg("{setup}; {n} wolf pieces", setup=text, n=number(s.wolves))
    if teams:
        sides = _semi([_and([seat(x) for x in t]) for t in teams])
        text = Msg(
            "{setup}; teams ({sides}): partners' safe piles count together", setup=text, sides=sides
        )
    return text


def describe(program: Program) -> list[tuple[str, str]]:
    """The program part by part, as (part, sentence): the setup, the die, each verb a face
    offers, each trigger, the end, rolling again."""
    wolves = program.setup.wolves
    total = sum(program.counts)
    die = chained(
        [
            face(f, program)
            if c == 1
            else Msg(
                "{face} ({n} of {total} faces)",
                face=face(f, program),
                n=number(c),
                total=number(total),
            )
            for f, c in zip(program.faces, program.counts, strict=True)
        ],
        lambda a, b: Msg("{a}, {b}", a=a, b=b),
    )
    out: list[tuple[str, str]] = [
        (Msg("setup"), setup(program.setup, program.teams)),
        (Msg("die"), die),
    ]
    shown = {n for f in program.faces for n in f.verbs}
    raced = {n for v in program.verbs if v.race is not None for n in v.race.then}
    for v in program.verbs:
        if v.name in shown or v.name in raced:
            out.append((verb_name(v.name), verb(v, None, wolves)))
    for t in program.triggers:
        out.append((_EVENT_PARTS[t.on], trigger(t, wolves)))
    out.append((Msg("end"), end(program.end)))
    if program.rerolls:
        out.append(
            (
                Msg("rolling again"),
                Msg("you may roll again {times} a turn", times=times(program.rerolls)),
            )
        )
    return out


def _keyed(program: Program) -> dict[str, str]:
    """The parts by a key unique in the program (triggers numbered by event)."""
    out: dict[str, str] = {}
    for part, text in describe(program):
        key, k = part, 2
        while key in out:
            key, k = Msg("{part} ({k})", part=part, k=k), k + 1
        out[key] = text
    return out


def differences(a: Program, b: Program) -> list[str]:
    """What changes from ``a`` to ``b``, part by part, in the words of :func:`describe`:
    ``wolf: take all the wool ... → take a third of the wool, rounded down, ...``; a part only
    one has: ``steal: none → choose another player: ...``."""
    wa, wb = _keyed(a), _keyed(b)
    out: list[str] = []
    for key in dict.fromkeys([*wa, *wb]):
        x, y = wa.get(key), wb.get(key)
        if x != y:
            none = Msg("none")
            out.append(
                Msg("{part}: {before} → {after}", part=key, before=x or none, after=y or none)
            )
    return out


def changed(a: Program, b: Program) -> list[str]:
    """The parts of ``b`` that differ from ``a``, each in ``b``'s words (``wolf: choose another
    player: take half the wool, rounded up, ...``; a part ``b`` drops: ``raid: none``)."""
    wa, wb = _keyed(a), _keyed(b)
    return [
        Msg("{part}: {words}", part=k, words=wb.get(k) or Msg("none"))
        for k in dict.fromkeys([*wa, *wb])
        if wa.get(k) != wb.get(k)
    ]


# -- what happened ---------------------------------------------------------------------------
#: a position as the engine tells it (``ShaveState.position``): middle, sheep, piles, wolves
Position = tuple[Any, ...]


def position_changes(
    before: Position, after: Position, names: Sequence[str], wolves: int = 1
) -> list[str]:
    """What changed from one position to another, each part in words with its numbers
    (``bob's safe pile 3 → 8``, ``the middle 10 → 7``, ``the wolf goes to bob``; ``wolves``:
    the wolf pieces in play)."""
    (m0, sheep0, piles0, wolves0), (m1, sheep1, piles1, wolves1) = before, after
    out: list[str] = []
    if m0 != m1:
        out.append(Msg("the middle {a} → {b}", a=m0, b=m1))
    for s, name in enumerate(names):
        if sheep0[s] != sheep1[s]:
            out.append(Msg("{name}'s sheep {a} → {b}", name=name, a=sheep0[s], b=sheep1[s]))
        if piles0[s] != piles1[s]:
            out.append(Msg("{name}'s safe pile {a} → {b}", name=name, a=piles0[s], b=piles1[s]))
    for piece, (w0, w1) in enumerate(zip(wolves0, wolves1, strict=True)):
        if w0 != w1:
            wolf = _wolf(piece, wolves)
            out.append(
                Msg("{wolf} goes back to the middle", wolf=wolf)
                if w1 is None
                else Msg("{wolf} goes to {name}", wolf=wolf, name=names[w1])
            )
    return out


def is_auto_shear(program: Program, t: Trigger) -> bool:
    """Whether ``t`` is the program's auto-shear (Shave a Sheep ruling 5, the house rule
    ``auto_shear``): ``compile_rules`` puts it first."""
    return bool(program.triggers) and t is program.triggers[0]


def fired(
    program: Program,
    t: Trigger,
    me: int,
    before: Position,
    after: Position,
    names: Sequence[str],
) -> str | None:
    """A trigger that fired (``ShaveState.fired``), in words, with what it changed; None when it
    changed nothing. The auto-shear says the threshold in play (``Auto-shear: bob's sheep
    carries 4 (at least 4) and is shorn at the start of bob's turn: ...``)."""
    changes = position_changes(before, after, names, program.setup.wolves)
    if not changes:
        return None
    told = chained(changes, lambda a, b: Msg("{a}, {b}", a=a, b=b))
    if is_auto_shear(program, t):
        return Msg(
            "Auto-shear: {name}'s sheep carries {n} (at least {at}) and is shorn at the start "
            "of {name}'s turn: {changes}.",
            name=names[me],
            n=before[1][me],
            at=t.when[0].n,
            changes=told,
        )
    return Msg(
        "House rule for {name} ({rule}): {changes}.",
        name=names[me],
        rule=trigger(t, program.setup.wolves),
        changes=told,
    )


def happened(program: Program, fired_: Sequence[Any], names: Sequence[str]) -> list[str]:
    """The lines of the triggers that fired (``ShaveState.fired``) and changed something."""
    out = []
    for t, me, before, after in fired_:
        line = fired(program, t, me, before, after, names)
        if line is not None:
            out.append(line)
    return out


def told(before: Any, actions: Sequence[int], names: Sequence[str]) -> list[str]:
    """What the triggers did while ``actions`` (decisions and chance outcomes, as the history
    holds them) are applied to the state ``before``, in words: the engine's own report
    (``ShaveState.fired``), on a copy."""
    probe = before.clone()
    probe.fired = []
    for a in actions:
        probe.apply_unchecked(a)
    return happened(probe.game.program, probe.fired, names)
