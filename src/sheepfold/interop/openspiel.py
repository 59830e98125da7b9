"""OpenSpiel adapter: importing this module registers every game with ``pyspiel``.

    import pyspiel
    import sheepfold.interop.openspiel  # registers python_dolly_crush, python_shave_a_sheep, ...

    game = pyspiel.load_game("python_shave_a_sheep(players=3,variants=howling-wolf)")

Both games are sequential, with explicit chance (Dolly Crush: the card drawn, with the
probability of its kind among the deck's cards; Shave a Sheep: the die face, and in Howling Wolf
the seat that grabs the wolf, by reaction weight). Every player sees the whole position, so both
are declared perfect-information: Dolly Crush hides only the deck's order, which is not part of
an OpenSpiel state, because every draw is a chance node. Returns are win shares (1/k to each of k
tied winners): utility 0..1, constant sum 1.

Shave a Sheep can in principle go on for ever (the wolf puts wool back), while OpenSpiel wants a
bounded ``max_game_length`` (it counts player decisions only): the ``max_turns`` parameter
(default :data:`DEFAULT_MAX_TURNS`) stops a game after that many turns; such a game is
*truncated*: no winner, every seat gets 1/n, :meth:`SheepfoldState.truncated` says so and the
state's text ends with ``truncated``.

List-valued parameters are written with ``+`` between items (a comma would end the parameter in
an OpenSpiel game string): ``variants=cutting-costs+howling-wolf``,
``die=white+x2+white/pink+white/green+gray/pink+gray/green``, ``breeds=bobtail+border-collie``,
``dog_swaps=bobtail:1/2/3/4+border-collie:2``; numbers are separated by ``/``
(``reaction_weights=1/1/2``: OpenSpiel would read ``1+1+2`` as a malformed number). Dolly
Crush's house rules are parameters too: ``rows``, ``cols``, ``min_line``, ``types``,
``dogs_per_player``, ``diagonals``, ``match_colour``, ``cascades`` (``true``/``false``),
``swaps`` (``exact`` or ``up-to``), ``end_points`` and ``rounds`` (0: unset); the tensor sizes,
the number of distinct actions (with "stop" under up-to swaps) and the chance outcomes follow
the rule set. Any other game's parameters are its rule options that take a number, a
true/false or a word (docs/engine.md, "Adding a game"). ``rules``
names a rule set (a preset such as ``dolly-graded`` or a file); a parameter left at its default keeps that
rule set's value. :func:`load_game` builds the game string from Python values.

Without ``rules`` a game plays the front ends' default rule set
(:func:`sheepfold.rulesets.fair_default`): for Dolly Crush ``dolly-graded``, where every
breed's dog cards show 1, 2, 3 and 4 swaps, so every seat holds the same cards. The printed
cards (the Australian Shepherd's show 4 swaps, the other breeds' 1) are ``rules=dolly-rulebook``,
and ``breeds`` given without ``rules`` keep their printed cards (as at the terminal);
loading a game whose seats' cards differ gives a :class:`UserWarning` saying that they decide
the game.

Solvers: OpenSpiel's two-player solvers (``value_iteration``, ``minimax_solver``,
``alpha_beta_search``) assert a ZERO_SUM game, and these games are CONSTANT_SUM (win shares
sum to 1). Load them through OpenSpiel's ``zerosum`` transform, which subtracts the mean
return (share - 1/n)::

    game = pyspiel.load_game("zerosum(game=python_shave_a_sheep(players=2,wool=3,max_turns=6))")
    values = value_iteration.value_iteration(game, -1, 1e-9, cyclic_game=True)

MCTS (OpenSpiel's Python ``MCTSBot``) plays either. :func:`as_pyspiel_bot` makes a sheepfold
bot a ``pyspiel.Bot`` for ``evaluate_bots``, on a game or a transform of one.

A game declares true bounds on its length from its rules (the game spec's ``max_decisions``
and ``max_chance_nodes``): ``max_game_length`` (decisions) and ``max_chance_nodes_in_history``
(chance events: Dolly Crush draws a card per refill, and the clean-up can return cards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from sheepfold.core.protocol import CHANCE, Game, RulesError, State
from sheepfold.core.registry import game_names, game_spec
from sheepfold.games import make, parse_rules, rules_class
from sheepfold.interop import DEFAULT_MAX_TURNS
from sheepfold.interop.encoding import encoder_for

#: OpenSpiel short names of the games, by sheepfold game name (from each spec)
SHORT_NAMES: dict[str, str] = {g: game_spec(g).openspiel_name for g in game_names()}

_DOLLY_RULE_PARAMS = (
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
    "white_per_type",
    "black_per_type",
    "white_points",
    "black_points",
    "max_cleanup_rounds",
)
_SHAVE_RULE_PARAMS = ("wool", "max_wool")


def _field_default(game: str, field: str) -> Any:
    return rules_class(game).model_fields[field].default


def _param_default(game: str, field: str) -> Any:
    """A rule field's OpenSpiel default: its own type (bool, str, int); an option that is unset
    by default (``end_points``, ``rounds``) is the integer 0, which means unset."""
    value = _field_default(game, field)
    if value is None:
        return 0
    if isinstance(value, (bool, str)):
        return value
    return int(value)


def _parameter_spec(game: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"players": 2, "rules": ""}
    params = _params(game)
    spec.update(params.before)
    for f in params.rule_fields:
        spec[f] = _param_default(game, f)
    spec.update(params.after)
    return spec


def _items(name: str, text: str) -> list[str]:
    if "," in text:
        raise RulesError(
            f"{name}: separate list items with '+', not ',' (a comma ends the parameter in an "
            f"OpenSpiel game string): {text!r}"
        )
    return [t.strip() for t in text.split("+") if t.strip()]


def engine_game(game: str, params: Mapping[str, Any]) -> Game:
    """The sheepfold game that OpenSpiel parameters describe (:class:`RulesError` if wrong)."""
    spec = _parameter_spec(game)
    unknown = set(params) - set(spec)
    if unknown:
        raise RulesError(
            f"unknown parameter(s) {', '.join(sorted(unknown))} for {SHORT_NAMES[game]} "
            f"(parameters: {', '.join(spec)})"
        )
    p = {**spec, **params}
    from sheepfold.rulesets import fair_default, resolve, warn_unequal_seats

    def build(rules: Any) -> Game:
        base: dict[str, Any] = dict(rules.options()) if rules is not None else {}
        for f in _params(game).rule_fields:
            if p[f] != spec[f]:
                base[f] = p[f]
        extra: dict[str, Any] = {}
        _params(game).apply(p, base, extra)
        return make(game, players=int(p["players"]), rules=parse_rules(game, base), **extra)

    if p["rules"]:
        built = build(resolve(game, str(p["rules"])))
    else:  # the front ends' default (Dolly Crush: dolly-graded, equal dog cards)
        built = fair_default(game, build, seats_chosen=bool(p.get("breeds")))[1]
    warn_unequal_seats(built)
    return built


def _dolly_params(p: Mapping[str, Any], base: dict[str, Any], extra: dict[str, Any]) -> None:
    if p["breeds"]:
        extra["breeds"] = _items("breeds", p["breeds"])
    if p["dog_swaps"]:
        swaps: dict[str, Any] = dict(base.get("dog_swaps", {}))
        for item in _items("dog_swaps", p["dog_swaps"]):
            breed, sep, counts = item.partition(":")
            if not sep:
                raise RulesError(f"dog_swaps: write BREED:N/N/N/N, not {item!r}")
            try:
                nums = [int(c) for c in counts.split("/")]
                swaps[breed.strip()] = nums[0] if len(nums) == 1 else nums
            except ValueError:
                raise RulesError(f"dog_swaps: {item!r}: swap counts are whole numbers") from None
        base["dog_swaps"] = swaps


def _shave_params(p: Mapping[str, Any], base: dict[str, Any], extra: dict[str, Any]) -> None:
    if p["variants"]:
        base["variants"] = _items("variants", p["variants"])
    if p["die"]:
        base["die"] = _items("die", p["die"])
    if p["reaction_weights"]:
        text = str(p["reaction_weights"]).replace("/", "+")  # "1/1/2" (or "1+1+2" from Python)
        try:
            base["reaction_weights"] = [float(w) for w in _items("reaction_weights", text)]
        except ValueError:
            raise RulesError("reaction_weights: numbers separated by '/', e.g. 1/1/2") from None
    turns = int(p["max_turns"])
    if turns < 1:
        raise RulesError(
            "max_turns: OpenSpiel needs a bounded game, give a turn limit of at least 1"
        )
    if turns != DEFAULT_MAX_TURNS or base.get("max_turns") is None:
        base["max_turns"] = turns


@dataclass(frozen=True)
class _Params:
    """A game's OpenSpiel parameters: those before and after its rule fields, with defaults,
    and how they become rule options (``base``) and ``make`` keywords (``extra``)."""

    before: dict[str, Any]
    rule_fields: tuple[str, ...]
    after: dict[str, Any]
    apply: Callable[[Mapping[str, Any], dict[str, Any], dict[str, Any]], None]


_GAME_PARAMS: dict[str, _Params] = {
    "dolly-crush": _Params({"breeds": "", "dog_swaps": ""}, _DOLLY_RULE_PARAMS, {}, _dolly_params),
    "shave-a-sheep": _Params(
        {},
        _SHAVE_RULE_PARAMS,
        {"variants": "", "die": "", "reaction_weights": "", "max_turns": DEFAULT_MAX_TURNS},
        _shave_params,
    ),
}


def _no_params(p: Mapping[str, Any], base: dict[str, Any], extra: dict[str, Any]) -> None:
    pass


def _params(game: str) -> _Params:
    """A game's OpenSpiel parameters: its own table, else its rule options that take a
    number, a true/false or a word (their defaults are the parameters' defaults)."""
    own = _GAME_PARAMS.get(game)
    if own is not None:
        return own
    fields = tuple(
        name
        for name, f in rules_class(game).model_fields.items()
        if name not in ("name", "description") and isinstance(f.default, (bool, int, str))
    )
    return _Params({}, fields, {}, _no_params)


def _game_type(game: str) -> pyspiel.GameType:
    """The game's type, from its facts (:class:`~sheepfold.core.protocol.GameInfo`)."""
    info = game_spec(game).game_class.info
    T = pyspiel.GameType
    return T(
        short_name=SHORT_NAMES[game],
        long_name=f"Python {info.title} (sheepfold)",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC,
        information=T.Information.PERFECT_INFORMATION
        if info.perfect_information
        else T.Information.IMPERFECT_INFORMATION,
        utility=T.Utility.ZERO_SUM if info.utility_sum == 0 else T.Utility.CONSTANT_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game),
    )


class _Box:
    """Holds the engine state. OpenSpiel clones a Python state by deep-copying its ``__dict__``
    and serializes it by pickling: the box copies with the engine's cheap ``clone()`` and
    pickles as its action history only (replayed on first use after unpickling)."""

    __slots__ = ("s", "actions")

    def __init__(self, s: State | None, actions: tuple[int, ...] = ()) -> None:
        self.s = s
        self.actions = actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.s.clone() if self.s is not None else None, self.actions)

    def __reduce__(self) -> tuple[Any, ...]:
        acts = tuple(a for _, a in self.s.history) if self.s is not None else self.actions
        return (_Box, (None, acts))


class SheepfoldGame(pyspiel.Game):
    """An OpenSpiel game wrapping a sheepfold engine game (``.engine``)."""

    game_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        try:
            engine = engine_game(self.game_name, params)
        except RulesError as e:
            raise ValueError(f"{SHORT_NAMES[self.game_name]}: {e}") from None
        facts = engine.info  # the game's own (its sizes follow its rules)
        if not facts.max_game_length or not facts.max_chance_nodes:
            raise ValueError(
                f"{SHORT_NAMES[self.game_name]}: OpenSpiel needs a game of bounded length "
                "(a turn limit: max_turns)"
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=facts.num_distinct_actions,
            max_chance_outcomes=facts.max_chance_outcomes,
            num_players=engine.num_players,
            min_utility=facts.min_utility,
            max_utility=facts.max_utility,
            utility_sum=facts.utility_sum,
            max_game_length=facts.max_game_length,
        )
        super().__init__(_GAME_TYPES[self.game_name], info, params)
        self.engine = engine
        self._max_chance_nodes = facts.max_chance_nodes
        self.encoder = encoder_for(engine)
        # every OpenSpiel state starts as a copy of this one (a clone is cheaper than a deal)
        self.initial_engine_state = engine.new_initial_state(seed=0)

    def new_initial_state(self) -> SheepfoldState:
        return SheepfoldState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance events in one game, from the rules (OpenSpiel's default, the most
        decisions, is too small: a Dolly Crush turn can draw a whole flock of cards).
        ``max_history_length()`` is this plus ``max_game_length()``."""
        return self._max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SheepfoldObserver:
        return SheepfoldObserver(self, iig_obs_type, params)


class DollyCrushGame(SheepfoldGame):
    game_name = "dolly-crush"


class ShaveASheepGame(SheepfoldGame):
    game_name = "shave-a-sheep"


class SheepfoldState(pyspiel.State):
    """An OpenSpiel state over a sheepfold engine state (:attr:`engine_state`)."""

    def __init__(self, game: SheepfoldGame) -> None:
        super().__init__(game)
        self._box = _Box(game.initial_engine_state.clone())

    @property
    def engine_state(self) -> State:
        box = self._box
        if box.s is None:  # just unpickled: replay the history
            s = self.get_game().initial_engine_state.clone()
            for a in box.actions:
                s.apply(a)
            box.s = s
        return box.s

    # -- the pyspiel.State interface -----------------------------------------------------------
    def current_player(self) -> int:
        return self.engine_state.current_player()  # CHANCE (-1) and TERMINAL (-4) agree

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.engine_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.engine_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        s = self.engine_state
        if player == CHANCE:
            if s.current_player() == CHANCE:
                return s.action_to_string(action)
            return f"chance outcome {action}"
        named = getattr(s.game, "action_name", None)  # the rule set's own ids (Dolly Crush)
        name: str = named(action) if named else game_spec(s.game.name).action_name(action)
        return name

    def is_terminal(self) -> bool:
        return self.engine_state.is_terminal()

    def returns(self) -> list[float]:
        return self.engine_state.returns()

    def truncated(self) -> bool:
        """True if the game ended at the turn limit, without a winner."""
        out = self.engine_state.outcome()
        return bool(out and out.truncated)

    def __str__(self) -> str:
        s = self.engine_state
        text = self.get_game().encoder.text(s)
        if self.truncated():
            text += "\ntruncated"
        return text


class SheepfoldObserver:
    """OpenSpiel's PyObserver: the position from one seat (see :mod:`sheepfold.interop.encoding`).

    Observation and information state share one tensor layout: the position is a sufficient
    statistic (the games are Markov and show everything). The information-state *string* adds
    the whole action history (perfect recall). An observer without public information
    (``public_info=False``) sees only its own seat: there is no private information.
    """

    def __init__(
        self, game: SheepfoldGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self.public = bool(iig_obs_type.public_info) if iig_obs_type else True
        self.encoder = game.encoder
        if self.public:
            self.tensor = self.encoder.zeros()
            self.dict = self.encoder.views(self.tensor)
        else:
            n = game.num_players()
            self.tensor = np.zeros(n, np.float32)
            self.dict = {"seat": self.tensor}

    def set_from(self, state: SheepfoldState, player: int) -> None:
        if self.public:
            self.encoder.encode(state.engine_state, player, self.tensor)
        else:
            self.tensor.fill(0.0)
            self.tensor[player] = 1.0

    def string_from(self, state: SheepfoldState, player: int) -> str:
        if not self.public:
            return f"seat {player}"
        s = state.engine_state
        text = self.encoder.text(s, player)
        if self.perfect_recall:
            text += "\nhistory: " + " ".join(str(a) for _, a in s.history)
        return text


_GAME_TYPES = {g: _game_type(g) for g in SHORT_NAMES}


def _game_class(game: str) -> type[SheepfoldGame]:
    """``game``'s OpenSpiel game class (``ShaveASheepGame``), made here for a game that has
    none written out."""
    name = f"{game_spec(game).camel_name}Game"
    found = globals().get(name)
    if found is None:
        found = type(name, (SheepfoldGame,), {"game_name": game})
        globals()[name] = found
    cls: type[SheepfoldGame] = found
    assert cls.game_name == game
    return cls


_CLASSES = {g: _game_class(g) for g in SHORT_NAMES}


def register() -> None:
    """Register every game with pyspiel (done at import; calling again does nothing)."""
    known = set(pyspiel.registered_names())
    for g, short in SHORT_NAMES.items():
        if short not in known:
            pyspiel.register_game(_GAME_TYPES[g], _CLASSES[g])


def sheepfold_game(game: pyspiel.Game) -> SheepfoldGame:
    """The sheepfold game under ``game``: itself, or the one a transform wraps
    (``zerosum(game=python_shave_a_sheep(...))``: OpenSpiel's wrapper keeps its parameters)."""
    if isinstance(game, SheepfoldGame):
        return game
    params = game.get_parameters()
    inner = params.get("game") if isinstance(params, Mapping) else None
    if not isinstance(inner, Mapping) or "name" not in inner:
        raise ValueError(f"{game} is not a sheepfold game nor a transform of one")
    inner = dict(inner)
    found = pyspiel.load_game(str(inner.pop("name")), inner)
    return sheepfold_game(found)


class SheepfoldBot(pyspiel.Bot):  # type: ignore[misc]
    """A sheepfold bot (:func:`sheepfold.bots.make_bot`: ``"random"``, ``"greedy"``,
    ``"expert:iterations=200"``...) as an OpenSpiel ``pyspiel.Bot``, so that OpenSpiel's tools
    (``evaluate_bots``, its arenas) can play it against its own bots.

    It sees what the sheepfold bot sees, ``observe(player)``, of the position the OpenSpiel
    state shows; a state of a transformed game (``zerosum(...)``), which has no engine state,
    is replayed from its history. It keeps no memory of its own between steps, so
    ``restart_at`` and ``inform_action`` have nothing to do."""

    def __init__(self, game: pyspiel.Game, bot: str, player: int, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        from sheepfold.bots import make_bot

        self._game = sheepfold_game(game)
        engine = self._game.engine
        if not 0 <= player < engine.num_players:
            raise ValueError(f"player must be 0..{engine.num_players - 1}, not {player}")
        self.player = player
        self.bot = make_bot(bot, engine, player, seed)
        self._replayed: tuple[list[int], State] | None = None

    def _engine_state(self, state: pyspiel.State) -> State:
        if isinstance(state, SheepfoldState):
            return state.engine_state
        history = list(state.history())
        if self._replayed is not None and history[: len(self._replayed[0])] == self._replayed[0]:
            done, s = self._replayed
            s = s.clone()
        else:
            done, s = [], self._game.initial_engine_state.clone()
        for a in history[len(done) :]:
            s.apply(a)
        self._replayed = (history, s)
        return s

    def step(self, state: pyspiel.State) -> int:
        s = self._engine_state(state)
        if s.current_player() != self.player:
            raise ValueError(
                f"player {self.player}'s bot asked to act at {s.current_player()}'s turn"
            )
        return int(self.bot.act(s.observe(self.player)))

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass


def as_pyspiel_bot(
    game: pyspiel.Game, bot: str, player: int, seed: int | None = None
) -> SheepfoldBot:
    """``as_pyspiel_bot(game, "greedy", 1)``: seat ``player``'s sheepfold bot for OpenSpiel
    (:class:`SheepfoldBot`; ``game`` may be a transform such as ``zerosum(game=...)``)."""
    return SheepfoldBot(game, bot, player, seed)


def game_string(game: str, players: int = 2, **options: Any) -> str:
    """An OpenSpiel game string from Python values (lists joined with ``+``)."""
    short = SHORT_NAMES.get(game, game)
    parts = [f"players={int(players)}"]
    for k, v in options.items():
        if isinstance(v, Mapping):  # dog_swaps={"bobtail": [1, 2, 3, 4]}
            v = "+".join(
                f"{b}:{'/'.join(str(x) for x in (c if isinstance(c, (list, tuple)) else [c]))}"
                for b, c in v.items()
            )
        elif isinstance(v, (list, tuple)):
            sep = "/" if all(isinstance(x, (int, float)) for x in v) else "+"
            v = sep.join(str(x) for x in v)
        elif isinstance(v, bool):
            v = "true" if v else "false"
        parts.append(f"{k}={v}")
    return f"{short}({','.join(parts)})"


def load_game(game: str, players: int = 2, **options: Any) -> pyspiel.Game:
    """``load_game("shave-a-sheep", players=3, variants=["howling-wolf"], max_turns=500)``."""
    register()
    return pyspiel.load_game(game_string(game, players, **options))


register()

__all__ = [
    "DEFAULT_MAX_TURNS",
    "SHORT_NAMES",
    "DollyCrushGame",
    "ShaveASheepGame",
    "SheepfoldGame",
    "SheepfoldObserver",
    "SheepfoldBot",
    "SheepfoldState",
    "as_pyspiel_bot",
    "engine_game",
    "sheepfold_game",
    "game_string",
    "load_game",
    "register",
]
