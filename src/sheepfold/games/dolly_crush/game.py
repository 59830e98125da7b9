"""Dolly Crush: the rules engine (rulebook + Dolly Crush rulings 1-9, docs/spec/rulings.md).

State discipline: mutable, with a cheap :meth:`DollyState.clone` (a few short lists).

A turn is a sequence of decisions: ``dog D`` (play dog card D), then exactly as many
``swap X-Y`` as that card shows. After the last swap the combination is taken, and the flock is
refilled (Dolly Crush ruling 6): every card drawn is a chance event whose outcome is a card
kind, with the probability of that kind among the cards not yet seen. The state keeps its deck
in a real order (shuffled from the seed, or given by a record), and
:meth:`DollyState.sample_chance` draws its top card, so a seeded game is reproducible; applying
another kind draws that kind instead (the deck's multiset stays exact), which is how search and
OpenSpiel sample the unseen cards.

Action ids (decisions): ``0..3`` dog card D; ``4 + i`` the i-th adjacent pair of
:data:`~sheepfold.games.dolly_crush.cards.SWAPS`. Chance outcome ids: the card id 0..9.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
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
from sheepfold.games.dolly_crush.cards import (
    BREEDS,
    EMPTY,
    NUM_CELLS,
    NUM_KINDS,
    SWAP_INDEX,
    SWAPS,
    card_code,
    cell_name,
    find_lines,
    parse_card,
    parse_cell,
)
from sheepfold.games.dolly_crush.rules import DollyRules

NUM_DOGS = 4
SWAP0 = NUM_DOGS
NUM_ACTIONS = NUM_DOGS + len(SWAPS)

# phases
DRAW, DOG, SWAP, OVER = range(4)
PHASE_NAMES = ("draw", "dog", "swap", "over")


def action_name(action: Action) -> str:
    if 0 <= action < NUM_DOGS:
        return f"dog {action}"
    if SWAP0 <= action < NUM_ACTIONS:
        a, b = SWAPS[action - SWAP0]
        return f"swap {cell_name(a)}-{cell_name(b)}"
    raise IllegalAction(f"{action} is not a Dolly Crush action id (0..{NUM_ACTIONS - 1})")


def swap_action(a: str | int, b: str | int) -> Action:
    """The action id of swapping two cells (names like ``b2`` or indexes), in either order."""
    x = parse_cell(a) if isinstance(a, str) else a
    y = parse_cell(b) if isinstance(b, str) else b
    pair = (min(x, y), max(x, y))
    if pair not in SWAP_INDEX:
        raise IllegalAction(
            f"{cell_name(x)} and {cell_name(y)} are not adjacent: a swap exchanges two "
            "orthogonally adjacent cards (ruling 7)"
        )
    return SWAP0 + SWAP_INDEX[pair]


# The house-rule options the engine does not play yet (issue 13 in progress): refused, never ignored.
_NOT_YET = (
    "rows",
    "cols",
    "min_line",
    "diagonals",
    "match_colour",
    "types",
    "dogs_per_player",
    "swaps",
    "cascades",
    "end_points",
    "rounds",
)


def _refuse_unplayed_options(rules: DollyRules) -> None:
    unplayed = [k for k in _NOT_YET if k in rules.model_fields_set and k in rules.options()]
    if unplayed:
        raise RulesError(f"not playable yet: {', '.join(unplayed)}")


class DollyGame(Game):
    info = GameInfo(
        name="dolly-crush",
        title="Dolly Crush",
        min_players=2,
        max_players=4,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=NUM_KINDS,
        max_game_length=4 * NUM_DOGS * (1 + 20),
        perfect_information=False,
        description="Swap adjacent sheep to line up three or more of a type and collect them.",
    )

    rules: DollyRules

    def __init__(
        self,
        num_players: int = 2,
        rules: DollyRules | None = None,
        breeds: Sequence[str] | None = None,
    ) -> None:
        super().__init__(num_players, rules or DollyRules())
        _refuse_unplayed_options(self.rules)
        chosen = tuple(breeds) if breeds is not None else BREEDS[:num_players]
        if len(chosen) != num_players:
            raise RulesError(f"{len(chosen)} breeds given for {num_players} players")
        for b in chosen:
            if b not in BREEDS:
                raise RulesError(f"unknown breed {b!r} (breeds: {', '.join(BREEDS)})")
        if len(set(chosen)) != len(chosen):
            raise RulesError("a breed is used by one player at most (ruling 3)")
        self.breeds: tuple[str, ...] = chosen
        self.dog_swaps: tuple[tuple[int, ...], ...] = tuple(self.rules.dog_swaps[b] for b in chosen)
        for b, counts in zip(chosen, self.dog_swaps, strict=False):
            if len(counts) != NUM_DOGS:
                raise RulesError(f"{b}: a breed has {NUM_DOGS} dog cards, not {len(counts)}")
        r = self.rules
        self.points: tuple[int, ...] = tuple(
            r.black_points if k & 1 else r.white_points for k in range(NUM_KINDS)
        )
        self.composition: tuple[int, ...] = tuple(
            r.black_per_type if k & 1 else r.white_per_type for k in range(NUM_KINDS)
        )

    def standard_deck(self) -> list[int]:
        """The rule set's deck, unshuffled (card ids)."""
        return [k for k in range(NUM_KINDS) for _ in range(self.composition[k])]

    def new_initial_state(
        self, seed: int | None = None, deck: Sequence[str | int] | None = None, **setup: Any
    ) -> DollyState:
        """A new game, before the flock is dealt (15 chance draws come first).

        ``deck``: the whole deck, top card first (codes or ids); else the rule set's deck
        shuffled with ``seed``. ``seed`` also drives the clean-up reshuffles.
        """
        if setup:
            raise TypeError(f"unexpected set-up options for Dolly Crush: {', '.join(setup)}")
        seed = 0 if seed is None else seed
        if deck is None:
            cards = self.standard_deck()
            random.Random(seed).shuffle(cards)
        else:
            cards = [parse_card(c) if isinstance(c, str) else int(c) for c in deck]
            if len(cards) < NUM_CELLS:
                raise RulesError(f"a deck needs at least {NUM_CELLS} cards, not {len(cards)}")
        return DollyState(self, seed, cards)

    def determinize(self, view: View, seed: int | None = None) -> DollyState:
        """A state that shows what ``view`` shows, the unseen cards shuffled into a deck."""
        rng = random.Random(seed)
        deck = [parse_card(code) for code, n in view["unseen"].items() for _ in range(n)]
        rng.shuffle(deck)
        s = DollyState(self, rng.randrange(2**31), [])
        s.deck = deck[::-1]
        s.flock = [EMPTY if c is None else parse_card(c) for row in view["flock"] for c in row]
        s.collected = [[parse_card(c) for c in pile] for pile in view["collected"]]
        s.dogs_played = [
            sum(1 << d for d in range(NUM_DOGS) if d not in left) for left in view["dogs_left"]
        ]
        s.turn = view["turn"]
        s.phase = PHASE_NAMES.index(view["phase"])
        s.dog = -1 if view["dog"] is None else view["dog"]
        s.swaps_left = view["swaps_left"]
        s.aborted = view.get("aborted", False)
        s.last_taken = tuple(parse_cell(c) for c in view.get("last_taken", ()))
        s.setup = False
        return s


class DollyState(State):
    __slots__ = (
        "game",
        "flock",
        "deck",
        "returning",
        "collected",
        "dogs_played",
        "turn",
        "phase",
        "dog",
        "swaps_left",
        "setup",
        "cleanup_rounds",
        "aborted",
        "last_taken",
        "seed",
        "initial_deck",
        "_history",
        "_chance_count",
        "_shuffles",
    )

    game: DollyGame

    def __init__(self, game: DollyGame, seed: int, deck_top_first: list[int]) -> None:
        n = game.num_players
        self.game = game
        self.seed = seed
        self.initial_deck: tuple[int, ...] = tuple(deck_top_first)
        self.deck: list[int] = deck_top_first[::-1]  # top card at the end
        self.returning: list[int] = []  # clean-up cards waiting to be shuffled back
        self.flock: list[int] = [EMPTY] * NUM_CELLS
        self.collected: list[list[int]] = [[] for _ in range(n)]
        self.dogs_played: list[int] = [0] * n  # bit d set: dog card d spent
        self.turn: Seat = 0
        self.phase = DRAW
        self.dog = -1
        self.swaps_left = 0
        self.setup = True  # the first deal and its clean-up
        self.cleanup_rounds = 0
        self.aborted = False  # the clean-up gave up (Dolly Crush ruling 6)
        self.last_taken: tuple[int, ...] = ()  # cells of the last combination taken
        self._history: list[tuple[Seat, Action]] = []
        self._chance_count = 0
        self._shuffles = 0
        if not self.deck:
            self._settle()

    # -- protocol ---------------------------------------------------------------------------
    def current_player(self) -> Seat:
        p = self.phase
        if p == DOG or p == SWAP:
            return self.turn
        if p == DRAW:
            return CHANCE
        return TERMINAL

    def legal_actions(self) -> list[Action]:
        p = self.phase
        if p == DOG:
            played = self.dogs_played[self.turn]
            return [d for d in range(NUM_DOGS) if not played >> d & 1]
        if p == SWAP:
            f = self.flock
            return [SWAP0 + i for i, (a, b) in enumerate(SWAPS) if f[a] >= 0 and f[b] >= 0]
        if p == DRAW:
            return sorted(set(self.deck))
        return []

    def illegal_reason(self, action: Action) -> str | None:
        p = self.phase
        if p == OVER:
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is an integer id, not {action!r}"
        if p == DRAW:
            if action in self.deck:
                return None
            if 0 <= action < NUM_KINDS:
                return f"no {card_code(action)} card is left in the deck"
            return f"{action} is not a card id (0..{NUM_KINDS - 1})"
        if not 0 <= action < NUM_ACTIONS:
            return f"{action} is not a Dolly Crush action id (0..{NUM_ACTIONS - 1})"
        if p == DOG:
            if action >= NUM_DOGS:
                return "choose a dog card first ('dog D'), then make its swaps (rulebook: On your turn, 1)"
            if self.dogs_played[self.turn] >> action & 1:
                return f"dog card {action} has already been played (ruling 7: a dog card is spent)"
            return None
        if action < NUM_DOGS:
            return (
                f"dog card {self.dog} is in play: make its {self.swaps_left} remaining "
                "swap(s) before the turn ends (ruling 7: exactly as many swaps as it shows)"
            )
        a, b = SWAPS[action - SWAP0]
        if self.flock[a] < 0 or self.flock[b] < 0:
            return f"{cell_name(a)}-{cell_name(b)}: an empty cell cannot be swapped"
        return None

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != DRAW:
            return []
        counts = [0] * NUM_KINDS
        for c in self.deck:
            counts[c] += 1
        total = len(self.deck)
        return [(k, n / total) for k, n in enumerate(counts) if n]

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        if self.phase != DRAW:
            raise IllegalAction("this is not a chance event")
        if rng is None:
            return self.deck[-1]  # the top card of the (seeded) shuffled deck
        return rng.choice(self.deck)

    def action_to_string(self, action: Action) -> str:
        if self.phase == DRAW:
            return f"draw {card_code(action)}"
        return action_name(action)

    def string_to_action(self, text: str) -> Action:
        """Accepts ``dog 2``, ``swap b2-b3``, ``b3-b2``, ``b2 b3`` and ``draw ram-black``."""
        words = text.lower().replace("-", " ").replace(",", " ").split()
        if words and words[0] in ("swap", "s"):
            words = words[1:]
        try:
            if self.phase == DRAW and words and words[0] == "draw":
                return parse_card("-".join(words[1:]))
            if len(words) == 2 and words[0] in ("dog", "d") and words[1].isdigit():
                return int(words[1])
            if len(words) == 2:
                return swap_action(words[0], words[1])
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        raise IllegalAction(
            f"'{text}' is not a move: type 'dog D' (D = 0..3) or a swap like 'b2-b3'"
        )

    # -- the rules ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        p = self.phase
        self._history.append((CHANCE if p == DRAW else self.turn, action))
        if p == DRAW:
            self._chance_count += 1
            deck = self.deck
            if deck[-1] == action:
                deck.pop()
            else:  # draw that kind: the copy nearest the top
                i = len(deck) - 1
                while deck[i] != action:
                    i -= 1
                del deck[i]
            self.flock[self.flock.index(EMPTY)] = action
            self._settle()
        elif p == DOG:
            self.dog = action
            self.dogs_played[self.turn] |= 1 << action
            self.swaps_left = self.game.dog_swaps[self.turn][action]
            self.phase = SWAP
            if self.swaps_left == 0:
                self._end_turn()
        else:
            a, b = SWAPS[action - SWAP0]
            f = self.flock
            f[a], f[b] = f[b], f[a]
            self.swaps_left -= 1
            if self.swaps_left == 0:
                self._end_turn()

    def _end_turn(self) -> None:
        """After the last swap: take the combination (Dolly Crush ruling 5), then refill
        (Dolly Crush ruling 6)."""
        cells = find_lines(self.flock)
        self.last_taken = tuple(cells)
        pile = self.collected[self.turn]
        for c in cells:
            pile.append(self.flock[c])
            self.flock[c] = EMPTY
        self.cleanup_rounds = 0
        self._settle()

    def _settle(self) -> None:
        """Go on filling and cleaning the flock until a draw is needed or it is settled."""
        flock = self.flock
        while True:
            if EMPTY in flock and self.deck:
                self.phase = DRAW
                return
            if self.returning:  # shuffle the removed cards back, then fill what is still empty
                self._shuffle_back()
                continue
            lines = find_lines(flock)
            if not lines:
                break
            if self.cleanup_rounds >= self.game.rules.max_cleanup_rounds:
                self.aborted = True
                self.phase = OVER
                return
            self.cleanup_rounds += 1
            for c in lines:  # removed cards score for nobody
                self.returning.append(flock[c])
                flock[c] = EMPTY
        self._after_settled()

    def _shuffle_back(self) -> None:
        self.deck.extend(self.returning)
        self.returning = []
        seeded_random(self.seed, 1_000_000 + self._shuffles).shuffle(self.deck)
        self._shuffles += 1

    def _after_settled(self) -> None:
        if self.setup:
            self.setup = False
            # A flock the deck could not fill can never be played (Dolly Crush ruling 8).
            self.phase = OVER if EMPTY in self.flock else DOG
            return
        n = self.game.num_players
        all_played = all(d == (1 << NUM_DOGS) - 1 for d in self.dogs_played)
        if not self.deck or all_played:  # Dolly Crush ruling 8
            self.phase = OVER
            return
        self.turn = (self.turn + 1) % n
        self.dog = -1
        self.phase = DOG

    # -- results & views --------------------------------------------------------------------
    def scores(self) -> list[float]:
        pts = self.game.points
        return [float(sum(pts[c] for c in pile)) for pile in self.collected]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(self.scores())
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def unseen(self) -> dict[str, int]:
        """The cards nobody has seen (deck + cards waiting to be shuffled back), by code."""
        counts = [0] * NUM_KINDS
        for c in self.deck:
            counts[c] += 1
        for c in self.returning:
            counts[c] += 1
        return {card_code(k): n for k, n in enumerate(counts) if n}

    def flock_codes(self) -> list[list[str | None]]:
        return [
            [None if c < 0 else card_code(c) for c in self.flock[r * 5 : r * 5 + 5]]
            for r in range(3)
        ]

    def dogs_left(self, seat: Seat) -> list[int]:
        return [d for d in range(NUM_DOGS) if not self.dogs_played[seat] >> d & 1]

    def observe(self, seat: Seat | None) -> View:
        to_move = self.current_player()
        legal = (
            [self.action_to_string(a) for a in self.legal_actions()]
            if to_move >= 0 and (seat is None or seat == to_move)
            else []
        )
        n = self.game.num_players
        return {
            "game": "dolly-crush",
            "seat": seat,
            "players": n,
            "to_move": None
            if to_move == TERMINAL
            else ("chance" if to_move == CHANCE else to_move),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "flock": self.flock_codes(),
            "deck_size": len(self.deck) + len(self.returning),
            "unseen": self.unseen(),
            "collected": [[card_code(c) for c in pile] for pile in self.collected],
            "breeds": list(self.game.breeds),
            "dog_swaps": [list(s) for s in self.game.dog_swaps],
            "dogs_left": [self.dogs_left(s) for s in range(n)],
            "dog": self.dog if self.dog >= 0 else None,
            "swaps_left": self.swaps_left,
            "last_taken": [cell_name(c) for c in self.last_taken],
            "finished": self.phase == OVER,
            "aborted": self.aborted,
            "scores": self.scores(),
            "winners": self.winners(),
            "legal_actions": legal,
        }

    def clone(self) -> DollyState:
        c = DollyState.__new__(DollyState)
        c.game = self.game
        c.flock = self.flock[:]
        c.deck = self.deck[:]
        c.returning = self.returning[:]
        c.collected = [p[:] for p in self.collected]
        c.dogs_played = self.dogs_played[:]
        c.turn = self.turn
        c.phase = self.phase
        c.dog = self.dog
        c.swaps_left = self.swaps_left
        c.setup = self.setup
        c.cleanup_rounds = self.cleanup_rounds
        c.aborted = self.aborted
        c.last_taken = self.last_taken
        c.seed = self.seed
        c.initial_deck = self.initial_deck
        c._history = self._history[:]
        c._chance_count = self._chance_count
        c._shuffles = self._shuffles
        return c

    def snapshot(self) -> Mapping[str, Any]:
        return {
            "flock": tuple(self.flock),
            "deck": tuple(self.deck),
            "returning": tuple(self.returning),
            "collected": tuple(tuple(p) for p in self.collected),
            "dogs_played": tuple(self.dogs_played),
            "turn": self.turn,
            "phase": self.phase,
            "dog": self.dog,
            "swaps_left": self.swaps_left,
            "setup": self.setup,
            "cleanup_rounds": self.cleanup_rounds,
            "aborted": self.aborted,
            "last_taken": self.last_taken,
            "seed": self.seed,
            "history": tuple(self._history),
            "chance": self._chance_count,
            "shuffles": self._shuffles,
        }

    def total_cards(self) -> int:
        """Flock + deck + waiting + collected: always the deck's size (conservation)."""
        return (
            sum(1 for c in self.flock if c >= 0)
            + len(self.deck)
            + len(self.returning)
            + sum(len(p) for p in self.collected)
        )

    def __repr__(self) -> str:
        rows = [" ".join(f"{c:>2}" for c in self.flock[r * 5 : r * 5 + 5]) for r in range(3)]
        return f"DollyState(turn={self.turn}, phase={PHASE_NAMES[self.phase]}, flock=[{' | '.join(rows)}])"
