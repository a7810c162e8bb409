"""An editor for the editor-context server's tests: one file with unsaved text in its buffer, and
a selection it answers only when the test says so (a tool call that stays in flight)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pygls.workspace import TextDocument

from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel

HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}
"""The params of an MCP client's ``initialize``."""
DEADLINE = 10.0


class HeldSelection:
    """The editor's answer to ``acp/selection``, held until released; whether it was given up."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.abandoned = asyncio.Event()

    async def in_flight(self) -> None:
        """Until the editor is asked (again)."""
        await asyncio.wait_for(self.asked.wait(), DEADLINE)
        self.asked.clear()

    async def given_up(self) -> None:
        """Until the question is withdrawn (again)."""
        await asyncio.wait_for(self.abandoned.wait(), DEADLINE)
        self.abandoned.clear()

    async def answer(self, _params: Any) -> None:
        self.asked.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.abandoned.set()
            raise


def unsaved_editor(
    path: Path, on_disk: str, in_buffer: str, held: HeldSelection | None = None
) -> ContextTools:
    """The editor-context tools of a rich editor holding ``path`` with ``in_buffer`` while the
    disk has ``on_disk``; its selection answered by ``held``."""
    path.write_text(on_disk)
    channel = FakeChannel(ClientFeatures(rich={proto.FEATURE_CONTEXT}))
    uri = path_to_uri(str(path))
    channel.documents[uri] = TextDocument(uri, in_buffer, version=1)
    if held is not None:
        channel.answers[proto.ACP_SELECTION] = held.answer
    return ContextTools(EditorDocuments(channel), lambda: None, channel)
