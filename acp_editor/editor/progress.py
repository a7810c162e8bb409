"""Tool calls as LSP work-done progress, for editors without the rich ``stream`` feature.

Each tool call becomes one progress: ``begin`` with its title when it appears, ``report`` on each
status change, ``end`` when it finishes. The token must be created (a request) before ``begin``,
so the events of all tool calls go through one ordered queue served by one task.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.log import get_logger

if TYPE_CHECKING:
    from acp_editor.editor.server import AcpLanguageServer

log = get_logger("editor.progress")
FINISHED = {"completed", "failed", "cancelled"}


class ToolProgress:
    def __init__(self, server: AcpLanguageServer) -> None:
        self.server = server
        self._queue: asyncio.Queue[tuple[str, str, dict[str, Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._open: dict[str, str] = {}  # token -> last status
        self._titles: dict[str, str] = {}

    def update(self, session_id: str, change: dict[str, Any], call: dict[str, Any]) -> None:
        """A ``tool_call`` change and the tool call as it now is."""
        token = f"acp/{session_id}/{change['toolCallId']}"
        self._queue.put_nowait((token, str(call.get("status", "pending")), call))
        if self._task is None:
            self._task = asyncio.ensure_future(self._serve())

    async def _serve(self) -> None:
        while True:
            token, status, call = await self._queue.get()
            try:
                await self._step(token, status, call)
            except Exception as exc:  # a refused token must not stop the others
                log.info("progress for %s not shown: %s", token, exc)

    async def _step(self, token: str, status: str, call: dict[str, Any]) -> None:
        title = str(call.get("title") or call.get("kind") or "Tool call")
        progress = self.server.work_done_progress
        if token not in self._open:
            if status in FINISHED and token in self._titles:
                return  # already ended
            await progress.create_async(token)
            progress.begin(token, lsp.WorkDoneProgressBegin(title=title, message=status))
            self._open[token] = status
            self._titles[token] = title
        elif self._open[token] != status:
            progress.report(token, lsp.WorkDoneProgressReport(message=f"{title}: {status}"))
            self._open[token] = status
        if status in FINISHED:
            progress.end(token, lsp.WorkDoneProgressEnd(message=f"{title}: {status}"))
            del self._open[token]

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(Exception):
                self._task = None
