"""The demo agent looks at the editor through the ``editor`` MCP server the client offered over
ACP itself: the open buffers, and the first lines of one with unsaved changes as the editor holds
them. The demo speaks the few MCP messages it needs by hand; a real agent uses an MCP client
library.

``look`` speaks the request-scoped shape of ACP schema 1.24 and later: one ``mcp/message``
``{serverId, requestId, method, params}`` per MCP request, answered ``{"result"}`` or
``{"error"}``, and no handshake (the shape opens no connection to shake hands on; the client
makes one for the server if it needs it). ``look_connected`` speaks the shape before it
(``mcp/connect``, ``mcp/message`` by ``connectionId``, ``mcp/disconnect``), with the MCP
handshake: the test agent's ``--mcp-connect`` runs it, so that the client's support for agents
still on the old shape stays tested.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from acp_editor import __version__
from acp_editor.errors import ConnectionClosed, RpcError

if TYPE_CHECKING:
    from acp_editor.demo_agent.turn.prompt_turn import Turn

HELLO = "hello.py"
TIMEOUT = 30.0
LOOK_LINES = 5

Mcp = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""Sends one MCP request to the editor's server: its method and params; the result."""


async def look(turn: Turn) -> None:
    server_id = await _server(turn)
    if server_id is None:
        return
    numbers = itertools.count(1)

    async def mcp(method: str, params: dict[str, Any]) -> Any:
        message = {"serverId": server_id, "requestId": f"look-{next(numbers)}", "method": method}
        answer = await turn.peer.request(
            "mcp/message", {**message, "params": params}, timeout=TIMEOUT
        )
        if not isinstance(answer, dict) or ("result" not in answer and "error" not in answer):
            raise RpcError(f"mcp/message answered neither result nor error: {answer!r}"[:300])
        if "result" in answer:  # the schema's rule when both came
            return answer["result"]
        raise RpcError.from_json(answer["error"])

    try:
        await _look_through(turn, mcp)
    except RpcError as exc:
        await turn.stream("agent_message_chunk", f"The editor's MCP server failed: {exc}")


async def look_connected(turn: Turn) -> None:
    server_id = await _server(turn)
    if server_id is None:
        return
    try:
        connected = await turn.peer.request("mcp/connect", {"serverId": server_id}, timeout=TIMEOUT)
        connection = str(connected["connectionId"])
    except (RpcError, KeyError, TypeError) as exc:
        await turn.stream("agent_message_chunk", f"The editor's MCP server did not connect: {exc}")
        return

    async def mcp(method: str, params: dict[str, Any]) -> Any:
        message = {"connectionId": connection, "method": method, "params": params}
        return await turn.peer.request("mcp/message", message, timeout=TIMEOUT)

    try:
        hello = {"name": "acp-editor-demo-agent", "version": __version__}
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": hello}
        await mcp("initialize", init)
        note = {"connectionId": connection, "method": "notifications/initialized"}
        await turn.peer.notify("mcp/message", note)
        await _look_through(turn, mcp)
    except RpcError as exc:
        await turn.stream("agent_message_chunk", f"The editor's MCP server failed: {exc}")
    finally:
        with contextlib.suppress(RpcError, ConnectionClosed):
            await turn.peer.request("mcp/disconnect", {"connectionId": connection}, timeout=TIMEOUT)


async def _server(turn: Turn) -> str | None:
    """The session's ``serverId`` of the editor's server; None, said so, when it has none."""
    if turn.session.editor_server is None:
        await turn.stream(
            "agent_message_chunk",
            "This session has no editor MCP server over ACP, so I cannot see the editor.",
        )
    return turn.session.editor_server


async def _look_through(turn: Turn, mcp: Mcp) -> None:
    listed = (await _tool(mcp, "open_buffers", {})).get("result", [])
    modified = [b["path"] for b in listed if isinstance(b, dict) and b.get("modified")]
    path = modified[0] if modified else turn.path(HELLO)
    read = await _tool(mcp, "read_buffer", {"path": path, "limit": LOOK_LINES})
    name = os.path.basename(path)
    state = "with unsaved changes" if modified else "as saved"
    await turn.stream(
        "agent_message_chunk",
        f"Through the editor's MCP server: {len(listed)} open buffer(s), {len(modified)} with "
        f"unsaved changes. The first lines of {name} {state}:\n\n```\n{read.get('text', '')}```\n",
    )


async def _tool(mcp: Mcp, name: str, arguments: dict[str, Any]) -> Any:
    result = await mcp("tools/call", {"name": name, "arguments": arguments})
    if not isinstance(result, dict) or result.get("isError"):
        raise RpcError(f"{name}: {result!r}"[:300])
    structured = result.get("structuredContent")
    return structured if isinstance(structured, dict) else {}
