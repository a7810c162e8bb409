"""What the editor side needs from the language server to reach the editor: one small interface.

The parts that show things (frontend, follow, review, progress, documents) are given an
``EditorChannel``, never the server itself, so none of them imports ``editor.lsp.server`` and each
can be tested against a fake channel without pygls or a subprocess.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types as lsp
from pygls.progress import Progress
from pygls.workspace import TextDocument

if TYPE_CHECKING:
    from acp_editor.editor.lsp.features import ClientFeatures


def new_request_id() -> str:
    """An id for a request to the editor, known before it is sent (``acp/requestPermission``
    carries it in its params so the editor can withdraw the right dialog)."""
    return f"acp-{uuid.uuid4().hex[:12]}"


class EditorBuffers(Protocol):
    """The editor's open documents, and changing them the undoable way (``editor.buffers.source``
    needs only this)."""

    @property
    def open_documents(self) -> Mapping[str, TextDocument]:
        """The documents the editor has open, by URI (empty before ``initialized``)."""
        ...

    @property
    def can_apply_edit(self) -> bool: ...

    @property
    def saves_after_apply(self) -> bool: ...

    @property
    def can_delete_file(self) -> bool:
        """Whether ``workspace/applyEdit`` takes a ``DeleteFile`` resource operation."""
        ...

    def apply_edit(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]], label: str
    ) -> Awaitable[tuple[bool, str | None]]:
        """``workspace/applyEdit`` of ``edits`` to one document: (applied, failure reason)."""
        ...

    def delete_file(self, uri: str, label: str) -> Awaitable[tuple[bool, str | None]]:
        """``workspace/applyEdit`` of a ``DeleteFile`` (the editor removes the file and lets
        its buffer go): (applied, failure reason)."""
        ...


class EditorChannel(EditorBuffers, Protocol):
    """Everything the editor side sends to the editor or asks of it."""

    @property
    def features(self) -> ClientFeatures:
        """What the editor declared at ``initialize``."""
        ...

    @property
    def initialized(self) -> bool: ...

    def notify(self, method: str, params: Any) -> None: ...

    def request(
        self, method: str, params: Any, *, timeout: float | None = None, msg_id: str | None = None
    ) -> Awaitable[Any]:
        """A request that is withdrawn (``$/cancelRequest``) when the caller stops waiting."""
        ...

    def background(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a coroutine nobody waits for, owned by the server so shutdown cancels it."""

    def show_message(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None: ...

    def log_message(self, message: str) -> None:
        """A line in the editor's log of this server (``window/logMessage``): where an editor
        without the capability for something (following, progress) can still read it."""

    def publish_diagnostics(self, uri: str, diagnostics: Sequence[lsp.Diagnostic]) -> None: ...

    @property
    def work_done_progress(self) -> Progress: ...
