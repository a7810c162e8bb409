"""Subagents (ACP schema 1.25) in the plugin, in a real Neovim 0.11 against the real sidecar and
the demo agent, whose ``subagent`` scenario hands hello.py to a child session (a ``Task`` tool
call): the child reads the file and asks before editing it.

* the child is drawn under the tool call that started it, with its title, its state and its
  own tool calls; its question names it (the picker's prompt, the chat's list), and it is
  answered while its parent is in front; the follow-along mark names it; ``:AcpSessions``
  lists it under its parent; once done it is idle with its stop reason;
* a child is stopped alone, with the chat's key on its line or ``:AcpCancel`` naming it: the
  agent gets ``session/cancel`` of the child's session and the parent's turn goes on;
* a child that fails shows the error's message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from acp_editor.demo_agent.scenarios.subagent_scenarios import (
    CHILD_DESCRIPTION,
    CHILD_TITLE,
    FAILURE,
)
from tests.nvim.plugin_driver import PluginEditor

PERMISSIONS = "require('acp_editor.questions.permissions')"
STORE = "require('acp_editor.store')"
CHILD = f"↳ Subagent “{CHILD_TITLE}”"
TASK = "[think] Task: explore hello.py"
WAITING = f"  {CHILD} · waiting for you · X stops it"
QUESTION = f"## Permission (Subagent “{CHILD_TITLE}”): Edit hello.py (hello.py +1 -0)"


def lua(text: str) -> str:
    """``text`` as a Lua string literal (JSON's escapes, but not for the quotes of titles)."""
    return json.dumps(text, ensure_ascii=False)


def lines(nv: PluginEditor) -> list[str]:
    found: list[str] = nv.chat()["lines"]
    return found


def shows(nv: PluginEditor, line: str, what: str) -> None:
    nv.wait_until(f"vim.tbl_contains(H.chat().lines, {lua(line)})", what, 8000)


def says(nv: PluginEditor, text: str, what: str) -> None:
    """Until the transcript has ``text`` somewhere."""
    nv.wait_until(f"table.concat(H.chat().lines, '\\n'):find({lua(text)}, 1, true)", what, 8000)


def child_id(nv: PluginEditor) -> str:
    sid: str = nv.lua(f"local s = {STORE}; return next(s.current().subagents)")
    return sid


def cancels(nv: PluginEditor) -> list[dict[str, Any]]:
    return [m["params"] for m in nv.agent_received() if m.get("method") == "session/cancel"]


def test_the_child_under_its_tool_call_asks_naming_itself(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.helper("answer_with", "Allow", 60_000)  # the user reads the question a while
    nv.setup()
    nv.lua(
        "_G.asked = {}; vim.api.nvim_create_autocmd('User', { pattern = 'AcpQuestion',"
        " callback = function(ev) table.insert(_G.asked, ev.data) end })"
    )
    nv.lua("vim.cmd('AcpChat')")
    hello = nv.edit(workspace / "hello.py")
    nv.lua("vim.cmd('AcpChat')")
    turn = nv.prompt_async("subagent")
    shows(nv, WAITING, "the child waits for its answer, under its tool call")
    shows(nv, QUESTION, "its question, in the chat's list")
    nv.wait_until("#_G.acp_plugin_test.selects == 1", "its question, in the picker")
    drawn = lines(nv)
    task = next(i for i, line in enumerate(drawn) if TASK in line)
    assert drawn[task].startswith("◐ "), drawn
    assert drawn[task + 1 :][:4] == [
        WAITING,
        f"    {CHILD_DESCRIPTION}",
        "    ✓ [read] Read hello.py · completed",
        "    ○ [edit] Edit hello.py · pending",
    ], drawn
    # Its question names it: in the picker's prompt and the chat's list.
    (select,) = nv.selects()
    assert select["prompt"] == f"Subagent “{CHILD_TITLE}” asks: Edit hello.py (hello.py +1 -0)"
    assert QUESTION in drawn, drawn
    (event,) = nv.lua("return _G.asked")
    parent = nv.lua(f"return {STORE}.current_session")
    assert event["subagent"] == CHILD_TITLE and event["parentSessionId"] == parent, event
    assert nv.lua("return require('acp_editor').statusline()").startswith("acp: waiting for you")
    # The agent's mark in hello.py names the child whose work it is.
    nv.wait_until(
        f"vim.iter(H.extmarks({hello}, 'acp_editor_follow')):any(function(m)"
        f" return (m.virt_text or ''):find({lua(CHILD_TITLE)}, 1, true) end)",
        "the follow mark names the child",
    )
    (mark,) = nv.extmarks(hello, "acp_editor_follow")
    assert mark["virt_text"].startswith(f" agent \u203a {CHILD_TITLE}: "), mark
    # The switcher lists it under its parent, and choosing it shows it in its parent's chat.
    child = child_id(nv)
    nv.helper("answer_script", [{"select": vim_child_line(child)}])
    nv.lua("vim.cmd('AcpSessions')")
    nv.wait_until("#_G.acp_plugin_test.asked == 1", "the switcher")
    (asked,) = nv.lua("return _G.acp_plugin_test.asked")
    assert asked["titles"] == [
        f"▸ subagent · demo · waiting for you · {parent}",
        vim_child_line(child),
    ]
    nv.wait_until(
        "(function() local c = require('acp_editor.chat'); local w = vim.fn.bufwinid(c.buf);"
        f" return c.child_at[vim.api.nvim_win_get_cursor(w)[1]] == '{child}' end)()",
        "the chat's cursor on the child",
    )
    assert nv.lua(f"return {STORE}.current_session") == parent

    nv.lua(f"{PERMISSIONS}.answer_oldest('allow_once')")
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn", result
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)
    says(nv, f"{CHILD} · idle · end_turn", "the child is idle")
    drawn = lines(nv)
    assert f"## Subagent “{CHILD_TITLE}” → agent" in drawn, drawn
    assert f"## Agent → subagent “{CHILD_TITLE}”" in drawn, drawn
    assert QUESTION not in drawn


def vim_child_line(child: str) -> str:
    return f"    ↳ {CHILD_TITLE} · subagent · waiting for you · {child}"


@pytest.mark.parametrize("how", ["key", "command"])
def test_a_child_is_cancelled_alone(nv: PluginEditor, workspace: Path, how: str) -> None:
    original = (workspace / "hello.py").read_text()
    nv.setup(permission_ui="chat")  # the question waits in the chat: nobody answers it
    nv.lua("vim.cmd('AcpChat')")
    turn = nv.prompt_async("subagent")
    shows(nv, WAITING, "the child waits")
    shows(nv, QUESTION, "its question, in the chat")
    child = child_id(nv)
    if how == "key":
        drawn = lines(nv)
        nv.lua(
            "local chat = require('acp_editor.chat'); local win = vim.fn.bufwinid(chat.buf);"
            " vim.api.nvim_set_current_win(win); vim.api.nvim_win_set_cursor(win, { ..., 0 })",
            drawn.index(WAITING) + 1,
        )
        nv.feed("X")
    else:
        complete = "return vim.fn.getcompletion('AcpCancel ', 'cmdline')"
        assert nv.lua(complete) == [child]
        nv.lua(f"vim.cmd('AcpCancel {child}')")
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn", "the parent's turn went on"
    assert cancels(nv) == [{"sessionId": child}], cancels(nv)
    says(nv, f"{CHILD} · idle · cancelled", "the child is cancelled")
    assert "The subagent was cancelled before it finished." in "\n".join(lines(nv))
    assert f"acp-editor: Subagent “{CHILD_TITLE}” cancelled; the turn goes on" in nv.notes()
    assert (workspace / "hello.py").read_text() == original
    assert nv.lua(f"return #{PERMISSIONS}.pending") == 0


def test_a_child_that_fails_shows_the_error(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    assert nv.prompt("subagent-fails")["stopReason"] == "end_turn"
    failed = f"  {CHILD} · failed: {FAILURE['message']}"
    nv.wait_until(
        f"vim.iter(H.chat().lines):any(function(l) return vim.startswith(l, {lua(failed)}) end)",
        "the child failed",
    )
    drawn = lines(nv)
    at = next(i for i, line in enumerate(drawn) if line.startswith(failed))
    assert drawn[at].endswith(" tokens"), drawn[at]  # what it used before failing
    assert drawn[at + 2] == "    ✓ [read] Read hello.py · completed", drawn
    task = next(line for line in drawn if TASK in line)
    assert task.startswith("✗ "), task
