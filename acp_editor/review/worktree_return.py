"""A session's worktree brought back into the user's workspace, as review (issue 28).

Each file the session changed in its worktree (``services.worktrees.changes``) is merged three
ways: its text in the worktree's base (the user's state when the worktree was made), the user's
text now, and the session's. The user's text is read twice: the disk's, and the one the
``DocumentSource`` gives (an open buffer wins over the disk); both must merge cleanly. A clean
merge is written to disk, then the open buffer takes it through ``disk_changed`` (merged, so
its unsaved edits stay unsaved), and the queue records it as after-write hunks of the session,
as a change found on disk would be (``review.finding.recording``).

Where the user and the session changed the same lines, or one deleted a file the other
changed, the file keeps the user's text and is reported as not brought back, with the reason;
so are files that are not text. Many files in one folder (``review.queue.grouping.GROUP_AT``) become
one group (``review.queue.bulk``), bracketed by two checkpoints of the workspace root taken here, so
rejecting the group puts back exactly what the user had.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.errors import ResourceNotFound
from acp_editor.review.finding.disk_text import decode
from acp_editor.review.queue.grouping import split
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import Change
from acp_editor.text.merge import merge3

if TYPE_CHECKING:
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.services.documents import DocumentSource
    from acp_editor.services.worktrees import WorktreeChange


@dataclass(frozen=True)
class NotBroughtBack:
    path: Path
    reason: str
    """Why the file keeps the user's text (for the user to read)."""


@dataclass
class BringBackResult:
    brought: list[Path] = field(default_factory=list)
    """Files changed in the user's workspace (written, created or removed)."""
    hunks: list[ReviewHunk] = field(default_factory=list)
    groups: list[ReviewGroup] = field(default_factory=list)
    left: list[NotBroughtBack] = field(default_factory=list)
    """Files left as the user has them, with the reason."""


@dataclass(frozen=True)
class _Step:
    """One file to bring back: the disk's text now and what it becomes (None: absent)."""

    path: Path
    disk: str | None
    new: str | None


async def bring_back(
    queue: ReviewQueue,
    documents: DocumentSource,
    session_id: str,
    changes: list[WorktreeChange],
    root: Path,
    tool_call_id: str | None = None,
) -> BringBackResult:
    """Bring ``changes`` into the user's workspace as review of ``session_id`` (see the module
    docstring). ``root``: the workspace root the session's checkpoints are of (files below it
    may be grouped; the queue's ``bulk`` store for it brackets a group)."""
    result = BringBackResult()
    steps: list[_Step] = []
    for change in changes:
        planned = await _plan(documents, change)
        if isinstance(planned, NotBroughtBack):
            result.left.append(planned)
        elif planned is not None:
            steps.append(planned)
    by_path = {s.path: s for s in steps}
    below = [Change(s.path, "modified") for s in steps if s.path.is_relative_to(root)]
    _, folders = split(root, below, lambda path: bool(queue.of_path(str(path))))
    grouped = {c.path for members in folders.values() for c in members}
    for step in steps:
        if step.path not in grouped:
            await _write(queue, step)
            await documents.disk_changed(step.path, step.disk, step.new)
            result.hunks += queue.record_applied(
                session_id, tool_call_id, step.path, step.disk, step.new, found_on_disk=True
            )
            result.brought.append(step.path)
    for folder, members in folders.items():
        group = await _group(
            queue,
            documents,
            (session_id, tool_call_id),
            root,
            folder,
            [by_path[c.path] for c in members],
        )
        result.groups.append(group)
        result.brought += [c.path for c in members]
    return result


async def _plan(documents: DocumentSource, change: WorktreeChange) -> _Step | NotBroughtBack | None:
    """What the file becomes, why it stays as the user has it, or None: nothing to do."""
    path = change.path
    if change.binary:
        return NotBroughtBack(path, f"not text: copy it from the worktree yourself ({path.name})")
    try:
        raw: bytes | None = await asyncio.to_thread(path.read_bytes)
    except FileNotFoundError:
        raw = None
    except OSError as exc:
        return NotBroughtBack(path, f"your file could not be read: {exc.strerror}")
    disk = decode(raw) if raw is not None else None
    if raw is not None and disk is None:
        return NotBroughtBack(path, "your file is not text: it was left as it is")
    try:
        view: str | None = await documents.read_text(path)
    except ResourceNotFound:
        view = None
    merged = _merge(change.before, disk, change.after)
    if view != disk and isinstance(merged, _Text):
        in_view = _merge(change.before, view, change.after)
        if isinstance(in_view, str):
            merged = f"{in_view} (in your unsaved edits)"
    if isinstance(merged, str):
        return NotBroughtBack(path, merged)
    return None if merged.text == disk else _Step(path, disk, merged.text)


@dataclass(frozen=True)
class _Text:
    text: str | None
    """What the file becomes (None: removed)."""


def _merge(before: str | None, ours: str | None, theirs: str | None) -> _Text | str:
    """The session's change (``before`` -> ``theirs``) merged into the user's text ``ours``;
    or why it cannot be (None: no file)."""
    if ours in (before, theirs):
        return _Text(theirs)
    if theirs == before:
        return _Text(ours)
    if before is None:
        return "you made this file too: yours was kept"
    if ours is None:
        return "you deleted this file since: it stays deleted"
    if theirs is None:
        return "the session deleted this file, and you changed it since: yours was kept"
    merged = merge3(before, ours, theirs)
    if merged.conflicts:
        count = len(merged.conflicts)
        places = f"{count} place{'s' if count != 1 else ''}"
        return f"you and the session changed the same lines ({places}): your text was kept"
    return _Text(merged.text)


async def _write(queue: ReviewQueue, step: _Step) -> None:
    """Put one file's new text on disk (or remove it), telling the queue it was ours."""
    if step.new is None:
        await asyncio.to_thread(step.path.unlink, missing_ok=True)
    else:
        await _DISK.write_text(step.path, step.new, session_id="", tool_call_id=None)
    queue.on_written(step.path, step.new)


_DISK = DiskDocuments()


async def _group(
    queue: ReviewQueue,
    documents: DocumentSource,
    who: tuple[str, str | None],
    root: Path,
    folder: Path,
    steps: list[_Step],
) -> ReviewGroup:
    """Many files of one folder: written between two checkpoints of ``root``, whose blobs the
    group keeps (rejecting it puts back the first's); open buffers among them take the change."""
    store = queue.bulk.store(str(root))
    paths = {s.path for s in steps}
    before = await store.snapshot(paths)
    for step in steps:
        await _write(queue, step)
    after = await store.snapshot(paths)
    found = [c for c in await store.changes(before, after) if c.path in paths]
    held = documents.held_paths()
    for step in steps:
        if str(step.path) in held:
            await documents.disk_changed(step.path, step.disk, step.new)
    session_id, tool_call_id = who
    return await queue.bulk.record(session_id, tool_call_id, root, folder, found, before)
