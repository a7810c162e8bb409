"""``acp-editor mcp --connect SOCKET``: the editor-context MCP server (``editor``) as the agent
starts it, on the official MCP Python SDK over stdio.

The agent runs this command from the ``mcpServers`` entry acp-editor put in its session; the
session's token comes in ``ACP_EDITOR_MCP_TOKEN``. Each tool call is forwarded to the running
sidecar over its Unix socket (``editor/context_server.py``), which answers from the editor's
buffers and review. The MCP SDK is imported here only, never by the sidecar, whose start and
session set-up stay fast.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from typing import Any

from acp_editor.protocol.editor_context import SERVER_NAME, TOKEN_ENV

OPEN_BUFFERS = "The files open in the editor: path, and whether the buffer holds unsaved changes."
READ_BUFFER = (
    "A file's text as the editor holds it, unsaved changes included (a file that is not open "
    "is read from disk). line is 1-based; limit is a number of lines."
)
DIAGNOSTICS = (
    "The diagnostics the editor shows (type errors, lint warnings from its language servers) of "
    "one file, or of every open file: path, range (1-based lines), severity, message, source."
)
SELECTION = "The active editor's file, selected range (1-based lines) and text, or null."
REVIEW_STATE = (
    "The agent's changes waiting for the user's review, and those the user rejected (with the "
    "reason when given)."
)


class ToolFailed(Exception):
    """The editor refused or could not answer: the message is the tool's error for the agent."""


class SidecarLink:
    """One connection to the sidecar; one request at a time (answers come in order)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str, token: str) -> SidecarLink:
        reader, writer = await asyncio.open_unix_connection(path, limit=1 << 24)
        link = cls(reader, writer)
        hello = await link._exchange({"token": token})
        if hello.get("ok") is not True:
            raise ToolFailed(f"the sidecar refused this bridge: {hello.get('error')}")
        return link

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        args = {k: v for k, v in arguments.items() if v is not None}
        reply = await self._exchange({"id": next(self._ids), "tool": tool, "arguments": args})
        if "error" in reply:
            raise ToolFailed(str(reply["error"]))
        return reply.get("result")

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        async with self._lock:
            self.writer.write(json.dumps(message).encode() + b"\n")
            await self.writer.drain()
            line = await self.reader.readline()
        if not line:
            raise ToolFailed("the editor (acp-editor) is gone")
        reply = json.loads(line)
        return reply if isinstance(reply, dict) else {"error": "a malformed answer"}


def build(link: SidecarLink) -> Any:
    """The MCP server and its tools (names and schemas: docs/protocol.md)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    # Every tool only looks: agents may run them without asking (Claude Code's auto mode does).
    looks = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        try:
            return await link.call(tool, arguments)
        except ToolFailed as exc:
            raise ToolError(str(exc)) from exc  # its message reaches the agent as the error

    server = MCPServer(
        SERVER_NAME,
        instructions="What the user's editor holds: open buffers with unsaved text, review.",
    )

    @server.tool(description=OPEN_BUFFERS, annotations=looks)
    async def open_buffers() -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await call("open_buffers", {})
        return result

    @server.tool(description=READ_BUFFER, annotations=looks)
    async def read_buffer(
        path: str, line: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        arguments = {"path": path, "line": line, "limit": limit}
        result: dict[str, Any] = await call("read_buffer", arguments)
        return result

    @server.tool(description=DIAGNOSTICS, annotations=looks)
    async def diagnostics(path: str | None = None) -> dict[str, Any]:
        result: dict[str, Any] = await call("diagnostics", {"path": path})
        return result

    @server.tool(description=SELECTION, annotations=looks)
    async def selection() -> dict[str, Any] | None:
        result: dict[str, Any] | None = await call("selection", {})
        return result

    @server.tool(description=REVIEW_STATE, annotations=looks)
    async def review_state() -> dict[str, Any]:
        result: dict[str, Any] = await call("review_state", {})
        return result

    return server


async def serve(path: str, token: str) -> None:
    link = await SidecarLink.connect(path, token)
    await build(link).run_stdio_async()


def main(path: str) -> int:
    token = os.environ.get(TOKEN_ENV)
    if not token:
        print(
            f"acp-editor mcp: no {TOKEN_ENV} (acp-editor starts this for an agent)", file=sys.stderr
        )
        return 2
    try:
        asyncio.run(serve(path, token))
    except (OSError, ToolFailed) as exc:
        print(f"acp-editor mcp: cannot reach the editor at {path}: {exc}", file=sys.stderr)
        return 1
    return 0
