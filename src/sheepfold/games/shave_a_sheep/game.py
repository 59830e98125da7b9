"""Shave a Sheep: the rules engine (rulebook + Shave a Sheep rulings 1-10 and every variant).

State discipline: mutable, with a cheap :meth:`ShaveState.clone` (a handful of ints and three
short lists). A turn is a chance event (the roll) followed by the roller's decision; Howling
Wolf inserts a second chance event (who grabs the wolf), the grabber's choice of target and the
roller's choice to grow or not. Auto-shear and the final shear are not decisions: they happen.

Action ids (decisions)::

    0 grow   1 double   2 shear   3+k swap seat k   7+k wolf seat k   11 raid   12 pass
    13 reroll

``wolf seat k`` is the standard wolf, Howling Wolf's target and My friend Mr. Wolf's option A
(send); ``raid`` is Mr. Wolf's option B. ``pass`` declines Howling Wolf's grow. ``reroll`` (the
house rule ``rerolls``) rolls again instead of acting on the face: a game without rerolls has
13 action ids, one with rerolls 14. Chance outcome ids: at a roll, the index of a distinct face
of the die; at a grab, the grabbing seat.

The house rules of :class:`~sheepfold.games.shave_a_sheep.rules.ShaveRules` (docs/spec/rulings.md,
"House rules") are played here once each: ``auto_shear`` in :meth:`ShaveState._end_turn`,
``wolf_takes`` / ``wolf_to`` in :meth:`ShaveState._wolf`, ``shear_cost`` and ``full_bonus`` in
:meth:`ShaveState._shear`, ``target`` in :meth:`ShaveState._end_turn`, ``final_shear`` in
:meth:`ShaveState._final_shear`, ``rerolls`` in :meth:`ShaveState._choices`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
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
from sheepfold.games.shave_a_sheep.rules import ShaveRules, face_actions, normalize_face

GROW, DOUBLE, SHEAR = 0, 1, 2
SWAP0, WOLF0 = 3, 7
RAID, PASS = 11, 12
REROLL = 13
#: every action id (0..13); a game without rerolls uses 13 of them (its GameInfo says so)
NUM_ACTIONS = 14
MAX_PLAYERS = 4

# phases
ROLL, CHOOSE, GRAB, HOWL_TARGET, HOWL_GROW, OVER = range(6)
PHASE_NAMES = ("roll", "choose", "grab", "howl-target", "howl-grow", "over")


def action_name(action: Action) -> str:
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


class ShaveGame(Game):
    info = GameInfo(
        name="shave-a-sheep",
        title="Shave a Sheep",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_distinct_actions=REROLL,  # 14 with the house rule rerolls (see __init__)
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
        r = self.rules
        if r.reaction_weights is not None and len(r.reaction_weights) != num_players:
            raise RulesError(
                f"reaction_weights has {len(r.reaction_weights)} entries for {num_players} players"
            )
        # The die: distinct faces with their probability (a face may be printed twice).
        counts: dict[str, int] = {}
        for f in r.faces:
            counts[f] = counts.get(f, 0) + 1
        self.faces: tuple[str, ...] = tuple(counts)
        self.face_probs: tuple[float, ...] = tuple(c / len(r.faces) for c in counts.values())
        self.face_actions: tuple[tuple[str, ...], ...] = tuple(face_actions(f) for f in self.faces)
        # A face that shows gray starts the race in Howling Wolf (Shave a Sheep ruling 8).
        self.face_races: tuple[bool, ...] = tuple(
            r.howling_wolf and "wolf" in acts for acts in self.face_actions
        )
        self.grab_probs: tuple[float, ...] = grab_chances(
            r.reaction_weights or (1.0,) * num_players
        )
        # REROLL (house rule rerolls) is one more action id
        self.info = self.derive_info(NUM_ACTIONS if r.rerolls else REROLL)

    def face_index(self, face: str) -> int:
        """The index of a face of the die in use; colours may be written in any order."""
        try:
            text = normalize_face(face)
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
        s.wolf = view["wolf"]
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
        "wolf",
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
    )

    game: ShaveGame

    def __init__(self, game: ShaveGame, seed: int) -> None:
        n = game.num_players
        self.game = game
        self.middle = game.rules.wool
        self.sheep = [0] * n
        self.piles = [0] * n
        self.wolf: Seat | None = None  # My friend Mr. Wolf: the seat it stands next to
        self.turn: Seat = 0
        self.turns = 0  # completed turns
        self.phase = ROLL
        self.face = -1  # index of the rolled face during a turn
        self.grabber: Seat = -1
        self.truncated = False
        self.ended_by: str | None = None  # "middle" or "target" once the game has ended so
        self.final_paid = 0  # pieces the final shear paid back to the middle (a shear cost)
        self.rerolls_used = 0  # this turn's rerolls (house rule rerolls)
        self.seed = seed
        self._history: list[tuple[Seat, Action]] = []
        self._chance_count = 0

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
            return [WOLF0 + k for k in range(self.game.num_players) if k != self.grabber]
        if p == HOWL_GROW:
            return [GROW, PASS] if self._room(self.turn) else [PASS]
        return []

    def _room(self, seat: Seat) -> int:
        return min(self.game.rules.max_wool - self.sheep[seat], self.middle)

    def _choices(self) -> list[Action]:
        n, me = self.game.num_players, self.turn
        acts: set[Action] = set()
        for a in self.game.face_actions[self.face]:
            if a == "grow" and self._room(me) > 0:
                acts.add(GROW)
            elif a == "double" and self._room(me) > 0:
                acts.add(DOUBLE)
            elif a == "shear":
                acts.add(SHEAR)
            elif a == "swap":
                acts.update(SWAP0 + k for k in range(n) if k != me)
            elif a == "wolf":
                acts.update(WOLF0 + k for k in range(n) if k != me)
                if self.game.rules.mr_wolf and self.wolf is not None and self.wolf != me:
                    acts.add(RAID)
        out = sorted(acts) if acts else [PASS]
        if self.rerolls_used < self.game.rules.rerolls:  # house rule rerolls: roll again
            out.append(REROLL)
        return out

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
        try:
            name = action_name(action)
        except IllegalAction as e:
            return str(e)
        me = self.current_player()
        if p == HOWL_TARGET:
            if action == WOLF0 + me:
                return "the wolf's grabber must pick a sheep other than their own (ruling 8)"
            if WOLF0 <= action < WOLF0 + MAX_PLAYERS:
                return f"there is no seat {action - WOLF0} in a {self.game.num_players}-player game"
            return f"seat {me} grabbed the wolf and must pick whose sheep it visits ('wolf seat K')"
        if p == HOWL_GROW:
            if action == GROW:
                return "the roller's sheep cannot take another piece"
            return "after the wolf, the roller may only 'grow' or 'pass' (ruling 8)"
        face = self.game.faces[self.face]
        verb = name.split()[0]
        offered = self.game.face_actions[self.face]
        if verb == "pass":
            return f"the face {face} offers an action, so passing is not allowed"
        if verb == "reroll":
            if not self.game.rules.rerolls:
                return "'reroll' exists only with the house rule rerolls"
            return f"this turn's {self.game.rules.rerolls} reroll(s) are used up"
        if verb == "raid":
            if not self.game.rules.mr_wolf:
                return "'raid' exists only in My friend Mr. Wolf"
            if "wolf" not in offered:
                return f"the face {face} does not show gray, so the wolf cannot be used"
            if self.wolf is None:
                return "option B needs the wolf next to another player, but it is in the middle (ruling 9)"
            return "option B needs the wolf next to another player, but it stands next to you (ruling 9)"
        if verb not in offered:
            return f"the face {face} offers {' or '.join(offered)}, not {verb} (ruling 3)"
        if verb in ("swap", "wolf"):
            target = action - (SWAP0 if verb == "swap" else WOLF0)
            if target == me:
                return f"{verb} needs another player's sheep, not your own (ruling 4)"
            return f"there is no seat {target} in a {self.game.num_players}-player game"
        return f"your sheep cannot take more wool: it carries {self.sheep[me]} of {self.game.rules.max_wool}"

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
        return action_name(action)

    # -- the rules ---------------------------------------------------------------------------
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
        if p == HOWL_TARGET:
            target = action - WOLF0
            if self.sheep[target] > 0:  # one piece of it goes back to the middle
                self.sheep[target] -= 1
                self.middle += 1
            self.phase = HOWL_GROW
            return
        me = self.turn
        if action == REROLL:  # house rule rerolls: the die again, the turn goes on
            self.rerolls_used += 1
            self.face = -1
            self.phase = ROLL
            return
        if action == GROW:
            self._grow(me, 1)
        elif action == DOUBLE:
            self._grow(me, 2)
        elif action == SHEAR:
            self._shear(me)
        elif action < WOLF0:  # swap
            k = action - SWAP0
            self.sheep[me], self.sheep[k] = self.sheep[k], self.sheep[me]
        elif action < RAID:  # wolf
            k = action - WOLF0
            if self.game.rules.mr_wolf:  # option A: send the wolf, take one piece
                self.wolf = k
                if self.sheep[k] > 0:
                    self.sheep[k] -= 1
                    self.piles[me] += 1
            else:
                self._wolf(me, k)
        elif action == RAID:  # option B: up to two pieces, the wolf goes home
            w = self.wolf
            assert w is not None
            take = min(2, self.sheep[w])
            self.sheep[w] -= take
            self.piles[me] += take
            self.wolf = None
        self._end_turn()

    def _grow(self, seat: Seat, pieces: int) -> None:
        put = min(pieces, self.game.rules.max_wool - self.sheep[seat], self.middle)
        self.sheep[seat] += put
        self.middle -= put

    def _wolf(self, me: Seat, k: Seat) -> None:
        """The standard wolf visits seat ``k``'s sheep (Shave a Sheep ruling 4): it takes all the
        wool (house rule ``wolf_takes``: half, rounded up, or a number) back to the middle
        (house rule ``wolf_to``: or onto the roller's safe pile)."""
        rules = self.game.rules
        take = rules.wolf_take(self.sheep[k])
        self.sheep[k] -= take
        if rules.wolf_to == "roller":
            self.piles[me] += take
        else:
            self.middle += take

    def _shear(self, seat: Seat, in_play: bool = True) -> None:
        """The sheep's wool to its owner's safe pile, less the shear's cost back to the middle
        (Shave a Sheep ruling 7, house rule ``shear_cost``: at most what was shorn). A shear in
        play (pink or the auto-shear, not the final shear) of a full sheep (carrying
        ``max_wool``) also moves ``full_bonus`` pieces from the middle to the pile, as many as
        there are, after the cost is paid (house rule ``full_bonus``)."""
        wool = self.sheep[seat]
        pay = min(wool, self.game.rules.cost)
        self.middle += pay
        self.piles[seat] += wool - pay
        self.sheep[seat] = 0
        if in_play and wool >= self.game.rules.max_wool:
            bonus = min(self.game.rules.full_bonus, self.middle)
            self.middle -= bonus
            self.piles[seat] += bonus

    def _game_ends(self) -> bool:
        """Shave a Sheep ruling 6: the last piece left the middle; house rule ``target``: a
        safe pile holds the target."""
        target = self.game.rules.target
        return self.middle == 0 or (target is not None and max(self.piles) >= target)

    def _end_turn(self) -> None:
        self.face = -1
        self.grabber = -1
        self.rerolls_used = 0
        if self._game_ends():
            self._final_shear()
            return
        self.turns += 1
        mt = self.game.rules.max_turns
        if mt is not None and self.turns >= mt:  # no next turn, so no auto-shear (docs/engine.md)
            self.truncated = True
            self.phase = OVER
            return
        self.turn = (self.turn + 1) % self.game.num_players
        if self.sheep[self.turn] >= self.game.rules.shear_at:  # Shave a Sheep ruling 5: auto-shear
            self._shear(self.turn)
            if self.middle == 0:  # its full bonus took the last piece: the game ends at once
                self._final_shear()
                return
        self.phase = ROLL

    def _final_shear(self) -> None:
        """The end: every sheep shorn one last time in seat order (Shave a Sheep ruling 6,
        unless the house rule ``final_shear`` is off; its payments do not restart the game).
        Notes why the game ended and what the final shear paid back, for the end screens."""
        self.ended_by = "middle" if self.middle == 0 else "target"
        before = self.middle
        if self.game.rules.final_shear:
            for s in range(self.game.num_players):
                self._shear(s, in_play=False)
        self.final_paid = self.middle - before
        self.phase = OVER

    # -- results & views --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(p) for p in self.piles]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(p) for p in self.piles)
        if self.truncated:
            return Outcome(scores, (), truncated=True)
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def observe(self, seat: Seat | None) -> View:
        to_move = self.current_player()
        legal = (
            [self.action_to_string(a) for a in self.legal_actions()]
            if to_move >= 0 and (seat is None or seat == to_move)
            else []
        )
        return {
            "game": "shave-a-sheep",
            "seat": seat,
            "players": self.game.num_players,
            "to_move": None
            if to_move == TERMINAL
            else ("chance" if to_move == CHANCE else to_move),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "turns": self.turns,
            "roll": self.game.faces[self.face] if self.face >= 0 else None,
            "roll_actions": list(self.game.face_actions[self.face]) if self.face >= 0 else [],
            "grabber": self.grabber if self.grabber >= 0 else None,
            "middle": self.middle,
            "sheep": list(self.sheep),
            "piles": list(self.piles),
            "wolf": self.wolf,
            "max_wool": self.game.rules.max_wool,
            "wolf_to": self.game.rules.wolf_to,
            "die": list(self.game.faces),
            "variants": list(self.game.rules.variants),
            "finished": self.phase == OVER,
            "truncated": self.truncated,
            "ended_by": self.ended_by,
            "final_paid": self.final_paid,
            "rerolls_used": self.rerolls_used,
            "scores": self.scores(),
            "winners": self.winners(),
            "legal_actions": legal,
        }

    def clone(self) -> ShaveState:
        c = ShaveState.__new__(ShaveState)
        c.game = self.game
        c.middle = self.middle
        c.sheep = self.sheep[:]
        c.piles = self.piles[:]
        c.wolf = self.wolf
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
        return c

    def snapshot(self) -> Mapping[str, Any]:
        return {
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

    def total_wool(self) -> int:
        """Middle + sheep + piles: always the rule set's wool (conservation)."""
        return self.middle + sum(self.sheep) + sum(self.piles)

    def __repr__(self) -> str:
        return (
            f"ShaveState(turn={self.turn}, phase={PHASE_NAMES[self.phase]}, middle={self.middle}, "
            f"sheep={self.sheep}, piles={self.piles}, wolf={self.wolf})"
        )
