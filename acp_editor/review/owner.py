"""Review's one owner: it builds every part of review in one place, tells the front end of
everything in one event, and gives the editor side a view instead of its parts.

The parts (see docs/architecture.md, "The path of a change an agent makes itself"):

* ``review.queue.review_queue.ReviewQueue``: the hunks and the decisions on them, with
  ``review.queue.bulk``'s groups of bulk changes;
* ``review.queue.persist.PendingReview``: what is pending, kept on disk for the workspace root;
* per agent (``for_agent``: a ``review.agent_review.AgentReview``): its share of the one
  ``review.finding.turns.TurnWatch`` (checkpoints compared; what a look finds is recorded by
  ``review.finding.recording.ChangeRecorder``, given to the session that made it by
  ``review.finding.attribution``), ``review.finding.intake.ReviewingDocuments`` (the agent's
  writes, tool call ends and live looks) and ``review.undo.TurnUndo`` (undoing a turn).

The editor side makes one ``Review`` for the server's life and hands it to every agent it starts,
so pending review shows before an agent starts and outlives one that crashes; an agent side on
its own (the demo, tests) makes its own. Whatever review has to say reaches the front end as a
``review.events.ReviewEvent`` through one callable; the editor side reads review and asks for the
user's decisions through ``review.view.ReviewView`` only, which ``Review`` implements.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.review import worktree_return
from acp_editor.review.agent_review import AgentReview
from acp_editor.review.events import (
    FoundChange,
    GroupsChanged,
    HunksChanged,
    Listener,
    ReviewEvent,
    ReviewNotice,
)
from acp_editor.review.finding.ahead import Ahead
from acp_editor.review.finding.intake import Isolated, ReviewingDocuments
from acp_editor.review.finding.looks import Looks
from acp_editor.review.finding.turn_record import TurnRecord
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.persist import PendingReview
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.review.undo import Restore, TurnUndo
from acp_editor.services import worktrees
from acp_editor.services.git.checkpoints import CheckpointStore

__all__ = ["AgentReview", "Restore", "Review", "ReviewEvent"]
# What the agent side uses of review, all from its owner: its share (``AgentReview``), the
# event it hands its front end (``ReviewEvent``), one file of undoing a turn (``Restore``).

if TYPE_CHECKING:
    from acp_editor.review.finding.turns import StoreFor
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.review_queue import Mode
    from acp_editor.review.worktree_return import BringBackResult
    from acp_editor.services.documents import DocumentSource
    from acp_editor.services.worktrees import Worktree


class Review:
    """The owner of review for one workspace root (see the module docstring)."""

    def __init__(
        self,
        documents: DocumentSource,
        mode: Mode = "after-write",
        listener: Listener | None = None,
        store_for: StoreFor = CheckpointStore,
    ) -> None:
        self.documents = documents
        self.queue = ReviewQueue(
            documents,
            mode,
            self._hunks_changed,
            on_groups=self._groups_changed,
            on_written=self._written,
            store_for=self._store,
        )
        self._store_for = store_for
        self.listener: Listener = listener or (lambda _event: None)
        """Told every ``ReviewEvent`` (the front end's ``review_changed``)."""
        self.pending: PendingReview | None = None
        self._loading = False
        self._opened = False
        self._turns: TurnWatch | None = None
        self._ahead: Ahead | None = None
        self.record = TurnRecord()
        """What each turn changed, and what changed outside turns since (rejections, undos,
        bring-backs): what undoing a turn may put back (``review.finding.turn_record``)."""
        self.isolated = Isolated()
        """Sessions' own worktrees: not reviewed as they change (see ``bring_back``)."""

    def for_agent(self) -> AgentReview:
        """The parts of review one agent needs, built around this queue: a change the agent
        makes, written through us or found on disk, is recorded here and told as an event.
        Every agent shares one turn watch (one checkpoint store per root, one "last seen" of
        it): two agents' looks neither race for a store nor find one change twice, and who made
        a change is told across agents (``review.finding.attribution``)."""
        turns, ahead = self._watch()
        return AgentReview(
            turns,
            ReviewingDocuments(self.documents, self.queue, turns, self.isolated),
            Looks(turns, self.queue, ahead),
            TurnUndo(turns),
            self.queue,
            self.isolated,
        )

    def _watch(self) -> tuple[TurnWatch, Ahead]:
        if self._turns is None or self._ahead is None:
            self._turns = TurnWatch(
                self.queue,
                self._store_for,
                self.documents,
                self.record,
                on_found=self._found,
                on_notice=lambda message: self.listener(ReviewNotice(message)),
            )
            self._ahead = Ahead(self._turns)
        return self._turns, self._ahead

    def _written(self, path: Path, text: str | None) -> None:
        """The queue wrote ``path`` (a decision), or the editor saved it: not the agent's
        change, for the turn watch (which has nothing to skip before any turn)."""
        if self._turns is not None:
            self._turns.written(path, text)

    def _store(self, root: Path) -> CheckpointStore:
        """A root's checkpoint store, which groups keep their checkpoints in: the turn
        watch's very object (one lock per index)."""
        return self._watch()[0].store(root)

    def prepare(self, root: str | Path | None) -> None:
        """The workspace is known: make it ready for its first turn in the background (its
        first checkpoint, and a file watch where looks everywhere are slow:
        ``review.finding.ahead``)."""
        if root is not None and self.queue.mode != "off":
            self._watch()[1].start(Path(root))

    def forget_session(self, session_id: str) -> None:
        """A deleted session: what this run remembers of its turns goes too."""
        self.record.forget(session_id)

    # -- sessions in worktrees of their own -----------------------------------------------------

    def isolate(self, folder: Path) -> None:
        """A session's own worktree: what is written there is not reviewed as it happens."""
        self.isolated.folders.add(folder)

    def release(self, folder: Path) -> None:
        """A worktree brought back or discarded: review no longer leaves it alone."""
        self.isolated.folders.discard(folder)

    def isolated_at(self, path: str | Path) -> bool:
        """Whether ``path`` is in a session's own worktree."""
        return self.isolated.holds(path)

    async def bring_back(
        self, session_id: str, worktree: Worktree
    ) -> tuple[Worktree, BringBackResult]:
        """What the session changed in its worktree, merged into the user's workspace as its
        review (``review.worktree_return``); the worktree's base moves on by what came back, so
        the next time brings back only what changed since (or what was left)."""
        changes = await worktrees.changes(worktree)
        async with self.queue.writing:  # a decision on the same file waits, and the other way
            result = await worktree_return.bring_back(
                self.queue, self.documents, session_id, changes, Path(worktree.root)
            )
        if result.brought:  # not a turn: the record must know
            brought = [str(path) for path in result.brought]
            await self.record.outside_turns(
                session_id, brought, "what came back", self._kept_roots()
            )
        return await worktrees.advance(worktree, result.brought), result

    # -- events ---------------------------------------------------------------------------------

    def _found(
        self,
        session_id: str,
        tool_call_id: str | None,
        path: str,
        before: str | None,
        after: str | None,
    ) -> None:
        self.listener(FoundChange(session_id, tool_call_id, path, before, after))

    def _hunks_changed(self, hunks: list[ReviewHunk]) -> None:
        if self.pending is not None:
            self.pending.changed(self.queue)
        self.listener(HunksChanged(hunks, restored=self._loading))

    def _groups_changed(self, groups: list[ReviewGroup]) -> None:
        if self.pending is not None:
            self.pending.changed(self.queue, groups=True)
        self.listener(GroupsChanged(groups))

    # -- kept on disk ---------------------------------------------------------------------------

    async def open(self, root: str | Path, mode: Mode) -> list[ReviewHunk]:
        """Keep the queue in ``root`` from now on, and take back what an earlier run left
        pending there (once: later calls only set the mode)."""
        self.queue.mode = mode
        if mode == "off" or self._opened:
            return []
        self._opened = True
        pending = PendingReview(await asyncio.to_thread(Path(root).resolve))
        stored = await pending.stored()
        groups = await pending.stored_groups()
        self.pending = pending  # not before: a write meanwhile would replace what is read
        self._loading = True  # adopt tells of its hunks at once
        try:
            adopted = self.queue.adopt(stored)
            taken = self.queue.bulk.adopt(groups)
        finally:
            self._loading = False
        if not adopted and self.queue.hunks:
            pending.changed(self.queue)  # hunks made while it was read
        if not taken and self.queue.bulk.groups:
            pending.changed(self.queue, groups=True)
        return adopted

    async def flush(self) -> None:
        """What is pending, written now; what was made ready ahead of a turn, stopped."""
        if self._ahead is not None:
            await self._ahead.close()
        if self.pending is not None:
            await self.pending.flush()

    # -- the editor side's view (``ReviewView``) -------------------------------------------------

    @property
    def mode(self) -> Mode:
        return self.queue.mode

    def hunks(self) -> list[ReviewHunk]:
        return list(self.queue.hunks.values())

    def of_path(self, path: str) -> list[ReviewHunk]:
        return self.queue.of_path(path)

    def known(self, path: str) -> str | None:
        return self.queue.known.get(path)

    def select(
        self,
        *,
        hunk_ids: Iterable[str] | None = None,
        path: str | None = None,
        tool_call_id: str | None = None,
        session_id: str | None = None,
    ) -> list[ReviewHunk]:
        return self.queue.select(
            hunk_ids=hunk_ids, path=path, tool_call_id=tool_call_id, session_id=session_id
        )

    def groups(self) -> list[ReviewGroup]:
        return list(self.queue.bulk.groups.values())

    def looking(self, session_id: str) -> bool:
        return self._turns is not None and self._turns.running(session_id)

    async def decide(self, hunks: list[ReviewHunk], accept: bool) -> list[dict[str, Any]]:
        pending = [h for h in hunks if h.state == "pending"]
        results = await self.queue.decide(hunks, accept)
        if not accept:
            rejected = [h for h in pending if h.state == "rejected"]
            await self._rejected([(h.session_id, h.path) for h in rejected], self._kept_roots())
        return results

    async def _rejected(self, changes: list[tuple[str, str]], roots: list[Path]) -> None:
        """A rejection changed the files, (session, path), after other sessions' turns began:
        undoing one of them leaves the files as the rejection left them
        (``TurnRecord.rejected``), in this run or the next."""
        by_session: dict[str, set[str]] = {}
        for session_id, path in changes:
            by_session.setdefault(session_id, set()).add(path)
        for session_id, paths in by_session.items():
            await self.record.rejected(session_id, sorted(paths), roots)

    def _kept_roots(self) -> list[Path]:
        """The root whose review is kept on disk (its record may not be loaded yet: no turn
        of this run began there)."""
        return [self.pending.root] if self.pending is not None else []

    async def decide_groups(self, groups: list[ReviewGroup], accept: bool) -> list[dict[str, Any]]:
        pending = [g for g in groups if g.state == "pending"]
        results = await self.queue.bulk.decide(groups, accept)
        if not accept:
            rejected = [g for g in pending if g.state == "rejected"]
            changes = [(g.session_id, str(Path(g.root) / f)) for g in rejected for f in g.files]
            await self._rejected(changes, [Path(g.root) for g in rejected])
        return results

    def saved_by_editor(self, path: Path, text: str) -> None:
        self.queue.saved_by_editor(path, text)
