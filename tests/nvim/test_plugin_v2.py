"""One ACP v2 draft turn in a real Neovim with the plugin: an agent configured with
``protocol_version = 2`` (the scripted agent, which then writes and runs commands itself); a
prompt sent while it works reads as queued until the agent takes it up; the plugin's mirror of
the v2 changes equals the server's snapshot."""

from __future__ import annotations

from pathlib import Path

from acp_editor.demo_agent.turn.prompt_turn import PERMISSION_DESCRIPTION
from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import SCRIPTED_AGENT


def test_a_v2_turn_with_a_queued_prompt(nv: PluginEditor, workspace: Path) -> None:
    agent = [*SCRIPTED_AGENT, "--wait-seconds", "1", "--record", str(nv.agent_record)]
    nv.setup(
        agents={"demo": {"cmd": agent, "protocol_version": 2}},
        auto_approve=[{"kind": "*", "option": "allow_once"}],
    )
    nv.lua("vim.cmd('AcpChat')")
    first = nv.prompt_async("wait plan edit shell")
    nv.wait_until(
        "table.concat(H.chat().lines, '\\n'):find('working…', 1, true)", "the agent works"
    )
    second = nv.prompt_async("stream")
    nv.wait_until(
        "table.concat(H.chat().lines, '\\n'):find('(queued:', 1, true)", "shown as queued"
    )
    assert nv.wait_turn(first)["stopReason"] == "end_turn"
    assert nv.wait_turn(second)["stopReason"] == "end_turn"
    nv.wait_until(
        "table.concat(H.chat().lines, '\\n'):find('Done: stream', 1, true)",
        "the queued prompt's reply",
    )

    text = "\n".join(nv.chat()["lines"])
    assert "(queued:" not in text, text  # the agent took it up
    assert "✓ [execute] Run `echo hello from the demo agent && ls`" in text, text
    assert 'print("edited by the demo agent")' in (workspace / "hello.py").read_text()
    initialize = next(m for m in nv.agent_received() if m.get("method") == "initialize")
    assert initialize["params"]["protocolVersion"] == 2
    assert not [m for m in nv.agent_received() if str(m.get("method", "")).startswith("fs/")]
    both = nv.helper("mirror_and_snapshot", 5000)
    assert both.get("err") is None and both["snapshot"], both
    assert both["mirror"] == both["snapshot"]
    assert both["mirror"]["runState"] == {"state": "idle", "stopReason": "end_turn"}


def test_a_v2_mode_is_chosen_from_the_mode_config_option(nv: PluginEditor) -> None:
    """v2 has no modes: :AcpMode offers the values of the config option of category mode."""
    agent = [*SCRIPTED_AGENT, "--record", str(nv.agent_record)]
    nv.setup(agents={"demo": {"cmd": agent, "protocol_version": 2}})
    nv.prompt("hello")
    nv.helper("answer_with", "Ask: Ask before changing anything")
    nv.lua("vim.cmd('AcpMode')")
    mode = (
        "(function() for _, o in ipairs(require('acp_editor.store').current().configOptions) do"
        " if o.id == 'mode' then return o.currentValue == 'ask' end end end)()"
    )
    nv.wait_until(mode, "the mode option changes")
    sent = [m for m in nv.agent_received() if m.get("method") == "session/set_config_option"]
    assert [m["params"] for m in sent][-1]["value"] == "ask", sent


def test_the_editor_server_setting_and_own_mcp_servers_reach_the_agent(nv: PluginEditor) -> None:
    """editor_context = false leaves the editor-context server out; mcp_servers are passed on."""
    mine = {"name": "mine", "command": "/usr/bin/my-mcp", "args": [], "env": []}
    nv.setup(editor_context=False, mcp_servers=[mine])
    nv.prompt("hello")
    (new,) = [m for m in nv.agent_received() if m.get("method") == "session/new"]
    assert new["params"]["mcpServers"] == [mine]


def test_the_plugin_answers_diagnostics_and_selection_from_neovim(
    nv: PluginEditor, workspace: Path
) -> None:
    """acp/diagnostics gives what vim.diagnostic holds (acp-editor's own review hunks left
    out); acp/selection the last visual selection of the current file."""
    buf = nv.edit(workspace / "hello.py")
    nv.lua(
        "local ns = vim.api.nvim_create_namespace('lint')\n"
        "vim.diagnostic.set(ns, ..., {\n"
        "  { lnum = 1, col = 4, end_lnum = 1, end_col = 9, severity = vim.diagnostic.severity.WARN,"
        "    message = 'unused', source = 'ruff' },\n"
        "  { lnum = 0, col = 0, message = 'agent change', source = 'acp' },\n"
        "})",
        buf,
    )
    found = nv.lua("return require('acp_editor.editor_context').diagnostics(nil, {})")
    assert found == {
        "diagnostics": [
            {
                "path": str(workspace / "hello.py"),
                "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 9}},
                "severity": "warning",
                "message": "unused",
                "source": "ruff",
            }
        ]
    }
    nv.feed("ggVj<Esc>")
    selected = nv.lua("return require('acp_editor.editor_context').selection()")
    assert selected["path"] == str(workspace / "hello.py")
    assert selected["range"]["start"]["line"] == 0 and selected["range"]["end"]["line"] == 1
    assert selected["text"].count("\n") == 1


def test_a_v2_question_shows_its_own_words_before_the_tool_call(nv: PluginEditor) -> None:
    """The demo's v2 request says "Allow the edit of hello.py?" and why, about the tool call
    "Edit hello.py": the question's window shows both, the request's words first."""
    nv.setup(agents={"demo": {"cmd": SCRIPTED_AGENT, "protocol_version": 2}})
    turn = nv.prompt_async("edit")
    nv.wait_until("require('acp_editor.questions.window').shown()", "the question's window")
    shown = nv.lua(
        "local w = require('acp_editor.questions.window');"
        " return vim.api.nvim_buf_get_lines(w.buf, 0, -1, false)"
    )
    words = (
        f"Allow the edit of hello.py? — {PERMISSION_DESCRIPTION} — Edit hello.py (hello.py +1 -0)"
    )
    assert shown[0] == f" The agent asks: {words}", shown
    # The question wraps in the window (80 columns): every row of it is in sight, the keys too.
    rows, height = nv.lua(
        "local w = require('acp_editor.questions.window').win;"
        " return { vim.api.nvim_win_text_height(w, {}).all, vim.api.nvim_win_get_height(w) }"
    )
    assert rows > len(shown) and height == rows
    nv.lua("require('acp_editor.questions.permissions').answer_oldest('reject_once')")
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
