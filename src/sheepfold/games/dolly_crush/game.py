"""Dolly Crush: the rules engine (rulebook + Dolly Crush rulings 1-9, docs/spec/rulings.md, and
the house rules of :class:`~sheepfold.games.dolly_crush.rules.DollyRules`).

State discipline: mutable, with a cheap :meth:`DollyState.clone` (a few short lists).

A turn is a sequence of decisions: ``dog D`` (play dog card D), then as many ``swap X-Y`` as
that card shows (Dolly Crush ruling 7; house rule ``swaps="up-to"``: at most that many,
``stop`` ends the swaps earlier). After the last swap the combination is taken, and the flock
is refilled (Dolly Crush ruling 6; house rule ``cascades``: lines the refill makes are taken
by the same player, again and again). Every card drawn is a chance event whose outcome is a card kind, with the
probability of that kind among the cards not yet seen. The state keeps its deck in a real order
(shuffled from the seed, or given by a record), and :meth:`DollyState.sample_chance` draws its
top card, so a seeded game is reproducible; applying another kind draws that kind instead (the
deck's multiset stays exact), which is how search and OpenSpiel sample the unseen cards.

Action ids (decisions), per game (:attr:`DollyGame.swap0`, :attr:`DollyGame.stop`): ``0 ..
num_dogs - 1`` dog card D; ``swap0 + i`` the i-th adjacent pair of the board's ``swaps``;
``stop`` (under ``swaps="up-to"`` only) the last id. Chance outcome ids: the card id ``0 ..
board.kinds - 1``. With the rulebook's rules: 4 dogs, 22 swaps, 26 actions, cards 0..9.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
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
from sheepfold.games.dolly_crush.cards import (
    BREEDS,
    EMPTY,
    NUM_KINDS,
    RULEBOOK_BOARD,
    SWAPS,
    Board,
    find_lines,
)
from sheepfold.games.dolly_crush.rules import DollyRules

#: the rulebook's action ids (a game's own are its attributes: ``num_dogs``, ``swap0``...)
NUM_DOGS = 4
SWAP0 = NUM_DOGS
NUM_ACTIONS = NUM_DOGS + len(SWAPS)

# phases
DRAW, DOG, SWAP, OVER = range(4)
PHASE_NAMES = ("draw", "dog", "swap", "over")


def _action_name(board: Board, num_dogs: int, stop: int | None, action: Action) -> str:
    if 0 <= action < num_dogs:
        return f"dog {action}"
    if num_dogs <= action < num_dogs + len(board.swaps):
        a, b = board.swaps[action - num_dogs]
        return f"swap {board.cell_name(a)}-{board.cell_name(b)}"
    if stop is not None and action == stop:
        return "stop"
    last = num_dogs + len(board.swaps) - (stop is None)
    raise IllegalAction(f"{action} is not a Dolly Crush action id (0..{last})")


def _swap_action(board: Board, swap0: int, a: str | int, b: str | int) -> Action:
    x = board.parse_cell(a) if isinstance(a, str) else a
    y = board.parse_cell(b) if isinstance(b, str) else b
    pair = (min(x, y), max(x, y))
    if pair not in board.swap_index:
        raise IllegalAction(
            f"{board.cell_name(x)} and {board.cell_name(y)} are not adjacent: a swap exchanges "
            f"two {board.adjacency_words()} cards (ruling 7)"
        )
    return swap0 + board.swap_index[pair]


def action_name(action: Action) -> str:
    """The name of an action id of the rulebook's rules (a game's own: :meth:`DollyGame.action_name`)."""
    return _action_name(RULEBOOK_BOARD, NUM_DOGS, None, action)


def swap_action(a: str | int, b: str | int) -> Action:
    """The rulebook board's action id of swapping two cells (names like ``b2`` or indexes), in
    either order (a game's own: :meth:`DollyGame.swap_action`)."""
    return _swap_action(RULEBOOK_BOARD, SWAP0, a, b)


class DollyGame(Game):
    #: every Dolly Crush game's facts; a game's own add the sizes its rules give (its action
    #: ids, its card kinds, its spec's bounds on its length: :meth:`Game.derive_info`)
    info = GameInfo(
        name="dolly-crush",
        title="Dolly Crush",
        min_players=2,
        max_players=4,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=NUM_KINDS,
        max_game_length=0,  # a game's own: its dog cards' swaps (spec.max_decisions)
        # every seat sees every swap and every card drawn; the deck's order is no hidden
        # information in OpenSpiel's sense: each draw is a chance node (docs/interop.md)
        perfect_information=True,
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
        chosen = tuple(breeds) if breeds is not None else BREEDS[:num_players]
        if len(chosen) != num_players:
            raise RulesError(
                Msg("{n} breeds given for {players} players", n=len(chosen), players=num_players)
            )
        for b in chosen:
            if b not in BREEDS:
                raise RulesError(
                    Msg(
                        "unknown breed {breed} (breeds: {breeds})",
                        breed=repr(b),
                        breeds=", ".join(BREEDS),
                    )
                )
        if len(set(chosen)) != len(chosen):
            raise RulesError(Msg("a breed is used by one player at most (ruling 3)"))
        r = self.rules
        self.board: Board = r.board()
        self.num_dogs: int = r.dogs_per_player
        self.swap0: int = self.num_dogs
        self.stop: int | None = (
            self.num_dogs + len(self.board.swaps) if r.swaps == "up-to" else None
        )
        self.num_actions: int = self.num_dogs + len(self.board.swaps) + (self.stop is not None)
        self.breeds: tuple[str, ...] = chosen
        self.dog_swaps: tuple[tuple[int, ...], ...] = tuple(r.dog_swaps[b] for b in chosen)
        for b, counts in zip(chosen, self.dog_swaps, strict=False):
            if len(counts) != self.num_dogs:
                raise RulesError(
                    Msg(
                        "{breed}: a breed has {dogs} dog cards, not {n}",
                        breed=b,
                        dogs=self.num_dogs,
                        n=len(counts),
                    )
                )
        kinds = self.board.kinds
        self.points: tuple[int, ...] = r.card_points()
        self.composition: tuple[int, ...] = tuple(
            r.black_per_type if k & 1 else r.white_per_type for k in range(kinds)
        )
        self.max_turns: int | None = None if r.rounds is None else r.rounds * num_players
        #: the combination (Dolly Crush ruling 5): the board's; on the rulebook's geometry the rulebook's
        #: own ``cards.find_lines`` (the same cells, twice as fast)
        self.find_lines: Callable[[Sequence[int]], list[int]] = (
            find_lines if self.board.rulebook_geometry else self.board.find_lines
        )
        self.info = self.derive_info(self.num_actions)

    def action_name(self, action: Action) -> str:
        """``dog D``, ``swap b2-b3`` (this game's board) or ``stop``."""
        return _action_name(self.board, self.num_dogs, self.stop, action)

    def swap_action(self, a: str | int, b: str | int) -> Action:
        """The action id of swapping two cells (names like ``b2`` or indexes), in either order."""
        return _swap_action(self.board, self.swap0, a, b)

    def standard_deck(self) -> list[int]:
        """The rule set's deck, unshuffled (card ids)."""
        return [k for k in range(self.board.kinds) for _ in range(self.composition[k])]

    def new_initial_state(
        self, seed: int | None = None, deck: Sequence[str | int] | None = None, **setup: Any
    ) -> DollyState:
        """A new game, before the flock is dealt (a chance draw per cell comes first).

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
            cards = [self.board.parse_card(c) if isinstance(c, str) else int(c) for c in deck]
            if len(cards) < self.board.cells:
                raise RulesError(
                    f"a deck needs at least {self.board.cells} cards, not {len(cards)}"
                )
            if any(not 0 <= c < self.board.kinds for c in cards):
                raise RulesError(f"a card id is 0..{self.board.kinds - 1}")
        return DollyState(self, seed, cards)

    def determinize(self, view: View, seed: int | None = None) -> DollyState:
        """A state that shows what ``view`` shows, the unseen cards shuffled into a deck."""
        rng = random.Random(seed)
        card = self.board.parse_card
        deck = [card(code) for code, n in view["unseen"].items() for _ in range(n)]
        rng.shuffle(deck)
        s = DollyState(self, rng.randrange(2**31), [])
        s.deck = deck[::-1]
        cells = self.board.from_rows(view["flock"])
        s.flock = [EMPTY if c is None else card(c) for c in cells]
        s.collected = [[card(c) for c in pile] for pile in view["collected"]]
        s.bonus = list(view.get("bonus_points", [0] * self.num_players))
        s.dogs_played = [
            sum(1 << d for d in range(self.num_dogs) if d not in left) for left in view["dogs_left"]
        ]
        s.turn = view["turn"]
        s.turns = view.get("turns", 0)
        s.phase = PHASE_NAMES.index(view["phase"])
        s.dog = -1 if view["dog"] is None else view["dog"]
        s.swaps_left = view["swaps_left"]
        s.aborted = view.get("aborted", False)
        s.ended_by = view.get("ended_by")
        s.last_taken = tuple(self.board.parse_cell(c) for c in view.get("last_taken", ()))
        s.setup = False
        return s


class DollyState(State):
    __slots__ = (
        "game",
        "flock",
        "deck",
        "returning",
        "collected",
        "bonus",
        "dogs_played",
        "turn",
        "turns",
        "phase",
        "dog",
        "swaps_left",
        "setup",
        "cleanup_rounds",
        "aborted",
        "ended_by",
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
        self.flock: list[int] = [EMPTY] * game.board.cells
        self.collected: list[list[int]] = [[] for _ in range(n)]
        self.bonus: list[int] = [0] * n  # points the bonuses by length added to the cards'
        self.dogs_played: list[int] = [0] * n  # bit d set: dog card d spent
        self.turn: Seat = 0
        self.turns = 0  # turns completed
        self.phase = DRAW
        self.dog = -1
        self.swaps_left = 0
        self.setup = True  # the first deal and its clean-up
        self.cleanup_rounds = 0
        self.aborted = False  # the clean-up gave up (Dolly Crush ruling 6)
        # why the game ended, once it has: "dogs", "deck", "cleanup", "points" or "rounds"
        self.ended_by: str | None = None
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
        g = self.game
        if p == DOG:
            played = self.dogs_played[self.turn]
            return [d for d in range(g.num_dogs) if not played >> d & 1]
        if p == SWAP:
            f = self.flock
            out = [g.swap0 + i for i, (a, b) in enumerate(g.board.swaps) if f[a] >= 0 and f[b] >= 0]
            if g.stop is not None:
                out.append(g.stop)
            return out
        if p == DRAW:
            return sorted(set(self.deck))
        return []

    def illegal_reason(self, action: Action) -> str | None:
        p = self.phase
        g = self.game
        if p == OVER:
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is an integer id, not {action!r}"
        if p == DRAW:
            if action in self.deck:
                return None
            if 0 <= action < g.board.kinds:
                return f"no {g.board.card_code(action)} card is left in the deck"
            return f"{action} is not a card id (0..{g.board.kinds - 1})"
        if not 0 <= action < g.num_actions:
            return f"{action} is not a Dolly Crush action id (0..{g.num_actions - 1})"
        if p == DOG:
            if action >= g.num_dogs:
                return (
                    "choose a dog card first ('dog D'), then make its swaps "
                    "(rulebook: On your turn, 1)"
                )
            if self.dogs_played[self.turn] >> action & 1:
                return f"dog card {action} has already been played (ruling 7: a dog card is spent)"
            return None
        if action < g.num_dogs:
            if g.stop is None:
                return (
                    f"dog card {self.dog} is in play: make its {self.swaps_left} remaining "
                    "swap(s) before the turn ends (ruling 7: exactly as many swaps as it shows)"
                )
            return (
                f"dog card {self.dog} is in play: make up to {self.swaps_left} more swap(s) or "
                "stop (house rule: up to as many swaps as it shows)"
            )
        if action == g.stop:
            return None
        a, b = g.board.swaps[action - g.swap0]
        if self.flock[a] < 0 or self.flock[b] < 0:
            name = g.board.cell_name
            return f"{name(a)}-{name(b)}: an empty cell cannot be swapped"
        return None

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != DRAW:
            return []
        counts = [0] * self.game.board.kinds
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
            return f"draw {self.game.board.card_code(action)}"
        return self.game.action_name(action)

    def string_to_action(self, text: str) -> Action:
        """Accepts ``dog 2``, ``swap b2-b3``, ``b3-b2``, ``b2 b3``, ``stop`` (or ``done``, under
        up-to swaps) and ``draw ram-black``."""
        g = self.game
        words = text.lower().replace("-", " ").replace(",", " ").split()
        if words and words[0] in ("swap", "s"):
            words = words[1:]
        try:
            if self.phase == DRAW and words and words[0] == "draw":
                return g.board.parse_card("-".join(words[1:]))
            if len(words) == 1 and words[0] in ("stop", "done") and g.stop is not None:
                return g.stop
            if len(words) == 2 and words[0] in ("dog", "d") and words[1].isdigit():
                return int(words[1])
            if len(words) == 2:
                return g.swap_action(words[0], words[1])
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        last = g.num_dogs - 1
        if g.stop is not None:
            raise IllegalAction(
                Msg(
                    "'{text}' is not a move: type 'dog D' (D = 0..{last}), a swap like 'b2-b3' "
                    "or 'stop'",
                    text=text,
                    last=last,
                )
            )
        raise IllegalAction(
            Msg(
                "'{text}' is not a move: type 'dog D' (D = 0..{last}), a swap like 'b2-b3'",
                text=text,
                last=last,
            )
        )

    # -- the rules ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        p = self.phase
        self._history.append((CHANCE if p == DRAW else self.turn, action))
        if p == DRAW:
            self._draw(action)
        elif p == DOG:
            self.dog = action
            self.dogs_played[self.turn] |= 1 << action
            self.swaps_left = self.game.dog_swaps[self.turn][action]
            self.phase = SWAP
            if self.swaps_left == 0:
                self._end_turn()
        elif action == self.game.stop:  # up-to swaps: the player stops early
            self._end_turn()
        else:
            a, b = self.game.board.swaps[action - self.game.swap0]
            f = self.flock
            f[a], f[b] = f[b], f[a]
            self.swaps_left -= 1
            if self.swaps_left == 0:
                self._end_turn()

    def _draw(self, card: int) -> None:
        """The drawn card goes to the first empty cell (Dolly Crush rulings 1 and 6)."""
        self._chance_count += 1
        deck = self.deck
        if deck[-1] == card:
            deck.pop()
        else:  # draw that kind: the copy nearest the top
            i = len(deck) - 1
            while deck[i] != card:
                i -= 1
            del deck[i]
        self.flock[self.flock.index(EMPTY)] = card
        self._settle()

    def _end_turn(self) -> None:
        """After the last swap: take the combination (Dolly Crush ruling 5), then refill
        (Dolly Crush ruling 6)."""
        cells = self.game.find_lines(self.flock)
        self.last_taken = tuple(cells)
        self._take(cells)
        self.cleanup_rounds = 0
        self._settle()

    def _take(self, cells: Sequence[int]) -> None:
        """The player whose turn it is takes the cards of ``cells`` (Dolly Crush ruling 7), with
        the bonuses by length of the lines they lie in; under gravity the cards above fall."""
        board = self.game.board
        if board.bonuses:
            pts = self.game.points
            times = board.multipliers(self.flock)
            self.bonus[self.turn] += sum(pts[self.flock[c]] * (times.get(c, 1) - 1) for c in cells)
        pile = self.collected[self.turn]
        for c in cells:
            pile.append(self.flock[c])
            self.flock[c] = EMPTY
        board.fall(self.flock)

    def _settle(self) -> None:
        """Go on filling and cleaning the flock until a draw is needed or it is settled: ruling
        6's clean-up (cards out for nobody, shuffled back), or with cascades after the deal,
        the lines the refill makes taken by the player (house rule)."""
        flock = self.flock
        cascades = self.game.rules.cascades and not self.setup
        while True:
            if EMPTY in flock and self.deck:
                self.phase = DRAW
                return
            if self.returning:  # shuffle the removed cards back, then fill what is still empty
                self._shuffle_back()
                continue
            lines = self.game.find_lines(flock)
            if not lines:
                break
            if cascades:
                self._take(lines)
                continue
            if self.cleanup_rounds >= self.game.rules.max_cleanup_rounds:
                self.aborted = True
                self.ended_by = "cleanup"
                self.phase = OVER
                return
            self.cleanup_rounds += 1
            for c in lines:  # removed cards score for nobody
                self.returning.append(flock[c])
                flock[c] = EMPTY
            self.game.board.fall(flock)
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
            self.ended_by = "deck" if self.phase == OVER else None
            return
        self.turns += 1
        self.ended_by = self._end_reason()
        if self.ended_by is not None:
            self.phase = OVER
            return
        self.turn = (self.turn + 1) % self.game.num_players
        self.dog = -1
        self.phase = DOG
        if self.game.max_turns is not None and self.dogs_played[self.turn] == self._all_dogs():
            self.dogs_played[self.turn] = 0  # house rule rounds: the dog cards come back

    def _all_dogs(self) -> int:
        return (1 << self.game.num_dogs) - 1

    def _end_reason(self) -> str | None:
        """After a turn, once the refill is settled, why the game ends (None: it goes on):
        Dolly Crush ruling 8 (``deck``: the deck is empty; ``dogs``: every dog card is spent, unless
        the game is played in rounds), and the house rules ``rounds`` (the turns are all played)
        and ``end_points`` (``points``: a player has the points)."""
        g = self.game
        if not self.deck:
            return "deck"
        if g.max_turns is None:
            if all(d == self._all_dogs() for d in self.dogs_played):
                return "dogs"
        elif self.turns >= g.max_turns:
            return "rounds"
        target = g.rules.end_points
        return "points" if target is not None and max(self.scores()) >= target else None

    # -- results & views --------------------------------------------------------------------
    def scores(self) -> list[float]:
        pts = self.game.points
        return [
            float(sum(pts[c] for c in pile) + extra)
            for pile, extra in zip(self.collected, self.bonus, strict=True)
        ]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(self.scores())
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def unseen(self) -> dict[str, int]:
        """The cards nobody has seen (deck + cards waiting to be shuffled back), by code."""
        board = self.game.board
        counts = [0] * board.kinds
        for c in self.deck:
            counts[c] += 1
        for c in self.returning:
            counts[c] += 1
        return {board.card_code(k): n for k, n in enumerate(counts) if n}

    def flock_codes(self) -> list[list[str | None]]:
        board = self.game.board
        return [
            [None if c is None or c < 0 else board.card_code(c) for c in row]
            for row in board.rows_of(self.flock)
        ]

    def dogs_left(self, seat: Seat) -> list[int]:
        return [d for d in range(self.game.num_dogs) if not self.dogs_played[seat] >> d & 1]

    def observe(self, seat: Seat | None) -> View:
        to_move = self.current_player()
        legal = (
            [self.action_to_string(a) for a in self.legal_actions()]
            if to_move >= 0 and (seat is None or seat == to_move)
            else []
        )
        g = self.game
        n = g.num_players
        view: dict[str, Any] = {
            "game": "dolly-crush",
            "seat": seat,
            "players": n,
            "to_move": None
            if to_move == TERMINAL
            else ("chance" if to_move == CHANCE else to_move),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "turns": self.turns,
            "rows": g.board.rows,
            "cols": g.board.cols,
            "types": list(g.board.type_names),
            # each card's points under the rules in play (the pictures' marks, the key)
            "card_points": {g.board.card_code(k): p for k, p in enumerate(g.points)},
            "flock": self.flock_codes(),
            "deck_size": len(self.deck) + len(self.returning),
            "unseen": self.unseen(),
            "collected": [[g.board.card_code(c) for c in pile] for pile in self.collected],
            "breeds": list(g.breeds),
            "dog_swaps": [list(s) for s in g.dog_swaps],
            "dogs_left": [self.dogs_left(s) for s in range(n)],
            "dog": self.dog if self.dog >= 0 else None,
            "swaps_left": self.swaps_left,
            "last_taken": [g.board.cell_name(c) for c in self.last_taken],
            "finished": self.phase == OVER,
            "aborted": self.aborted,
            "ended_by": self.ended_by,
            "scores": self.scores(),
            "winners": self.winners(),
            "legal_actions": legal,
        }
        if g.board.holes:  # the shape: a hole is None in the flock's rows, as an empty cell
            view["shape"] = list(g.board.shape or ())
        if g.board.bonuses:
            view["bonus_points"] = self.bonus[:]
        return view

    def clone(self) -> DollyState:
        c = DollyState.__new__(DollyState)
        c.game = self.game
        c.flock = self.flock[:]
        c.deck = self.deck[:]
        c.returning = self.returning[:]
        c.collected = [p[:] for p in self.collected]
        c.bonus = self.bonus[:]
        c.dogs_played = self.dogs_played[:]
        c.turn = self.turn
        c.turns = self.turns
        c.phase = self.phase
        c.dog = self.dog
        c.swaps_left = self.swaps_left
        c.setup = self.setup
        c.cleanup_rounds = self.cleanup_rounds
        c.aborted = self.aborted
        c.ended_by = self.ended_by
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
            "bonus": tuple(self.bonus),
            "dogs_played": tuple(self.dogs_played),
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "dog": self.dog,
            "swaps_left": self.swaps_left,
            "setup": self.setup,
            "cleanup_rounds": self.cleanup_rounds,
            "aborted": self.aborted,
            "ended_by": self.ended_by,
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
        rows = [
            " ".join("  " if c is None else f"{c:>2}" for c in row)
            for row in self.game.board.rows_of(self.flock)
        ]
        return (
            f"DollyState(turn={self.turn}, phase={PHASE_NAMES[self.phase]}, "
            f"flock=[{' | '.join(rows)}])"
        )
