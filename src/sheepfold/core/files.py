"""One bounded reader for every file a stranger may send: rule files (TOML or JSON) and records.

Every limit is checked before the parser runs, so that no file can cost more than its cap in
memory or time, nor crash the reader (``docs/spec/records.md``, "Limits"):

- its size in bytes: a path is measured first (``stat``), then at most ``max_bytes + 1`` bytes
  are read, so a device (``/dev/zero``), a pipe or standard input is refused as soon as it
  passes the cap;
- its text: UTF-8 (a leading byte-order mark is ignored); the first byte that is not names its
  value and position;
- its nesting: the depth of brackets and braces outside strings and comments is counted on the
  raw text (the parsers recurse: a deeply nested file would end in a ``RecursionError``); a
  TOML file's dotted keys and tables are counted again once read;
- its syntax: the parser's message, in one line, with an integer too long for Python to read;
- its numbers: NaN, an infinity (JSON's ``NaN`` and ``Infinity``, TOML's ``nan`` and ``inf``)
  and a number too large for a float (``1e400``) are refused, naming where they are
  (``wool: not a number (NaN)``): Python's JSON reader takes them, and no option wants them.

A refusal is a :class:`FileRefused` naming the file and what is wrong, in one line. The web
server calls :func:`parse_document` on a request's body; the command line calls
:func:`read_document` on a path (or ``-``, standard input).
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, Literal

from sheepfold.core.protocol import SheepfoldError
from sheepfold.core.words import Msg

#: the largest rule file (bytes): every option spelled out with its comment is about 6 KB
MAX_RULES_BYTES = 64 * 1024
#: the largest record (bytes): room for :data:`sheepfold.core.records.MAX_MOVES` moves
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: the deepest nesting of lists and tables in any file (a record needs 5, a rule file 3)
MAX_DEPTH = 64

Kind = Literal["json", "toml"]


class FileRefused(SheepfoldError):
    """A file refused before or while parsing (too large, too deep, not UTF-8, not JSON/TOML):
    ``NAME: PROBLEM`` in one line; ``problem`` alone is what is wrong, without the name."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def _size(n: int) -> str:
    """A byte count in words: ``64 KiB``, ``16 MiB``, ``1234 bytes``."""
    for unit, scale in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} bytes"


def _too_large(name: str, max_bytes: int, size: int | None = None) -> FileRefused:
    got = f"{size} bytes" if size is not None else f"more than {max_bytes} bytes"
    return FileRefused(name, f"too large ({got}): such a file holds at most {_size(max_bytes)}")


def read_bytes(source: str | Path | BinaryIO, max_bytes: int, name: str | None = None) -> bytes:
    """The bytes of ``source`` (a path, ``-`` for standard input, or an open binary file), at
    most ``max_bytes`` of them: a regular file is measured before it is read, and nothing reads
    more than ``max_bytes + 1`` bytes. :class:`FileRefused` naming ``name`` (default: the path)."""
    if isinstance(source, (str, Path)) and str(source) == "-":
        source = sys.stdin.buffer
    if not isinstance(source, (str, Path)):
        data = source.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise _too_large(name or "standard input", max_bytes)
        return data
    path = Path(source)
    label = name or str(path)
    try:
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            if st.st_size > max_bytes:
                raise _too_large(label, max_bytes, st.st_size)
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise FileRefused(label, f"cannot read it: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise _too_large(label, max_bytes)
    return data


def decode_text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark is dropped); :class:`FileRefused` naming
    the first byte that is not UTF-8 and its position (0-based, in bytes)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise FileRefused(
            name, f"not UTF-8 text: byte 0x{data[e.start]:02X} at position {e.start}"
        ) from None


# strings and comments, which may hold brackets that nest nothing (unrolled: fast on megabytes)
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_TOML_SKIP = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*\'|#[^\n]*'
)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def bracket_depth_over(text: str, kind: Kind, max_depth: int) -> bool:
    """Whether ``text`` nests lists or tables (brackets, braces) more than ``max_depth`` deep,
    strings and comments left out; counted without parsing, in time linear in the text."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    skip = _JSON_STRING if kind == "json" else _TOML_SKIP
    brackets = _NOT_BRACKET.sub("", skip.sub("", text))
    brackets = brackets.replace("{", "[").replace("}", "]")
    # each pass removes the innermost pairs: a pair still there after max_depth passes is
    # nested deeper (unmatched brackets never form "[]": the parser reports them)
    for _ in range(max_depth):
        shorter = brackets.replace("[]", "")
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return "[]" in brackets


def data_depth_over(data: Any, max_depth: int) -> bool:
    """Whether parsed ``data`` nests lists and dicts more than ``max_depth`` deep (no recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= max_depth:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items if isinstance(v, (dict, list)))
    return False


def _too_deep(name: str, max_depth: int) -> FileRefused:
    return FileRefused(
        name,
        f"nested too deeply: lists and tables more than {max_depth} deep (no rule set or "
        "record needs more than a few levels)",
    )


def parse_document(
    data: bytes | str,
    kind: Kind,
    name: str,
    *,
    max_bytes: int = MAX_RULES_BYTES,
    max_depth: int = MAX_DEPTH,
    parse_json: Callable[[str], Any] | None = None,
) -> Any:
    """``data`` (the bytes of a file or a request's body) read as JSON or TOML, every limit
    checked first: :class:`FileRefused` naming ``name`` and what is wrong, in one line.
    ``parse_json`` replaces ``json.loads`` (the records' own number rules)."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > max_bytes:
        raise _too_large(name, max_bytes, size)
    text = decode_text(data, name) if isinstance(data, bytes) else data
    if bracket_depth_over(text, kind, max_depth):
        raise _too_deep(name, max_depth)
    what = "JSON" if kind == "json" else "TOML"
    try:
        if parse_json is not None and kind == "json":
            value = parse_json(text)
        elif kind == "json":
            value = json.loads(text, parse_float=_number, parse_constant=_number)
        else:
            value = tomllib.loads(text, parse_float=_number)
    except json.JSONDecodeError as e:
        raise FileRefused(
            name, f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}"
        ) from None
    except tomllib.TOMLDecodeError as e:
        raise FileRefused(name, f"not valid TOML: {e}") from None
    except RecursionError:  # not reached after the depth check; one line all the same
        raise _too_deep(name, max_depth) from None
    except ValueError as e:  # an integer of more than 4300 digits, say: its first line
        raise FileRefused(name, f"not valid {what}: {str(e).splitlines()[0][:200]}") from None
    if kind == "toml" and data_depth_over(value, max_depth):  # dotted keys, [a.b.c] tables
        raise _too_deep(name, max_depth)
    bad = not_finite(value)
    if bad is not None:
        raise FileRefused(name, bad)
    return value


class _Written(float):
    """A number that is no finite float (``NaN``, ``inf``, ``1e400``), with its text as written."""

    text: str


def _number(text: str) -> float:
    """A number read (the parsers' hook for every float and JSON's ``NaN``/``Infinity``): a
    float, or a :class:`_Written` that keeps its text when it is no finite number."""
    value = float(text)
    if math.isfinite(value):
        return value
    written = _Written(value)
    written.text = text
    return written


def not_finite(data: Any) -> Msg | None:
    """The first number in ``data`` (in order) that is NaN or infinite, in words with where it
    is: ``reaction_weights.1: not a number (NaN)``, ``wool: not a finite number (1e400)``;
    None when every number is finite."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            shown = getattr(value, "text", str(value))
            if math.isnan(value):
                problem = Msg("not a number ({number})", number=shown)
            else:
                problem = Msg("not a finite number ({number})", number=shown)
            return Msg("{where}: {problem}", where=path, problem=problem) if path else problem
        if isinstance(value, (dict, list)):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in reversed(list(items)))
    return None


def read_document(
    source: str | Path | BinaryIO,
    kind: Kind,
    *,
    name: str | None = None,
    max_bytes: int = MAX_RULES_BYTES,
    max_depth: int = MAX_DEPTH,
    parse_json: Callable[[str], Any] | None = None,
) -> Any:
    """A file (a path, ``-`` for standard input, or an open binary file) read as JSON or TOML
    within the limits (:func:`read_bytes`, then :func:`parse_document`)."""
    if name is None:
        plain = isinstance(source, (str, Path)) and str(source) != "-"
        name = str(source) if plain else "standard input"
    data = read_bytes(source, max_bytes, name)
    return parse_document(
        data, kind, name, max_bytes=max_bytes, max_depth=max_depth, parse_json=parse_json
    )


def rule_file_kind(path: str | Path) -> Kind:
    """How a rule file is read: ``.json`` as JSON, anything else as TOML."""
    return "json" if Path(path).suffix == ".json" else "toml"
