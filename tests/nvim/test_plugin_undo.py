"""Undoing a turn from Neovim with the plugin: the chat names each prompt's turn, ``:AcpUndo``
asks, then puts every file back (a changed one, a created one, a deleted one) while the open
buffer keeps the user's unsaved line. The agent writes the disk itself, as current agents do."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from tests.nvim.driver import descendants
from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import SCRIPTED_AGENT

LINES = ["# top", "", "", 'print("hello world")']


def test_undo_restores_every_file_and_keeps_unsaved_text(nv: PluginEditor, workspace: Path) -> None:
    hello, notes, made = workspace / "hello.py", workspace / "NOTES.md", workspace / "MADE.txt"
    hello.write_text("\n".join(LINES) + "\n")
    notes.write_text("# notes\n")
    buf = nv.edit(hello)
    nv.setup(agents={"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}})
    nv.lua("vim.api.nvim_buf_set_lines(..., 0, 0, false, {'# typed, not saved'})", buf)
    nv.lua("vim.cmd('AcpChat')")
    result = nv.prompt("files")  # sed on hello.py, creates MADE.txt, deletes NOTES.md
    assert result["stopReason"] == "end_turn", nv.server_log()
    assert made.exists() and not notes.exists()
    assert 'print("hello the files")' in hello.read_text()
    nv.wait_until(
        f"vim.api.nvim_buf_get_lines({buf}, 0, -1, false)[5] == 'print(\"hello the files\")'",
        "the agent's change merged into the open buffer",
    )
    assert "(turn 1 · :AcpUndo 1 restores the files to before it)" in "\n".join(nv.chat()["lines"])

    nv.helper("answer_with", "Undo turn 1")
    nv.lua("vim.cmd('AcpUndo')")
    nv.wait_until(
        "vim.iter(H.notes):any(function(n) return n.msg:find('turn 1 undone', 1, true) end)",
        "the undo is reported done",
    )
    assert not made.exists(), "the created file is removed"
    (asked,) = [s for s in nv.selects() if "Undo turn 1?" in str(s.get("prompt"))]
    assert asked["items"][0] == "Keep the files as they are", asked
    assert notes.read_text() == "# notes\n"
    assert hello.read_text() == "\n".join(LINES) + "\n"
    nv.wait_until(
        f"vim.api.nvim_buf_get_lines({buf}, 0, -1, false)[5] == 'print(\"hello world\")'",
        "the open buffer is restored too",
    )
    lines = nv.buffer(buf)["lines"]
    assert lines == ["# typed, not saved", *LINES], lines


def test_undo_after_a_killed_sidecar_undoes_the_turn_of_the_run_before(
    nv: PluginEditor, workspace: Path
) -> None:
    """The sidecar dies (SIGKILL) after a turn; the next one starts a new session, but
    ``:AcpUndo`` still reaches the turn before: checkpoints outlive the sidecar."""
    hello = workspace / "hello.py"
    hello.write_text("\n".join(LINES) + "\n")
    agents = {"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}}
    nv.setup(agents=agents)
    assert nv.prompt("files")["stopReason"] == "end_turn", nv.server_log()
    assert 'print("hello the files")' in hello.read_text()
    (server,) = [p for p in descendants(nv.pid) if b"acp_editor\x00--stdio" in cmdline(p)]
    os.kill(server, signal.SIGKILL)
    nv.wait_until("require('acp_editor.store').client_id == nil", "the plugin saw it go")

    nv.setup(agents=agents)
    nv.helper("answer_with", "Undo the last turn")
    nv.lua("vim.cmd('AcpUndo')")
    nv.wait_until(
        "vim.iter(H.notes):any(function(n) return n.msg:find('turn 1 undone', 1, true) end)",
        "the undo is reported done",
    )
    assert hello.read_text() == "\n".join(LINES) + "\n"
    assert not (workspace / "MADE.txt").exists()


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_an_agents_mode_starts_its_sessions_in_that_mode(nv: PluginEditor) -> None:
    nv.setup(agents={"demo": {"cmd": SCRIPTED_AGENT, "mode": "ask"}})
    nv.prompt("read")
    nv.wait_until(
        "require('acp_editor.store').current().modes.currentModeId == 'ask'",
        "the session started in the configured mode (the scripted agent's default is code)",
    )


def test_undo_names_the_files_another_session_changed_too(
    nv: PluginEditor, workspace: Path
) -> None:
    """Two sessions change hello.py one after the other; undoing the first one's turn puts it
    back all the same, and the message says another session changed it too (``shared``)."""
    store = "require('acp_editor.store')"
    nv.setup(
        agents={"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}},
        auto_approve=[{"kind": "*", "option": "allow_once"}],
    )
    first = nv.prompt("edit")["sessionId"]
    nv.lua("vim.cmd('AcpNewSession')")
    nv.wait_until(f"{store}.current_session ~= {first!r}", "the second session in front")
    second = nv.lua(f"return {store}.current_session")
    assert nv.wait_turn(nv.prompt_async("edit", second))["stopReason"] == "end_turn"
    nv.lua(f"vim.cmd('AcpSwitch {first}')")

    nv.helper("answer_with", "Undo turn 1")
    nv.lua("vim.cmd('AcpUndo')")
    nv.wait_until(
        "vim.iter(H.notes):any(function(n) return n.msg:find('turn 1 undone', 1, true) end)",
        "the undo is reported done",
    )
    (note,) = [n for n in nv.notes() if "turn 1 undone" in n]
    assert note.endswith("; another session changed hello.py too (put back all the same)"), note
