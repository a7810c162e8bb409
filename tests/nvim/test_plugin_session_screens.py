"""Several live sessions in Neovim as a user sees them (issue 28): a real Neovim in tmux, captured
with its colours as SVG by the mechanism of test_plugin_screens.py. Three sessions, one of them
of a second agent (the plugin's other ``agents``): one asks a permission in the background and
waits, one runs, the one in front is idle; ``:AcpSessions`` lists them (Neovim's own
``vim.ui.select``) and the statusline counts the sessions waiting. With
ACP_EDITOR_UPDATE_SCREENSHOTS=1 the picture goes to docs/media/neovim-sessions.svg (linked from
docs/neovim.md).
"""

from __future__ import annotations

from pathlib import Path

from tests.nvim.test_plugin_screens import STATUSLINE, Terminal, keep, svg, terminal, user_init
from tests.support.starter import SCRIPTED_AGENT

FIRST = "read hello.py and fix the greeting"  # demo; then asks to edit, in the background
SECOND = "wait for the tests, then add docs"  # the other agent; still running ("wait": 30 s)
THIRD = "how much context is left: usage"  # demo, in front


def command(term: Terminal, line: str) -> None:
    """Type an Ex command line, as a user does."""
    term.tmux("send-keys", "-l", f":{line}")
    term.tmux("send-keys", "Enter")


def test_several_sessions_as_a_user_sees_them(tmp_path: Path, workspace: Path) -> None:
    nvim = user_init(
        tmp_path,
        workspace,
        "vim.o.laststatus = 2",
        "vim.o.equalalways = false",
        STATUSLINE,
        "vim.cmd('AcpChat')",
        f"vim.schedule(function() require('acp_editor').prompt({FIRST!r}) end)",
        agents={"other": {"cmd": SCRIPTED_AGENT}},
        chat={"position": "bottom", "height": 15, "prompt_height": 3},
    )
    with terminal(nvim, workspace, lines=26) as term:
        term.wait_for("Done: read.")
        command(term, "AcpNewSession other")
        term.wait_for("session 2 of 2")
        command(term, f"lua require('acp_editor').prompt({SECOND!r})")
        term.wait_for("Wait 30 s")
        command(term, "AcpNewSession")
        term.wait_for("session 3 of 3")
        command(term, f"lua require('acp_editor').prompt({THIRD!r})")
        term.wait_for("Done: usage.")
        # The first session, in the background, asks before editing hello.py: a notice, no window.
        first = "require('acp_editor.session.live').ids()[1]"
        command(term, f"lua require('acp_editor').prompt('edit hello.py', nil, {first})")
        term.wait_for("answer in its chat: :AcpSwitch")
        command(term, "AcpSessions")
        screen = term.wait_for("Type number and <Enter>")
        colours = term.screen(colours=True)
    listed = [line for line in screen.splitlines() if " · " in line and line[:1].isdigit()]
    assert [line.split(": ", 1)[1].rsplit(" · ", 1)[0] for line in listed] == [
        f"  {FIRST} · demo · waiting for you",
        f"  {SECOND} · other · running",
        f"▸ {THIRD} · demo · idle",
    ], screen
    assert "Sessions (live ones first: ▸ is in front):" in screen, screen
    assert "· 1 session waiting" in screen, "the statusline counts it\n" + screen
    assert "session 3 of 3" in screen, "the chat's header\n" + screen
    assert 'print("edited by the demo agent")' in screen, "the proposal, inline\n" + screen
    picture = svg(colours, "Neovim: three live sessions, one waiting for you")
    assert "<svg" in picture and "waiting" in picture
    keep("neovim-sessions.svg", picture, tmp_path)
