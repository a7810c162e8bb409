"""The user's terminal: an answer is read up to its newline and no further (what follows is
the next program's), numbers are asked until one fits, and a sign-in command runs with its
variables and folder on the same input and output."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from pathlib import Path

import pytest

from acp_editor.agent.auth_methods import TerminalSignIn
from acp_editor.demo.terminal import ask_number, read_line, run_sign_in
from tests.support.lsp import wait_until


def test_a_line_is_read_from_a_pipe_and_nothing_after_it() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"2\r\nAlice\n")
    os.close(write_end)
    with os.fdopen(read_end) as keyboard:
        assert read_line(keyboard) == "2"
        assert os.read(read_end, 100) == b"Alice\n"  # still there for the next reader
        assert read_line(keyboard) is None  # the end of input


def test_a_last_line_without_its_newline_is_read_too() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"3")
    os.close(write_end)
    with os.fdopen(read_end) as keyboard:
        assert read_line(keyboard) == "3"
    assert read_line(io.StringIO("a\nb\n")) == "a"  # no file descriptor: its own lines


def test_a_number_is_asked_until_one_fits() -> None:
    answers = iter(["zero", "9", " 2 "])
    asked: list[str] = []

    def ask(question: str) -> str | None:
        asked.append(question)
        return next(answers)

    assert ask_number(ask, 3, "reject") == 2
    assert asked == ["  choose 1-3 (Enter to reject): "] * 3
    assert ask_number(lambda _: "", 3, "reject") is None
    assert ask_number(lambda _: None, 3, "reject") is None


def sign_in(tmp_path: Path, code: str) -> TerminalSignIn:
    return TerminalSignIn(
        "a", "Agent", "m", "Log in", [sys.executable, "-c", code], {"WHO": "me"}, str(tmp_path)
    )


async def test_a_sign_in_runs_with_its_variables_and_folder_on_the_same_terminal(
    tmp_path: Path,
) -> None:
    code = "import os; print(os.environ['WHO'], os.getcwd(), input()); raise SystemExit(3)"
    (tmp_path / "typed").write_text("Bo\n", encoding="utf-8")
    with (tmp_path / "typed").open() as keyboard, (tmp_path / "out").open("a") as out:
        assert await run_sign_in(sign_in(tmp_path, code), keyboard, out) == 3
    assert (tmp_path / "out").read_text() == f"me {tmp_path} Bo\n"


async def test_a_sign_in_nobody_waits_for_is_stopped(tmp_path: Path) -> None:
    code = "import os, time; open('pid', 'w').write(str(os.getpid())); time.sleep(60)"
    pid_file = tmp_path / "pid"
    with (tmp_path / "out").open("a") as out:
        running = asyncio.ensure_future(run_sign_in(sign_in(tmp_path, code), io.StringIO(), out))
        await wait_until(lambda: pid_file.exists() and pid_file.read_text() != "")
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(running, 10)
    with pytest.raises(ProcessLookupError):  # ended, and reaped
        os.kill(int(pid_file.read_text()), 0)
