"""`sheepfold lab`: run, show, record, compare, variants; reports; clear errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app
from test_lab_metrics import NEGATIVE_ZERO

runner = CliRunner()


def _ok(args: list[str]) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_run_show_record_and_report(tmp_path):  # type: ignore[no-untyped-def]
    out = tmp_path / "cc.parquet"
    html = tmp_path / "cc.html"
    data = json.loads(
        _ok(
            [
                "lab",
                "run",
                "shave-a-sheep",
                "--rules",
                "cutting-costs",
                "--games",
                "3000",
                "--workers",
                "1",
                "--out",
                str(out),
                "--report",
                str(html),
                "--json",
            ]
        )
    )
    assert data["games"] == 3000 and data["job"]["engine"] == "fast"
    keys = {m["key"] for m in data["metrics"]}
    assert {"length_mean", "win_seat0", "balance", "lead_changes", "drama_rate"} <= keys
    page = html.read_text()
    assert page.count("data:image/png;base64,") >= 3 and "<table>" in page
    shown = json.loads(_ok(["lab", "show", str(out), "--json"]))
    assert shown["metrics"] == data["metrics"]
    rec = tmp_path / "g.json"
    _ok(["lab", "record", str(out), "17", "--out", str(rec)])
    summary = json.loads(_ok(["replay", str(rec), "--json"]))
    import pyarrow.parquet as pq

    row = pq.read_table(out).slice(17, 1).to_pylist()[0]
    assert summary["finished"] and summary["scores"] == row["scores"]


def test_compare_json_and_verdict(tmp_path):  # type: ignore[no-untyped-def]
    html = tmp_path / "cmp.html"
    data = json.loads(
        _ok(
            [
                "lab",
                "compare",
                "shave-a-sheep",
                "rulebook",
                "cutting-costs",
                "--games",
                "4000",
                "--workers",
                "1",
                "--json",
                "--report",
                str(html),
            ]
        )
    )
    assert data["games"] == 4000
    assert "cutting-costs makes games" in data["verdict"]
    L = next(m for m in data["metrics"] if m["key"] == "length_mean")
    assert L["significant"] and L["lo"] <= L["diff"] <= L["hi"]
    page = html.read_text()
    assert "<th>A [95% CI]</th><th>B [95% CI]</th><th>B − A [95% CI]</th>" in page
    assert " pp [" in page and not NEGATIVE_ZERO.search(page)
    text = _ok(
        [
            "lab",
            "compare",
            "shave-a-sheep",
            "rulebook",
            "howling-wolf",
            "--games",
            "2000",
            "--workers",
            "1",
        ]
    )
    assert "howling-wolf" in text and "seat 0" in text


def test_variants_plot(tmp_path):  # type: ignore[no-untyped-def]
    png = tmp_path / "v.png"
    rows = json.loads(
        _ok(
            [
                "lab",
                "variants",
                "shave-a-sheep",
                "-r",
                "shave-rulebook",
                "-r",
                "cutting-costs",
                "--games",
                "2000",
                "--workers",
                "1",
                "--plot",
                str(png),
                "--json",
            ]
        )
    )
    assert [r["name"] for r in rows] == ["shave-rulebook", "cutting-costs"]
    assert rows[1]["length"] > rows[0]["length"]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_compare_table_shows_a_b_and_the_difference_each_with_its_interval():
    r = runner.invoke(
        app,
        ["lab", "compare", "shave-a-sheep", "rulebook", "rulebook", "--games", "600", "-w", "1"],
        env={"COLUMNS": "160"},
    )
    assert r.exit_code == 0, r.output
    lines = [ln.split("│")[1:-1] for ln in r.stdout.splitlines() if ln.count("│") == 7]
    k = next(i for i, cols in enumerate(lines) if cols[0].strip() == "win share of seat 0")
    value = [c.strip() for c in lines[k][1:4]]
    ci = [c.strip() for c in lines[k + 1][1:4]]  # under each value, its 95% interval
    assert value[0] == value[1] and value[0].endswith("%") and value[2] == "0.0 pp"
    assert ci[0] == ci[1] and ci[0].startswith("[") and ci[0].count("%") == 2
    assert ci[2] == "[0.0 pp, 0.0 pp]"  # A against itself: no "-0.0%"
    assert "pp = percentage points" in r.stdout and not NEGATIVE_ZERO.search(r.stdout)


def test_run_says_in_words_when_games_hit_the_turn_limit(tmp_path):  # type: ignore[no-untyped-def]
    rules = tmp_path / "endless.json"
    rules.write_text(
        json.dumps({"die": ["white", "gray", "gray", "white/pink"], "wool": 12, "max_wool": 3})
    )
    args = ["lab", "run", "shave-a-sheep", "-r", str(rules), "-n", "300", "-w", "1"]
    html = tmp_path / "r.html"
    r = runner.invoke(
        app, [*args, "--max-turns", "150", "--report", str(html)], env={"COLUMNS": "200"}
    )
    assert r.exit_code == 0, r.output
    assert (
        "of games (" in r.stdout
        and "hit the 150-turn limit: under these rules a game may" in r.stdout
    )
    assert "games that finished" in r.stdout
    assert "hit the 150-turn limit: under these rules a game may never end" in html.read_text()
    data = json.loads(_ok([*args, "--max-turns", "150", "--json"]))
    assert "may never end" in data["turn_limit_note"]
    quiet = runner.invoke(app, [*args, "--max-turns", "100000"], env={"COLUMNS": "200"})
    assert quiet.exit_code == 0 and "turn limit" not in quiet.stdout  # every game ended


def test_variants_exact_checks_every_rule_set_before_playing(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """4 players: the solver takes no built-in rule set, said at once; 3 players: My friend
    Mr. Wolf is too big (5.9 million positions), played without the exact values, said why."""
    import sheepfold.cli.lab as lab_cli

    played: list[str] = []
    real_play = lab_cli._play

    def play(job, *a, **k):  # type: ignore[no-untyped-def]
        played.append(job.ruleset)
        return real_play(job, *a, **k)

    monkeypatch.setattr(lab_cli, "_play", play)
    r = runner.invoke(app, ["lab", "variants", "shave-a-sheep", "-p", "4", "--exact", "-n", "50"])
    assert r.exit_code == 2 and played == [], r.output
    text = " ".join(r.output.split())
    assert "the solver can take none of these rule sets" in text
    for name in ("shave-rulebook", "cutting-costs", "howling-wolf", "my-friend-mr-wolf"):
        assert name in text
    assert "264,830,580 positions" in text
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"name": "small", "wool": 8, "max_wool": 2}))
    args = ["lab", "variants", "shave-a-sheep", "-p", "3", "--exact", "-n", "200", "-w", "1"]
    args += ["-r", str(small), "-r", "my-friend-mr-wolf"]
    rows = json.loads(_ok([*args, "--json"]))
    assert [r["name"] for r in rows] == ["small", "my-friend-mr-wolf"]
    assert rows[0]["exact_seat0"] is not None and rows[0]["exact_skipped"] is None
    assert rows[1]["exact_seat0"] is None and "5,862,780 positions" in rows[1]["exact_skipped"]
    played.clear()
    out = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "my-friend-mr-wolf: no exact values: the solver cannot take it" in out.stdout
    r = runner.invoke(
        app, [*args[:-4], "--bot", "perfect", "-r", str(small), "-r", "my-friend-mr-wolf"]
    )
    assert (
        r.exit_code == 2
        and "my-friend-mr-wolf: the perfect bot needs the exact solver"
        in " ".join(r.output.split())
    )


def test_bad_input_is_one_clear_line(tmp_path):  # type: ignore[no-untyped-def]
    cases = [
        (["lab", "run", "chess"], "unknown game"),
        (["lab", "run", "shave-a-sheep", "--rules", "no-such-rules"], "no rule set named"),
        (["lab", "run", "shave-a-sheep", "--bot", "nobody"], "no bot named"),
        (["lab", "run", "shave-a-sheep", "-p", "4", "--exact"], "cannot play this job: 52,966,116"),
        (["lab", "run", "dolly-crush", "--bot", "random", "--engine", "fast"], "greedy bots only"),
        (["lab", "show", str(tmp_path / "missing.parquet")], "no such file"),
        (
            ["lab", "compare", "shave-a-sheep", "rulebook", "dolly-graded"],
            "no rule set named 'dolly-graded'",
        ),
    ]
    for args, message in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output, (args, r.output)
        assert "Traceback" not in r.output and "playing" not in r.output


@pytest.mark.slow  # a real process interrupted and resumed: seconds
def test_ctrl_c_keeps_finished_games_and_resume_finishes(tmp_path):  # type: ignore[no-untyped-def]
    """A real SIGINT to `lab run` with 2 worker processes: exit 130, rows kept, --resume ends it."""
    import signal
    import subprocess
    import sys

    import pyarrow.parquet as pq

    from polling import wait_until

    out = tmp_path / "big.parquet"
    games = 600  # 30 chunks of 20: the first is in long before the last
    args = [
        sys.executable,
        "-m",
        "sheepfold.cli.main",
        "lab",
        "run",
        "shave-a-sheep",
        "--engine",
        "engine",
        "--games",
        str(games),
        "--workers",
        "2",
        "--seed",
        "77",
        "--chunk-size",
        "20",
        "--out",
        str(out),
    ]
    # The child gets Ctrl-C's default back: a shell starts background jobs (pytest run with `&`)
    # with SIGINT ignored, Python keeps ignoring an inherited SIG_IGN, and the child would never
    # see the signal this test sends.
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    parts = tmp_path / "big.parquet.parts"
    wait_until(
        lambda: proc.poll() is not None or (parts.is_dir() and any(parts.glob("part-*.parquet"))),
        what="the first finished chunk of `lab run`",
        timeout=120,
    )
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"--resume" in err
    kept = pq.read_table(out).num_rows
    assert 0 < kept < games
    done = subprocess.run(args + ["--resume", "--json"], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    table = pq.read_table(out)
    assert table.num_rows == games
    assert table.column("game_index").to_pylist() == list(range(games))
