"""MCP-over-ACP (unstable in the spec), the client's end of the wire: the agent reaches the
editor-context server, declared in the session's ``mcpServers`` as ``{"type": "acp", "name",
"serverId"}``, with ``mcp/message`` on the ACP connection, in either of two shapes.

* Request-scoped (ACP schema 1.24 and later): each ``mcp/message`` request carries one inner MCP
  request, ``{serverId, requestId, method, params}``, and is answered ``{"result": ...}`` or
  ``{"error": McpError}``, whatever the inner outcome. An outer ACP error means the message could
  not be bound: an unknown server, a ``requestId`` already active on it, a closed session, no
  answer in time. What the server sends about an active request (progress, which names the
  request's progress token) goes back as an ``mcp/message`` notification naming its ``serverId``
  and ``requestId``. The server behind a ``serverId`` (the SDK's, with its MCP session:
  ``context/over_acp.py``) is opened at its first message and kept for the next.
* The old shape (schema 1.23 and before), while agents still send it: ``mcp/connect
  {serverId}`` -> ``{connectionId}``, ``mcp/message {connectionId, method, params}`` answered with
  the inner result itself (an inner error is the outer error), notifications both ways,
  ``mcp/disconnect``. A message naming a ``connectionId`` is of this shape.

The new shape has the agent send no notifications; one that does (``serverId``, no
``connectionId``) is taken as meant: ``notifications/cancelled`` withdraws the active request it
names (answered with the inner error -32800), any other goes to the server
(``notifications/initialized``). ``$/cancel_request`` for the outer request withdraws the inner
one too. Everything still open when the agent goes is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.errors import ConnectionClosed, InvalidParams, RequestCancelled, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.config import EditorContext
    from acp_editor.agent.link.rpc import JsonRpcPeer


log = get_logger(__name__)

GONE = (ConnectionClosed.CODE, InvalidParams.CODE)
"""The codes of a connection that is no more (closed with its session; unknown to the server)."""


@dataclass
class _Active:
    """One inner request being answered."""

    progress: Any
    """Its progress token (``_meta.progressToken``): the server's progress names it."""
    task: asyncio.Task[Any] | None = None
    withdrawn: bool = False
    """The agent cancelled it with an inner ``notifications/cancelled``."""


@dataclass
class _Binding:
    """One ``serverId`` of the request-scoped shape: its connection to the server, and the
    inner requests active on it by ``requestId``."""

    server_id: str
    connection_id: str = ""
    active: dict[str, _Active] = field(default_factory=dict)


class McpOverAcp:
    def __init__(self, context: EditorContext | None) -> None:
        self.context = context
        self._open: set[str] = set()
        """Every connection open, of either shape."""
        self._bindings: dict[str, _Binding] = {}
        self._binding = asyncio.Lock()
        """Held while a ``serverId`` is bound: two first messages open one connection."""

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
            if "connectionId" not in fields:
                return await self._scoped(peer, fields)
            outcome = await context.acp_request(
                fields["connectionId"], _method(fields), fields.get("params")
            )
            if "error" in outcome:  # the old shape's inner error is the outer one
                raise RpcError.from_json(outcome["error"])
            return outcome["result"]

        def message_notification(params: Any) -> None:
            if not isinstance(params, dict) or not isinstance(params.get("method"), str):
                log.warning("mcp/message notification without a method ignored")
                return
            try:
                if "connectionId" not in params:
                    self._scoped_notification(params)
                    return
                context.acp_notification(
                    params["connectionId"], params["method"], params.get("params")
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

    # -- the request-scoped shape ---------------------------------------------------------------

    async def _scoped(self, peer: JsonRpcPeer, fields: dict[str, Any]) -> dict[str, Any]:
        """One inner request: its outcome as ``MessageMcpResponse``."""
        assert self.context is not None
        server_id, request_id = _text(fields, "serverId"), _text(fields, "requestId")
        method, inner = _method(fields), _inner(fields)
        binding = await self._bind(peer, server_id)
        if request_id in binding.active:
            raise InvalidParams(f"mcp/message: request {request_id!r} is already active")
        active = binding.active[request_id] = _Active(_progress_token(inner))
        active.task = asyncio.ensure_future(
            self.context.acp_request(binding.connection_id, method, inner)
        )
        try:
            outcome: dict[str, Any] = await active.task
        except asyncio.CancelledError:
            us = asyncio.current_task()
            if active.withdrawn and (us is None or not us.cancelling()):  # not $/cancel_request
                code, message = RequestCancelled.CODE, f"{method} was cancelled by the agent"
                return {"error": {"code": code, "message": message}}
            raise
        except RpcError as exc:
            if exc.code in GONE:  # the next message binds again, or hears the server is gone
                await self._unbind(binding)
            raise
        finally:
            binding.active.pop(request_id, None)
        return outcome

    async def _bind(self, peer: JsonRpcPeer, server_id: str) -> _Binding:
        """The connection to ``server_id``, opened at its first message."""
        assert self.context is not None
        async with self._binding:
            found = self._bindings.get(server_id)
            if found is not None:
                return found
            binding = _Binding(server_id)

            async def notify(method: str, inner: dict[str, Any] | None) -> None:
                await self._scoped_notify(peer, binding, method, inner)

            binding.connection_id = await self.context.acp_connect(server_id, notify)
            self._open.add(binding.connection_id)
            self._bindings[server_id] = binding
            return binding

    async def _unbind(self, binding: _Binding) -> None:
        assert self.context is not None
        if self._bindings.get(binding.server_id) is binding:
            del self._bindings[binding.server_id]
        self._open.discard(binding.connection_id)
        with contextlib.suppress(RpcError):  # closed already
            await self.context.acp_disconnect(binding.connection_id)

    @staticmethod
    async def _scoped_notify(
        peer: JsonRpcPeer, binding: _Binding, method: str, inner: dict[str, Any] | None
    ) -> None:
        """A notification from the server, sent on for the active request it is about. Only
        progress says which (its token); the shape has no place for the rest."""
        token = inner.get("progressToken") if inner is not None else None
        about = [r for r, a in binding.active.items() if token is not None and a.progress == token]
        if not about:
            log.debug("MCP-over-ACP: %s names no active request: not sent", method)
            return
        message: dict[str, Any] = {
            "serverId": binding.server_id,
            "requestId": about[0],
            "method": method,
        }
        if inner is not None:
            message["params"] = inner
        await peer.notify(acp.MCP_MESSAGE, message)

    def _scoped_notification(self, params: dict[str, Any]) -> None:
        assert self.context is not None
        server_id = params.get("serverId")
        binding = self._bindings.get(server_id) if isinstance(server_id, str) else None
        if binding is None:  # not bound yet: nothing runs that it could be about
            log.info("mcp/message notification for server %r ignored", server_id)
            return
        method, inner = params["method"], _inner(params)
        if method == "notifications/cancelled":  # named inside, or as MessageMcpNotification does
            named = (
                inner.get("requestId")
                if inner and "requestId" in inner
                else params.get("requestId")
            )
            active = binding.active.get(named) if isinstance(named, str) else None
            if active is not None and active.task is not None:
                active.withdrawn = True  # the server hears it by its own id (context/over_acp.py)
                active.task.cancel()
            return
        self.context.acp_notification(binding.connection_id, method, inner)

    async def close(self) -> None:
        """The agent is gone: so are its connections."""
        if self.context is None:
            return
        for connection_id in list(self._open):
            with contextlib.suppress(RpcError):  # closed already
                await self.context.acp_disconnect(connection_id)
        self._open.clear()
        self._bindings.clear()


def _method(fields: dict[str, Any]) -> str:
    method = fields.get("method")
    if not isinstance(method, str) or not method:
        raise InvalidParams("mcp/message needs a method")
    return method


def _text(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidParams(f"mcp/message needs a {name} (a string), or a connectionId")
    return value


def _inner(fields: dict[str, Any]) -> dict[str, Any] | None:
    params = fields.get("params")
    if params is not None and not isinstance(params, dict):
        raise InvalidParams("mcp/message: params must be an object or null")
    return params


def _progress_token(inner: dict[str, Any] | None) -> Any:
    meta = inner.get("_meta") if inner is not None else None
    return meta.get("progressToken") if isinstance(meta, dict) else None
