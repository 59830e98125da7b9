"""The games, registered: what every layer above ``games`` needs to know about one game.

``core`` knows no game. Each game package builds a :class:`GameSpec` and calls
:func:`register_game` when it is imported (``sheepfold.games`` imports both games, and so does
``import sheepfold``); records, the conformance checker, bots, the lab, the adapters, the server
and the command line look a game up by name with :func:`game_spec` and use what it carries,
instead of asking which game it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import Game, RulesError, State

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sheepfold.core.drivers import TableDriver, TerminalDriver
    from sheepfold.core.records import RecordCodec


def _no_orders(state: State) -> list[list[str]]:
    return []


def _equal_seats(game: Game) -> str | None:
    return None


@dataclass(frozen=True)
class GameSpec:
    """One game, as the layers above ``games`` see it."""

    #: the name everywhere (records, the command line, the web API): ``dolly-crush``
    name: str
    #: the name for people: ``Dolly Crush``
    title: str
    #: the engine: ``game_class(players, rules, **options)``
    game_class: type[Game]
    #: the rule-set model (pydantic): every house-rule axis, validated
    rules_class: type[BaseModel]
    #: the game-specific half of ``sheepfold-record/1`` (:class:`~sheepfold.core.records.RecordCodec`)
    record: RecordCodec
    #: whether ``to_record`` captures the whole state (no turn in progress, no draw pending)
    move_boundary: Callable[[State], bool]
    #: ``(check, failure message)`` for each game-specific invariant that fails (conservation...)
    invariants: Callable[[State], list[tuple[str, str]]]
    #: a copy of a state that differs only in what no seat may see (deck order, seed)
    hidden_variant: Callable[[State, random.Random], State]
    #: the name of an action id at a decision (``b2-b3``, ``shear``...)
    action_name: Callable[[int], str]
    #: the observation tensor's encoder (:mod:`sheepfold.interop.encoding` names its interface)
    encoder: Callable[[Game], Any]
    #: the most chance outcomes at one chance node, the most decisions in one game and the
    #: most chance events in one game (true bounds, derived from the rules: OpenSpiel's
    #: ``max_game_length`` and ``max_chance_nodes_in_history``)
    max_chance_outcomes: Callable[[Game], int]
    max_decisions: Callable[[Game], int]
    max_chance_nodes: Callable[[Game], int]
    #: deck orders a view must not reveal (the conformance checker looks for them in views)
    deck_orders: Callable[[State], list[list[str]]] = _no_orders
    #: keyword options ``make`` passes to the engine besides the rules (Dolly Crush: breeds)
    make_options: tuple[str, ...] = ()
    #: the dog breeds a seat may choose, name -> title (empty: seats choose nothing)
    breeds: Mapping[str, str] = field(default_factory=dict)
    #: the rules have a turn limit (``max_turns``) that ends a game that might never end
    turn_limit: bool = False
    #: the rules model has a switch that hides the scores from the players (``hide_scores``)
    hidden_scores: bool = False
    #: the game is solved exactly (``sheepfold solve``, the perfect bot, ``lab --exact``)
    has_exact_solver: bool = False
    #: what a seat's score is called (``points``, ``safe pile``)
    score_label: str = "score"
    #: the rule set every front end plays when none is asked for (None: the rulebook). Dolly
    #: Crush: ``dolly-graded``, equal dog cards for every seat, since the printed cards
    #: (the engine's own default) give one breed 4 swaps a card against 1 and decide the game
    default_ruleset: str | None = None
    #: why the seats of a game are not on equal terms, in a sentence that says it decides the
    #: game and what is fair (None: they are equal); front ends warn with it
    unequal_seats: Callable[[Game], str | None] = _equal_seats
    #: the terminal's driver for a game (:class:`~sheepfold.core.drivers.TerminalDriver`);
    #: None: the generic one (:class:`~sheepfold.core.drivers.GenericTerminal`)
    terminal: Callable[[Game], TerminalDriver] | None = None
    #: the web server's table driver (:class:`~sheepfold.core.drivers.TableDriver`; None: the
    #: generic one, from the protocol alone)
    table: TableDriver | None = None
    #: each rules option's category, for the gallery's filters (an option not named: "other")
    categories: Mapping[str, str] = field(default_factory=dict)
    #: what differs between two rule sets of the game, part by part, in the words its front
    #: ends use (``(base rules, rules) -> sentences``; the gallery's and the lab's lines). None:
    #: the generic lines, one per option that differs (:func:`sheepfold.rulesets.rules_differences`)
    differences: Callable[[Any, Any], list[str]] | None = None
    #: the most each seat may still score from a position, a sound upper bound whatever anyone
    #: does and whatever chance brings (the lab's kingmaking measure: who can no longer win);
    #: it returns None where the rules give no sound bound. None: the game has none
    score_bound: Callable[[State], list[float] | None] | None = None
    #: what a game under a rule set costs, from the rules alone: ``(rules, players) ->``
    #: :class:`~sheepfold.games.costs.RuleCost` (the deal's, a turn's and a bot decision's
    #: bounds), checked against each front end's limits by :mod:`sheepfold.bots.costs`. None:
    #: nothing to bound
    cost: Callable[[Any, int], Any] | None = None
    #: the game is offered in the lobby and the front ends' game menus (False: an example game,
    #: played by name only: docs/engine.md "Adding a game")
    listed: bool = True

    def make(self, players: int, rules: Any, **options: Any) -> Game:
        return self.game_class(players, rules, **options)

    # -- the names the adapters give the game, derived (docs/interop.md) --------------------
    @property
    def camel_name(self) -> str:
        """The title as one word, each word capitalized: ``DollyCrush``, ``ShaveASheep``."""
        return "".join(w[:1].upper() + w[1:] for w in self.title.split())

    @property
    def openspiel_name(self) -> str:
        """The OpenSpiel short name: ``python_dolly_crush``."""
        return "python_" + self.name.replace("-", "_")

    @property
    def env_id(self) -> str:
        """The Gymnasium environment id: ``sheepfold/DollyCrush-v0``."""
        return f"sheepfold/{self.camel_name}-v0"


_GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    """Make a game known by its name (a game package calls this when it is imported)."""
    _GAMES[spec.name] = spec
    return spec


def game_names() -> tuple[str, ...]:
    """The registered games' names, in the order they were registered."""
    return tuple(_GAMES)


def find_game(name: Any) -> GameSpec | None:
    """The spec of a game, or None when ``name`` names no registered game."""
    return _GAMES.get(name) if isinstance(name, str) else None


def game_spec(name: str) -> GameSpec:
    """The spec of a game; :class:`RulesError` listing the games when there is no such game."""
    spec = find_game(name)
    if spec is None:
        raise RulesError(f"unknown game {name!r} (games: {', '.join(_GAMES)})")
    return spec
