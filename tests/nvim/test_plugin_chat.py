"""The plugin's chat in a real Neovim 0.11, against the real sidecar and the scripted agent.

* a reply appears in the chat buffer while it streams (several redraws, each a longer prefix),
  sent from the prompt area with its own keymap, and focus stays in the prompt area;
* tool calls are folded sections whose header says kind, title and status; the plan is shown;
  what nobody defined yet (custom kinds, content types, update variants) is shown generically;
* the plugin's session mirror equals the server's ``acp/snapshot`` after every scenario;
* ``:[range]AcpPrompt`` sends the selected lines as a ``resource`` block naming file and lines;
* ``:AcpMode`` switches the agent's mode through ``vim.ui.select``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import STREAMING_AGENT

STREAMED = (
    "Here is a streamed answer. Each word arrives as its own chunk, "
    "all sharing one messageId, so the client can join them into one message."
)


def current_window(nv: PluginEditor) -> dict[str, Any]:
    (current,) = [w for w in nv.windows() if w["current"]]
    return current


def test_chat_shows_the_reply_while_it_streams(nv: PluginEditor) -> None:
    # Without --fast the agent sends a word every 20 ms: a viewer sees the text arrive.
    nv.setup(agents={"demo": {"cmd": STREAMING_AGENT}})
    nv.lua("vim.cmd('AcpChat')")
    prompt_win = current_window(nv)
    assert prompt_win["name"] == "acp-editor://prompt", nv.windows()
    nv.helper("record_chat_frames")

    nv.lua("vim.api.nvim_buf_set_lines(0, 0, -1, false, {'stream'})")
    nv.feed("<CR>")  # the prompt area's send key
    nv.wait_until(
        "table.concat(H.chat().lines, '\\n'):find('Done: stream.', 1, true)", "the turn ends", 8000
    )

    chat = nv.chat()
    text = "\n".join(chat["lines"])
    assert STREAMED in text, text
    assert "## You\nstream" in text, text
    # The reply grew in front of the user: many redraws, each showing a longer part of it.
    growing = {
        frame.split("## Agent\n", 1)[1].split("\n", 1)[0]
        for frame in nv.lua("return _G.acp_plugin_test.chat_frames")
        if "## Agent\n" in frame
    }
    partial = [g for g in growing if g and STREAMED.startswith(g) and g != STREAMED]
    assert len(partial) >= 3, f"the reply did not stream into the chat: {sorted(growing)}"
    # The thought is a closed fold under its header.
    thinking = chat["lines"].index("▸ Thinking")
    assert chat["folds"][thinking]["level"] == 1, chat["folds"]
    assert chat["folds"][thinking + 1]["closed"] == thinking + 1, chat["folds"]
    # Sending kept the user in the (now empty) prompt area.
    assert current_window(nv)["win"] == prompt_win["win"], nv.windows()
    assert nv.lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)") == [""]


def test_tool_calls_are_folded_sections_and_the_plan_is_shown(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    result = nv.prompt("plan read custom")
    assert result["stopReason"] == "end_turn", result
    nv.wait_until("#H.chat().lines > 0 and H.chat().lines[1]:find('ready')", "the chat redraws")

    lines = nv.chat()["lines"]
    folds = nv.chat()["folds"]
    header = "✓ [read] Read hello.py (lines 1-20) · completed"
    assert header in lines, lines
    at = lines.index(header)
    # Header opens a closed fold; the file's lines the agent read are inside it.
    assert folds[at]["level"] == 1 and folds[at]["closed"] == at + 1, folds[at]
    body = lines[at + 1 : at + 1 + 1 + len(HELLO_LINES)]
    assert body[0] == "  at hello.py:1", body
    assert body[1:] == [f"  {line}" for line in HELLO_LINES], body
    assert all(folds[i]["closed"] == at + 1 for i in range(at, at + len(body) + 1))
    # Custom kind and status, unknown content and an unknown update: shown, not dropped.
    assert "✓ [_deploy] Deploy a preview · completed" in lines, lines
    assert any(line.startswith('  [_chart] {"') for line in lines), lines
    assert any(line.startswith("[_agent_note] ") for line in lines), lines
    # The plan, replaced whole at each step, ends with every step done.
    plan = lines.index("## Plan")
    assert lines[plan + 1 : plan + 5] == [
        "  ✓ Read hello.py",
        "  ✓ Edit hello.py",
        "  ✓ Run a command",
        "  ✓ Summarise",
    ], lines
    # The next turn has no plan: the finished one is not pinned below it.
    assert nv.prompt("read")["stopReason"] == "end_turn"
    # The transcript ends with the reply, then the turn's end and the tokens it used.
    last = "H.chat().lines[#H.chat().lines]"
    nv.wait_until(f"{last}:find('^%(turn ended: end_turn · .* tokens')", "the turn's end")
    assert nv.chat()["lines"][-3:-1] == ["Done: read.", ""], nv.chat()["lines"]
    assert "## Plan" not in nv.chat()["lines"], nv.chat()["lines"]


def test_session_mirror_equals_the_server_snapshot(nv: PluginEditor) -> None:
    nv.setup(auto_approve=[{"kind": "*", "option": "allow_once"}])
    result = nv.prompt("all")
    assert result["stopReason"] == "end_turn", result
    # The turn's last changes may still be on their way to the mirror: compare until they agree.
    deadline = time.monotonic() + 20
    while True:
        both = nv.helper("mirror_and_snapshot", 5000)  # runs Neovim's loop until the answer
        assert both.get("err") is None and both["snapshot"], both
        mirror, snapshot = both["mirror"], both["snapshot"]
        if mirror == snapshot or time.monotonic() > deadline:
            break
    assert mirror["sessionId"] == result["sessionId"]
    assert len(mirror["entries"]) > 10 and len(mirror["toolCalls"]) >= 5, mirror
    assert mirror == snapshot


def test_range_prompt_sends_the_selected_lines_as_context(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.setup()
    nv.edit(workspace / "hello.py")
    nv.lua("vim.cmd('4,5AcpPrompt explain this')")
    nv.wait_until("vim.tbl_isempty(require('acp_editor.store').turns)", "the turn ends")
    nv.wait_until("require('acp_editor.store').current_session", "a session")

    prompts = [
        m["params"]["prompt"] for m in nv.agent_received() if m.get("method") == "session/prompt"
    ]
    assert len(prompts) == 1, prompts
    text, context = prompts[0]
    assert text == {"type": "text", "text": "explain this"}
    assert context["type"] == "resource", context
    uri = (workspace / "hello.py").as_uri()
    assert context["resource"]["uri"] == f"{uri}#L4-L5", context
    assert context["resource"]["text"] == "\n".join(HELLO_LINES[3:5]) + "\n", context


def test_mode_is_chosen_with_vim_ui_select(nv: PluginEditor) -> None:
    nv.setup()
    nv.prompt("hello")
    nv.helper("answer_with", "Ask: Ask before changing anything")
    nv.lua("vim.cmd('AcpMode')")
    nv.wait_until(
        "require('acp_editor.store').current().modes.currentModeId == 'ask'", "the mode changes"
    )
    (select,) = nv.selects()
    assert select["kind"] == "acp_editor.mode", select
    assert select["titles"][0].startswith("Ask"), select
    set_mode = [m for m in nv.agent_received() if m.get("method") == "session/set_mode"]
    assert [m["params"]["modeId"] for m in set_mode] == ["ask"], set_mode


def test_ctrl_c_cancels_the_turn_while_typing_in_the_prompt(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    assert current_window(nv)["name"] == "acp-editor://prompt"
    turn = nv.prompt_async("wait")  # a tool call that runs until cancelled
    running = (
        "(function() local s = require('acp_editor.store').current(); if not s then return false"
        " end; for _, c in pairs(s.toolCalls) do if c.status == 'in_progress' then return true"
        " end end; return false end)()"
    )
    nv.wait_until(running, "the turn's tool call runs")
    nv.feed("inext question<C-c>")  # Insert mode, as the user types the next prompt
    assert nv.wait_turn(turn)["stopReason"] == "cancelled"
    assert nv.lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)") == ["next question"]
