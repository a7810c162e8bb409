"""Open buffers where the agent's change and the user's unsaved text overlap.

The buffer keeps the user's text there (everything else of the agent's change is in it); the
conflict is kept here until the user takes the agent's version or keeps theirs, shown as Error
diagnostics with code actions (``editor.buffers.review``) and announced once with
``window/showMessage``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.text.merge import Conflict


@dataclass(frozen=True)
class BufferConflict:
    path: str
    uri: str
    theirs: str
    """The whole file as the agent left it on disk."""
    places: tuple[Conflict, ...]
    """Where, in the buffer's text, the user's lines were kept over the agent's."""


class Conflicts:
    def __init__(self, channel: EditorChannel) -> None:
        self.channel = channel
        self.by_path: dict[str, BufferConflict] = {}
        self.listeners: list[Callable[[str], None]] = []
        """Told the path whenever its conflicts appear or go (review republishes them)."""

    def add(self, conflict: BufferConflict) -> None:
        self.by_path[conflict.path] = conflict
        count = len(conflict.places)
        self.channel.show_message(
            f"The agent changed {conflict.path} where you have unsaved edits. Its other changes "
            f"are in your buffer; {count} overlapping place{'s' if count != 1 else ''} kept your "
            "text. Use the code actions there to take the agent's version or keep yours.",
            lsp.MessageType.Warning,
        )
        self._changed(conflict.path)

    def resolve(self, path: str) -> BufferConflict | None:
        conflict = self.by_path.pop(path, None)
        if conflict is not None:
            self._changed(path)
        return conflict

    def _changed(self, path: str) -> None:
        for listener in self.listeners:
            listener(path)

    # -- shown as diagnostics with code actions --------------------------------------------------

    def diagnostics(self, path: str) -> list[lsp.Diagnostic]:
        conflict = self.by_path.get(path)
        if conflict is None:
            return []
        return [
            lsp.Diagnostic(
                range=lsp.Range(
                    start=lsp.Position(line=place.start, character=0),
                    end=lsp.Position(line=max(place.end, place.start + 1), character=0),
                ),
                message=(
                    "The agent changed these lines too; your unsaved text was kept. "
                    f"The agent's version: {''.join(place.their_lines).strip()[:200]!r}"
                ),
                severity=lsp.DiagnosticSeverity.Error,
                source=proto.DIAGNOSTIC_SOURCE,
                code="conflict",
                data={"conflict": conflict.uri},
            )
            for place in conflict.places
        ]

    def code_actions(self, path: str, uri: str) -> list[lsp.CodeAction]:
        if path not in self.by_path:
            return []
        return [
            _action("Take the agent's version of the file", proto.CMD_TAKE_AGENT_VERSION, uri),
            _action("Keep my version (save to write it)", proto.CMD_KEEP_MINE, uri),
        ]


def _action(title: str, command: str, uri: str) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        command=lsp.Command(title=title, command=command, arguments=[uri]),
    )
