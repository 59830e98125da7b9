"""`sheepfold lab search`: several options toward a designer's goals (Optuna), the best few
played again on fresh seeds, a rule file, resume after Ctrl-C, clear errors."""

from __future__ import annotations

import json
import tomllib

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from sheepfold.lab.search import (
    Dimension,
    Goal,
    SearchError,
    SearchSpec,
    parse_goal,
    parse_vary,
    search,
    search_figure,
    storage_path,
)

runner = CliRunner()
#: a tiny search: random bots through the engine (no kernel to compile), few games
TINY = ["--games", "30", "--recheck", "2", "--recheck-games", "60", "--engine", "engine"]
TINY += ["--workers", "1"]


def _spec(**kw) -> SearchSpec:  # type: ignore[no-untyped-def]
    base = dict(
        game="shave-a-sheep",
        base={},
        base_name="rulebook",
        dims=(Dimension("wool", "int", 10, 60),),
        goals=(Goal("length", 1.0, 20),),
        games=30,
        recheck=2,
        recheck_games=60,
        engine="engine",
    )
    base.update(kw)
    return SearchSpec(**base)  # type: ignore[arg-type]


def test_parse_vary_and_goal() -> None:
    assert parse_vary("wool=10..60") == Dimension("wool", "int", 10, 60)
    assert parse_vary("wool=10..60:5").step == 5
    assert parse_vary("shear_cost=0.5..2").kind == "float"
    assert parse_vary("wolf_to=middle,roller").choices == ("middle", "roller")
    assert parse_vary("final_shear=true,false").choices == (True, False)
    assert parse_goal("length=40") == Goal("length", 1.0, 40)
    assert parse_goal("fair:2") == Goal("fair", 2.0)
    assert parse_goal("length=40:0.5") == Goal("length", 0.5, 40)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wool", "write OPTION=LO..HI"),
        ("wool=60..10", "a range goes up"),
        ("wool=a..b", "takes numbers"),
        ("wool=10..61:5", "not a multiple of the step 5"),
        ("wool=10", "at least two choices"),
        ("wolf_to=middle,middle", "listed twice"),
    ],
)
def test_bad_vary_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SearchError, match=message) as e:
        parse_vary(spec)
    assert f"--vary {spec!r}" in str(e.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fun", "no such goal; the goals are length, fair, ties"),
        ("length", "write length=N with N a positive number of turns"),
        ("length=-3", "positive number of turns"),
        ("fair:0", "a weight after ':' is a positive number"),
        ("fair:x", "a weight after ':' is a positive number"),
        ("fair=3", "takes no value"),
    ],
)
def test_bad_goal_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SearchError, match=message):
        parse_goal(spec)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "woolly=1..3", "--goal", "fair"], "shave-a-sheep has no option 'woolly'"),
        (["--vary", "wool=0..3", "--goal", "fair"], "--vary wool=0..3: wool = 0:"),
        (["--goal", "fair"], "give at least one --vary"),
        (["--vary", "wool=10..20"], "give at least one --goal"),
        (["--vary", "wool=10..20", "--vary", "wool=5..9", "--goal", "fair"], "given twice"),
        (["--vary", "wool=10..20", "--goal", "ties:-1"], "a weight after ':'"),
    ],
)
def test_cli_refuses_bad_input_before_playing(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["lab", "search", "shave-a-sheep", *args, *TINY])
    assert r.exit_code == 2, r.output
    assert message in " ".join(r.output.split()), r.output


def test_a_tiny_search_finds_the_short_games() -> None:
    """Length grows with the wool (about 2.5 turns a piece with random players): for games of 20
    turns the search goes to the bottom of wool=10..60, and the rechecked winner is short."""
    result = search(_spec(), 10)
    assert len(result.trials) == 10
    best = result.candidates[0]
    assert best.params["wool"] <= 16, best.params
    worst = max(result.trials, key=lambda t: t["loss"])
    assert worst["rules"]["wool"] > best.params["wool"]
    length = best.recheck.metrics["length_mean"]
    assert length["lo"] <= length["value"] <= length["hi"] and length["value"] < 45
    # every trial on the same seeds (common random numbers): the same rules give the same loss
    again = search(_spec(), 4)  # the sampler is seeded: the same first trials, the same losses
    assert again.trials == result.trials[:4]


def test_json_shape_and_rule_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "short.toml"
    plot = tmp_path / "search.png"
    r = runner.invoke(
        app,
        ["lab", "search", "shave-a-sheep", "--vary", "wool=10..40", "--vary", "max_wool=3..6"]
        + ["--goal", "length=25", "--goal", "fair:0.5", "--trials", "5", *TINY]
        + ["--out", str(out), "--plot", str(plot), "--json"],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    best = data["best"]
    assert set(best["rules"]) == {"wool", "max_wool"}
    for m in best["metrics"].values():
        lo, hi = m["ci"]
        assert set(m) >= {"mean", "ci"} and lo <= m["mean"] <= hi
    assert {"length_mean", "balance", "first_player_advantage"} <= set(best["metrics"])
    assert best["ended_by"] == {"middle": 1.0}
    assert data["candidates"][0] == best and len(data["candidates"]) == 2
    assert data["trials"] == 5 and data["out"] == str(out)
    written = tomllib.loads(out.read_text())
    assert written["game"] == "shave-a-sheep" and written["name"] == "short"
    assert written["wool"] == best["rules"]["wool"]
    assert plot.read_bytes().startswith(b"\x89PNG")
    from sheepfold.rulesets import read_ruleset_file

    rs = read_ruleset_file(out)  # a valid rule set, ready for play
    assert rs.name == "short" and rs.rules.wool == best["rules"]["wool"]
    assert "found by sheepfold lab search" in (rs.rules.description or "")
    text = runner.invoke(
        app,
        ["lab", "search", "shave-a-sheep", "--vary", "wool=10..40", "--vary", "max_wool=3..6"]
        + ["--goal", "length=25", "--goal", "fair:0.5", "--trials", "5", *TINY]
        + ["--out", str(out)],
    )
    assert text.exit_code == 0, text.output
    said = " ".join(text.output.split())
    # the terminal's width may wrap a long path anywhere: compare without any whitespace
    assert "best: wool = " in said and f"rulefile:{out}" in "".join(said.split())
    assert "games ended because the middle ran out of wool 100.0%" in said


def test_resume_after_ctrl_c(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C after three trials keeps them in the SQLite file; the same search goes on to the
    asked number (the first three unchanged) and refuses another search's file."""
    db = storage_path(tmp_path / "r.toml")
    seen = []

    def stop_after_three(done: int, total: int, best: float | None) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search(_spec(), 8, db, progress=stop_after_three)
    first = search(_spec(recheck=1), 3, db)  # nothing left to play: the three trials
    assert len(first.trials) == 3
    done = search(_spec(), 5, db)
    assert len(done.trials) == 5
    assert done.trials[:3] == first.trials
    with pytest.raises(SearchError, match="holds another search"):
        search(_spec(goals=(Goal("fair"),)), 5, db)


def test_cli_resumes_and_refuses_an_existing_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "x.toml"
    out.write_text("not mine")
    args = ["lab", "search", "shave-a-sheep", "--vary", "wool=10..20", "--goal", "ties"]
    r = runner.invoke(app, [*args, "--trials", "2", *TINY, "--out", str(out)])
    assert r.exit_code == 2 and "add --overwrite" in r.output
    r = runner.invoke(app, [*args, "--trials", "2", *TINY, "--out", str(out), "--overwrite"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*args, "--trials", "3", *TINY, "--out", str(out), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["trials"] == 3  # two kept, one more played


def test_the_plot_has_integer_ticks_and_one_panel_per_option() -> None:
    spec = _spec(
        dims=(
            Dimension("wool", "int", 10, 14),
            Dimension("wolf_to", "choice", choices=("middle", "roller")),
        )
    )
    result = search(spec, 4)
    fig = search_figure(result)
    axes = [ax for ax in fig.axes if ax.axison]
    assert [ax.get_xlabel() for ax in axes] == ["trial", "wool", "wolf_to"]
    ticks = axes[1].get_xticks()
    assert all(float(x).is_integer() for x in ticks)
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["middle", "roller"]
    assert "games of about 20 turns" in fig._suptitle.get_text()


def test_a_piped_table_keeps_its_width() -> None:
    """Piped (CliRunner is no terminal), the search's table is printed at its own width: no
    cell is cut short with an ellipsis."""
    r = runner.invoke(
        app,
        ["lab", "search", "shave-a-sheep", "--vary", "wool=10..20", "--vary", "max_wool=3..6"]
        + ["--goal", "length=25", "--trials", "2", *TINY],
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output and "max_wool" in r.output
    assert max(len(line) for line in r.output.splitlines()) > 80


def test_the_search_says_when_its_games_wait_on_compilation(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A cold cache compiles the simulator at the first trial's games: the search hands its
    ``compiling`` report to every game run (``runner.run`` then says "compiling the simulator"
    as its own step), so a log shows it instead of minutes of silence."""
    from sheepfold.lab import runner as lab_runner

    seen = []
    real = lab_runner.run

    def run(*args, **kw):  # type: ignore[no-untyped-def]
        seen.append(kw.get("compiling"))
        return real(*args, **kw)

    monkeypatch.setattr(lab_runner, "run", run)

    def said(what: str, seconds: float | None) -> None:
        pass

    search(_spec(recheck=1), 2, compiling=said)
    assert seen and all(c is said for c in seen), seen
