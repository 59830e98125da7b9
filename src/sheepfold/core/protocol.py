"""The game protocol that every layer of sheepfold speaks.

A :class:`Game` is a rule set plus a player count; it makes :class:`State` objects. A state is a
mutable state machine with a cheap :meth:`State.clone` (the discipline we chose for both games:
``apply`` mutates, search clones). Actions are small integers, both for decisions and for chance
outcomes, so that search, action masks and the AI adapters need no per-game code; every game
also names its actions (``action_to_string``) and parses names back (``string_to_action``).

Whose turn it is comes from :meth:`State.current_player`: a seat (``0..n-1``), :data:`CHANCE`
when the next event is random (a card draw, a die roll, who grabs the wolf) or :data:`TERMINAL`.
A chance event lists its outcomes with probabilities; :meth:`State.sample_chance` draws the
outcome the state's own seeded randomness dictates (the top card of the shuffled deck, the next
seeded die roll), so that the same seed and the same decisions always give the same game, while
a record or a network race may apply any listed outcome directly.

Rules never do I/O and import nothing from bots, front ends or adapters.
"""

from __future__ import annotations

import abc
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

Seat: TypeAlias = int
Action: TypeAlias = int
View: TypeAlias = dict[str, Any]

CHANCE: Seat = -1
TERMINAL: Seat = -4


class SheepfoldError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalAction(SheepfoldError):
    """An action that the rules do not allow in this state. The state is left unchanged."""


class RulesError(SheepfoldError):
    """A rule set that makes no sense (unknown colour, a cap of 0, both wolf variants...)."""


@dataclass(frozen=True)
class GameInfo:
    """A game's facts, as data (cf. OpenSpiel's GameType / GameInfo): the one source that the
    adapters (OpenSpiel, PettingZoo, Gymnasium), the lab and the front ends declare.

    A game class sets the facts that hold for every game it makes (the name, the players, the
    information, the utility); a game's own ``info`` (:meth:`Game.derive_info`) adds the sizes
    its rules give, from the true bounds of its :class:`~sheepfold.core.registry.GameSpec`.
    ``tests/test_game_facts.py`` compares what every adapter declares with it.

    >>> from sheepfold import make
    >>> info = make("dolly-crush", players=2).info  # the printed cards: 1 swap, or 4 (a breed)
    >>> info.perfect_information, info.max_game_length  # (4 cards + 4 swaps) + (4 + 16)
    (True, 28)
    """

    name: str
    title: str
    min_players: int
    max_players: int
    #: action ids ``0 .. num_distinct_actions - 1`` (decisions)
    num_distinct_actions: int
    #: the most outcomes at one chance node
    max_chance_outcomes: int
    #: the most decisions in one game (0: no bound, a game that may never end)
    max_game_length: int
    #: every seat sees every decision and chance outcome as it happens (OpenSpiel's meaning:
    #: a deck's order is no hidden information, since each draw is a chance node)
    perfect_information: bool
    description: str = ""
    #: the most chance events in one game (0: no bound)
    max_chance_nodes: int = 0
    #: the returns (:meth:`State.returns`): win shares, 0 to 1, summing to 1 (constant-sum)
    min_utility: float = 0.0
    max_utility: float = 1.0
    utility_sum: float = 1.0


@dataclass(frozen=True)
class Outcome:
    """A game's result: scores per seat, the winners (several on a tie), truncation."""

    scores: tuple[float, ...]
    winners: tuple[Seat, ...]
    truncated: bool = False

    def shares(self) -> tuple[float, ...]:
        """Win share per seat: 1/k for each of k tied winners, 0 otherwise.

        A truncated game has no winner; every seat gets an equal share so that the sum stays 1.
        """
        n = len(self.scores)
        if self.truncated or not self.winners:
            return tuple(1.0 / n for _ in range(n))
        share = 1.0 / len(self.winners)
        return tuple(share if s in self.winners else 0.0 for s in range(n))


def first_seat_of(rules: Any) -> Seat:
    """The seat whose turn comes first under ``rules`` (a game's rules model): seat 0
    (Dolly Crush ruling 4, Shave a Sheep ruling 1), unless the rules model says another
    (``first_seat``: Shave a Sheep's ``[setup] first``). Known from the rules alone: nothing is
    dealt or rolled."""
    return int(getattr(rules, "first_seat", 0))


class Game(abc.ABC):
    """A game with fixed rules and a fixed number of players. Immutable."""

    #: the class's facts; a game's own follow its rules (:meth:`derive_info`)
    info: GameInfo

    def __init__(self, num_players: int, rules: Any) -> None:
        if not self.info.min_players <= num_players <= self.info.max_players:
            raise RulesError(
                f"{self.info.title} is played by {self.info.min_players} to "
                f"{self.info.max_players} players, not {num_players}"
            )
        self.num_players = num_players
        self.rules = rules

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def first_seat(self) -> Seat:
        """The seat whose turn comes first: :func:`first_seat_of` its rules."""
        return first_seat_of(self.rules)

    @abc.abstractmethod
    def new_initial_state(self, seed: int | None = None, **setup: Any) -> State:
        """A new game. ``seed`` drives every random event that is not applied explicitly."""

    @abc.abstractmethod
    def determinize(self, view: View, seed: int | None = None) -> State:
        """A full state consistent with what ``view`` shows (hidden parts sampled).

        This is how a fair bot searches: it sees only ``observe(seat)`` and imagines the rest.
        """

    def derive_info(self, num_distinct_actions: int) -> GameInfo:
        """This game's facts: its class's, with the sizes its rules give (a game's
        ``__init__`` ends with ``self.info = self.derive_info(...)``). The lengths and the
        chance outcomes are its spec's true bounds (:class:`~sheepfold.core.registry.GameSpec`'s
        ``max_decisions``, ``max_chance_nodes`` and ``max_chance_outcomes``); a game with a turn
        limit that its rules leave unset may never end: no bound (0)."""
        from sheepfold.core.registry import game_spec  # the registry imports this module

        spec = game_spec(self.name)
        endless = spec.turn_limit and getattr(self.rules, "max_turns", None) is None
        return replace(
            type(self).info,
            num_distinct_actions=num_distinct_actions,
            max_chance_outcomes=spec.max_chance_outcomes(self),
            max_game_length=0 if endless else spec.max_decisions(self),
            max_chance_nodes=0 if endless else spec.max_chance_nodes(self),
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.num_players}, rules={self.rules!r})"


class State(abc.ABC):
    """One position of a game. Mutable: :meth:`apply` changes it; :meth:`clone` copies it."""

    game: Game
    #: drives every random event not applied explicitly (part of the record; never in a view)
    seed: int

    # -- whose decision -------------------------------------------------------------------
    @abc.abstractmethod
    def current_player(self) -> Seat:
        """The seat to decide, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- actions --------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """Legal decisions (sorted ascending), or chance outcomes at a chance node."""

    @abc.abstractmethod
    def illegal_reason(self, action: Action) -> str | None:
        """``None`` if ``action`` is legal here, else a sentence saying which rule forbids it."""

    @abc.abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action (the hot path: ``action`` is trusted)."""

    def apply(self, action: Action) -> None:
        """Apply ``action``; raise :class:`IllegalAction` (state unchanged) if it is illegal."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (search and simulation loops)."""
        self._apply(action)

    def apply_named(self, text: str) -> Action:
        """Apply the action ``text`` names (:meth:`string_to_action`), checked as
        :meth:`apply` checks it (:class:`IllegalAction`, state unchanged); the action.

        A game whose names are read among its legal actions only may skip the check (which
        works the legal actions out again): Shave a Sheep's."""
        action = self.string_to_action(text)
        self.apply(action)
        return action

    @abc.abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: ``(outcome, probability)`` pairs, probabilities summing to 1."""

    @abc.abstractmethod
    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """The chance outcome that happens next.

        Without ``rng`` the state's own seeded randomness decides (the deck's top card, the
        next seeded roll): the same seed gives the same game. With ``rng``, an outcome is
        drawn from :meth:`chance_outcomes` with that generator.
        """

    @abc.abstractmethod
    def action_to_string(self, action: Action) -> str:
        """A readable name for an action or chance outcome (``swap b2-b3``, ``roll x2``)."""

    def string_to_action(self, text: str) -> Action:
        """Parse an action name as :meth:`action_to_string` writes it (case and spacing free)."""
        wanted = " ".join(text.lower().split())
        for a in self.legal_actions():
            if self.action_to_string(a).lower() == wanted:
                return a
        raise IllegalAction(f"'{text}' is not a legal action now")

    # -- results --------------------------------------------------------------------------
    @abc.abstractmethod
    def scores(self) -> list[float]:
        """Points per seat (Dolly Crush: card points; Shave a Sheep: safe pile)."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def winners(self) -> list[Seat]:
        out = self.outcome()
        return list(out.winners) if out else []

    def returns(self) -> list[float]:
        """Win share per seat at the end (1/k each for k tied winners), zeros before."""
        out = self.outcome()
        if out is None:
            return [0.0] * self.game.num_players
        return list(out.shares())

    # -- views & copies -------------------------------------------------------------------
    @abc.abstractmethod
    def observe(self, seat: Seat | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Never the deck order or a seed.

        A JSON-ready dict; always with the keys ``game``, ``seat``, ``to_move``, ``finished``,
        ``scores``, ``winners`` and ``legal_actions`` (named, for the seat to move).
        """

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy: nothing mutable is shared with the original."""

    @abc.abstractmethod
    def snapshot(self) -> Mapping[str, Any]:
        """Every field of the state, as plain data (tests compare snapshots for equality)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    @property
    def history(self) -> Sequence[tuple[Seat, Action]]:
        """Every action applied so far as ``(seat or CHANCE, action)``, chance outcomes included."""
        return self._history

    _history: list[tuple[Seat, Action]]


def seeded_random(seed: int, stream: int) -> random.Random:
    """A generator for the ``stream``-th random event of a game seeded with ``seed``.

    Deriving a fresh generator per event keeps states tiny and clones cheap (two ints instead
    of a Mersenne Twister state) while keeping every game reproducible from its seed.
    """
    if seed >= 1 << 64:  # a wide seed (the web server's 128 random bits): every bit counts
        return random.Random((seed << 40) | stream)
    # seeds below 2**64 keep the streams they always had (recorded games replay the same)
    return random.Random((seed & 0xFFFFFFFFFFFF) * 1_000_003 + stream)


def new_seed() -> int:
    """A fresh seed for a game nobody seeded (play sessions): recorded, so it can be replayed."""
    return random.SystemRandom().randrange(2**31)


def secret_seed() -> int:
    """A seed nobody can guess or recover from what a game shows: 128 bits from ``secrets``
    (never a clock or a counter), with bit 128 set so that every one of them drives the deck's
    shuffle and every later random event (:func:`seeded_random`)."""
    return (1 << 128) | secrets.randbits(128)
