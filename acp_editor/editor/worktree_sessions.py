"""Sessions that run in a git worktree of their own (opt-in: ``acp/newSession``'s ``worktree``).

The worktree is made before the session (the agent is started in it), from the user's current
state (``services.worktrees``); what the agent changes there is not the user's workspace, so
review leaves it alone (``Review.isolate``) until the user asks to bring it back: then it
comes in as the session's review, merged into open buffers (``Review.bring_back``). Discarding
deletes it and leaves no trace in the user's repository. Worktrees outlive the sidecar: a later
run finds one by its session's id, to bring it back or discard it.

``services.worktrees`` (git, checkpoints) is imported by the methods that use it, after
``initialize`` is answered (``editor/late.py``).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.errors import InvalidParams
from acp_editor.log import get_logger

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.owner import Review
    from acp_editor.services.worktrees import Worktree

log = get_logger(__name__)


class WorktreeSessions:
    def __init__(self, review: Callable[[], Review], channel: EditorChannel) -> None:
        self._review = review
        self.channel = channel
        self._of: dict[str, Worktree] = {}
        self.discarded: set[str] = set()
        """Sessions whose worktree is gone: their folder with it, so prompts are refused."""

    @property
    def review(self) -> Review:
        return self._review()

    async def make(self, root: str) -> Worktree:
        """A worktree of ``root``'s repository as it is now, for a session about to start in
        it. Raises ``InvalidParams`` (outside git, or git failed) with a message for the user."""
        from acp_editor.services import worktrees

        async with self._progress("Making the session's worktree"):
            try:
                worktree = await worktrees.create(Path(root), f"new-{uuid.uuid4().hex[:12]}")
            except worktrees.WorktreeError as exc:
                raise InvalidParams(str(exc)) from None
        self._isolate(worktree)
        return worktree

    async def opened(self, session_id: str, worktree: Worktree) -> None:
        """The session started in ``worktree``: kept under its id (a later run finds it so)."""
        from acp_editor.services import worktrees

        self._of[session_id] = await worktrees.rekey(worktree, session_id)

    async def failed(self, worktree: Worktree) -> None:
        """No session started in it: nothing of it stays."""
        from acp_editor.services import worktrees

        self.review.release(worktree.tree.resolve())
        await worktrees.discard(worktree)

    def folder(self, session_id: str) -> str | None:
        """Where the session works, if it has a worktree of its own."""
        worktree = self._of.get(session_id)
        return str(worktree.cwd) if worktree is not None else None

    def folder_at(self, session_id: str, cwd: str | None) -> str | None:
        """``cwd`` when it is in a worktree of a session's own (known from the session's first
        change, before the session is kept under its id), else None."""
        if cwd is None or session_id in self.discarded or not self.review.isolated_at(cwd):
            return None
        return cwd

    async def find(self, session_id: str, root: str) -> Worktree | None:
        """The session's worktree, made in this run or an earlier one (then isolated now)."""
        from acp_editor.services import worktrees

        worktree = self._of.get(session_id)
        if worktree is None:
            with contextlib.suppress(
                worktrees.WorktreeError
            ):  # not a repository: no worktree there
                worktree = await worktrees.find(Path(root), session_id)
            if worktree is not None:
                self._of[session_id] = worktree
                self._isolate(worktree)
        return worktree

    async def bring_back(self, session_id: str, root: str) -> dict[str, Any]:
        """The session's changes since it started (or since the last time) into the user's
        workspace as its review; what would overwrite the user's own changes is left."""
        from acp_editor.services import worktrees

        worktree = await self._required(session_id, root)
        try:
            async with self._progress("Bringing the session's changes back"):
                self._of[session_id], result = await self.review.bring_back(session_id, worktree)
        except worktrees.WorktreeError as exc:
            raise InvalidParams(str(exc)) from None
        return {
            "sessionId": session_id,
            "brought": [str(path) for path in result.brought],
            "left": [{"path": str(n.path), "reason": n.reason} for n in result.left],
        }

    async def changed(self, session_id: str, root: str) -> list[str]:
        """The files the session changed in its worktree and that were not brought back."""
        from acp_editor.services import worktrees

        try:
            found = await worktrees.changes(await self._required(session_id, root))
        except worktrees.WorktreeError as exc:
            raise InvalidParams(str(exc)) from None
        return [str(change.path) for change in found]

    async def discard(self, session_id: str, root: str) -> list[str]:
        """The worktree deleted; the files it changed that were not brought back (lost)."""
        from acp_editor.services import worktrees

        lost = await self.changed(session_id, root)
        worktree = await self._required(session_id, root)
        await worktrees.discard(worktree)
        self._of.pop(session_id, None)
        self.discarded.add(session_id)
        self.review.release(worktree.tree.resolve())
        return lost

    async def _required(self, session_id: str, root: str) -> Worktree:
        worktree = await self.find(session_id, root)
        if worktree is None:
            raise InvalidParams(f"the session {session_id} has no worktree of its own")
        return worktree

    def _isolate(self, worktree: Worktree) -> None:
        self.review.isolate(worktree.tree.resolve())

    @contextlib.asynccontextmanager
    async def _progress(self, title: str) -> Any:
        """Work-done progress while git works (a big repository takes seconds), when the editor
        shows it; a line in its log in any case."""
        self.channel.log_message(f"acp-editor: {title.lower()}")
        token: str | None = None
        if self.channel.features.work_done_progress:
            token = f"acp-worktree-{uuid.uuid4().hex[:8]}"
            try:
                await self.channel.work_done_progress.create_async(token)
                self.channel.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title))
            except Exception as exc:  # an editor that refuses the token shows no progress
                log.info("no progress for %r: %s", title, exc)
                token = None
        try:
            yield
        finally:
            if token is not None:
                self.channel.work_done_progress.end(token, lsp.WorkDoneProgressEnd())
