"""Where agent changes enter the review queue.

* Writes the agent asks for (``fs/write_text_file``) pass through ``ReviewingDocuments``: held
  until decided in ``before-write`` mode, recorded as applied hunks in ``after-write`` mode.
* Many agents write to disk themselves and only report a diff. For those, a file an edit tool call
  names is snapshotted when the tool call first names it and compared when the tool call ends;
  what changed becomes applied hunks. The snapshot is read synchronously, in the order the agent's
  messages arrive, because an agent may write the file right after announcing the tool call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.acp import edited_paths, is_finished
from acp_editor.review.queue import ReviewQueue
from acp_editor.services.documents import DocumentSource
from acp_editor.session.state import SessionView

log = get_logger("review.documents")

SNAPSHOT_LIMIT = 4 * 1024 * 1024
"""Larger files are not snapshotted (their changes are not reviewed): memory stays bounded."""


class ReviewingDocuments:
    """A ``DocumentSource`` that puts the agent's writes through the review queue."""

    def __init__(
        self,
        inner: DocumentSource,
        queue: ReviewQueue,
        allowed: Callable[[str, str], Path | None],
    ) -> None:
        self.inner = inner
        self.queue = queue
        self.allowed = allowed
        """The checked path for a path a session named, or None outside its roots."""
        self._snapshots: dict[tuple[str, str], dict[str, str | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        queue.on_written = self._written_by_us

    async def read_text(self, path: Path) -> str:
        return await self.inner.read_text(path)

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
    ) -> None:
        if self.queue.mode == "off":
            await self.inner.write_text(
                path, text, session_id=session_id, tool_call_id=tool_call_id
            )
            return
        old = await self._current(path)
        if self.queue.mode == "before-write":
            await self.queue.hold_write(session_id, tool_call_id, path, old, text)
            return
        await self.inner.write_text(path, text, session_id=session_id, tool_call_id=tool_call_id)
        self.queue.record_applied(session_id, tool_call_id, path, old, text)
        self._written_by_us(path, text)  # already reviewed: the disk watch must not count it

    def _written_by_us(self, path: Path, text: str) -> None:
        """A write that went through us is not the agent writing behind our back: move every
        open snapshot of that file to the written text."""
        for snapshot in self._snapshots.values():
            if str(path) in snapshot:
                snapshot[str(path)] = text

    async def _current(self, path: Path) -> str | None:
        try:
            return await self.inner.read_text(path)
        except RpcError:
            return None

    # -- agents that write to disk themselves ---------------------------------------------------

    def observe(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        if self.queue.mode == "off":
            return
        for change in changes:
            if change.get("type") not in ("tool_call", "tool_call_content"):
                continue
            call_id = str(change["toolCallId"])
            call = state.peek_tool_call(call_id)
            if call is None:
                continue
            key = (state.session_id, call_id)
            if is_finished(call):
                snapshot = self._snapshots.pop(key, None)
                if snapshot:
                    self._spawn(self._compare(state.session_id, call_id, snapshot))
                continue
            snapshot = self._snapshots.setdefault(key, {})
            for path in edited_paths(call):
                checked = self.allowed(path, state.session_id)
                if checked is not None and str(checked) not in snapshot:
                    snapshot[str(checked)] = _read_now(checked)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _compare(
        self, session_id: str, call_id: str, snapshot: dict[str, str | None]
    ) -> None:
        for path, before in snapshot.items():
            after = await asyncio.to_thread(_read_now, Path(path))
            if after != before:
                self.queue.record_applied(session_id, call_id, Path(path), before, after)

    async def settle(self) -> None:
        """Wait for pending disk comparisons (tests, and before answering a snapshot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _read_now(path: Path) -> str | None:
    try:
        if path.stat().st_size > SNAPSHOT_LIMIT or not path.is_file():
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
