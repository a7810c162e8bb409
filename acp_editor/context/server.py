"""The sidecar's end of the editor-context MCP server: a token per session, and the way in for
each transport. This module serves the stdio one; ``context/over_acp.py`` (MCP-over-ACP) and
``context/over_http.py`` (HTTP on 127.0.0.1) are started from here when an agent needs them.

Every session the agent opens gets an ``editor`` entry in its ``mcpServers``. For stdio it is a
command (``acp-editor mcp --connect SOCKET``, ``context/bridge.py``) that the agent starts and
that speaks MCP to it, with the session's token in its environment. The bridge forwards each
tool call here, over a Unix socket only this user can open, as one line of JSON; the answer is one
line back. A token opens nothing once its session is closed.

Who may connect: the socket lives in a directory of mode 0700 (``mkdtemp``) and is itself 0600,
the connecting process must run as this user (``SO_PEERCRED``), and its first line must carry a
token this sidecar minted (compared in constant time). A token opens the session's roots from the
moment it is minted: many agents start their MCP servers while they answer ``session/new``,
before the session has an id. The id is added once the agent named it; what a tool may see is
limited to the session's roots either way.

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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.context.tools import Caller, ToolRefused
from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.editor_context import SERVER_NAME, TOKEN_ENV

if TYPE_CHECKING:
    from acp_editor.context.over_acp import AcpConnection, AcpTransport, Notify
    from acp_editor.context.over_http import HttpEndpoint
    from acp_editor.context.tools import ContextTools
    from acp_editor.services.path_map import PathMap

log = get_logger(__name__)

LINE_LIMIT = 1 << 20


@dataclass
class Grant:
    """What a token opens: the roots of the call it was minted for, and the session's id once
    the agent named it (None while ``session/new`` is still being answered)."""

    roots: tuple[Path, ...]
    session_id: str | None = None
    paths: PathMap | None = None
    """Where the agent sees the roots, when elsewhere (``services.path_map``)."""


class ContextServer:
    def __init__(self, tools: ContextTools) -> None:
        self.tools = tools
        self._dir: str | None = None
        self._server: asyncio.AbstractServer | None = None
        self._grants: dict[str, Grant] = {}
        self._bridges: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        """The bridges connected now: hung up on at close, their handlers awaited (a handler
        still running when the loop ends is reported as an error by Python 3.11)."""
        self._http: HttpEndpoint | None = None
        self._warming: asyncio.Future[str] | None = None
        self._acp: AcpTransport | None = None

    @property
    def socket_path(self) -> str | None:
        return os.path.join(self._dir, "ctx.sock") if self._dir else None

    async def start(self) -> None:
        if self._server is not None:
            return
        import tempfile  # at the first session: not before the editor's initialize answer

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
            for writer in self._bridges.values():
                writer.close()  # its handler reads the end and returns
            if self._bridges:
                await asyncio.wait(list(self._bridges), timeout=5)
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    # -- tokens -------------------------------------------------------------------------------

    async def entry(
        self, roots: Sequence[str], transport: str = "stdio", paths: PathMap | None = None
    ) -> tuple[dict[str, Any], str]:
        """A session's ``mcpServers`` entry for ``transport`` (``acp``: the token as server id;
        ``stdio``: the bridge command; ``http``: the sidecar's own endpoint) and its token. The
        token opens ``roots`` at once; ``bind`` adds the session's id once it is known.
        ``paths``: where the agent sees the roots, when elsewhere (its answers use its paths)."""
        import secrets  # here, not at the top: nothing of this is needed before a session

        token = secrets.token_urlsafe(32)
        if transport == "acp":  # the id the agent names in mcp/connect is the token itself
            entry: dict[str, Any] = {"type": "acp", "name": SERVER_NAME, "serverId": token}
        elif transport == "http":
            url = await self._http_endpoint().start()
            auth = {"name": "Authorization", "value": f"Bearer {token}"}
            entry = {"type": "http", "name": SERVER_NAME, "url": url, "headers": [auth]}
        else:
            await self.start()
            command = [
                sys.executable,
                "-m",
                "acp_editor",
                "mcp",
                "--connect",
                str(self.socket_path),
            ]
            entry = {
                "name": SERVER_NAME,
                "command": command[0],
                "args": command[1:],
                "env": [{"name": TOKEN_ENV, "value": token}],
            }
        self._grants[token] = Grant(_resolved(roots), paths=paths)
        return entry, token

    # -- MCP-over-ACP (over_acp.py) ---------------------------------------------------------

    async def acp_connect(self, server_id: Any, notify: Notify) -> str:
        if self._acp is None:
            from acp_editor.context.over_acp import AcpTransport

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
            from acp_editor.context.over_http import HttpEndpoint

            self._http = HttpEndpoint(self.tools, self._caller)
        return self._http

    def bind(self, token: str, session_id: str, roots: Sequence[str]) -> None:
        """The agent named the session ``token`` was minted for."""
        old = self._grants.get(token)
        self._grants[token] = Grant(_resolved(roots), session_id, old.paths if old else None)

    def roots_changed(self, session_id: str, roots: Sequence[str]) -> None:
        """The session's folders changed (workspace folders): its tokens see the new ones."""
        for grant in self._grants.values():
            if grant.session_id == session_id:
                grant.roots = _resolved(roots)

    def forget(self, token: str) -> None:
        self._grants.pop(token, None)

    def session_closed(self, session_id: str) -> None:
        """The session is gone: every token of it opens nothing any more."""
        for token, grant in list(self._grants.items()):
            if grant.session_id == session_id:
                del self._grants[token]

    def _known(self, token: str) -> bool:
        """Minted here and not forgotten."""
        return self._caller(token) is not None

    def _caller(self, token: Any) -> Caller | None:
        """Who calls with ``token``, as the grant stands now (it gains the session's id when
        the agent names it)."""
        import hmac

        if not isinstance(token, str):
            return None
        found = None
        for known, grant in self._grants.items():  # every one compared: no early exit to time
            if hmac.compare_digest(known.encode(), token.encode()):
                found = grant
        if found is None:
            return None
        return Caller(found.session_id, found.roots, found.paths)

    # -- connections ----------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._bridges[task] = writer
        try:
            token = await self._hello(reader, writer)
            while token is not None and (line := await reader.readline()):
                await self._answer(token, line, writer)
        except (ConnectionError, asyncio.IncompleteReadError, ValueError) as exc:
            log.info("editor-context connection ended: %s", exc)
        finally:
            writer.close()
            if task is not None:
                self._bridges.pop(task, None)

    async def _hello(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> str | None:
        """The bridge's token, once it is known here (else an error line and None)."""
        if not _same_user(writer):
            log.warning("editor-context: a process of another user was turned away")
            return None
        try:
            hello = json.loads(await reader.readline())
        except ValueError:
            hello = None
        token = hello.get("token") if isinstance(hello, dict) else None
        known = isinstance(token, str) and self._known(token)
        if not known:  # the bridge exits saying so to the agent; say it here too
            log.warning("editor-context: a bridge with an unknown token was turned away")
        _send(writer, {"ok": True} if known else {"error": "unknown token"})
        await writer.drain()
        return token if known else None

    async def _answer(self, token: str, line: bytes, writer: asyncio.StreamWriter) -> None:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("a request must be a JSON object")
        arguments = request.get("arguments")
        reply: dict[str, Any] = {"id": request.get("id")}
        caller = self._caller(token)  # as it stands now: bound since the hello, or closed
        try:
            if caller is None:
                raise ToolRefused("this session is closed")
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


def _resolved(roots: Sequence[str]) -> tuple[Path, ...]:
    return tuple(Path(r).resolve() for r in roots)


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
