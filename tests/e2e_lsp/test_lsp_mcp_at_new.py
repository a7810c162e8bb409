"""Agents that start their MCP servers while they answer ``session/new`` (gemini-cli, opencode,
claude-code-acp 0.16, fast-agent): the scripted agent's ``--mcp-at-new`` starts each server it
is given with the official MCP SDK's client and lists its tools before it answers, and fails the
call when one fails, as fast-agent does. The editor server's token works from the moment it is
handed out; an agent that still cannot start it gets a session without it, and the user is told
why; any other failure reaches the user with the agent's own details."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lsprotocol.types as lsp
import pytest

from acp_editor.protocol import editor as proto
from acp_editor.protocol.editor_context import TOOLS
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import Editor, wait_until

AT_NEW = ("--mcp-at-new",)


def said(editor: Editor) -> str:
    """Everything the agent said in the editor's sessions so far."""
    return json.dumps(editor.of(proto.ACP_SESSION_CHANGED))


def session_news(record: Path) -> list[dict[str, Any]]:
    received = [json.loads(line) for line in record.read_text().splitlines()]
    return [m["params"] for m in received if m.get("method") == "session/new"]


@pytest.mark.parametrize("version", ["1", "2"])
async def test_an_agent_that_starts_the_editor_server_before_answering_gets_it(
    editor_factory: StartEditor, workspace: Path, version: str
) -> None:
    """stdio on v1, stdio on v2 (``session.mcp.stdio``): the bridge's hello carries a token that
    no session has named yet, and the sidecar takes it."""
    editor = await editor_factory(
        features=["stream"],
        agent_flags=("--mcp", "stdio", *AT_NEW),
        server_args=("--protocol-version", version),
    )
    editor.open("hello.py", HELLO + "# not saved yet\n")
    result = await editor.command("acp.prompt", "hello")
    assert result["stopReason"] == "end_turn"
    started = f"editor ({', '.join(sorted(TOOLS))})"
    await wait_until(lambda: started in said(editor))
    assert editor.client.messages == []  # nothing went wrong: nothing to tell


async def test_over_http_too(editor_factory: StartEditor, workspace: Path) -> None:
    """A v2 agent that takes only HTTP: the bearer token works before the session has an id."""
    editor = await editor_factory(
        features=["stream"],
        agent_flags=("--mcp", "http", *AT_NEW),
        server_args=("--protocol-version", "2"),
    )
    await editor.request(proto.ACP_NEW_SESSION, {})
    await wait_until(lambda: f"editor ({', '.join(sorted(TOOLS))})" in said(editor))


async def test_a_session_the_editor_server_would_sink_starts_without_it_and_says_so(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    """The agent loses the server's token (``--mcp-drop-secrets``), the bridge is refused and
    the agent fails session/new naming ``editor``: the sidecar asks once more without it."""
    record = tmp_path / "agent.jsonl"
    editor = await editor_factory(
        capabilities="neovim",
        agent_flags=("--record", str(record), "--mcp", "stdio", *AT_NEW, "--mcp-drop-secrets"),
    )
    result = await editor.command("acp.prompt", "hello")
    assert result["stopReason"] == "end_turn"
    first, second = session_news(record)
    assert [s["name"] for s in first["mcpServers"]] == ["editor"]
    assert second["mcpServers"] == []
    # The turn's own reply may name MCP servers too (the demo says which it started at
    # session/new when that report is in time): only the sidecar's notice is counted here.
    (told,) = [m for m in editor.client.messages if "could not start" in m.message]
    assert told.type == lsp.MessageType.Warning
    assert "could not start acp-editor's 'editor' MCP server" in told.message
    assert "Failed to initialize" in told.message  # the agent's own words, from data.details
    assert "without it" in told.message


async def test_any_other_failed_session_shows_the_agents_details(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    """A server of the user's own that does not start: the agent's ``data.details`` reach the
    user (not only "Internal error"), and nothing is retried."""
    record = tmp_path / "agent.jsonl"
    mine = {"name": "mine", "command": str(tmp_path / "no-such-server")}
    editor = await editor_factory(
        capabilities="neovim",
        agent_flags=("--record", str(record), *AT_NEW),
        init_options={"acp": {"mcpServers": [mine], "editorContext": False}},
    )
    with pytest.raises(Exception) as failed:  # the error the editor shows for its command
        await editor.command("acp.prompt", "hello")
    shown = "session/new failed: Internal error: MCP Server: 'mine': Failed to initialize"
    assert shown in str(failed.value)
    assert len(session_news(record)) == 1
