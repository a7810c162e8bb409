"""A real headless Neovim (0.11, no plugin, ``--clean``) driven through pynvim.

Each test gets its own Neovim and its own acp-editor server (started by Neovim itself through
``vim.lsp.start``), in a temporary workspace. Teardown stops the client, quits Neovim and checks
that Neovim, the server and the agent processes are all gone. A watchdog kills the Neovim this
fixture started if a test hangs (for example on a prompt nobody can answer), so a hang becomes a
failure instead of a stuck run.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pynvim  # type: ignore[import-untyped]
import pytest

from tests.nvim.driver import HELLO_LINES, LUA_HELPERS, WATCHDOG_SECONDS, Editor, find_nvim
from tests.nvim.plugin_driver import PluginEditor, plugin_editor


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    root.mkdir()
    (root / "hello.py").write_text("\n".join(HELLO_LINES) + "\n")
    return root.resolve()


@pytest.fixture
def editor(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Editor]:
    nvim_bin = find_nvim()
    if nvim_bin is None:
        pytest.skip("no nvim beside the Python interpreter or on PATH (pip install .[dev])")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))  # lsp.log and the like
    nvim = pynvim.attach("child", argv=[nvim_bin, "--embed", "--headless", "--clean", "-n"])
    editor = Editor(nvim, workspace, tmp_path / "server.log")
    watchdog = threading.Timer(WATCHDOG_SECONDS, os.kill, (editor.pid, signal.SIGKILL))
    watchdog.daemon = True
    watchdog.start()
    try:
        version = editor.lua("return vim.version()")
        if (version["major"], version["minor"]) < (0, 11):
            pytest.skip(f"Neovim 0.11+ is needed, found {version}")
        editor.lua("vim.cmd.cd(vim.fn.fnameescape(...))", str(workspace))
        editor.lua("_G.acp_test = dofile(...)", str(LUA_HELPERS))
        yield editor
    finally:
        watchdog.cancel()
        editor.close()


@pytest.fixture
def nv(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginEditor]:
    """A real Neovim with the plugin set up on the demo agent (``plugin_driver``); a test file
    that needs another set-up names a fixture ``nv`` of its own."""
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        yield editor
