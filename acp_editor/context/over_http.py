"""The editor-context MCP server over streamable HTTP, for agents that cannot start a stdio
server (an ACP v2 agent advertising ``session.mcp.http`` but not ``stdio``): served by the
sidecar itself on 127.0.0.1, each session's token as a bearer token (valid from the moment it
is minted, before the agent answered ``session/new``).

A loopback port, unlike the Unix socket of the stdio bridge, can be reached by any user of the
machine: the token is what keeps them out. Every request without a token this sidecar minted gets
401 before the MCP server sees it, and each tool call answers for the session its token was
minted for, inside that session's folders.

The MCP SDK and uvicorn are imported here, as soon as ``initialize`` shows an agent that needs
this (``ContextServer.prepare``), in a thread, so the editor's requests are not held up.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterator
from typing import Any

from acp_editor.context.tools import Caller, ContextTools, ToolRefused
from acp_editor.log import get_logger

log = get_logger(__name__)

CallerOf = Callable[[Any], "Caller | None"]
PATH = "/mcp"


class HttpEndpoint:
    def __init__(self, tools: ContextTools, caller_of: CallerOf) -> None:
        self.tools = tools
        self.caller_of = caller_of
        self._server: Any = None
        self._task: asyncio.Task[None] | None = None
        self.url: str | None = None
        self._starting = asyncio.Lock()

    async def start(self) -> str:
        """The endpoint's URL, serving from now on (callers meanwhile wait for the same start)."""
        async with self._starting:
            if self.url is None:
                await self._start()
            assert self.url is not None
            return self.url

    async def _start(self) -> None:
        app = await asyncio.to_thread(self._app)
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)  # connections wait here until uvicorn accepts them: no start-up race
        config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
        self._server = _uvicorn_server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}{PATH}"

    async def close(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5)
        self._server = self._task = self.url = None

    def _app(self) -> Any:
        from acp_editor.context.sdk import build

        async def call(tool: str, arguments: dict[str, Any], ctx: Any) -> Any:
            request = ctx.request_context.request
            caller = self.caller_of(_bearer(request.headers) if request is not None else None)
            if caller is None:  # the middleware let it through: its token was forgotten since
                raise ToolRefused("this session is closed")
            return await self.tools.call(caller, tool, arguments)

        server = build(call, refusals=(ToolRefused,))
        mcp_app = server.streamable_http_app(
            streamable_http_path=PATH, stateless_http=True, json_response=True
        )
        return _Guarded(mcp_app, self.caller_of)


class _Guarded:
    """ASGI: only requests that carry a token this sidecar minted reach the MCP server."""

    def __init__(self, app: Any, caller_of: CallerOf) -> None:
        self.app, self.caller_of = app, caller_of

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            if self.caller_of(_bearer(headers)) is None:
                log.warning("editor-context: an HTTP request with an unknown token was refused")
                await _unauthorized(send)
                return
        await self.app(scope, receive, send)


def _bearer(headers: Any) -> str | None:
    value = headers.get("authorization") if headers is not None else None
    if not isinstance(value, str) or not value.lower().startswith("bearer "):
        return None
    return value[len("bearer ") :].strip()


async def _unauthorized(send: Any) -> None:
    body = b'{"error": "unknown token"}'
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _uvicorn_server(config: Any) -> Any:
    """uvicorn's server without its signal handlers: SIGINT and SIGTERM stay the sidecar's."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    return Server(config)
