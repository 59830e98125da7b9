"""``sheepfold rules publish``, ``rules gallery`` and ``rules get``: a server's rule-set gallery
from the command line (the HTTP API of docs/gallery.md, through httpx).

Every answer is the server's: a refusal (bad rules, a wrong token, too many publishes) is
printed as the server worded it, with its HTTP status; an unreachable server is one line
naming the address. Texts from the server (names, descriptions) reach the terminal through
``safe_text``: no control character or bidi mark is printed as such.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from sheepfold.cli.common import GAME_HELP, check_game, console, fail, friendly_errors, safe_text

DEFAULT_SERVER = "http://127.0.0.1:8000"
SERVER_HELP = f"the sheepfold server (default: $SHEEPFOLD_SERVER or {DEFAULT_SERVER})"


def _server(url: str | None) -> str:
    return (url or os.environ.get("SHEEPFOLD_SERVER") or DEFAULT_SERVER).rstrip("/")


def _call(method: str, server: str, path: str, **kw: Any) -> Any:
    """One request to the server: its JSON answer, or a one-line failure (exit 2)."""
    try:
        import httpx
    except ImportError:
        raise fail(
            "the gallery commands need the 'web' extra: pip install 'sheepfold[web]'"
        ) from None
    try:
        r = httpx.request(method, server + path, timeout=30, **kw)
    except httpx.InvalidURL as e:
        raise fail(f"--server {server}: not a valid address ({e})") from None
    except httpx.TransportError as e:
        raise fail(f"cannot reach the server at {server}: {e or type(e).__name__}") from None
    if r.status_code >= 400:
        try:
            detail = r.json().get("detail")
        except (ValueError, AttributeError):
            detail = None
        raise fail(f"the server refused ({r.status_code}): {detail or r.reason_phrase}")
    try:
        return r.json()
    except ValueError:
        raise fail(f"{server} answered {path} with something that is not JSON") from None


def _published_rules(file: Path, rs: Any) -> dict[str, Any]:
    """What ``publish`` sends of a rule file: its own options with the base it starts from (its
    ``from``, or the game's default rules), as the file says them, when that base is one every
    server knows (the rulebook or a built-in rule set): the gallery describes and measures the
    rule set against it. A file on a rule set of your own folder sends every option that
    differs from the rulebook instead (the server then finds the closest base)."""
    from sheepfold.core.files import MAX_RULES_BYTES, parse_document, read_bytes, rule_file_kind
    from sheepfold.rulesets import BASE_KEY, RULEBOOK, builtin_rulesets

    texts = ("name", "description")
    if rs.base == RULEBOOK or any(
        r.game == rs.game and r.rules.name == rs.base for r in builtin_rulesets()
    ):
        raw = read_bytes(file, MAX_RULES_BYTES)  # read and checked once already
        data = parse_document(raw, rule_file_kind(file), str(file), max_bytes=MAX_RULES_BYTES)
        own = {k: v for k, v in data.items() if k not in (*texts, "game", BASE_KEY)}
        return {**own, BASE_KEY: rs.base}
    return {
        k: v
        for k, v in rs.rules.model_dump(mode="json", exclude_defaults=True).items()
        if k not in texts
    }


def publish(
    file: Path = typer.Argument(
        ..., help="a rule-set file (.toml or .json), as 'rules new' writes"
    ),
    server: str = typer.Option(None, "--server", help=SERVER_HELP),
    name: str = typer.Option(None, "--name", help="the name in the gallery (default: the file's)"),
    author: str = typer.Option(None, "--author", help="your nickname (a new rule set needs it)"),
    description: str = typer.Option(
        None, "--description", help="what it changes, in a few words (default: the file's)"
    ),
    slug: str = typer.Option(None, "--slug", help="publish a new version of this rule set"),
    token: str = typer.Option(
        None, "--token", help="the token its first publish printed (with --slug)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the server's answer as JSON"),
) -> None:
    """Publish a rule set to a server's gallery, or (--slug and --token) a new version of one.
    Its lab card is computed by the server in the background: see 'sheepfold rules gallery'.

    Example: sheepfold rules publish short.toml --server http://host:8000 --author ewe
    """
    from sheepfold.rulesets import read_ruleset_file

    rs = read_ruleset_file(file)  # checked here first: the server checks again
    rules = _published_rules(file, rs)
    about = description if description is not None else (rs.rules.description or "")
    url = _server(server)
    if slug or token:
        if not (slug and token):
            raise fail("a new version needs both --slug and --token")
        body: dict[str, Any] = {"token": token, "rules": rules}
        if description is not None:
            body["description"] = description
        out = _call("POST", url, f"/api/gallery/{rs.game}/{slug}/versions", json=body)
    else:
        title = name or rs.rules.name
        if not title:
            raise fail(f"{file}: give the rule set a name (--name)")
        if not author:
            raise fail("--author: say who publishes it (a nickname)")
        body = {"name": title, "author": author, "description": about, "rules": rules}
        out = _call("POST", url, f"/api/gallery/{rs.game}", json=body)
    if as_json:
        print(json.dumps(out))
        return
    console.print(
        Text(
            f"published {rs.game} rule set {out['slug']} version {out['version']}: {url}{out['url']}"
        )
    )
    if "token" in out:
        console.print(
            Text(
                f"token: {out['token']}\n(keep it: with --slug {out['slug']} --token ... it "
                "publishes new versions; the server never shows it again)"
            )
        )


def gallery(
    game: str = typer.Argument(..., help=GAME_HELP),
    server: str = typer.Option(None, "--server", help=SERVER_HELP),
    search: str = typer.Option(None, "--search", "-q", help="words in the name, text or author"),
    changes: str = typer.Option(
        None, "--changes", help="only rule sets changing these categories (wool,die,...)"
    ),
    sort: str = typer.Option(
        "newest", "--sort", help="newest, played, liked, shorter or fairer (lab cards)"
    ),
    limit: int = typer.Option(50, "--limit", min=1, max=200),
    as_json: bool = typer.Option(False, "--json", help="print the server's answer as JSON"),
) -> None:
    """List a server's published rule sets of a game: the latest version of each, with what it
    changes, how often it was played, its votes and its lab card's verdict.

    Example: sheepfold rules gallery shave-a-sheep --search wolf --sort shorter
    """
    check_game(game)
    params: dict[str, Any] = {"sort": sort, "limit": limit}
    if search:
        params["q"] = search
    if changes:
        params["changes"] = changes
    out = _call("GET", _server(server), f"/api/gallery/{game}", params=params)
    if as_json:
        print(json.dumps(out))
        return
    entries = out["entries"]
    if not entries:
        console.print(f"no rule set in the {game} gallery matches")
        return
    table = Table(title=f"{game} gallery ({len(entries)})")
    table.add_column("rule set", overflow="fold")  # the slug whole: 'rules get' needs it
    for head in ("name", "author", "changes", "played", "again?", "lab card"):
        table.add_column(head)
    for e in entries:
        table.add_row(
            f"{e['slug']}@{e['version']}",
            Text(safe_text(e["name"])),
            Text(safe_text(e["author"])),
            ", ".join(e["changes"]),
            f"{e['played']} ({e['finished']} finished)",
            f"{e['votes_yes']}/{e['votes_total']}",
            Text(safe_text(_lab_words(e["lab"]))),
        )
    console.print(table)


def _lab_words(lab: dict[str, Any]) -> str:
    if lab["status"] == "done":
        return lab.get("verdict") or "done"
    if lab["status"] == "queued" and lab.get("position_in_queue"):
        return f"queued ({lab['position_in_queue']} in line)"
    if lab["status"] == "running":
        return f"running ({100 * lab.get('progress', 0):.0f}%)"
    return f"{lab['status']}: {lab.get('message') or ''}".rstrip(": ")


def get(
    game: str = typer.Argument(..., help=GAME_HELP),
    ref: str = typer.Argument(..., help="SLUG or SLUG@VERSION (default: the latest version)"),
    server: str = typer.Option(None, "--server", help=SERVER_HELP),
    output: Path = typer.Option(
        None, "--output", "-o", help="write the rule-set file here (.toml or .json)"
    ),
) -> None:
    """Download a published rule set as a rule-set file (TOML, or JSON for a .json output):
    play it with --rules FILE, or save it in your rules folder.

    Example: sheepfold rules get shave-a-sheep short-wool@2 -o short.toml
    """
    from sheepfold.games import parse_rules
    from sheepfold.rulesets import BASE_KEY, RULEBOOK, rules_toml

    check_game(game)
    slug, _, version = ref.partition("@")
    if version and not version.isdigit():
        raise fail(f"{ref}: the version after @ is a number (short-wool@2)")
    url = _server(server)
    if not version:
        version = str(_call("GET", url, f"/api/gallery/{game}/{slug}")["version"])
    out = _call("GET", url, f"/api/gallery/{game}/{slug}/{version}")
    options = {**out["options"], "name": out["name"]}
    if out.get("description"):
        options["description"] = out["description"]
    rules = parse_rules(game, options)
    if output is not None and output.suffix == ".json":
        text = (
            json.dumps(
                {
                    "game": game,
                    BASE_KEY: RULEBOOK,  # the options differ from the rulebook
                    **rules.model_dump(mode="json", exclude_defaults=True),
                },
                indent=1,
            )
            + "\n"
        )
    else:
        origin = (
            f"# from {url}{out['url']} (version {out['version']}, by {safe_text(out['author'])})\n"
        )
        text = origin + rules_toml(game, rules)
    if output is None:
        print(text, end="")
        return
    output.write_text(text, encoding="utf-8")
    console.print(Text(f"saved {slug} version {out['version']} to {output}"))


def register(app: typer.Typer) -> None:
    app.command("publish")(friendly_errors(publish))
    app.command("gallery")(friendly_errors(gallery))
    app.command("get")(friendly_errors(get))
