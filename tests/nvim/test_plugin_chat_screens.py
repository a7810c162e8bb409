"""The Neovim chat as a user sees it: a real Neovim in tmux, with the chat's Markdown drawn by
treesitter (headings, the reply's code block), captured with its colours as SVG by the
mechanism of test_plugin_screens.py. With ACP_EDITOR_UPDATE_SCREENSHOTS=1 the picture goes to
docs/media/neovim-chat.svg (linked from docs/neovim.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.nvim.test_plugin_screens import STATUSLINE, keep, svg, terminal, user_init

SGR = re.compile(r"\x1b\[[0-9;:]*m")


def styles(line: str) -> list[tuple[str, str]]:
    """(escape sequence in force, text) runs of one captured line."""
    runs, style, at = [], "", 0
    for m in SGR.finditer(line):
        if m.start() > at:
            runs.append((style, line[at : m.start()]))
        style, at = m.group(), m.end()
    runs.append((style, line[at:]))
    return runs


def style_of(screen: str, text: str) -> str:
    for line in screen.splitlines():
        for style, run in styles(line):
            if text in run:
                return style
    raise AssertionError(f"{text!r} is not on the screen:\n{screen}")


def test_the_markdown_chat_as_a_user_sees_it(tmp_path: Path, workspace: Path) -> None:
    command = user_init(
        tmp_path,
        workspace,
        # One statusline for all windows, with the plugin's words in it (as lualine would).
        "vim.o.laststatus = 3",
        STATUSLINE,
        "vim.cmd('AcpChat')",
        "vim.schedule(function() require('acp_editor').prompt('look') end)",
    )
    with terminal(command, workspace) as term:
        term.wait_for("Done: look.")
        screen = term.wait_for("acp: idle · code · Demo fast")
        assert "## Agent" in screen and 'print("hello")' in screen, screen
        colours = term.screen(colours=True)
        picture = svg(colours, "Neovim: the chat as Markdown")
    # Treesitter draws the Markdown: the reply's code block is not drawn as its text around it.
    assert style_of(colours, "```") != style_of(colours, "Done: look."), colours
    assert style_of(colours, "## Agent") != style_of(colours, "Done: look."), colours
    assert "<svg" in picture and "look." in picture
    keep("neovim-chat.svg", picture, tmp_path)
