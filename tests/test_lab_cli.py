"""`sheepfold lab`: run, show, record, compare, variants; reports; clear errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app

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
    assert "B − A" in html.read_text()
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


def test_bad_input_is_one_clear_line(tmp_path):  # type: ignore[no-untyped-def]
    cases = [
        (["lab", "run", "chess"], "unknown game"),
        (["lab", "run", "shave-a-sheep", "--rules", "no-such-rules"], "no rule set named"),
        (["lab", "run", "shave-a-sheep", "--bot", "nobody"], "no bot named"),
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
        "1200",
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
    assert 0 < kept < 1200
    done = subprocess.run(args + ["--resume", "--json"], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    table = pq.read_table(out)
    assert table.num_rows == 1200
    assert table.column("game_index").to_pylist() == list(range(1200))
