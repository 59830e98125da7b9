"""Shave a Sheep's rules as a program: the parts of the rule language (docs/spec/rule-language.md)
that the engine (:mod:`.game`) interprets and the kernel (:mod:`.kernel`) encodes and plays.

A rule set (:class:`~sheepfold.games.shave_a_sheep.rules.ShaveRules`: the printed rules, the
variants, every option and the language's own parts) compiles to one :class:`Program`
(:func:`compile_rules`). Nothing else reads a rule option: every consumer reads the program.

The parts:

* a :class:`Place` is the middle, or a seat's sheep or safe pile; the seat is named relative to
  the roller (:data:`WHOSE`: ``me``, the ``target`` the roller chose, the seat a ``wolf`` piece
  stands next to, ``left``/``right`` neighbours, the ``leader``/``last`` among the others, the
  ``partner``, or each of the ``others`` in turn);
* an :class:`Amount` is a number of pieces, ``all``, or a fraction rounded up or down, always
  cut to what the source holds and what the destination takes (a sheep carries at most its cap);
* an effect (:data:`Effect`) moves wool (:class:`Move`), shears a sheep (:class:`Shear`: its
  cost back to the middle, the rest to the pile, a bonus for a full sheep), swaps two sheep
  (:class:`Swap`), places a wolf piece (:class:`PlaceWolf`) or sends it home (:class:`HomeWolf`);
* a :class:`Condition` tests a place's wool, a wolf piece or the piles' ranks;
* a :class:`Verb` is one choice a face offers the roller: its conditions (when it is offered),
  whether the roller picks another seat (``targeted``), its effects; or a :class:`Race`
  (Howling Wolf's: a chance picks the grabber, who sends the wolf to another seat's sheep);
* a :class:`Face` is the verbs it offers (a face showing no verb that is offered offers ``pass``);
* a :class:`Trigger` runs effects on an event (the start of a turn, after a shear, when the middle
  is empty at the end of a turn);
* :class:`Setup`, :class:`End` and the teams say how the game starts, ends and who wins.

Action ids: every verb has ids from its ``base``: one (untargeted) or :data:`MAX_SEATS`
(targeted: ``base + k`` picks seat ``k``). The printed verbs keep the engine's historical ids
(:data:`STANDARD_VERBS`: grow 0, double 1, shear 2, swap 3..6, wolf 7..10, raid 11, pass 12,
reroll 13), so records and the solver's tables read as before; a rule set's own verbs follow
from 14.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from sheepfold.games.shave_a_sheep.rules import EffectSpec, ShaveRules, VerbSpec

MAX_SEATS = 4

#: how a place names its seat, relative to the roller (``me``). ``leader`` and ``last``: the
#: other seat with the biggest / smallest safe pile, the first such counting from the roller's
#: left on a tie. ``others``: the effect is done once for each other seat, from the roller's
#: left (a place of ``others`` on both sides of a move is the same seat each time).
Whose = Literal["me", "target", "wolf", "left", "right", "leader", "last", "partner", "others"]
WHOSE: tuple[str, ...] = (
    "me",
    "target",
    "wolf",
    "left",
    "right",
    "leader",
    "last",
    "partner",
    "others",
)
Where = Literal["middle", "sheep", "pile"]


@dataclass(frozen=True)
class Place:
    where: Where
    whose: Whose = "me"
    #: the wolf piece (0, 1) whose seat ``whose="wolf"`` names
    piece: int = 0


MIDDLE = Place("middle")
MY_SHEEP = Place("sheep")
MY_PILE = Place("pile")
TARGET_SHEEP = Place("sheep", "target")


@dataclass(frozen=True)
class Amount:
    """``kind="number"``: ``n`` pieces; ``"all"``; ``"fraction"``: ``num/den`` of what the source
    holds, rounded ``up`` or down. Always at most what the source holds and the destination takes."""

    kind: Literal["number", "all", "fraction"] = "number"
    n: int = 1
    num: int = 1
    den: int = 1
    up: bool = False


ALL = Amount("all")


def pieces(n: int) -> Amount:
    return Amount("number", n)


@dataclass(frozen=True)
class Move:
    amount: Amount
    source: Place
    to: Place


@dataclass(frozen=True)
class Shear:
    """A sheep's wool to its owner's pile: ``cost`` pieces (at most what is shorn) first go back
    to the middle; a sheep that was full (carrying its cap) also earns ``bonus`` pieces from the
    middle (as many as there are, after the cost). Fires the ``after-shear`` triggers."""

    whose: Whose = "me"
    cost: int = 0
    bonus: int = 0


@dataclass(frozen=True)
class Swap:
    """Two seats' sheep change places (with their wool)."""

    a: Whose = "me"
    b: Whose = "target"


@dataclass(frozen=True)
class PlaceWolf:
    piece: int = 0
    at: Whose = "target"


@dataclass(frozen=True)
class HomeWolf:
    piece: int = 0


Effect = Move | Shear | Swap | PlaceWolf | HomeWolf


@dataclass(frozen=True)
class Condition:
    """``at-least``/``at-most``: ``place`` holds at least / at most ``n`` pieces (``room``: the
    place's sheep takes at least one more piece and the middle has one); ``wolf-away``: wolf
    piece ``piece`` stands next to a seat other than the roller; ``alone-last``/``alone-leader``:
    the roller's pile is smaller / bigger than every other pile. ``negate`` inverts it."""

    kind: Literal["at-least", "at-most", "room", "wolf-away", "alone-last", "alone-leader"]
    place: Place = MY_SHEEP
    n: int = 0
    piece: int = 0
    negate: bool = False


@dataclass(frozen=True)
class Race:
    """Howling Wolf's race (Shave a Sheep ruling 8): a chance picks the seat that grabs the wolf
    (``reaction_weights``), the grabber picks another seat, ``take`` of its sheep goes ``to`` a
    place (``to.whose`` ``me`` is the roller), then the roller may use one of the verbs named
    in ``then`` that is offered, or pass."""

    take: Amount = field(default_factory=lambda: pieces(1))
    to: Place = MIDDLE
    then: tuple[str, ...] = ("grow",)


@dataclass(frozen=True)
class Verb:
    name: str
    base: int
    targeted: bool = False
    when: tuple[Condition, ...] = ()
    effects: tuple[Effect, ...] = ()
    race: Race | None = None
    #: the rule file's own words for it, else they are generated (:mod:`.words`)
    words: str | None = None

    @property
    def ids(self) -> range:
        return range(self.base, self.base + (MAX_SEATS if self.targeted else 1))


@dataclass(frozen=True)
class Face:
    """A die face as written (``white/pink``) and the verbs it offers, in order."""

    text: str
    verbs: tuple[str, ...]


@dataclass(frozen=True)
class Trigger:
    """Effects run on an event: ``turn-start`` (the roller is ``me``, before the roll, every turn
    including the first), ``after-shear`` (``me`` is the seat whose sheep a shear in play
    shore; its effects may not shear, so it never fires itself), ``middle-empty`` (at the end of
    a turn whose middle is empty, before the end is decided; ``me`` is the roller)."""

    on: Literal["turn-start", "after-shear", "middle-empty"]
    effects: tuple[Effect, ...]
    when: tuple[Condition, ...] = ()
    words: str | None = None


@dataclass(frozen=True)
class Setup:
    #: the wool in play; each sheep's ``sheep`` pieces come out of it, the rest is the middle
    wool: int = 30
    sheep: int = 0
    cap: int = 5
    first: int = 0
    wolves: int = 0


@dataclass(frozen=True)
class End:
    """The game ends at the end of a turn after which the middle is empty (``middle_empty``; also
    right after the turn-start triggers emptied it), a pile holds ``target`` (None: no target),
    or every seat has had ``turns_each`` turns; then every sheep is shorn once more
    (``final_shear``: no bonus, no trigger)."""

    middle_empty: bool = True
    target: int | None = None
    turns_each: int | None = None
    final_shear: bool = True
    final_cost: int = 0


@dataclass(frozen=True)
class Program:
    setup: Setup
    verbs: tuple[Verb, ...]
    faces: tuple[Face, ...]
    #: how many times each face is printed (the die's weights), parallel to ``faces``
    counts: tuple[int, ...]
    triggers: tuple[Trigger, ...]
    end: End
    rerolls: int = 0
    #: seats playing together: their piles count together and they win together (empty: none)
    teams: tuple[tuple[int, ...], ...] = ()
    reaction_weights: tuple[float, ...] | None = None
    max_turns: int | None = None

    def verb(self, name: str) -> Verb:
        for v in self.verbs:
            if v.name == name:
                return v
        raise KeyError(name)

    @property
    def num_actions(self) -> int:
        """Action ids in use: 13 for the printed verbs (14 with rerolls), more for the rule
        set's own verbs."""
        top = max(max(v.ids) for v in self.verbs if v.name != "reroll") + 1
        return max(top, REROLL + 1) if self.rerolls else top


# -- the printed rules ----------------------------------------------------------------------
GROW, DOUBLE, SHEAR, SWAP0, WOLF0, RAID, PASS, REROLL = 0, 1, 2, 3, 7, 11, 12, 13
FIRST_OWN_ID = 14

#: the printed verbs and their ids; a rule set redefines one by name (``[verbs.wolf]``)
STANDARD_VERBS: tuple[tuple[str, int, bool], ...] = (
    ("grow", GROW, False),
    ("double", DOUBLE, False),
    ("shear", SHEAR, False),
    ("swap", SWAP0, True),
    ("wolf", WOLF0, True),
    ("raid", RAID, False),
    ("pass", PASS, False),
    ("reroll", REROLL, False),
)

#: the die's colours and the verbs each one names
COLOUR_VERBS: dict[str, str] = {
    "white": "grow",
    "x2": "double",
    "green": "swap",
    "gray": "wolf",
    "pink": "shear",
}


def room(place: Place) -> Condition:
    return Condition("room", place)


def grow_verb(name: str, base: int, n: int) -> Verb:
    return Verb(name, base, when=(room(MY_SHEEP),), effects=(Move(pieces(n), MIDDLE, MY_SHEEP),))


def printed_verbs(rules: ShaveRules) -> dict[str, Verb]:
    """The printed verbs under a rule set's options and variants (Shave a Sheep rulings 3-9 and
    the house rules ``wolf_takes``, ``wolf_to``, ``shear_cost``, ``full_bonus``)."""
    shear = Verb("shear", SHEAR, effects=(Shear("me", rules.cost, rules.full_bonus),))
    if (
        rules.mr_wolf
    ):  # Shave a Sheep ruling 9: option A sends the wolf for one piece, option B raids two
        wolf = Verb(
            "wolf",
            WOLF0,
            targeted=True,
            effects=(PlaceWolf(0, "target"), Move(pieces(1), TARGET_SHEEP, MY_PILE)),
        )
    elif rules.howling_wolf:  # Shave a Sheep ruling 8
        wolf = Verb("wolf", WOLF0, targeted=True, race=Race())
    else:  # Shave a Sheep ruling 4, house rules wolf_takes and wolf_to
        takes = rules.wolf_takes
        amount = (
            ALL
            if takes == "all"
            else Amount("fraction", num=1, den=2, up=True)
            if takes == "half"
            else pieces(int(takes))
        )
        to = MY_PILE if rules.wolf_to == "roller" else MIDDLE
        wolf = Verb("wolf", WOLF0, targeted=True, effects=(Move(amount, TARGET_SHEEP, to),))
    raid = Verb(
        "raid",
        RAID,
        when=(Condition("wolf-away", piece=0),),
        effects=(Move(pieces(2), Place("sheep", "wolf", 0), MY_PILE), HomeWolf(0)),
    )
    verbs = [
        grow_verb("grow", GROW, 1),
        grow_verb("double", DOUBLE, 2),
        shear,
        Verb("swap", SWAP0, targeted=True, effects=(Swap("me", "target"),)),
        wolf,
        raid,
        Verb("pass", PASS),
        Verb("reroll", REROLL),
    ]
    return {v.name: v for v in verbs}


def colour_verbs(rules: ShaveRules, colour: str) -> tuple[str, ...]:
    """The verbs a colour of a face offers: gray is the wolf, and under My friend Mr. Wolf also
    its raid (Shave a Sheep ruling 9)."""
    verb = COLOUR_VERBS.get(colour, colour)
    if verb == "wolf" and rules.mr_wolf:
        return ("wolf", "raid")
    return (verb,)


def effect_of(spec: EffectSpec, rules: ShaveRules) -> Effect:
    """A rule file's effect (validated by the rules model) as a program's effect; a shear
    without its own cost and bonus has the rule set's (``shear_cost``, ``full_bonus``)."""
    from sheepfold.games.shave_a_sheep import rules as r

    if spec.move is not None:
        assert spec.from_ is not None and spec.to is not None
        return Move(r.parse_amount(spec.move), r.parse_place(spec.from_), r.parse_place(spec.to))
    if spec.shear is not None:
        cost = rules.cost if spec.cost is None else spec.cost
        bonus = rules.full_bonus if spec.bonus is None else spec.bonus
        return Shear(r.parse_whose(spec.shear)[0], cost, bonus)
    if spec.swap is not None:
        a, b = r.swap_sides(spec.swap)
        return Swap(a, b)
    assert spec.wolf is not None
    if spec.wolf.strip().lower() == "home":
        return HomeWolf(spec.piece - 1)
    return PlaceWolf(spec.piece - 1, r.parse_whose(spec.wolf)[0])


def verb_of(name: str, spec: VerbSpec, base: int, rules: ShaveRules) -> Verb:
    from sheepfold.games.shave_a_sheep import rules as r

    race = None
    if spec.race is not None:
        race = Race(r.parse_amount(spec.race.take), r.parse_place(spec.race.to), spec.race.then)
    return Verb(
        name,
        base,
        targeted=spec.choose is not None,
        when=tuple(r.parse_condition(c) for c in spec.when),
        effects=tuple(effect_of(e, rules) for e in spec.effects),
        race=race,
        words=spec.words,
    )


_EVENTS: dict[str, Literal["turn-start", "after-shear", "middle-empty"]] = {
    "turn start": "turn-start",
    "after shear": "after-shear",
    "middle empty": "middle-empty",
}


def compile_rules(rules: ShaveRules) -> Program:
    """The program of a rule set: the printed rules with its options and variants, then the
    rule file's own parts (its verbs, a printed verb redefined in place, its triggers after
    the auto-shear, its setup and end)."""
    from sheepfold.games.shave_a_sheep import rules as r

    verbs = printed_verbs(rules)
    next_id = FIRST_OWN_ID
    for name, spec in (rules.verbs or {}).items():
        if name in verbs:
            verbs[name] = verb_of(name, spec, verbs[name].base, rules)
        else:
            verbs[name] = verb_of(name, spec, next_id, rules)
            next_id += MAX_SEATS if spec.choose is not None else 1
    counts: dict[str, int] = {}
    for f in rules.faces:
        counts[f] = counts.get(f, 0) + 1
    faces = tuple(
        Face(
            text,
            tuple(
                dict.fromkeys(
                    v
                    for c in text.split("/")
                    for v in (colour_verbs(rules, c) if c in COLOUR_VERBS else (c,))
                )
            ),
        )
        for text in counts
    )
    auto_shear = Trigger(
        "turn-start",
        (Shear("me", rules.cost, rules.full_bonus),),
        when=(Condition("at-least", MY_SHEEP, rules.shear_at),),
    )
    own = tuple(
        Trigger(
            _EVENTS[t.on],
            tuple(effect_of(e, rules) for e in t.effects),
            when=tuple(r.parse_condition(c) for c in t.when),
            words=t.words,
        )
        for t in rules.triggers or ()
    )
    setup = rules.setup
    end = rules.end
    return Program(
        setup=Setup(
            wool=rules.wool,
            sheep=setup.sheep if setup else 0,
            cap=rules.max_wool,
            first=setup.first if setup else 0,
            wolves=rules.wolves,
        ),
        verbs=tuple(verbs.values()),
        faces=faces,
        counts=tuple(counts.values()),
        triggers=(auto_shear, *own),
        end=End(
            middle_empty=end.middle_empty if end else True,
            target=rules.target,
            turns_each=end.turns_each if end else None,
            final_shear=rules.final_shear,
            final_cost=rules.cost,
        ),
        rerolls=rules.rerolls,
        teams=rules.teams,
        reaction_weights=rules.reaction_weights,
        max_turns=rules.max_turns,
    )
