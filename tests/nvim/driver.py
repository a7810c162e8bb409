"""Driving a real headless Neovim (0.11, no plugin) through pynvim, for tests/nvim.

``Editor`` wraps one ``nvim --embed --headless --clean`` with acp-editor started by Neovim itself
through ``vim.lsp.start``; the Lua side lives in ``lua/zero_plugin.lua``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.starter import SCRIPTED_AGENT

HERE = Path(__file__).resolve().parent
LUA_HELPERS = HERE / "lua" / "zero_plugin.lua"
SERVER = [sys.executable, "-m", "acp_editor", "--stdio"]
HELLO_LINES = ["import sys", "", "", "def main() -> None:", '    print("hello")', "", "main()"]
WATCHDOG_SECONDS = 30.0
START_TIMEOUT_MS = 10_000
TURN_TIMEOUT_MS = 10_000


def find_nvim() -> str | None:
    beside = Path(sys.executable).parent / "nvim"
    if beside.exists():
        return str(beside)
    return shutil.which("nvim")


def process_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux /proc), children first."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found.append(child)
            found.extend(descendants(child))
    return found


class Editor:
    """One headless Neovim with the acp-editor server attached through ``vim.lsp.start``."""

    def __init__(self, nvim: Any, workspace: Path, log_file: Path) -> None:
        self.nvim = nvim
        self.workspace = workspace
        self.log_file = log_file
        self.pid: int = nvim.call("getpid")
        self.server_processes: list[int] = []

    def lua(self, code: str, *args: Any) -> Any:
        return self.nvim.exec_lua(code, *args)

    def helper(self, function: str, *args: Any) -> Any:
        """Call ``function`` of tests/nvim/lua/zero_plugin.lua with ``args``."""
        return self.lua(f"return _G.acp_test.{function}(...)", *args)

    def server_log(self) -> str:
        """The tail of the server's log, for failure messages."""
        return log_tail(self.log_file)

    def start_server(self) -> dict[str, Any]:
        logging = ["--log-level", "INFO", "--log-file", str(self.log_file)]
        cmd = [*SERVER, *logging, "--", *SCRIPTED_AGENT]
        started: dict[str, Any] = self.helper("start", cmd, str(self.workspace), START_TIMEOUT_MS)
        assert "error" not in started, started
        assert started["initialized"], f"the server never initialized\n{self.server_log()}"
        assert "acp.prompt" in started["commands"], started
        self.server_processes = descendants(self.pid)
        return started

    def prompt(self, text: str) -> dict[str, Any]:
        """``acp.prompt`` through ``client:exec_cmd``; its result once the turn ended."""
        answer: dict[str, Any] = self.helper("prompt", text, TURN_TIMEOUT_MS)
        assert answer["finished"], f"acp.prompt {text!r} did not finish\n{self.server_log()}"
        assert answer.get("error") is None, f"acp.prompt failed: {answer}\n{self.server_log()}"
        result: dict[str, Any] = answer["result"]
        return result

    def wait_until(self, expr: str, what: str, timeout_ms: int = TURN_TIMEOUT_MS) -> None:
        """Wait until the Lua expression ``expr`` (helpers as ``H``) is truthy."""
        assert self.helper("wait_until", expr, timeout_ms), (
            f"timed out: {what}\n{self.server_log()}"
        )

    def seen(self, method: str) -> list[dict[str, Any]]:
        """The ``method`` requests the server sent, with Neovim's answers."""
        entries: list[dict[str, Any]] = self.lua("return _G.acp_test.seen[...] or {}", method)
        return entries

    def selects(self) -> list[dict[str, Any]]:
        calls: list[dict[str, Any]] = self.lua("return _G.acp_test.selects")
        return calls

    def windows(self) -> list[dict[str, Any]]:
        wins: list[dict[str, Any]] = self.helper("windows")
        return wins

    def edit(self, path: Path) -> int:
        """``:edit path``; the buffer number."""
        buf: int = self.lua(
            "vim.cmd.edit(vim.fn.fnameescape(...)); return vim.api.nvim_get_current_buf()",
            str(path),
        )
        return buf

    def type_keys(self, keys: str) -> None:
        """Keys as if typed by the user (one insert is one undo step)."""
        self.lua("vim.api.nvim_feedkeys(vim.keycode(...), 'xtn', false)", keys)

    def buffer(self, buf: int) -> dict[str, Any]:
        state: dict[str, Any] = self.helper("buffer", buf)
        return state

    def review_diagnostics(self, buf: int) -> list[dict[str, Any]]:
        """The review diagnostics (source "acp") Neovim holds for ``buf``, sorted by line."""
        diagnostics: list[dict[str, Any]] = self.helper("review_diagnostics", buf)
        return diagnostics

    def wait_review_diagnostics(
        self, buf: int, count: int, timeout_ms: int = TURN_TIMEOUT_MS
    ) -> list[dict[str, Any]]:
        """Wait until ``buf`` has exactly ``count`` review diagnostics; those diagnostics."""
        waited: dict[str, Any] = self.helper("wait_review_diagnostics", buf, count, timeout_ms)
        assert waited["ok"], (
            f"expected {count} review diagnostics, Neovim has {waited['diagnostics']}\n"
            f"{self.server_log()}"
        )
        diagnostics: list[dict[str, Any]] = waited["diagnostics"]
        return diagnostics

    def code_action(self, buf: int, line: int, title: str) -> dict[str, Any]:
        """Run the code action ``title`` at ``line`` (1-based) as ``vim.lsp.buf.code_action``
        does; the actions offered there and the answer to its ``workspace/executeCommand``."""
        ran: dict[str, Any] = self.helper("code_action", buf, line, title, TURN_TIMEOUT_MS)
        assert "error" not in ran, ran
        assert ran["finished"], (
            f"the code action {title!r} never got an answer: {ran}\n{self.server_log()}"
        )
        return ran

    def close(self) -> None:
        """Stop the client, quit Neovim, and make sure every process it started is gone."""
        quit_nvim(self, [*descendants(self.pid), *self.server_processes])


def quit_nvim(editor: Any, processes: list[int]) -> None:
    """Stop the LSP client, quit Neovim and check that it and ``processes`` are gone (killing
    what is left: only processes the test started). ``editor`` has ``helper``, ``nvim``,
    ``pid`` and ``server_log``: both drivers' editors do."""
    problems: list[str] = []
    try:
        if not editor.helper("stop", 5_000):
            problems.append("the LSP client did not stop within 5 s")
    except Exception as exc:  # Neovim already gone (killed by the watchdog)
        problems.append(f"could not stop the client: {exc}")
    # Neovim exits on `:qa!` before answering it, so pynvim reports the closed channel.
    with contextlib.suppress(Exception):
        editor.nvim.quit()
    with contextlib.suppress(Exception):
        editor.nvim.close()
    processes = [*processes, editor.pid]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(map(process_alive, processes)):
        time.sleep(0.05)  # a poll's interval: no event tells of another process's end
    left = [pid for pid in set(processes) if process_alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    if left:
        problems.append(f"processes still running 5 s after quitting: {left}")
    assert not problems, "; ".join(problems) + f"\n{editor.server_log()}"


def log_tail(path: Path, lines: int = 40) -> str:
    """The last lines of a log file, for failure messages."""
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return "(no server log)"
    return "\n".join(text.splitlines()[-lines:])
