"""Shave a Sheep: the rules engine. It interprets the rule set's program
(:mod:`sheepfold.games.shave_a_sheep.program`, docs/spec/rule-language.md): the setup, the
verbs' conditions and effects, Howling Wolf's race, the triggers, the end and the teams. No rule
option is read here: the printed rules (Shave a Sheep rulings 1-10), the variants and every
house rule are parts of the program (``compile_rules``).

State discipline: mutable, with a cheap :meth:`ShaveState.clone` (a handful of ints and four
short lists). A turn is a chance event (the roll) followed by the roller's decision; a face
with a race (Howling Wolf) inserts a second chance event (who grabs the wolf), the grabber's
choice of target and the roller's choice to use one of the race's ``then`` verbs or not.
Triggers and the final shear are not decisions: they happen.

Action ids (decisions), the printed verbs::

    0 grow   1 double   2 shear   3+k swap seat k   7+k wolf seat k   11 raid   12 pass
    13 reroll

and a rule set's own verbs from 14 (a targeted one takes four ids, ``base + k`` picks seat k).
``wolf seat k`` is the standard wolf, Howling Wolf's target and My friend Mr. Wolf's option A
(send); ``raid`` is Mr. Wolf's option B. ``pass`` declines the race's grow, or is the only
choice of a face that offers nothing. ``reroll`` (``rerolls``) rolls again instead of acting on
the face: a game without rerolls or own verbs has 13 action ids, one with rerolls 14. Chance
outcome ids: at a roll, the index of a distinct face of the die; at a grab, the grabbing seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from sheepfold.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    IllegalAction,
    Outcome,
    RulesError,
    Seat,
    State,
    View,
    seeded_random,
)
from sheepfold.core.words import Msg
from sheepfold.games.shave_a_sheep.program import (
    COLOUR_VERBS,
    Amount,
    Condition,
    Effect,
    HomeWolf,
    Move,
    Place,
    PlaceWolf,
    Program,
    Race,
    Shear,
    Swap,
    Verb,
    compile_rules,
)
from sheepfold.games.shave_a_sheep.rules import ShaveRules, normalize_face

GROW, DOUBLE, SHEAR = 0, 1, 2
SWAP0, WOLF0 = 3, 7
RAID, PASS = 11, 12
REROLL = 13
#: the printed action ids (0..13); a game without rerolls uses 13 of them (its GameInfo says so)
NUM_ACTIONS = 14
MAX_PLAYERS = 4
#: wolf pieces a state keeps (``Setup.wolves`` is at most this)
MAX_WOLVES = 2

# phases
ROLL, CHOOSE, GRAB, HOWL_TARGET, HOWL_GROW, OVER = range(6)
PHASE_NAMES = ("roll", "choose", "grab", "howl-target", "howl-grow", "over")


def action_name(action: Action) -> str:
    """A printed verb's action id by its name (a rule set's own verbs: :meth:`ShaveGame.action_name`)."""
    if action == GROW:
        return "grow"
    if action == DOUBLE:
        return "double"
    if action == SHEAR:
        return "shear"
    if SWAP0 <= action < SWAP0 + MAX_PLAYERS:
        return f"swap seat {action - SWAP0}"
    if WOLF0 <= action < WOLF0 + MAX_PLAYERS:
        return f"wolf seat {action - WOLF0}"
    if action == RAID:
        return "raid"
    if action == PASS:
        return "pass"
    if action == REROLL:
        return "reroll"
    raise IllegalAction(f"{action} is not a Shave a Sheep action id (0..{NUM_ACTIONS - 1})")


def grab_chances(weights: tuple[float, ...]) -> tuple[float, ...]:
    """Each seat's chance to grab the wolf first: the weights divided by their sum; when that
    sum overflows, the weights are scaled by the largest one first (``[1e308, 1e308]`` is
    ``[0.5, 0.5]``; other weights keep their exact quotients). The rules model refuses weights
    without a positive chance; weights that reach here anyway (a model built without
    validation) are refused too, not drawn from: a race nobody can win would stop the game."""
    w = [x if math.isfinite(x) and x > 0 else 0.0 for x in weights]
    total = sum(w)
    if not math.isfinite(total):  # finite weights whose sum overflows
        top = max(w)
        w = [x / top for x in w]
        total = sum(w)
    chances = tuple(x / total if total > 0 else 0.0 for x in w)
    bad = any(not math.isfinite(x) or x < 0 for x in weights)
    if bad or not any(c > 0 for c in chances):
        raise RulesError(f"reaction_weights {list(weights)}: no seat has a chance to grab the wolf")
    return chances


def face_verb_names(text: str) -> tuple[str, ...]:
    """What a face shows, as verb names, each once: a colour is its printed verb (``gray`` is
    ``wolf``), any other part names a verb. The kernel's and the records' view of a face (the
    program's :class:`~.program.Face` may add verbs a colour brings, such as Mr. Wolf's raid)."""
    return tuple(dict.fromkeys(COLOUR_VERBS.get(c, c) for c in text.split("/")))


#: a compiled condition: holds for (state, me, target)
Check = Callable[["ShaveState", Seat, "Seat | None"], bool]


def compile_check(conditions: tuple[Condition, ...], cap: int) -> Check | None:
    """The conditions as one function (None: there are none). The usual ones (room on your
    sheep, a number on your sheep or the target's pile, a wolf piece away) are read directly;
    the others through :meth:`ShaveState._holds`. The same meaning, faster on the hot path."""
    if not conditions:
        return None
    fs = [_one_check(c, cap) for c in conditions]
    if len(fs) == 1:
        return fs[0]
    return lambda st, me, t: all(f(st, me, t) for f in fs)


def _one_check(c: Condition, cap: int) -> Check:
    p, n, piece = c.place, c.n, c.piece

    def room(st: ShaveState, me: Seat, t: Seat | None) -> bool:
        return st.sheep[me] < cap and st.middle > 0

    def my_sheep(st: ShaveState, me: Seat, t: Seat | None) -> bool:
        return st.sheep[me] >= n

    def target_pile(st: ShaveState, me: Seat, t: Seat | None) -> bool:
        return t is not None and st.piles[t] >= n

    def wolf_away(st: ShaveState, me: Seat, t: Seat | None) -> bool:
        w = st.wolves[piece]
        return w is not None and w != me

    def generic(st: ShaveState, me: Seat, t: Seat | None) -> bool:
        return st._holds(c, me, t)

    if c.negate:
        return generic
    if c.kind == "room" and p.where == "sheep" and p.whose == "me":
        return room
    if c.kind == "at-least" and p.where == "sheep" and p.whose == "me":
        return my_sheep
    if c.kind == "at-least" and p.where == "pile" and p.whose == "target":
        return target_pile
    if c.kind == "wolf-away":
        return wolf_away
    return generic


class ShaveGame(Game):
    info = GameInfo(
        name="shave-a-sheep",
        title="Shave a Sheep",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_distinct_actions=REROLL,  # more with rerolls or own verbs (see __init__)
        max_chance_outcomes=16,
        # a game's own: its spec's bound under its turn limit; without one a game may never
        # end (the wolf puts wool back): 0, no bound
        max_game_length=0,
        perfect_information=True,
        description="Roll the die to grow wool, double it, swap sheep, send the wolf or shear.",
    )

    rules: ShaveRules

    def __init__(self, num_players: int = 2, rules: ShaveRules | None = None) -> None:
        super().__init__(num_players, rules or ShaveRules())
        self.program: Program = compile_rules(self.rules)
        prog = self.program
        # rules that do not fit this many players (words a reader's language translates: a
        # lab card refused for them says why in its reader's language)
        players = dict(players=num_players, last=num_players - 1)
        if prog.reaction_weights is not None and len(prog.reaction_weights) != num_players:
            raise RulesError(
                Msg(
                    "reaction_weights has {n} entries for {players} players",
                    n=len(prog.reaction_weights),
                    players=num_players,
                )
            )
        for team in prog.teams:
            for seat in team:
                if seat >= num_players:
                    raise RulesError(
                        Msg(
                            "the teams name seat {seat}, but a {players}-player game has "
                            "seats 0 to {last}",
                            seat=seat,
                            **players,
                        )
                    )
        if prog.setup.first >= num_players:
            raise RulesError(
                Msg(
                    "seat {first} starts, but a {players}-player game has seats 0 to {last}",
                    first=prog.setup.first,
                    **players,
                )
            )
        if prog.setup.sheep * num_players > prog.setup.wool:
            raise RulesError(
                Msg(
                    "{players} sheep starting with {sheep} pieces each need {need} pieces, but "
                    "only {wool} are in play",
                    players=num_players,
                    sheep=prog.setup.sheep,
                    need=prog.setup.sheep * num_players,
                    wool=prog.setup.wool,
                )
            )
        # The die: distinct faces with their probability (a face may be printed twice).
        total = sum(prog.counts)
        self.faces: tuple[str, ...] = tuple(f.text for f in prog.faces)
        self.face_probs: tuple[float, ...] = tuple(c / total for c in prog.counts)
        #: each face's verb names as shown (colours as their printed verbs)
        self.face_actions: tuple[tuple[str, ...], ...] = tuple(
            face_verb_names(f) for f in self.faces
        )
        self.verbs: dict[str, Verb] = {v.name: v for v in prog.verbs}
        #: each face's verbs, as the program offers them (in order)
        self.face_verbs: tuple[tuple[Verb, ...], ...] = tuple(
            tuple(self.verbs[name] for name in f.verbs) for f in prog.faces
        )
        # A face showing a verb with a race starts it at once (Shave a Sheep ruling 8).
        self.face_race_verbs: tuple[Verb | None, ...] = tuple(
            next((v for v in verbs if v.race is not None), None) for verbs in self.face_verbs
        )
        self.face_races: tuple[bool, ...] = tuple(v is not None for v in self.face_race_verbs)
        self.grab_probs: tuple[float, ...] = grab_chances(
            prog.reaction_weights or (1.0,) * num_players
        )
        #: each decision id's verb and target seat (None: untargeted)
        self.by_id: dict[Action, tuple[Verb, Seat | None]] = {}
        for v in prog.verbs:
            for a in v.ids:
                self.by_id[a] = (v, a - v.base if v.targeted else None)
        #: each decision id's name (``steal seat 1``), and the id of each name: made once, as
        #: a view names every legal decision and an intent is sent by its name
        self.names: dict[Action, str] = {
            a: v.name if k is None else f"{v.name} seat {k}" for a, (v, k) in self.by_id.items()
        }
        self.named: dict[str, Action] = {name: a for a, name in self.names.items()}
        self.team_of: tuple[tuple[Seat, ...], ...] = tuple(
            next((t for t in prog.teams if s in t), (s,)) for s in range(num_players)
        )
        cap = prog.setup.cap
        #: each verb's conditions compiled (None: it has none)
        self.checks: dict[str, Check | None] = {
            v.name: compile_check(v.when, cap) for v in prog.verbs
        }
        #: each event's triggers with their compiled conditions
        self.triggers_on: dict[str, tuple[tuple[Any, Check | None], ...]] = {
            on: tuple((t, compile_check(t.when, cap)) for t in prog.triggers if t.on == on)
            for on in ("turn-start", "after-shear", "middle-empty")
        }
        #: the printed shear's cost and bonus (the shear most effects use)
        shear = next((e for e in self.verbs["shear"].effects if isinstance(e, Shear)), Shear())
        self.shear_cost, self.shear_bonus = shear.cost, shear.bonus
        self.info = self.derive_info(prog.num_actions)

    def action_name(self, action: Action) -> str:
        """An action id by its verb's name (``steal seat 1``)."""
        name = self.names.get(action)
        if name is None:
            top = self.program.num_actions - 1
            raise IllegalAction(f"{action} is not a Shave a Sheep action id (0..{top})")
        return name

    def face_index(self, face: str) -> int:
        """The index of a face of the die in use; colours may be written in any order."""
        try:
            text = normalize_face(face, tuple(self.verbs))
        except RulesError as e:
            raise IllegalAction(
                f"'{face}' is not a face of the die in use (faces: {', '.join(self.faces)}): {e}"
            ) from None
        if text in self.faces:
            return self.faces.index(text)
        wanted = sorted(text.split("/"))
        for i, f in enumerate(self.faces):
            if sorted(f.split("/")) == wanted:
                return i
        raise IllegalAction(
            f"'{face}' is not a face of the die in use (faces: {', '.join(self.faces)})"
        )

    def new_initial_state(self, seed: int | None = None, **setup: Any) -> ShaveState:
        if setup:
            raise TypeError(f"unexpected set-up options for Shave a Sheep: {', '.join(setup)}")
        return ShaveState(self, seed if seed is not None else 0)

    def determinize(self, view: View, seed: int | None = None) -> ShaveState:
        """Shave a Sheep hides nothing but the seed: the view gives the whole position."""
        s = ShaveState(self, seed if seed is not None else 0)
        s.middle = view["middle"]
        s.sheep = list(view["sheep"])
        s.piles = list(view["piles"])
        wolves = view.get("wolves")
        s.wolves = list(wolves) if wolves is not None else [view["wolf"], None]
        s.turn = view["turn"]
        s.turns = view["turns"]
        s.phase = PHASE_NAMES.index(view["phase"])
        s.face = self.faces.index(view["roll"]) if view["roll"] is not None else -1
        s.grabber = -1 if view["grabber"] is None else view["grabber"]
        s.truncated = view.get("truncated", False)
        s.ended_by = view.get("ended_by")
        s.final_paid = view.get("final_paid", 0)
        s.rerolls_used = view.get("rerolls_used", 0)
        return s


class ShaveState(State):
    __slots__ = (
        "game",
        "middle",
        "sheep",
        "piles",
        "wolves",
        "turn",
        "turns",
        "phase",
        "face",
        "grabber",
        "truncated",
        "ended_by",
        "final_paid",
        "rerolls_used",
        "seed",
        "_history",
        "_chance_count",
        "fired",
    )

    game: ShaveGame

    def __init__(self, game: ShaveGame, seed: int) -> None:
        n = game.num_players
        setup = game.program.setup
        self.game = game
        self.middle = setup.wool - setup.sheep * n
        self.sheep = [setup.sheep] * n
        self.piles = [0] * n
        #: the seat each wolf piece stands next to (None: in the middle); piece 0 is ``wolf``
        self.wolves: list[Seat | None] = [None] * MAX_WOLVES
        self.turn: Seat = setup.first
        self.turns = 0  # completed turns
        self.phase = ROLL
        self.face = -1  # index of the rolled face during a turn
        self.grabber: Seat = -1
        self.truncated = False
        #: "middle", "target" or "turns" once the game has ended so
        self.ended_by: str | None = None
        self.final_paid = 0  # pieces the final shear paid back to the middle (a shear cost)
        self.rerolls_used = 0  # this turn's rerolls
        self.seed = seed
        self._history: list[tuple[Seat, Action]] = []
        self._chance_count = 0
        #: a list to which each trigger that fires is added, as (trigger, its ``me``, the
        #: position before it, the position after it: :meth:`position`), or None: not told
        #: (what the screens say about a move: ``words.fired``; off in play, the hot path)
        self.fired: list[tuple[Any, Seat, tuple[Any, ...], tuple[Any, ...]]] | None = None
        self._start_turn()

    @property
    def wolf(self) -> Seat | None:
        """The seat wolf piece 0 stands next to (My friend Mr. Wolf's wolf), None: the middle."""
        return self.wolves[0]

    @wolf.setter
    def wolf(self, seat: Seat | None) -> None:
        self.wolves[0] = seat

    # -- protocol ---------------------------------------------------------------------------
    def current_player(self) -> Seat:
        p = self.phase
        if p == CHOOSE or p == HOWL_GROW:
            return self.turn
        if p == ROLL or p == GRAB:
            return CHANCE
        if p == HOWL_TARGET:
            return self.grabber
        return TERMINAL

    def legal_actions(self) -> list[Action]:
        p = self.phase
        if p == ROLL:
            return list(range(len(self.game.faces)))
        if p == GRAB:
            return [s for s, w in enumerate(self.game.grab_probs) if w > 0]
        if p == CHOOSE:
            return self._choices()
        if p == HOWL_TARGET:
            race = self.game.face_race_verbs[self.face]
            assert race is not None
            return [race.base + k for k in range(self.game.num_players) if k != self.grabber]
        if p == HOWL_GROW:
            return self._race_then()
        return []

    def _offered(self, verb: Verb, target: Seat | None) -> bool:
        check = self.game.checks[verb.name]
        return check is None or check(self, self.turn, target)

    def _verb_ids(self, verb: Verb) -> list[Action]:
        """The ids of ``verb`` the roller may choose now (a targeted verb: each other seat
        for which its conditions hold)."""
        me = self.turn
        check = self.game.checks[verb.name]
        if verb.targeted:
            n, base = self.game.num_players, verb.base
            if check is None:
                return [base + k for k in range(n) if k != me]
            return [base + k for k in range(n) if k != me and check(self, me, k)]
        return [verb.base] if check is None or check(self, me, None) else []

    def _choices(self) -> list[Action]:
        verbs = self.game.face_verbs[self.face]
        if len(verbs) == 1:  # its ids ascend already
            acts = self._verb_ids(verbs[0])
        else:
            acts = sorted({a for verb in verbs for a in self._verb_ids(verb)})
        out = acts if acts else [PASS]
        if self.rerolls_used < self.game.program.rerolls:  # roll again
            out.append(REROLL)
        return out

    def _race_then(self) -> list[Action]:
        race = self._race()
        acts: set[Action] = set()
        for name in race.then:
            verb = self.game.verbs[name]
            if not verb.targeted:
                acts.update(self._verb_ids(verb))
        return sorted(acts | {PASS})

    def _race(self) -> Race:
        verb = self.game.face_race_verbs[self.face]
        assert verb is not None and verb.race is not None
        return verb.race

    def illegal_reason(self, action: Action) -> str | None:
        p = self.phase
        if p == OVER:
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is an integer id, not {action!r}"
        if action in self.legal_actions():
            return None
        if p == ROLL:
            return f"{action} is not a face of the die (0..{len(self.game.faces) - 1})"
        if p == GRAB:
            return f"seat {action} cannot grab the wolf"
        g = self.game
        try:
            g.action_name(action)
        except IllegalAction as e:
            return str(e)
        verb, target = g.by_id[action]
        me = self.current_player()
        n = g.num_players
        if p == HOWL_TARGET:
            race = g.face_race_verbs[self.face]
            assert race is not None
            if verb is race and target == me:
                return "the wolf's grabber must pick a sheep other than their own (ruling 8)"
            if verb is race:
                return f"there is no seat {target} in a {n}-player game"
            return (
                f"seat {me} grabbed the wolf and must pick whose sheep it visits "
                f"('{race.name} seat K')"
            )
        if p == HOWL_GROW:
            then = self._race().then
            if verb.name in then:
                return self._unmet(verb, None) or f"'{verb.name}' is not offered now"
            return (
                f"after the wolf, the roller may only {' or '.join(repr(t) for t in then)} "
                "or 'pass' (ruling 8)"
            )
        face = g.faces[self.face]
        offered = [v.name for v in g.face_verbs[self.face]]
        shown = g.face_actions[self.face]
        if verb.name == "pass":
            return f"the face {face} offers an action, so passing is not allowed"
        if verb.name == "reroll":
            if not g.program.rerolls:
                return "'reroll' exists only with the house rule rerolls"
            return f"this turn's {g.program.rerolls} reroll(s) are used up"
        if verb.name not in offered:
            on_a_face = any(verb.name in f.verbs for f in g.program.faces)
            if verb.name == "raid":
                if not on_a_face:
                    return "'raid' exists only in My friend Mr. Wolf"
                return f"the face {face} does not show gray, so the wolf cannot be used"
            if not on_a_face:
                return f"no face of this die offers {verb.name}"
            return f"the face {face} offers {' or '.join(shown)}, not {verb.name} (ruling 3)"
        if verb.name == "raid" and not self._offered(verb, None):
            where = "it is in the middle" if self.wolf is None else "it stands next to you"
            return f"option B needs the wolf next to another player, but {where} (ruling 9)"
        if verb.targeted:
            assert target is not None
            if target == me:
                return f"{verb.name} needs another player's sheep, not your own (ruling 4)"
            if target >= n:
                return f"there is no seat {target} in a {n}-player game"
        return self._unmet(verb, target) or f"'{verb.name}' is not offered now"

    def _unmet(self, verb: Verb, target: Seat | None) -> str | None:
        """Why ``verb``'s conditions do not hold now, in words (None: they hold)."""
        from sheepfold.games.shave_a_sheep.words import condition_unmet

        me = self.turn
        for c in verb.when:
            if not self._holds(c, me, target):
                return condition_unmet(c, self, me, target)
        return None

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == ROLL:
            return list(enumerate(self.game.face_probs))
        if self.phase == GRAB:
            return [(s, w) for s, w in enumerate(self.game.grab_probs) if w > 0]
        return []

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("this is not a chance event")
        r = rng if rng is not None else seeded_random(self.seed, self._chance_count)
        x = r.random()
        acc = 0.0
        for a, p in outcomes:
            acc += p
            if x < acc:
                return a
        return outcomes[-1][0]

    def action_to_string(self, action: Action) -> str:
        if self.phase == ROLL:
            return f"roll {self.game.faces[action]}"
        if self.phase == GRAB:
            return f"grab seat {action}"
        return self.game.action_name(action)

    def string_to_action(self, text: str) -> Action:
        """A decision's name looked up in the game's names (``ShaveGame.named``), then among
        the legal actions: the protocol's answer (naming every legal action to compare), as a
        decision's name depends on its id alone and verb names are lower case. A roll's or a
        grab's name (the face, the seat) is read the protocol's way."""
        if self.phase == ROLL or self.phase == GRAB:
            return super().string_to_action(text)
        a = self.game.named.get(" ".join(text.lower().split()))
        if a is None or a not in self.legal_actions():
            raise IllegalAction(Msg("'{text}' is not a legal action now", text=text))
        return a

    def apply_named(self, text: str) -> Action:
        """Unchecked: ``string_to_action`` reads a name among the legal actions only."""
        action = self.string_to_action(text)
        self._apply(action)
        return action

    # -- the program's parts ------------------------------------------------------------------
    def _seats(self, whose: str, me: Seat, target: Seat | None, piece: int = 0) -> list[Seat]:
        """The seats a place's ``whose`` names, relative to ``me`` (program.Whose)."""
        n = self.game.num_players
        if whose == "me":
            return [me]
        if whose == "target":
            return [] if target is None else [target]
        if whose == "wolf":
            w = self.wolves[piece]
            return [] if w is None else [w]
        if whose == "left":
            return [(me + 1) % n]
        if whose == "right":
            return [(me - 1) % n]
        others = [(me + i) % n for i in range(1, n)]
        if whose == "others":
            return others
        if whose == "partner":
            return [s for s in self.game.team_of[me] if s != me][:1]
        piles = self.piles
        if whose == "leader":
            best = max(piles[s] for s in others)
            return [next(s for s in others if piles[s] == best)]
        assert whose == "last"
        low = min(piles[s] for s in others)
        return [next(s for s in others if piles[s] == low)]

    def _holds_at(self, where: str, seat: Seat) -> int:
        if where == "middle":
            return self.middle
        return self.sheep[seat] if where == "sheep" else self.piles[seat]

    def _takes(self, where: str, seat: Seat) -> int:
        """How many pieces a place takes (a sheep: up to its cap)."""
        if where == "sheep":
            return self.game.program.setup.cap - self.sheep[seat]
        return 1 << 30

    def _holds(self, c: Condition, me: Seat, target: Seat | None) -> bool:
        ok: bool
        kind = c.kind
        if kind == "wolf-away":
            w = self.wolves[c.piece]
            ok = w is not None and w != me
        elif kind == "alone-last" or kind == "alone-leader":
            mine = self.piles[me]
            rest = [self.piles[s] for s in range(self.game.num_players) if s != me]
            ok = (
                all(mine < v for v in rest) if kind == "alone-last" else all(mine > v for v in rest)
            )
        else:
            place = c.place
            seats = (
                [-1]
                if place.where == "middle"
                else self._seats(place.whose, me, target, place.piece)
            )
            if not seats:
                ok = False
            elif kind == "room":
                ok = all(min(self._takes(place.where, s), self.middle) > 0 for s in seats)
            elif kind == "at-least":
                ok = all(self._holds_at(place.where, s) >= c.n for s in seats)
            else:
                ok = all(self._holds_at(place.where, s) <= c.n for s in seats)
        return ok != c.negate

    def _amount(self, amount: Amount, held: int) -> int:
        if amount.kind == "all":
            return held
        if amount.kind == "number":
            return min(amount.n, held)
        if amount.up:
            return min(held, -((-held * amount.num) // amount.den))
        return min(held, held * amount.num // amount.den)

    def _move(self, e: Move, me: Seat, target: Seat | None) -> None:
        src, dst = e.source, e.to
        if src.whose == "others" or dst.whose == "others":  # once per other seat
            for s in self._seats("others", me, target):
                self._move_one(
                    e,
                    src,
                    dst,
                    s if src.whose == "others" else None,
                    s if dst.whose == "others" else None,
                    me,
                    target,
                )
            return
        self._move_one(e, src, dst, None, None, me, target)

    def _move_one(
        self,
        e: Move,
        src: Place,
        dst: Place,
        src_seat: Seat | None,
        dst_seat: Seat | None,
        me: Seat,
        target: Seat | None,
    ) -> None:
        if src_seat is None and src.where != "middle":
            src_seat = self._seat(src, me, target)
            if src_seat is None:
                return
        if dst_seat is None and dst.where != "middle":
            dst_seat = self._seat(dst, me, target)
            if dst_seat is None:
                return
        a = -1 if src_seat is None else src_seat
        b = -1 if dst_seat is None else dst_seat
        if src.where == dst.where and a == b:
            return
        put = min(self._amount(e.amount, self._holds_at(src.where, a)), self._takes(dst.where, b))
        if put <= 0:
            return
        self._add(src.where, a, -put)
        self._add(dst.where, b, put)

    def _seat(self, place: Place, me: Seat, target: Seat | None) -> Seat | None:
        """The one seat a place names (None: none, e.g. a wolf piece in the middle)."""
        whose = place.whose
        if whose == "me":
            return me
        if whose == "target":
            return target
        seats = self._seats(whose, me, target, place.piece)
        return seats[0] if seats else None

    def _add(self, where: str, seat: Seat, k: int) -> None:
        if where == "middle":
            self.middle += k
        elif where == "sheep":
            self.sheep[seat] += k
        else:
            self.piles[seat] += k

    def _run(self, effects: tuple[Effect, ...], me: Seat, target: Seat | None) -> None:
        for e in effects:
            if isinstance(e, Move):
                self._move(e, me, target)
            elif isinstance(e, Shear):
                usual = e.cost == self.game.shear_cost and e.bonus == self.game.shear_bonus
                for s in self._seats(e.whose, me, target):
                    if usual:
                        self._shear(s)
                    else:
                        self._shear(s, e.cost, e.bonus)
            elif isinstance(e, Swap):
                for a in self._seats(e.a, me, target):
                    for b in self._seats(e.b, me, target):
                        self.sheep[a], self.sheep[b] = self.sheep[b], self.sheep[a]
            elif isinstance(e, PlaceWolf):
                seats = self._seats(e.at, me, target)
                if seats:
                    self.wolves[e.piece] = seats[0]
            else:
                assert isinstance(e, HomeWolf)
                self.wolves[e.piece] = None

    def _shear(self, seat: Seat, cost: int | None = None, bonus: int | None = None) -> None:
        """A shear in play: the sheep's wool to its owner's safe pile, less ``cost`` (at most
        what was shorn) back to the middle (Shave a Sheep ruling 7); a full sheep (carrying its
        cap) also earns ``bonus`` pieces from the middle, as many as there are, after the cost.
        Then the after-shear triggers, with ``me`` the shorn seat. Without ``cost`` and
        ``bonus``: the printed shear's (``ShaveGame.shear_cost``, ``shear_bonus``)."""
        if cost is None or bonus is None:
            cost, bonus = self.game.shear_cost, self.game.shear_bonus
        wool = self.sheep[seat]
        pay = min(wool, cost)
        self.middle += pay
        self.piles[seat] += wool - pay
        self.sheep[seat] = 0
        if wool >= self.game.program.setup.cap and bonus:
            got = min(bonus, self.middle)
            self.middle -= got
            self.piles[seat] += got
        self._fire("after-shear", seat)

    def _fire(self, on: str, me: Seat) -> None:
        for t, check in self.game.triggers_on[on]:
            if check is None or check(self, me, None):
                if self.fired is None:
                    self._run(t.effects, me, None)
                else:
                    before = self.position()
                    self._run(t.effects, me, None)
                    self.fired.append((t, me, before, self.position()))

    def position(self) -> tuple[Any, ...]:
        """The wool and the wolves: (middle, sheep, piles, wolves), as tuples."""
        return (self.middle, tuple(self.sheep), tuple(self.piles), tuple(self.wolves))

    # -- the turn ------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        p = self.phase
        self._history.append((self.current_player(), action))
        if p == ROLL:
            self._chance_count += 1
            self.face = action
            self.phase = GRAB if self.game.face_races[action] else CHOOSE
            return
        if p == GRAB:
            self._chance_count += 1
            self.grabber = action
            self.phase = HOWL_TARGET
            return
        if p == HOWL_TARGET:  # the race: the grabber's seat loses ``take`` of its sheep
            race = self._race()
            k = action - self.game.by_id[action][0].base
            self._move(Move(race.take, Place("sheep", "target"), race.to), self.turn, k)
            self.phase = HOWL_GROW
            return
        if action == REROLL:  # the die again, the turn goes on
            self.rerolls_used += 1
            self.face = -1
            self.phase = ROLL
            return
        verb, target = self.game.by_id[action]
        self._run(verb.effects, self.turn, target)
        self._end_turn()

    def _ended(self) -> str | None:
        """Why the game ends at the end of this turn (None: it goes on)."""
        end = self.game.program.end
        if end.middle_empty and self.middle == 0:
            return "middle"
        if end.target is not None and max(self.scores()) >= end.target:
            return "target"
        if end.turns_each is not None and self.turns + 1 >= end.turns_each * self.game.num_players:
            return "turns"
        return None

    def _end_turn(self) -> None:
        self.face = -1
        self.grabber = -1
        self.rerolls_used = 0
        if self.middle == 0:
            self._fire("middle-empty", self.turn)
        why = self._ended()
        if why is not None:
            self._final_shear(why)
            return
        self.turns += 1
        mt = self.game.program.max_turns
        if mt is not None and self.turns >= mt:  # no next turn, so no triggers (docs/engine.md)
            self.truncated = True
            self.phase = OVER
            return
        self.turn = (self.turn + 1) % self.game.num_players
        self.phase = ROLL
        self._start_turn()

    def _start_turn(self) -> None:
        """The turn-start triggers (Shave a Sheep ruling 5's auto-shear among them); if they
        leave the middle empty, the game ends at once."""
        self._fire("turn-start", self.turn)
        if self.middle == 0 and self.game.program.end.middle_empty:
            self._final_shear("middle")

    def _final_shear(self, why: str) -> None:
        """The end: every sheep shorn one last time in seat order (Shave a Sheep ruling 6,
        unless the end has no final shear; no bonus, no trigger, its payments do not restart
        the game). Notes why the game ended and what the final shear paid back."""
        self.ended_by = why
        before = self.middle
        end = self.game.program.end
        if end.final_shear:
            for s in range(self.game.num_players):
                wool = self.sheep[s]
                pay = min(wool, end.final_cost)
                self.middle += pay
                self.piles[s] += wool - pay
                self.sheep[s] = 0
        self.final_paid = self.middle - before
        self.phase = OVER

    # -- results & views --------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Each seat's safe pile; with teams, its team's piles together."""
        if not self.game.program.teams:
            return [float(p) for p in self.piles]
        return [float(sum(self.piles[s] for s in team)) for team in self.game.team_of]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(self.scores())
        if self.truncated:
            return Outcome(scores, (), truncated=True)
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def observe(self, seat: Seat | None) -> View:
        g = self.game
        prog = g.program
        to_move = self.current_player()
        names = g.names  # a decision's name (action_to_string, a seat being to move)
        legal = (
            [names[a] for a in self.legal_actions()]
            if to_move >= 0 and (seat is None or seat == to_move)
            else []
        )
        view: dict[str, Any] = {
            "game": "shave-a-sheep",
            "seat": seat,
            "players": g.num_players,
            "to_move": None
            if to_move == TERMINAL
            else ("chance" if to_move == CHANCE else to_move),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "turns": self.turns,
            "roll": g.faces[self.face] if self.face >= 0 else None,
            "roll_actions": list(g.face_actions[self.face]) if self.face >= 0 else [],
            "grabber": self.grabber if self.grabber >= 0 else None,
            "middle": self.middle,
            "sheep": list(self.sheep),
            "piles": list(self.piles),
            "wolf": self.wolf,
            "max_wool": prog.setup.cap,
            "wolf_to": g.rules.wolf_to,
            "die": list(g.faces),
            "variants": list(g.rules.variants),
            "finished": self.phase == OVER,
            "truncated": self.truncated,
            "ended_by": self.ended_by,
            "final_paid": self.final_paid,
            "rerolls_used": self.rerolls_used,
            "scores": self.scores(),
            "winners": self.winners(),
            "legal_actions": legal,
        }
        if prog.setup.wolves > 1:
            view["wolves"] = self.wolves[: prog.setup.wolves]
        if prog.teams:
            view["teams"] = [list(t) for t in prog.teams]
        return view

    def clone(self) -> ShaveState:
        c = ShaveState.__new__(ShaveState)
        c.game = self.game
        c.middle = self.middle
        c.sheep = self.sheep[:]
        c.piles = self.piles[:]
        c.wolves = self.wolves[:]
        c.turn = self.turn
        c.turns = self.turns
        c.phase = self.phase
        c.face = self.face
        c.grabber = self.grabber
        c.truncated = self.truncated
        c.ended_by = self.ended_by
        c.final_paid = self.final_paid
        c.rerolls_used = self.rerolls_used
        c.seed = self.seed
        c._history = self._history[:]
        c._chance_count = self._chance_count
        c.fired = None
        return c

    def snapshot(self) -> Mapping[str, Any]:
        snap: dict[str, Any] = {
            "middle": self.middle,
            "sheep": tuple(self.sheep),
            "piles": tuple(self.piles),
            "wolf": self.wolf,
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "face": self.face,
            "grabber": self.grabber,
            "truncated": self.truncated,
            "ended_by": self.ended_by,
            "final_paid": self.final_paid,
            "rerolls_used": self.rerolls_used,
            "seed": self.seed,
            "history": tuple(self._history),
            "chance": self._chance_count,
        }
        if self.game.program.setup.wolves > 1:
            snap["wolves"] = tuple(self.wolves)
        return snap

    def total_wool(self) -> int:
        """Middle + sheep + piles: always the rule set's wool (conservation)."""
        return self.middle + sum(self.sheep) + sum(self.piles)

    def __repr__(self) -> str:
        return (
            f"ShaveState(turn={self.turn}, phase={PHASE_NAMES[self.phase]}, middle={self.middle}, "
            f"sheep={self.sheep}, piles={self.piles}, wolf={self.wolf})"
        )
