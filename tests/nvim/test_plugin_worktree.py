"""A session in a worktree of its own with the plugin, in a real Neovim 0.11 (issue 28):

* the round trip on a real repository: ``:AcpNewSession ++worktree``, the agent edits (its
  worktree: your file unchanged on disk and in the buffer), ``:AcpSessions`` marks the session,
  ``:AcpBringBack`` says what is in review and the hunk is drawn in the buffer (extmarks: the
  added line and the hint naming the agent), rejected with the keymap (the buffer and the file
  as before), ``:AcpDiscardWorktree`` asks (keeping it first; nothing is left to lose after the
  bring-back) and, answered "Discard", the worktree's folder is gone, ``:AcpSessions`` says
  "worktree discarded" and a prompt to the session shows the sidecar's refusal as it says it;
* the discard question says how many changed files would be lost and names them (a dry run
  first); answered "Keep the worktree", nothing is discarded;
* outside git, ``:AcpNewSession ++worktree`` shows the sidecar's reason.
"""

from __future__ import annotations

from pathlib import Path

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import PluginEditor
from tests.support.repository import git

PREVIEW_NS = "acp_editor_preview"
STORE = "require('acp_editor.store')"
REJECT = "\\ar"  # the default <leader>ar (leader is \ under --clean)
AGENT_LINE = EDIT_LINE.rstrip("\n")
HELLO = "\n".join(HELLO_LINES) + "\n"


def wait_note(nv: PluginEditor, text: str) -> str:
    """The first message to the user that holds ``text``, once there is one."""
    found = f"vim.iter(H.notes):any(function(n) return n.msg:find({text!r}, 1, true) end)"
    nv.wait_until(found, f"a message saying {text!r}: {nv.notes()}")
    return next(n for n in nv.notes() if text in n)


def front_worktree(nv: PluginEditor) -> str | None:
    folder: str | None = nv.lua(f"local s = {STORE}.current(); return s and s.worktree")
    return folder


def repository(workspace: Path) -> None:
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", ".")
    git(workspace, "commit", "-qm", "first")


def new_worktree_session(nv: PluginEditor) -> tuple[str, Path]:
    """``:AcpNewSession ++worktree``: the session in front, and the folder it works in."""
    nv.lua("vim.cmd('AcpNewSession ++worktree')")
    nv.wait_until(f"{STORE}.current() and {STORE}.current().worktree", "the worktree session")
    sid: str = nv.lua(f"return {STORE}.current_session")
    # The worktree is known from the session's first acp/sessionChanged; its notice comes with
    # the acp/newSession answer, which can be later: wait for that too.
    said = f"{sid} of demo in its own worktree"
    nv.wait_until(
        "(function() for _, n in ipairs(_G.acp_plugin_test.notes) do"
        f" if n.msg:find({said!r}, 1, true) then return true end end end)()",
        "the new worktree session's notice",
    )
    return sid, Path(str(front_worktree(nv)))


def test_a_worktree_session_is_brought_back_rejected_and_discarded(
    nv: PluginEditor, workspace: Path
) -> None:
    repository(workspace)
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])

    sid, own = new_worktree_session(nv)
    assert own.is_dir() and not own.is_relative_to(workspace), own
    assert any(f"new session {sid} of demo in its own worktree" in n for n in nv.notes())
    line: str = nv.lua("return require('acp_editor.session.live').describe(...)", sid)
    assert line == f"▸ new session · demo · idle · {sid} · worktree", line

    assert nv.wait_turn(nv.prompt_async("edit", sid))["stopReason"] == "end_turn"
    assert (own / "hello.py").read_text() == HELLO + EDIT_LINE
    assert hello.read_text() == HELLO, "the agent's change stays in its worktree"
    assert nv.buffer(buf)["lines"] == HELLO_LINES
    assert nv.helper("review")["pending"] == []

    nv.lua("vim.cmd('AcpBringBack')")
    nv.wait_until("#H.review().pending == 1", "the brought-back hunk")
    wait_note(nv, f"acp-editor: 1 file of session {sid} (edit) in review (hello.py)")
    assert hello.read_text() == HELLO + EDIT_LINE
    nv.wait_until(f"#H.buffer({buf}).lines == {len(HELLO_LINES) + 1}", "the line in the buffer")
    row = len(HELLO_LINES)  # the agent's line, after the last one
    marks = [m for m in nv.extmarks(buf, PREVIEW_NS) if m["row"] == row]
    assert {"line_hl": "AcpEditorAdded", "sign": "+"} in [
        {"line_hl": m.get("line_hl"), "sign": m.get("sign")} for m in marks
    ], marks
    hints = [m["virt_text"] for m in marks if m.get("virt_text")]
    assert hints and hints[0].startswith(" edit by acp-editor demo agent · "), hints

    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", row + 1, 0)
    nv.feed(REJECT)
    nv.wait_until("#H.review().pending == 0", "the hunk is rejected")
    nv.wait_until(f"#H.buffer({buf}).lines == {len(HELLO_LINES)}", "the line taken out")
    assert nv.buffer(buf)["lines"] == HELLO_LINES
    assert hello.read_text() == HELLO

    nv.helper("answer_with", "Discard")
    nv.lua("vim.cmd('AcpDiscardWorktree')")
    nv.wait_until(f"{STORE}.current().worktree == nil", "the worktree discarded")
    (asked,) = nv.selects()
    assert asked["titles"] == ["Keep the worktree", "Discard"], asked
    assert asked["prompt"] == (
        f"Discard the worktree of session {sid} (edit)? Nothing it changed there is left to"
        " bring back. Your own files and repository are not touched."
    ), asked
    assert not own.exists()
    wait_note(nv, f"the worktree of session {sid} (edit) is discarded")
    assert hello.read_text() == HELLO
    line = nv.lua("return require('acp_editor.session.live').describe(...)", sid)
    assert line == f"▸ edit · demo · idle · {sid} · worktree discarded", line

    done = nv.helper("wait_turn", nv.prompt_async("edit", sid), 5_000)
    assert done["error"]["code"] == -32602, done
    wait_note(nv, f"acp-editor: the worktree of session {sid} was discarded: start a new session")


def test_the_discard_question_names_the_files_that_would_be_lost(
    nv: PluginEditor, workspace: Path
) -> None:
    repository(workspace)
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])
    sid, own = new_worktree_session(nv)
    assert nv.wait_turn(nv.prompt_async("edit", sid))["stopReason"] == "end_turn"

    nv.helper("answer_with", "Keep the worktree")
    nv.lua("vim.cmd('AcpDiscardWorktree')")
    nv.wait_until("#H.selects == 1", "the question")
    (asked,) = nv.selects()
    assert asked["titles"] == ["Keep the worktree", "Discard"], asked
    assert asked["chose"] == "Keep the worktree"
    prompt: str = asked["prompt"]
    assert prompt.startswith(f"Discard the worktree of session {sid} (edit)? "), prompt
    assert "1 changed file not brought back (:AcpBringBack) would be lost: " in prompt, prompt
    assert prompt.endswith("hello.py. Your own files and repository are not touched."), prompt

    nv.settle(300)  # a discard would be sent now: none is
    assert (own / "hello.py").read_text() == HELLO + EDIT_LINE, "the worktree is kept"
    assert front_worktree(nv) == str(own)
    assert not any("is discarded" in n for n in nv.notes()), nv.notes()


def test_a_worktree_outside_git_is_refused_with_the_reason(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpNewSession ++worktree')")
    note = wait_note(nv, "is not a git repository: a session of its own worktree needs git")
    assert note.startswith("acp-editor: starting a session in a worktree of its own failed: "), note
    assert nv.lua(f"return {STORE}.current_session") is None
