"""The demo agent looks at the editor through the ``editor`` MCP server the client offered over
ACP itself (``mcp/connect``, ``mcp/message``, ``mcp/disconnect``): the open buffers, and the first
lines of one with unsaved changes as the editor holds them. The demo speaks the few MCP messages
it needs by hand; a real agent uses an MCP client library."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any

from acp_editor import __version__
from acp_editor.errors import ConnectionClosed, RpcError

if TYPE_CHECKING:
    from acp_editor.demo_agent.turn import Turn

HELLO = "hello.py"
TIMEOUT = 30.0
LOOK_LINES = 5


async def look(turn: Turn) -> None:
    server_id = turn.session.editor_server
    if server_id is None:
        await turn.stream(
            "agent_message_chunk",
            "This session has no editor MCP server over ACP, so I cannot see the editor.",
        )
        return
    try:
        connected = await turn.peer.request("mcp/connect", {"serverId": server_id}, timeout=TIMEOUT)
        connection = str(connected["connectionId"])
    except (RpcError, KeyError, TypeError) as exc:
        await turn.stream("agent_message_chunk", f"The editor's MCP server did not connect: {exc}")
        return
    try:
        await _look_through(turn, connection)
    except RpcError as exc:
        await turn.stream("agent_message_chunk", f"The editor's MCP server failed: {exc}")
    finally:
        with contextlib.suppress(RpcError, ConnectionClosed):
            await turn.peer.request("mcp/disconnect", {"connectionId": connection}, timeout=TIMEOUT)


async def _look_through(turn: Turn, connection: str) -> None:
    hello = {"name": "acp-editor-demo-agent", "version": __version__}
    await _mcp(
        turn,
        connection,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": hello},
    )
    note = {"connectionId": connection, "method": "notifications/initialized"}
    await turn.peer.notify("mcp/message", note)
    listed = (await _tool(turn, connection, "open_buffers", {})).get("result", [])
    modified = [b["path"] for b in listed if isinstance(b, dict) and b.get("modified")]
    path = modified[0] if modified else turn.path(HELLO)
    read = await _tool(turn, connection, "read_buffer", {"path": path, "limit": LOOK_LINES})
    name = os.path.basename(path)
    state = "with unsaved changes" if modified else "as saved"
    await turn.stream(
        "agent_message_chunk",
        f"Through the editor's MCP server: {len(listed)} open buffer(s), {len(modified)} with "
        f"unsaved changes. The first lines of {name} {state}:\n\n```\n{read.get('text', '')}```\n",
    )


async def _mcp(turn: Turn, connection: str, method: str, params: dict[str, Any]) -> Any:
    message = {"connectionId": connection, "method": method, "params": params}
    return await turn.peer.request("mcp/message", message, timeout=TIMEOUT)


async def _tool(turn: Turn, connection: str, name: str, arguments: dict[str, Any]) -> Any:
    result = await _mcp(turn, connection, "tools/call", {"name": name, "arguments": arguments})
    if not isinstance(result, dict) or result.get("isError"):
        raise RpcError(f"{name}: {result!r}"[:300])
    structured = result.get("structuredContent")
    return structured if isinstance(structured, dict) else {}
