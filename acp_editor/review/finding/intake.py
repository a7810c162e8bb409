"""Where the agent's writes through us (``fs/write_text_file``) enter the review queue.

``ReviewingDocuments`` is the ``DocumentSource`` the agent's file service writes through: held
until decided in ``before-write`` mode, recorded as applied hunks in ``after-write`` mode, and
told to the turn watch, so the look that finds them on disk does not count them twice.
Everything else an agent changes is found by looking at the disk (``review.finding.looks``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.review.finding.disk_text import read_text
from acp_editor.text.merge import merge3

if TYPE_CHECKING:
    from acp_editor.review.finding.turns import TurnWatch
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.services.documents import DocumentSource

log = get_logger(__name__)


class Isolated:
    """The folders of sessions that run in a worktree of their own (``services.worktrees``):
    what is written there is not the user's workspace, so it is not reviewed as it happens;
    it comes back as review when the user asks (``review.worktree_return``)."""

    def __init__(self) -> None:
        self.folders: set[Path] = set()

    def holds(self, path: str | Path) -> bool:
        """Whether ``path`` is in one of the folders (both as given and resolved)."""
        if not self.folders:
            return False
        where = Path(path)
        return any(where.is_relative_to(f) for f in self.folders) or any(
            where.resolve().is_relative_to(f) for f in self.folders
        )


class ReviewingDocuments:
    """A ``DocumentSource`` that puts the agent's writes through the review queue."""

    def __init__(
        self,
        inner: DocumentSource,
        queue: ReviewQueue,
        turns: TurnWatch,
        isolated: Isolated | None = None,
    ) -> None:
        self.inner = inner
        self.queue = queue
        self.turns = turns
        self.isolated = isolated or Isolated()
        """Folders of sessions' own worktrees: written as asked, reviewed when brought back."""

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
        base: str | None = None,
    ) -> str | None:
        if self.queue.mode == "off" or self.isolated.holds(path):
            return await self.inner.write_text(
                path, text, session_id=session_id, tool_call_id=tool_call_id, base=base
            )
        await self._disk_first(session_id, tool_call_id, path, text)
        old = await self._current(path)
        if self.queue.mode == "before-write":
            held = _merged(base, old, text)
            self.turns.wrote(session_id, path)
            await self.queue.hold_write(session_id, tool_call_id, path, old, held)
            return None  # what was accepted of it is in the file now
        written = await self.inner.write_text(
            path, text, session_id=session_id, tool_call_id=tool_call_id, base=base
        )
        new = text if written is None else written  # the agent's change, merged into unsaved text
        self.queue.record_applied(session_id, tool_call_id, path, old, new)
        self.turns.written(path, new)  # reviewed already: the turn watch must not count it
        self.turns.wrote(session_id, path)  # its turn changed it: undoing the turn puts it back
        return written

    async def _disk_first(
        self, session_id: str, tool_call_id: str | None, path: Path, text: str
    ) -> None:
        """An agent that wrote the disk itself and then asks us to write the same text
        (opencode): the change is the disk's, taken in by a look now, or by the one already
        bringing it into the open buffer (looks are one at a time): one ``workspace/applyEdit``
        and one hunk, and the write below finds the buffer holding it. Without this it went to
        the buffer twice, the second edit computed from the text before the first; or, made from
        the disk's text, it changed nothing there and the look took the change for ours."""
        if self.turns.running(session_id) and await read_text(path) == text:
            await self.turns.look(session_id, tool_call_id, {path})

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        await self.inner.disk_changed(path, before, after)

    def held_paths(self) -> frozenset[str]:
        return self.inner.held_paths()

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        await self.inner.remove(path, label=label, keep=keep)

    async def _current(self, path: Path) -> str | None:
        try:
            return await self.inner.read_text(path)
        except RpcError:
            return None


def _merged(base: str | None, held: str | None, text: str) -> str:
    """What a held write proposes for text the agent never saw (``held``, an unsaved buffer):
    its change merged in, when that is clean; else its whole text, so each hunk, those that
    would take the user's lines away included, waits for the user's decision."""
    if base is None or held is None or base == held:
        return text
    merged = merge3(base, held, text)
    return text if merged.conflicts else merged.text
