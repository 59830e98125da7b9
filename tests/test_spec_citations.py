"""The spec lives in the repo (docs/spec/): every citation points there and names what exists.

Walks ``src/``, ``tests/``, ``docs/`` (not ``docs/spec/`` itself), ``bench/``, ``examples/`` and
``README.md`` and fails, naming file:line, when

- a ruling is cited that docs/spec/rulings.md does not have for that game;
- a comment, docstring, doc or other prose cites a ruling without naming its game (the form is
  described in docs/spec/README.md). Strings the program prints (Python string literals that are
  not docstrings, JSON golden files, Markdown code) keep their short form: they are golden
  outputs; their number must still exist, in the file's game when the path names one;
- anything still points at the spec files outside the repository;
- a principle is cited that docs/spec/principles.md does not have.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec"
WALKED = ("src", "tests", "docs", "bench", "examples", "README.md")
TEXT = {".py", ".md", ".js", ".html", ".css", ".toml", ".json", ".txt", ".cfg", ".yml", ".yaml"}
SKIPPED = {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", "screenshots"}
GAMES = ("Dolly Crush", "Shave a Sheep")
# the spec files outside the repo, joined here so that this file does not match itself
OUTSIDE = tuple(
    a + b
    for a, b in [("RULINGS", ".md"), ("style", ".md"), ("architecture", ".md")]
    + [("shared/", "rules"), ("shared/", "spec"), ("shared/", "design")]
)

NUMBERS = r"\d+(?:\s*[-–]\s*\d+|\s*,\s*\d+|\s+(?:and|or)\s+\d+)*"
QUALIFIED = re.compile(rf"\b({'|'.join(GAMES)}) rulings? ({NUMBERS})")
BARE = re.compile(rf"\b[Rr]ulings? ({NUMBERS})")
PRINCIPLE = re.compile(rf"\b[Pp]rinciples? ({NUMBERS})")
CODE_SPAN = re.compile(r"`[^`]*`")


def numbers(text: str) -> list[int]:
    """``6`` -> [6]; ``2, 3 and 6`` -> [2, 3, 6]; ``7-10`` -> [7, 8, 9, 10]."""
    out: list[int] = []
    for a, b in re.findall(r"(\d+)(?:\s*[-–]\s*(\d+))?", text):
        out += range(int(a), int(b or a) + 1)
    return out


def spec_rulings() -> dict[str, set[int]]:
    """The rulings docs/spec/rulings.md restates: {game: numbers}, from its headings."""
    text = (SPEC / "rulings.md").read_text(encoding="utf-8")
    found: dict[str, set[int]] = {g: set() for g in GAMES}
    for game, n in re.findall(rf"^### ({'|'.join(GAMES)}) ruling (\d+): ", text, re.M):
        found[game].add(int(n))
    return found


def spec_principles() -> set[int]:
    text = (SPEC / "principles.md").read_text(encoding="utf-8")
    return {int(n) for n in re.findall(r'<a id="principle-(\d+)"></a>', text)}


def walked_files() -> Iterator[Path]:
    for name in WALKED:
        top = ROOT / name
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            rel = path.relative_to(ROOT)
            if (
                path.is_file()
                and path.suffix in TEXT
                and not SKIPPED.intersection(rel.parts)
                and not any(p.endswith(".egg-info") for p in rel.parts)
                and rel.parts[:2] != ("docs", "spec")
            ):
                yield path


def prose_lines(path: Path, text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of what a person reads as prose: comments and docstrings in Python,
    Markdown outside code, every line of other text files (but none of JSON data)."""
    lines = text.splitlines()
    if path.suffix == ".py":
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.string
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                end = node.end_lineno or node.lineno
                for n in range(node.lineno, end + 1):
                    yield n, lines[n - 1]
    elif path.suffix == ".md":
        fenced = False
        for n, line in enumerate(lines):
            if line.lstrip().startswith("```") or fenced:
                fenced ^= line.lstrip().startswith("```")
                lines[n] = ""
        # a code span may go on on the next line: blank it out, keeping the line breaks
        prose = CODE_SPAN.sub(lambda m: "\n" * m[0].count("\n"), "\n".join(lines))
        yield from enumerate(prose.split("\n"), 1)
    elif path.suffix != ".json":
        yield from enumerate(lines, 1)


def path_game(path: Path) -> str | None:
    """The game a file is about, when its path says so."""
    rel = str(path.relative_to(ROOT)).lower()
    hits = [g for g, key in zip(GAMES, ("dolly", "shave"), strict=True) if key in rel]
    return hits[0] if len(hits) == 1 else None


def where(path: Path, n: int) -> str:
    return f"{path.relative_to(ROOT)}:{n}"


def test_the_spec_restates_every_ruling_under_its_number_with_an_anchor() -> None:
    rulings = spec_rulings()
    assert rulings == {"Dolly Crush": set(range(1, 10)), "Shave a Sheep": set(range(1, 11))}
    text = (SPEC / "rulings.md").read_text(encoding="utf-8")
    for game, found in rulings.items():
        slug = game.lower().replace(" ", "-")
        for n in found:
            assert f'<a id="{slug}-ruling-{n}"></a>\n### {game} ruling {n}: ' in text


def test_every_cited_ruling_exists_in_the_spec() -> None:
    rulings = spec_rulings()
    everywhere = set().union(*rulings.values())
    bad: list[str] = []
    cited = 0
    for path in walked_files():
        game_of_file = path_game(path)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in QUALIFIED.finditer(line):
                cited += 1
                missing = [k for k in numbers(m[2]) if k not in rulings[m[1]]]
                if missing:
                    bad.append(f"{where(path, n)}: {m[0]!r}: no {m[1]} ruling {missing}")
            # a printed message's short form: the number must exist for the file's game
            for m in BARE.finditer(QUALIFIED.sub("", line)):
                known = rulings[game_of_file] if game_of_file else everywhere
                missing = [k for k in numbers(m[1]) if k not in known]
                if missing:
                    game = game_of_file or "Dolly Crush or Shave a Sheep"
                    bad.append(f"{where(path, n)}: {m[0]!r}: no {game} ruling {missing}")
    assert cited > 50, "the walk found almost no citations: is it looking in the right place?"
    assert not bad, "\n".join(bad)


def test_prose_names_the_game_of_every_ruling_it_cites() -> None:
    bad = [
        f"{where(path, n)}: {m[0]!r}: write 'Dolly Crush {m[0]}' or 'Shave a Sheep {m[0]}'"
        for path in walked_files()
        for n, line in prose_lines(path, path.read_text(encoding="utf-8"))
        for m in BARE.finditer(QUALIFIED.sub("", line))
    ]
    assert not bad, "\n".join(bad)


def test_nothing_points_to_the_spec_outside_the_repo() -> None:
    bad = [
        f"{where(path, n)}: {needle!r} (the spec is docs/spec/ now)"
        for path in walked_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for needle in OUTSIDE
        if needle in line
    ]
    assert not bad, "\n".join(bad)


def test_every_cited_principle_exists_in_the_spec() -> None:
    principles = spec_principles()
    assert principles == set(range(1, 11))
    bad = [
        f"{where(path, n)}: {m[0]!r}: docs/spec/principles.md has no such principle"
        for path in walked_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in PRINCIPLE.finditer(line)
        if not set(numbers(m[1])) <= principles
    ]
    assert not bad, "\n".join(bad)


def test_every_ruling_has_a_test_named_after_it() -> None:
    """The project's standard: tests/test_rulings_dolly.py has ``test_dolly_ruling_6_...``."""
    missing = []
    for game, found in spec_rulings().items():
        key = game.split()[0].lower()  # dolly, shave
        tree = ast.parse((ROOT / "tests" / f"test_rulings_{key}.py").read_text(encoding="utf-8"))
        names = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
        for n in sorted(found):
            if not any(name.startswith(f"test_{key}_ruling_{n}_") for name in names):
                missing.append(f"{game} ruling {n}")
    assert not missing, f"no test named after: {missing}"
