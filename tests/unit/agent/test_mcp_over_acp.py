"""MCP-over-ACP through the agent side: an agent in memory that advertises the ``acp`` MCP
transport gets the editor server as ``{"type": "acp", "serverId"}``, reaches its tools with
mcp/connect, mcp/message and mcp/disconnect, and gets an error (never silence) for a server or
connection that is not ours; a malformed notification is dropped; the agent's exit closes what
it left open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pygls.workspace import TextDocument

from acp_editor.agent.client import AcpClient
from acp_editor.agent.config import AgentConfig
from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.errors import RpcError
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel
from tests.support.memory_agent import MemoryAgent, joined


class AcpMcpAgent(MemoryAgent):
    async def _initialize(self, params: Any) -> dict[str, Any]:
        answer = await super()._initialize(params)
        answer["agentCapabilities"]["mcpCapabilities"] = {"acp": True}
        return answer


async def mcp(agent: MemoryAgent, connection: str, method: str, params: Any = None) -> Any:
    message = {"connectionId": connection, "method": method, "params": params}
    return await agent.peer.request("mcp/message", message)


def unsaved_buffer(tmp_path: Path) -> ContextServer:
    """The editor-context server of an editor holding ``a.py`` with unsaved text."""
    (tmp_path / "a.py").write_text("on disk\n")
    channel = FakeChannel()
    uri = path_to_uri(str(tmp_path / "a.py"))
    channel.documents[uri] = TextDocument(uri, "unsaved\n", version=1)
    return ContextServer(ContextTools(EditorDocuments(channel), lambda: None))


async def connected(agent: MemoryAgent, server_id: str) -> tuple[str, Any]:
    """An MCP connection over ACP, initialized as an MCP client does: its id and the server's
    answer to ``initialize``."""
    opened = await agent.peer.request("mcp/connect", {"serverId": server_id})
    connection = str(opened["connectionId"])
    hello = {"name": "memory", "version": "1"}
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": hello}
    answer = await mcp(agent, connection, "initialize", init)
    note = {"connectionId": connection, "method": "notifications/initialized"}
    await agent.peer.notify("mcp/message", note)
    return connection, answer


async def test_the_agent_reaches_the_tools_over_acp_and_strangers_get_errors(
    tmp_path: Path,
) -> None:
    context = unsaved_buffer(tmp_path)
    client = AcpClient(AgentConfig(command=["in-memory"], editor_context=context))
    ours, theirs = joined()
    agent = AcpMcpAgent(theirs)
    try:
        await client.connect(ours)
        await client.new_session(str(tmp_path))
        ((_, params),) = [r for r in agent.received if r[0] == "session/new"]
        (entry,) = params["mcpServers"]
        assert entry["type"] == "acp" and entry["name"] == "editor"
        with pytest.raises(RpcError) as unknown:
            await agent.peer.request("mcp/connect", {"serverId": "not-ours"})
        assert unknown.value.code == -32602
        connection, init = await connected(agent, entry["serverId"])
        assert init["serverInfo"]["name"] == "editor"
        await agent.peer.notify("mcp/message", ["not", "an", "object"])  # dropped, not fatal
        await agent.peer.notify("mcp/message", {"connectionId": "nope", "method": "x"})
        called = await mcp(
            agent,
            connection,
            "tools/call",
            {"name": "read_buffer", "arguments": {"path": str(tmp_path / "a.py")}},
        )
        assert called["structuredContent"]["text"] == "unsaved\n"
        with pytest.raises(RpcError):
            await mcp(agent, "nope", "tools/list")
        with pytest.raises(RpcError):
            await agent.peer.request("mcp/message", {"connectionId": connection})  # no method
        assert await agent.peer.request("mcp/disconnect", {"connectionId": connection}) == {}
        with pytest.raises(RpcError):
            await mcp(agent, connection, "tools/list")  # closed
        left_open = (await agent.peer.request("mcp/connect", {"serverId": entry["serverId"]}))[
            "connectionId"
        ]
    finally:
        await client.shutdown()
    with pytest.raises(RpcError):  # the agent went: so did its connection
        context.acp_notification(left_open, "notifications/initialized", None)
    await context.close()


class ConnectsFirst(AcpMcpAgent):
    """Reaches the editor server while it answers session/new, before the session has an id on
    the client's side (as agents that start their MCP servers at once do)."""

    read: Any = None

    async def _new(self, params: Any) -> dict[str, Any]:
        (entry,) = params["mcpServers"]
        connection, _ = await connected(self, entry["serverId"])
        path = str(Path(params["cwd"]) / "a.py")
        called = {"name": "read_buffer", "arguments": {"path": path}}
        self.read = await mcp(self, connection, "tools/call", called)
        return await super()._new(params)


async def test_the_server_answers_an_agent_that_connects_before_answering(tmp_path: Path) -> None:
    context = unsaved_buffer(tmp_path)
    client = AcpClient(AgentConfig(command=["in-memory"], editor_context=context))
    ours, theirs = joined()
    agent = ConnectsFirst(theirs)
    try:
        await client.connect(ours)
        await client.new_session(str(tmp_path))
        assert agent.read["structuredContent"]["text"] == "unsaved\n"
    finally:
        await client.shutdown()
        await context.close()
