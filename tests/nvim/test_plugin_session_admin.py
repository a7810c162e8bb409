""":AcpFork, :AcpDeleteSession and :AcpLogout with the plugin, in a real Neovim 0.11, against the
scripted agent (which advertises fork, delete and logout): deleting and logging out ask first
with the keeping answer in front (a vim.ui.select stub plays the user)."""

from __future__ import annotations

from typing import Any

from tests.nvim.plugin_driver import PluginEditor


def sent(nv: PluginEditor, method: str) -> list[dict[str, Any]]:
    """What the agent received of ``method`` (its record of the client's messages)."""
    return [m.get("params") or {} for m in nv.agent_received() if m.get("method") == method]


def test_fork_then_delete_the_fork_then_stay_logged_in(nv: PluginEditor) -> None:
    nv.lua(
        "_G.acp_plugin_test.answer_script(...)",
        [{"select": "Delete"}, {"select": "Stay logged in"}],
    )
    nv.setup()
    result = nv.prompt("stream")
    parent = nv.lua("return require('acp_editor.store').current_session")
    assert result["stopReason"] == "end_turn" and parent

    nv.lua("vim.cmd('AcpFork')")
    nv.wait_until("require('acp_editor.store').current_session ~= " + repr(parent), "the fork")
    fork = nv.lua("return require('acp_editor.store').current_session")
    ((forked,),) = [sent(nv, "session/fork")]
    assert forked["sessionId"] == parent and forked["cwd"]
    assert [s["name"] for s in forked["mcpServers"]] == ["editor"]  # the fork gets its own
    entries = nv.lua("return #require('acp_editor.store').sessions[...].entries", fork)
    assert entries > 0, "the fork starts with the parent's conversation"

    nv.lua("vim.cmd('AcpDeleteSession')")
    nv.wait_until("require('acp_editor.store').current_session == nil", "the fork deleted")
    assert sent(nv, "session/delete") == [{"sessionId": fork}]
    nv.lua("vim.cmd('AcpLogout')")
    nv.wait_until("#_G.acp_plugin_test.asked == 2", "the logout question")
    asked = nv.lua("return _G.acp_plugin_test.asked")
    assert asked[0]["titles"] == ["Keep the session", "Delete"] and fork in asked[0]["prompt"]
    assert asked[1]["titles"] == ["Stay logged in", "Log out"]
    # A later request, then: had "Stay logged in" sent a logout, it would have come before.
    news = len(sent(nv, "session/new"))
    nv.lua("vim.cmd('AcpNewSession')")
    nv.wait_until("require('acp_editor.store').current_session ~= nil", "a new session")
    assert len(sent(nv, "session/new")) == news + 1
    assert sent(nv, "logout") == []
