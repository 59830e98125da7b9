"""A conformance checker for sheepfold games (cf. OpenSpiel's ``random_sim_test``, pgx's ``api_test``).

:func:`check_game` plays random games and checks, at every step, what the protocol promises::

    from sheepfold.games import make
    from sheepfold.core.conformance import check_game
    report = check_game(make("shave-a-sheep", players=3, variants=["cutting-costs"]), num_games=20)

A broken promise raises :class:`ConformanceError` (an ``AssertionError``) whose ``check`` names
the promise (``"legal-sorted"``, ``"illegal-unchanged"``, ``"clone-independent"``, ...), with the
game number, the step and the state's history so the failure can be reproduced.

The checks
    * ``player``: ``current_player()`` is a seat, CHANCE or TERMINAL, and agrees with
      ``is_chance_node`` / ``is_terminal``.
    * ``legal-sorted``: legal actions are sorted, distinct ints, non-empty before the end, empty
      at the end, and inside ``info.num_distinct_actions`` (decisions).
    * ``legal-reason``: every legal action has ``illegal_reason(a) is None``, and a name that
      ``string_to_action`` parses back.
    * ``illegal-rejected`` / ``illegal-unchanged``: random out-of-range and illegal ids (and
      non-int values) make ``illegal_reason`` give a sentence and ``apply`` raise
      ``IllegalAction`` without changing ``snapshot()``.
    * ``chance``: chance outcomes are the legal actions, each with a probability > 0, summing to 1;
      ``sample_chance()`` (with and without an rng) returns one of them.
    * ``conservation``: Dolly Crush: flock + deck + waiting + collected = the deck's size;
      Shave a Sheep: middle + sheep + piles = the wool of the rules; no sheep above its cap.
    * ``no-line``: no line in the Dolly Crush flock when a turn starts (a dog card is due).
    * ``scores``: ``scores()`` is the recount (Dolly: card points; Shave: safe piles); outcome,
      winners and returns agree (winners = the top scores; returns sum to 1 at the end).
    * ``clone-independent``: a clone shares no mutable part with its original, equals it, and
      playing on the clone never changes the original.
    * ``observe``: every seat's view is JSON-ready, has the protocol's keys, never holds the deck
      order or a seed, and does not change when only hidden things (deck order, seed) change.
    * ``determinize``: at a decision, ``game.determinize(observe(seat))`` shows the same view
      and the same legal actions (what a fair bot searches on).
    * ``history``: every ``apply`` adds exactly one ``(seat or CHANCE, action)`` entry.
    * ``determinism``: replaying the history on a new state with the same seed gives an equal
      snapshot; a second game with the same seed and the same decisions is identical.
    * ``record``: at move boundaries and at the end, ``to_record`` -> JSON -> ``replay``
      reproduces the state (snapshot) and the replay summary.
    * ``termination``: a game ends within ``max_steps``.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sheepfold.core.protocol import CHANCE, TERMINAL, Game, IllegalAction, State
from sheepfold.core.registry import game_spec

REQUIRED_VIEW_KEYS = ("game", "seat", "to_move", "finished", "scores", "winners", "legal_actions")
HIDDEN_KEYS = ("deck", "seed", "initial_deck", "draws", "returning", "rng")


class ConformanceError(AssertionError):
    """A broken promise of the protocol; ``check`` names it."""

    def __init__(
        self,
        check: str,
        message: str,
        *,
        game: int | None = None,
        step: int | None = None,
        history: Any = None,
    ) -> None:
        where = []
        if game is not None:
            where.append(f"game {game}")
        if step is not None:
            where.append(f"step {step}")
        text = f"[{check}] {message}" + (f" ({', '.join(where)})" if where else "")
        if history is not None:
            text += f"\nhistory: {list(history)}"
        super().__init__(text)
        self.check = check
        self.game = game
        self.step = step


@dataclass
class ConformanceReport:
    """What :func:`check_game` played: counts, per check, of how often it ran."""

    games: int = 0
    steps: int = 0
    decisions: int = 0
    chance_events: int = 0
    terminal: int = 0
    truncated: int = 0
    checks: dict[str, int] = field(default_factory=dict)

    def count(self, check: str) -> None:
        self.checks[check] = self.checks.get(check, 0) + 1


# -- per-game knowledge (the generic protocol cannot know what is conserved): the game's spec
def _game_invariants(state: State) -> list[tuple[str, str]]:
    """``(check, failure message)`` pairs for the game-specific invariants that fail."""
    return game_spec(state.game.name).invariants(state)


def _hide_variant(state: State, rng: random.Random) -> State | None:
    """A copy of ``state`` that differs only in what no seat may see (deck order, seed)."""
    return game_spec(state.game.name).hidden_variant(state, rng)


def _deck_orders(state: State) -> list[list[str]]:
    return game_spec(state.game.name).deck_orders(state)


def _move_boundary(state: State) -> bool:
    """Whether ``to_record`` captures the whole state (no turn in progress, no draw pending)."""
    return game_spec(state.game.name).move_boundary(state)


# -- the checker ----------------------------------------------------------------------------
class _Checker:
    def __init__(
        self,
        game: Game,
        seed: int,
        report: ConformanceReport,
        *,
        illegal_probes: int,
        chance_rng_share: float,
        record_share: float,
    ) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.report = report
        self.illegal_probes = illegal_probes
        self.chance_rng_share = chance_rng_share
        self.record_share = record_share
        self.game_no = 0
        self.step = 0
        self.state: State | None = None

    def fail(self, check: str, message: str) -> ConformanceError:
        hist = self.state.history if self.state is not None else None
        return ConformanceError(check, message, game=self.game_no, step=self.step, history=hist)

    def expect(self, ok: bool, check: str, message: str | Callable[[], str]) -> None:
        self.report.count(check)
        if not ok:
            raise self.fail(check, message() if callable(message) else message)

    # -- one state ---------------------------------------------------------------------------
    def check_state(self, s: State) -> list[int]:
        """Every check of one state (its player, legal actions, chance, illegal actions,
        results, invariants, views, determinization, clones); returns its legal actions."""
        g = self.game
        p = s.current_player()
        self.expect(
            p in (CHANCE, TERMINAL) or 0 <= p < g.num_players, "player", f"current_player() = {p}"
        )
        self.expect(
            s.is_chance_node() == (p == CHANCE) and s.is_terminal() == (p == TERMINAL),
            "player",
            "is_chance_node / is_terminal disagree with current_player",
        )
        legal = self.check_legal(s, p)
        self.check_names(s, legal)
        self.check_chance(s, p, legal)
        self.check_illegal(s, legal)
        self.check_results(s)
        for check, msg in _game_invariants(s):
            self.expect(False, check, msg)
        for check in ("conservation", "scores", "no-line"):
            self.report.count(check)
        self.check_views(s)
        self.check_determinize(s, legal)
        self.check_clone(s, legal)
        return legal

    def check_legal(self, s: State, p: int) -> list[int]:
        """The legal actions of ``s`` (``p`` to move): ints, sorted and distinct, in the game's
        range, none at the end of the game and some before it."""
        g = self.game
        legal = s.legal_actions()
        self.expect(
            all(type(a) is int for a in legal),
            "legal-sorted",
            lambda: f"legal actions are not all ints: {legal!r}",
        )
        self.expect(
            legal == sorted(set(legal)),
            "legal-sorted",
            lambda: f"legal actions not sorted and distinct: {legal}",
        )
        if p == TERMINAL:
            self.expect(legal == [], "legal-sorted", f"a finished game lists actions {legal}")
        else:
            self.expect(bool(legal), "legal-sorted", "no legal action before the end of the game")
        if p >= 0:
            self.expect(
                all(0 <= a < g.info.num_distinct_actions for a in legal),
                "legal-sorted",
                lambda: f"an action id outside 0..{g.info.num_distinct_actions - 1}: {legal}",
            )
        return legal

    def check_names(self, s: State, legal: list[int]) -> None:
        """Every legal action has no illegal reason and a name that parses back to it."""
        for a in legal:
            reason = s.illegal_reason(a)
            self.expect(reason is None, "legal-reason", f"legal action {a} has reason {reason!r}")
            text = s.action_to_string(a)
            self.expect(
                isinstance(text, str) and bool(text), "legal-reason", f"action {a} has no name"
            )
            try:
                back = s.string_to_action(text)
            except IllegalAction as e:
                raise self.fail("legal-reason", f"'{text}' does not parse back: {e}") from None
            self.expect(back == a, "legal-reason", f"'{text}' parses to {back}, not {a}")

    def check_chance(self, s: State, p: int, legal: list[int]) -> None:
        """At a chance node: the outcomes are the legal actions, each with a chance, summing to
        1, no more than the game declares, and sampling gives one; elsewhere: no outcomes."""
        g = self.game
        if p == CHANCE:
            outs = s.chance_outcomes()
            self.expect(
                [a for a, _ in outs] == legal,
                "chance",
                f"chance outcomes {outs} are not the legal actions {legal}",
            )
            self.expect(
                all(pr > 0 for _, pr in outs), "chance", f"an outcome without chance: {outs}"
            )
            self.expect(
                math.isclose(sum(pr for _, pr in outs), 1.0, abs_tol=1e-9),
                "chance",
                f"probabilities sum to {sum(pr for _, pr in outs)}",
            )
            self.expect(
                len(outs) <= g.info.max_chance_outcomes,
                "chance",
                f"{len(outs)} outcomes, more than info.max_chance_outcomes",
            )
            self.expect(s.sample_chance() in legal, "chance", "sample_chance() is not an outcome")
            self.expect(
                s.sample_chance(random.Random(self.rng.random())) in legal,
                "chance",
                "sample_chance(rng) is not an outcome",
            )
        else:
            self.expect(s.chance_outcomes() == [], "chance", "chance outcomes at a decision")

    def check_determinize(self, s: State, legal: list[int]) -> None:
        p = s.current_player()
        seat = p if p >= 0 else 0
        if p == CHANCE:
            return  # bots decide at decision points only
        view = s.observe(seat)
        d = self.game.determinize(view, seed=self.rng.randrange(2**31))
        self.expect(
            json.dumps(d.observe(seat), sort_keys=True) == json.dumps(view, sort_keys=True),
            "determinize",
            f"determinize(observe({seat})) shows another position",
        )
        self.expect(
            d.legal_actions() == legal,
            "determinize",
            "a determinized state has other legal actions",
        )
        for _check, msg in _game_invariants(d):
            self.expect(False, "determinize", f"determinized state: {msg}")

    def check_illegal(self, s: State, legal: list[int]) -> None:
        before = s.snapshot()
        hist_len = len(s.history)
        n = self.game.info.num_distinct_actions
        candidates = [a for a in range(-3, n + 3) if a not in legal]
        probes: list[Any] = self.rng.sample(candidates, min(self.illegal_probes, len(candidates)))
        probes += [self.rng.randrange(-(2**40), 2**40), 10**6]
        probes += [self.rng.choice([None, "1", 1.5, True, [0]])]
        for a in probes:
            if a in legal and type(a) is int:
                continue
            reason = s.illegal_reason(a)
            self.expect(
                isinstance(reason, str) and bool(reason),
                "illegal-rejected",
                f"illegal action {a!r} has no reason",
            )
            try:
                s.apply(a)
            except IllegalAction:
                pass
            else:
                raise self.fail("illegal-rejected", f"apply({a!r}) did not raise IllegalAction")
            self.expect(
                s.snapshot() == before and len(s.history) == hist_len,
                "illegal-unchanged",
                f"apply({a!r}) was refused but changed the state",
            )

    def check_results(self, s: State) -> None:
        n = self.game.num_players
        scores = s.scores()
        self.expect(len(scores) == n, "scores", f"{len(scores)} scores for {n} seats")
        out = s.outcome()
        ret = s.returns()
        if not s.is_terminal():
            self.expect(
                out is None and s.winners() == [] and ret == [0.0] * n,
                "scores",
                "a result before the end",
            )
            return
        self.expect(out is not None, "scores", "no outcome at the end")
        assert out is not None
        self.expect(list(out.scores) == scores, "scores", "outcome.scores != scores()")
        if out.truncated:
            self.report.truncated += 1
            self.expect(out.winners == (), "scores", "a truncated game names winners")
        else:
            best = max(scores)
            self.expect(
                list(out.winners) == [i for i in range(n) if scores[i] == best],
                "scores",
                f"winners {out.winners} are not the top scores {scores}",
            )
            k = len(out.winners)
            self.expect(
                ret == [1 / k if i in out.winners else 0.0 for i in range(n)],
                "scores",
                f"returns {ret} are not 1/k shares",
            )
        self.expect(math.isclose(sum(ret), 1.0), "scores", f"returns sum to {sum(ret)}")

    def check_views(self, s: State) -> None:
        other = _hide_variant(s, self.rng)
        orders = _deck_orders(s)
        for seat in [None, *range(self.game.num_players)]:
            view = s.observe(seat)
            try:
                text = json.dumps(view, sort_keys=True)
            except (TypeError, ValueError) as e:
                raise self.fail("observe", f"view of seat {seat} is not JSON-ready: {e}") from None
            missing = [k for k in REQUIRED_VIEW_KEYS if k not in view]
            self.expect(not missing, "observe", f"view of seat {seat} misses {missing}")
            hidden = _find_keys(view, HIDDEN_KEYS)
            self.expect(not hidden, "observe", f"view of seat {seat} shows {hidden}")
            self.expect(
                not any(_contains_list(view, o) for o in orders),
                "observe",
                f"view of seat {seat} holds the deck order",
            )
            if other is not None:
                self.expect(
                    json.dumps(other.observe(seat), sort_keys=True) == text,
                    "observe",
                    f"view of seat {seat} changes with the hidden deck order or seed",
                )

    def check_clone(self, s: State, legal: list[int]) -> None:
        before = s.snapshot()
        c = s.clone()
        self.expect(c is not s and type(c) is type(s), "clone-independent", "clone() is no copy")
        self.expect(
            c.snapshot() == before and c == s,
            "clone-independent",
            "a clone differs from its original",
        )
        shared = _shared_mutables(s, c)
        self.expect(not shared, "clone-independent", f"clone shares mutable {shared}")
        if legal:
            c.apply(self.rng.choice(legal))
            while not c.is_terminal() and self.rng.random() < 0.7:
                c.apply_unchecked(self.rng.choice(c.legal_actions()))
            self.expect(
                s.snapshot() == before,
                "clone-independent",
                "playing on a clone changed the original",
            )

    # -- whole games -------------------------------------------------------------------------
    def play(self, seed: int, max_steps: int) -> State:
        g = self.game
        s = g.new_initial_state(seed=seed)
        self.state = s
        decisions: list[tuple[int, int]] = []  # (step, action) of every non-top chance / decision
        self.step = 0
        while True:
            legal = self.check_state(s)
            if _move_boundary(s) and (s.is_terminal() or self.rng.random() < self.record_share):
                self.check_record(s)
            if s.is_terminal():
                break
            if self.step >= max_steps:
                raise self.fail("termination", f"the game did not end within {max_steps} steps")
            if s.is_chance_node():
                self.report.chance_events += 1
                if self.rng.random() < self.chance_rng_share:
                    a = s.sample_chance(random.Random(self.rng.random()))
                else:
                    a = s.sample_chance()
            else:
                self.report.decisions += 1
                a = self.rng.choice(legal)
            decisions.append((self.step, a))
            n = len(s.history)
            s.apply(a)
            self.expect(
                len(s.history) == n + 1 and s.history[-1][1] == a,
                "history",
                "apply did not add exactly one history entry",
            )
            self.step += 1
            self.report.steps += 1
        self.report.terminal += 1
        self.check_determinism(s, seed)
        return s

    def check_determinism(self, final: State, seed: int) -> None:
        again = self.game.new_initial_state(seed=seed)
        for _, a in final.history:
            again.apply(a)
        self.expect(
            again.snapshot() == final.snapshot(),
            "determinism",
            "the same seed and the same actions gave a different state",
        )
        # Same seed + same decisions, chance from the state's own randomness, twice over.
        runs = []
        for _ in range(2):
            r = self.game.new_initial_state(seed=seed)
            pick = random.Random(seed * 7 + 1)
            while not r.is_terminal() and len(r.history) < 100_000:
                if r.is_chance_node():
                    r.apply(r.sample_chance())
                else:
                    r.apply(pick.choice(r.legal_actions()))
            runs.append(r.snapshot())
        self.expect(runs[0] == runs[1], "determinism", "two seeded games differ")

    def check_record(self, s: State) -> None:
        from sheepfold.core.records import replay, summary, to_record

        rec = to_record(s)
        text = json.dumps(rec)
        result = replay(text)
        self.expect(
            result.error is None,
            "record",
            lambda: f"the record of a legal game does not replay: {result.error}",
        )
        self.expect(
            result.state.snapshot() == s.snapshot(),
            "record",
            "replaying the record gives another state",
        )
        self.expect(
            summary(result.state, result.moves_applied) == summary(s, len(rec["moves"])),
            "record",
            "replaying the record gives another summary",
        )


#: the values that hold nothing: no walk into them, no path written for them
_ATOMS = frozenset({int, float, bool, str, bytes, type(None)})


def _find_keys(obj: Any, keys: tuple[str, ...], path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            where = f"{path}.{k}" if path else str(k)
            if isinstance(k, str) and k.lower() in keys:
                found.append(where)
            if type(v) not in _ATOMS:
                found += _find_keys(v, keys, where)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if type(v) not in _ATOMS:
                found += _find_keys(v, keys, f"{path}[{i}]")
    return found


def _contains_list(obj: Any, target: list[str]) -> bool:
    if isinstance(obj, list):
        if obj == target:
            return True
        return any(_contains_list(v, target) for v in obj)
    if isinstance(obj, dict):
        return any(_contains_list(v, target) for v in obj.values())
    return False


def _attrs(state: State) -> dict[str, Any]:
    names: list[str] = []
    for cls in type(state).__mro__:
        names += list(getattr(cls, "__slots__", ()))
    out = {
        n: getattr(state, n) for n in names if n not in ("game", "__dict__") and hasattr(state, n)
    }
    out.update({k: v for k, v in getattr(state, "__dict__", {}).items() if k != "game"})
    return out


def _holds_something(v: Any) -> bool:
    """Whether ``v`` is or may hold a mutable value: not an atom, nor a tuple of atoms (a
    state's history is a long list of those)."""
    t = type(v)
    return t not in _ATOMS and not (t is tuple and _ATOMS.issuperset(map(type, v)))


def _mutables(obj: Any, path: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(obj, (list, dict, set, bytearray)):
        out.append((path, obj))
    if isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            if _holds_something(v):
                out += _mutables(v, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if _holds_something(v):
                out += _mutables(v, f"{path}[{k!r}]")
    return out


def _shared_mutables(a: State, b: State) -> list[str]:
    ma = {id(o): p for name, v in _attrs(a).items() for p, o in _mutables(v, name)}
    return [p for name, v in _attrs(b).items() for p, o in _mutables(v, name) if id(o) in ma]


def check_game(
    game: Game,
    num_games: int = 10,
    seed: int = 0,
    *,
    max_steps: int = 20_000,
    illegal_probes: int = 3,
    chance_rng_share: float = 0.25,
    record_share: float = 0.1,
) -> ConformanceReport:
    """Play ``num_games`` random games of ``game`` checking every promise of the protocol.

    Chance is mostly resolved by the state's own seeded randomness and sometimes
    (``chance_rng_share``) by another outcome, so records with explicit draws are exercised too.
    Records are round-tripped at the end of every game and at a share (``record_share``) of the
    move boundaries. Raises :class:`ConformanceError` on the first broken promise.
    """
    report = ConformanceReport()
    checker = _Checker(
        game,
        seed,
        report,
        illegal_probes=illegal_probes,
        chance_rng_share=chance_rng_share,
        record_share=record_share,
    )
    for i in range(num_games):
        checker.game_no = i
        checker.play(seed * 1_000_003 + i, max_steps)
        report.games += 1
    return report


__all__ = ["ConformanceError", "ConformanceReport", "check_game"]
