"""Several live sessions side by side with the plugin, in a real Neovim 0.11 (issue 28):

* each session has its own chat: switching (``:AcpSwitch``, ``:AcpSessions``) shows the chosen
  session's transcript in the chat window (read from the screen) and its own prompt draft, and
  tells the sidecar (``acp/selectSession``);
* with a second agent beside the first (the plugin's other ``agents``, ``:AcpNewSession other``),
  a permission question of a session in the background is announced (a notification naming
  the agent, the session and ``:AcpSwitch``) without a window and without moving the cursor;
  the status line counts the sessions waiting; after switching, the question is in that
  session's chat and answered there; the hunk it wrote names its agent and session;
* a hunk of unsure origin names every session it may be of, and a hunk over another session's
  pending one says which goes first, inline and in the quickfix list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import SCRIPTED_AGENT

STORE = "require('acp_editor.store')"
PERMISSIONS = "require('acp_editor.questions.permissions')"
EDIT_REQUEST = "## Permission: Edit hello.py (hello.py +1 -0)"

# What the chat's transcript window shows, read from Neovim's screen (after a redraw), and
# where the cursor is.
SCREEN = """
local win
for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
  if vim.b[vim.api.nvim_win_get_buf(w)].acp_editor_transcript then win = w end
end
vim.cmd.redraw()
local pos, rows = vim.api.nvim_win_get_position(win), {}
for r = 1, vim.api.nvim_win_get_height(win) do
  local cells = {}
  for c = 1, vim.api.nvim_win_get_width(win) do
    cells[c] = vim.fn.screenstring(pos[1] + r, pos[2] + c)
  end
  rows[r] = vim.trim(table.concat(cells))
end
return rows
"""


def current(nv: PluginEditor) -> str:
    sid: str = nv.lua(f"return {STORE}.current_session")
    return sid


def screen(nv: PluginEditor) -> list[str]:
    rows: list[str] = nv.lua(SCREEN)
    return rows


def prompt_text(nv: PluginEditor) -> list[str]:
    lines: list[str] = nv.lua(
        "return vim.api.nvim_buf_get_lines(require('acp_editor.chat').prompt_buf, 0, -1, false)"
    )
    return lines


def server_front(nv: PluginEditor) -> Any:
    """The sidecar's current session (acp/snapshot's currentSessionId)."""
    nv.lua(
        "_G.front = nil; require('acp_editor.sidecar.client').request('acp/snapshot', {},"
        " function(_, r) _G.front = r and r.currentSessionId or vim.NIL end)"
    )
    nv.wait_until("_G.front ~= nil", "the snapshot")
    return nv.lua("return _G.front")


def new_session(nv: PluginEditor, agent: str = "") -> str:
    before = current(nv)
    nv.lua(f"vim.cmd('AcpNewSession {agent}')")
    nv.wait_until(f"{STORE}.current_session ~= {before!r}", "the new session in front")
    return current(nv)


def test_each_session_has_its_chat_and_its_draft(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    first = nv.prompt("hello")["sessionId"]
    nv.lua(
        "vim.api.nvim_buf_set_lines(require('acp_editor.chat').prompt_buf, 0, -1, false, {...})",
        "half a thought",
    )
    second = new_session(nv)
    assert second != first
    shown = screen(nv)
    assert "Type a prompt below and press Enter." in shown, shown
    assert "session 2 of 2" in shown[0], shown
    assert prompt_text(nv) == [""], "the new session's prompt area starts empty"
    nv.prompt("stream")
    assert "hello" not in screen(nv), "the first session's prompt is not in the second's chat"

    # :AcpSwitch back: the first session's chat and draft, measured from the command to the
    # screen drawn (a number to read, not an assertion).
    took = nv.lua(
        """
        local t = vim.uv.hrtime()
        vim.cmd('AcpSwitch ' .. ...)
        vim.cmd.redraw()
        return (vim.uv.hrtime() - t) / 1e6
        """,
        first,
    )
    print(f"\n:AcpSwitch to a 1-turn session, screen drawn: {took:.2f} ms")
    shown = screen(nv)
    assert "hello" in shown and "stream" not in shown, shown
    assert "session 1 of 2" in shown[0], shown
    assert prompt_text(nv) == ["half a thought"], "the draft came back with its session"
    assert server_front(nv) == first, "acp/selectSession told the sidecar"

    # :AcpSessions lists both (title, agent, state, id; the front one marked) and switches.
    nv.helper("answer_with", f"  stream · demo · idle · {second}")
    nv.lua("vim.cmd('AcpSessions')")
    nv.wait_until(f"{STORE}.current_session == {second!r}", "switched from the list")
    (picked,) = nv.selects()
    assert picked["titles"][:2] == [
        f"▸ hello · demo · idle · {first}",
        f"  stream · demo · idle · {second}",
    ]
    assert "stream" in screen(nv) and prompt_text(nv) == [""]
    assert nv.lua("return vim.fn.getcompletion('AcpSwitch ', 'cmdline')") == [first, second]


def test_a_background_question_is_announced_then_answered_in_its_chat(
    nv: PluginEditor, workspace: Path, tmp_path: Path
) -> None:
    other = [*SCRIPTED_AGENT, "--record", str(tmp_path / "other.jsonl")]
    # permission_ui "auto" with Neovim's own vim.ui.select: the question window, as users get.
    nv.setup(agents={**nv.agents, "other": {"cmd": other}})
    nv.lua("vim.cmd('AcpChat')")
    first = nv.prompt("hello")["sessionId"]
    completion = nv.lua("return vim.fn.getcompletion('AcpNew ', 'cmdline')")
    assert completion == ["demo", "other", "++worktree"]
    second = new_session(nv, "other")
    assert nv.lua(f"return {STORE}.sessions[...].agent", second) == "other"
    before = nv.lua("return {vim.api.nvim_get_current_win(), #vim.api.nvim_list_wins()}")

    turn = nv.prompt_async("edit", first)  # the first session, in the background, asks
    nv.wait_until(f"#{PERMISSIONS}.pending == 1", "the request")
    nv.settle(100)
    after = nv.lua("return {vim.api.nvim_get_current_win(), #vim.api.nvim_list_wins()}")
    assert after == before, "no window opened, the cursor stayed"
    (note,) = [n for n in nv.notes() if ":AcpSwitch" in n]
    assert note.startswith("acp-editor: acp-editor demo agent (demo) asks in session"), note
    assert f"in session {first} (hello)" in note and f":AcpSwitch {first}" in note, note
    assert EDIT_REQUEST not in screen(nv), "not in the front session's chat"
    status = nv.lua("return require('acp_editor').statusline()")
    assert status.startswith("acp: idle") and status.endswith("1 session waiting"), status
    assert current(nv) == second

    nv.lua(f"vim.cmd('AcpSwitch {first}')")
    assert EDIT_REQUEST in screen(nv)
    assert nv.lua("return require('acp_editor.questions.window').shown()"), "today's window"
    nv.lua("vim.api.nvim_set_current_win(vim.fn.bufwinid(require('acp_editor.chat').buf))")
    nv.feed("a")  # the chat's key: allow
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)
    nv.wait_until(f"#{PERMISSIONS}.pending == 0", "answered")
    status = nv.lua("return require('acp_editor').statusline()")
    assert "waiting" not in status, status
    nv.wait_until("#require('acp_editor.review').quickfix_items() == 1", "the hunk")
    (item,) = nv.lua("return require('acp_editor.review').quickfix_items()")
    assert item["text"].startswith("[acp-editor demo agent (demo): hello] written"), item


# Two live sessions' mirrors and, in hello.py, a hunk that may be either's (sessions) and
# another session's hunk over it (conflictsWith), as acp/reviewChanged brings them.
TWO_SESSIONS_HUNKS = """
local store, path = require("acp_editor.store"), ...
for sid, title in pairs({ s1 = "fix the test", s2 = "add docs" }) do
  local snap = require("acp_editor.session.reducer").new(sid)
  local prompt = { { type = "text", text = title } }
  snap.entries = { { kind = "message", role = "user", content = prompt } }
  store.sessions[sid] = snap
  store.track(sid)
end
local function hunk(id, sid, line, text, extra)
  local range = { start = { line = line, character = 0 } }
  range["end"] = { line = line, character = #text }
  return vim.tbl_extend("force", {
    hunkId = id, sessionId = sid, uri = vim.uri_from_fname(path), path = path, state = "pending",
    applied = true, oldLines = { "old" }, newLines = { text }, range = range,
  }, extra)
end
require("acp_editor.review").on_changed(nil, { hunks = {
  hunk("h1", "s2", 0, "import sys", { sessions = { "s1", "s2" } }),
  hunk("h2", "s1", 6, "main()", { conflictsWith = { "h1" } }),
} })
"""


def test_review_names_a_change_of_unsure_origin_and_which_of_two_goes_first(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.setup()
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.lua(TWO_SESSIONS_HUNKS, str(hello))
    who = "acp-editor demo agent"
    either = f"{who}: fix the test or {who}: add docs (not sure which)"
    hints = {
        m["row"]: m["virt_text"]
        for m in nv.extmarks(buf, "acp_editor_preview")
        if m.get("virt_text")
    }
    assert hints[0].startswith(
        f" edit by {either} · changed again by {who}: fix the test, still pending"
        " (reject that change before this one) · "
    ), hints
    assert hints[6].startswith(
        f" edit by {who}: fix the test · conflicts with a pending change of {who}: add docs"
        " (to reject that one, reject this one first) · "
    ), hints
    items = nv.lua("return require('acp_editor.review').quickfix_items()")
    texts = [item["text"] for item in items]
    assert texts[0].startswith(f"[{either}] written, pending review h1 +1 -1 · changed again"), (
        texts
    )
    assert texts[1].endswith(
        f"h2 +1 -1 · conflicts with a pending change of {who}: add docs"
        " (to reject that one, reject this one first)"
    ), texts
