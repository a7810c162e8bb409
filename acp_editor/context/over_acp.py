"""The editor-context MCP server over ACP itself (MCP-over-ACP, unstable in the spec): for agents
that advertise the ``acp`` MCP transport, the session's ``editor`` entry is ``{"type": "acp",
"name": "editor", "serverId": ...}`` and the agent reaches the tools with ``mcp/message`` on the
ACP connection it already has (``agent/serving/mcp_over_acp.py`` reads either shape of the wire). No
process, port or socket at all.

The server id is the session's token: only the agent it was given to can name it, and each tool
call answers for the session the token is bound to (a call before the session is set up is
refused). Each connection runs the SDK's MCP server on in-memory streams: one per ``mcp/connect``
in the old shape, one per server id in the request-scoped shape (there is no connection on that
wire, but the SDK's server still keeps an MCP session: the handshake, the negotiated version). A
request goes in as an MCP request and its outcome comes back as ``{"result": ...}`` or
``{"error": {...}}`` (ACP's ``MessageMcpResponse``); what the server sends on its own
(notifications) goes to ``notify``. A connection whose session is closed answers nothing more,
and is closed at the next ``connect``, or when the agent goes.

The handshake: an agent of the old shape sends ``initialize`` itself. In the request-scoped shape
an agent may, or may send its requests at once (the shape opens no connection, and MCP's
2026-07-28 revision has no handshake). So when the first request is neither ``initialize`` nor
one carrying the 2026 per-request envelope (which the SDK serves without a handshake), the
connection greets the server first, as an MCP client would; otherwise the SDK would refuse it as
sent before initialization.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

from acp_editor import __version__
from acp_editor.context.tools import Caller, ContextTools, ToolRefused
from acp_editor.errors import ConnectionClosed, RequestTimeout, RpcError
from acp_editor.log import get_logger

log = get_logger(__name__)

Notify = Callable[[str, dict[str, Any] | None], Awaitable[None]]
"""Sends the agent an MCP notification of this connection: its method and params."""
CallerOf = Callable[[Any], "Caller | None"]
ANSWER_TIMEOUT = 60.0
"""Seconds one MCP request may take (a diagnostics call waits up to 10 s for the editor)."""
GREETER = {"name": "acp-editor", "version": __version__}
"""``clientInfo`` of the handshake made for an agent that sent none."""


class AcpConnection:
    """One MCP-over-ACP connection: the SDK's server on memory streams."""

    def __init__(self, tools: ContextTools, caller_of: CallerOf, token: str, notify: Notify):
        self._tools, self._caller_of, self.token, self._notify = tools, caller_of, token, notify
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._to_server: Any = None
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        """What goes into the server, in arrival order."""
        self._greeted = False
        """Whether the server had its handshake (the agent's or ours), or needs none."""
        self._closed = False

    async def open(self) -> None:
        from mcp.shared._context_streams import create_context_streams
        from mcp.shared.message import SessionMessage

        from acp_editor.context.sdk import build

        async def call(tool: str, arguments: dict[str, Any], _ctx: Any) -> Any:
            caller = self._caller_of(self.token)
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

    @property
    def live(self) -> bool:
        """Open, and its session too."""
        return not self._closed and self._caller_of(self.token) is not None

    async def request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """The inner request's outcome, ``{"result": ...}`` or ``{"error": {...}}``. Raises only
        when there is no answer to give (the connection or its session closed, no answer in
        time): a failure of the binding, not of the MCP request."""
        from mcp.types import JSONRPCRequest

        if not self.live:
            raise ConnectionClosed("the editor's MCP server is closed (so is its session)")
        self._greet_unless(method, params)
        number, answer = self._expect()
        self._queue.put_nowait(
            JSONRPCRequest(jsonrpc="2.0", id=number, method=method, params=params)
        )
        try:
            return await asyncio.wait_for(answer, ANSWER_TIMEOUT)
        except TimeoutError:
            self._withdraw(number, "no answer in time")
            raise RequestTimeout(
                f"the editor's MCP server did not answer {method} in {ANSWER_TIMEOUT:.0f} s"
            ) from None
        except asyncio.CancelledError:  # the agent withdrew it: so does the server
            self._withdraw(number, "cancelled by the agent")
            raise
        finally:
            self._waiting.pop(number, None)

    def notification(self, method: str, params: dict[str, Any] | None) -> None:
        """Queued at once, in arrival order (``notifications/initialized`` must reach the server
        before the requests the agent sends after it)."""
        from mcp.types import JSONRPCNotification

        if self._closed:
            return
        if method == "notifications/initialized":
            self._greeted = True  # the SDK takes it alone as the end of a handshake
        self._queue.put_nowait(JSONRPCNotification(jsonrpc="2.0", method=method, params=params))

    def _expect(self) -> tuple[int, asyncio.Future[dict[str, Any]]]:
        number = next(self._ids)
        answer = self._waiting[number] = asyncio.get_running_loop().create_future()
        return number, answer

    def _greet_unless(self, method: str, params: dict[str, Any] | None) -> None:
        """Before the first request: the handshake, unless the request is one or needs none.
        Queued, not awaited: the SDK handles ``initialize`` before it reads what follows, and
        nothing can come between (no await here), whatever else the agent sends meanwhile."""
        from mcp.types import JSONRPCNotification, JSONRPCRequest
        from mcp_types.version import LATEST_HANDSHAKE_VERSION

        if self._greeted:
            return
        self._greeted = True
        if method == "initialize" or _enveloped(params):
            return
        number, answer = self._expect()
        answer.add_done_callback(self._greeting_answered)
        hello = {
            "protocolVersion": LATEST_HANDSHAKE_VERSION,
            "capabilities": {},
            "clientInfo": GREETER,
        }
        self._queue.put_nowait(
            JSONRPCRequest(jsonrpc="2.0", id=number, method="initialize", params=hello)
        )
        self._queue.put_nowait(
            JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
        )

    def _greeting_answered(self, answer: asyncio.Future[dict[str, Any]]) -> None:
        if answer.cancelled():
            return
        failed = answer.exception()
        outcome = None if failed is not None else answer.result()
        if outcome is not None and "error" in outcome:  # the agent's request will say why
            log.warning("MCP-over-ACP: the server refused our handshake: %s", outcome["error"])

    def _withdraw(self, number: int, reason: str) -> None:
        """The server stops working on a request nobody waits for any more."""
        from mcp.types import JSONRPCNotification

        if not self._closed:
            params = {"requestId": number, "reason": reason}
            self._queue.put_nowait(
                JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params=params)
            )

    async def _feed(self) -> None:
        from mcp.shared.message import SessionMessage

        while True:
            await self._to_server.send(SessionMessage(await self._queue.get()))

    async def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._to_server is not None:
            await self._to_server.aclose()
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(ConnectionClosed("the MCP connection was closed"))

    async def _pump(self, from_server: Any) -> None:
        from mcp.types import JSONRPCError, JSONRPCNotification, JSONRPCResponse

        async for item in from_server:
            message = item.message
            if isinstance(message, JSONRPCResponse | JSONRPCError):
                answer = self._waiting.get(message.id) if isinstance(message.id, int) else None
                if answer is None or answer.done():
                    continue
                if isinstance(message, JSONRPCResponse):
                    answer.set_result({"result": message.result})
                else:
                    answer.set_result({"error": _mcp_error(message.error)})
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
        await self.prune()
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

    async def prune(self) -> None:
        """Close the connections of sessions that are gone (their tokens open nothing any more);
        an agent that leaves them open need not tell us."""
        for connection_id, connection in list(self._connections.items()):
            if not connection.live:
                self._connections.pop(connection_id, None)
                await connection.close()

    async def close(self) -> None:
        for connection in list(self._connections.values()):
            await connection.close()
        self._connections.clear()


def _enveloped(params: dict[str, Any] | None) -> bool:
    """Whether a request carries MCP's 2026 per-request envelope (its protocol version in
    ``_meta``): the SDK serves such requests without a handshake, and refuses them after one."""
    from mcp.types import PROTOCOL_VERSION_META_KEY

    meta = params.get("_meta") if params is not None else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta


def _mcp_error(error: Any) -> dict[str, Any]:
    """The SDK's ``ErrorData`` as ACP's ``McpError``."""
    out: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.data is not None:
        out["data"] = error.data
    return out
