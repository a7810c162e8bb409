"""The editor-context MCP server over ACP itself (MCP-over-ACP, unstable in the spec): for agents
that advertise the ``acp`` MCP transport, the session's ``editor`` entry is ``{"type": "acp",
"serverId": ...}`` and the agent reaches the tools with ``mcp/connect``, ``mcp/message`` and
``mcp/disconnect`` on the ACP connection it already has. No process, port or socket at all.

The server id is the session's token: only the agent it was given to can name it, and each tool
call answers for the session the token is bound to (a call before the session is set up is
refused). Each connection runs the SDK's MCP server on in-memory streams: an ``mcp/message``
request goes in as an MCP request and its MCP response comes back as the answer; what the server
sends on its own (notifications) goes to the agent as ``mcp/message`` notifications.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

from acp_editor.context.tools import Caller, ContextTools, ToolRefused
from acp_editor.errors import RpcError
from acp_editor.log import get_logger

log = get_logger("editor.context.acp")

Notify = Callable[[str, dict[str, Any] | None], Awaitable[None]]
"""Sends the agent an MCP notification of this connection: its method and params."""
CallerOf = Callable[[Any], "Caller | None"]
ANSWER_TIMEOUT = 60.0
"""Seconds one MCP request may take (a diagnostics call waits up to 10 s for the editor)."""


class AcpConnection:
    """One MCP-over-ACP connection: the SDK's server on memory streams."""

    def __init__(self, tools: ContextTools, caller_of: CallerOf, token: str, notify: Notify):
        self._tools, self._caller_of, self._token, self._notify = tools, caller_of, token, notify
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._to_server: Any = None
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        """What the agent sent, in arrival order, on its way into the server."""

    async def open(self) -> None:
        from mcp.shared._context_streams import create_context_streams
        from mcp.shared.message import SessionMessage

        from acp_editor.context.sdk import build

        async def call(tool: str, arguments: dict[str, Any], _ctx: Any) -> Any:
            caller = self._caller_of(self._token)
            if caller is None:
                raise ToolRefused("this session is closed")
            return await self._tools.call(caller, tool, arguments)

        server = await asyncio.to_thread(build, call, (ToolRefused,))
        low = server._lowlevel_server  # the SDK runs a server on any pair of streams this way
        self._to_server, server_in = create_context_streams[SessionMessage | Exception](16)
        server_out, from_server = create_context_streams[SessionMessage](16)
        options = low.create_initialization_options()
        self._tasks = [
            asyncio.create_task(low.run(server_in, server_out, options)),
            asyncio.create_task(self._pump(from_server)),
            asyncio.create_task(self._feed()),
        ]

    async def request(self, method: str, params: dict[str, Any] | None) -> Any:
        from mcp.types import JSONRPCRequest

        number = next(self._ids)
        answer = self._waiting[number] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(
            JSONRPCRequest(jsonrpc="2.0", id=number, method=method, params=params)
        )
        try:
            return await asyncio.wait_for(answer, ANSWER_TIMEOUT)
        finally:
            self._waiting.pop(number, None)

    def notification(self, method: str, params: dict[str, Any] | None) -> None:
        """Queued at once, in arrival order (``notifications/initialized`` must reach the server
        before the requests the agent sends after it)."""
        from mcp.types import JSONRPCNotification

        self._queue.put_nowait(JSONRPCNotification(jsonrpc="2.0", method=method, params=params))

    async def _feed(self) -> None:
        from mcp.shared.message import SessionMessage

        while True:
            await self._to_server.send(SessionMessage(await self._queue.get()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._to_server is not None:
            await self._to_server.aclose()
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(RpcError("the MCP connection was closed"))

    async def _pump(self, from_server: Any) -> None:
        from mcp.types import JSONRPCError, JSONRPCNotification, JSONRPCResponse

        async for item in from_server:
            message = item.message
            if isinstance(message, JSONRPCResponse | JSONRPCError):
                answer = self._waiting.get(message.id) if isinstance(message.id, int) else None
                if answer is None or answer.done():
                    continue
                if isinstance(message, JSONRPCResponse):
                    answer.set_result(message.result)
                else:
                    error = message.error
                    answer.set_exception(RpcError(error.message, error.data, code=error.code))
            elif isinstance(message, JSONRPCNotification):
                with contextlib.suppress(Exception):  # the agent may be gone already
                    await self._notify(message.method, message.params)
            else:  # our tools never ask the agent anything: nothing should come here
                log.warning("MCP-over-ACP: the server's request %s dropped", message.method)


class AcpTransport:
    """Every MCP-over-ACP connection of this sidecar, by connection id."""

    def __init__(self, tools: ContextTools, caller_of: CallerOf, known: Callable[[str], bool]):
        self._tools, self._caller_of, self._known = tools, caller_of, known
        self._connections: dict[str, AcpConnection] = {}
        self._ids = itertools.count(1)

    async def connect(self, server_id: Any, notify: Notify) -> str:
        if not isinstance(server_id, str) or not self._known(server_id):
            raise RpcError(f"no MCP server {server_id!r} here", code=-32602)
        connection = AcpConnection(self._tools, self._caller_of, server_id, notify)
        await connection.open()
        connection_id = f"editor-{next(self._ids)}"
        self._connections[connection_id] = connection
        return connection_id

    def connection(self, connection_id: Any) -> AcpConnection:
        found = self._connections.get(connection_id) if isinstance(connection_id, str) else None
        if found is None:
            raise RpcError(f"no MCP connection {connection_id!r}", code=-32602)
        return found

    async def disconnect(self, connection_id: Any) -> None:
        await self.connection(connection_id).close()
        self._connections.pop(connection_id, None)

    async def close(self) -> None:
        for connection in list(self._connections.values()):
            await connection.close()
        self._connections.clear()
