"""Driving the acp-editor Neovim plugin (``nvim/``) in a real headless Neovim through pynvim.

``PluginEditor`` wraps one ``nvim --embed --headless --clean`` with the repository's ``nvim/``
prepended to the runtimepath and ``plugin/acp_editor.lua`` sourced, exactly what a plugin manager
does. ``setup()`` calls ``require("acp_editor").setup`` with the sidecar run from this checkout
(``python -m acp_editor``) and the scripted test agent (``tests/agents/scripted.py``); the Lua
side lives in ``lua/plugin_helpers.lua``. Each test gets its own Neovim, sidecar and agent;
``close`` checks they are all gone. A watchdog kills Neovim if a test hangs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim  # type: ignore[import-untyped]
import pytest

from tests.nvim.driver import descendants, find_nvim, log_tail, quit_nvim
from tests.support.starter import SCRIPTED_AGENT

HERE = Path(__file__).resolve().parent
PLUGIN_ROOT = HERE.parents[1]
LUA_HELPERS = HERE / "lua" / "plugin_helpers.lua"
SERVER = [sys.executable, "-m", "acp_editor"]
WATCHDOG_SECONDS = 40.0
START_TIMEOUT_MS = 15_000
TURN_TIMEOUT_MS = 10_000
WAIT_MS = 5_000


class PluginEditor:
    """One headless Neovim with the plugin loaded; ``setup`` starts the sidecar (as the first
    command would)."""

    def __init__(self, nvim: Any, workspace: Path, tmp_path: Path) -> None:
        self.nvim = nvim
        self.workspace = workspace
        self.log_file = tmp_path / "server.log"
        self.agent_record = tmp_path / "agent.jsonl"
        self.pid: int = nvim.call("getpid")
        self.started: list[int] = []

    def lua(self, code: str, *args: Any) -> Any:
        return self.nvim.exec_lua(code, *args)

    def helper(self, function: str, *args: Any) -> Any:
        """Call ``function`` of tests/nvim/lua/plugin_helpers.lua with ``args``."""
        return self.lua(f"return _G.acp_plugin_test.{function}(...)", *args)

    @property
    def server_cmd(self) -> list[str]:
        """The sidecar of this checkout."""
        return SERVER

    @property
    def agents(self) -> dict[str, Any]:
        """The scripted agent, as ``demo``, recording what it receives."""
        return {"demo": {"cmd": [*SCRIPTED_AGENT, "--record", str(self.agent_record)]}}

    def server_log(self) -> str:
        return log_tail(self.log_file)

    def setup(self, **options: Any) -> dict[str, Any]:
        """``require("acp_editor").setup`` with the sidecar and agent of this checkout, plus
        ``options``; waits until the agent is ready."""
        opts: dict[str, Any] = {
            "server_cmd": self.server_cmd,
            "server_args": ["--log-level", "INFO", "--log-file", str(self.log_file)],
            "agents": self.agents,
            "default_agent": "demo",
            "root_dir": str(self.workspace),
            **options,
        }
        started: dict[str, Any] = self.helper("start", opts, START_TIMEOUT_MS)
        assert started["ok"], (
            f"the plugin's sidecar never became ready: {started}\n{self.server_log()}"
        )
        self.started = descendants(self.pid)
        return started

    def prompt_async(
        self, prompt: str | list[dict[str, Any]], session_id: str | None = None
    ) -> int:
        """Send a prompt through ``require("acp_editor").prompt``; a handle for ``wait_turn``."""
        turn: int = self.helper("prompt_async", prompt, session_id)
        return turn

    def wait_turn(self, turn: int, timeout_ms: int = TURN_TIMEOUT_MS) -> dict[str, Any]:
        """The result of a prompt once its turn ended."""
        done: dict[str, Any] = self.helper("wait_turn", turn, timeout_ms)
        assert done["finished"], f"turn {turn} did not end\n{self.server_log()}"
        assert done.get("error") is None, f"the prompt failed: {done}\n{self.server_log()}"
        result: dict[str, Any] = done["result"]
        return result

    def prompt(self, prompt: str | list[dict[str, Any]]) -> dict[str, Any]:
        return self.wait_turn(self.prompt_async(prompt))

    def wait_until(self, expr: str, what: str, timeout_ms: int = WAIT_MS) -> None:
        """Wait until the Lua expression ``expr`` (helpers as ``H``) is truthy."""
        assert self.helper("wait_until", expr, timeout_ms), (
            f"timed out: {what}\n{self.server_log()}"
        )

    def settle(self, ms: int) -> None:
        self.helper("settle", ms)

    def edit(self, path: Path) -> int:
        buf: int = self.lua(
            "vim.cmd.edit(vim.fn.fnameescape(...)); return vim.api.nvim_get_current_buf()",
            str(path),
        )
        return buf

    def windows(self) -> list[dict[str, Any]]:
        wins: list[dict[str, Any]] = self.helper("windows")
        return wins

    def buffer(self, buf: int) -> dict[str, Any]:
        state: dict[str, Any] = self.helper("buffer", buf)
        return state

    def extmarks(self, buf: int, namespace: str) -> list[dict[str, Any]]:
        marks: list[dict[str, Any]] = self.helper("extmarks", buf, namespace)
        return marks

    def chat(self) -> dict[str, Any]:
        chat: dict[str, Any] = self.helper("chat")
        return chat

    def selects(self) -> list[dict[str, Any]]:
        calls: list[dict[str, Any]] = self.lua("return _G.acp_plugin_test.selects")
        return calls

    def notes(self) -> list[str]:
        notes: list[dict[str, Any]] = self.lua("return _G.acp_plugin_test.notes")
        return [n["msg"] for n in notes]

    def agent_received(self) -> list[dict[str, Any]]:
        """Every message the agent received (its ``--record`` file)."""
        import json

        if not self.agent_record.exists():
            return []
        return [json.loads(line) for line in self.agent_record.read_text().splitlines()]

    def feed(self, keys: str) -> None:
        """Keys as if typed (mappings apply)."""
        self.lua("vim.api.nvim_feedkeys(vim.keycode(...), 'mtx', false)", keys)

    def close(self) -> None:
        quit_nvim(self, [*descendants(self.pid), *self.started])


@contextlib.contextmanager
def plugin_editor(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[PluginEditor]:
    """A fresh Neovim with the plugin on its runtimepath, cwd = ``workspace``."""
    nvim_bin = find_nvim()
    if nvim_bin is None:
        pytest.skip("no nvim beside the Python interpreter or on PATH (pip install .[dev])")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    nvim = pynvim.attach("child", argv=[nvim_bin, "--embed", "--headless", "--clean", "-n"])
    editor = PluginEditor(nvim, workspace, tmp_path)
    watchdog = threading.Timer(WATCHDOG_SECONDS, os.kill, (editor.pid, signal.SIGKILL))
    watchdog.daemon = True
    watchdog.start()
    try:
        if not editor.lua("return vim.fn.has('nvim-0.11') == 1"):
            pytest.skip("Neovim 0.11+ is needed")
        editor.lua("vim.cmd.cd(vim.fn.fnameescape(...))", str(workspace))
        # What a plugin manager does: the plugin's root on the runtimepath, its plugin/ sourced.
        editor.lua(
            "vim.opt.rtp:prepend(...); vim.cmd.runtime('plugin/acp_editor.lua')", str(PLUGIN_ROOT)
        )
        editor.lua("_G.acp_plugin_test = dofile(...)", str(LUA_HELPERS))
        yield editor
    finally:
        watchdog.cancel()
        editor.close()
