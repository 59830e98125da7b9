"""Depth, luck and kingmaking: how much a game rewards skill (``sheepfold lab depth``).

Definitions (docs/lab.md, "Depth, luck and kingmaking", beside Ludii's and TAG's):

- **Skill ladder.** For bot levels ordered from weak to strong, every level plays the level below
  it and ``random`` head to head (two players, the seats swapped game by game, game ``i`` of every
  match-up seeded ``SEED + i``): the stronger side's **win share** (1 a win, 1/2 a tie, 0 a loss;
  a truncated game 1/2) with Wilson's 95% interval, the shares summed as wins (a tie half a
  win; unlike mean ± 1.96 standard errors it does not shrink to a point at 100%).
  A ladder with every step above 50% has depth: each level of skill still pays.
- **Upsets.** How often the stronger level (the one named higher on the ladder) loses a game
  outright: the share of games where its win share is 0, with Wilson's 95% interval.
- **Luck share.** The share of the outcome variance that *who plays* does not explain: ``y`` is
  seat 0's win share in each game of every match-up, grouped by (match-up, which level sits in
  seat 0), so that the groups differ by skill and by the seat; ``1 - ω²`` of that one-way
  analysis of variance
  (``ω² = (SS_between - (k-1) MS_within) / (SS_total + MS_within)``, clipped to 0..1), with a
  95% percentile interval from 200 bootstrap resamples of the games within each group (seeded).
  What it leaves is the dice or the deck, and the bots' own coin flips (none for deterministic
  levels such as greedy and perfect).
- **Kingmaking** (3-4 players, through the rules engine), without hindsight. At a decision, a
  seat **cannot win** when, from that position, a sound bound on the score it may still reach is
  below another seat's score (:mod:`sheepfold.lab.hopeless`: Shave a Sheep, its pile plus all
  the wool still in play; Dolly Crush, its score plus what the cards left could bring it). It
  **decides** who wins when, at the first decision of a turn of its own that offers a choice
  (two legal actions or more) while it cannot win,
  playing another legal action instead of the one its bot chose gives the game another single
  winner: both the chosen action and up to ``alternatives`` others (drawn by a seeded
  generator) are played out from that position by fresh bots of the same seeds, on the same
  chance (the state's own seeded dice or deck): common random numbers, so only the choice
  differs. The **kingmaking rate** is the share of games with a single winner in which some
  seat decided so (at most ``checks`` of its turns tried per game), with Wilson's 95% interval;
  the **out rate** is the share of those games where some seat could not win at a turn of its
  own. Cost: a game plus at most ``checks * (1 + alternatives)`` play-outs of its rest (18 with
  the defaults), on local processes or Ray (:func:`kingmaking`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from sheepfold.core.protocol import CHANCE, TERMINAL, SheepfoldError

#: 95% two-sided
Z = 1.959963984540054
#: bootstrap resamples of the luck share's interval, and their seed
BOOTSTRAP = 200
BOOTSTRAP_SEED = 12345
#: out turns tried per game at most, and other actions tried at each (each costs the rest of a
#: game)
CHECKS = 6
ALTERNATIVES = 2


class DepthError(SheepfoldError):
    """A depth report that cannot run as asked."""


@dataclass(frozen=True)
class Share:
    """A share with its 95% interval, over ``games`` games."""

    value: float
    lo: float
    hi: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"mean": _r(self.value), "ci": [_r(self.lo), _r(self.hi)], "games": self.games}


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


def wilson(k: float, g: int) -> Share:
    """``k`` of ``g`` with Wilson's 95% score interval (``k`` may hold halves: ties)."""
    if g == 0:
        return Share(math.nan, math.nan, math.nan, 0)
    p = k / g
    d = 1 + Z * Z / g
    c = (p + Z * Z / (2 * g)) / d
    h = Z * math.sqrt(p * (1 - p) / g + Z * Z / (4 * g * g)) / d
    return Share(p, max(0.0, c - h), min(1.0, c + h), g)


def omega_squared(groups: Sequence[np.ndarray]) -> float:
    """ω² of a one-way analysis of variance of ``groups`` (clipped to 0..1; nan without
    variance or with fewer than two groups)."""
    groups = [g for g in groups if len(g)]
    k = len(groups)
    n = sum(len(g) for g in groups)
    if k < 2 or n <= k:
        return math.nan
    allv = np.concatenate(groups)
    grand = float(allv.mean())
    ss_total = float(((allv - grand) ** 2).sum())
    ss_between = sum(len(g) * (float(g.mean()) - grand) ** 2 for g in groups)
    ms_within = (ss_total - ss_between) / (n - k)
    if ss_total + ms_within == 0:
        return math.nan
    w2 = (ss_between - (k - 1) * ms_within) / (ss_total + ms_within)
    return min(1.0, max(0.0, w2))


def luck_share(groups: Sequence[np.ndarray]) -> Share:
    """``1 - ω²`` of ``groups`` with its bootstrap 95% interval (resampled within groups)."""
    value = 1 - omega_squared(groups)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    boots = []
    for _ in range(BOOTSTRAP):
        boots.append(1 - omega_squared([g[rng.integers(0, len(g), len(g))] for g in groups]))
    boots_a = np.array([b for b in boots if not math.isnan(b)])
    n = sum(len(g) for g in groups)
    if math.isnan(value) or not len(boots_a):
        return Share(value, math.nan, math.nan, n)
    return Share(value, float(np.quantile(boots_a, 0.025)), float(np.quantile(boots_a, 0.975)), n)


# -- the ladder ----------------------------------------------------------------------------------
@dataclass
class Step:
    """One match-up of the ladder: ``strong`` against ``weak``."""

    strong: str
    weak: str
    kind: str  # "below" (the level below) or "random"
    win_share: Share
    upsets: Share
    #: seat 0's win share in the games where the strong level sits in seat 0, and in the others
    by_seat: list[np.ndarray] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "strong": self.strong,
            "weak": self.weak,
            "against": self.kind,
            "win_share": self.win_share.to_json(),
            "upsets": self.upsets.to_json(),
        }


@dataclass
class Ladder:
    game: str
    ruleset: str
    levels: list[str]
    steps: list[Step]
    luck: Share

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.ruleset,
            "levels": self.levels,
            "steps": [s.to_json() for s in self.steps],
            "luck_share": self.luck.to_json(),
        }


def matchups(levels: Sequence[str]) -> list[tuple[str, str, str]]:
    """(strong, weak, kind) for every level against the level below, then against ``random``
    (when that is not the level below)."""
    if len(levels) < 2:
        raise DepthError("give at least two levels, weakest first (--level random --level greedy)")
    if len(set(levels)) != len(levels):
        raise DepthError("a level is named twice")
    out = [(levels[i], levels[i - 1], "below") for i in range(1, len(levels))]
    out += [
        (levels[i], "random", "random")
        for i in range(1, len(levels))
        if "random" not in (levels[i], levels[i - 1])
    ]
    return out


def strong_shares(table: Any, strong: str) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the win share of the seat ``strong`` plays, and that seat."""
    from sheepfold.lab.metrics import game_arrays

    d = game_arrays(table)
    bots = np.asarray(d["bots"], dtype=object)
    seat = np.array([list(row).index(strong) for row in bots], dtype=np.int64)
    y = d["shares"][np.arange(len(seat)), seat]
    return y.astype(np.float64), seat


def ladder(
    game: str,
    rules: Any,
    ruleset: str,
    levels: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    engine: str = "auto",
    max_turns: int = 1000,
    workers: int | None = None,
    ray: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Ladder:
    """The skill ladder of ``levels`` (weakest first) and the luck share over its games."""
    from sheepfold.lab.runner import make_job, run

    jobs = [
        (
            m,
            make_job(
                game,
                rules,
                ruleset=ruleset,
                players=2,
                bots=[m[0], m[1]],
                rotate=True,
                games=games,
                seed=seed,
                engine=engine,
                max_turns=max_turns,
            ),
        )
        for m in matchups(levels)
    ]  # every match-up checked before one is played
    steps = []
    for (strong, weak, kind), job in jobs:
        if progress is not None:
            progress(f"{strong} against {weak}")
        y, seat = strong_shares(run(job, workers=workers, ray=ray, standings=False), strong)
        steps.append(
            Step(
                strong,
                weak,
                kind,
                wilson(float(y.sum()), len(y)),
                wilson(int((y == 0).sum()), len(y)),
                [y[seat == 0], 1 - y[seat == 1]],  # seat 0's share: strong, weak in it
            )
        )
    luck = luck_share([g for s in steps for g in s.by_seat])
    return Ladder(game, ruleset, list(levels), steps, luck)


# -- kingmaking ----------------------------------------------------------------------------------
@dataclass
class Kingmaking:
    players: int
    bots: list[str]
    games: int  # finished with a single winner
    out_games: int  # with a seat that could not win at a turn of its own
    decided_games: int  # in which such a seat decided the winner
    tried: int  # out turns replayed
    rate: Share
    out_rate: Share

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rate"], data["out_rate"] = self.rate.to_json(), self.out_rate.to_json()
        return data


def _bots(job: Any, game: Any, i: int) -> list[Any]:
    from sheepfold.bots import make_bot
    from sheepfold.lab.runner import bot_seed

    seed = job.game_seed(i)
    return [
        make_bot(spec, game, s, seed=bot_seed(seed, s)) for s, spec in enumerate(job.seat_bots(i))
    ]


def _finish(state: Any, bots: list[Any], limit: int) -> Any:
    """Play ``state`` to its end with ``bots`` (at most ``limit`` more steps)."""
    for _ in range(limit):
        p = state.current_player()
        if p == TERMINAL:
            break
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance())
        else:
            state.apply(bots[p].act(state.observe(p)))
    return state


def _single_winner(state: Any) -> int | None:
    w = state.winners() if state.is_terminal() else []
    return w[0] if len(w) == 1 else None


#: steps one game may take (a safety bound: the rules' own limits end games long before)
MAX_STEPS = 200_000


@dataclass(frozen=True)
class KingGame:
    """One game's part of the kingmaking rate."""

    single: bool  # it ended with a single winner
    out: bool  # a seat could not win at a choice of a turn of its own
    decided: bool  # such a seat's other action gave another single winner
    tried: int  # out turns played out


def kingmaking_game(job: Any, i: int, checks: int, alternatives: int) -> KingGame:
    """Game ``i`` of ``job`` played, and its out turns tried (the module's definitions)."""
    from sheepfold.lab.hopeless import out_seats
    from sheepfold.lab.runner import _turn_start

    game = job.make_game(i)
    bots = _bots(job, game, i)
    state = game.new_initial_state(seed=job.game_seed(i))
    chances: list[tuple[Any, Any]] = []  # (the position, the action the bot chose there)
    pending = False
    for _ in range(MAX_STEPS):
        p = state.current_player()
        if p == TERMINAL:
            break
        if _turn_start(state):
            pending = True
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance())
            continue
        action = bots[p].act(state.observe(p))
        if pending and len(state.legal_actions()) > 1:
            pending = False  # the turn's first choice: is its mover out, from here on?
            if out_seats(state)[p]:
                chances.append((state.clone(), action))
        state.apply(action)
    if _single_winner(state) is None:
        return KingGame(False, False, False, 0)
    rng = random.Random(job.game_seed(i) * 31 + 7)
    tried = 0
    for before, played in chances[:checks]:
        others = [a for a in before.legal_actions() if a != played]
        tried += 1

        def after(action: Any, before: Any = before) -> int | None:
            branch = before.clone()
            branch.apply(action)
            return _single_winner(_finish(branch, _bots(job, game, i), MAX_STEPS))

        chosen = after(played)
        picks = rng.sample(others, min(alternatives, len(others)))
        if any((w := after(a)) is not None and w != chosen for a in picks):
            return KingGame(True, True, True, tried)
    return KingGame(True, bool(chances), False, tried)


def kingmaking_chunk(job: Any, indices: list[int], checks: int, alternatives: int) -> list[Any]:
    """:func:`kingmaking_game` of each game of ``indices`` (a worker's task)."""
    return [(i, kingmaking_game(job, i, checks, alternatives)) for i in indices]


def kingmaking(
    job: Any,
    checks: int = CHECKS,
    alternatives: int = ALTERNATIVES,
    *,
    workers: int | None = 1,
    ray: str | None = None,
) -> Kingmaking:
    """The kingmaking rate of ``job`` (3-4 players, through the rules engine): see the module's
    definitions. ``workers`` local processes (None: every core) or ``ray`` (``"local"`` or a
    cluster's address), as :func:`sheepfold.lab.runner.run`: the same games, the same rate."""
    from sheepfold.lab.hopeless import has_bound
    from sheepfold.lab.runner import map_chunks

    if not 3 <= job.players <= 4:
        raise DepthError("kingmaking needs 3 or 4 players (--players 3)")
    if not has_bound(job.game):
        raise DepthError(f"no bound says who can no longer win at {job.game}")
    results: dict[int, KingGame] = {}

    def collect(chunk: list[Any]) -> None:
        results.update(chunk)

    map_chunks(
        kingmaking_chunk, job, (checks, alternatives), workers=workers, ray=ray, collect=collect
    )
    games = [results[i] for i in range(job.games)]
    counted = sum(g.single for g in games)
    out_games = sum(g.out for g in games)
    decided = sum(g.decided for g in games)
    return Kingmaking(
        job.players,
        list(job.bots),
        counted,
        out_games,
        decided,
        sum(g.tried for g in games),
        wilson(decided, counted),
        wilson(out_games, counted),
    )
