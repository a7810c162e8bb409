"""The user's terminal in ``acp-editor demo``: answers read at the keyboard, and a terminal
sign-in run where the user types.

An answer is read a byte at a time up to its newline and no further: the sign-in that may run
next (the agent's login program, inheriting the same input) reads the next line, the name the
user types. ``input()`` would read ahead into Python's buffer when the input is a pipe, and the
login program would find nothing left.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from acp_editor.agent.auth_methods import TerminalSignIn

STOP_S = 5.0
"""How long a sign-in nobody waits for any more may take to end once told to stop."""


def file_descriptor(stream: IO[Any]) -> int | None:
    """The stream's file descriptor, or None when it has none (a test's ``StringIO``)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None


def is_terminal(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def read_line(stream: IO[str]) -> str | None:
    """One line typed into ``stream``, without its newline, read no further than that line;
    None at the end of input (nothing more will be typed)."""
    fd = file_descriptor(stream)
    if fd is None:
        line = stream.readline()
        return line.rstrip("\r\n") if line else None
    data = bytearray()
    while (byte := os.read(fd, 1)) and byte != b"\n":
        data += byte
    if not byte and not data:
        return None
    return data.decode(errors="replace").rstrip("\r")


def ask_number(ask: Callable[[str], str | None], count: int, empty: str) -> int | None:
    """A number from 1 to ``count``, asked (``ask`` shows the question and reads the answer)
    until one is typed; an empty answer (``empty`` says what it does) or the end of input:
    None."""
    while True:
        raw = ask(f"  choose 1-{count} (Enter to {empty}): ")
        if raw is None or not raw.strip():
            return None
        if raw.strip().isdigit() and 1 <= int(raw) <= count:
            return int(raw)


async def run_sign_in(request: TerminalSignIn, stdin: IO[str], stdout: IO[str]) -> int:
    """Run the agent's login command with its variables and folder, on the user's terminal
    (``stdin``, ``stdout``; stderr is inherited), and return its exit status (``OSError``: it
    could not start). Stopped if nobody waits for it any more."""
    process = await asyncio.create_subprocess_exec(
        *request.command,
        stdin=file_descriptor(stdin),
        stdout=file_descriptor(stdout),
        env={**os.environ, **request.env},
        cwd=request.cwd,
    )
    try:
        return await process.wait()
    except asyncio.CancelledError:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(process.wait(), STOP_S)
        raise
