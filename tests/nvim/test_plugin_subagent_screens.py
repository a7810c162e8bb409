"""A subagent in the Neovim chat as a user sees it (issue 34): a real Neovim in tmux, captured with
its colours as SVG by the mechanism of test_plugin_screens.py. The demo agent hands hello.py to a
subagent (its ``Task`` tool call); the chat draws the subagent under that call, with its state
and its own tool calls, and its question (the permission window) names it. With
ACP_EDITOR_UPDATE_SCREENSHOTS=1 the picture goes to docs/media/neovim-subagent.svg (linked from
docs/neovim.md).
"""

from __future__ import annotations

from pathlib import Path

from acp_editor.demo_agent.scenarios.subagent_scenarios import CHILD_TITLE
from tests.nvim.test_plugin_screens import STATUSLINE, keep, svg, terminal, user_init


def test_a_subagent_under_its_tool_call_as_a_user_sees_it(tmp_path: Path, workspace: Path) -> None:
    command = user_init(
        tmp_path,
        workspace,
        "vim.o.laststatus = 3",
        "vim.o.equalalways = false",
        STATUSLINE,
        "vim.cmd('AcpChat')",
        "vim.schedule(function() require('acp_editor').prompt('subagent') end)",
        chat={"position": "bottom", "height": 16, "prompt_height": 3},
    )
    with terminal(command, workspace, lines=34) as term:
        screen = term.wait_for(f"Subagent “{CHILD_TITLE}” asks: Edit hello.py")
        screen = term.wait_for("· waiting for you · X stops it")
        assert "Task: explore hello.py · in_progress" in screen, screen
        assert "✓ [read] Read hello.py · completed" in screen, screen
        assert "acp: waiting for you" in screen, screen
        picture = svg(term.screen(colours=True), "Neovim: a subagent under its Task, asking")
    assert "<svg" in picture and "Subagent" in picture
    keep("neovim-subagent.svg", picture, tmp_path)
