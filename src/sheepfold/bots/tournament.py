"""Tournaments between registered bots of any game, in parallel, with win shares and Elo ratings.

``run_tournament(TournamentConfig(game="dolly-crush", bots=["easy", "hard"], games=1000,
duplicate=True))`` plays every match-up (each combination of ``players`` entrants out of the
entrants given; with as many entrants as seats, a single match-up) ``games`` times and returns a
:class:`TournamentResult`, whose :meth:`~TournamentResult.summary` is a JSON-ready report:

* **win share** per entrant: 1 for a win, 1/k for a k-way tie, 0 for a loss (``state.returns()``);
  a truncated game gives every seat 1/n. The 95% confidence interval is mean +- 1.96 standard
  errors with the *deal* as the unit (in duplicate mode the games of one deal are not
  independent: the same cards, seats rotated);
* **head to head**: for every pair of entrants, the share of the pairwise points (higher final
  score than the other = 1, equal = 1/2) over the games they played together, with its CI;
* **Elo**: a Bradley-Terry model fitted to those pairwise results (ties count half; half a
  pseudo-game each way per pair keeps a 100% record finite), on the Elo scale
  (``400 log10`` of the strength, mean 1500), with a 95% interval from 200 bootstrap resamples of
  the deals;
* **seats**: the win share of each seat (and, for Dolly Crush, its breed): the advantage of
  moving first, or of a dog breed.

Seating: a game ``i`` of a match-up rotates the entrants ``i mod players`` seats, so every
entrant sits in every seat equally often. ``duplicate=True`` plays every deal ``players`` times,
once per rotation, on the same seed (same deck order / die rolls): luck cancels out.

Games run in worker processes (:func:`sheepfold.core.pool.run_pool`), one deal per task;
``workers=1`` plays in this process. Results do not depend on the number of workers: every game's
seed and every bot's seed are derived from the tournament seed, the match-up and the deal.

A *journal* (:class:`Journal`, a JSON-lines file: the configuration, then one line per finished
deal, flushed as it finishes) keeps what was played; ``run_tournament(..., journal=J)`` on a
journal that already holds deals of the same configuration plays only the missing ones (resume).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from sheepfold.core.pool import run_pool
from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.stats import wilson

__all__ = [
    "GameResult",
    "Journal",
    "TournamentConfig",
    "TournamentResult",
    "bradley_terry",
    "run_tournament",
]

JOURNAL_FORMAT = "sheepfold-tournament/1"


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    bots: tuple[str, ...]
    games: int = 100
    players: int = 2
    duplicate: bool = False
    seed: int = 0
    rules: dict[str, Any] | None = None  # rule options (a mapping the game's rules accept)
    breeds: tuple[str, ...] | None = None  # Dolly Crush: one breed per seat
    workers: int | None = None  # None: every core
    max_steps: int = 100_000


@dataclass(frozen=True)
class GameResult:
    matchup: int
    deal: int
    rotation: int
    seats: tuple[int, ...]  # entrant index per seat
    scores: tuple[float, ...]
    shares: tuple[float, ...]
    truncated: bool


def entrant_labels(bots: Sequence[str]) -> list[str]:
    """Unique labels: a bot named twice becomes ``medium#1`` and ``medium#2``."""
    counts: dict[str, int] = {}
    for b in bots:
        counts[b] = counts.get(b, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        if counts[b] > 1:
            seen[b] = seen.get(b, 0) + 1
            out.append(f"{b}#{seen[b]}")
        else:
            out.append(b)
    return out


def _make_game(cfg: TournamentConfig) -> Any:
    from sheepfold.core.registry import game_spec
    from sheepfold.games import make

    options: dict[str, Any] = {}
    if cfg.breeds is not None:
        if not game_spec(cfg.game).breeds:
            raise SheepfoldError("breeds are a Dolly Crush option")
        options["breeds"] = list(cfg.breeds)
    return make(cfg.game, players=cfg.players, rules=cfg.rules, **options)


def matchups(cfg: TournamentConfig) -> list[tuple[int, ...]]:
    n = len(cfg.bots)
    if n < cfg.players:
        raise SheepfoldError(
            f"{n} bot(s) for {cfg.players} seats: name at least as many bots as players "
            "(the same bot may be named twice)"
        )
    return list(itertools.combinations(range(n), cfg.players))


def deals_per_matchup(cfg: TournamentConfig) -> int:
    return math.ceil(cfg.games / cfg.players) if cfg.duplicate else cfg.games


def _seed(*parts: int) -> int:
    return random.Random(":".join(map(str, parts))).randrange(2**31)


def _play_deal(
    cfg: TournamentConfig, m: int, entrants: tuple[int, ...], deal: int
) -> list[GameResult]:
    """Play one deal of a match-up: all rotations in duplicate mode, one otherwise."""
    from sheepfold.bots import make_bot
    from sheepfold.core.play import play_game

    game = _make_game(cfg)
    k = cfg.players
    game_seed = _seed(cfg.seed, m, deal)
    rotations = range(k) if cfg.duplicate else [deal % k]
    out = []
    for rot in rotations:
        seats = tuple(entrants[(s + rot) % k] for s in range(k))
        bots = [
            make_bot(cfg.bots[e], game, seat, _seed(cfg.seed, m, deal, e, 7))
            for seat, e in enumerate(seats)
        ]
        try:
            state = play_game(game, bots, seed=game_seed, max_steps=cfg.max_steps)
            oc = state.outcome()
            truncated = bool(oc is None or oc.truncated)
            scores = tuple(float(x) for x in state.scores())
            shares = tuple(float(x) for x in state.returns())
        except RuntimeError:  # a game that would not end within max_steps
            truncated, scores, shares = True, tuple([0.0] * k), tuple([1.0 / k] * k)
        out.append(GameResult(m, deal, rot, seats, scores, shares, truncated))
    return out


def _play_chunk(
    cfg: TournamentConfig, jobs: list[tuple[int, tuple[int, ...], int]]
) -> list[GameResult]:
    out: list[GameResult] = []
    for m, entrants, deal in jobs:
        out.extend(_play_deal(cfg, m, entrants, deal))
    return out


def validate(cfg: TournamentConfig) -> Any:
    """Check the configuration in this process (clear errors before any worker starts)."""
    from sheepfold.bots import make_bot

    if cfg.games < 1:
        raise SheepfoldError(f"--games must be at least 1, not {cfg.games}")
    game = _make_game(cfg)
    matchups(cfg)
    for b in cfg.bots:
        make_bot(b, game, 0, 0)
    return game


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during a tournament: ``result`` holds the games that finished."""

    def __init__(self, result: TournamentResult) -> None:
        super().__init__()
        self.result = result


class Journal:
    """A tournament's games on disk, a deal per line as it finishes (JSON lines; the first line
    names the configuration). :meth:`open` refuses a file of another tournament and, unless
    resuming, an existing one; a line cut short by a crash is ignored when read back."""

    def __init__(self, path: Path, cfg: TournamentConfig, done: list[GameResult]) -> None:
        self.path = path
        self.cfg = cfg
        self.done = done

    @staticmethod
    def _header(cfg: TournamentConfig) -> dict[str, Any]:
        # the games do not depend on the number of workers: a journal resumes on any
        return {"format": JOURNAL_FORMAT, "config": asdict(replace(cfg, workers=None))}

    @classmethod
    def open(
        cls, path: Path, cfg: TournamentConfig, resume: bool = False, overwrite: bool = False
    ) -> Journal:
        header = json.loads(json.dumps(cls._header(cfg)))  # tuples as lists, as read back
        if path.is_dir():
            raise SheepfoldError(f"{path} is a folder: give a file for the tournament's games")
        if path.exists() and not resume and not overwrite:
            raise SheepfoldError(
                f"{path} exists: add --resume to finish it, or --overwrite to start again"
            )
        if not (resume and path.exists()):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n", encoding="utf-8")
            return cls(path, cfg, [])
        lines = path.read_text(encoding="utf-8").splitlines()
        try:
            old = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            old = None
        if old != header:
            raise SheepfoldError(
                f"{path} holds another tournament (or is not a tournament file): resume needs "
                "the same game, bots, games, players, duplicate mode, seed, rules and breeds"
            )
        done: list[GameResult] = []
        for line in lines[1:]:
            try:
                done += [_result(r) for r in json.loads(line)]
            except (json.JSONDecodeError, TypeError, KeyError):
                continue  # cut short by a crash: that deal is played again
        return cls(path, cfg, done)

    def played(self) -> set[tuple[int, int]]:
        """The (match-up, deal) pairs already played."""
        return {(g.matchup, g.deal) for g in self.done}

    def add(self, results: list[GameResult]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps([asdict(g) for g in results]) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _result(d: dict[str, Any]) -> GameResult:
    return GameResult(
        d["matchup"],
        d["deal"],
        d["rotation"],
        tuple(d["seats"]),
        tuple(d["scores"]),
        tuple(d["shares"]),
        d["truncated"],
    )


def run_tournament(
    cfg: TournamentConfig,
    on_games: Callable[[int], None] | None = None,
    journal: Journal | None = None,
) -> TournamentResult:
    """Play the tournament; ``on_games(k)`` is called as ``k`` more games finish (first with
    the games a resumed ``journal`` already holds). Ctrl-C stops it at once (the workers too)
    and raises :class:`TournamentInterrupted` with the games that finished; with a ``journal``
    they are on disk too, and running again with it plays only the rest."""
    game = validate(cfg)
    played = journal.played() if journal else set()
    jobs = [
        (m, ent, d)
        for d in range(deals_per_matchup(cfg))
        for m, ent in enumerate(matchups(cfg))
        if (m, d) not in played
    ]
    workers = cfg.workers or os.cpu_count() or 1
    results: list[GameResult] = list(journal.done) if journal else []
    if results and on_games:
        on_games(len(results))

    def collect(res: list[GameResult]) -> None:
        if journal:
            journal.add(res)
        results.extend(res)
        if on_games:
            on_games(len(res))

    def result() -> TournamentResult:
        results.sort(key=lambda r: (r.matchup, r.deal, r.rotation))
        breeds = list(getattr(game, "breeds", ())) or None
        return TournamentResult(cfg, entrant_labels(cfg.bots), results, breeds)

    try:
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                collect(_play_chunk(cfg, [job]))
        else:
            # small chunks: progress stays smooth and the pool stays balanced; the first
            # deals one by one, so that progress moves from the first game even with slow bots
            per_chunk = max(1, min(8, len(jobs) // (workers * 8)))
            head = min(len(jobs), 2 * workers)
            chunks = [[j] for j in jobs[:head]] + [
                jobs[i : i + per_chunk] for i in range(head, len(jobs), per_chunk)
            ]
            run_pool(_play_chunk, ((cfg, c) for c in chunks), workers, collect)
    except KeyboardInterrupt:
        raise TournamentInterrupted(result()) from None
    return result()


def total_games(cfg: TournamentConfig) -> int:
    per = deals_per_matchup(cfg) * (cfg.players if cfg.duplicate else 1)
    return per * len(matchups(cfg))


# -- statistics ---------------------------------------------------------------------------------
def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of shares (each in [0, 1]) and its 95% CI, inside [0, 1]: the normal interval
    on the observed spread, or Wilson's when every value is the same (a spread of 0 does not
    mean certainty: 0 wins of 20 is 0-16%, not 0-0%)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = sum(values) / n
    if n == 1:
        return mean, float("nan"), float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var == 0.0:
        return (mean, *wilson(mean * n, n))
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def bradley_terry(
    wins: dict[tuple[int, int], float],
    games: dict[tuple[int, int], float],
    n: int,
    iterations: int = 2000,
) -> list[float]:
    """Elo ratings (mean 1500) from pairwise points ``wins[i, j]`` (i's points against j) over
    ``games[i, j]`` games, by the MM algorithm of Bradley-Terry; ties count half."""
    w = [0.0] * n
    for (i, _j), v in wins.items():
        w[i] += v
    p = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = sum(games.get((i, j), 0.0) / (p[i] + p[j]) for j in range(n) if j != i)
            new.append(w[i] / denom if denom > 0 else p[i])
        g = math.exp(sum(math.log(max(x, 1e-300)) for x in new) / n)
        new = [x / g for x in new]
        delta = max(abs(a - b) for a, b in zip(new, p, strict=False))
        p = new
        if delta < 1e-10:
            break
    elo = [400 * math.log10(max(x, 1e-300)) for x in p]
    mean = sum(elo) / n
    return [1500 + e - mean for e in elo]


@dataclass
class TournamentResult:
    config: TournamentConfig
    labels: list[str]
    games: list[GameResult]
    breeds: list[str] | None = None
    _cache: dict[str, Any] = field(default_factory=dict)

    def _units(self) -> dict[tuple[int, int], list[GameResult]]:
        units: dict[tuple[int, int], list[GameResult]] = {}
        for g in self.games:
            units.setdefault((g.matchup, g.deal), []).append(g)
        return units

    @staticmethod
    def _pair_points(g: GameResult) -> list[tuple[int, int, float]]:
        out = []
        k = len(g.seats)
        for a in range(k):
            for b in range(k):
                if a == b:
                    continue
                if g.truncated or g.scores[a] == g.scores[b]:
                    v = 0.5
                else:
                    v = 1.0 if g.scores[a] > g.scores[b] else 0.0
                out.append((g.seats[a], g.seats[b], v))
        return out

    def _elo(self, units: list[list[GameResult]]) -> list[float]:
        n = len(self.labels)
        wins: dict[tuple[int, int], float] = {}
        games: dict[tuple[int, int], float] = {}
        for unit in units:
            for g in unit:
                for a, b, v in self._pair_points(g):
                    wins[a, b] = wins.get((a, b), 0.0) + v
                    games[a, b] = games.get((a, b), 0.0) + 1
        for a, b in list(games):  # half a pseudo-game each way: a 100% record stays finite
            wins[a, b] = wins.get((a, b), 0.0) + 0.5
            games[a, b] += 1
        return bradley_terry(wins, games, n)

    def summary(self) -> dict[str, Any]:
        """The tournament's results: every entrant's standing (win share, Elo), every pair's head
        to head, every seat's win share; the deal (every game of one matchup and deal) is the
        unit of the confidence intervals. Computed once."""
        if "summary" in self._cache:
            return self._cache["summary"]  # type: ignore[no-any-return]
        unit_list = list(self._units().values())
        cfg = self.config
        out = {
            "game": cfg.game,
            "players": cfg.players,
            "bots": list(cfg.bots),
            "games": len(self.games),
            "deals": len(unit_list),
            "duplicate": cfg.duplicate,
            "seed": cfg.seed,
            "rules": cfg.rules or {},
            "breeds": self.breeds,
            "truncated": sum(g.truncated for g in self.games),
            "standings": self._standings(unit_list),
            "head_to_head": self._head_to_head(unit_list),
            "seats": self._seats(unit_list),
        }
        self._cache["summary"] = out
        return out

    def _standings(self, unit_list: list[list[GameResult]]) -> list[dict[str, Any]]:
        """Every entrant's row, best Elo first (its 95% CI bootstrapped over the deals)."""
        n = len(self.labels)
        # win share per entrant, the deal as the unit
        per_entrant: list[list[float]] = [[] for _ in range(n)]
        scores: list[list[float]] = [[] for _ in range(n)]
        for unit in unit_list:
            acc: dict[int, list[float]] = {}
            for g in unit:
                for seat, e in enumerate(g.seats):
                    acc.setdefault(e, []).append(g.shares[seat])
                    scores[e].append(g.scores[seat])
            for e, v in acc.items():
                per_entrant[e].append(sum(v) / len(v))
        elo = self._elo(unit_list)
        rng = random.Random(self.config.seed)
        boot: list[list[float]] = []
        if len(unit_list) >= 10 and n >= 2:
            for _ in range(200):
                sample = [unit_list[rng.randrange(len(unit_list))] for _ in unit_list]
                boot.append(self._elo(sample))
        standings = []
        for e in range(n):
            m, lo, hi = _mean_ci(per_entrant[e])
            row: dict[str, Any] = {
                "bot": self.labels[e],
                "spec": self.config.bots[e],
                "games": sum(1 for g in self.games if e in g.seats),
                "win_share": m,
                "ci95": [lo, hi],
                "mean_score": sum(scores[e]) / len(scores[e]) if scores[e] else float("nan"),
                "elo": elo[e],
            }
            if boot:
                elos = sorted(b[e] for b in boot)
                row["elo_ci95"] = [elos[4], elos[194]]
            standings.append(row)
        standings.sort(key=lambda r: -r["elo"])
        return standings

    def _head_to_head(self, unit_list: list[list[GameResult]]) -> list[dict[str, Any]]:
        """Every pair of entrants that met: the first's wins, ties, losses and share."""
        n = len(self.labels)
        h2h = []
        for a, b in itertools.combinations(range(n), 2):
            vals: list[float] = []
            wins = ties = losses = 0
            for unit in unit_list:
                pts: list[float] = []
                for g in unit:
                    for x, y, pv in self._pair_points(g):
                        if x == a and y == b:
                            pts.append(pv)
                            wins += int(pv == 1.0)
                            ties += int(pv == 0.5)
                            losses += int(pv == 0.0)
                if pts:
                    vals.append(sum(pts) / len(pts))
            if not vals:
                continue
            m, lo, hi = _mean_ci(vals)
            h2h.append(
                {
                    "bot": self.labels[a],
                    "opponent": self.labels[b],
                    "games": wins + ties + losses,
                    "wins": wins,
                    "ties": ties,
                    "losses": losses,
                    "share": m,
                    "ci95": [lo, hi],
                }
            )
        return h2h

    def _seats(self, unit_list: list[list[GameResult]]) -> list[dict[str, Any]]:
        """Every seat's win share and mean score (and breed)."""
        seats = []
        for s in range(self.config.players):
            per_unit = []
            for unit in unit_list:
                v = [g.shares[s] for g in unit]
                per_unit.append(sum(v) / len(v))
            m, lo, hi = _mean_ci(per_unit)
            row = {
                "seat": s,
                "win_share": m,
                "ci95": [lo, hi],
                "mean_score": sum(g.scores[s] for g in self.games) / len(self.games),
            }
            if self.breeds:
                row["breed"] = self.breeds[s]
            seats.append(row)
        return seats
