"""The review queue: every agent change to a file as hunks the user accepts or rejects.

Two kinds of hunk, one mechanism (``review.queue.anchor``):

* *applied* (mode ``after-write``, and every change an agent writes to disk itself): the change is
  in the file; rejecting finds the hunk's new lines in the file's current text and puts the old
  lines back, nothing else;
* *held* (mode ``before-write``): an ``fs/write_text_file`` waits; accepting finds the hunk's old
  lines in the current text and puts the new lines in; once every hunk of the write is decided
  the agent gets its answer (an error naming what was rejected, if anything was).

Reading and writing go through a ``DocumentSource``, so an open file is changed through the
editor (undoable, never clobbering the user's unsaved text) and a closed one on disk. The queue
records changes as hunks and keeps them; ``review.queue.decisions`` carries out the user's
decisions on them, ``review.queue.overlaps`` says where another session's change falls on them.

Many files changed at once by one command are not hunks but groups (``review.queue.bulk``), which
the queue holds as ``bulk``.

Where a hunk is, exactly, is ``review.queue.tracking``'s bookkeeping: while the file holds the text
the queue knows, a decision acts at the hunk's line with no search; a hunk without such a line
(kept from an earlier run) is looked for by its lines and context (``anchor.locate``), refusing
whenever that is not certain.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from acp_editor.log import get_logger
from acp_editor.review.queue.anchor import anchors_for, folded
from acp_editor.review.queue.bulk import BulkReview, Shown
from acp_editor.review.queue.decisions import FileDecisions
from acp_editor.review.queue.hunk import (
    ChangeRejected,
    FileChange,
    HeldWrite,
    ReviewHunk,
    describe,
)
from acp_editor.review.queue.overlaps import placed_by, under
from acp_editor.review.queue.tracking import Tracking
from acp_editor.services.git.checkpoints import CheckpointStore

if TYPE_CHECKING:
    from acp_editor.services.documents import DocumentSource
    from acp_editor.text.hunks import Hunk

log = get_logger(__name__)

Mode = Literal["after-write", "before-write", "off"]


class ReviewQueue:
    def __init__(
        self,
        documents: DocumentSource,
        mode: Mode = "after-write",
        on_change: Callable[[list[ReviewHunk]], None] | None = None,
        *,
        on_groups: Shown | None = None,
        on_written: Callable[[Path, str | None], None] | None = None,
        store_for: Callable[[Path], CheckpointStore] = CheckpointStore,
    ) -> None:
        """``on_change``: told of hunks made or changed; ``on_groups``: of groups (``bulk``);
        ``on_written``: of every write the queue itself makes, and the editor's saves (the
        turn watch must not take them for the agent's); ``store_for``: the checkpoint store of
        a root, which groups keep their checkpoints in (the turn watch's)."""
        self.documents = documents
        self.mode: Mode = mode
        self.on_change = on_change or (lambda _hunks: None)
        self.hunks: dict[str, ReviewHunk] = {}
        """Every hunk by id; change it only through ``_add`` and ``_forget`` (the index below)."""
        self._by_path: dict[str, dict[str, ReviewHunk]] = {}
        """Each file's hunks: a command that made thousands of files looked through all of them
        for every file it recorded."""
        self.on_written = on_written or (lambda _path, _text: None)
        self.tracking = Tracking(self.of_path)
        self.bulk = BulkReview(documents, self.on_written, on_groups, store_for)
        self._ids = itertools.count(1)
        self._decisions = FileDecisions(documents, self.tracking, self.on_written, self.of_path)
        self._lock = asyncio.Lock()  # decisions rewrite files: one at a time

    # -- new changes ----------------------------------------------------------------------------

    def _make(
        self,
        session_id: str,
        tool_call_id: str | None,
        path: Path,
        old: str,
        new: str,
        applied: bool,
        hunks: list[Hunk] | None = None,
    ) -> list[ReviewHunk]:
        made = []
        for anchor in anchors_for(old, new, hunks):
            hunk = ReviewHunk(
                f"h{next(self._ids)}",
                session_id,
                tool_call_id,
                str(path),
                anchor,
                applied,
                # Where its lines are in the file now: the new text's for an applied hunk, the
                # old text's for a held one (kept up to date as other hunks are decided).
                hint=anchor.hint if applied or anchor.old_hint is None else anchor.old_hint,
                exact=True,
            )
            self._add(hunk)
            made.append(hunk)
        return made

    def record_applied(
        self,
        session_id: str,
        tool_call_id: str | None,
        path: Path,
        old: str | None,
        new: str | None,
        *,
        found_on_disk: bool = False,
        shared: tuple[str, ...] = (),
    ) -> list[ReviewHunk]:
        """A change that is already in the file (``None``: the file did not / does not exist);
        ``shared``: every session it may be of, when that is not certain."""
        if self.mode == "off" or old == new:
            return []
        under = self._under(path, session_id, old, new)
        base, folded, changes = self._fold(path, old, new, session_id)
        made = self._make(
            session_id, tool_call_id, path, base or "", new or "", applied=True, hunks=changes
        )
        created = old is None or any(h.file_change == "created" for h in folded)
        kind: FileChange = "created" if created else "deleted" if new is None else None
        kept = tuple(dict.fromkeys(i for h in folded for i in h.conflicts_with))
        for hunk in made:
            hunk.file_change, hunk.found_on_disk, hunk.sessions = kind, found_on_disk, shared
            hunk.conflicts_with = kept  # what the hunks it holds conflicted with, it does
            hunk.supersedes = tuple(folded)
        for other, falling in under:
            for hunk in placed_by(made, falling):
                hunk.conflicts_with = (*hunk.conflicts_with, other.hunk_id)
        if made or folded:
            self.on_change(folded + made)
        return made

    def withdraw_creation(self, path: Path) -> bool:
        """A file created under review is gone again before the user decided its creation (an
        atomic write's temporary file, renamed over its target a moment later): there was no
        file before and there is none now, so nothing is left to review, whichever session each
        part was given to. Its pending hunks are withdrawn (``superseded``); False when there is
        no undecided creation to withdraw (a decided one makes the deletion a change of its own)."""
        pending = [h for h in self.of_path(str(path)) if h.state == "pending"]
        created = any(h.file_change == "created" for h in pending)
        if not created or not all(h.applied for h in pending):
            return False
        for hunk in pending:
            hunk.state, hunk.message = "superseded", "the file was created and deleted again"
            self._forget(hunk)
        self.tracking.known.pop(str(path), None)
        self.on_change(pending)
        return True

    def _under(
        self, path: Path, session_id: str, old: str | None, new: str | None
    ) -> list[tuple[ReviewHunk, list[Hunk]]]:
        """Other sessions' pending hunks this change falls on (``review.queue.overlaps``)."""
        others = [
            h
            for h in self.of_path(str(path))
            if h.applied and h.state == "pending" and h.session_id != session_id
        ]
        return under(others, self.tracking, path, old, new)

    def _fold(
        self, path: Path, old: str | None, new: str | None, session_id: str
    ) -> tuple[str | None, list[ReviewHunk], list[Hunk] | None]:
        """Pending applied hunks of the session in ``path`` this change touches give way to it:
        the change is made against the text before them (see ``anchor.folded``), and they are
        superseded. Another session's are not (``review.queue.overlaps``). Returns that text, the
        hunks folded, and its diff to ``new`` when already made."""
        if old is not None:
            self.tracking.know(path, old)  # where this change started from, if not the known text
        pending = [
            h
            for h in self.of_path(str(path))
            if h.applied and h.state == "pending" and h.session_id == session_id
        ]
        if old is None or new is None or not pending:
            changes = self.tracking.carry(path, old, old, new, [], None)
            return old, [], changes
        located = [self.tracking.exactly(h, old) for h in pending]
        base, indexes, reverts, changes = folded(
            old, new, [(h.anchor, h.hint) for h in pending], located
        )
        gone = [pending[i] for i in indexes]
        for hunk in gone:
            hunk.state = "superseded"
            self._forget(hunk)
        self.tracking.carry(path, old, base, new, reverts, changes)
        if any(h.file_change == "created" for h in gone):
            return None, gone, None
        return base, gone, changes

    @property
    def known(self) -> dict[str, str]:
        """Each file's text as the queue last saw it (``review.queue.tracking``)."""
        return self.tracking.known

    async def hold_write(
        self, session_id: str, tool_call_id: str | None, path: Path, old: str | None, new: str
    ) -> None:
        """Wait until the user decided every hunk of this write; the accepted ones are written
        as they are decided. Raises ``ChangeRejected`` if any hunk was rejected."""
        self.tracking.know(path, old or "")  # held: the file keeps it until a hunk is accepted
        made = self._make(session_id, tool_call_id, path, old or "", new, applied=False)
        if not made:
            return
        write = HeldWrite(made)
        for hunk in made:
            hunk.write = write
        if old is None:  # a new file: create it empty, so accepted hunks have a text to go into
            await self.documents.write_text(
                path, "", session_id=session_id, tool_call_id=tool_call_id
            )
            self.on_written(path, "")
        self.on_change(made)
        try:
            await write.done
        except asyncio.CancelledError:
            for hunk in made:  # the agent gave up (cancelled turn): nothing left to decide
                if hunk.state == "pending":
                    hunk.state, hunk.message = "rejected", "the agent withdrew the write"
            self.on_change(made)
            raise
        rejected = [h for h in made if h.state == "rejected"]
        if rejected:
            kept = len(made) - len(rejected)
            raise ChangeRejected(
                f"the user rejected {len(rejected)} of {len(made)} change(s) to {path}"
                + (f"; the other {kept} were written" if kept else "; the file was not changed")
                + ". Rejected: "
                + "; ".join(describe(h) for h in rejected)
            )

    # -- decisions ------------------------------------------------------------------------------

    def saved_by_editor(self, path: Path, text: str) -> None:
        """The editor saved ``text`` to ``path`` (the user's save, or the editor's own after
        our edit): the disk's new text is not a change of the agent's."""
        self.on_written(path, text)

    def in_burst(self, path: str, session_id: str) -> bool:
        """Whether the file's hunks can become part of a group of this session: all pending,
        found on disk, undecided (a burst's first files, found before it was one)."""
        hunks = self.of_path(path)
        return bool(hunks) and all(
            h.state == "pending" and h.applied and h.found_on_disk and h.session_id == session_id
            for h in hunks
        )

    def into_group(self, paths: list[str]) -> None:
        """The files' hunks are now part of a group (``in_burst``): no longer items of their own."""
        gone = [h for path in paths for h in self.of_path(path)]
        for hunk in gone:
            hunk.state, hunk.message = "superseded", "now part of a group of files"
            self._forget(hunk)
        for path in paths:
            self.tracking.known.pop(path, None)
        if gone:
            self.on_change(gone)

    def of_path(self, path: str) -> list[ReviewHunk]:
        """One file's hunks, oldest first."""
        return list(self._by_path.get(path, {}).values())

    def revive(self, hunk: ReviewHunk, at: int | None) -> None:
        """A superseded hunk pending again at line ``at`` of the known text (None: found by its
        lines when decided): the change that superseded it was undone, its own was not
        (``review.undo``)."""
        hunk.state, hunk.message, hunk.exact, hunk.lost = "pending", None, at is not None, False
        hunk.hint = hunk.hint if at is None else at
        self._add(hunk)

    def _add(self, hunk: ReviewHunk) -> None:
        self.hunks[hunk.hunk_id] = hunk
        self._by_path.setdefault(hunk.path, {})[hunk.hunk_id] = hunk

    def _forget(self, hunk: ReviewHunk) -> None:
        del self.hunks[hunk.hunk_id]
        same = self._by_path.get(hunk.path, {})
        same.pop(hunk.hunk_id, None)
        if not same:
            self._by_path.pop(hunk.path, None)

    def select(
        self,
        *,
        hunk_ids: Iterable[str] | None = None,
        path: str | None = None,
        tool_call_id: str | None = None,
        session_id: str | None = None,
    ) -> list[ReviewHunk]:
        wanted = set(hunk_ids) if hunk_ids is not None else None
        return [
            hunk
            for hunk in (self.hunks.values() if path is None else self.of_path(path))
            if (wanted is None or hunk.hunk_id in wanted)
            and (path is None or hunk.path == path)
            and (tool_call_id is None or hunk.tool_call_id == tool_call_id)
            and (session_id is None or hunk.session_id == session_id)
        ]

    @property
    def writing(self) -> asyncio.Lock:
        """Held while review rewrites files for the user's decisions; whatever else writes the
        files review follows on the user's behalf (bringing a worktree back) holds it too."""
        return self._lock

    async def decide(self, hunks: list[ReviewHunk], accept: bool) -> list[dict[str, Any]]:
        """Carry out the decision on each pending hunk (``review.queue.decisions``); one result
        per hunk. A held write whose hunks are all decided is answered."""
        async with self._lock:
            results = await self._decisions.decide_all(hunks, accept)
        self.on_change(hunks)
        writes = {id(h.write): h.write for h in hunks if h.write is not None}
        for write in writes.values():
            if all(h.state != "pending" for h in write.hunks) and not write.done.done():
                write.done.set_result(None)
        return results

    # -- for the next prompt --------------------------------------------------------------------

    def adopt(self, stored: list[dict[str, Any]]) -> list[ReviewHunk]:
        """Pending applied hunks kept from an earlier run (``review.queue.persist``), with new
        ids."""
        made = []
        for fields in stored:
            hunk = ReviewHunk(f"h{next(self._ids)}", applied=True, **fields)
            self._add(hunk)
            made.append(hunk)
        if made:
            self.on_change(made)
        return made

    def withdraw(self, session_id: str, paths: set[str], message: str) -> None:
        """The files were put back (a turn undone): their pending hunks no longer apply."""
        gone = [
            h
            for h in self.hunks.values()
            if h.session_id == session_id and h.path in paths and h.state == "pending"
        ]
        for hunk in gone:
            hunk.state, hunk.message, hunk.reported = "rejected", message, True
        if gone:
            self.on_change(gone)

    def unreported_rejections(self, session_id: str) -> str | None:
        """A note for the agent about changes the user rejected since it was last told."""
        rejected = [
            h
            for h in self.hunks.values()
            if h.session_id == session_id and h.state == "rejected" and not h.reported
        ]
        groups = [
            g
            for g in self.bulk.groups.values()
            if g.session_id == session_id and g.state == "rejected" and not g.reported
        ]
        if not rejected and not groups:
            return None
        for hunk in rejected:
            hunk.reported = True
        for group in groups:
            group.reported = True
        said = [describe(h) for h in rejected]
        said += [f"{g.title} (put back as they were before)" for g in groups]
        return (
            "Note from the editor: the user reviewed your earlier changes and rejected these "
            "(they are not in the files now): " + "; ".join(said) + "."
        )
