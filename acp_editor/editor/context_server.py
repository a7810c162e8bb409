"""The sidecar's end of the editor-context MCP server: a token per session, and the way in for
each transport. This module serves the stdio one; ``context_acp.py`` (MCP-over-ACP) and
``context_http.py`` (HTTP on 127.0.0.1) are started from here when an agent needs them.

Every session the agent opens gets an ``editor`` entry in its ``mcpServers``. For stdio it is a
command (``acp-editor mcp --connect SOCKET``, ``acp_editor/mcp_bridge.py``) that the agent starts
and that speaks MCP to it, with the session's token in its environment. The bridge forwards each
tool call here, over a Unix socket only this user can open, as one line of JSON; the answer is one
line back. A token opens nothing once its session is closed.

Who may connect: the socket lives in a directory of mode 0700 (``mkdtemp``) and is itself 0600,
the connecting process must run as this user (``SO_PEERCRED``), and its first line must carry a
token this sidecar minted (compared in constant time). A token is bound to its session once the
agent named the session; what a tool may see is limited to that session's roots.

The wire, line by line: ``{"token": T}`` -> ``{"ok": true}`` (or an error and the end); then
``{"id": n, "tool": name, "arguments": {...}}`` -> ``{"id": n, "result": ...}`` or
``{"id": n, "error": message}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import struct
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.editor.context_tools import Caller, ToolRefused
from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.editor_context import SERVER_NAME, TOKEN_ENV

if TYPE_CHECKING:
    from acp_editor.editor.context_acp import AcpConnection, AcpTransport, Notify
    from acp_editor.editor.context_http import HttpEndpoint
    from acp_editor.editor.context_tools import ContextTools

log = get_logger("editor.context")

LINE_LIMIT = 1 << 20


class ContextServer:
    def __init__(self, tools: ContextTools) -> None:
        self.tools = tools
        self._dir: str | None = None
        self._server: asyncio.AbstractServer | None = None
        self._unbound: set[str] = set()
        self._bound: dict[str, Caller] = {}
        self._http: HttpEndpoint | None = None
        self._warming: asyncio.Future[str] | None = None
        self._acp: AcpTransport | None = None

    @property
    def socket_path(self) -> str | None:
        return os.path.join(self._dir, "ctx.sock") if self._dir else None

    async def start(self) -> None:
        if self._server is not None:
            return
        self._dir = tempfile.mkdtemp(prefix="acp-editor-", dir=_runtime_dir())
        path = self.socket_path
        assert path is not None
        self._server = await asyncio.start_unix_server(self._serve, path, limit=LINE_LIMIT)
        os.chmod(path, 0o600)  # the 0700 directory already keeps others out; twice is cheap

    async def close(self) -> None:
        if self._acp is not None:
            await self._acp.close()
            self._acp = None
        if self._warming is not None:
            with contextlib.suppress(BaseException):
                await self._warming  # a start half done is finished, then closed below
            self._warming = None
        if self._http is not None:
            await self._http.close()
            self._http = None
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    # -- tokens -------------------------------------------------------------------------------

    async def entry(self, transport: str = "stdio") -> tuple[dict[str, Any], str]:
        """A session's ``mcpServers`` entry for ``transport`` (``acp``: the token as server id;
        ``stdio``: the bridge command; ``http``: the sidecar's own endpoint) and its token, bound
        with ``bind`` once the session has an id."""
        import secrets  # here, not at the top: nothing of this is needed before a session

        token = secrets.token_urlsafe(32)
        if transport == "acp":  # the id the agent names in mcp/connect is the token itself
            self._unbound.add(token)
            return {"type": "acp", "name": SERVER_NAME, "serverId": token}, token
        if transport == "http":
            url = await self._http_endpoint().start()
            self._unbound.add(token)
            auth = {"name": "Authorization", "value": f"Bearer {token}"}
            return {"type": "http", "name": SERVER_NAME, "url": url, "headers": [auth]}, token
        await self.start()
        self._unbound.add(token)
        command = [sys.executable, "-m", "acp_editor", "mcp", "--connect", str(self.socket_path)]
        entry = {
            "name": SERVER_NAME,
            "command": command[0],
            "args": command[1:],
            "env": [{"name": TOKEN_ENV, "value": token}],
        }
        return entry, token

    # -- MCP-over-ACP (context_acp.py) ---------------------------------------------------------

    async def acp_connect(self, server_id: Any, notify: Notify) -> str:
        if self._acp is None:
            from acp_editor.editor.context_acp import AcpTransport

            self._acp = AcpTransport(self.tools, self._caller, self._known)
        return await self._acp.connect(server_id, notify)

    async def acp_request(self, connection_id: Any, method: str, params: Any) -> Any:
        return await self._acp_connection(connection_id).request(method, _params(params))

    def acp_notification(self, connection_id: Any, method: str, params: Any) -> None:
        self._acp_connection(connection_id).notification(method, _params(params))

    async def acp_disconnect(self, connection_id: Any) -> None:
        if self._acp is None:
            raise RpcError(f"no MCP connection {connection_id!r}", code=-32602)
        await self._acp.disconnect(connection_id)

    def _acp_connection(self, connection_id: Any) -> AcpConnection:
        if self._acp is None:
            raise RpcError(f"no MCP connection {connection_id!r}", code=-32602)
        return self._acp.connection(connection_id)

    def prepare(self, transport: str) -> None:
        """Start serving ``transport`` now, in the background (``entry`` waits for the rest)."""
        if transport == "http" and self._http is None:
            endpoint = self._http_endpoint()
            self._warming = asyncio.ensure_future(endpoint.start())
            self._warming.add_done_callback(_log_failure)

    def _http_endpoint(self) -> HttpEndpoint:
        if self._http is None:
            from acp_editor.editor.context_http import HttpEndpoint

            self._http = HttpEndpoint(self.tools, self._caller)
        return self._http

    def bind(self, token: str, session_id: str, roots: list[str]) -> None:
        self._unbound.discard(token)
        self._bound[token] = Caller(session_id, tuple(Path(r).resolve() for r in roots))

    def roots_changed(self, session_id: str, roots: list[str]) -> None:
        """The session's folders changed (workspace folders): its tokens see the new ones."""
        resolved = tuple(Path(r).resolve() for r in roots)
        for token, caller in list(self._bound.items()):
            if caller.session_id == session_id:
                self._bound[token] = Caller(session_id, resolved)

    def forget(self, token: str) -> None:
        self._unbound.discard(token)
        self._bound.pop(token, None)

    def session_closed(self, session_id: str) -> None:
        """The session is gone: every token bound to it opens nothing any more."""
        for token, caller in list(self._bound.items()):
            if caller.session_id == session_id:
                del self._bound[token]

    def _known(self, token: str) -> bool:
        """Minted here and not forgotten (bound to a session or about to be)."""
        return token in self._unbound or self._caller(token) is not None

    def _caller(self, token: Any) -> Caller | None:
        import hmac

        if not isinstance(token, str):
            return None
        found = None
        for known, caller in self._bound.items():  # every one compared: no early exit to time
            if hmac.compare_digest(known.encode(), token.encode()):
                found = caller
        return found

    # -- connections ----------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            caller = await self._hello(reader, writer)
            while caller is not None and (line := await reader.readline()):
                await self._answer(caller, line, writer)
        except (ConnectionError, asyncio.IncompleteReadError, ValueError) as exc:
            log.info("editor-context connection ended: %s", exc)
        finally:
            writer.close()

    async def _hello(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> Caller | None:
        if not _same_user(writer):
            log.warning("editor-context: a process of another user was turned away")
            return None
        try:
            hello = json.loads(await reader.readline())
        except ValueError:
            hello = None
        caller = self._caller(hello.get("token")) if isinstance(hello, dict) else None
        _send(writer, {"ok": True} if caller else {"error": "unknown token"})
        await writer.drain()
        return caller

    async def _answer(self, caller: Caller, line: bytes, writer: asyncio.StreamWriter) -> None:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("a request must be a JSON object")
        arguments = request.get("arguments")
        reply: dict[str, Any] = {"id": request.get("id")}
        try:
            reply["result"] = await self.tools.call(
                caller, str(request.get("tool")), arguments if isinstance(arguments, dict) else {}
            )
        except ToolRefused as exc:
            reply["error"] = str(exc)
        except Exception as exc:  # a tool's bug must not end the connection or the sidecar
            log.exception("editor-context tool %s failed", request.get("tool"))
            reply["error"] = f"the editor could not answer: {exc}"
        _send(writer, reply)
        await writer.drain()


def _params(params: Any) -> dict[str, Any] | None:
    return params if isinstance(params, dict) else None


def _log_failure(started: asyncio.Future[str]) -> None:
    if not started.cancelled() and started.exception() is not None:
        log.error("the editor-context HTTP endpoint did not start: %s", started.exception())


def _runtime_dir() -> str | None:
    """$XDG_RUNTIME_DIR (private to the user, cleared at logout) when there is one; else the
    temporary directory (``mkdtemp`` makes the directory 0700 either way)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    return base if base and os.path.isdir(base) else None


def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")


def _same_user(writer: asyncio.StreamWriter) -> bool:
    """Whether the peer of a Unix socket runs as this user (Linux's ``SO_PEERCRED``)."""
    sock = writer.get_extra_info("socket")
    peercred = getattr(socket, "SO_PEERCRED", None)
    if sock is None or peercred is None:
        return True  # no such check on this system: the directory's mode still keeps others out
    creds = sock.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return bool(uid == os.getuid())
