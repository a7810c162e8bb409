"""MCP-over-ACP (unstable in the spec), the agent's side of it: ``mcp/connect``,
``mcp/message`` (requests and notifications) and ``mcp/disconnect`` from the agent go to the
editor-context server, which declared itself ``type: acp`` in the session's ``mcpServers``;
what that server sends on its own goes back as ``mcp/message`` notifications. Connections still
open when the agent goes are closed.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from acp_editor.errors import InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.config import EditorContext
    from acp_editor.agent.link.rpc import JsonRpcPeer


log = get_logger("agent.mcp")


class McpOverAcp:
    def __init__(self, context: EditorContext | None) -> None:
        self.context = context
        self._open: set[str] = set()

    def register(self, peer: JsonRpcPeer) -> None:
        if self.context is None:
            return
        context = self.context

        async def connect(params: Any) -> dict[str, Any]:
            async def notify(method: str, inner: dict[str, Any] | None) -> None:
                message = {"connectionId": connection_id, "method": method}
                await peer.notify(acp.MCP_MESSAGE, {**message, "params": inner})

            connection_id = await context.acp_connect(acp.obj(params).get("serverId"), notify)
            self._open.add(connection_id)
            return {"connectionId": connection_id}

        async def message(params: Any) -> Any:
            fields = acp.obj(params)
            return await context.acp_request(
                fields.get("connectionId"), _method(fields), fields.get("params")
            )

        def message_notification(params: Any) -> None:
            if not isinstance(params, dict) or not isinstance(params.get("method"), str):
                log.warning("mcp/message notification without a method ignored")
                return
            try:
                context.acp_notification(
                    params.get("connectionId"), params["method"], params.get("params")
                )
            except RpcError as exc:  # an unknown connection: there is nobody to answer
                log.warning("mcp/message notification ignored: %s", exc.message)

        async def disconnect(params: Any) -> dict[str, Any]:
            connection_id = acp.obj(params).get("connectionId")
            await context.acp_disconnect(connection_id)
            self._open.discard(str(connection_id))
            return {}

        peer.on_request(acp.MCP_CONNECT, connect)
        peer.on_request(acp.MCP_MESSAGE, message)
        peer.on_notification(acp.MCP_MESSAGE, message_notification)
        peer.on_request(acp.MCP_DISCONNECT, disconnect)

    async def close(self) -> None:
        """The agent is gone: so are its connections."""
        if self.context is None:
            return
        for connection_id in list(self._open):
            with contextlib.suppress(RpcError):  # closed already
                await self.context.acp_disconnect(connection_id)
        self._open.clear()


def _method(fields: dict[str, Any]) -> str:
    method = fields.get("method")
    if not isinstance(method, str) or not method:
        raise InvalidParams("mcp/message needs a method")
    return method
