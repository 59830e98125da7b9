"""Batch simulation: N games in parallel, one Parquet row per game, stop and resume.

A :class:`Job` says what to play: the game, its rules, the bot of each seat, the number of
games and a base seed. Game ``i`` is seeded with ``seed + i`` (its bots with seeds derived from
that), so every game can be played again on its own: :func:`record_of` turns any row back into
a ``sheepfold-record/1`` record. Two jobs with the same seeds and different rules play on the
same dice and decks (common random numbers), which is what ``lab compare`` relies on.

Games run in chunks, in local worker processes (``workers``) or on Ray (``ray="local"`` or a
cluster address); every finished chunk is written at once to ``OUT.parts/`` and the parts are
merged into ``OUT`` at the end, or when the run is interrupted (Ctrl-C), so no finished game is
lost; ``resume=True`` plays only the games the file does not hold yet.

Engines: ``engine`` plays through the rules engine with the registered bots (any bot, any
rules); ``fast`` uses the lab's fast simulators (Shave a Sheep: random, greedy and perfect
policies; Dolly Crush: greedy); ``auto`` picks ``fast`` when it supports the job. A row says
which engine played it: the same seed gives the same game again in the same engine.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from sheepfold.core.compiling import Report
from sheepfold.core.compiling import step as compile_step
from sheepfold.core.pool import run_pool
from sheepfold.core.protocol import CHANCE, TERMINAL, SheepfoldError
from sheepfold.core.registry import game_spec
from sheepfold.lab.endings import reason_of

SCHEMA_KEY = b"sheepfold.lab.job"
ENGINES = ("auto", "engine", "fast")
DEFAULT_MAX_TURNS = 1000  # Shave a Sheep simulations stop (truncated) after this many turns


class LabError(SheepfoldError):
    """A lab job that cannot run as asked (bad bot list, a file from another job...)."""


# -- per game: the lab's own tables --------------------------------------------------------------
#: the games that have a fast simulator, and its module (``unsupported``, ``chunk``,
#: ``engine_state``; Shave a Sheep's ``prepare`` solves once in the parent before the workers
#: start, and its ``ready`` and ``warm`` let a cold run play interpreted while they compile);
#: any other game plays through the rules engine
FAST_SIMULATORS = {
    "dolly-crush": "sheepfold.lab.fastsim_dolly",
    "shave-a-sheep": "sheepfold.lab.fastsim_shave",
}
#: games per chunk at most: (fast simulator, engine); a game not listed gets DEFAULT_CHUNK_SIZES
CHUNK_SIZES = {"dolly-crush": (50, 10), "shave-a-sheep": (20_000, 200)}
DEFAULT_CHUNK_SIZES = (1000, 100)


def fast_simulator(game: str) -> Any | None:
    """The module of ``game``'s fast simulator (imported on first use: it compiles kernels);
    None when the game has none."""
    import importlib

    module = FAST_SIMULATORS.get(game)
    return importlib.import_module(module) if module is not None else None


# -- the job -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    game: str
    rules: dict[str, Any] = field(default_factory=dict)  # rule options (JSON-ready)
    ruleset: str = "rulebook"  # a display name
    players: int = 2
    bots: tuple[str, ...] = ("random", "random")  # the bot of each seat (game 0)
    rotate: bool = False  # game i: seat s plays bots[(s + i) % players]
    breeds: tuple[str, ...] | str | None = None  # Dolly Crush: per seat, or "mix"
    games: int = 100
    seed: int = 0
    engine: str = "auto"
    exact: bool = False  # Shave a Sheep: outcome uncertainty from the solver's exact win shares

    def __post_init__(self) -> None:
        if len(self.bots) == 1:
            object.__setattr__(self, "bots", tuple(self.bots) * self.players)
        object.__setattr__(self, "bots", tuple(self.bots))
        if len(self.bots) != self.players:
            raise LabError(
                f"{len(self.bots)} bots for {self.players} players: give one bot, or one per seat"
            )
        if self.engine not in ENGINES:
            raise LabError(f"engine must be one of {', '.join(ENGINES)}, not {self.engine!r}")
        if self.games < 0:
            raise LabError("the number of games cannot be negative")
        if isinstance(self.breeds, list):
            object.__setattr__(self, "breeds", tuple(self.breeds))

    # game i ---------------------------------------------------------------------------
    def game_seed(self, i: int) -> int:
        return self.seed + i

    def seat_bots(self, i: int) -> tuple[str, ...]:
        n = self.players
        if not self.rotate:
            return self.bots
        return tuple(self.bots[(s + i) % n] for s in range(n))

    def seat_breeds(self, i: int) -> tuple[str, ...] | None:
        breeds = tuple(game_spec(self.game).breeds)
        if not breeds:
            return None
        from itertools import permutations

        if self.breeds == "mix":
            perms = list(permutations(breeds, self.players))
            # with --rotate the bots cycle fastest, so that every bot meets every breed choice
            k = i // self.players if self.rotate else i
            return perms[k % len(perms)]
        if self.breeds is None:
            return breeds[: self.players]
        return tuple(self.breeds)  # type: ignore[arg-type]

    def make_game(self, i: int = 0) -> Any:
        from sheepfold.games import make

        if game_spec(self.game).breeds:
            return make(
                self.game, players=self.players, rules=self.rules, breeds=self.seat_breeds(i)
            )
        return make(self.game, players=self.players, rules=self.rules)

    # identity -------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Job:
        data = json.loads(text)
        data["bots"] = tuple(data["bots"])
        if isinstance(data.get("breeds"), list):
            data["breeds"] = tuple(data["breeds"])
        return cls(**data)

    def same_games(self, other: Job) -> bool:
        """Would both jobs play game ``i`` identically (everything but the count)?"""
        a, b = asdict(self), asdict(other)
        for k in ("games", "ruleset"):
            a.pop(k), b.pop(k)
        return a == b


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``game_seed``."""
    return (game_seed * 7919 + 104_729 * (seat + 1)) & 0x7FFFFFFF


def make_job(
    game: str,
    rules: Any = None,
    *,
    ruleset: str | None = None,
    players: int = 2,
    bots: Sequence[str] = ("random",),
    games: int = 100,
    seed: int = 0,
    rotate: bool = False,
    breeds: Sequence[str] | str | None = None,
    engine: str = "auto",
    max_turns: int | None = DEFAULT_MAX_TURNS,
    exact: bool = False,
) -> Job:
    """A validated job. ``rules``: a rules model, a mapping of options or None (rulebook).

    Shave a Sheep without ``max_turns`` in its rules gets ``max_turns`` (default 1000): a game
    the wolf keeps undoing is reported as truncated instead of running forever. ``exact``
    (Shave a Sheep, fast simulator): also record each game's outcome uncertainty from the
    solver's exact win shares.
    """
    from sheepfold.games import parse_rules

    model = parse_rules(game, rules)
    options = model.options() if hasattr(model, "options") else {}
    options = json.loads(json.dumps(options))
    if game_spec(game).turn_limit and options.get("max_turns") is None and max_turns:
        options["max_turns"] = max_turns
    name = (
        ruleset or getattr(model, "name", None) or ("rulebook" if not model.options() else "custom")
    )
    job = Job(
        game=game,
        rules=options,
        ruleset=name,
        players=players,
        bots=tuple(bots),
        rotate=rotate,
        breeds=tuple(breeds) if breeds is not None and not isinstance(breeds, str) else breeds,
        games=games,
        seed=seed,
        engine=engine,
        exact=exact,
    )
    if exact and not game_spec(game).has_exact_solver:
        raise LabError("--exact (outcome uncertainty from the solver) is for Shave a Sheep")
    if exact and rotate and len(set(job.bots)) > 1:
        raise LabError(
            "--exact needs the same seat order in every game: leave out --rotate "
            "(run each seat order as its own job)"
        )
    job.make_game(0)  # the rules, players and breeds are valid
    from sheepfold.bots import make_bot

    g = job.make_game(0)
    for s, spec in enumerate(job.bots):
        try:
            make_bot(spec, g, s % players, seed=0)  # every bot exists for this game
        except SheepfoldError:
            # a policy only the fast simulator plays (Shave a Sheep's "perfect")
            if job.engine == "engine" or fast_unsupported(job) is not None:
                raise
    job = replace(job, engine=resolve_engine(job))
    if job.exact and job.engine != "fast":
        why = fast_unsupported(job)
        raise LabError(
            f"--exact needs the fast simulator, which cannot play this job: {why}"
            if why
            else "--exact needs the fast simulator (bots random, greedy or perfect; not --engine "
            "engine)"
        )
    return job


def _fast(job: Job) -> Any:
    """The fast simulator of a job whose engine is ``fast`` (resolved only when it has one)."""
    sim = fast_simulator(job.game)
    if sim is None:
        raise LabError(f"{game_spec(job.game).title} has no fast simulator (use --engine engine)")
    return sim


def resolve_engine(job: Job) -> str:
    """``fast`` when a fast simulator supports the job (and ``auto``/``fast`` was asked)."""
    if job.engine == "engine":
        return "engine"
    why = fast_unsupported(job)
    if why is None:
        return "fast"
    if job.engine == "fast":
        raise LabError(f"the fast simulator cannot play this job: {why} (use --engine engine)")
    return "engine"


def fast_unsupported(job: Job) -> str | None:
    """None if a fast simulator plays ``job``; else why not."""
    try:
        sim = fast_simulator(job.game)
        if sim is None:
            return f"{game_spec(job.game).title} has no fast simulator"
        reason: str | None = sim.unsupported(job)
        return reason
    except ImportError as e:
        return f"the fast simulator is not available ({e})"


# -- one chunk of games ------------------------------------------------------------------------
@dataclass
class Chunk:
    """Column arrays of finished games (the result of one task)."""

    game_index: np.ndarray  # (G,)
    scores: np.ndarray  # (G, n) int
    winners: np.ndarray  # (G, n) bool
    length: np.ndarray  # (G,) turns played
    truncated: np.ndarray  # (G,) bool
    offsets: np.ndarray  # (G+1,) into standings
    standings: np.ndarray  # (T, n) int: scores after each turn
    engine: str = "engine"
    extra: dict[str, np.ndarray] = field(default_factory=dict)  # optional columns


def _turn_start(state: Any) -> bool:
    """True at the one moment of each turn when it begins (Shave: the roll; Dolly: the dog)."""
    return not state.is_terminal() and game_spec(state.game.name).move_boundary(state)


#: the optional decision columns (see :func:`count_decision`): player decisions, how many of
#: them were forced (one legal action), and the legal actions summed over the decisions
DECISION_COLUMNS = ("decisions", "forced", "choices")


#: the column of the seat whose turn came first in each game (who starts: seat 0, or the seat
#: the rules name: :attr:`sheepfold.core.protocol.Game.first_seat`); the first-player advantage is
#: measured from it (lab/metrics.py)
FIRST_COLUMN = "first_mover"


def count_decision(counts: list[int] | None, state: Any) -> None:
    """Add the player decision at ``state`` to ``counts`` = [decisions, forced, choices]: its
    legal actions (distinct by construction) are its real choices; one is a forced decision."""
    if counts is None:
        return
    k = len(state.legal_actions())
    counts[0] += 1
    counts[1] += k == 1
    counts[2] += k


def play_engine_game(
    job: Job,
    i: int,
    on_state: Callable[[Any], None] | None = None,
    counts: list[int] | None = None,
) -> tuple[Any, list[list[float]]]:
    """Play game ``i`` of ``job`` through the rules engine; the final state and the standings.

    ``counts`` (a list [decisions, forced, choices]) counts every player decision (chance
    outcomes are not decisions) with :func:`count_decision`."""
    from sheepfold.bots import make_bot

    game = job.make_game(i)
    seed = job.game_seed(i)
    bots = [
        make_bot(spec, game, s, seed=bot_seed(seed, s)) for s, spec in enumerate(job.seat_bots(i))
    ]
    state = game.new_initial_state(seed=seed)
    standings: list[list[float]] = []
    started = 0
    while True:
        p = state.current_player()
        if p == TERMINAL:
            break
        if _turn_start(state):  # once per turn: Shave's roll, Dolly's dog card
            if started:
                standings.append(state.scores())
            started += 1
            if on_state is not None:
                on_state(state)
        if p == CHANCE:
            state.apply_unchecked(state.sample_chance())
        else:
            count_decision(counts, state)
            state.apply(bots[p].act(state.observe(p)))
    standings.append(state.scores())
    return state, standings


def _counted_engine_game(job: Job, i: int) -> tuple[Any, list[list[float]], list[int]]:
    counts = [0, 0, 0]
    state, standings = play_engine_game(job, i, counts=counts)
    return state, standings, counts


def games_chunk(
    job: Job, indices: Sequence[int], play: Callable[[Job, int], Any], engine: str
) -> Chunk:
    """A chunk of games played one by one by ``play(job, i) -> (final state, standings)``,
    or ``(final state, standings, [decisions, forced, choices])`` (the decision columns)."""
    n = job.players
    G = len(indices)
    scores = np.zeros((G, n), dtype=np.int64)
    winners = np.zeros((G, n), dtype=bool)
    length = np.zeros(G, dtype=np.int64)
    truncated = np.zeros(G, dtype=bool)
    offsets = np.zeros(G + 1, dtype=np.int64)
    stand: list[list[float]] = []
    decisions: list[list[int]] = []
    ended: list[str] = []
    first = np.full(G, -1, dtype=np.int8)
    for k, i in enumerate(indices):
        res = play(job, int(i))
        state, st = res[0], res[1]
        first[k] = state.game.first_seat
        if len(res) > 2:
            decisions.append(list(res[2]))
        out = state.outcome()
        scores[k] = [round(x) for x in out.scores]
        winners[k, list(out.winners)] = True
        truncated[k] = out.truncated
        ended.append(reason_of(state))
        length[k] = len(st)
        stand.extend(st)
        offsets[k + 1] = offsets[k] + len(st)
    values = np.asarray(stand, dtype=np.float64).round().astype(np.int64).reshape(-1, n)
    extra: dict[str, Any] = {"ended_by": np.array(ended, dtype=object), FIRST_COLUMN: first}
    if G and len(decisions) == G:
        cnt = np.asarray(decisions, dtype=np.int64).reshape(G, 3)
        for col, name in enumerate(DECISION_COLUMNS):
            extra[name] = cnt[:, col].astype(np.int32)
    return Chunk(
        np.asarray(indices, dtype=np.int64),
        scores,
        winners,
        length,
        truncated,
        offsets,
        values,
        engine,
        extra,
    )


def engine_chunk(job: Job, indices: Sequence[int]) -> Chunk:
    return games_chunk(job, indices, _counted_engine_game, "engine")


def run_chunk(job: Job, indices: Sequence[int], interpreted: bool = False) -> Chunk:
    """Play the games ``indices`` of ``job`` (in this process) with the job's engine
    (``interpreted``: the fast simulator's kernels run by the interpreter, see
    :func:`_meanwhile`)."""
    engine = resolve_engine(job) if job.engine == "auto" else job.engine
    if engine == "fast":
        sim = _fast(job)
        chunk: Chunk = (
            sim.chunk(job, indices, interpreted=True) if interpreted else sim.chunk(job, indices)
        )
        return chunk
    return engine_chunk(job, indices)


# -- Parquet ---------------------------------------------------------------------------------
def chunk_to_table(job: Job, c: Chunk) -> Any:
    import pyarrow as pa

    from sheepfold.games.features import FEATURE_NAMES, game_features

    n = job.players
    G = len(c.game_index)
    single = np.where(c.winners.sum(axis=1) == 1, c.winners.argmax(axis=1), -1)
    single[c.truncated] = -1
    feats = game_features(c.offsets, c.standings, single)

    def per_seat(arr: np.ndarray, typ: Any) -> Any:
        flat = pa.array(np.ascontiguousarray(arr).reshape(-1), type=typ)
        return pa.FixedSizeListArray.from_arrays(flat, n)

    nw = c.winners.sum(axis=1)
    shares = np.where(c.winners, 1.0 / np.maximum(nw, 1)[:, None], 0.0)
    shares[c.truncated | (nw == 0)] = 1.0 / n
    win_lists = pa.ListArray.from_arrays(
        pa.array(np.concatenate([[0], np.cumsum(nw)]).astype(np.int32)),
        pa.array(np.nonzero(c.winners)[1].astype(np.int8)),
    )
    inner = pa.FixedSizeListArray.from_arrays(
        pa.array(np.ascontiguousarray(c.standings).reshape(-1).astype(np.int32)), n
    )
    standings = pa.ListArray.from_arrays(pa.array(c.offsets.astype(np.int32)), inner)
    seeds = np.array([job.game_seed(int(i)) for i in c.game_index], dtype=np.int64)
    bots = [list(job.seat_bots(int(i))) for i in c.game_index] if job.rotate else None
    if bots is None:
        bots_col = pa.array([list(job.bots)] * G, type=pa.list_(pa.string()))
    else:
        bots_col = pa.array(bots, type=pa.list_(pa.string()))
    cols: dict[str, Any] = {
        "game_index": pa.array(c.game_index.astype(np.int64)),
        "seed": pa.array(seeds),
        "game": pa.array([job.game] * G),
        "ruleset": pa.array([job.ruleset] * G),
        "rules": pa.array([json.dumps(job.rules, sort_keys=True)] * G),
        "players": pa.array(np.full(G, n, dtype=np.int8)),
        "bots": bots_col,
        "breeds": pa.array(
            [list(job.seat_breeds(int(i)) or ()) for i in c.game_index], type=pa.list_(pa.string())
        )
        if game_spec(job.game).breeds
        else pa.array([[]] * G, type=pa.list_(pa.string())),
        "scores": per_seat(c.scores.astype(np.int32), pa.int32()),
        "winners": win_lists,
        "shares": per_seat(shares, pa.float64()),
        "length": pa.array(c.length.astype(np.int32)),
        "truncated": pa.array(c.truncated),
        "standings": standings,
        "engine": pa.array([c.engine] * G),
    }
    for k, name in enumerate(FEATURE_NAMES):
        cols[name] = pa.array(feats[:, k].astype(np.int32))
    for name, arr in c.extra.items():
        cols[name] = pa.array(arr)
    table = pa.table(cols)
    return table.replace_schema_metadata({SCHEMA_KEY: job.to_json().encode()})


def read_table(path: str | Path) -> tuple[Job, Any]:
    """A run's job and its rows (a pyarrow Table)."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.exists():
        raise LabError(f"no such file: {path}")
    try:
        table = pq.read_table(path)
    except Exception as e:  # pyarrow raises many kinds
        raise LabError(f"{path} is not a Parquet file of the lab: {e}") from None
    meta = table.schema.metadata or {}
    if SCHEMA_KEY not in meta:
        raise LabError(f"{path} was not written by `sheepfold lab run` (no job in its metadata)")
    return Job.from_json(meta[SCHEMA_KEY]), table


def _parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _write_atomic(table: Any, out: Path) -> None:
    import pyarrow.parquet as pq

    tmp = out.with_name(f".{out.name}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, out)


def _merge(job: Job, out: Path) -> Any:
    """Fold the finished parts (and the existing file) into ``out``; returns the table."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    if out.exists():
        tables.append(read_table(out)[1])
    parts = _parts_dir(out)
    part_files = sorted(parts.glob("part-*.parquet")) if parts.is_dir() else []
    for p in part_files:
        try:
            tables.append(pq.read_table(p))
        except Exception:  # a part cut short by a hard kill: its games are played again
            continue
    if not tables:
        table = chunk_to_table(job, empty_chunk(job))
    else:
        # parts hold runs of consecutive games: in order of their first game the concatenation
        # is usually sorted already, and then nothing is copied
        tables.sort(key=lambda t: int(t.column("game_index")[0].as_py()) if t.num_rows else -1)
        table = pa.concat_tables(
            [t.replace_schema_metadata(None) for t in tables], promote_options="default"
        )
    idx = table.column("game_index").to_numpy()
    if len(idx) > 1 and not np.all(np.diff(idx) > 0):
        # keep one row per game (a part may duplicate rows after a crash during a merge), sorted
        _, first = np.unique(idx, return_index=True)
        table = table.take(pa.array(first[np.argsort(idx[first], kind="stable")]))
    table = table.replace_schema_metadata({SCHEMA_KEY: job.to_json().encode()})
    _write_atomic(table, out)
    if parts.is_dir():
        shutil.rmtree(parts, ignore_errors=True)
    return table


def empty_chunk(job: Job) -> Chunk:
    n = job.players
    z = np.zeros(0, dtype=np.int64)
    return Chunk(
        z,
        np.zeros((0, n), np.int64),
        np.zeros((0, n), bool),
        z,
        np.zeros(0, bool),
        np.zeros(1, np.int64),
        np.zeros((0, n), np.int64),
        job.engine,
    )


# -- running ---------------------------------------------------------------------------------
def _chunks(indices: Sequence[int], size: int, workers: int = 0) -> Iterator[list[int]]:
    """``indices`` in chunks of ``size``; with ``workers``, the first chunks are small and grow
    (1 game for each worker, then 2, 4, ... up to ``size``), so that the first games are
    reported as soon as they end, even with slow bots."""
    a, step, k = 0, 1, 0
    while a < len(indices):
        n = min(size, step) if workers else size
        yield list(indices[a : a + n])
        a, k = a + n, k + 1
        if workers and k % workers == 0:
            step *= 2


def default_chunk_size(job: Job, remaining: int, workers: int) -> int:
    fast, engine = CHUNK_SIZES.get(job.game, DEFAULT_CHUNK_SIZES)
    base = fast if job.engine == "fast" else engine
    per_worker = max(1, -(-remaining // (max(1, workers) * 4)))
    return max(1, min(base, per_worker))


ProgressFn = Callable[[int, int], None]  # (games done now, total games)


def run(
    job: Job,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    ray: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    chunk_size: int | None = None,
    progress: ProgressFn | None = None,
    standings: bool = True,
    compiling: Report | None = None,
    background: bool = True,
) -> Any:
    """Play ``job``; returns the table of all its games (and writes ``out`` if given).

    ``workers``: local processes (default: every core; 1 plays in this process). ``ray``:
    ``"local"`` starts a local Ray instance, anything else is a cluster address.
    Interrupting (KeyboardInterrupt) keeps every finished game in ``out`` and re-raises.
    ``standings=False`` (no ``out`` only) leaves the per-turn standings out of the returned
    table, to keep millions of games in memory (the metrics do not need them).
    ``compiling``: told about the steps before the first game that are not games
    (:mod:`sheepfold.core.compiling`: compiling the simulator, solving for the perfect policy),
    each before the first ``progress`` call, so a games counter never stands still for them.

    Cold, the first game compiles the simulator's kernels: the first chunk (one game, unless
    ``chunk_size`` asks for more) is played here, as its own step, before the workers start
    (forked, they inherit the compiled code instead of each compiling it again on a core of its
    own). When the fast simulator's kernels are not in numba's cache and its interpreter may
    play the job, they compile in the background instead, while this process plays the first
    games with the same kernels interpreted (:func:`_meanwhile`); ``background=False``
    compiles them here first (``sheepfold warm``).
    """
    import pyarrow.parquet as pq

    if job.engine == "auto":
        job = replace(job, engine=resolve_engine(job))
    out_path = Path(out) if out is not None else None
    done = _done_games(job, out_path, resume, overwrite) if out_path is not None else set()
    todo = [i for i in range(job.games) if i not in done]
    total = job.games
    finished = total - len(todo)
    workers = workers or os.cpu_count() or 1
    parallel = 1 if ray is None and workers == 1 else max(workers, 2)
    size = chunk_size or default_chunk_size(job, len(todo), parallel)
    tables: list[Any] = []
    part_no = [0]

    def collect(c: Chunk) -> None:
        nonlocal finished
        t = chunk_to_table(job, c)
        if out_path is not None:
            while True:
                part_no[0] += 1
                pf = _parts_dir(out_path) / f"part-{os.getpid()}-{part_no[0]:06d}.parquet"
                if not pf.exists():
                    break
            tmp = pf.with_name("." + pf.name + ".tmp")
            pq.write_table(t, tmp)
            os.replace(tmp, pf)
        else:
            tables.append(t if standings else t.drop_columns(["standings"]))
        finished += len(c.game_index)
        if progress:
            progress(finished, total)

    # chunks that grow from one game unless the size is asked for: progress from the start
    chunks = list(_chunks(todo, size, 0 if chunk_size else parallel))
    prepare = getattr(fast_simulator(job.game), "prepare", None) if job.engine == "fast" else None
    if chunks and prepare is not None:
        # solve once here (at once, while a cold solver compiles behind): forked workers
        # inherit the tables, others read the disk caches
        prepare(job, compiling)
    first: Chunk | None = None
    behind = _background(job) if chunks and ray is None and background else None
    if chunks and ray is None and behind is None:
        # the first chunk here: what it compiles is its own step
        with compile_step(_what_compiles(job), compiling):
            first = run_chunk(job, chunks[0])
        chunks = chunks[1:]
    if progress:
        progress(finished, total)
    try:
        if behind is not None:
            chunks = _meanwhile(job, chunks, behind, collect, compiling)
        if first is not None:
            collect(first)
        if ray is not None:
            _run_ray(job, chunks, ray, collect)
        elif workers <= 1 or len(chunks) <= 1:
            for ch in chunks:
                collect(run_chunk(job, ch))
        else:
            _run_pool(job, chunks, workers, collect)
    finally:
        if out_path is not None:
            table = _merge(job, out_path)
    if out_path is None:
        table = _memory_table(job, tables, standings)
    return table


def _background(job: Job) -> Callable[[Job], None] | None:
    """The fast simulator's ``warm``, to compile ``job``'s kernels in a process of their own
    while its interpreter plays (:func:`_meanwhile`), when its ``ready`` says they are neither
    compiled here nor in numba's cache; else None (ready, or a simulator without ``ready``)."""
    if job.engine != "fast":
        return None
    sim = fast_simulator(job.game)
    if sim is None or not hasattr(sim, "ready") or sim.ready(job):
        return None
    warm: Callable[[Job], None] = sim.warm
    return warm


def _meanwhile(
    job: Job,
    chunks: list[list[int]],
    warm: Callable[[Job], None],
    collect: Callable[[Chunk], None],
    compiling: Report | None,
) -> list[list[int]]:
    """Play ``chunks`` here with the interpreted kernels while ``warm(job)`` compiles them in a
    process of its own (a :class:`.compiling.Meanwhile`: the same kernels, so the same games,
    only slower); once it is done, the next chunk with the compiled kernels (loaded from the
    cache; forked workers inherit them). Returns the chunks left. When every game is played
    first, the compilation is stopped (what it compiled so far stays in the cache), and said:
    "... (stopped: the games were done first)"."""
    from sheepfold.core.compiling import Meanwhile

    behind = Meanwhile(_what_compiles(job), compiling, warm, job)
    try:
        while chunks and behind.compiling:
            collect(run_chunk(job, chunks[0], interpreted=True))
            chunks = chunks[1:]
        if behind.compiling:
            behind.stop("the games were done first")
        if not chunks:  # (or it was done as the last games were)
            return chunks
        # loads what the background compiled (compiles here, said, only if it failed)
        with compile_step(_what_compiles(job), compiling):
            first = run_chunk(job, chunks[0])
        collect(first)
        return chunks[1:]
    finally:
        behind.stop()


def _what_compiles(job: Job) -> str:
    """What a job's first game compiles, in words."""
    if job.engine == "fast":
        return "the simulator"
    return "the bots' code"


def _done_games(job: Job, out_path: Path, resume: bool, overwrite: bool) -> set[int]:
    """Ready ``out_path`` and its parts folder for ``job``: the games they already hold when
    resuming (a finished file must hold the same games), else none (``overwrite`` clears them)."""
    import pyarrow.parquet as pq

    done: set[int] = set()
    parts = _parts_dir(out_path)
    if (out_path.exists() or parts.is_dir()) and not resume:
        if not overwrite:
            raise LabError(
                f"{out_path} exists: add --resume to finish it, or --overwrite to start again"
            )
        if out_path.exists():
            out_path.unlink()
        shutil.rmtree(parts, ignore_errors=True)
    if resume and out_path.exists():
        old_job, old = read_table(out_path)
        if not old_job.same_games(job):
            raise LabError(
                f"{out_path} holds another job ({old_job.game}, rules {old_job.ruleset}, bots "
                f"{', '.join(old_job.bots)}, seed {old_job.seed}, engine {old_job.engine}): "
                "resume needs the same game, rules, players, bots, seed and engine"
            )
        done.update(int(x) for x in old.column("game_index").to_numpy())
    if resume and parts.is_dir():
        for p in sorted(parts.glob("part-*.parquet")):
            try:
                done.update(
                    int(x) for x in pq.read_table(p, columns=["game_index"]).column(0).to_numpy()
                )
            except Exception:
                continue
    parts.mkdir(parents=True, exist_ok=True)
    return done


def _memory_table(job: Job, tables: list[Any], standings: bool) -> Any:
    """The games played in memory, by game index (an empty table when there were none)."""
    import pyarrow as pa

    if tables:
        table = pa.concat_tables(tables)
        order = np.argsort(table.column("game_index").to_numpy(), kind="stable")
        return table.take(pa.array(order))
    table = chunk_to_table(job, empty_chunk(job))
    if not standings:
        table = table.drop_columns(["standings"])
    return table


def _run_pool(
    job: Job, chunks: list[list[int]], workers: int, collect: Callable[[Chunk], None]
) -> None:
    run_pool(run_chunk, ((job, ch) for ch in chunks), workers, collect)


def map_chunks(
    fn: Callable[..., Any],
    job: Job,
    args: tuple[Any, ...] = (),
    *,
    workers: int | None = None,
    ray: str | None = None,
    collect: Callable[[Any], None],
    chunk_size: int | None = None,
) -> None:
    """``fn(job, chunk, *args)`` for chunks of ``job``'s games, on ``workers`` local processes
    (None: every core; 1: in this process) or on ``ray`` (``"local"`` or a cluster's address),
    each result handed to ``collect`` as it comes (in any order): for measures that play games
    their own way (``lab depth``'s kingmaking), run as ``run`` runs its games."""
    workers = workers or os.cpu_count() or 1
    parallel = 1 if ray is None and workers == 1 else max(workers, 2)
    size = chunk_size or max(1, -(-job.games // (parallel * 4)))
    chunks = list(_chunks(range(job.games), size))
    if ray is not None:
        _run_ray(job, chunks, ray, collect, fn, args)
    elif workers <= 1 or len(chunks) <= 1:
        for ch in chunks:
            collect(fn(job, ch, *args))
    else:
        run_pool(fn, ((job, ch, *args) for ch in chunks), workers, collect)


def _run_ray(
    job: Job,
    chunks: list[list[int]],
    address: str,
    collect: Callable[[Any], None],
    fn: Callable[..., Any] = run_chunk,
    args: tuple[Any, ...] = (),
) -> None:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise LabError("Ray is not installed: pip install 'sheepfold[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(
                    num_cpus=min(2, os.cpu_count() or 1),
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except Exception as e:  # ConnectionError, RuntimeError, ...: say it in one line
            where = (
                "a local Ray instance" if address == "local" else f"the Ray cluster at {address}"
            )
            raise LabError(
                f"could not start {where}: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
            ) from None
        started_here = True
    try:
        remote = ray.remote(fn)
        job_ref = ray.put(job)
        pending = [remote.remote(job_ref, ch, *args) for ch in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                collect(ray.get(r))
    except BaseException:
        for r in locals().get("pending", []):
            try:
                ray.cancel(r, force=True)
            except Exception:
                pass
        raise
    finally:
        if started_here:
            ray.shutdown()


# -- rows back to games ----------------------------------------------------------------------
def replay_state(job: Job, i: int) -> Any:
    """The final engine state of game ``i`` of ``job``, played again (any engine)."""
    if job.engine == "fast":
        return _fast(job).engine_state(job, i)
    state, _ = play_engine_game(job, i)
    return state


def record_of(job: Job, i: int) -> dict[str, Any]:
    """Game ``i`` of ``job`` as a ``sheepfold-record/1`` record (played again from its seed)."""
    from sheepfold.core.records import to_record

    state = replay_state(job, i)
    names = [f"{b} (seat {s})" for s, b in enumerate(job.seat_bots(i))]
    return to_record(state, names)


def row_dict(table: Any, k: int) -> dict[str, Any]:
    """Row ``k`` of a run's table as plain Python data."""
    return {name: table.column(name)[k].as_py() for name in table.column_names}
