"""MCP-over-ACP through the agent side: an agent in memory that advertises the ``acp`` MCP
transport gets the editor server as ``{"type": "acp", "name", "serverId"}`` and reaches its tools
with ``mcp/message``. Request-scoped (schema 1.24 on): each answered ``{"result"}`` or
``{"error"}``, with or without the agent's own handshake, an outer error only for what cannot be
bound; a request withdrawn by an inner ``notifications/cancelled`` or the outer
``$/cancel_request``; a closed session's server gone. The old shape (mcp/connect, mcp/message by
connectionId, mcp/disconnect) still works, and gets an error (never silence) for a server or
connection that is not ours. The agent's exit closes what it left open."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient
from acp_editor.agent.config import AgentConfig
from acp_editor.agent.link.rpc import JsonRpcPeer
from acp_editor.agent.serving.mcp_over_acp import McpOverAcp, _Active, _Binding
from acp_editor.context.server import ContextServer
from acp_editor.errors import ConnectionClosed, RpcError
from tests.support.editor_context import HELLO, HeldSelection, unsaved_editor
from tests.support.memory_agent import MemoryAgent, joined


class AcpMcpAgent(MemoryAgent):
    async def _initialize(self, params: Any) -> dict[str, Any]:
        answer = await super()._initialize(params)
        answer["agentCapabilities"]["mcpCapabilities"] = {"acp": True}
        return answer


def unsaved_buffer(tmp_path: Path, held: HeldSelection | None = None) -> ContextServer:
    """The editor-context server of an editor holding ``a.py`` with unsaved text (and, given
    ``held``, a selection it answers when the test says so)."""
    return ContextServer(unsaved_editor(tmp_path / "a.py", "on disk\n", "unsaved\n", held))


def read_a(tmp_path: Path) -> dict[str, Any]:
    return {"name": "read_buffer", "arguments": {"path": str(tmp_path / "a.py")}}


async def scoped(agent: MemoryAgent, server: str, rid: str, method: str, params: Any = None) -> Any:
    message = {"serverId": server, "requestId": rid, "method": method, "params": params}
    return await agent.peer.request("mcp/message", message)


async def started(tmp_path: Path, context: ContextServer) -> tuple[AcpClient, AcpMcpAgent, str]:
    """A client with one session, its agent in memory, and the editor server's id."""
    client = AcpClient(AgentConfig(command=["in-memory"], editor_context=context))
    ours, theirs = joined()
    agent = AcpMcpAgent(theirs)
    await client.connect(ours)
    await client.new_session(str(tmp_path))
    ((_, params),) = [r for r in agent.received if r[0] == "session/new"]
    (entry,) = params["mcpServers"]
    assert entry["type"] == "acp" and entry["name"] == "editor"
    return client, agent, entry["serverId"]


async def test_each_request_is_answered_with_its_outcome_and_strangers_get_errors(
    tmp_path: Path,
) -> None:
    context = unsaved_buffer(tmp_path)
    client, agent, server = await started(tmp_path, context)
    try:  # no handshake: the shape opens no connection to shake hands on
        called = await scoped(agent, server, "1", "tools/call", read_a(tmp_path))
        assert called["result"]["structuredContent"]["text"] == "unsaved\n"
        refused = await scoped(agent, server, "2", "no/such")
        assert refused["error"]["code"] == -32601
        hello = await scoped(agent, server, "3", "initialize", HELLO)  # one that does: welcome
        assert hello["result"]["serverInfo"]["name"] == "editor"
        bad = [
            {"serverId": "not-ours", "requestId": "4", "method": "tools/list"},
            {"serverId": server, "method": "tools/list"},
            {"serverId": server, "requestId": 5, "method": "tools/list"},
            {"serverId": server, "requestId": "6"},
            {"serverId": server, "requestId": "7", "method": "tools/list", "params": [1]},
        ]
        for message in bad:
            with pytest.raises(RpcError) as refused_outside:
                await agent.peer.request("mcp/message", message)
            assert refused_outside.value.code == -32602, message
        await agent.peer.notify("mcp/message", {"serverId": "not-ours", "method": "x"})
    finally:
        await client.shutdown()
    assert context._acp is not None and context._acp._connections == {}  # the agent went
    await context.close()


async def test_a_request_is_withdrawn_by_the_agent_and_its_id_is_free_again(
    tmp_path: Path,
) -> None:
    held = HeldSelection()
    context = unsaved_buffer(tmp_path, held)
    client, agent, server = await started(tmp_path, context)
    selection = {"name": "selection"}
    try:
        waiting = asyncio.ensure_future(scoped(agent, server, "s", "tools/call", selection))
        await held.in_flight()
        with pytest.raises(RpcError) as twice:
            await scoped(agent, server, "s", "tools/list")
        assert twice.value.code == -32602  # "s" is active
        cancel = {"serverId": server, "method": "notifications/cancelled"}
        await agent.peer.notify("mcp/message", {**cancel, "params": {"requestId": "s"}})
        assert (await waiting)["error"]["code"] == -32800
        await held.given_up()  # the tool stopped too
        outer = asyncio.ensure_future(scoped(agent, server, "s", "tools/call", selection))
        await held.in_flight()
        outer.cancel()  # the agent's peer sends $/cancel_request
        await held.given_up()
        held.release.set()
        answered = await scoped(agent, server, "s", "tools/call", selection)
        assert answered["result"]["isError"] is False
    finally:
        await client.shutdown()
        await context.close()


async def test_a_closed_sessions_server_is_gone(tmp_path: Path) -> None:
    context = unsaved_buffer(tmp_path)
    client, agent, server = await started(tmp_path, context)
    try:
        await scoped(agent, server, "1", "tools/call", read_a(tmp_path))
        await client.close_session("s1", tell_agent=False)
        with pytest.raises(RpcError) as closed:
            await scoped(agent, server, "2", "tools/call", read_a(tmp_path))
        assert closed.value.code == ConnectionClosed.CODE
        assert context._acp is not None and context._acp._connections == {}
        with pytest.raises(RpcError) as unknown:
            await scoped(agent, server, "3", "tools/call", read_a(tmp_path))
        assert unknown.value.code == -32602
    finally:
        await client.shutdown()
        await context.close()


async def test_progress_goes_back_to_the_request_it_names_and_nothing_else_does() -> None:
    ours, theirs = joined()
    heard: asyncio.Queue[Any] = asyncio.Queue()
    theirs.on_notification("mcp/message", heard.put_nowait)
    binding = _Binding("server", "editor-1", {"r1": _Active(progress=7), "r2": _Active(None)})
    for method, params in [
        ("notifications/progress", {"progressToken": 7, "progress": 1}),
        ("notifications/tools/list_changed", None),  # about no request: the shape has no room
        ("notifications/progress", {"progressToken": 8, "progress": 1}),  # nor one that ended
        ("notifications/progress", {"progressToken": 7, "progress": 2}),
    ]:
        await McpOverAcp._scoped_notify(ours, binding, method, params)
    for progress in (1, 2):
        heard_now = await asyncio.wait_for(heard.get(), 5)
        assert heard_now == {
            "serverId": "server",
            "requestId": "r1",
            "method": "notifications/progress",
            "params": {"progressToken": 7, "progress": progress},
        }


# -- the old shape ------------------------------------------------------------------------------


async def mcp(agent: MemoryAgent, connection: str, method: str, params: Any = None) -> Any:
    message = {"connectionId": connection, "method": method, "params": params}
    return await agent.peer.request("mcp/message", message)


async def connected(agent: MemoryAgent, server_id: str) -> tuple[str, Any]:
    """An MCP connection over ACP, initialized as an MCP client does: its id and the server's
    answer to ``initialize``."""
    opened = await agent.peer.request("mcp/connect", {"serverId": server_id})
    connection = str(opened["connectionId"])
    answer = await mcp(agent, connection, "initialize", HELLO)
    note = {"connectionId": connection, "method": "notifications/initialized"}
    await agent.peer.notify("mcp/message", note)
    return connection, answer


async def test_the_old_shape_reaches_the_tools_and_strangers_get_errors(tmp_path: Path) -> None:
    context = unsaved_buffer(tmp_path)
    client, agent, server = await started(tmp_path, context)
    try:
        with pytest.raises(RpcError) as unknown:
            await agent.peer.request("mcp/connect", {"serverId": "not-ours"})
        assert unknown.value.code == -32602
        connection, init = await connected(agent, server)
        assert init["serverInfo"]["name"] == "editor"
        await agent.peer.notify("mcp/message", ["not", "an", "object"])  # dropped, not fatal
        await agent.peer.notify("mcp/message", {"connectionId": "nope", "method": "x"})
        called = await mcp(agent, connection, "tools/call", read_a(tmp_path))
        assert called["structuredContent"]["text"] == "unsaved\n"
        with pytest.raises(RpcError) as inner:  # the old shape's inner error is the outer one
            await mcp(agent, connection, "no/such")
        assert inner.value.code == -32601
        with pytest.raises(RpcError):
            await mcp(agent, "nope", "tools/list")
        with pytest.raises(RpcError):
            await agent.peer.request("mcp/message", {"connectionId": connection})  # no method
        assert await agent.peer.request("mcp/disconnect", {"connectionId": connection}) == {}
        with pytest.raises(RpcError):
            await mcp(agent, connection, "tools/list")  # closed
        left_open = (await agent.peer.request("mcp/connect", {"serverId": server}))["connectionId"]
    finally:
        await client.shutdown()
    with pytest.raises(RpcError):  # the agent went: so did its connection
        context.acp_notification(left_open, "notifications/initialized", None)
    await context.close()


class AsksFirst(AcpMcpAgent):
    """Reaches the editor server while it answers session/new, before the session has an id on
    the client's side (as agents that start their MCP servers at once do), in either shape."""

    def __init__(self, peer: JsonRpcPeer) -> None:
        super().__init__(peer)
        self.read: dict[str, Any] = {}

    async def _new(self, params: Any) -> dict[str, Any]:
        (entry,) = params["mcpServers"]
        called = read_a(Path(params["cwd"]))
        connection, _ = await connected(self, entry["serverId"])
        self.read["old"] = await mcp(self, connection, "tools/call", called)
        self.read["new"] = (await scoped(self, entry["serverId"], "1", "tools/call", called))[
            "result"
        ]
        return await super()._new(params)


async def test_the_server_answers_an_agent_that_asks_before_answering(tmp_path: Path) -> None:
    context = unsaved_buffer(tmp_path)
    client = AcpClient(AgentConfig(command=["in-memory"], editor_context=context))
    ours, theirs = joined()
    agent = AsksFirst(theirs)
    try:
        await client.connect(ours)
        await client.new_session(str(tmp_path))
        for shape in ("old", "new"):
            assert agent.read[shape]["structuredContent"]["text"] == "unsaved\n", shape
    finally:
        await client.shutdown()
        await context.close()
