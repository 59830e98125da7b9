"""A search for rule sets that meet a designer's goals (``sheepfold lab search``).

Several options vary at once (``--vary wool=10..60 --vary max_wool=3..8 --vary
wolf_to=middle,roller``), toward goals a designer names (``--goal length=40 --goal fair:2``):
every trial is a rule set, played by the lab on the **same seeds** (common random numbers: the
trials differ by their rules, not by their luck) and scored by a weighted sum of the goals'
losses (0 = met). The optimiser is Optuna's TPE sampler (Tree-structured Parzen Estimator),
seeded: suited to noisy, costly objectives over mixed integer, real and categorical options.

A search that ranks many noisy trials picks lucky ones, so the best few are **played again on
fresh seeds** (games the search never saw) and ranked by that second look: each metric then
comes with its 95% interval from those games alone, and the winner is the best on them.

Goals (each loss is about 0..1, so that weights compare them):

========================  ===================================================================
``length=N``              mean game length near N turns: ``|length - N| / N``
``fair``                  no seat advantage: ``1 - balance`` (the largest seat share minus the
                          smallest)
``ties``                  fewer shared wins: the tie rate
``drama``                 the winner more often came from behind: ``1 - drama rate``
``lead-changes``          more lead changes: ``1 / (1 + lead changes per game)``
``forced``                fewer forced decisions: their share
========================  ===================================================================

A weight follows a colon (``fair:2``, ``length=40:0.5``). Games that hit the turn limit add their
share (times the goals' total weight) to the loss: an endless rule set is never a good answer.

Trials are kept in an Optuna SQLite file next to the rule file (``OUT.search.db``): stopped with
Ctrl-C, the same command goes on where it stopped (and refuses a file of another search).

With ``exact`` (``--exact``; Shave a Sheep), a trial the exact solver can take (at most
:data:`EXACT_LIMIT` positions, bots it evaluates: random, greedy, perfect) gets its seats' win
shares from the solver instead of from its games: the win share by seat, the first-player
advantage and the balance (so the ``fair`` goal) are then exact, with no interval, and marked
``exact`` in the table and the JSON. A trial the solver cannot take keeps the games' values.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sheepfold.core.compiling import Report
from sheepfold.core.protocol import SheepfoldError
from sheepfold.lab.sweep import _is_number, _scalar

#: the most options one search varies, and the most trials it plays
MAX_VARY = 12
MAX_TRIALS = 10_000
#: the seeds of the re-evaluation start this far from the search's (games it never played)
FRESH_SEEDS = 1_000_000
#: the largest game (positions) whose win shares a search takes from the exact solver
EXACT_LIMIT = 2_000_000


class SearchError(SheepfoldError):
    """A search that cannot run as asked (the message says which flag and why)."""


# -- what varies -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dimension:
    """One option the search varies: integers or reals from ``lo`` to ``hi`` (``step``: integers
    only), or one of ``choices``."""

    key: str
    kind: str  # "int" | "float" | "choice"
    lo: float = 0
    hi: float = 0
    step: int = 1
    choices: tuple[Any, ...] = ()

    def text(self) -> str:
        if self.kind == "choice":
            return f"{self.key}={','.join(_value_text(c) for c in self.choices)}"
        step = f":{self.step}" if self.step != 1 else ""
        return f"{self.key}={_value_text(self.lo)}..{_value_text(self.hi)}{step}"


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def parse_vary(spec: str) -> Dimension:
    """``KEY=LO..HI`` (integers, or reals when either end has a point), ``KEY=LO..HI:STEP``
    (integers) or ``KEY=A,B,C`` (choices, each read as TOML, else as text)."""
    key, sep, text = spec.partition("=")
    key = key.strip()
    where = f"--vary {spec!r}"
    if not sep or not key or not text.strip():
        raise SearchError(f"{where}: write OPTION=LO..HI, OPTION=LO..HI:STEP or OPTION=A,B,C")
    if ".." in text:
        span, _, step_text = text.partition(":")
        lo, _, hi = (_scalar(x) for x in span.partition(".."))
        step = _scalar(step_text) if step_text else 1
        if not (_is_number(lo) and _is_number(hi) and _is_number(step)):
            raise SearchError(f"{where}: a range LO..HI[:STEP] takes numbers")
        if hi <= lo:
            raise SearchError(f"{where}: a range goes up, from LO to a bigger HI")
        ints = isinstance(lo, int) and isinstance(hi, int)
        if step_text and not (ints and isinstance(step, int) and step > 0):
            raise SearchError(f"{where}: a STEP is a positive whole number, for whole LO and HI")
        if ints and (hi - lo) % step:
            raise SearchError(f"{where}: HI - LO is not a multiple of the step {step}")
        return Dimension(key, "int" if ints else "float", lo, hi, step)
    choices = tuple(_scalar(v) for v in text.split(","))
    if len(choices) < 2:
        raise SearchError(f"{where}: give a range LO..HI or at least two choices A,B")
    if len(set(map(repr, choices))) != len(choices):
        raise SearchError(f"{where}: a choice is listed twice")
    return Dimension(key, "choice", choices=choices)


# -- what is wanted ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GoalKind:
    metrics: tuple[str, ...]  # the lab metrics it is computed from (the first one it shows)
    words: str  # for people: "games of about {target} turns"
    loss: Callable[[dict[str, float], float | None], float]
    needs_target: bool = False


def _length_loss(m: dict[str, float], target: float | None) -> float:
    assert target is not None
    return abs(m["length_mean"] - target) / target


GOALS: dict[str, GoalKind] = {
    "length": GoalKind(("length_mean",), "games of about {target} turns", _length_loss, True),
    "fair": GoalKind(
        ("balance", "first_player_advantage"), "no seat advantage", lambda m, t: 1 - m["balance"]
    ),
    "ties": GoalKind(("tie_rate",), "fewer ties", lambda m, t: m["tie_rate"]),
    "drama": GoalKind(
        ("drama_rate",), "winners who came from behind", lambda m, t: 1 - m["drama_rate"]
    ),
    "lead-changes": GoalKind(
        ("lead_changes",), "more lead changes", lambda m, t: 1 / (1 + m["lead_changes"])
    ),
    "forced": GoalKind(("forced_share",), "fewer forced decisions", lambda m, t: m["forced_share"]),
}
#: metrics every candidate shows, whatever the goals
ALWAYS_SHOWN = ("length_mean", "first_player_advantage", "tie_rate", "lead_changes", "truncated")


@dataclass(frozen=True)
class Goal:
    name: str
    weight: float = 1.0
    target: float | None = None

    def text(self) -> str:
        words = GOALS[self.name].words.format(target=_value_text(self.target))
        return words + (f" (weight {self.weight:g})" if self.weight != 1 else "")

    def loss(self, metrics: dict[str, float]) -> float:
        return self.weight * GOALS[self.name].loss(metrics, self.target)


def parse_goal(spec: str) -> Goal:
    """``NAME``, ``NAME:WEIGHT``, ``length=N`` or ``length=N:WEIGHT``."""
    where = f"--goal {spec!r}"
    head, colon, weight_text = spec.partition(":")
    name, eq, target_text = head.partition("=")
    name = name.strip()
    if name not in GOALS:
        raise SearchError(f"{where}: no such goal; the goals are {', '.join(GOALS)}")
    weight = 1.0
    if colon:
        try:
            weight = float(weight_text)
        except ValueError:
            weight = math.nan
        if not (weight > 0 and math.isfinite(weight)):
            raise SearchError(f"{where}: a weight after ':' is a positive number")
    kind = GOALS[name]
    target = None
    if kind.needs_target:
        try:
            target = float(target_text) if eq else math.nan
        except ValueError:
            target = math.nan
        if not (target > 0 and math.isfinite(target)):
            raise SearchError(f"{where}: write {name}=N with N a positive number of turns")
        target = int(target) if target == int(target) else target
    elif eq:
        raise SearchError(f"{where}: the goal {name!r} takes no value (only a weight, {name}:2)")
    return Goal(name, weight, target)


# -- the search ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchSpec:
    """What a search plays: everything that decides its trials (and so what a resume must
    match)."""

    game: str
    base: dict[str, Any]  # the options it starts from (a rules model's options)
    base_name: str
    dims: tuple[Dimension, ...]
    goals: tuple[Goal, ...]
    bots: tuple[str, ...] = ("random",)
    players: int = 2
    games: int = 1000  # per trial, on seeds seed .. seed + games - 1
    seed: int = 0
    recheck: int = 3  # the best few played again on fresh seeds
    recheck_games: int = 2000
    engine: str = "auto"
    max_turns: int = 1000
    exact: bool = False  # the solver's win shares where it can take the trial (Shave a Sheep)

    def identity(self) -> str:
        data = asdict(self)
        data.pop("recheck"), data.pop("recheck_games")
        return json.dumps(data, sort_keys=True, default=str)

    def metrics(self) -> list[str]:
        keys = [k for g in self.goals for k in GOALS[g.name].metrics]
        return list(dict.fromkeys(keys + list(ALWAYS_SHOWN)))


def check_spec(spec: SearchSpec) -> None:
    """Refuse a search that cannot run, before a game is played: no option or goal, one option
    twice, an option the game does not have, a value the rules refuse at both ends."""
    from sheepfold.rulesets import rules_class

    if not spec.dims:
        raise SearchError("give at least one --vary OPTION=RANGE (example: --vary wool=10..60)")
    if len(spec.dims) > MAX_VARY:
        raise SearchError(f"{len(spec.dims)} --vary options; a search varies at most {MAX_VARY}")
    if not spec.goals:
        raise SearchError(f"give at least one --goal (the goals: {', '.join(GOALS)})")
    keys = [d.key for d in spec.dims]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise SearchError(f"--vary {twice[0]} is given twice")
    fields = rules_class(spec.game).model_fields
    for d in spec.dims:
        if d.key not in fields or d.key in ("name", "description"):
            options = ", ".join(k for k in fields if k not in ("name", "description"))
            raise SearchError(f"--vary {d.text()}: {spec.game} has no option {d.key!r} ({options})")
        for v in (d.lo, d.hi) if d.kind != "choice" else d.choices:
            try:
                rules_of(spec, {d.key: v})
            except SheepfoldError as e:
                raise SearchError(f"--vary {d.text()}: {d.key} = {_value_text(v)}: {e}") from None


def rules_of(spec: SearchSpec, params: dict[str, Any], name: str | None = None) -> Any:
    """The rules model of a trial: the base with ``params`` set (a RulesError if refused)."""
    from sheepfold.games import parse_rules
    from sheepfold.rulesets import with_options

    sets = [f"{k}={json.dumps(v)}" for k, v in params.items()]
    fixed = {"name": name} if name else {}
    return with_options(spec.game, parse_rules(spec.game, spec.base), sets, **fixed)


def params_text(params: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {_value_text(v)}" for k, v in params.items())


@dataclass
class Evaluation:
    """A rule set measured: its goal loss and its metrics (key -> lab Value as JSON)."""

    loss: float
    metrics: dict[str, dict[str, Any]]
    ended_by: dict[str, float] = field(default_factory=dict)
    exact: tuple[str, ...] = ()  # the metrics the exact solver gave
    exact_skipped: str | None = None  # why the solver gave none, when asked


def evaluate_rules(
    spec: SearchSpec,
    params: dict[str, Any],
    seed: int,
    games: int,
    workers: int | None = None,
    ray: str | None = None,
    compiling: Report | None = None,
) -> Evaluation:
    """Play ``games`` games of the trial's rules from ``seed`` and score them (``compiling``:
    told when the games' compiled code is compiled first, as ``runner.run`` says)."""
    from sheepfold.lab.metrics import ended_by, evaluate, game_arrays
    from sheepfold.lab.runner import make_job, run

    model = rules_of(spec, params)
    job = make_job(
        spec.game,
        model,
        ruleset=params_text(params),
        players=spec.players,
        bots=spec.bots,
        games=games,
        seed=seed,
        engine=spec.engine,
        max_turns=spec.max_turns,
    )
    d = game_arrays(run(job, workers=workers, ray=ray, standings=False, compiling=compiling))
    values = {v.key: v for v in evaluate(d)}
    exact: tuple[str, ...] = ()
    skipped = None
    if spec.exact:
        shares, skipped = exact_shares(job)
        if shares is not None:
            values.update(exact_values(values, shares, job.make_game(0).first_seat))
            exact = tuple(k for k in values if k in EXACT_KEYS or k.startswith("win_seat"))
    means = {k: v.value for k, v in values.items()}
    loss = 0.0
    for g in spec.goals:
        part = g.loss(means)
        loss += part if math.isfinite(part) else g.weight  # no finished game: the worst
    truncated = means.get("truncated", 0.0)
    loss += truncated * sum(g.weight for g in spec.goals)
    shown = {k: values[k].to_json() for k in spec.metrics() if k in values}
    exact = tuple(k for k in exact if k in shown)
    return Evaluation(round(loss, 9), shown, ended_by(d), exact, skipped)


#: the metrics that come from the seats' win shares alone (and so from the solver, exactly)
EXACT_KEYS = ("first_player_advantage", "balance")


def exact_shares(job: Any) -> tuple[tuple[float, ...] | None, str | None]:
    """Every seat's exact win share from the first position when the seats play the job's
    bots (the solver's ``evaluate``), or None and why not (no solver for this game, too many
    positions, a bot the solver does not evaluate)."""
    from sheepfold.core.registry import game_spec

    if not game_spec(job.game).has_exact_solver:
        return None, f"{job.game} has no exact solver"
    from sheepfold.games.shave_a_sheep import solver
    from sheepfold.lab.perfect import exact_start_shares, unsupported

    game = job.make_game(0)
    why = unsupported(game)
    if why is None:
        size = solver.count_positions(game.rules, game.num_players)
        if size > EXACT_LIMIT:
            why = f"{size:,} positions, more than a search solves ({EXACT_LIMIT:,})"
    bots = [b.partition(":")[0] for b in job.bots]
    if why is None and any(b not in ("random", "greedy", "perfect") for b in bots):
        why = "the solver evaluates random, greedy and perfect bots only"
    if why is not None:
        return None, why
    seats = list(job.bots) * (game.num_players if len(job.bots) == 1 else 1)
    try:
        return exact_start_shares(game, seats), None
    except SheepfoldError as e:
        return None, str(e)


def exact_values(values: dict[str, Any], shares: Sequence[float], first: int = 0) -> dict[str, Any]:
    """The win-share metrics of ``values`` (lab Values) replaced by the exact ``shares`` (one
    per seat; ``first``: the seat that moves first): each with no interval (lo = hi = the
    value)."""
    from dataclasses import replace

    n = len(shares)
    exact = {f"win_seat{s}": x for s, x in enumerate(shares)}
    exact["first_player_advantage"] = shares[first] - 1 / n
    exact["balance"] = 1 - (max(shares) - min(shares))
    return {
        k: replace(values[k], value=x, lo=x, hi=x, definition=values[k].definition + " (exact)")
        for k, x in exact.items()
        if k in values
    }


def metric_json(v: dict[str, Any], exact: bool = False) -> dict[str, Any]:
    """A metric as the search's JSON gives it: ``{"mean": x, "ci": [lo, hi]}`` (and its words;
    ``exact``: the solver's value, no interval)."""
    out = {"mean": v["value"], "ci": [v["lo"], v["hi"]], "label": v["label"], "kind": v["kind"]}
    return out | {"exact": exact}


@dataclass
class Candidate:
    params: dict[str, Any]
    trial: int
    search_loss: float  # on the search's seeds
    recheck: Evaluation  # on fresh seeds

    def to_json(self, spec: SearchSpec) -> dict[str, Any]:
        return {
            "rules": self.params,
            "options": rules_of(spec, self.params).options(),
            "trial": self.trial,
            "loss": self.recheck.loss,
            "search_loss": self.search_loss,
            "metrics": {
                k: metric_json(v, k in self.recheck.exact) for k, v in self.recheck.metrics.items()
            },
            "ended_by": self.recheck.ended_by,
            "exact_skipped": self.recheck.exact_skipped,
        }


@dataclass
class SearchResult:
    spec: SearchSpec
    trials: list[dict[str, Any]]  # every finished trial: number, params, loss, metric means
    candidates: list[Candidate]  # the best few, best first (on fresh seeds)
    invalid: int = 0  # trials whose values the rules refused

    def to_json(self) -> dict[str, Any]:
        cands = [c.to_json(self.spec) for c in self.candidates]
        return {
            "game": self.spec.game,
            "base": self.spec.base_name,
            "vary": [d.text() for d in self.spec.dims],
            "goals": [asdict(g) for g in self.spec.goals],
            "trials": len(self.trials),
            "invalid_trials": self.invalid,
            "exact": self.spec.exact,
            "best": cands[0] if cands else None,
            "candidates": cands,
        }


def storage_path(out: Path) -> Path:
    """The Optuna SQLite file of the search that writes ``out``."""
    return out.with_name(out.name + ".search.db")


def _suggest(trial: Any, d: Dimension) -> Any:
    if d.kind == "int":
        return trial.suggest_int(d.key, int(d.lo), int(d.hi), step=d.step)
    if d.kind == "float":
        return trial.suggest_float(d.key, float(d.lo), float(d.hi))
    return trial.suggest_categorical(d.key, list(d.choices))


def open_study(spec: SearchSpec, db: Path | None, trials: int = 40) -> Any:
    """The search's Optuna study: in memory, or in the SQLite file ``db`` (resumed when it holds
    this search; refused when it holds another). TPE starts from a few random trials (a quarter
    of them, 3 to 10), then models where the good ones lie."""
    try:
        import optuna
    except ImportError:
        raise SearchError("the search needs Optuna: pip install 'sheepfold[lab]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    startup = max(3, min(10, trials // 4))
    sampler = optuna.samplers.TPESampler(
        seed=spec.seed, n_startup_trials=startup, multivariate=True
    )
    storage = f"sqlite:///{db}" if db is not None else None
    study = optuna.create_study(
        study_name="sheepfold-search",
        storage=storage,
        sampler=sampler,
        direction="minimize",
        load_if_exists=True,
    )
    held = study.user_attrs.get("spec")
    if held is None:
        study.set_user_attr("spec", spec.identity())
    elif held != spec.identity():
        raise SearchError(
            f"{db} holds another search (other game, rules, options, goals, bots, games or "
            "seed): give another --out, or delete it to start again"
        )
    return study


ProgressFn = Callable[[int, int, float | None], None]  # (trials done, trials, best loss)


def search(
    spec: SearchSpec,
    trials: int,
    db: Path | None = None,
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: ProgressFn | None = None,
    compiling: Report | None = None,
) -> SearchResult:
    """Run (or go on with) the search to ``trials`` finished trials, then play the best
    ``spec.recheck`` again on fresh seeds. A KeyboardInterrupt leaves the finished trials in
    ``db`` (the running one is dropped) and is raised again. ``compiling`` is told when a
    trial's games wait on compilation (the first, on a cold cache)."""
    import optuna

    if not 1 <= trials <= MAX_TRIALS:
        raise SearchError(f"--trials {trials}: give 1 to {MAX_TRIALS:,}")
    check_spec(spec)
    study = open_study(spec, db, trials)

    def done() -> list[Any]:
        states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
        return study.get_trials(deepcopy=False, states=states)

    def objective(trial: Any) -> float:
        params = {d.key: _suggest(trial, d) for d in spec.dims}
        try:
            rules_of(spec, params)
        except SheepfoldError as e:  # a combination the rules refuse (each value alone is fine)
            trial.set_user_attr("refused", str(e))
            raise optuna.TrialPruned() from None
        ev = evaluate_rules(spec, params, spec.seed, spec.games, workers, ray, compiling)
        trial.set_user_attr("metrics", {k: v["value"] for k, v in ev.metrics.items()})
        return ev.loss

    def report(*_: Any) -> None:
        if progress is not None:
            finished = [t for t in done() if t.value is not None]
            best = min((t.value for t in finished), default=None)
            progress(len(done()), trials, best)

    report()
    left = trials - len(done())
    # a trial stopped by Ctrl-C is marked failed by Optuna and played again on resume
    if left > 0:
        study.optimize(objective, n_trials=left, callbacks=[report], catch=())
    return _result(spec, done(), workers, ray, compiling)


def _result(
    spec: SearchSpec,
    finished: list[Any],
    workers: int | None,
    ray: str | None,
    compiling: Report | None = None,
) -> SearchResult:
    trials = [
        {
            "trial": t.number,
            "rules": dict(t.params),
            "loss": t.value,
            "metrics": t.user_attrs.get("metrics", {}),
        }
        for t in finished
        if t.value is not None
    ]
    invalid = sum(1 for t in finished if t.value is None)
    best: list[dict[str, Any]] = []
    for t in sorted(trials, key=lambda x: (x["loss"], x["trial"])):
        if t["rules"] not in [b["rules"] for b in best]:
            best.append(t)
        if len(best) == spec.recheck:
            break
    fresh = spec.seed + FRESH_SEEDS
    cands = [
        Candidate(
            b["rules"],
            b["trial"],
            b["loss"],
            evaluate_rules(spec, b["rules"], fresh, spec.recheck_games, workers, ray, compiling),
        )
        for b in best
    ]
    cands.sort(key=lambda c: (c.recheck.loss, c.search_loss))
    return SearchResult(spec, trials, cands, invalid)


def best_rules(result: SearchResult, name: str) -> Any:
    """The winner as a rules model named ``name`` (its description says how it was found)."""
    from sheepfold.rulesets import with_options

    best = result.candidates[0]
    goals = ", ".join(g.text() for g in result.spec.goals)
    model = rules_of(result.spec, best.params, name)
    return with_options(
        result.spec.game,
        model,
        description=f"found by sheepfold lab search ({goals}): {params_text(best.params)}",
    )


def write_rule_file(result: SearchResult, out: Path, name: str) -> Path:
    """The winner as a rule file ready for ``play``, the lab and the gallery."""
    from sheepfold.rulesets import RuleSet, save_ruleset

    rs = RuleSet(result.spec.game, best_rules(result, name), "search", result.spec.base_name)
    return save_ruleset(rs, out, True)


# -- the plot -------------------------------------------------------------------------------------
def search_figure(result: SearchResult) -> Any:
    """The search at a glance: every trial's loss and the best so far, then the loss against
    each varied option (the re-evaluated candidates marked)."""
    import numpy as np

    from sheepfold.lab.report import COLOURS, _plt

    plt = _plt()
    dims = result.spec.dims
    panels = 1 + len(dims)
    cols = min(3, panels)
    rows = math.ceil(panels / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows), squeeze=False)
    trials = sorted(result.trials, key=lambda t: t["trial"])
    xs = np.array([t["trial"] for t in trials])
    ys = np.array([t["loss"] for t in trials])
    ax = axes.flat[0]
    ax.scatter(xs, ys, s=12, color=COLOURS[0], label="trial")
    if len(ys):
        ax.step(xs, np.minimum.accumulate(ys), where="post", color=COLOURS[1], label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("loss (0 = every goal met)")
    ax.set_title("the search", fontsize=10)
    ax.legend(fontsize=8)
    picked = {c.trial for c in result.candidates}
    for ax, d in zip(list(axes.flat)[1:], dims, strict=False):
        vals = [t["rules"].get(d.key) for t in trials]
        if d.kind == "choice":
            labels = [_value_text(c) for c in d.choices]
            pos = [labels.index(_value_text(v)) for v in vals]
            ax.set_xticks(range(len(labels)), labels)
        else:
            pos = vals
            if d.kind == "int":
                from matplotlib.ticker import MaxNLocator

                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.scatter(pos, ys, s=12, color=COLOURS[0])
        mark = [i for i, t in enumerate(trials) if t["trial"] in picked]
        ax.scatter(
            [pos[i] for i in mark],
            ys[mark],
            s=60,
            facecolors="none",
            edgecolors=COLOURS[3],
            label="played again",
        )
        ax.set_xlabel(d.key)
        ax.set_title(f"loss against {d.key}", fontsize=10)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[panels:]:
        ax.axis("off")
    goals = ", ".join(g.text() for g in result.spec.goals)
    fig.suptitle(f"{result.spec.game}, from {result.spec.base_name}: {goals}", fontsize=11)
    fig.tight_layout()
    return fig


def search_plot(result: SearchResult) -> bytes:
    from sheepfold.lab.report import _png

    return _png(search_figure(result))


def describe_goals(goals: Sequence[Goal]) -> str:
    return "; ".join(g.text() for g in goals)
