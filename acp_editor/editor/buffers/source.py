"""The editor's buffers as the agent's document source.

Reads of an open document return the editor's unsaved text. Writes to an open document become a
``workspace/applyEdit`` of minimal edits (so the cursor, marks and undo history survive), and the
agent is answered only after the editor applied them. An agent's write carries the text it was
made from: the agent's change is merged into the buffer three ways, so unsaved lines it never
saw stay (where both changed the same lines, the user's stay and a conflict offers the agent's).
The disk is then brought in line (by the editor itself when it declared ``savesAfterApply``,
else by us), because agents run commands against the disk right after writing. Files that are
not open go straight to disk.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pygls.exceptions import JsonRpcException
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from acp_editor.editor.buffers.conflicts import BufferConflict, Conflicts
from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.services.documents import DiskDocuments

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorBuffers
    from acp_editor.text.merge import Merge

log = get_logger(__name__)


def merge3(base: str, ours: str, theirs: str) -> Merge:
    """``text.merge.merge3``, imported at the first merge: it and ``difflib`` are not needed to
    answer the editor's ``initialize``, which waits for every module imported (issue 36)."""
    from acp_editor.text import merge

    return merge.merge3(base, ours, theirs)


CHANGE_REPORT_WAIT = 1.0
"""Seconds an edit waits for the editor to report the previous one (eglot reports after 0.5 s
of idle time); then it goes without a version, computed against the text we applied."""


class EditRefused(RpcError):
    CODE = -32603
    MESSAGE = "The editor did not apply the edit"


class DocumentLocks:
    """One lock per document while edits to it run or wait their turn: an edit is computed from
    the text the edit before it left (an agent's write and a look's merge of another change,
    both from one version, had the editor refuse the second or apply it at the wrong place).
    A document's lock is dropped once nobody holds it or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """Key -> its lock and how many hold it or wait for it."""

    def __len__(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            users = self._locks[key][1] - 1
            if users:
                self._locks[key] = (lock, users)
            else:
                del self._locks[key]


class EditorDocuments:
    """A ``DocumentSource`` that prefers the editor's buffers to the disk. Its edits of one
    document go one at a time (``locks``); none waits on the agent while it holds its turn."""

    def __init__(
        self,
        editor: EditorBuffers,
        title_for: Callable[[str, str | None], str | None] | None = None,
        disk: DiskDocuments | None = None,
        conflicts: Conflicts | None = None,
    ) -> None:
        self.editor = editor
        self.conflicts = conflicts
        self.disk = disk or DiskDocuments()
        self.title_for = title_for or (lambda _session, _call: None)
        # After the editor applied our edit it reports the new text (didChange) a little later
        # (Neovim waits up to 150 ms, eglot until Emacs is idle for 0.5 s): until then our copy
        # is stale, so reads use what we wrote, and the version we know is one the editor has
        # left behind (it bumped it when it applied the edit).
        self._applied: dict[str, tuple[int | None, str]] = {}
        self._reports: dict[str, asyncio.Event] = {}
        self._let_go: dict[str, int | None] = {}
        """URI -> the version of a buffer whose file we removed (``remove``): until the user
        types in it, it is not the file's text."""
        self.locks = DocumentLocks()
        """Path -> the turn of an edit of it (writes, removals, changes found on disk)."""

    def open_document(self, path: Path) -> TextDocument | None:
        wanted = str(path)
        for uri, doc in self.editor.open_documents.items():
            if to_fs_path(uri) == wanted:
                return doc
        return None

    def held_paths(self) -> frozenset[str]:
        return frozenset(p for p in map(to_fs_path, self.editor.open_documents) if p)

    def changed(self, uri: str) -> None:
        """The editor reported a change of ``uri`` (``didChange``)."""
        event = self._reports.pop(uri, None)
        if event is not None:
            event.set()

    async def _settled(self, path: Path) -> tuple[TextDocument | None, int | None]:
        """The open document and the version an edit to it may carry: the editor's own, once it
        reported our last edit; else, after a short wait for that report, none at all (an edit
        with the old version is refused: "require version 5, you have 6")."""
        doc = self.open_document(path)
        if doc is None or not self._unreported(doc):
            return doc, doc.version if doc is not None else None
        await self._report(doc.uri)
        doc = self.open_document(path)
        if doc is None or not self._unreported(doc):
            return doc, doc.version if doc is not None else None
        log.info(
            "%s: the editor has not reported our last edit yet; the next one has no version", path
        )
        return doc, None

    async def _report(self, uri: str) -> bool:
        """Wait up to ``CHANGE_REPORT_WAIT`` for the editor's next ``didChange`` of ``uri``."""
        event = self._reports.setdefault(uri, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), CHANGE_REPORT_WAIT)
        except TimeoutError:
            return False
        return True

    def _unreported(self, doc: TextDocument) -> bool:
        applied = self._applied.get(doc.uri)
        return applied is not None and applied[0] == doc.version

    async def read_text(self, path: Path) -> str:
        """The buffer's text, else the disk's; the disk's too for a buffer we let go of (its
        file removed) while it is empty or as we left it."""
        doc = self.open_document(path)
        if doc is not None and self._gone(doc):
            return await self.disk.read_text(path)
        return await self._text(path)

    async def _text(self, path: Path) -> str:
        """What the buffer holds (the edit we applied, until the editor reports it), else the
        disk's text: what an edit to it is computed from."""
        doc = self.open_document(path)
        if doc is not None:
            return self._buffer(doc)
        return await self.disk.read_text(path)

    def _buffer(self, doc: TextDocument) -> str:
        applied = self._applied.get(doc.uri)
        if applied is not None and applied[0] == doc.version:
            return applied[1]
        self._applied.pop(doc.uri, None)
        return doc.source

    def _gone(self, doc: TextDocument) -> bool:
        if doc.uri not in self._let_go:
            return False
        if doc.version == self._let_go[doc.uri] or not self._buffer(doc):
            return True
        del self._let_go[doc.uri]  # the user typed in it: their text again
        return False

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        """Remove the file, and let an open buffer of it go: through a ``DeleteFile`` where the
        editor takes one (it removes the file and closes the buffer), else emptied (one undo
        step). Either way, reads of it answer from the disk (not found) until the user types
        in it: the agent's next turn does not read the rejected text back and write it again.
        A buffer with text of the user's (``keep``) is not let go: it holds just that, unsaved
        (one undo step), and saving it makes the file the user's."""
        async with self.locks.hold(str(path)):
            await self._remove(path, label, keep)

    async def _remove(self, path: Path, label: str, keep: str) -> None:
        doc = self.open_document(path)
        deleted = False
        if doc is not None and not keep and self.editor.can_delete_file:
            deleted, reason = await self.editor.delete_file(doc.uri, label)
            if not deleted:
                log.warning("the editor did not delete %s: %s; its buffer is emptied", path, reason)
        await self.disk.remove(path, label=label)
        doc = self.open_document(path)
        if doc is None:
            return
        if not deleted and self.editor.can_apply_edit:
            doc, version = await self._settled(path)
            if doc is None:
                return
            applied, reason = await self._apply(doc, self._buffer(doc), keep, label, version)
            if not applied:
                log.warning("the editor kept the text of removed %s: %s", path, reason)
        if keep:
            self._let_go.pop(doc.uri, None)  # the user's text: read as the file's
        else:
            self._let_go[doc.uri] = doc.version

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
        async with self.locks.hold(str(path)):
            return await self._write_text(path, text, session_id, tool_call_id, label, base)

    async def _write_text(
        self,
        path: Path,
        text: str,
        session_id: str,
        tool_call_id: str | None,
        label: str | None,
        base: str | None,
    ) -> str | None:
        doc = self.open_document(path)
        if doc is None:
            return await self.disk.write_text(
                path, text, session_id=session_id, tool_call_id=tool_call_id
            )
        if not self.editor.can_apply_edit:
            await self._write_without_editor(path, doc, text, session_id, tool_call_id)
            return None
        label = label or self.title_for(session_id, tool_call_id) or f"Agent edit: {path.name}"
        doc, version = await self._settled(path)
        if doc is None:  # closed while we waited
            return await self.disk.write_text(
                path, text, session_id=session_id, tool_call_id=tool_call_id
            )
        before = await self._text(path)
        # The agent changed ``base`` into ``text``; the buffer may hold lines it never saw.
        merged = merge3(base, before, text) if base is not None and base != before else None
        target = merged.text if merged is not None else text
        applied, reason = await self._apply_or_merge(path, doc, before, target, label, version)
        if not applied:
            raise EditRefused(
                f"the editor did not apply the edit to {path}"
                + (f": {reason}" if reason else "")
                + "; the file was left unchanged"
            )
        if merged is not None and merged.conflicts and self.conflicts is not None:
            self.conflicts.add(BufferConflict(str(path), doc.uri, text, merged.conflicts))
        if not self.editor.saves_after_apply:
            # The agent's change goes to the disk's text: with a base, the change it meant.
            old, new = (base, text) if base is not None else (before, target)
            await self._write_change_to_disk(path, old, new, session_id, tool_call_id)
        return target

    async def _write_change_to_disk(
        self, path: Path, before: str, after: str, session_id: str, tool_call_id: str | None
    ) -> None:
        """The change (``before`` -> ``after``) goes to disk too, because the agent runs
        commands against the disk; but applied to the disk's text, so the user's unsaved
        edits stay in the buffer only, as they would without us (no save behind their back)."""
        try:
            on_disk = await self.disk.read_text(path)
        except RpcError:
            on_disk = before
        merged = merge3(before, on_disk, after)
        if merged.conflicts:
            log.warning(
                "%s: part of the change touches lines only the unsaved buffer has; the disk "
                "keeps its text there until the buffer is saved",
                path,
            )
        if merged.text != on_disk:
            await self.disk.write_text(
                path, merged.text, session_id=session_id, tool_call_id=tool_call_id
            )

    async def _apply_or_merge(
        self, path: Path, doc: TextDocument, old: str, new: str, label: str, version: int | None
    ) -> tuple[bool, str | None]:
        """``_apply``; if the editor refuses it for a version it has moved past (the user typed
        and the editor reports changes only when idle: eglot), wait for that report and apply
        the change merged into the text the editor now has, so the user's new text stays."""
        applied, reason = await self._apply(doc, old, new, label, version)
        if applied or version is None:
            return applied, reason
        if doc.version == version and not await self._report(doc.uri):
            return applied, reason
        current_doc = self.open_document(path)
        if current_doc is None:
            return applied, reason
        current = await self._text(path)
        merged = merge3(old, current, new)
        if merged.conflicts:
            log.warning("%s: the agent's edit overlaps what you just typed; your lines stay", path)
        log.info("%s: the editor moved on while we edited; applying the edit merged", path)
        return await self._apply(current_doc, current, merged.text, label, current_doc.version)

    async def _apply(
        self, doc: TextDocument, old: str, new: str, label: str, version: int | None
    ) -> tuple[bool, str | None]:
        """Change the buffer from ``old`` (the text we last know it has: ``version``'s, or what
        we last applied) to ``new`` with minimal edits, one undo step."""
        from acp_editor.text.edits import minimal_edits  # with merge3: at the first edit

        edits = minimal_edits(old, new)
        if not edits:
            return True, None
        known = doc.version  # the editor may report the edit (a new version) before it answers
        try:
            applied, reason = await self.editor.apply_edit(doc.uri, version, edits, label)
        except (RpcError, JsonRpcException) as exc:  # the editor answered with an error
            applied, reason = False, str(exc)
        if applied:
            self._applied[doc.uri] = (known, new)
        return applied, reason

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        """The agent (or its command) changed a file on disk: an open buffer gets the change
        merged into its text, unsaved edits kept; overlaps are conflicts, never overwritten."""
        if self.open_document(path) is None or after is None or not self.editor.can_apply_edit:
            return  # not open; or deleted: the buffer keeps its text, a save brings it back
        async with self.locks.hold(str(path)):
            await self._disk_changed(path, before, after)

    async def _disk_changed(self, path: Path, before: str | None, after: str) -> None:
        doc, version = await self._settled(path)
        if doc is None:
            return
        ours = await self._text(path)
        if ours == after:
            return
        merged = merge3(before or "", ours, after)
        if merged.text != ours:
            label = f"Agent: {path.name}"
            applied, reason = await self._apply_or_merge(
                path, doc, ours, merged.text, label, version
            )
            if not applied:
                log.warning("the editor did not take the agent's change to %s: %s", path, reason)
                return
        if merged.conflicts and self.conflicts is not None:
            self.conflicts.add(BufferConflict(str(path), doc.uri, after, merged.conflicts))

    async def take_theirs(self, conflict: BufferConflict) -> bool:
        """Make the buffer the agent's version of the file (what the disk holds)."""
        path = Path(conflict.path)
        async with self.locks.hold(str(path)):
            doc, version = await self._settled(path)
            if doc is None:
                return True
            label = f"Take the agent's version of {path.name}"
            text = await self._text(path)
            applied, _ = await self._apply(doc, text, conflict.theirs, label, version)
            return applied

    async def _write_without_editor(
        self, path: Path, doc: TextDocument, text: str, session_id: str, tool_call_id: str | None
    ) -> None:
        """The editor cannot apply edits: write the disk only if that loses no unsaved text."""
        try:
            on_disk = await self.disk.read_text(path)
        except RpcError:
            on_disk = None
        if on_disk != doc.source:
            raise EditRefused(
                f"{path} has unsaved changes in the editor, and the editor cannot apply edits: "
                "the file was left unchanged"
            )
        await self.disk.write_text(path, text, session_id=session_id, tool_call_id=tool_call_id)
