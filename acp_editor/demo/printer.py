"""Where the demo's lines go and how they look: colour (unless ``NO_COLOR``, or not a
terminal), streamed lines that later text continues, questions answered at the keyboard, and
indentation by session: a subagent's lines come under its title, indented below its parent's.

``TerminalView`` says what to print; this is the one place that writes it (``# stdout-ok``).
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from acp_editor.demo import wording
from acp_editor.demo.terminal import is_terminal, read_line

STYLES = {
    "dim": "2",
    "bold": "1",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}
INDENT = "    "
"""How far a subagent's lines are indented under its parent's."""

Key = tuple[str, Any]
"""A session and something of it (a transcript index, a tool call id): sessions number alike."""


def use_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or stream.isatty()


class Printer:
    """Lines in the terminal. ``_session`` is whose lines are printed now: a subagent's are
    indented under its title (said again whenever its lines follow another session's)."""

    def __init__(self, out: TextIO | None = None, keyboard: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.keyboard = keyboard or sys.stdin
        """Where answers are typed."""
        self.colour = use_colour(self.out)
        self._open: Key | None = None  # the message whose streamed line is still open
        self._parents: dict[str, str] = {}  # a subagent's session -> its parent's
        self._subagents: dict[str, dict[str, Any]] = {}  # a subagent -> its record as last told
        self._session: str | None = None  # whose lines are printed now (None: the demo's own)
        self._headed: str | None = None  # whose lines were printed last

    def _style(self, text: str, *names: str) -> str:
        if not self.colour or not names:
            return text
        codes = ";".join(STYLES[n] for n in names)
        return f"\033[{codes}m{text}\033[0m"

    def _write(self, text: str) -> None:
        self.out.write(text)  # stdout-ok
        self.out.flush()

    def _depth(self, session_id: str | None) -> int:
        depth, seen = 0, {session_id}
        while (parent := self._parents.get(session_id or "")) is not None and parent not in seen:
            seen.add(parent)
            depth, session_id = depth + 1, parent
        return depth

    def _indent(self) -> str:
        return INDENT * self._depth(self._session)

    def _start_line(self) -> None:
        """Close a streamed line; before a subagent's lines, say whose they are."""
        self._close_stream()
        session = self._session
        if session == self._headed:
            return
        self._headed = session
        if session is not None and session in self._parents:
            name = wording.subagent_name(session, self._subagents.get(session))
            head = INDENT * (self._depth(session) - 1)
            self._write(head + self._style(f"{name}:", "magenta", "bold") + "\n")

    def line(self, text: str = "", *styles: str) -> None:
        """A line of the demo's own (not of a session): never indented."""
        self._session = None
        self._line(text, *styles)

    def _line(self, text: str, *styles: str) -> None:
        """A line of the session whose lines are printed now."""
        self._start_line()
        self._write(self._indent() + self._style(text, *styles) + "\n")

    def _stream(self, key: Key, label: tuple[str, str], text: str, dim: bool) -> None:
        """``text`` streamed into message ``key``'s line, opened with ``label`` (and its
        style) unless that line is the one still open."""
        if self._open != key:
            self._start_line()
            self._write(self._indent() + self._style(*label))
            self._open = key
        indent = self._indent()
        text = text.replace("\n", "\n" + indent) if indent else text
        self._write(self._style(text, "dim") if dim else text)

    def _close_stream(self) -> None:
        if self._open is not None:
            self._write("\n")
            self._open = None

    def _ask_line(self, question: str) -> str | None:
        """Ask ``question`` (its last line: the answer is typed after it) and read the answer."""
        self._start_line()
        self._write(self._indent() + question)
        answer = read_line(self.keyboard)
        if not is_terminal(self.keyboard):  # nothing echoed the answer and its newline
            self._write("\n")
        return answer
