"""Pictures of the Neovim plugin as a user sees it: a real Neovim in a real terminal (tmux), the
screen captured with its colours and drawn as SVG. The test checks what the screen shows; with
ACP_EDITOR_UPDATE_SCREENSHOTS=1 it also writes the picture into docs/media/ (linked from
docs/neovim.md), as the VS Code integration tests do with --update-screenshots.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.nvim.driver import HELLO_LINES, descendants
from tests.nvim.plugin_driver import PLUGIN_ROOT, SERVER
from tests.nvim.test_plugin_install import nvim_binary
from tests.support.starter import SCRIPTED_AGENT

MEDIA = PLUGIN_ROOT / "docs" / "media"
COLUMNS, LINES = 100, 24
STATUSLINE = "vim.o.statusline = \"%f%=%{v:lua.require'acp_editor'.statusline()} \""
"""A user_init line: a statusline with the file's name and the plugin's words (as lualine would)."""


_TERMINALS = itertools.count()


class Terminal:
    """One tmux server of our own, one window running a command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return done.stdout

    def screen(self, colours: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if colours else []))

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never showed; the screen:\n{screen}")
            time.sleep(0.1)  # a poll's interval: tmux tells of no screen change


@contextlib.contextmanager
def terminal(command: str, cwd: Path, lines: int = LINES) -> Iterator[Terminal]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    # A socket of its own each time: the last test's server may still be going away on its own.
    term = Terminal(f"acp-editor-test-{os.getpid()}-{next(_TERMINALS)}")
    term.tmux(
        "new-session", "-d", "-x", str(COLUMNS), "-y", str(lines), "-c", str(cwd),
        "-e", "TERM=tmux-256color", command,
    )  # fmt: skip
    pid = int(term.tmux("display-message", "-p", "#{pane_pid}").strip())
    try:
        yield term
    finally:
        tree = [pid, *descendants(pid)]
        with contextlib.suppress(subprocess.SubprocessError):
            term.tmux("kill-server")
        for child in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, 9)


def svg(ansi: str, title: str) -> str:
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=COLUMNS, force_terminal=True, color_system="truecolor")
    console.print(Text.from_ansi(ansi.rstrip("\n")), soft_wrap=True)
    return console.export_svg(title=title)


def keep(name: str, picture: str, tmp_path: Path) -> Path:
    target = (MEDIA if os.environ.get("ACP_EDITOR_UPDATE_SCREENSHOTS") else tmp_path) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(picture, encoding="utf-8")
    return target


def user_init(
    tmp_path: Path,
    workspace: Path,
    *lines: str,
    agents: dict[str, object] | None = None,
    **setup: object,
) -> str:
    """The command line of a Neovim as a user starts it: the plugin set up with the demo agent
    (``agents``: others beside it; ``setup``: more options), colours on, hello.py open, then
    ``lines`` of Lua. Skips the test without Neovim."""
    nvim = nvim_binary()
    if nvim is None:
        pytest.skip("no nvim")
    init = tmp_path / "init.lua"
    options = {
        "server_cmd": SERVER,
        "agents": {"demo": {"cmd": [*SCRIPTED_AGENT, "--fast"]}, **(agents or {})},
        "default_agent": "demo",
        "root_dir": str(workspace),
        **setup,
    }
    init.write_text(
        f"vim.opt.rtp:prepend({str(PLUGIN_ROOT)!r})\n"
        "vim.cmd.runtime('plugin/acp_editor.lua')\n"
        "vim.o.termguicolors = true\n"
        f"require('acp_editor').setup(vim.json.decode({_json(options)!r}))\n"
        f"vim.cmd.edit({str(workspace / 'hello.py')!r})\n" + "".join(f"{line}\n" for line in lines)
    )
    return f"{nvim} --clean -n -u {init}"


def test_the_permission_window_as_a_user_sees_it(tmp_path: Path, workspace: Path) -> None:
    command = user_init(
        tmp_path, workspace, "vim.schedule(function() require('acp_editor').prompt('edit') end)"
    )
    with terminal(command, workspace) as term:
        screen = term.wait_for("acp-editor: permission")
        assert "The agent asks: Edit hello.py" in screen, screen
        assert "y  Allow" in screen and "n  Reject" in screen, screen
        assert HELLO_LINES[0] in screen  # the user's file stays in view behind it
        picture = svg(term.screen(colours=True), "Neovim: the agent asks before editing")
    assert "<svg" in picture and "Allow" in picture
    keep("neovim-permission.svg", picture, tmp_path)


def _json(value: object) -> str:
    import json

    return json.dumps(value)
