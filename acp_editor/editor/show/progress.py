"""Tool calls as LSP work-done progress, for editors without the rich ``stream`` feature.

Each tool call becomes one progress: ``begin`` with its title when it appears, ``report`` on each
status change, ``end`` when it finishes; one still waiting to start (``pending``) when its turn
ends never will, and ends then (fast-agent asks permission for a placeholder call ``"pending"``
that it never updates: an editor would show it waiting forever). One that runs may go on (a
command's output still arrives). The token must be created (a request)
before ``begin``, so the events of all tool calls go through one ordered queue served by one
task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.log import get_logger
from acp_editor.protocol import tool_call
from acp_editor.protocol.tool_call import FINISHED_STATUSES

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel

log = get_logger(__name__)

TURN_ENDED = "\0turn ended"
"""The status of a queue item that ends every progress of a session still open (no agent's
status: those are strings of the agent's, and a NUL is not among them)."""


class ToolProgress:
    def __init__(self, channel: EditorChannel) -> None:
        self.channel = channel
        self._queue: asyncio.Queue[tuple[str, str | None, str]] = asyncio.Queue()
        """(token, status, title), or (token, None, a line of output) for a running one."""
        self._task: asyncio.Task[None] | None = None
        self._open: dict[str, str] = {}  # token -> last status
        self._titles: dict[str, str] = {}

    def update(self, session_id: str, call_id: str, call: Mapping[str, Any]) -> None:
        """A tool call whose status or title changed, as it now is."""
        token = f"acp/{session_id}/{call_id}"
        title = tool_call.tool_call_title(call)
        self._put((token, str(call.get("status", "pending")), title))

    def turn_ended(self, session_id: str) -> None:
        """The session's turn is over: what it left waiting to start ends now (in order,
        after its updates)."""
        if self._open or not self._queue.empty():  # nothing open: nothing to do
            self._put((f"acp/{session_id}/", TURN_ENDED, ""))

    def output(self, session_id: str, call_id: str, line: str) -> None:
        """The last line a running tool call's command printed: shown as its progress message."""
        self._put((f"acp/{session_id}/{call_id}", None, line))

    def _put(self, item: tuple[str, str | None, str]) -> None:
        self._queue.put_nowait(item)
        if self._task is None:
            self._task = asyncio.ensure_future(self._serve())

    async def _serve(self) -> None:
        while True:
            token, status, title = await self._queue.get()
            try:
                await self._step(token, status, title)
            except Exception as exc:  # a refused token must not stop the others
                log.info("progress for %s not shown: %s", token, exc)

    async def _step(self, token: str, status: str | None, title: str) -> None:
        progress = self.channel.work_done_progress
        if status == TURN_ENDED:  # ``token`` is the session's prefix
            waiting = [t for t, s in self._open.items() if t.startswith(token) and s == "pending"]
            for left in waiting:
                message = f"{self._titles[left]}: not started when the turn ended"
                progress.end(left, lsp.WorkDoneProgressEnd(message=message))
                del self._open[left]
            return
        if status is None:  # a line of output: only while the progress is open
            if token in self._open:
                line = title[:200]
                progress.report(
                    token, lsp.WorkDoneProgressReport(message=f"{self._titles[token]}: {line}")
                )
            return
        if token not in self._open:
            if status in FINISHED_STATUSES and token in self._titles:
                return  # already ended
            await progress.create_async(token)
            progress.begin(token, lsp.WorkDoneProgressBegin(title=title, message=status))
            self._open[token] = status
            self._titles[token] = title
        elif self._open[token] != status:
            progress.report(token, lsp.WorkDoneProgressReport(message=f"{title}: {status}"))
            self._open[token] = status
        if status in FINISHED_STATUSES:
            progress.end(token, lsp.WorkDoneProgressEnd(message=f"{title}: {status}"))
            del self._open[token]

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(Exception):
                self._task = None
