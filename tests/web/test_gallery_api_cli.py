"""``sheepfold rules publish``, ``rules gallery`` and ``rules get`` against a live server (port 0),
and their one-line errors for a refusing or unreachable server."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from sheepfold.cli.main import app

GAME = "shave-a-sheep"


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_publish_list_and_get_round_trip(make_server, tmp_path: Path) -> None:
    srv = make_server(lab_workers=0)
    src = tmp_path / "short.toml"
    src.write_text('game = "shave-a-sheep"\nname = "Short wool"\nwool = 12\n')
    r = run("rules", "publish", str(src), "--server", srv.url, "--author", "ewe", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert (out["slug"], out["version"]) == ("short-wool", 1)

    src.write_text('game = "shave-a-sheep"\nname = "Short wool"\nwool = 10\n')
    args = ["--server", srv.url, "--slug", "short-wool", "--token", out["token"]]
    r = run("rules", "publish", str(src), *args, "--description", "even less")
    assert r.exit_code == 0 and "version 2" in r.output, r.output

    r = run("rules", "gallery", GAME, "--server", srv.url, "--search", "short")
    assert r.exit_code == 0 and "Short wool" in r.output and "queued" in r.output, r.output
    r = run("rules", "gallery", GAME, "--server", srv.url, "--json")
    [e] = json.loads(r.output)["entries"]
    assert (e["slug"], e["version"], e["description"]) == ("short-wool", 2, "even less")
    r = run("rules", "gallery", GAME, "--server", srv.url, "--json", "--changes", "die")
    assert json.loads(r.output)["entries"] == []

    got = tmp_path / "got.toml"
    r = run("rules", "get", GAME, "short-wool@1", "--server", srv.url, "-o", str(got))
    assert r.exit_code == 0, r.output
    from sheepfold.rulesets import read_ruleset_file

    rs = read_ruleset_file(got)
    assert (rs.rules.wool, rs.rules.name) == (12, "Short wool")
    r = run("rules", "get", GAME, "short-wool", "--server", srv.url)  # the latest, on stdout
    assert r.exit_code == 0 and "wool = 10" in r.output and "even less" in r.output


def test_refusals_and_an_unreachable_server_are_one_line(make_server, tmp_path: Path) -> None:
    srv = make_server(lab_workers=0)
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "shave-a-sheep"\nname = "x"\nwool = 12\n')
    r = run("rules", "publish", str(bad), "--server", srv.url, "--author", "a\x07b")
    assert r.exit_code == 2 and "the server refused (422)" in r.output and "U+0007" in r.output
    r = run("rules", "publish", str(bad), "--server", srv.url, "--slug", "x", "--token", "t")
    assert r.exit_code == 2 and "the server refused (404)" in r.output
    r = run("rules", "get", GAME, "nothing@1", "--server", srv.url)
    assert r.exit_code == 2 and "404" in r.output

    with socket.socket() as s:  # a port nobody listens on (bound, never listening)
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
        r = run("rules", "gallery", GAME, "--server", dead)
    assert r.exit_code == 2 and f"cannot reach the server at {dead}" in r.output
    assert "Traceback" not in r.output


def test_a_published_file_keeps_the_base_it_starts_from(make_server, tmp_path: Path) -> None:
    """`rules publish` sends the file's own options with its base (its `from`, else the game's
    default rules): the gallery describes the rule set against that base."""
    srv = make_server(lab_workers=0)
    src = tmp_path / "race.toml"
    src.write_text(
        'game = "shave-a-sheep"\nname = "Free race"\nfrom = "race-to-twelve"\nshear_cost = 0\n'
        "rerolls = 0\n"  # as near the rulebook as its base: the base it names counts
    )
    assert run("rules", "publish", str(src), "--server", srv.url, "--author", "ewe").exit_code == 0
    e = srv.http.get(f"/api/gallery/{GAME}/free-race/1").json()
    assert e["base"] == "the race to twelve rules" and e["changes"] == ["shearing", "die"]
    assert e["options"]["target"] == 12 and "rerolls" not in e["options"]
    tall = tmp_path / "tall.toml"  # no `from`: a Dolly Crush file starts from the graded edition
    tall.write_text('game = "dolly-crush"\nname = "Tall flock"\nrows = 4\n')
    assert run("rules", "publish", str(tall), "--server", srv.url, "--author", "ewe").exit_code == 0
    e = srv.http.get("/api/gallery/dolly-crush/tall-flock/1").json()
    assert e["base"] == "the graded edition" and len(e["differences"]) == 1
