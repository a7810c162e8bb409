"""``acp-editor mcp --connect SOCKET``: the editor-context MCP server (``editor``) as the agent
starts it, on the official MCP Python SDK over stdio.

The agent runs this command from the ``mcpServers`` entry acp-editor put in its session; the
session's token comes in ``ACP_EDITOR_MCP_TOKEN``. Each tool call is forwarded to the running
sidecar over its Unix socket (``context/server.py``), which answers from the editor's
buffers and review. The tools themselves are ``context/sdk.py``'s, on the MCP SDK, which
the sidecar does not import for agents that take stdio: its start and session set-up stay fast.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from typing import Any

from acp_editor.log import get_logger
from acp_editor.protocol.editor_context import TOKEN_ENV

log = get_logger(__name__)


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
        reply = await self._exchange({"id": next(self._ids), "tool": tool, "arguments": arguments})
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


async def serve(path: str, token: str) -> None:
    from acp_editor.context.sdk import build

    link = await SidecarLink.connect(path, token)

    async def call(tool: str, arguments: dict[str, Any], _ctx: Any) -> Any:
        return await link.call(tool, arguments)

    try:
        await build(call, refusals=(ToolFailed,)).run_stdio_async()
    except BaseException as exc:
        if not agent_hung_up(exc):
            raise
        # The agent closed its end at shutdown while an answer was on its way: nobody reads
        # any more, so there is nothing to report, and nothing left to flush at exit.
        log.debug("the agent closed the pipe: %s", exc)
        quiet_stdout()


PIPE_CLOSED = (BrokenPipeError, ConnectionResetError)


def agent_hung_up(exc: BaseException) -> bool:
    """Whether ``exc`` is only the agent's end of stdio closing (the SDK's task group wraps it
    in an exception group): one or several ``BrokenPipeError``, nothing else."""
    if isinstance(exc, BaseExceptionGroup):
        return all(agent_hung_up(inner) for inner in exc.exceptions)
    return isinstance(exc, PIPE_CLOSED)


def quiet_stdout() -> None:
    """Point stdout at /dev/null: what is still buffered for the closed pipe goes nowhere, and
    Python's flush at exit cannot print its own ``BrokenPipeError``."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def main(path: str) -> int:
    token = os.environ.get(TOKEN_ENV)
    if not token:
        missing = f"acp-editor mcp: no {TOKEN_ENV} (acp-editor starts this for an agent)"
        print(missing, file=sys.stderr)
        return 2
    try:
        asyncio.run(serve(path, token))
    except (OSError, ToolFailed) as exc:
        print(f"acp-editor mcp: cannot reach the editor at {path}: {exc}", file=sys.stderr)
        return 1
    return 0
