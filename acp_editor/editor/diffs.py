"""Diff previews of a tool call's ``diff`` content, for editors with the rich ``diffs`` feature.

Agents resend a tool call's whole content with each update; each preview is sent once per
(tool call, path) until its text changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from acp_editor.editor.channel import EditorChannel
from acp_editor.editor.prompts import diff_previews
from acp_editor.protocol import editor as proto


class DiffPreviews:
    def __init__(self, channel: EditorChannel, before_send: Callable[[str], None]) -> None:
        self.channel = channel
        self.before_send = before_send
        self._sent: dict[tuple[str, str, str], str] = {}

    def tool_call_changed(self, session_id: str, call_id: str, call: Mapping[str, Any]) -> None:
        if not self.channel.features.has(proto.FEATURE_DIFFS):
            return
        for preview in diff_previews(call):
            key = (session_id, call_id, preview["path"])
            fingerprint = f"{preview['oldText']!r}\0{preview['newText']}"
            if self._sent.get(key) == fingerprint:
                continue
            self._sent[key] = fingerprint
            self.before_send(session_id)
            self.channel.notify(
                proto.ACP_DIFF, {"sessionId": session_id, "toolCallId": call_id, **preview}
            )
