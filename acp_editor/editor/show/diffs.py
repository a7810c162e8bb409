"""Diff previews for editors with the rich ``diffs`` feature: of a tool call's ``diff`` content,
and of the changes a tool call made on disk that its content does not show (a command's edits).

Agents resend a tool call's whole content with each update; each preview is sent once per
(tool call, path) until its text changes. A change found on disk is shown from the file as it
was before the tool call first changed it, however many looks found its parts.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from acp_editor.editor.show.structured_diffs import structured_previews
from acp_editor.editor.show.wording import diff_preview, diff_previews
from acp_editor.protocol import editor as proto
from acp_editor.protocol import tool_call

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.editor.show.structured_diffs import ReadText


class DiffPreviews:
    def __init__(
        self, channel: EditorChannel, before_send: Callable[[str], None], read_text: ReadText
    ) -> None:
        self.channel = channel
        self.before_send = before_send
        self.read_text = read_text
        self._structured: set[tuple[str, str, str]] = set()
        """(session, tool call, the v2 diff item as JSON) already on their way."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._sent: dict[tuple[str, str, str], str] = {}
        self._from_content: set[tuple[str, str, str]] = set()
        self._first_seen: dict[tuple[str, str, str], str | None] = {}
        """(session, tool call, path) -> the file before the tool call changed it on disk."""

    def tool_call_changed(self, session_id: str, call_id: str, call: Mapping[str, Any]) -> None:
        if not self.channel.features.has(proto.FEATURE_DIFFS):
            return
        for preview in diff_previews(call):
            key = (session_id, call_id, preview["path"])
            self._from_content.add(key)
            self._send(key, preview)
        for item in tool_call.structured_diffs(call):  # v2: the texts come from applying its patch
            seen = (session_id, call_id, json.dumps(item, sort_keys=True))
            if seen not in self._structured:
                self._structured.add(seen)
                written = tool_call.is_finished(call)
                task = asyncio.ensure_future(
                    self._send_structured(session_id, call_id, item, written)
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _send_structured(
        self, session_id: str, call_id: str, item: dict[str, Any], written: bool
    ) -> None:
        for preview in await structured_previews(item, self.read_text, written=written):
            key = (session_id, call_id, preview["path"])
            self._from_content.add(key)
            self._send(key, preview)

    def found_on_disk(
        self, session_id: str, call_id: str, path: str, before: str | None, after: str | None
    ) -> None:
        """A change the tool call made on disk: previewed unless its content showed one."""
        key = (session_id, call_id, path)
        if not self.channel.features.has(proto.FEATURE_DIFFS) or key in self._from_content:
            return
        old = self._first_seen.setdefault(key, before)
        self._send(key, diff_preview(path, old, after or ""))

    def _send(self, key: tuple[str, str, str], preview: dict[str, Any]) -> None:
        fingerprint = f"{preview['oldText']!r}\0{preview['newText']}"
        if self._sent.get(key) == fingerprint:
            return
        self._sent[key] = fingerprint
        session_id, call_id, _ = key
        self.before_send(session_id)
        self.channel.notify(
            proto.ACP_DIFF, {"sessionId": session_id, "toolCallId": call_id, **preview}
        )
