"""The editor-context MCP server (``editor``) on the official MCP Python SDK: its tools, their
descriptions and annotations, for either transport. The stdio bridge (``context/bridge.py``)
forwards each call to the sidecar over its Unix socket; the HTTP endpoint
(``context/over_http.py``) answers in the sidecar itself. Names and schemas are the contract in
docs/protocol.md.

Imported only where MCP is spoken (the SDK takes most of a second to import): never on the way
to the first session of an agent that takes stdio.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from acp_editor.protocol.editor_context import SERVER_NAME

Call = Callable[[str, dict[str, Any], Context], Awaitable[Any]]
"""Runs one tool: its name, its arguments (None left out) and the request's MCP context."""

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


@contextlib.contextmanager
def _root_logging_kept() -> Iterator[None]:
    """The SDK's server configures the root logger (a handler on stderr, level INFO) when none is
    set: in the sidecar that would print every library's INFO lines to the editor's log."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def build(call: Call, refusals: tuple[type[Exception], ...]) -> MCPServer:
    """The server; an exception of ``refusals`` reaches the agent as the tool's error message."""
    # Every tool only looks: agents may run them without asking (Claude Code's auto mode does).
    looks = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

    async def run(tool: str, arguments: dict[str, Any], ctx: Context) -> Any:
        try:
            return await call(tool, {k: v for k, v in arguments.items() if v is not None}, ctx)
        except refusals as exc:
            raise ToolError(str(exc)) from exc

    with _root_logging_kept():
        server = MCPServer(
            SERVER_NAME,
            instructions="What the user's editor holds: open buffers with unsaved text, review.",
        )

    @server.tool(description=OPEN_BUFFERS, annotations=looks)
    async def open_buffers(ctx: Context) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await run("open_buffers", {}, ctx)
        return result

    @server.tool(description=READ_BUFFER, annotations=looks)
    async def read_buffer(
        path: str, ctx: Context, line: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        arguments = {"path": path, "line": line, "limit": limit}
        result: dict[str, Any] = await run("read_buffer", arguments, ctx)
        return result

    @server.tool(description=DIAGNOSTICS, annotations=looks)
    async def diagnostics(ctx: Context, path: str | None = None) -> dict[str, Any]:
        result: dict[str, Any] = await run("diagnostics", {"path": path}, ctx)
        return result

    @server.tool(description=SELECTION, annotations=looks)
    async def selection(ctx: Context) -> dict[str, Any] | None:
        result: dict[str, Any] | None = await run("selection", {}, ctx)
        return result

    @server.tool(description=REVIEW_STATE, annotations=looks)
    async def review_state(ctx: Context) -> dict[str, Any]:
        result: dict[str, Any] = await run("review_state", {}, ctx)
        return result

    return server
