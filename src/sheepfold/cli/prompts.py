"""What ``sheepfold play`` reads: one line at a time from standard input (a keyboard or a
pipe), with line editing at a terminal; the end of input and Ctrl-C count as ``quit``."""

from __future__ import annotations

import sys

from rich.markup import escape

from sheepfold.cli.common import console

QUIT_WORDS = {"quit", "exit", "q", ":q", "bye"}


class Quit(Exception):
    """The players asked to stop (``quit``, end of input, Ctrl-C)."""


_line_editing: bool | None = None


def line_editing() -> bool:
    """Line editing and history for typed moves (Python's ``readline``: arrow keys, the
    session's earlier lines) when standard input is a terminal; nothing on a pipe."""
    global _line_editing
    if _line_editing is None:
        _line_editing = False
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                import readline

                readline.set_history_length(500)
                _line_editing = True
            except ImportError:  # a Python without readline: plain input
                pass
    return _line_editing


def read_line(prompt: str) -> str:
    """One line of input (prompt shown first). End of input or Ctrl-C raises :class:`Quit`."""
    last = ""
    if line_editing():  # readline redraws the prompt's last line: give it to input() as text
        from rich.text import Text

        head, _, tail = prompt.rpartition("\n")
        if head:
            console.print(head, highlight=False)
        last = Text.from_markup(tail).plain
    else:
        console.print(prompt, end="", highlight=False)
    sys.stdout.flush()
    try:
        line = input(last)
    except EOFError:
        console.print()
        raise Quit("end of input") from None
    except KeyboardInterrupt:
        console.print()
        raise Quit("interrupted") from None
    if not sys.stdin.isatty():  # a pipe: echo, so that the transcript reads like a session
        console.print(escape(line), highlight=False)
    return line.strip()


def ask(prompt: str, default: str) -> str:
    text = read_line(f"{prompt} [dim]\\[{escape(default)}][/]: ")
    if text.lower() in QUIT_WORDS:
        raise Quit("quit")
    return text or default
